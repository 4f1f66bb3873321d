"""The play-test's start: the cell grid finds every obstacle the exact bounds would, obstacles are made on
first meeting only, and the shortcut hulls are exactly convex_hull's."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from level_editor.core.collision.broadphase import BroadPhase, CellGrid
from level_editor.core.collision.mover import move, move_xy
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.rounded import RoundedPolygon
from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Segment, Vec2
from level_editor.core.collision.sweep import configuration_obstacle, core_of
from level_editor.core.collision.world import World

coordinate = st.one_of(st.floats(-1e7, 1e7), st.sampled_from([0.0, -0.0, 0.5, -0.5, 12.0, -12.0]))
extent = st.one_of(st.floats(0, 1e4), st.sampled_from([0.0, 1.0, 24.0]))
points = st.builds(Vec2, coordinate, coordinate)
targets = st.one_of(
    st.builds(Circle, points, extent),
    st.builds(Rect, points, st.builds(Vec2, extent, extent)),
    st.builds(Capsule, points, points, extent),
    st.builds(Segment, points, points),
    st.builds(OrientedRect, points, st.builds(Vec2, extent, extent), st.floats(-360, 360)),
)
bodies = st.one_of(
    st.builds(Circle, st.sampled_from([Vec2(0.0, 0.0), Vec2(-0.0, 0.0), Vec2(3.0, -2.0)]), extent),
    st.builds(lambda w, h: Rect(Vec2(-w / 2, -h / 2), Vec2(w, h)), extent, extent),
)


@settings(max_examples=2000, deadline=None)
@given(bodies, targets)
def test_the_shortcut_hulls_are_convex_hulls_own_bit_for_bit(body, target):
    mpts, mr = core_of(body)
    tpts, tr = core_of(target)
    general = RoundedPolygon([(gx - mx, gy - my) for gx, gy in tpts for mx, my in mpts], mr + tr)
    fast = configuration_obstacle(body, target)
    fields = ("xs", "ys", "count", "faces", "planes", "radius", "bounds")
    assert repr([getattr(fast, f) for f in fields]) == repr([getattr(general, f) for f in fields])


def random_shapes(rng: random.Random, n: int, spread: float):
    shapes = []
    for _ in range(n):
        c = Vec2(rng.uniform(-spread, spread), rng.uniform(-spread, spread))
        k = rng.randrange(5)
        if k == 0:
            shapes.append(Rect(c, Vec2(rng.uniform(0.5, 60), rng.uniform(0.5, 60))))
        elif k == 1:
            shapes.append(Circle(c, rng.uniform(0.5, 30)))
        elif k == 2:
            length = rng.choice([20.0, 300.0, 5000.0])  # some walls far longer than a cell
            shapes.append(Capsule(c, c + Vec2(rng.uniform(-length, length), rng.uniform(-length, length)),
                                  rng.uniform(0.5, 5)))
        elif k == 3:
            shapes.append(OrientedRect(c, Vec2(rng.uniform(0.5, 400), rng.uniform(0.5, 20)), rng.uniform(-180, 180)))
        else:
            shapes.append(Rect(c, Vec2(rng.uniform(500, 3000), rng.uniform(2, 10))))  # a long row of tiles
    return shapes


def test_the_grid_finds_every_obstacle_that_reaches_into_a_query():
    """Long walls and rows are listed only along their length: the grid answers every obstacle that has a
    point in the query (what the mover's exact tests can find), not every one whose bounding box meets it."""
    rng = random.Random(3)
    hx, hy = 12.0, 8.0
    body = Rect(Vec2(-hx, -hy), Vec2(2 * hx, 2 * hy))
    shapes = random_shapes(rng, 400, 3000)
    world = World(shapes, body)
    exact = BroadPhase([world.obstacle(i).bounds for i in range(len(shapes))])
    for _ in range(600):
        x, y = rng.uniform(-3500, 3500), rng.uniform(-3500, 3500)
        w, h = rng.choice([0.0, 0.001, 5.0, 400.0, 5000.0]), rng.choice([0.0, 0.001, 5.0, 400.0])
        # The body with its centre in the box sweeps the box grown by the body: the oracle is overlaps().
        swept = Rect(Vec2(x - hx, y - hy), Vec2(w + 2 * hx, h + 2 * hy))
        reaching = {i for i, s in enumerate(shapes) if overlaps(s, swept)}
        assert reaching <= set(world.grid.box(x, y, x + w, y + h))
        near = world.near_indices(x, y, x + w, y + h)
        assert reaching <= set(near) <= set(exact.query(x, y, x + w, y + h)) and near == sorted(near)


def test_the_cell_under_a_point_holds_every_obstacle_within_the_margin():
    rng = random.Random(4)
    shapes = random_shapes(rng, 400, 3000)
    world = World(shapes, Circle(Vec2(0, 0), 12))
    obstacles = [world.obstacle(i) for i in range(len(shapes))]
    for _ in range(3000):
        x, y = rng.uniform(-3500, 3500), rng.uniform(-3500, 3500)
        margin = rng.choice([0.00101, 0.5, 20.0])
        within = {i for i, ob in enumerate(obstacles) if ob.gap(x, y)[0] <= margin}
        got = world.grid.at(x, y, margin)
        assert within <= set(got) and list(got) == sorted(set(got))


def test_a_query_far_beyond_every_float_cell_still_answers():
    grid = CellGrid([(0, 0, 10, 10), (5, 5, 1e6, 6)], 1 / 16)
    assert sorted(grid.box(-1e308, -1e308, 1e308, 1e308)) == [0, 1]
    assert grid.at(1e308, 1e308, 1.0) == []
    assert sorted(grid.box(-5.0, -5.0, 1.7e308, 5.5)) == [0, 1]


def test_obstacles_are_made_only_when_met():
    shapes = [Rect(Vec2(100.0 * i, 0), Vec2(50, 50)) for i in range(1000)]
    world = World(shapes, Circle(Vec2(0, 0), 10))
    assert world.obstacle_list.count(None) == 1000
    x, y = move_xy(world, 125.0, -30.0, 400.0, 0.0)
    made = [i for i, ob in enumerate(world.obstacle_list) if ob is not None]
    assert 0 < len(made) < 20 and all(i <= 10 for i in made)  # the rest of the row is never met
    # Made or not, an obstacle is the same: the debug move reads every collider it reports.
    assert move(world, Vec2(125.0, -30.0), Vec2(400.0, 0.0)).position == (x, y)
    assert world.colliders[999].obstacle.bounds == configuration_obstacle(Circle(Vec2(0, 0), 10), shapes[999]).bounds
    assert list(world.obstacles) == [world.obstacle(i) for i in range(1000)]


def test_the_colliders_read_as_a_tuple():
    world = World([Rect(Vec2(0, 0), Vec2(1, 1)), Circle(Vec2(5, 5), 1)], Circle(Vec2(0, 0), 1), ["a", "b"])
    assert world.colliders == tuple(world.colliders) and len(world.colliders) == 2
    assert [c.object_id for c in world.colliders] == ["a", "b"] and world.colliders[-1].index == 1
    assert world.colliders[0:1] == [world.colliders[0]] and World([], Circle(Vec2(0, 0), 1)).colliders == ()
