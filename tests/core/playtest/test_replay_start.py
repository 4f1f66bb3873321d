"""The optional replay ``start``: a play-test begun away from the spawn (Shift+F5) replays exactly."""
from __future__ import annotations

import json

import pytest

from level_editor.core.level.model import Box, Level, Player
from level_editor.core.playtest.replay import (
    Replay,
    ReplayFileError,
    dumps_replay,
    load_replay,
    loads_replay,
    save_replay,
)
from level_editor.core.collision.shapes import Vec2
from level_editor.core.playtest.simulation import Simulation, run_replay

LEVEL = Level(player=Player(spawn=(0, 0), radius=8), objects=(Box("b", (100, -50), (20, 100)),))


def test_without_start_the_file_is_the_contract_format_unchanged():
    text = dumps_replay(Replay(0.5, [(1, 2)]))
    assert json.loads(text) == {"format": "level-editor.replay", "version": 1, "dt": 0.5, "velocities": [[1.0, 2.0]]}
    assert loads_replay(text).start is None


def test_start_round_trips_through_a_file(tmp_path):
    r = Replay(1 / 60, [(240, 0), (0, 240)], start=(50.25, -3.125))
    save_replay(tmp_path / "r.json", r)
    back = load_replay(tmp_path / "r.json")
    assert back == r and back.start == Vec2(50.25, -3.125)


def test_run_replay_starts_at_the_start_and_matches_a_simulation_begun_there():
    velocities = [(600, 30)] * 20 + [(0, -240)] * 5
    sim = Simulation(LEVEL, start=(40, 10))
    expected = [sim.step(v) for v in velocities]
    trace = run_replay(LEVEL, Replay(1 / 60, velocities, start=(40, 10)))
    assert trace.start == Vec2(40, 10)
    assert list(trace.positions) == expected


def test_run_replay_without_start_uses_the_spawn():
    assert run_replay(LEVEL, Replay(0.1, [(10, 0)])).start == Vec2(0, 0)


@pytest.mark.parametrize("start", ['"here"', "[1]", "[1, \"2\"]", "[1e999, 0]"])
def test_bad_start_is_refused_with_its_name(start):
    text = '{"format": "level-editor.replay", "version": 1, "dt": 0.1, "start": %s, "velocities": []}' % start
    with pytest.raises(ReplayFileError, match="start"):
        loads_replay(text)


def test_a_non_finite_start_is_refused_in_code():
    with pytest.raises(ValueError):
        Replay(0.1, [], start=(float("nan"), 0))
