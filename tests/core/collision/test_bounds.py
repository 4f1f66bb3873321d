"""Bounding rectangles and circles, merging them, and bounded shape groups."""
from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from level_editor.core.collision import bounds
from level_editor.core.collision.bounds import (
    BoundedShapeGroup,
    bounding_circle,
    bounding_rect,
    enlarge_rect,
    merge_circles,
    merge_rects,
    group_overlaps,
)
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2
from tests.core.collision.test_overlap_oracle import SHAPES, exact_form

V = Vec2
FINITE_KINDS = ["point", "segment", "circle", "rect", "oriented_rect", "capsule"]
finite_shapes = st.one_of(*(SHAPES[k] for k in FINITE_KINDS))
any_shapes = st.one_of(*SHAPES.values())


def as_tuple(r: Rect):
    return (*r.origin, *r.size)


# ---------------------------------------------------------------------------
# Bounding rectangles
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape,expected", [
    (V(3, 4), (3, 4, 0, 0)),
    (Segment(V(5, 1), V(2, 7)), (2, 1, 3, 6)),
    (Circle(V(6, 4), 4), (2, 0, 8, 8)),
    (Rect(V(2, 3), V(6, 4)), (2, 3, 6, 4)),
    (OrientedRect(V(0, 0), V(2, 1), 0), (-2, -1, 4, 2)),
    (OrientedRect(V(0, 0), V(2, 1), 90), (-1, -2, 2, 4)),
    (OrientedRect(V(5, 5), V(2, 1), -180), (3, 4, 4, 2)),
    (Capsule(V(0, 0), V(10, -4), 2), (-2, -6, 14, 8)),
])
def test_bounding_rect_of_each_shape(shape, expected):
    assert as_tuple(bounding_rect(shape)) == expected


def test_a_rect_is_its_own_bounding_rect():
    r = Rect(V(1.5, -2), V(3, 0.25))
    assert bounding_rect(r) is r


def test_bounding_rect_of_an_oriented_rect_matches_its_corners():
    # The book enlarges a rectangle by the four corners; the core uses the
    # extents directly. Both must agree.
    for rotation in (0, 15, 30, 45, 60, 89.5, 123, 200, -37):
        o = OrientedRect(V(5, 4), V(3, 2), rotation)
        xs = [c.x for c in o.corners()]
        ys = [c.y for c in o.corners()]
        r = bounding_rect(o)
        assert r.min.x == pytest.approx(min(xs), abs=1e-12)
        assert r.min.y == pytest.approx(min(ys), abs=1e-12)
        assert r.max.x == pytest.approx(max(xs), abs=1e-12)
        assert r.max.y == pytest.approx(max(ys), abs=1e-12)


def test_a_line_has_no_bounding_rect_or_circle():
    line = Line(V(0, 0), V(1, 1))
    with pytest.raises(ValueError, match="infinite"):
        bounding_rect(line)
    with pytest.raises(ValueError, match="infinite"):
        bounding_circle(line)


@pytest.mark.parametrize("bad", [(1, 2), None, "rect"])
def test_bounds_of_something_that_is_not_a_shape(bad):
    with pytest.raises(TypeError, match=type(bad).__name__):
        bounding_rect(bad)
    with pytest.raises(TypeError, match=type(bad).__name__):
        bounding_circle(bad)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(shape=finite_shapes)
def test_bounding_rect_is_the_tight_box_of_the_exact_shape(shape):
    core, radius = exact_form(shape)
    x0, y0, x1, y1 = shapely.bounds(core)
    r = bounding_rect(shape)
    assert r.min.x == pytest.approx(x0 - radius, abs=1e-9)
    assert r.min.y == pytest.approx(y0 - radius, abs=1e-9)
    assert r.max.x == pytest.approx(x1 + radius, abs=1e-9)
    assert r.max.y == pytest.approx(y1 + radius, abs=1e-9)


# ---------------------------------------------------------------------------
# Bounding circles
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape,center,radius", [
    (V(3, 4), (3, 4), 0),
    (Segment(V(0, 0), V(6, 8)), (3, 4), 5),
    (Circle(V(6, 4), 4), (6, 4), 4),
    (Rect(V(1, 1), V(6, 8)), (4, 5), 5),
    (OrientedRect(V(6, 4), V(3, 4), 30), (6, 4), 5),     # the book: centre and |half extents|
    (Capsule(V(0, 0), V(6, 8), 2), (3, 4), 7),
])
def test_bounding_circle_of_each_shape(shape, center, radius):
    c = bounding_circle(shape)
    assert tuple(c.center) == pytest.approx(center)
    assert c.radius == pytest.approx(radius)


def test_a_circle_is_its_own_bounding_circle():
    c = Circle(V(1, 2), 3)
    assert bounding_circle(c) is c


def _farthest(core, cx: float, cy: float) -> float:
    coords = shapely.get_coordinates(core)
    return max(math.hypot(x - cx, y - cy) for x, y in coords)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(shape=finite_shapes)
def test_bounding_circle_is_the_smallest_circle_around_a_single_shape(shape):
    # For these symmetric shapes the centre of the bounding box is the centre
    # of the smallest enclosing circle, which reaches the farthest vertex.
    core, radius = exact_form(shape)
    c = bounding_circle(shape)
    assert c.radius == pytest.approx(_farthest(core, *c.center) + radius, abs=1e-9)
    assert tuple(c.center) == pytest.approx(tuple(bounding_rect(shape).center), abs=1e-9)


# ---------------------------------------------------------------------------
# Enlarging and merging
# ---------------------------------------------------------------------------

def test_enlarge_rect_by_points_inside_and_outside():
    r = Rect(V(2, 3), V(6, 4))
    assert enlarge_rect(r, V(4, 4)) == r
    assert as_tuple(enlarge_rect(r, V(10, 1))) == (2, 1, 8, 6)
    assert as_tuple(enlarge_rect(r, V(-1, 9))) == (-1, 3, 9, 6)


def test_book_oriented_rectangle_hull_by_enlarging_with_corners():
    # oriented_rectangle_rectangle_hull(): start at the centre, enlarge by
    # each corner.
    o = OrientedRect(V(10, 4), V(4, 2), 25)
    hull = Rect(o.center, V(0, 0))
    for corner in o.corners():
        hull = enlarge_rect(hull, corner)
    assert as_tuple(hull) == pytest.approx(as_tuple(bounding_rect(o)), abs=1e-12)


def test_merge_rects():
    rects = [Rect(V(1, 1), V(4, 4)), Rect(V(2, 2), V(5, 5)), Rect(V(6, 4), V(4, 2))]
    assert as_tuple(merge_rects(rects)) == (1, 1, 9, 6)
    assert merge_rects(iter(rects[:1])) == rects[0]
    with pytest.raises(ValueError, match="at least one"):
        merge_rects([])


def test_merge_circles_like_the_book():
    circles = [Circle(V(4, 4), 2), Circle(V(7, 4), 2), Circle(V(10, 4), 2)]
    hull = merge_circles(circles)
    assert tuple(hull.center) == (7, 4)
    assert hull.radius == 5
    with pytest.raises(ValueError, match="at least one"):
        merge_circles([])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(circles=st.lists(SHAPES["circle"], min_size=1, max_size=6))
def test_merged_circle_contains_every_circle_and_touches_one(circles):
    hull = merge_circles(circles)
    reaches = [math.dist(c.center, hull.center) + c.radius for c in circles]
    assert max(reaches) == pytest.approx(hull.radius, abs=1e-9)
    assert all(reach <= hull.radius for reach in reaches)


# ---------------------------------------------------------------------------
# Bounded shape groups
# ---------------------------------------------------------------------------

def test_group_bound_rect_and_circle():
    shapes = [Rect(V(0, 0), V(4, 2)), Circle(V(1, 2), 1), Segment(V(4, 0), V(6, -1))]
    g = BoundedShapeGroup.around(shapes)
    assert isinstance(g.bound, Rect)
    assert as_tuple(g.rect) == pytest.approx((-0.0, -1, 6, 4), abs=1e-9)
    gc = BoundedShapeGroup.around(shapes, "circle")
    assert isinstance(gc.bound, Circle)
    assert tuple(gc.circle.center) == pytest.approx((3, 1))
    assert g.shapes == tuple(shapes)


@pytest.mark.parametrize("shapes,bound,message", [
    ([], "rect", "at least one"),
    ([Circle(V(0, 0), 1), Line(V(0, 0), V(1, 0))], "rect", "infinite"),
    ([Circle(V(0, 0), 1), Line(V(0, 0), V(1, 0))], "circle", "infinite"),
    ([Circle(V(0, 0), 1)], "square", "square"),
])
def test_group_refuses_bad_input(shapes, bound, message):
    with pytest.raises(ValueError, match=message):
        BoundedShapeGroup.around(shapes, bound)


def test_group_checks_its_bound_before_its_members(monkeypatch):
    # The book's picture: 11 rectangles against 20 circles, far apart. One
    # test of the two bounds replaces 220 member tests.
    a = BoundedShapeGroup.around([Rect(V(i * 3, 0), V(2, 2)) for i in range(11)])
    b = BoundedShapeGroup.around([Circle(V(100 + i * 2, 50), 1) for i in range(20)], "circle")
    calls = []

    def counting(x, y):
        calls.append((x, y))
        return overlaps(x, y)

    monkeypatch.setattr(bounds, "overlaps", counting)
    assert group_overlaps(a, b) is False
    assert group_overlaps(b, a) is False
    assert len(calls) == 2


def test_group_inside_its_bound_but_between_members():
    g = BoundedShapeGroup.around([Circle(V(0, 0), 1), Circle(V(6, 0), 1)], "circle")
    assert group_overlaps(g, V(3, 0)) is False
    assert group_overlaps(g, V(6, 1)) is True
    assert group_overlaps(Segment(V(3, -5), V(3, 5)), g) is False
    assert group_overlaps(Line(V(0, 5), V(1, 0)), g) is False
    assert group_overlaps(Line(V(0, 1), V(1, 0)), g) is True


def test_nested_groups_and_group_against_group():
    left = BoundedShapeGroup.around([Rect(V(0, 0), V(2, 2)), Circle(V(5, 1), 1)])
    right = BoundedShapeGroup.around([Capsule(V(10, 0), V(10, 10), 1)], "circle")
    both = BoundedShapeGroup.around([left, right])
    # The right group is bounded by a circle, so the outer box holds that circle.
    assert as_tuple(bounding_rect(both)) == pytest.approx((0, -1, 16, 12), abs=1e-9)
    assert group_overlaps(both, V(9.5, 5)) is True
    assert group_overlaps(both, V(7.5, 5)) is False
    assert group_overlaps(left, right) is False
    assert group_overlaps(left, BoundedShapeGroup.around([Circle(V(7, 1), 1)])) is True


@settings(max_examples=300, deadline=None, derandomize=True)
@given(members=st.lists(finite_shapes, min_size=1, max_size=4),
       other=any_shapes, kind=st.sampled_from(["rect", "circle"]))
def test_group_overlaps_exactly_when_a_member_does(members, other, kind):
    g = BoundedShapeGroup.around(members, kind)
    expected = any(overlaps(m, other) for m in members)
    assert group_overlaps(g, other) is expected
    assert group_overlaps(other, g) is expected


# Found by random search: with exactly tight bounds each of these probes
# touches the member yet falls outside the bound by rounding (a Rect stores
# origin and size, so origin + size need not give back the far corner).
TOUCHING_MEMBERS = [
    (Segment(V(-628.1874682105646, 985.0868243521302), V(719.8930575905797, -758.2200803883871)),
     V(719.8930575905797, -758.2200803883871)),
    (OrientedRect(V(-990.1683804730499, -148.22033000530598),
                  V(12.294719018797979, 45.24989105496118), -139.47349449204899),
     V(-970.1102954835656, -190.60412387503493)),
    (OrientedRect(V(-9.341757855950732, -28.167770025518507),
                  V(16.85234011873154, 8.32545080721524), 130.53679363597257),
     V(7.938437427224021, -35.564346909193446)),
    (Circle(V(395.490612889424, 11.581940872433393), 12.325581784329378),
     V(397.43934262384613, -0.5886145275625889)),
]


@pytest.mark.parametrize("member,probe", TOUCHING_MEMBERS)
def test_a_touching_member_is_never_hidden_by_rounding_in_the_bound(member, probe):
    assert overlaps(member, probe) is True
    for kind in ("rect", "circle"):
        g = BoundedShapeGroup.around([member], kind)
        assert group_overlaps(g, probe) is overlaps(member, probe)
