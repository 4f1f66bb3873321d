"""Exact sweeps: unit cases for every target kind and both movers, plus a shapely oracle."""
from __future__ import annotations

import math
import random

import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2
from level_editor.core.collision.sweep import (
    cast,
    cast_relative,
    configuration_obstacle,
    core_of,
    penetration,
    sweep,
    sweep_relative,
)

# ---------------------------------------------------------------------------
# One target of each kind whose left side is the line x = 10 around y = 0.

TARGETS = {
    "point": Vec2(10, 0),
    "line": Line(Vec2(10, 0), Vec2(0, 1)),
    "segment": Segment(Vec2(10, -5), Vec2(10, 5)),
    "circle": Circle(Vec2(11, 0), 1),
    "rect": Rect(Vec2(10, -5), Vec2(4, 10)),
    "oriented_rect": OrientedRect(Vec2(12, 0), Vec2(2, 5), 0),
    "oriented_rect_90": OrientedRect(Vec2(12, 0), Vec2(5, 2), 90),
    "capsule": Capsule(Vec2(11, -5), Vec2(11, 5), 1),
}

MOVERS = {
    "circle": lambda x, y: Circle(Vec2(x, y), 1),
    "rect": lambda x, y: Rect(Vec2(x - 1, y - 1), Vec2(2, 2)),
}


@pytest.mark.parametrize("mover", MOVERS)
@pytest.mark.parametrize("target", TARGETS)
def test_head_on_hit_time_normal_and_point(mover, target):
    m = MOVERS[mover](-5, 0)
    hit = sweep(m, Vec2(20, 0), TARGETS[target])
    assert hit is not None
    assert hit.t == pytest.approx(0.7, abs=1e-12)
    assert hit.normal.x == pytest.approx(-1.0, abs=1e-12)
    assert hit.normal.y == pytest.approx(0.0, abs=1e-12)
    assert hit.point.x == pytest.approx(10.0, abs=1e-9)
    assert cast(m, Vec2(20, 0), TARGETS[target]) == hit.t


@pytest.mark.parametrize("mover", MOVERS)
@pytest.mark.parametrize("target", TARGETS)
def test_too_short_a_motion_misses(mover, target):
    assert cast(MOVERS[mover](-5, 0), Vec2(13.9, 0), TARGETS[target]) is None


@pytest.mark.parametrize("mover", MOVERS)
@pytest.mark.parametrize("target", TARGETS)
def test_moving_away_misses(mover, target):
    assert cast(MOVERS[mover](-5, 0), Vec2(-1000, 0), TARGETS[target]) is None


@pytest.mark.parametrize("mover", MOVERS)
@pytest.mark.parametrize("target", TARGETS)
def test_starting_overlap_is_zero(mover, target):
    m = MOVERS[mover](10.5, 0)
    assert cast(m, Vec2(20, 0), TARGETS[target]) == 0.0
    assert cast(m, Vec2(-20, 3), TARGETS[target]) == 0.0


@pytest.mark.parametrize("mover", MOVERS)
@pytest.mark.parametrize("target", TARGETS)
def test_starting_touch_is_zero(mover, target):
    m = MOVERS[mover](9, 0)  # right side exactly on x = 10
    assert cast(m, Vec2(-20, 0), TARGETS[target]) == 0.0


@pytest.mark.parametrize("mover", MOVERS)
@pytest.mark.parametrize("target", TARGETS)
def test_zero_motion(mover, target):
    assert cast(MOVERS[mover](-5, 0), Vec2(0, 0), TARGETS[target]) is None
    assert cast(MOVERS[mover](10, 0), Vec2(0, 0), TARGETS[target]) == 0.0


@pytest.mark.parametrize("mover", MOVERS)
def test_parallel_grazing_a_face_misses_and_touching_it_is_zero(mover):
    box = Rect(Vec2(0, 0), Vec2(10, 10))
    # Sliding along the top face, 1e-9 px above it: never touches.
    m = MOVERS[mover](-5, -1 - 1e-9)
    assert cast(m, Vec2(30, 0), box) is None
    # Exactly on it: touching counts, from the start.
    m = MOVERS[mover](5, -1)
    assert cast(m, Vec2(30, 0), box) == 0.0


@pytest.mark.parametrize("mover", MOVERS)
def test_parallel_grazing_a_capsule_wall(mover):
    wall = Capsule(Vec2(0, 0), Vec2(100, 0), 2)
    assert cast(MOVERS[mover](-50, -3.0001), Vec2(300, 0), wall) is None
    assert cast(MOVERS[mover](-50, -2.9999), Vec2(300, 0), wall) is not None


@pytest.mark.parametrize("mover", MOVERS)
def test_no_tunnelling_through_a_1px_wall_at_100000_px_per_s(mover):
    wall = Capsule(Vec2(500, -50), Vec2(500, 50), 0.5)
    box = Rect(Vec2(500, -50), Vec2(1, 100))
    step = Vec2(100000 / 60, 0)
    for target in (wall, box):
        t = cast(MOVERS[mover](0, 0), step, target)
        assert t is not None and 0.0 < t < 0.3


@pytest.mark.parametrize("mover", MOVERS)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("length", [1e160, 1e300, 1.7e308])
def test_no_tunnelling_at_any_finite_motion(mover, target, length):
    # 15 px to the touch, whatever the motion: its square overflows, the
    # answer must not.
    t = cast(MOVERS[mover](-5, 0), Vec2(length, 0), TARGETS[target])
    assert t == pytest.approx(14.0 / length, rel=1e-12)
    t = cast(MOVERS[mover](-5, 0), Vec2(length, length / 1e100), TARGETS[target])
    assert t == pytest.approx(14.0 / length, rel=1e-9)


def test_circle_glancing_a_corner_slides_off_its_round_side():
    hit = sweep(Circle(Vec2(0, -1.5), 1), Vec2(20, 0), Rect(Vec2(10, -1), Vec2(10, 10)))
    # Touches the corner (10, -1) when the centre is 1 px away from it.
    assert hit.t == pytest.approx((10 - math.sqrt(1 - 0.25)) / 20)
    assert hit.normal.x == pytest.approx(-math.sqrt(0.75))
    assert hit.normal.y == pytest.approx(-0.5)
    assert hit.point.x == pytest.approx(10) and hit.point.y == pytest.approx(-1)


def test_rect_against_rotated_box_corner_first():
    diamond = OrientedRect(Vec2(20, 0), Vec2(5, 5), 45)
    hit = sweep(Rect(Vec2(-2, -2), Vec2(4, 4)), Vec2(30, 0), diamond)
    left = 20 - 5 * math.sqrt(2)
    # The diamond's left corner meets the box's right face.
    assert hit.t == pytest.approx((left - 2) / 30)
    assert hit.normal == pytest.approx((-1.0, 0.0))
    assert hit.point == pytest.approx((left, 0.0))


def test_rect_touching_line_at_an_angle():
    line = Line(Vec2(0, 10), Vec2(1, 1))  # y = x + 10
    hit = sweep(Rect(Vec2(-1, -1), Vec2(2, 2)), Vec2(0, 30), line)
    # The corner (-1, 1) of the box meets the line when 1 + s = -1 + 10.
    assert hit.t == pytest.approx(8 / 30)
    assert hit.normal == pytest.approx((math.sqrt(0.5), -math.sqrt(0.5)))
    assert hit.point == pytest.approx((-1, 9))


def test_moving_exactly_into_touch_at_the_end_is_one():
    # The circle ends at x = 0.2 with radius 0.2: exactly on the box's face at
    # x = 0.4 (0.1 + 0.1 and 0.2 + 0.2 are exact), though the ray cast from
    # the Minkowski vertex 0.4 - 0.1 rounds to just past the motion's end.
    box = Rect(Vec2(0.4, -5), Vec2(2, 10))
    assert overlaps(Circle(Vec2(0.2, 0), 0.2), box)
    assert cast(Circle(Vec2(0.1, 0), 0.2), Vec2(0.1, 0), box) == 1.0
    hit = sweep(Circle(Vec2(0.1, 0), 0.2), Vec2(0.1, 0), box)
    assert hit.normal == (-1.0, 0.0)
    assert hit.point.x == pytest.approx(0.4)
    # A box mover whose right side lands on x = 0.30000000000000004.
    edge = 0.1 + 0.1 + 0.1
    for target in (Rect(Vec2(edge, -5), Vec2(2, 10)), Segment(Vec2(edge, -5), Vec2(edge, 5)),
                   Line(Vec2(edge, 0), Vec2(0, 1)), Vec2(edge, 0.5)):
        assert overlaps(Rect(Vec2(0.2, 0), Vec2(0.1, 1)), target)
        assert cast(Rect(Vec2(0.1, 0), Vec2(0.1, 1)), Vec2(0.1, 0), target) == 1.0


def test_random_motions_that_end_touching_are_never_none():
    rng = random.Random(3)
    for _ in range(500):
        x = rng.uniform(-10, 10)
        r = rng.uniform(0.1, 3)
        cx, cy = x - rng.uniform(5, 20), rng.uniform(-3, 3)
        dy = rng.choice([0.0, rng.uniform(-1, 1)])
        w, h = rng.uniform(0.1, 3), rng.uniform(0.1, 3)
        # Motions that bring the circle's right side, or the box's, to x.
        dc = Vec2(x - r - cx, dy)
        db = Vec2(x - w - cx, dy)
        for mover, d, end in ((Circle(Vec2(cx, cy), r), dc, Circle(Vec2(cx, cy) + dc, r)),
                              (Rect(Vec2(cx, cy), Vec2(w, h)), db, Rect(Vec2(cx, cy) + db, Vec2(w, h)))):
            for target in (Rect(Vec2(x, cy - 5), Vec2(2, 15)), Segment(Vec2(x, cy - 5), Vec2(x, cy + 10)),
                           Line(Vec2(x, 0.0), Vec2(0, 1)), Capsule(Vec2(x, cy - 5), Vec2(x, cy + 10), 0.0),
                           OrientedRect(Vec2(x + 1.5, cy + 1), Vec2(1.5, 8), 0)):
                if overlaps(end, target):
                    t = cast(mover, d, target)
                    assert t is not None and 0.99 < t <= 1.0, (mover, d, target, t)


def test_touching_at_the_start_is_zero_far_from_the_origin():
    # The box's corner (1000002, 1000000) lies on the line through
    # (999999, 1000004) along (3, -4): touching, however the normal rounds.
    box = Rect(Vec2(1000002.0, 1000000.0), Vec2(2.435811703305444, 3.0))
    line = Line(Vec2(999999.0, 1000004.0), Vec2(3.0, -4.0))
    assert overlaps(box, line)
    assert cast(box, Vec2(0, 0), line) == 0.0
    assert cast(box, Vec2(-5, 1), line) == 0.0
    assert penetration(box, line) is not None


def test_a_line_with_a_huge_or_tiny_direction_is_still_a_line():
    # |(1.5e308, 1.5e308)| overflows; overlaps() already treats it as the
    # diagonal through the origin, and so must cast.
    for direction in (Vec2(1.5e308, 1.5e308), Vec2(1.5e308, 0), Vec2(5e-324, 5e-324)):
        line = Line(Vec2(0, 0), direction)
        mover = Circle(Vec2(20, 0), 1) if direction.y else Circle(Vec2(20, -20), 1)
        motion = Vec2(-20, 0) if direction.y else Vec2(0, 20)
        expected = (20 - math.sqrt(2)) / 20 if direction.y else 19 / 20
        assert cast(mover, motion, line) == pytest.approx(expected)
        assert overlaps(Circle(mover.center + motion, 1), line)
        assert penetration(Circle(Vec2(20, 0.5), 1), Line(Vec2(20, 0), direction)) is not None


def test_degenerate_line_is_its_base_point():
    assert cast(Circle(Vec2(0, 0), 1), Vec2(10, 0), Line(Vec2(5, 0), Vec2(0, 0))) == pytest.approx(0.4)


def test_far_from_origin_behaves_like_near_it():
    far = 1_000_000.0
    for mover in MOVERS.values():
        for target in TARGETS.values():
            near_t = cast(mover(-5, 0), Vec2(20, 0), target)
            moved = _translated(target, far, -far)
            far_t = cast(mover(-5 + far, -far), Vec2(20, 0), moved)
            assert far_t == pytest.approx(near_t, abs=1e-9)


def test_relative_motion_both_moving():
    a = Rect(Vec2(0, 0), Vec2(2, 2))
    b = Rect(Vec2(10, 10), Vec2(2, 2))
    # Crossing paths: each alone would miss the other's start, together they meet.
    assert cast(a, Vec2(10, 0), b) is None
    t = cast_relative(a, Vec2(10, 10), b, Vec2(0, 0))
    assert t == pytest.approx(0.8)
    hit = sweep_relative(a, Vec2(12, 0), b, Vec2(0, -12))
    assert hit is not None
    # At the time of the touch both have covered hit.t of their motion and touch.
    a_at = Rect(Vec2(12 * hit.t, 0), Vec2(2, 2))
    b_at = Rect(Vec2(10, 10 - 12 * hit.t), Vec2(2, 2))
    assert overlaps(a_at, b_at)
    assert not overlaps(Rect(Vec2(12 * (hit.t - 1e-6), 0), Vec2(2, 2)),
                        Rect(Vec2(10, 10 - 12 * (hit.t - 1e-6)), Vec2(2, 2)))


def test_penetration_pushes_out_to_touching():
    box = Rect(Vec2(0, 0), Vec2(10, 10))
    p = penetration(Circle(Vec2(2, 5), 3), box)
    assert p.depth == pytest.approx(5.0)
    assert p.normal == pytest.approx((-1.0, 0.0))
    out = Circle(Vec2(2 - 5.0, 5), 3)
    assert overlaps(out, box)
    assert not overlaps(Circle(Vec2(2 - 5.0 - 1e-9, 5), 3), box)
    assert penetration(Circle(Vec2(-4, 5), 3), box) is None


@pytest.mark.parametrize("target", TARGETS)
def test_penetration_of_every_kind(target):
    tgt = TARGETS[target]
    for mover in MOVERS.values():
        m = mover(10.25, 0.5)
        p = penetration(m, tgt)
        assert p is not None and p.depth > 0
        moved = _translated(m, p.normal.x * (p.depth + 1e-9), p.normal.y * (p.depth + 1e-9))
        assert not overlaps(moved, tgt)
        moved = _translated(m, p.normal.x * (p.depth - 1e-9), p.normal.y * (p.depth - 1e-9))
        assert overlaps(moved, tgt)


def test_bad_arguments_are_clear_type_errors():
    with pytest.raises(TypeError, match="cannot sweep a Line"):
        cast(Line(Vec2(0, 0), Vec2(1, 0)), Vec2(1, 0), Vec2(5, 5))
    with pytest.raises(TypeError, match="not a bounded shape"):
        cast(Circle(Vec2(0, 0), 1), Vec2(1, 0), "box")
    with pytest.raises(ValueError, match="finite"):
        cast(Circle(Vec2(0, 0), 1), Vec2(math.nan, 0), Vec2(5, 5))


def test_configuration_obstacle_of_rect_vs_oriented_rect_is_an_octagon():
    o = configuration_obstacle(Rect(Vec2(-1, -2), Vec2(2, 4)), OrientedRect(Vec2(0, 0), Vec2(3, 1), 30))
    assert o.count == 8 and o.radius == 0.0


# ---------------------------------------------------------------------------
# The shapely oracle: cores as exact shapely geometry, radii kept as numbers.


def _translated(shape, dx, dy):
    t = type(shape)
    if t is Vec2:
        return Vec2(shape.x + dx, shape.y + dy)
    if t is Line:
        return Line(shape.base + (dx, dy), shape.direction)
    if t is Segment:
        return Segment(shape.a + (dx, dy), shape.b + (dx, dy))
    if t is Circle:
        return Circle(shape.center + (dx, dy), shape.radius)
    if t is Rect:
        return Rect(shape.origin + (dx, dy), shape.size)
    if t is OrientedRect:
        return OrientedRect(shape.center + (dx, dy), shape.half_extents, shape.rotation)
    return Capsule(shape.a + (dx, dy), shape.b + (dx, dy), shape.radius)


def _geom(points):
    pts = list(dict.fromkeys(points))
    if len(pts) == 1:
        return Point(pts[0])
    if len(pts) == 2:
        return LineString(pts)
    return Polygon(pts)


def _core_geom(shape):
    if type(shape) is Line:
        b, d = shape.base, shape.direction.normalized()
        return LineString([(b.x - 1e5 * d.x, b.y - 1e5 * d.y), (b.x + 1e5 * d.x, b.y + 1e5 * d.y)]), 0.0
    pts, r = core_of(shape)
    return _geom(pts), r


def _swept(mover, d, t):
    pts, _ = core_of(mover)
    moved = pts + [(x + t * d.x, y + t * d.y) for x, y in pts]
    return shapely.convex_hull(shapely.MultiPoint(moved))


# Rounded to 1e-6 so that no value is subnormal-tiny: shapely's distance
# reports inf for a segment 1e-202 long, which says nothing about cast.
coord = st.floats(-60, 60).map(lambda v: round(v, 6))
size = st.floats(0.5, 30).map(lambda v: round(v, 6))
vec = st.builds(Vec2, coord, coord)
motions = st.builds(Vec2, st.floats(-400, 400).map(lambda v: round(v, 6)),
                    st.floats(-400, 400).map(lambda v: round(v, 6)))
movers = st.one_of(
    st.builds(Circle, vec, size),
    st.builds(Rect, vec, st.builds(Vec2, size, size)),
)
directions = st.builds(Vec2, st.floats(-1, 1).map(lambda v: round(v, 6)),
                       st.floats(-1, 1).map(lambda v: round(v, 6))).filter(lambda v: v.length() > 0.05)
targets = st.one_of(
    vec,
    st.builds(Line, vec, directions),
    st.builds(Segment, vec, vec),
    st.builds(Circle, vec, size),
    st.builds(Rect, vec, st.builds(Vec2, size, size)),
    st.builds(OrientedRect, vec, st.builds(Vec2, size, size), st.floats(-360, 360)),
    st.builds(Capsule, vec, vec, size),
)

TOL = 1e-6


def _nearly_touching(a, b):
    acore, ar = _core_geom(a)
    bcore, br = _core_geom(b)
    return abs(shapely.distance(acore, bcore) - (ar + br)) < 1e-7


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(movers, motions, targets)
def test_cast_matches_exact_oracle(mover, motion, target):
    t = cast(mover, motion, target)
    mcore, mr = _core_geom(mover)
    tcore, tr = _core_geom(target)
    reach = mr + tr
    start = shapely.distance(mcore, tcore)
    if t is None:
        # The whole swept hull stays out of reach.
        assert shapely.distance(_swept(mover, motion, 1.0), tcore) > reach - TOL
        return
    assert 0.0 <= t <= 1.0
    if t == 0.0:
        assert start <= reach + TOL
        return
    assert start > reach - TOL
    at = shapely.affinity.translate(mcore, t * motion.x, t * motion.y)
    assert shapely.distance(at, tcore) == pytest.approx(reach, abs=TOL)
    # Nothing touched earlier: the hull swept up to t only reaches at its end.
    assert shapely.distance(_swept(mover, motion, t), tcore) > reach - TOL
    if t > 1e-6:
        before = shapely.affinity.translate(mcore, (t - 1e-6) * motion.x, (t - 1e-6) * motion.y)
        assert shapely.distance(before, tcore) >= reach - TOL


@settings(max_examples=400, deadline=None)
@given(movers, motions, targets)
def test_cast_zero_exactly_when_overlapping(mover, motion, target):
    # Exact touches are decided by the last bit of rounding, which two correct
    # implementations may round differently: only clear cases must agree.
    assume(not _nearly_touching(mover, target))
    t = cast(mover, motion, target)
    assert (t == 0.0) == overlaps(mover, target)


@settings(max_examples=300, deadline=None)
@given(movers, targets)
def test_penetration_agrees_with_overlaps(mover, target):
    assume(not _nearly_touching(mover, target))
    p = penetration(mover, target)
    assert (p is not None) == overlaps(mover, target)
    if p is not None:
        n = p.normal
        assert n.length() == pytest.approx(1.0)
        out = _translated(mover, n.x * (p.depth + 1e-6), n.y * (p.depth + 1e-6))
        assert not overlaps(out, target)


def test_a_motion_whose_length_overflows_is_still_cast_exactly():
    """|dx| + |dy| is infinite for (1e308, 1e308) although both parts are finite: no endless rescaling."""
    from level_editor.core.collision import Circle, Rect, Vec2, cast
    from level_editor.core.collision.mover import move
    from level_editor.core.collision.world import World

    t = cast(Circle(Vec2(0, 0), 5), Vec2(1e308, 1e308), Rect(Vec2(0, 10), Vec2(100, 10)))
    assert t is not None and 0 < t < 1e-300
    world = World([Rect(Vec2(0, 10), Vec2(100, 10))], Circle(Vec2(0, 0), 5))
    m = move(world, Vec2(0, 0), Vec2(1e308, -1e308))
    assert m.position.x == 1e308 and m.position.y == -1e308
