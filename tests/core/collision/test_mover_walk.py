"""Issue 23, item 7: a tick costs what its motion up to the first contact costs, at any speed.

A sweep or a slide across more than a few cells walks the grid's cells along the motion and stops
past the first hit (``CellGrid.walk``); across a few cells it reads them all at once. Both must
give the same tick bit for bit: here every tick is run three ways (as it is, always reading every
cell of the motion's box at once, as before the walk, and always walking) and compared.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from level_editor.core.collision import mover
from level_editor.core.collision.broadphase import CellGrid
from level_editor.core.collision.mover import move, move_xy
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Vec2
from level_editor.core.collision.world import World
from level_editor.core.level.generate import generate_level
from level_editor.core.playtest.replay import Replay
from level_editor.core.playtest.simulation import run_replay

coordinate = st.floats(-400, 400)
size = st.one_of(st.floats(1, 40), st.floats(40, 600))
shape = st.one_of(
    st.builds(lambda x, y, w, h: Rect(Vec2(x, y), Vec2(w, h)), coordinate, coordinate, size, size),
    st.builds(lambda ax, ay, bx, by, r: Capsule(Vec2(ax, ay), Vec2(bx, by), r),
              coordinate, coordinate, coordinate, coordinate, st.floats(0.5, 6)),
    st.builds(lambda x, y, r: Circle(Vec2(x, y), r), coordinate, coordinate, st.floats(1, 30)),
    st.builds(lambda x, y, hx, hy, a: OrientedRect(Vec2(x, y), Vec2(hx, hy), a),
              coordinate, coordinate, st.floats(1, 60), st.floats(1, 60), st.floats(0, 360)),
)
# A run of lined-up boxes (a floor to slide along, seams included) beside the random shapes.
floor = st.builds(lambda x, y, n, w: [Rect(Vec2(x + k * w, y), Vec2(w, 16.0)) for k in range(n)],
                  coordinate, coordinate, st.integers(1, 30), st.sampled_from([8.0, 16.0, 33.0]))
speed = st.one_of(st.floats(-3e4, 3e4), st.sampled_from([1e5, -1e7, 1e12, -1e300, 1e300, 1.7e308]))
velocity = st.tuples(speed, speed)
player = st.sampled_from([Circle(Vec2(0, 0), 6.0), Rect(Vec2(-5, -8), Vec2(10, 16)), Circle(Vec2(0, 0), 0.5)])


def ticks(world, start, velocities):
    """Every tick's end, and what the debug view is told (the contacts), from ``move`` and ``move_xy``."""
    out = []
    x, y = start
    for vx, vy in velocities:
        m = move(world, Vec2(x, y), Vec2(vx / 60.0, vy / 60.0))
        x2, y2 = move_xy(world, x, y, vx / 60.0, vy / 60.0)
        assert (x2, y2) == tuple(m.position)
        out.append((x2, y2, m.path, m.contacts))
        x, y = x2, y2
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(shape, max_size=25), floor, player, st.tuples(coordinate, coordinate),
       st.lists(velocity, min_size=1, max_size=25))
def test_walking_the_cells_gives_every_tick_bit_for_bit(shapes, run, body, start, velocities):
    shapes = shapes + run
    probe = World(shapes, body)
    assume(not any(overlaps(probe.body_at(*start), s) for s in shapes))
    as_it_is = ticks(World(shapes, body), start, velocities)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mover, "_few_cells", lambda *box: True)
        every_cell_at_once = ticks(World(shapes, body), start, velocities)
        patch.setattr(mover, "_few_cells", lambda *box: False)
        always_walking = ticks(World(shapes, body), start, velocities)
    assert as_it_is == every_cell_at_once == always_walking


def made(world):
    """How many colliders have had their obstacle made: each one a sweep or a slide looked at."""
    return sum(ob is not None for ob in world.obstacle_list)


@pytest.fixture(scope="module")
def big_level():
    return generate_level(10_000, seed=0)


@pytest.mark.parametrize("wished", [(1e300, 0.0), (1e300, 1e300), (0.0, 1e300), (3e299, 1e300)])
def test_a_replay_alternating_1e300_px_s_on_10000_objects_only_looks_along_its_motion(big_level, wished):
    # The replay, shortened: 1,000,000 ticks of it run in the tick benchmark
    # (python -m tests.benchmarks.bench_tick --wild). Before the walk, each tick asked
    # for everything in its motion's box, the whole level, and made every collider.
    world = World.from_level(big_level)
    vx, vy = wished
    replay = Replay(1 / 60, [(vx, vy) if k % 2 == 0 else (-vx, -vy) for k in range(20_000)])
    # Only what lies along its path through the level is looked at (a flight through aligned doors
    # crosses it once), from the first ticks to the last.
    run_replay(big_level, Replay(1 / 60, replay.velocities[:40]), world=world)
    assert made(world) < len(world) // 8, f"{made(world)} of {len(world)} colliders looked at"
    trace = run_replay(big_level, replay, world=world)
    assert len(trace.positions) == 20_000
    assert all(math.isfinite(p.x) and math.isfinite(p.y) for p in trace.positions)
    assert made(world) < len(world) // 8, f"{made(world)} of {len(world)} colliders looked at"
    # The ticks are the ones a read of every cell at once gives (the first 40: that read is slow).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mover, "_few_cells", lambda *box: True)
        before = run_replay(big_level, Replay(1 / 60, replay.velocities[:40]), world=World.from_level(big_level))
    assert before.positions == trace.positions[:40]


def test_the_walk_reads_the_cells_along_the_motion_in_order_and_only_the_populated_ones():
    boxes = [(k * 100.0, 0.0, k * 100.0 + 10.0, 10.0) for k in range(10)] + [(0.0, 500.0, 10.0, 510.0)]
    grid = CellGrid(boxes, 16.0)
    # Leftwards from far beyond the level, at the speed of 1e300 px/s: only the row it crosses.
    seen = [(near, [i for b in buckets for i in b]) for near, buckets in
            grid.walk(1e298, 5.0, -1e298, 0.0, 0.0, 5.0, (-1.0, 4.0, 1e298, 6.0), 0.01)]
    assert list(dict.fromkeys(i for _, found in seen for i in found)) == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    nears = [near for near, _ in seen]
    assert nears == sorted(nears) and len(seen) == 57  # the populated columns, 56 to 0, and no more
    # A box query reaching past every float cell number reads the populated cells only: beyond them, none.
    assert list(grid.box(2e3, 0.0, 1e308, 1e308)) == [] and list(grid.box(-1e308, -1e308, -1.0, 1e308)) == []
