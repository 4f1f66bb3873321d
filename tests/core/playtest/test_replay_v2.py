"""Version 2 replays: what the player pressed per tick, read, written and played by `level-editor simulate`
(version 1 replays play as before)."""
from __future__ import annotations

import json
import re

import pytest

from level_editor.core.cli import main
from level_editor.core.level.model import Box, Level, Player
from level_editor.core.playtest.replay import (
    Replay,
    ReplayFileError,
    dumps_replay,
    load_replay,
    loads_replay,
    save_replay,
)
from level_editor.core.playtest.simulation import run_replay, wished_velocity

LEVEL = "levels/game_content.json"
HEAD = '{"format": "level-editor.replay", "version": 2, "dt": 0.016666666666666666, '


def test_a_version_2_replay_reads_its_inputs():
    r = loads_replay(HEAD + '"start": [3, 4], "inputs": [[1, 0, 0], [1, 0, 1], [0, 1, 1], [-0.5, 0, 0], [0.25, -1, 1.0]]}')
    assert r.version == 2 and r.ticks == 5 and r.velocities == ()
    assert r.inputs == ((1.0, 0.0, 0), (1.0, 0.0, 1), (0.0, 1.0, 1), (-0.5, 0.0, 0), (0.25, -1.0, 1))
    assert all(type(v) is float for tick in r.inputs for v in tick[:2]) and all(type(t[2]) is int for t in r.inputs)
    assert r.start == (3.0, 4.0)


def test_a_version_2_replay_round_trips(tmp_path):
    r = Replay(1 / 60, inputs=[(1, 0, 0), (-0.1, 0.7, 1), (-0.0, 1e-300, 0)], start=(5, 6))
    assert loads_replay(dumps_replay(r)) == r
    save_replay(tmp_path / "r.json", r)
    back = load_replay(tmp_path / "r.json")
    assert back == r and str(back.inputs[2][0]) == "-0.0"
    assert json.loads((tmp_path / "r.json").read_text())["version"] == 2
    v1 = Replay(0.5, [(2, 0)])
    assert v1.version == 1 and json.loads(dumps_replay(v1))["version"] == 1 and "inputs" not in dumps_replay(v1)


def test_a_replay_holds_velocities_or_inputs_never_both():
    with pytest.raises(ValueError, match="not both"):
        Replay(0.5, [(1, 0)], inputs=[(1, 0, 0)])
    with pytest.raises(ValueError, match=re.escape("inputs[1]: move_y must be in [-1, 1], not 3")):
        Replay(0.5, inputs=[(1, 0, 0), (0, 3, 0)])


def test_the_wished_velocity_is_the_speed_times_the_stick():
    assert wished_velocity(240.0, 1, 0) == (240.0, 0.0)
    assert wished_velocity(240.0, -0.5, 0.25) == (-120.0, 60.0)
    assert wished_velocity(200.0, True, 0) == (200.0, 0.0)


def test_inputs_play_as_the_velocities_they_stand_for():
    level = Level(player=Player(spawn=(0, 0), radius=5, speed=90),
                  objects=(Box("wall", (40, -50), (10, 100)), Box("zone", (20, -5), (5, 10), solid=False)))
    inputs = [(1, 0.1 * (n % 7 - 3), n % 2) for n in range(120)]
    by_inputs = run_replay(level, Replay(1 / 60, inputs=inputs))
    by_velocities = run_replay(level, Replay(1 / 60, [(90.0 * mx, 90.0 * my) for mx, my, _ in inputs]))
    assert by_inputs == by_velocities
    assert by_inputs.events and by_inputs.positions[-1].x < 40 - 5


def replay_file(tmp_path, text):
    path = tmp_path / "r.json"
    path.write_text(text)
    return str(path)


def test_simulate_plays_a_version_2_replay(tmp_path, capsys):
    r = replay_file(tmp_path, HEAD + '"inputs": [[1, 0, 0], [1, 0, 1], [0, 1, 1], [-0.5, 0, 0]]}')
    assert main(["simulate", LEVEL, "--input", r]) == 0
    trace = json.loads(capsys.readouterr().out)
    # speed 240 at 60 ticks a second: 4 px a tick
    assert trace["start"] == [96.0, 96.0]
    assert trace["positions"] == [[100.0, 96.0], [104.0, 96.0], [104.0, 100.0], [102.0, 100.0]]


@pytest.mark.parametrize("inputs, said", [
    ("[[1, 0, 0], [1.5, 0, 0]]", "inputs[1]: move_x must be in [-1, 1], not 1.5"),
    ("[[0, -1.01, 0]]", "inputs[0]: move_y must be in [-1, 1], not -1.01"),
    ("[[0, 0, 0], [0, 0, 0], [0, 0, 2]]", "inputs[2]: jump must be 0 or 1, not 2"),
    ("[[0, 0, 0.5]]", "inputs[0]: jump must be 0 or 1, not 0.5"),
    ("[[1, 0, 0], [1, 0]]", "inputs[1] must be three numbers [move_x, move_y, jump], not [1, 0]"),
    ("[[1, 0, 0, 0]]", "inputs[0] must be three numbers [move_x, move_y, jump], not [1, 0, 0, 0]"),
    ('[[1, "0", 0]]', 'inputs[0] must be three numbers [move_x, move_y, jump], not [1, "0", 0]'),
    ("[[1, 0, true]]", "inputs[0] must be three numbers [move_x, move_y, jump], not [1, 0, true]"),
    ("[[1, 0, 0], 5]", "inputs[1] must be three numbers [move_x, move_y, jump], not 5"),
    ("[[1, 0, 0], [NaN, 0, 0]]", "inputs[1]: move_x must be a finite number in [-1, 1], not nan"),
    ("[[0, Infinity, 0]]", "inputs[0]: move_y must be a finite number in [-1, 1], not inf"),
    ("[[0, 0, 0], [0, 0, -Infinity]]", "inputs[1]: jump must be 0 or 1, not -inf"),
    ("[[0, 1e400, 0]]", "inputs[0]: move_y must be a finite number in [-1, 1], not inf"),
    ("[[0, 1%s, 0]]" % ("0" * 400), "inputs[0]: move_y must be in [-1, 1], not 1000000000000000000000000000000000000..."),
    ("{}", '"inputs" must be a list of [move_x, move_y, jump] ticks, not {}'),
])
def test_a_bad_version_2_replay_is_exit_2_with_one_line_naming_the_tick(tmp_path, capsys, inputs, said):
    r = replay_file(tmp_path, HEAD + f'"inputs": {inputs}}}')
    assert main(["simulate", LEVEL, "--input", r]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == f"level-editor: {r}: {said}\n"


@pytest.mark.parametrize("text, said", [
    (HEAD + '"velocities": [[1, 0]]}', 'missing "inputs"'),
    ('{"format": "level-editor.replay", "version": 3, "dt": 0.1, "inputs": []}',
     'version 3 is not supported (expected format "level-editor.replay" version 1 or 2)'),
    (HEAD + '"mine": NaN, "inputs": []}', "contains NaN, which is not a finite number"),
    ('{"format": "level-editor.replay", "version": 2, "dt": NaN, "inputs": []}', '"dt" must be a finite number'),
    ('{"format": "level-editor.replay", "version": 2, "dt": 0.1, "start": [0, NaN], "inputs": []}',
     "start is not a pair of finite numbers"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[NaN, 0]]}', "contains NaN"),
])
def test_other_problems_of_a_replay(text, said):
    with pytest.raises(ReplayFileError) as e:
        loads_replay(text, "r.json")
    assert said in str(e.value) and "\n" not in str(e.value)


def test_too_many_ticks_are_refused(monkeypatch):
    from level_editor.core.playtest import replay

    monkeypatch.setattr(replay, "MAX_REPLAY_TICKS", 3)
    with pytest.raises(ReplayFileError, match='"inputs" has 4 ticks, more than the 3 a replay may have'):
        loads_replay(HEAD + '"inputs": [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]}')
