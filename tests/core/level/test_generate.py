"""Generated levels: exact counts, deterministic, valid, with the spawn free."""
import json

import pytest

from level_editor.core.level.generate import generate_level
from level_editor.core.level.file_format import dumps_level, loads_level
from level_editor.core.checks.validation import validate_level
from level_editor.editor.launcher import main


@pytest.mark.parametrize("count", [0, 1, 19, 20, 21, 250])
def test_exact_object_count_and_unique_ids(count):
    level = generate_level(count)
    assert len(level.objects) == count
    assert len({o.id for o in level.objects}) == count


def test_same_seed_same_level_other_seed_other_furniture():
    assert generate_level(300, seed=4) == generate_level(300, seed=4)
    assert generate_level(300, seed=4) != generate_level(300, seed=5)


@pytest.mark.parametrize("shape", ["circle", "box"])
def test_generated_levels_have_no_errors(shape):
    level = generate_level(400, seed=2, player_shape=shape)
    assert level.player.shape == shape
    assert [p for p in validate_level(level) if p.is_error] == []
    assert loads_level(dumps_level(level)) == level


def test_has_every_kind_of_object():
    kinds = {o.kind for o in generate_level(200).objects}
    assert kinds == {"wall", "box", "oriented_box", "circle"}


def test_generate_command(tmp_path, capsys):
    out = tmp_path / "big.json"
    assert main(["generate", "-n", "120", "--seed", "3", "-o", str(out)]) == 0
    assert len(json.loads(out.read_text())["objects"]) == 120
    assert main(["generate", "-n", "-4", "-o", str(out)]) == 2
    assert "must be 0 or more" in capsys.readouterr().err


@pytest.mark.parametrize("count", [1, 5, 13, 20, 27, 61])
@pytest.mark.parametrize("shape", ["circle", "box"])
def test_no_wall_crosses_or_lies_on_another_and_nothing_is_far(count, shape):
    # Counts that cut a room short leave partial rooms and dangling corridors.
    level = generate_level(count, seed=count, player_shape=shape)
    warnings = [str(p) for p in validate_level(level)
                if any(w in p.message for w in ("crosses", "runs along", "runs back", "far from"))]
    assert warnings == []


def test_an_unknown_player_shape_is_refused():
    with pytest.raises(ValueError, match="triangle"):
        generate_level(3, player_shape="triangle")
