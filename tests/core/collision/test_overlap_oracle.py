"""``overlaps`` against shapely as an exact oracle, for every pair of kinds.

Each shape becomes an exact core geometry plus a radius: a circle is a
Point and its radius, a capsule a LineString and its radius, an infinite
line a LineString whose ends lie far outside the sampled region. Nothing is
buffered (shapely's buffers are polygons), so the oracle is exactly
``distance(core_a, core_b) <= r_a + r_b``. Random cases within a small
tolerance of touching are skipped (when the cores meet, a case counts as
touching if a tiny nudge separates them); exact touching has its own tests
below.
"""
from __future__ import annotations

import itertools
import math
import random

import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, MultiPoint, Point

from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2

# Far beyond the sampled region (|coordinates| <= 25 plus sizes): a line
# drawn this long is the infinite line for every finite shape sampled here.
LINE_REACH = 1e7
# Skip band around touching. Rounding in the shapes (sin and cos of the
# rotation) and in shapely's distance is around 1e-13 here; this is far wider.
TOUCH_TOLERANCE = 1e-7

KINDS = ("point", "line", "segment", "circle", "rect", "oriented_rect", "capsule")


def _num(lo: float, hi: float):
    # Three decimals keep hypothesis away from 1e-300-style values while
    # leaving plenty of irrational-looking input.
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False).map(
        lambda v: round(v, 3) + 0.0)


# Half of the positions fall in a small square so that shapes meet often.
coords = st.one_of(_num(-4.0, 4.0), _num(-25.0, 25.0))
points = st.builds(Vec2, coords, coords)
lengths = _num(0.0, 30.0)
radii = st.one_of(st.just(0.0), _num(0.0, 12.0))
rotations = st.one_of(
    st.sampled_from([0.0, 90.0, 180.0, 270.0, -90.0, 15.0, 30.0, 45.0, 135.0]),
    _num(-720.0, 720.0),
)
# Directions from a small set (scaled by powers of two, which is exact) make
# exactly parallel lines common; free directions cover everything else.
_BASE_DIRECTIONS = [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (3.0, -4.0), (-2.0, 1.0), (0.0, 0.0)]
directions = st.one_of(
    st.builds(lambda d, k: Vec2(d[0] * k, d[1] * k),
              st.sampled_from(_BASE_DIRECTIONS), st.sampled_from([1.0, -1.0, 2.0, -0.5, 8.0])),
    st.builds(Vec2, _num(-10.0, 10.0), _num(-10.0, 10.0)),
)


@st.composite
def segment_ends(draw):
    a = draw(points)
    if draw(st.integers(0, 9)) == 0:
        return a, a  # zero-length
    return a, draw(points)


EDGE_CASE_SHAPES = {
    "point": points,
    "line": st.builds(Line, points, directions),
    "segment": segment_ends().map(lambda e: Segment(*e)),
    "circle": st.builds(Circle, points, radii),
    "rect": st.builds(Rect, points, st.builds(Vec2, lengths, lengths)),
    "oriented_rect": st.builds(OrientedRect, points,
                               st.builds(Vec2, _num(0.0, 15.0), _num(0.0, 15.0)), rotations),
    "capsule": segment_ends().flatmap(lambda e: radii.map(lambda r: Capsule(e[0], e[1], r))),
}


def _uniform_shape(kind: str, rng: random.Random):
    """A shape with uniformly spread full-precision numbers.

    Hypothesis favours zeros and repeated values, which is right for edge
    cases but leaves few generic crossings; these fill that gap.
    """
    def point():
        return Vec2(rng.uniform(-15.0, 15.0), rng.uniform(-15.0, 15.0))

    if kind == "point":
        return point()
    if kind == "line":
        return Line(point(), Vec2(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)))
    if kind == "segment":
        return Segment(point(), point())
    if kind == "circle":
        return Circle(point(), rng.uniform(0.0, 8.0))
    if kind == "rect":
        return Rect(point(), Vec2(rng.uniform(0.0, 15.0), rng.uniform(0.0, 15.0)))
    if kind == "oriented_rect":
        return OrientedRect(point(), Vec2(rng.uniform(0.0, 8.0), rng.uniform(0.0, 8.0)),
                            rng.uniform(-360.0, 360.0))
    return Capsule(point(), point(), rng.uniform(0.0, 5.0))


SHAPES = {
    kind: st.one_of(
        strategy,
        st.integers(0, 2 ** 32).map(lambda seed, k=kind: _uniform_shape(k, random.Random(seed))),
    )
    for kind, strategy in EDGE_CASE_SHAPES.items()
}


def _path(a: Vec2, b: Vec2):
    return Point(a) if a == b else LineString([a, b])


def exact_form(shape):
    """``(geometry, radius)``: the shape is every point within radius of geometry."""
    if isinstance(shape, Vec2):
        return Point(shape), 0.0
    if isinstance(shape, Line):
        d = shape.direction
        n = math.hypot(d.x, d.y)
        if n == 0.0:
            return Point(shape.base), 0.0
        ux, uy = d.x / n * LINE_REACH, d.y / n * LINE_REACH
        b = shape.base
        return LineString([(b.x - ux, b.y - uy), (b.x + ux, b.y + uy)]), 0.0
    if isinstance(shape, Segment):
        return _path(shape.a, shape.b), 0.0
    if isinstance(shape, Circle):
        return Point(shape.center), shape.radius
    if isinstance(shape, Capsule):
        return _path(shape.a, shape.b), shape.radius
    if isinstance(shape, Rect):
        (x0, y0), (x1, y1) = shape.min, shape.max
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    else:
        corners = shape.corners()
    # The hull of the corners is a Polygon, or a LineString / Point when the
    # rectangle has no width or height.
    return MultiPoint(corners).convex_hull, 0.0


def oracle_gap(a, b) -> float:
    """Distance between the shapes' cores minus their radii (<= 0: overlap)."""
    ga, ra = exact_form(a)
    gb, rb = exact_form(b)
    return float(shapely.distance(ga, gb)) - (ra + rb)


_NUDGES = [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]


def oracle(a, b):
    """True or False when the answer is clear-cut, None within tolerance of touching."""
    ga, ra = exact_form(a)
    gb, rb = exact_form(b)
    reach = ra + rb
    gap = float(shapely.distance(ga, gb)) - reach
    if gap > TOUCH_TOLERANCE:
        return False
    if gap < -TOUCH_TOLERANCE:
        return True
    if gap > 0.0 or reach > TOUCH_TOLERANCE:
        return None
    # The cores meet and the radii add nothing: overlap and touching both give
    # distance 0. Touching shapes come apart under a nudge in some half-plane
    # of directions, which always holds three of these eight.
    for nx, ny in _NUDGES:
        offset = (nx * TOUCH_TOLERANCE, ny * TOUCH_TOLERANCE)
        nudged = shapely.transform(gb, lambda c, o=offset: c + o)
        if float(shapely.distance(ga, nudged)) > reach:
            return None
    return True


def _lines_meet_nearby(a, b) -> bool:
    """Two non-parallel lines cross within the drawn reach of their LineStrings."""
    if not (isinstance(a, Line) and isinstance(b, Line)):
        return True
    (ax, ay), (bx, by) = a.direction, b.direction
    cross = ax * by - ay * bx
    if cross == 0.0:
        return True  # exactly parallel: both sides agree on parallel lines
    return abs(cross) >= 1e-2 * math.hypot(ax, ay) * math.hypot(bx, by)


ORDERED_PAIRS = list(itertools.product(KINDS, KINDS))


@pytest.mark.parametrize("kind_a,kind_b", ORDERED_PAIRS, ids=[f"{a}-{b}" for a, b in ORDERED_PAIRS])
def test_overlaps_matches_exact_oracle(kind_a, kind_b):
    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(a=SHAPES[kind_a], b=SHAPES[kind_b])
    def check(a, b):
        assume(_lines_meet_nearby(a, b))
        expected = oracle(a, b)
        assume(expected is not None)
        assert overlaps(a, b) is expected
        assert overlaps(b, a) is expected

    check()


# ---------------------------------------------------------------------------
# Exact touching, one case or more per pair: touching overlaps, and the same
# two shapes moved apart by a hair do not.
# ---------------------------------------------------------------------------

HAIR = 2.0 ** -20


def moved(shape, dx: float, dy: float):
    """``shape`` translated by (dx, dy)."""
    v = Vec2(dx, dy)
    if isinstance(shape, Vec2):
        return shape + v
    if isinstance(shape, Line):
        return Line(shape.base + v, shape.direction)
    if isinstance(shape, Segment):
        return Segment(shape.a + v, shape.b + v)
    if isinstance(shape, Circle):
        return Circle(shape.center + v, shape.radius)
    if isinstance(shape, Rect):
        return Rect(shape.origin + v, shape.size)
    if isinstance(shape, OrientedRect):
        return OrientedRect(shape.center + v, shape.half_extents, shape.rotation)
    return Capsule(shape.a + v, shape.b + v, shape.radius)


V = Vec2
# (name, a, b, direction that moves b away from a)
TOUCHING = [
    ("point-point", V(1, 2), V(1, 2), (1, 0)),
    ("point-line", V(2, 1), Line(V(0, 0), V(2, 1)), (0, 1)),
    ("point-segment middle", V(2, 1), Segment(V(0, 0), V(4, 2)), (0, 1)),
    ("point-segment end", V(4, 2), Segment(V(0, 0), V(4, 2)), (1, 0)),
    ("point-circle", V(3, 4), Circle(V(0, 0), 5), (-1, 0)),
    ("point-rect edge", V(3, 1), Rect(V(3, 0), V(2, 2)), (1, 0)),
    ("point-rect corner", V(5, 2), Rect(V(3, 0), V(2, 2)), (-1, -1)),
    ("point-oriented_rect", V(1, 0.5), OrientedRect(V(0, 0), V(2, 1), 90), (-1, 0)),
    ("point-capsule side", V(5, 2), Capsule(V(0, 0), V(10, 0), 2), (0, -1)),
    ("point-capsule cap", V(-3, 4), Capsule(V(0, 0), V(10, 0), 5), (1, 0)),
    ("line-line coincident", Line(V(0, 0), V(1, 2)), Line(V(1, 2), V(-2, -4)), (1, 0)),
    ("line-segment end", Line(V(0, 0), V(1, 0)), Segment(V(2, 0), V(3, 5)), (0, 1)),
    ("line-circle", Line(V(0, 0), V(1, 0)), Circle(V(5, 3), 3), (0, 1)),
    ("line-rect edge", Line(V(0, 0), V(1, 0)), Rect(V(2, 0), V(3, 3)), (0, 1)),
    ("line-rect corner", Line(V(4, 0), V(1, -1)), Rect(V(2, -2), V(2, 2)), (-1, -1)),
    ("line-oriented_rect", Line(V(1, 0), V(0, 1)), OrientedRect(V(0, 0), V(2, 1), 90), (-1, 0)),
    ("line-capsule", Line(V(0, 0), V(1, 0)), Capsule(V(0, 5), V(4, 3), 3), (0, 1)),
    ("segment-segment T", Segment(V(0, 0), V(4, 0)), Segment(V(2, 0), V(2, 5)), (0, 1)),
    ("segment-segment collinear ends", Segment(V(0, 0), V(2, 0)), Segment(V(2, 0), V(5, 0)), (1, 0)),
    ("segment-circle side", Segment(V(0, 0), V(10, 0)), Circle(V(5, 3), 3), (0, 1)),
    ("segment-circle end", Segment(V(0, 0), V(10, 0)), Circle(V(13, 4), 5), (1, 1)),
    ("segment-rect along edge", Segment(V(0, -5), V(0, 5)), Rect(V(0, 0), V(3, 3)), (1, 0)),
    ("segment-rect corner", Segment(V(0, 6), V(6, 0)), Rect(V(0, 0), V(3, 3)), (-1, -1)),
    ("segment-oriented_rect", Segment(V(2, -3), V(2, 3)), OrientedRect(V(0, 0), V(2, 1), 180), (-1, 0)),
    ("segment-capsule", Segment(V(0, 5), V(10, 5)), Capsule(V(0, 0), V(10, 0), 5), (0, -1)),
    ("circle-circle", Circle(V(0, 0), 2), Circle(V(3, 4), 3), (1, 1)),
    ("circle-rect edge", Circle(V(0, 0), 1), Rect(V(1, -1), V(2, 2)), (1, 0)),
    ("circle-rect corner", Circle(V(0, 0), 5), Rect(V(3, 4), V(2, 2)), (1, 1)),
    ("circle-oriented_rect", Circle(V(0, 0), 1), OrientedRect(V(3, 0), V(5, 2), 90), (1, 0)),
    ("circle-capsule", Circle(V(5, 5), 2), Capsule(V(0, 0), V(10, 0), 3), (0, -1)),
    ("rect-rect edge", Rect(V(0, 0), V(2, 2)), Rect(V(2, 1), V(3, 3)), (1, 0)),
    ("rect-rect corner", Rect(V(0, 0), V(2, 2)), Rect(V(2, 2), V(1, 1)), (1, 1)),
    ("rect-oriented_rect", Rect(V(0, 0), V(2, 2)), OrientedRect(V(3, 1), V(2, 1), 90), (1, 0)),
    ("rect-capsule side", Rect(V(0, 0), V(4, 4)), Capsule(V(6, -10), V(6, 10), 2), (1, 0)),
    ("rect-capsule corner", Rect(V(0, 0), V(4, 4)), Capsule(V(7, 8), V(20, 8), 5), (1, 1)),
    ("oriented_rect-oriented_rect", OrientedRect(V(0, 0), V(1, 2), 0),
     OrientedRect(V(2, 0), V(2, 1), 90), (1, 0)),
    ("oriented_rect-capsule", OrientedRect(V(0, 0), V(2, 1), 0), Capsule(V(5, -5), V(5, 5), 3), (1, 0)),
    ("capsule-capsule", Capsule(V(0, 0), V(10, 0), 1), Capsule(V(0, 3), V(10, 3), 2), (0, 1)),
]


def _touch_ids():
    return [case[0] for case in TOUCHING]


@pytest.mark.parametrize("name,a,b,away", TOUCHING, ids=_touch_ids())
def test_touching_overlaps_in_either_order(name, a, b, away):
    assert oracle_gap(a, b) == pytest.approx(0.0, abs=1e-12)
    assert overlaps(a, b) is True
    assert overlaps(b, a) is True


@pytest.mark.parametrize("name,a,b,away", TOUCHING, ids=_touch_ids())
def test_a_hair_apart_does_not_overlap(name, a, b, away):
    apart = moved(b, away[0] * HAIR, away[1] * HAIR)
    assert oracle_gap(a, apart) > 0.0
    assert overlaps(a, apart) is False
    assert overlaps(apart, a) is False


def test_touching_cases_cover_every_pair_of_kinds():
    def kind(shape):
        return {Vec2: "point", Line: "line", Segment: "segment", Circle: "circle",
                Rect: "rect", OrientedRect: "oriented_rect", Capsule: "capsule"}[type(shape)]

    covered = {frozenset((kind(a), kind(b))) for _, a, b, _ in TOUCHING}
    assert covered == {frozenset(p) for p in itertools.combinations_with_replacement(KINDS, 2)}


# ---------------------------------------------------------------------------
# Exact touching where the coordinates are not small integers: a rectangle's
# far corner is origin + size, rounded once, and a test that goes through the
# rectangle's centre rounds again and may miss a touch (0.1 + 0.3 is 0.4, but
# 0.1 + 0.15 - 0.4 is not -0.15).
# ---------------------------------------------------------------------------

ROUNDED_RECT = Rect(V(0.1, 0.2), V(0.3, 0.3))  # far corner (0.4, 0.5)

TOUCHING_AT_FRACTIONS = [
    ("line-rect right edge", Line(V(0.4, -5), V(0, 1)), ROUNDED_RECT, (-1, 0)),
    ("line-rect bottom edge", Line(V(-5, 0.5), V(1, 0)), ROUNDED_RECT, (0, -1)),
    ("line-rect top edge", Line(V(-5, 0.7), V(1, 0)), Rect(V(0.1, 0.7), V(0.3, 0.3)), (0, 1)),
    ("line-rect far corner", Line(V(0.4, 0.5), V(1, -1)), ROUNDED_RECT, (-1, -1)),
    ("segment-rect along edge", Segment(V(-0.9, 0.5), V(2.4, 0.5)), ROUNDED_RECT, (0, -1)),
    ("segment-rect corner of a flat rect",
     Segment(V(-2.6500773995090476, -6.524641946466067), V(-2.0, -4.0)),
     Rect(V(-2.0, -4.0), V(2.112860967908436, 0.0)), (1, 1)),
    ("rect-oriented_rect 0", Rect(V(1.3, 0.2), V(0.3, 0.3)),
     OrientedRect(V(2.1, 0.3), V(0.5, 0.25), 0), (1, 0)),
    ("rect-oriented_rect 90", Rect(V(1.3, 0.2), V(0.3, 0.3)),
     OrientedRect(V(2.1, 0.3), V(0.25, 0.5), 90), (1, 0)),
    ("rect-oriented_rect below", Rect(V(0.1, 0.2), V(0.3, 0.9)),
     OrientedRect(V(0.2, 1.6), V(0.25, 0.5), 0), (0, 1)),
]


@pytest.mark.parametrize("name,a,b,away", TOUCHING_AT_FRACTIONS, ids=[c[0] for c in TOUCHING_AT_FRACTIONS])
def test_touching_at_fractional_coordinates_overlaps(name, a, b, away):
    assert overlaps(a, b) is True
    assert overlaps(b, a) is True
    apart = moved(b, away[0] * HAIR, away[1] * HAIR)
    assert overlaps(a, apart) is False
    assert overlaps(apart, a) is False


def test_shapes_through_a_rect_corner_or_along_its_edges_overlap_it():
    """Random rectangles: a line or segment through a corner, or along an edge, touches."""
    rng = random.Random(7)
    for _ in range(3000):
        w = rng.choice([0.0, rng.uniform(0.01, 5.0)])
        h = rng.uniform(0.01, 5.0)
        r = Rect(V(rng.uniform(-10, 10), rng.uniform(-10, 10)), V(w, h))
        (x0, y0), (x1, y1) = r.min, r.max
        cx, cy = rng.choice([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        # A direction pointing away from the rectangle at that corner.
        out = V((-1 if cx == x0 else 1) * rng.uniform(0.1, 3), (-1 if cy == y0 else 1) * rng.uniform(0.1, 3))
        for shape in (Line(V(cx, cy), out), Line(V(cx, cy), V(out.x, -out.y)),
                      Line(V(rng.uniform(-20, 20), cy), V(1, 0)),
                      Line(V(cx, rng.uniform(-20, 20)), V(0, rng.uniform(0.1, 3))),
                      Segment(V(cx, cy), V(cx, cy) + out), Segment(V(cx, cy) + out, V(cx, cy)),
                      Capsule(V(cx, cy) + out, V(cx, cy), 0.0),
                      Segment(V(x0 - rng.uniform(0, 3), cy), V(x1 + rng.uniform(0, 3), cy))):
            assert overlaps(r, shape) is True, (r, shape)
            assert overlaps(shape, r) is True, (r, shape)
