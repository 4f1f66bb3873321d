"""The debug drawing interface: what a tick hands to the application, role by role."""
from __future__ import annotations

import pytest

from level_editor.core.playtest.debug_draw import (
    CANDIDATE,
    CONTACT,
    NORMAL,
    NORMAL_LENGTH,
    PATH,
    PUSH,
    SLIDE,
    SWEPT,
    RecordingDraw,
    draw_shape,
    draw_tick,
)
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall
from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Segment, Vec2
from level_editor.core.playtest.simulation import Simulation


def test_shapes_become_outlines():
    rec = RecordingDraw()
    draw_shape(Rect(Vec2(1, 2), Vec2(10, 20)), CANDIDATE, rec)
    draw_shape(Circle(Vec2(5, 5), 3), CANDIDATE, rec)
    draw_shape(Capsule(Vec2(0, 0), Vec2(10, 0), 2), CANDIDATE, rec)
    draw_shape(OrientedRect(Vec2(0, 0), Vec2(2, 1), 90), CANDIDATE, rec)
    draw_shape(Segment(Vec2(0, 0), Vec2(1, 1)), CANDIDATE, rec)
    kinds = [m for m, _, _ in rec.calls]
    assert kinds == ["polygon", "circle", "capsule", "polygon", "segment"]
    assert rec.calls[0][2][0] == (Vec2(1, 2), Vec2(11, 2), Vec2(11, 22), Vec2(1, 22))
    rotated = rec.calls[3][2][0]
    assert [tuple(round(c, 9) for c in p) for p in rotated] == [(1, -2), (1, 2), (-1, 2), (-1, -2)]
    with pytest.raises(TypeError):
        draw_shape("not a shape", CANDIDATE, rec)


def wall_level():
    return Level(player=Player(spawn=(0, 0), radius=10, speed=240), objects=(
        Box("right", (30, -100), (20, 200)),
        Pillar("far", (500, 500), 10),
        Wall("w", [(-100, 60), (100, 60)], 4, False),
        OrientedBox("ob", (-60, -60), (10, 10), 30),
    ))


def test_a_tick_against_a_wall_draws_candidates_contact_normal_and_slide():
    sim = Simulation(wall_level())
    for _ in range(10):
        sim.step((1200, -600))
    rec = RecordingDraw()
    draw_tick(sim.last, sim.world, rec)
    candidates = rec.of_role(CANDIDATE)
    assert ("polygon", ((Vec2(30, -100), Vec2(50, -100), Vec2(50, 100), Vec2(30, 100)),)) in candidates
    assert all(args[0] != Vec2(500, 500) for _, args in candidates)  # the far pillar is not a candidate
    (point_call,) = [c for c in rec.of_role(CONTACT)]
    point = point_call[1][0]
    assert point.x == pytest.approx(30)
    (arrow,) = rec.of_role(NORMAL)
    tail, head = arrow[1]
    assert tail == point and head.x == pytest.approx(30 - NORMAL_LENGTH) and head.y == pytest.approx(point.y)
    (slide,) = rec.of_role(SLIDE)
    tail, head = slide[1]
    assert tail == sim.position and head.x == pytest.approx(tail.x) and head.y < tail.y  # slides up the face
    assert [m for m, _ in rec.of_role(SWEPT)] and all(m == "capsule" for m, _ in rec.of_role(SWEPT))
    assert all(m == "segment" for m, _ in rec.of_role(PATH))
    assert rec.of_role(PUSH) == []


def test_a_start_inside_geometry_draws_the_push_out():
    level = Level(player=Player(spawn=(40, 0), radius=10), objects=(Box("right", (30, -100), (20, 200)),))
    sim = Simulation(level)
    sim.step((0, 0))
    rec = RecordingDraw()
    draw_tick(sim.last, sim.world, rec)
    (push,) = rec.of_role(PUSH)
    tail, head = push[1]
    assert tail == Vec2(40, 0) and head == sim.last.path[0]


def test_a_box_player_sweeps_polygons():
    level = Level(player=Player(spawn=(0, 0), shape="box", size=(20, 10)), objects=())
    sim = Simulation(level)
    sim.step((600, 0))
    rec = RecordingDraw()
    draw_tick(sim.last, sim.world, rec)
    (swept,) = rec.of_role(SWEPT)
    assert swept[0] == "polygon"
    xs = [p.x for p in swept[1][0]]
    assert min(xs) == pytest.approx(-10) and max(xs) == pytest.approx(20)
