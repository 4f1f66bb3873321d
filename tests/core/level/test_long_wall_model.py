"""Walls of thousands of nodes: moved, one node replaced and bounded cheaply, equal to the node-by-node results."""
from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import LONG_WALL_NODES, Level, Wall

N = LONG_WALL_NODES * 3


def long_wall(n=N, **kw) -> Wall:
    rng = random.Random(5)
    return Wall("w", [(rng.uniform(-500, 500), rng.uniform(-300, 300)) for _ in range(n)], 6, **kw)


def test_a_long_wall_moved_equals_every_node_moved():
    wall = long_wall(closed=True, layer="top", type="rail", properties={"speed": 2}, extra={"x": 1})
    moved = wall.moved(3, -2.5)
    assert moved == replace(wall, points=[(p.x + 3, p.y - 2.5) for p in wall.points])
    assert all(type(p) is Vec2 and type(p.x) is float and type(p.y) is float for p in moved.points)
    assert (moved.closed, moved.layer, moved.type, moved.properties, moved.extra) == (True, "top", "rail",
                                                                                     {"speed": 2}, {"x": 1})
    back = moved.moved(-3, 2.5).points
    assert all(math.isclose(a.x, b.x, abs_tol=1e-9) and math.isclose(a.y, b.y, abs_tol=1e-9)
               for a, b in zip(back, wall.points))


def test_an_offset_that_is_not_a_float_still_gives_float_nodes():
    moved = long_wall().moved(True, 2)
    assert {type(c) for p in moved.points for c in p} == {float}


def test_replacing_one_node_keeps_the_others_as_they_are():
    wall = long_wall()
    new = wall.with_node(10, (1, 2))
    assert new.points[10] == Vec2(1.0, 2.0) and type(new.points[10].x) is float
    assert new.points[:10] == wall.points[:10] and new.points[11:] == wall.points[11:]
    assert all(a is b for a, b in zip(new.points[11:], wall.points[11:]))
    assert wall.with_node(-1, (0, 0)).points[-1] == Vec2(0.0, 0.0)
    with pytest.raises(IndexError):
        wall.with_node(N, (0, 0))


def test_a_long_tuple_of_nodes_is_kept_and_anything_else_is_converted():
    wall = long_wall()
    assert replace(wall, thickness=2).points is wall.points
    mixed = list(wall.points)
    mixed[7] = (1, 2)  # ints, a plain tuple
    converted = Wall("m", tuple(mixed)).points
    assert converted[7] == Vec2(1.0, 2.0) and type(converted[7]) is Vec2 and type(converted[7].x) is float
    with pytest.raises(ValueError):
        Wall("bad", tuple(mixed[:-1]) + (("a", 1),))


def test_bounds_of_a_long_wall_and_after_a_change():
    wall = long_wall()
    r = wall.thickness / 2
    xs, ys = [p.x for p in wall.points], [p.y for p in wall.points]
    expected = (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)
    assert wall.bounds() == expected
    assert wall.bounds() == expected  # remembered
    far = wall.with_node(0, (1e6, -1e6))
    assert far.bounds() == (expected[0], -1e6 - r, 1e6 + r, expected[3])
    level = Level(objects=(far,))
    assert level.bounds()[2] == 1e6 + r and not math.isnan(level.bounds()[0])
