"""The play-test simulation, replay and trace files: determinism, debug info, validation."""
from __future__ import annotations

import json
import math

import pytest

from level_editor.core.collision.mover import SKIN
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall
from level_editor.core.level.file_format import load_level
from level_editor.core.collision.overlap import overlaps
from level_editor.core.playtest.replay import (
    Replay,
    ReplayFileError,
    Trace,
    dumps_replay,
    dumps_trace,
    load_replay,
    load_trace,
    loads_replay,
    loads_trace,
    save_replay,
    save_trace,
)
from level_editor.core.collision.shapes import Capsule, Rect, Vec2
from level_editor.core.playtest.simulation import DEFAULT_DT, Simulation, run_replay, step
from level_editor.core.collision.world import World

LEVELS = ["levels/showcase.json", "levels/showcase_box_player.json", "levels/maze.json", "levels/room_with_door.json"]


def busy_replay(n=300, dt=DEFAULT_DT):
    vs = []
    for i in range(n):
        a = i * 0.21
        speed = 240.0 if i % 50 else 100000.0
        vs.append((speed * math.cos(a), speed * math.sin(1.3 * a)))
    return Replay(dt, vs)


def level_with_everything(shape="circle"):
    return Level(
        player=Player(spawn=(40, 40), shape=shape, radius=10, size=(20, 14)),
        objects=(
            Wall("border", ((0, 0), (400, 0), (400, 300), (0, 300)), 8, True),
            Wall("zigzag", ((60, 100), (120, 160), (180, 100), (240, 160)), 6, False),
            Box("crate-1", (250, 200), (32, 32)),
            Box("crate-2", (282, 200), (32, 32)),
            OrientedBox("ramp", (100, 240), (50, 8), 20),
            Pillar("pillar", (320, 80), 20),
        ),
    )


@pytest.mark.parametrize("shape", ["circle", "box"])
def test_run_replay_is_deterministic_bit_for_bit(shape):
    level = level_with_everything(shape)
    a = dumps_trace(run_replay(level, busy_replay()))
    b = dumps_trace(run_replay(level, busy_replay()))
    assert a == b
    # And the same as stepping a Simulation by hand (the editor's path).
    sim = Simulation(level)
    positions = [sim.step(v) for v in busy_replay().velocities]
    assert dumps_trace(Trace(level.player.spawn, positions)) == a


@pytest.mark.parametrize("shape", ["circle", "box"])
def test_the_player_stays_inside_the_border_and_out_of_everything(shape):
    level = level_with_everything(shape)
    trace = run_replay(level, busy_replay())
    shapes = list(level.collision_shapes())
    for p in trace.positions:
        body = level.player.body_at(p)
        assert not any(overlaps(body, s) for s in shapes)
        assert 0 < p.x < 400 and 0 < p.y < 300


@pytest.mark.parametrize("path", LEVELS)
def test_sample_levels_simulate_cleanly(path):
    level = load_level(path)
    trace = run_replay(level, busy_replay(120))
    shapes = list(level.collision_shapes())
    assert trace.start == level.player.spawn
    assert len(trace.positions) == 120
    for p in trace.positions:
        assert not any(overlaps(level.player.body_at(p), s) for s in shapes)


def test_trace_starts_at_the_spawn_and_moves_by_velocity_times_dt():
    level = Level(player=Player(spawn=(64, 64)))
    trace = run_replay(level, Replay(0.25, [(4, 0), (4, 0), (0, -8)]))
    assert trace.start == Vec2(64, 64)
    assert trace.positions == (Vec2(65, 64), Vec2(66, 64), Vec2(66, 62))


def test_debug_info_for_a_tick():
    level = level_with_everything()
    sim = Simulation(level, start=(40, 300 - 4 - 10 - SKIN), dt=0.1)
    sim.step((100, 100))  # slides right along the bottom of the border
    info = sim.last
    assert info.tick == 0 and sim.tick == 1
    assert info.start == Vec2(40, 300 - 4 - 10 - SKIN)
    assert info.end == sim.position == Vec2(50, 300 - 4 - 10 - SKIN)
    assert info.candidates and "border" in info.candidate_ids
    assert info.contact_count >= 1
    c = info.contacts[0]
    assert c.object_id == "border" and c.normal == Vec2(0.0, -1.0)
    assert c.point.y == pytest.approx(296)
    assert info.slide == Vec2(1.0, 0.0)
    assert isinstance(info.swept[0], Capsule) and info.swept[0].radius == 10
    assert info.pushed_out == Vec2(0.0, 0.0)
    sim.reset()
    assert sim.position == Vec2(40, 300 - 4 - 10 - SKIN) and sim.tick == 0 and sim.last is None


def test_box_player_swept_outline():
    sim = Simulation(level_with_everything("box"), dt=0.1)
    sim.step((100, 0))
    outline = sim.last.swept[0]
    assert len(outline) == 4  # a box swept along x is still a box
    xs = sorted(p.x for p in outline)
    assert xs[0] == pytest.approx(30) and xs[-1] == pytest.approx(60)


def test_step_rejects_bad_numbers():
    world = World.from_level(level_with_everything())
    with pytest.raises(ValueError, match="dt"):
        step(world, Vec2(40, 40), Vec2(1, 0), 0.0)
    with pytest.raises(ValueError, match="finite"):
        step(world, Vec2(40, 40), Vec2(math.inf, 0), 0.1)
    with pytest.raises(ValueError, match="dt"):
        Simulation(level_with_everything(), dt=-1)


def test_spawn_inside_geometry_is_pushed_out_on_the_first_tick():
    level = Level(player=Player(spawn=(10, 10), radius=5), objects=(Box("b", (0, 0), (12, 100)),))
    trace = run_replay(level, Replay(0.1, [(0, 0)]))
    p = trace.positions[0]
    assert not overlaps(level.player.body_at(p), Rect(Vec2(0, 0), Vec2(12, 100)))
    assert p.x == pytest.approx(17 + SKIN)


# ---------------------------------------------------------------------------
# Replay and trace files.

GOOD = '{"format": "level-editor.replay", "version": 1, "dt": 0.016666666666666666, "velocities": [[240, 0], [0, -240.5]]}'


def test_replay_round_trip(tmp_path):
    r = loads_replay(GOOD)
    assert r.dt == 1 / 60 and r.velocities == (Vec2(240.0, 0.0), Vec2(0.0, -240.5))
    assert loads_replay(dumps_replay(r)) == r
    save_replay(tmp_path / "r.json", r)
    assert load_replay(tmp_path / "r.json") == r


def test_trace_round_trip_is_exact(tmp_path):
    t = Trace(Vec2(0.1, 0.2), (Vec2(1 / 3, 2 / 3), Vec2(1e300, -5e-324)))
    assert loads_trace(dumps_trace(t)) == t
    save_trace(tmp_path / "t.json", t)
    assert load_trace(tmp_path / "t.json") == t
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]  # no temporary file left


BIG_INT = "1" + "0" * 400


@pytest.mark.parametrize("text, message", [
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1,\n "velocities": [[1, 2],]}',
     "is not valid JSON: .* at line 2, column"),
    ('[1, 2]', "must hold a JSON object"),
    ('{"format": "level-editor.level", "version": 1, "dt": 0.1, "velocities": []}',
     'format "level-editor.level" version 1 is not supported'),
    ('{"format": "level-editor.replay", "version": 3, "dt": 0.1, "velocities": []}',
     'version 3 is not supported .*version 1 or 2'),
    ('{"format": "level-editor.replay", "version": 2, "dt": 0.1, "velocities": []}', 'missing "inputs"'),
    ('{"format": "level-editor.replay", "version": 1, "velocities": []}', 'missing "dt"'),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0, "velocities": []}', '"dt" must be > 0'),
    ('{"format": "level-editor.replay", "version": 1, "dt": -0.5, "velocities": []}', '"dt" must be > 0'),
    ('{"format": "level-editor.replay", "version": 1, "dt": "fast", "velocities": []}', '"dt" must be a finite number'),
    ('{"format": "level-editor.replay", "version": 1, "dt": NaN, "velocities": []}', "contains NaN"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 1e999, "velocities": []}', '"dt" must be a finite number'),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1}', 'missing "velocities"'),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": {}}', '"velocities" must be a list'),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[1, 2], [3]]}',
     r"velocities\[1\] must be a pair of numbers"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[1, "2"]]}',
     r"velocities\[0\] must be a pair of numbers"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[true, 2]]}',
     r"velocities\[0\] must be a pair of numbers"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[1, 2, 3]]}',
     r"velocities\[0\] must be a pair of numbers"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[1, Infinity]]}',
     "contains Infinity"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[1, -1e400]]}',
     r"velocities\[0\] is not a pair of finite numbers"),
    ('{"format": "level-editor.replay", "version": true, "dt": 0.1, "velocities": []}',
     "version true is not supported"),
    # Integers too large for a float: refused like 1e400, not an OverflowError.
    pytest.param('{"format": "level-editor.replay", "version": 1, "dt": %s, "velocities": []}' % BIG_INT,
                 '"dt" must be a finite number', id="dt-big-int"),
    pytest.param('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[%s, 0]]}' % BIG_INT,
                 r"velocities\[0\] is not a pair of finite numbers", id="velocity-big-int"),
    pytest.param('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "start": [0, -%s], "velocities": []}'
                 % BIG_INT, "start is not a pair of finite numbers", id="start-big-int"),
    pytest.param('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[%s, 0]]}'
                 % ("9" * 5000), "is not valid JSON: .*digits", id="velocity-5000-digits"),
    # Any speed is allowed, but a tick's motion must be a number.
    pytest.param('{"format": "level-editor.replay", "version": 1, "dt": 2, "velocities": [[1, 2], [0, -1e308]]}',
                 r"velocities\[1\] times dt is too large to be a motion", id="motion-overflows"),
])
def test_bad_replays_give_one_line_errors(text, message):
    with pytest.raises(ReplayFileError, match=message) as e:
        loads_replay(text, "r.json")
    assert "\n" not in str(e.value) and str(e.value).startswith("r.json: ")


def test_replay_numbers_may_be_ints_or_floats():
    text = ('{"format": "level-editor.replay", "version": 1.0, "dt": 1, "start": [3, 4.5],'
            ' "velocities": [[240, 0], [0.5, -7]]}')
    r = loads_replay(text)
    assert r == Replay(1.0, [(240.0, 0.0), (0.5, -7.0)], start=(3.0, 4.5))
    assert type(r.dt) is float and all(type(c) is float for v in r.velocities for c in v)


def test_a_bad_trace_header_is_refused():
    with pytest.raises(ReplayFileError, match="version true is not supported"):
        loads_trace('{"format": "level-editor.trace", "version": true, "start": [0, 0], "positions": []}')


def test_unreadable_replay_files(tmp_path):
    with pytest.raises(ReplayFileError, match="no such file"):
        load_replay(tmp_path / "missing.json")
    with pytest.raises(ReplayFileError, match="is a folder"):
        load_replay(tmp_path)
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ReplayFileError, match="not UTF-8"):
        load_replay(tmp_path / "bin.json")


def test_bad_traces_are_refused():
    with pytest.raises(ReplayFileError, match='missing "start"'):
        loads_trace('{"format": "level-editor.trace", "version": 1, "positions": []}')
    with pytest.raises(ReplayFileError, match=r"positions\[0\]"):
        loads_trace('{"format": "level-editor.trace", "version": 1, "start": [0, 0], "positions": [null]}')


def test_trace_file_matches_the_contract_example_shape():
    data = json.loads(dumps_trace(run_replay(Level(player=Player(spawn=(64, 64))),
                                             Replay(1 / 60, [(240, 0), (240, 0), (0, -240)]))))
    assert data == {"format": "level-editor.trace", "version": 1, "start": [64.0, 64.0],
                    "positions": [[68.0, 64.0], [72.0, 64.0], [72.0, 60.0]]}
