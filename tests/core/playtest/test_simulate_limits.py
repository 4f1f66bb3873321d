"""Issue 14, the simulation's side: any level that loaded and any replay end without a traceback.

Velocities of any finite magnitude (1e308, subnormals), a player at the limits of
``core/level/limits.py`` (coordinates and sizes up to 1e7: a player 1e7 wide), walls of
hundreds of thousands of nodes and dense levels: the simulation ends, every position is
finite, and a player that starts clear of solid geometry never ends a tick inside it.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from level_editor.core.collision.mover import EDGE, SKIN
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.world import World
from level_editor.core.level.limits import MAX_COORDINATE, MAX_SIZE, MAX_SPEED
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall
from level_editor.core.playtest.replay import Replay, dumps_trace, loads_trace
from level_editor.core.playtest.simulation import Simulation, run_replay

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

any_float = st.floats(allow_nan=False, allow_infinity=False)
speeds = st.one_of(any_float, st.sampled_from([1e308, -1e308, 5e-324, -5e-324, 2.2e-308, 0.0, -0.0, MAX_SPEED]))
dts = st.sampled_from([1 / 60, 1.0, 1e-3, 0.25])


def clear_of_everything(level: Level, x: float, y: float) -> bool:
    body = level.player.body_at((x, y))
    return not any(overlaps(body, s) for s in level.collision_shapes())


def replays(ticks=st.integers(1, 40)):
    @st.composite
    def build(draw):
        dt = draw(dts)
        n = draw(ticks)
        velocities = []
        for _ in range(n):
            vx, vy = draw(speeds), draw(speeds)
            # The replay reader refuses a velocity whose motion is not a number (the file's side).
            assume(math.isfinite(vx * dt) and math.isfinite(vy * dt))
            velocities.append((vx, vy))
        return Replay(dt, velocities)
    return build()


def check_trace(level: Level, replay: Replay) -> None:
    """It ends, every position is finite, no tick ends inside solid geometry, and the trace writes and reads back."""
    trace = run_replay(level, replay)
    assert len(trace.positions) == len(replay.velocities)
    for p in trace.positions:
        assert math.isfinite(p.x) and math.isfinite(p.y)
        assert abs(p.x) <= EDGE and abs(p.y) <= EDGE
        assert clear_of_everything(level, p.x, p.y), p
    assert loads_trace(dumps_trace(trace)) == trace


ROOM = Level(player=Player(spawn=(0, 0), radius=12), objects=(
    Wall("room", [(-200, -150), (200, -150), (200, 150), (-200, 150)], 8, closed=True),
    Box("crate", (60, -20), (40, 40)),
    OrientedBox("plank", (-80, 60), (50, 6), 30),
    Pillar("pillar", (0, -90), 14),
    Wall("zigzag", [(-150, -100), (-120, -60), (-90, -100), (-60, -60)], 4),
))
OPEN = Level(player=Player(spawn=(0, 0), shape="box", size=(20, 30)), objects=(
    Box("crate", (60, -20), (40, 40)), Pillar("pillar", (-50, 0), 10)))


@SETTINGS
@given(replays())
def test_velocities_of_any_magnitude_inside_a_closed_room(replay):
    check_trace(ROOM, replay)


@SETTINGS
@given(replays())
def test_velocities_of_any_magnitude_in_an_open_level_stay_finite(replay):
    """Nothing stops the player: it runs to the edge of the floats and stays there, finite."""
    check_trace(OPEN, replay)


def test_running_off_at_1e308_for_many_ticks_stops_at_the_edge_of_the_floats():
    trace = run_replay(OPEN, Replay(1.0, [(1e308, -1e308)] * 500 + [(-1e308, 0)] * 3))
    assert trace.positions[499] == (EDGE, -EDGE)
    assert all(math.isfinite(p.x) and math.isfinite(p.y) for p in trace.positions)
    # Back again: 1e308 per tick from the edge towards the middle.
    assert trace.positions[500].x == EDGE - 1e308


coordinate = st.floats(-MAX_COORDINATE, MAX_COORDINATE)
size = st.floats(1e-3, MAX_SIZE)


@st.composite
def levels_at_the_limits(draw):
    shape = draw(st.sampled_from(["circle", "box"]))
    player = Player(spawn=(draw(coordinate), draw(coordinate)), shape=shape, radius=draw(size) / 2,
                    size=(draw(size), draw(size)))
    objects = []
    for n in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["box", "pillar", "wall", "obox"]))
        x, y = draw(coordinate), draw(coordinate)
        if kind == "box":
            objects.append(Box(f"b{n}", (x, y), (draw(size), draw(size))))
        elif kind == "pillar":
            objects.append(Pillar(f"p{n}", (x, y), draw(size) / 2))
        elif kind == "obox":
            objects.append(OrientedBox(f"o{n}", (x, y), (draw(size) / 2, draw(size) / 2), draw(st.floats(-180, 180))))
        else:
            x2, y2 = draw(coordinate), draw(coordinate)
            assume((x2, y2) != (x, y))
            objects.append(Wall(f"w{n}", [(x, y), (x2, y2)], draw(size)))
    level = Level(player=player, objects=tuple(objects))
    assume(clear_of_everything(level, player.spawn.x, player.spawn.y))
    return level


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(levels_at_the_limits(), replays(st.integers(1, 25)))
def test_players_and_objects_at_the_limits_of_a_level(level, replay):
    check_trace(level, replay)


def test_a_player_1e7_wide_between_objects_1e7_wide():
    level = Level(player=Player(spawn=(0, 0), shape="box", size=(MAX_SIZE, MAX_SIZE)), objects=(
        Box("left", (-MAX_COORDINATE, -MAX_COORDINATE), (MAX_SIZE / 4, MAX_SIZE)),
        Box("right", (MAX_COORDINATE - MAX_SIZE / 4, 0), (MAX_SIZE / 4, MAX_SIZE)),
        Wall("floor", [(-MAX_COORDINATE, MAX_COORDINATE), (MAX_COORDINATE, MAX_COORDINATE)], MAX_SIZE / 10),
    ))
    replay = Replay(1 / 60, [(MAX_SPEED * 60, 0)] * 10 + [(0, MAX_SPEED * 60)] * 10 + [(-MAX_SPEED * 60, 0)] * 10)
    check_trace(level, replay)
    x, y = run_replay(level, replay).positions[9]
    assert x == pytest.approx(MAX_COORDINATE - MAX_SIZE / 4 - MAX_SIZE / 2 - SKIN, abs=1e-6)  # stopped by "right"


def zigzag_wall(nodes: int, x0: float = 0.0) -> Wall:
    return Wall("long", [(x0 + 10.0 * i, 40.0 if i % 2 else 0.0) for i in range(nodes)], 4)


def test_a_wall_of_300000_nodes_builds_and_plays():
    # how long the world takes to build, near linear in the nodes: the "world s" column of
    # python -m tests.benchmarks.bench_validation --sizes --cells --walls 30000 300000
    player = Player(spawn=(100.0, -30.0), radius=5)
    big = Level(player=player, objects=(zigzag_wall(300_000),))
    assert len(World.from_level(big)) == 300_000 - 1  # a collider per segment
    # Along the wall's top at a walk and far too fast: it slides along it, never through.
    replay = Replay(1 / 60, [(240.0, 240.0)] * 30 + [(2e7, 0.0)] * 30 + [(-1e9, 1e9)] * 5)
    trace = run_replay(big, replay)
    wall = big.objects[0].collision_shapes()
    for p in trace.positions:
        assert math.isfinite(p.x) and math.isfinite(p.y)
        body = big.player.body_at(p)
        near = wall[max(0, int(p.x // 10) - 3):max(0, int(p.x // 10) + 4)]
        assert not any(overlaps(body, s) for s in near), p
    assert trace.positions[-1] != trace.start


@st.composite
def dense_levels(draw):
    """Dozens of boxes, pillars and oriented boxes piled into a small room, overlapping each other but not the spawn."""
    shape = draw(st.sampled_from(["circle", "box"]))
    player = Player(spawn=(0, 0), shape=shape, radius=4, size=(8, 6))
    objects = [Wall("room", [(-100, -100), (100, -100), (100, 100), (-100, 100)], 6, closed=True)]
    for n in range(draw(st.integers(10, 60))):
        x, y = draw(st.floats(-100, 100)), draw(st.floats(-100, 100))
        kind = draw(st.sampled_from(["box", "pillar", "obox"]))
        if kind == "box":
            obj = Box(f"b{n}", (x, y), (draw(st.floats(1, 30)), draw(st.floats(1, 30))))
        elif kind == "pillar":
            obj = Pillar(f"p{n}", (x, y), draw(st.floats(0.5, 15)))
        else:
            obj = OrientedBox(f"o{n}", (x, y), (draw(st.floats(1, 15)), draw(st.floats(1, 15))),
                              draw(st.floats(-180, 180)))
        if not any(overlaps(player.body_at((0, 0)), s) for s in obj.collision_shapes()):
            objects.append(obj)
    return Level(player=player, objects=tuple(objects))


@SETTINGS
@given(dense_levels(), replays(st.integers(1, 60)))
def test_dense_levels(level, replay):
    check_trace(level, replay)


def test_the_editor_path_ends_in_the_same_places_at_absurd_speeds():
    """Simulation.step (the editor's play-test, which records the debug view) and run_replay agree bit for bit."""
    replay = Replay(1 / 60, [(1e308, 3e307), (-1e308, 1e308), (5e-324, 0), (240, -240), (-2e7, 1e5)] * 4)
    sim = Simulation(ROOM, dt=replay.dt)
    assert tuple(sim.step(v) for v in replay.velocities) == run_replay(ROOM, replay).positions
