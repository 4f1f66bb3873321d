"""Contact planes: the clip, the run of lined-up faces, and the slide limit around a corner."""
from __future__ import annotations

import math

import pytest

from level_editor.core.collision import mover, planes
from level_editor.core.collision.planes import CONTACT, SKIN, Plane, clip_motion, face_run, slide_limit
from level_editor.core.collision.rounded import RoundedPolygon
from level_editor.core.collision.shapes import Circle, Rect, Vec2
from level_editor.core.collision.world import World


def floor_world(count=3, width=16.0, top=100.0, radius=6.0):
    """Adjacent boxes whose tops form one floor, for a circle player."""
    shapes = [Rect(Vec2(i * width, top), Vec2(width, 16.0)) for i in range(count)]
    return World(shapes, Circle(Vec2(0, 0), radius))


def planes_at(near, px, py):
    """The contact planes at ``(px, py)``, built as the mover builds them (allowance 0)."""
    out = []
    for i, ob in near:
        g, nx, ny, face = ob.closest(px, py)
        if g < CONTACT:
            out.append(Plane(nx, ny, 0.0, i, ob, g, face))
    return out


def test_the_mover_re_exports_the_same_objects():
    assert mover.SKIN is planes.SKIN
    assert mover.clip_motion is planes.clip_motion


def test_a_plane_reads_like_the_plain_triple_it_extends():
    p = Plane(0.0, -1.0, 0.25)
    assert p[:3] == (0.0, -1.0, 0.25)
    assert (p.collider, p.obstacle, p.face) == (-1, None, -1)
    for v in ((3.0, 4.0), (-1.0, 5.0), (0.0, 0.1), (2.0, -7.0)):
        assert clip_motion(*v, [p, Plane(-1.0, 0.0, 0.0)]) == clip_motion(*v, [(0.0, -1.0, 0.25), (-1.0, 0.0, 0.0)])


def test_clip_motion_honours_the_allowance():
    floor = Plane(0.0, -1.0, 0.5)
    assert clip_motion(2.0, 0.4, [floor]) == (2.0, 0.4)  # still approaching within the allowance
    assert clip_motion(2.0, 1.0, [floor]) == (2.0, 0.0)  # beyond it: the run is kept, the fall removed
    assert clip_motion(2.0, 1.0, []) == (2.0, 1.0)


def test_face_run_joins_lined_up_boxes_and_ends_past_the_last_one():
    world = floor_world()
    near = list(enumerate(world.obstacles))
    px, py = 8.0, 100.0 - 6.0 - SKIN
    # Three 16 px boxes from x = 0 to 48: 40 px to go to the right, 8 to the left, plus the skin.
    assert face_run(near, px, py, 1.0, 0.0, 0.0, -1.0) == pytest.approx(40.0 + SKIN)
    assert face_run(near, px, py, -1.0, 0.0, 0.0, -1.0) == pytest.approx(8.0 + SKIN)
    # Nothing under a point in the air: the run never ends.
    assert face_run(near, px, py - 5.0, 1.0, 0.0, 0.0, -1.0) == math.inf


def test_slide_limit_along_a_floor_stops_at_the_ledge():
    world = floor_world()
    near = list(enumerate(world.obstacles))
    px, py = 8.0, 100.0 - 6.0 - SKIN
    contact = planes_at(near, px, py)
    assert contact and all(p.normal_y == -1.0 for p in contact)
    # Wished: down and right; clipped: right along the floor, 100 px, of which 40 + SKIN are on it.
    assert slide_limit(near, px, py, 100.0, 50.0, 100.0, 0.0, contact) == pytest.approx((40.0 + SKIN) / 100.0)
    # A short slide stays on the floor all the way.
    assert slide_limit(near, px, py, 10.0, 5.0, 10.0, 0.0, contact) == 1.0


def test_slide_limit_around_a_round_corner_ends_where_the_wish_clears_it():
    pillar = RoundedPolygon([(0.0, 0.0)], 15.0)
    near = [(0, pillar)]
    k = (15.0 + SKIN) * math.sqrt(0.5)
    px, py = -k, -k  # touching the pillar on its upper left
    contact = planes_at(near, px, py)
    assert len(contact) == 1 and contact[0].face == -1
    rx, ry = 10.0, 0.0  # wished: straight into the pillar
    sx, sy = clip_motion(rx, ry, contact)
    assert sx > 0.0 and sy < 0.0  # deflected up and around it
    limit = slide_limit(near, px, py, rx, ry, sx, sy, contact)
    assert 0.0 < limit < 1.0
    # From there the wished motion just grazes the pillar grown by the skin.
    assert abs(py + sy * limit) == pytest.approx(15.0 + SKIN, abs=1e-9)
