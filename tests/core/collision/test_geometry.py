"""The shared geometry helpers, against shapely where it gives exact answers."""
from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point

from level_editor.core.collision.geometry import (
    closest_point_on_segment,
    point_on_segment,
    point_segment_distance_sq,
    rotation_cos_sin,
    segment_segment_distance_sq,
    segments_intersect,
)
from level_editor.core.collision.shapes import Vec2

V = Vec2
coords = st.floats(-100, 100, allow_nan=False).map(lambda v: round(v, 3) + 0.0)
points = st.builds(Vec2, coords, coords)


def _path(a, b):
    return Point(a) if a == b else LineString([a, b])


@pytest.mark.parametrize("degrees,expected", [
    (0, (1.0, 0.0)), (90, (0.0, 1.0)), (180, (-1.0, 0.0)), (270, (0.0, -1.0)),
    (-90, (0.0, -1.0)), (360, (1.0, 0.0)), (450, (0.0, 1.0)), (-720, (1.0, 0.0)),
])
def test_quarter_turns_are_exact(degrees, expected):
    assert rotation_cos_sin(degrees) == expected


def test_other_rotations_turn_x_towards_y():
    c, s = rotation_cos_sin(30)
    assert c == pytest.approx(math.sqrt(3) / 2)
    assert s == pytest.approx(0.5)
    assert V(1, 0).rotated(30) == pytest.approx((c, s))


def test_closest_point_on_segment_inside_and_beyond_the_ends():
    a, b = V(0, 0), V(10, 0)
    assert closest_point_on_segment(V(4, 3), a, b) == (4, 0)
    assert closest_point_on_segment(V(-4, 3), a, b) == (0, 0)
    assert closest_point_on_segment(V(14, -3), a, b) == (10, 0)
    assert closest_point_on_segment(V(5, 5), V(2, 2), V(2, 2)) == (2, 2)
    assert type(closest_point_on_segment(V(4, 3), a, b)) is Vec2


def test_point_on_segment_is_exact():
    assert point_on_segment(V(2, 1), V(0, 0), V(4, 2)) is True
    assert point_on_segment(V(4, 2), V(0, 0), V(4, 2)) is True
    assert point_on_segment(V(6, 3), V(0, 0), V(4, 2)) is False
    assert point_on_segment(V(2, 1 + 2 ** -40), V(0, 0), V(4, 2)) is False
    assert point_on_segment(V(1, 1), V(1, 1), V(1, 1)) is True


def test_segments_intersect_cases():
    assert segments_intersect(V(0, 0), V(4, 4), V(0, 4), V(4, 0)) is True     # crossing
    assert segments_intersect(V(0, 0), V(4, 0), V(2, 0), V(2, 3)) is True     # T
    assert segments_intersect(V(0, 0), V(4, 0), V(2, 1), V(2, 3)) is False
    assert segments_intersect(V(0, 0), V(4, 0), V(4, 0), V(9, 0)) is True     # collinear, end to end
    assert segments_intersect(V(0, 0), V(4, 0), V(5, 0), V(9, 0)) is False    # collinear, apart
    assert segments_intersect(V(0, 0), V(4, 0), V(0, 1), V(4, 1)) is False    # parallel
    assert segments_intersect(V(1, 1), V(1, 1), V(0, 0), V(2, 2)) is True     # a point on it
    assert segments_intersect(V(2, 0), V(2, 0), V(0, 0), V(2, 2)) is False    # in its box only


@settings(max_examples=400, deadline=None, derandomize=True)
@given(p=points, a=points, b=points)
def test_point_segment_distance_matches_shapely(p, a, b):
    expected = shapely.distance(Point(p), _path(a, b))
    assert math.sqrt(point_segment_distance_sq(p, a, b)) == pytest.approx(expected, abs=1e-9)
    q = closest_point_on_segment(p, a, b)
    assert math.dist(p, q) == pytest.approx(expected, abs=1e-9)
    assert shapely.distance(Point(q), _path(a, b)) == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(a=points, b=points, c=points, d=points)
def test_segment_distance_and_intersection_match_shapely(a, b, c, d):
    expected = float(shapely.distance(_path(a, b), _path(c, d)))
    got = segment_segment_distance_sq(a, b, c, d)
    assert math.sqrt(got) == pytest.approx(expected, abs=1e-9)
    if expected > 1e-9:
        assert segments_intersect(a, b, c, d) is False
    if segments_intersect(a, b, c, d):
        assert got == 0.0
