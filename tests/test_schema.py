"""The level JSON Schema (core/level/schemas, read by level_editor.core.level.schema) describes every sample level and what save
writes."""
import json
from pathlib import Path

import jsonschema
import pytest

from level_editor.core.level.file_format import dumps_level, load_level
from level_editor.core.level.migrations import CURRENT_VERSION
from level_editor.core.level.schema import level_schema, schema_file_name

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = level_schema()
LEVELS = sorted((ROOT / "levels").glob("*.json"))


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_is_the_current_format_version_s_and_ships_in_the_package():
    assert SCHEMA["properties"]["version"] == {"const": CURRENT_VERSION}
    assert (ROOT / "core" / "level" / "schemas" / schema_file_name()).is_file()
    assert schema_file_name(1) == "level-v1.schema.json"


def test_each_call_gives_a_fresh_schema():
    level_schema()["properties"].clear()
    assert level_schema() == SCHEMA


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_every_sample_level_matches_the_schema(path):
    jsonschema.validate(json.loads(path.read_text()), SCHEMA)


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_what_save_writes_matches_the_schema(path):
    jsonschema.validate(json.loads(dumps_level(load_level(path))), SCHEMA)


def _by_id(d, object_id):
    return next(o for o in d["objects"] if o["id"] == object_id)


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(format="other"),
    lambda d: _by_id(d, "courtyard").update(thickness=0),
    lambda d: _by_id(d, "courtyard").update(kind="triangle"),
    lambda d: d["player"].pop("spawn"),
    lambda d: _by_id(d, "courtyard").update(points=[[0, 0]]),
    lambda d: d.update(layers=[]),
    lambda d: _by_id(d, "crate").pop("layer"),
    lambda d: _by_id(d, "floor").update(cells=["##x#"]),
    lambda d: _by_id(d, "gate").update(properties={"opened_by": {"ref": 3}}),
    lambda d: _by_id(d, "gate").update(properties={"list": [1, 2]}),
    lambda d: d["types"][0].update(color="red"),
    lambda d: _by_id(d, "backdrop").update(opacity=1.5),
    lambda d: _by_id(d, "exit").update(solid="no"),
    # the documented limits (core/level/limits.py), as the loader enforces them
    lambda d: _by_id(d, "crate").update(origin=[1e200, 0]),
    lambda d: _by_id(d, "crate").update(size=[1e308, 1]),
    lambda d: _by_id(d, "courtyard").update(thickness=5e-324),
    lambda d: d["player"].update(speed=1e300),
    lambda d: d["player"].update(spawn=[0, -2e7]),
    lambda d: d.update(grid=1e6),
])
def test_schema_rejects_bad_levels(mutate):
    d = json.loads((ROOT / "levels" / "game_content.json").read_text())
    jsonschema.validate(d, SCHEMA)
    mutate(d)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(d, SCHEMA)


def test_version_1_has_its_own_schema_beside_version_2():
    from importlib.resources import files

    v1 = json.loads((files("level_editor.core.level") / "schemas" / schema_file_name(1)).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(v1)
    old = json.loads((ROOT / "tests" / "core" / "level" / "v1" / "showcase.json").read_text())
    jsonschema.validate(old, v1)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(old, SCHEMA)


def test_the_schemas_say_the_loader_s_limits():
    from importlib.resources import files

    from level_editor.core.level import limits

    v1 = json.loads((files("level_editor.core.level") / "schemas" / schema_file_name(1)).read_text(encoding="utf-8"))
    for schema in (SCHEMA, v1):
        defs = schema["$defs"]
        assert (defs["coordinate"]["minimum"], defs["coordinate"]["maximum"]) == (-limits.MAX_COORDINATE,
                                                                                 limits.MAX_COORDINATE)
        assert (defs["length"]["minimum"], defs["length"]["maximum"]) == (limits.MIN_SIZE, limits.MAX_SIZE)
        assert defs["wall"]["properties"]["points"]["maxItems"] == limits.MAX_WALL_NODES
        assert defs["player"]["properties"]["speed"]["maximum"] == limits.MAX_SPEED
        assert schema["properties"]["grid"]["maximum"] == limits.MAX_GRID


def test_an_export_a_million_pixels_out_matches_the_schema(tmp_path):
    from level_editor.core.cli import main

    d = json.loads((ROOT / "levels" / "game_content.json").read_text())
    for obj in d["objects"]:
        for key in ("origin", "center", "position"):
            if key in obj:
                obj[key] = [obj[key][0] + 1e6, obj[key][1] - 1e6]
        if "points" in obj:
            obj["points"] = [[x + 1e6, y - 1e6] for x, y in obj["points"]]
    d["player"]["spawn"] = [d["player"]["spawn"][0] + 1e6, d["player"]["spawn"][1] - 1e6]
    (tmp_path / "far.json").write_text(json.dumps(d))
    assert main(["export", str(tmp_path / "far.json"), "-o", str(tmp_path / "out.json")]) in (0, 1)
    if (tmp_path / "out.json").exists():
        jsonschema.validate(json.loads((tmp_path / "out.json").read_text()), SCHEMA)
