"""Small exact geometry helpers shared by the collision core.

Plain floats in, plain floats (or a :class:`~level_editor.core.collision.shapes.Vec2`) out. The
predicates decide with exact comparisons (``== 0``, ``<=``) and no epsilon:
a point lies on a segment only if the floating-point cross product is zero,
so callers who need slack must add it themselves. This keeps every answer
deterministic and lets the tests check them against an exact oracle.

>>> closest_point_on_segment(Vec2(5, 3), Vec2(0, 0), Vec2(10, 0))
Vec2(x=5.0, y=0.0)
>>> segment_segment_distance_sq(Vec2(0, 0), Vec2(4, 0), Vec2(0, 3), Vec2(4, 3))
9.0
"""
from __future__ import annotations

from level_editor.core.collision.shapes import Vec2, rotation_cos_sin  # noqa: F401 - re-exported: the core's one rotation rule

__all__ = [
    "rotation_cos_sin",
    "closest_point_on_segment",
    "point_segment_distance_sq",
    "point_on_segment",
    "segments_intersect",
    "segment_segment_distance_sq",
    "point_segment_distance_sq_xy",
    "point_on_segment_xy",
    "segments_intersect_xy",
    "segment_segment_distance_sq_xy",
]


def point_segment_distance_sq_xy(px: float, py: float,
                                 ax: float, ay: float,
                                 bx: float, by: float) -> float:
    """:func:`point_segment_distance_sq` on bare floats (for hot loops)."""
    dx = bx - ax
    dy = by - ay
    qx = px - ax
    qy = py - ay
    t = qx * dx + qy * dy
    if t <= 0.0:
        return qx * qx + qy * qy
    dd = dx * dx + dy * dy
    if t >= dd:
        qx = px - bx
        qy = py - by
        return qx * qx + qy * qy
    # Perpendicular distance from the cross product: no cancellation between
    # the point and its projection, so long walls stay accurate.
    c = dx * qy - dy * qx
    return c * c / dd


def point_segment_distance_sq(p, a, b) -> float:
    """Squared distance from point ``p`` to the segment ``a``-``b``.

    A zero-length segment (``a == b``) is the point ``a``.

    Examples
    --------
    >>> point_segment_distance_sq(Vec2(5, 3), Vec2(0, 0), Vec2(10, 0))
    9.0
    >>> point_segment_distance_sq(Vec2(13, 4), Vec2(0, 0), Vec2(10, 0))
    25.0
    """
    return float(point_segment_distance_sq_xy(p[0], p[1], a[0], a[1], b[0], b[1]))


def closest_point_on_segment(p, a, b) -> Vec2:
    """The point of segment ``a``-``b`` nearest to ``p``.

    A zero-length segment (``a == b``) returns ``a``.

    Examples
    --------
    >>> closest_point_on_segment(Vec2(-3, 4), Vec2(0, 0), Vec2(10, 0))
    Vec2(x=0.0, y=0.0)
    >>> closest_point_on_segment(Vec2(4, 4), Vec2(0, 0), Vec2(8, 8))
    Vec2(x=4.0, y=4.0)
    """
    ax, ay = float(a[0]), float(a[1])
    bx, by = float(b[0]), float(b[1])
    dx = bx - ax
    dy = by - ay
    t = (p[0] - ax) * dx + (p[1] - ay) * dy
    if t <= 0.0:
        return Vec2(ax, ay)
    dd = dx * dx + dy * dy
    if t >= dd:
        return Vec2(bx, by)
    t /= dd
    return Vec2(ax + t * dx, ay + t * dy)


def point_on_segment_xy(px: float, py: float,
                        ax: float, ay: float, bx: float, by: float) -> bool:
    """:func:`point_on_segment` on bare floats."""
    if (bx - ax) * (py - ay) - (by - ay) * (px - ax) != 0.0:
        return False
    # On the carrier line: inside the segment's bounding box means on it.
    if ax <= bx:
        if px < ax or px > bx:
            return False
    elif px < bx or px > ax:
        return False
    if ay <= by:
        return ay <= py <= by
    return by <= py <= ay


def point_on_segment(p, a, b) -> bool:
    """Whether point ``p`` lies on the segment ``a``-``b`` (ends included).

    Exact: the cross product must be exactly zero, so a point that is only
    on the segment up to rounding is not on it.

    Examples
    --------
    >>> point_on_segment(Vec2(2, 1), Vec2(0, 0), Vec2(4, 2))
    True
    >>> point_on_segment(Vec2(6, 3), Vec2(0, 0), Vec2(4, 2))
    False
    """
    return point_on_segment_xy(p[0], p[1], a[0], a[1], b[0], b[1])


def _ranges_overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
    if a0 > a1:
        a0, a1 = a1, a0
    if b0 > b1:
        b0, b1 = b1, b0
    return b0 <= a1 and a0 <= b1


def segments_intersect_xy(ax: float, ay: float, bx: float, by: float,
                          cx: float, cy: float, dx: float, dy: float) -> bool:
    """:func:`segments_intersect` on bare floats."""
    if ax == bx and ay == by:
        return point_on_segment_xy(ax, ay, cx, cy, dx, dy)
    if cx == dx and cy == dy:
        return point_on_segment_xy(cx, cy, ax, ay, bx, by)
    ex = bx - ax
    ey = by - ay
    # Which side of line ab the ends c and d lie on (the book's on_one_side).
    sc = ex * (cy - ay) - ey * (cx - ax)
    sd = ex * (dy - ay) - ey * (dx - ax)
    if (sc > 0.0 and sd > 0.0) or (sc < 0.0 and sd < 0.0):
        return False
    fx = dx - cx
    fy = dy - cy
    sa = fx * (ay - cy) - fy * (ax - cx)
    sb = fx * (by - cy) - fy * (bx - cx)
    if (sa > 0.0 and sb > 0.0) or (sa < 0.0 and sb < 0.0):
        return False
    if (sc == 0.0 and sd == 0.0) or (sa == 0.0 and sb == 0.0):
        # Collinear: neither line separates, so compare the extents; for
        # segments on one line, overlap on both axes is overlap on the line.
        return _ranges_overlap(ax, bx, cx, dx) and _ranges_overlap(ay, by, cy, dy)
    return True


def segments_intersect(a, b, c, d) -> bool:
    """Whether segments ``a``-``b`` and ``c``-``d`` share a point (touching counts).

    Handles parallel, collinear and zero-length segments.

    Examples
    --------
    >>> segments_intersect(Vec2(0, 0), Vec2(4, 4), Vec2(0, 4), Vec2(4, 0))
    True
    >>> segments_intersect(Vec2(0, 0), Vec2(2, 0), Vec2(2, 0), Vec2(5, 0))
    True
    >>> segments_intersect(Vec2(0, 0), Vec2(2, 0), Vec2(3, 0), Vec2(5, 0))
    False
    """
    return segments_intersect_xy(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])


def segment_segment_distance_sq_xy(ax: float, ay: float, bx: float, by: float,
                                   cx: float, cy: float, dx: float, dy: float) -> float:
    """:func:`segment_segment_distance_sq` on bare floats."""
    if segments_intersect_xy(ax, ay, bx, by, cx, cy, dx, dy):
        return 0.0
    # Two segments that do not cross are nearest at an end of one of them.
    best = point_segment_distance_sq_xy(ax, ay, cx, cy, dx, dy)
    d = point_segment_distance_sq_xy(bx, by, cx, cy, dx, dy)
    if d < best:
        best = d
    d = point_segment_distance_sq_xy(cx, cy, ax, ay, bx, by)
    if d < best:
        best = d
    d = point_segment_distance_sq_xy(dx, dy, ax, ay, bx, by)
    if d < best:
        best = d
    return best


def segment_segment_distance_sq(a, b, c, d) -> float:
    """Squared distance between segments ``a``-``b`` and ``c``-``d``.

    Zero when they cross or touch; zero-length segments act as points.

    Examples
    --------
    >>> segment_segment_distance_sq(Vec2(0, 0), Vec2(4, 4), Vec2(0, 4), Vec2(4, 0))
    0.0
    >>> segment_segment_distance_sq(Vec2(0, 0), Vec2(2, 0), Vec2(5, 4), Vec2(9, 4))
    25.0
    """
    return float(segment_segment_distance_sq_xy(a[0], a[1], b[0], b[1],
                                                c[0], c[1], d[0], d[1]))
