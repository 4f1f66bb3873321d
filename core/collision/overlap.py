"""Overlap tests between every pair of collision shapes.

:func:`overlaps` answers "do these two shapes share a point?" for the seven
kinds of :mod:`level_editor.core.collision.shapes` (``Vec2`` as a point, ``Line``, ``Segment``,
``Circle``, ``Rect``, ``OrientedRect``, ``Capsule``), in either order.
Touching counts as overlapping, as in the book (``<=`` everywhere).

There is one small function per pair, named after the pair with its
arguments in that order (``circle_rect(circle, rect)``); a table keyed on
the two types picks it, and the swapped order reuses the same function.

Decisions are exact floating-point comparisons without an epsilon, so the
answers are deterministic and match an exact oracle away from rounding: a
point is on a line only if the cross product is exactly zero, and two lines
are parallel only if their directions' cross product is exactly zero.

Degenerate shapes are points: a ``Line`` with a zero direction is its base,
a zero-length ``Segment`` or ``Capsule`` is its end (a capsule then a
circle), a zero-size ``Rect`` is a segment or a point. Sizes, radii and half
extents are expected to be non-negative (the level validator enforces > 0).

>>> from level_editor.core.collision.shapes import Vec2, Circle, Rect, Capsule
>>> overlaps(Circle(Vec2(0, 0), 1), Rect(Vec2(1, -1), Vec2(2, 2)))
True
>>> overlaps(Capsule(Vec2(0, 0), Vec2(10, 0), 2), Vec2(5, 3))
False
"""
from __future__ import annotations

import math

from level_editor.core.collision.geometry import (
    point_on_segment_xy,
    point_segment_distance_sq_xy,
    rotation_cos_sin,
    segment_segment_distance_sq_xy,
    segments_intersect_xy,
)
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2

__all__ = ["overlaps", "SHAPE_KINDS"]

SHAPE_KINDS = (Vec2, Line, Segment, Circle, Rect, OrientedRect, Capsule)
"""The shape types :func:`overlaps` accepts, in the order used by the pair names."""


# --------------------------------------------------------------------------
# Shared pieces on bare floats
# --------------------------------------------------------------------------

# Factor that loosens the quick reject tests a little, far above rounding,
# so that only the exact test ever decides a touching pair.
_LOOSE = 1.0 + 1e-9


def _line_direction(line: Line) -> tuple[float, float]:
    """The line's direction scaled by a power of two to a magnitude near 1.

    Scaling by a power of two is exact, so signs and zero tests are unchanged,
    while a tiny or huge direction no longer underflows or overflows when
    multiplied. A zero direction stays ``(0.0, 0.0)``.
    """
    dx, dy = line.direction
    m = abs(dx) if abs(dx) >= abs(dy) else abs(dy)
    if m == 0.0:
        return 0.0, 0.0
    e = -math.frexp(m)[1]
    return math.ldexp(dx, e), math.ldexp(dy, e)


def _segment_box_intersect(ax: float, ay: float, bx: float, by: float,
                           x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether segment a-b meets the box [x0, x1] x [y0, y1] (separating axes)."""
    # The box's own axes: the book's two range tests.
    if ax <= bx:
        if bx < x0 or ax > x1:
            return False
    elif ax < x0 or bx > x1:
        return False
    if ay <= by:
        if by < y0 or ay > y1:
            return False
    elif ay < y0 or by > y1:
        return False
    # The segment's normal: the book's line-rectangle test. A zero-length
    # segment gives 0 for every corner here, leaving the range tests.
    return _corners_straddle(bx - ax, by - ay, ax, ay, x0, y0, x1, y1)


def _corners_straddle(dx: float, dy: float, px: float, py: float,
                      x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether the corners of the box [x0, x1] x [y0, y1] are not all strictly
    on one side of the line through p along d.

    Corner by corner rather than from the box's centre: the centre form
    rounds once more (x0 + (x1 - x0) / 2 - px), which misses a line that runs
    exactly along an edge or through a corner.
    """
    ux = x0 - px
    vx = x1 - px
    uy = dy * ux
    vy = dy * vx
    a = dx * (y0 - py)
    b = dx * (y1 - py)
    s00 = a - uy
    s10 = a - vy
    s11 = b - vy
    s01 = b - uy
    if s00 > 0.0:
        return not (s10 > 0.0 and s11 > 0.0 and s01 > 0.0)
    if s00 < 0.0:
        return not (s10 < 0.0 and s11 < 0.0 and s01 < 0.0)
    return True


def _point_box_distance_sq(px: float, py: float,
                           x0: float, y0: float, x1: float, y1: float) -> float:
    dx = x0 - px if px < x0 else (px - x1 if px > x1 else 0.0)
    dy = y0 - py if py < y0 else (py - y1 if py > y1 else 0.0)
    return dx * dx + dy * dy


def _segment_box_within(ax: float, ay: float, bx: float, by: float,
                        x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    """Whether segment a-b comes within ``r`` of the box [x0, x1] x [y0, y1]."""
    # Most pairs are far apart: reject on the segment's bounds grown by r.
    if ax <= bx:
        if bx + r < x0 or ax - r > x1:
            return False
    elif ax + r < x0 or bx - r > x1:
        return False
    if ay <= by:
        if by + r < y0 or ay - r > y1:
            return False
    elif ay + r < y0 or by - r > y1:
        return False
    if _segment_box_intersect(ax, ay, bx, by, x0, y0, x1, y1):
        return True
    # Disjoint convex shapes are nearest between a vertex of one and the
    # other: an end of the segment against the box, or a corner against the
    # segment.
    rr = r * r
    return (_point_box_distance_sq(ax, ay, x0, y0, x1, y1) <= rr
            or _point_box_distance_sq(bx, by, x0, y0, x1, y1) <= rr
            or point_segment_distance_sq_xy(x0, y0, ax, ay, bx, by) <= rr
            or point_segment_distance_sq_xy(x1, y0, ax, ay, bx, by) <= rr
            or point_segment_distance_sq_xy(x1, y1, ax, ay, bx, by) <= rr
            or point_segment_distance_sq_xy(x0, y1, ax, ay, bx, by) <= rr)


def _segments_within(ax: float, ay: float, bx: float, by: float,
                     cx: float, cy: float, dx: float, dy: float, r: float) -> bool:
    """Whether segments a-b and c-d come within ``r`` of each other."""
    # Reject on the two bounding boxes, the first grown by r.
    if ax <= bx:
        lo, hi = ax - r, bx + r
    else:
        lo, hi = bx - r, ax + r
    if (cx < lo and dx < lo) or (cx > hi and dx > hi):
        return False
    if ay <= by:
        lo, hi = ay - r, by + r
    else:
        lo, hi = by - r, ay + r
    if (cy < lo and dy < lo) or (cy > hi and dy > hi):
        return False
    return segment_segment_distance_sq_xy(ax, ay, bx, by, cx, cy, dx, dy) <= r * r


def _line_segment_gap(dx: float, dy: float, px: float, py: float,
                      ax: float, ay: float, bx: float, by: float,
                      radius: float) -> bool:
    """Whether segment a-b comes within ``radius`` of the line through p along d."""
    sa = dx * (ay - py) - dy * (ax - px)
    sb = dx * (by - py) - dy * (bx - px)
    if sa > 0.0 and sb > 0.0:
        gap = sa if sa < sb else sb
    elif sa < 0.0 and sb < 0.0:
        gap = -sa if sa > sb else -sb
    else:
        return True  # the ends lie on both sides of the line, or on it
    # Not crossing, so the nearest point is an end; gap is its distance
    # times |d|.
    return gap <= radius * math.hypot(dx, dy)


# --------------------------------------------------------------------------
# Point pairs
# --------------------------------------------------------------------------

def point_point(p: Vec2, q: Vec2) -> bool:
    """Two points overlap only when they are equal (exactly, unlike the book)."""
    return p[0] == q[0] and p[1] == q[1]


def point_line(p: Vec2, line: Line) -> bool:
    """The point lies on the line (exact zero cross product)."""
    dx, dy = _line_direction(line)
    bx, by = line.base
    if dx == 0.0 and dy == 0.0:
        return p[0] == bx and p[1] == by
    return dx * (p[1] - by) - dy * (p[0] - bx) == 0.0


def point_segment(p: Vec2, s: Segment) -> bool:
    a, b = s.a, s.b
    return point_on_segment_xy(p[0], p[1], a[0], a[1], b[0], b[1])


def point_circle(p: Vec2, c: Circle) -> bool:
    cx, cy = c.center
    dx = p[0] - cx
    dy = p[1] - cy
    r = c.radius
    return dx * dx + dy * dy <= r * r


def point_rect(p: Vec2, r: Rect) -> bool:
    ox, oy = r.origin
    w, h = r.size
    px, py = p
    return ox <= px <= ox + w and oy <= py <= oy + h


def point_oriented_rect(p: Vec2, o: OrientedRect) -> bool:
    """The point, turned into the box's frame, lies within the half extents."""
    co, si = rotation_cos_sin(o.rotation)
    cx, cy = o.center
    hx, hy = o.half_extents
    vx = p[0] - cx
    vy = p[1] - cy
    return abs(vx * co + vy * si) <= hx and abs(vy * co - vx * si) <= hy


def point_capsule(p: Vec2, k: Capsule) -> bool:
    a, b = k.a, k.b
    r = k.radius
    return point_segment_distance_sq_xy(p[0], p[1], a[0], a[1], b[0], b[1]) <= r * r


# --------------------------------------------------------------------------
# Line pairs
# --------------------------------------------------------------------------

def line_line(l1: Line, l2: Line) -> bool:
    """Lines meet unless they are parallel and distinct (parallel exactly)."""
    d1x, d1y = _line_direction(l1)
    d2x, d2y = _line_direction(l2)
    if d1x == 0.0 and d1y == 0.0:
        return point_line(l1.base, l2)
    if d2x == 0.0 and d2y == 0.0:
        return point_line(l2.base, l1)
    if d1x * d2y - d1y * d2x != 0.0:
        return True
    (b1x, b1y), (b2x, b2y) = l1.base, l2.base
    return d1x * (b2y - b1y) - d1y * (b2x - b1x) == 0.0


def line_segment(line: Line, s: Segment) -> bool:
    """The segment's ends are not both strictly on one side of the line."""
    a, b = s.a, s.b
    dx, dy = _line_direction(line)
    if dx == 0.0 and dy == 0.0:
        return point_segment(line.base, s)
    px, py = line.base
    return _line_segment_gap(dx, dy, px, py, a[0], a[1], b[0], b[1], 0.0)


def line_circle(line: Line, c: Circle) -> bool:
    dx, dy = _line_direction(line)
    if dx == 0.0 and dy == 0.0:
        return point_circle(line.base, c)
    bx, by = line.base
    cx, cy = c.center
    # The cross product is the centre's distance to the line times |d|.
    return abs(dx * (cy - by) - dy * (cx - bx)) <= c.radius * math.hypot(dx, dy)


def line_rect(line: Line, r: Rect) -> bool:
    """The rectangle's corners are not all strictly on one side of the line."""
    dx, dy = _line_direction(line)
    if dx == 0.0 and dy == 0.0:
        return point_rect(line.base, r)
    bx, by = line.base
    ox, oy = r.origin
    w, h = r.size
    return _corners_straddle(dx, dy, bx, by, ox, oy, ox + w, oy + h)


def line_oriented_rect(line: Line, o: OrientedRect) -> bool:
    dx, dy = _line_direction(line)
    if dx == 0.0 and dy == 0.0:
        return point_oriented_rect(line.base, o)
    co, si = rotation_cos_sin(o.rotation)
    bx, by = line.base
    cx, cy = o.center
    hx, hy = o.half_extents
    c = dx * (cy - by) - dy * (cx - bx)
    # The line's normal (-dy, dx) against the box's axes (co, si), (-si, co).
    return abs(c) <= hx * abs(dx * si - dy * co) + hy * abs(dy * si + dx * co)


def line_capsule(line: Line, k: Capsule) -> bool:
    dx, dy = _line_direction(line)
    if dx == 0.0 and dy == 0.0:
        return point_capsule(line.base, k)
    a, b = k.a, k.b
    px, py = line.base
    return _line_segment_gap(dx, dy, px, py, a[0], a[1], b[0], b[1], k.radius)


# --------------------------------------------------------------------------
# Segment pairs
# --------------------------------------------------------------------------

def segment_segment(s1: Segment, s2: Segment) -> bool:
    """The book's separating-axis test, with collinear and zero-length cases."""
    a, b, c, d = s1.a, s1.b, s2.a, s2.b
    return segments_intersect_xy(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])


def segment_circle(s: Segment, c: Circle) -> bool:
    a, b = s.a, s.b
    cx, cy = c.center
    r = c.radius
    return point_segment_distance_sq_xy(cx, cy, a[0], a[1], b[0], b[1]) <= r * r


def segment_rect(s: Segment, r: Rect) -> bool:
    a, b = s.a, s.b
    ox, oy = r.origin
    w, h = r.size
    return _segment_box_intersect(a[0], a[1], b[0], b[1], ox, oy, ox + w, oy + h)


def _in_box_frame(o: OrientedRect, a, b) -> tuple[float, float, float, float]:
    """Segment a-b in the oriented box's own frame (its centre at the origin, its sides on the axes)."""
    co, si = rotation_cos_sin(o.rotation)
    cx, cy = o.center
    ax = a[0] - cx
    ay = a[1] - cy
    bx = b[0] - cx
    by = b[1] - cy
    return ax * co + ay * si, ay * co - ax * si, bx * co + by * si, by * co - bx * si


def segment_oriented_rect(s: Segment, o: OrientedRect) -> bool:
    """The segment turned into the box's frame against an axis-aligned box."""
    hx, hy = o.half_extents
    return _segment_box_intersect(*_in_box_frame(o, s.a, s.b), -hx, -hy, hx, hy)


def segment_capsule(s: Segment, k: Capsule) -> bool:
    a, b, c, d = s.a, s.b, k.a, k.b
    return _segments_within(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1], k.radius)


# --------------------------------------------------------------------------
# Circle pairs
# --------------------------------------------------------------------------

def circle_circle(c1: Circle, c2: Circle) -> bool:
    ax, ay = c1.center
    bx, by = c2.center
    dx = ax - bx
    dy = ay - by
    r = c1.radius + c2.radius
    return dx * dx + dy * dy <= r * r


def circle_rect(c: Circle, r: Rect) -> bool:
    """The centre clamped onto the rectangle lies within the radius."""
    cx, cy = c.center
    x0, y0 = r.origin
    w, h = r.size
    if cx < x0:
        dx = x0 - cx
    else:
        dx = cx - (x0 + w)
        if dx < 0.0:
            dx = 0.0
    if cy < y0:
        dy = y0 - cy
    else:
        dy = cy - (y0 + h)
        if dy < 0.0:
            dy = 0.0
    rad = c.radius
    return dx * dx + dy * dy <= rad * rad


def circle_oriented_rect(c: Circle, o: OrientedRect) -> bool:
    """The centre turned into the box's frame, then clamped as for a rect."""
    cx, cy = o.center
    hx, hy = o.half_extents
    vx = c.center[0] - cx
    vy = c.center[1] - cy
    r = c.radius
    # Reject before the trigonometry: the box lies within hx + hy of its
    # centre. The reach is loosened by 1e-9 so rounding never rejects a touch.
    reach = (r + hx + hy) * _LOOSE
    if vx * vx + vy * vy > reach * reach:
        return False
    co, si = rotation_cos_sin(o.rotation)
    dx = abs(vx * co + vy * si) - hx
    dy = abs(vy * co - vx * si) - hy
    d2 = 0.0
    if dx > 0.0:
        d2 = dx * dx
    if dy > 0.0:
        d2 += dy * dy
    return d2 <= r * r


def circle_capsule(c: Circle, k: Capsule) -> bool:
    """Centre-to-wall distance against the two radii together."""
    a, b = k.a, k.b
    cx, cy = c.center
    r = c.radius + k.radius
    return point_segment_distance_sq_xy(cx, cy, a[0], a[1], b[0], b[1]) <= r * r


# --------------------------------------------------------------------------
# Rect, oriented rect and capsule pairs
# --------------------------------------------------------------------------

def rect_rect(r1: Rect, r2: Rect) -> bool:
    """Overlap on both axes (the book's short-circuit version)."""
    ax, ay = r1.origin
    bx, by = r2.origin
    if bx + r2.size[0] < ax or ax + r1.size[0] < bx:
        return False
    return not (by + r2.size[1] < ay or ay + r1.size[1] < by)


def rect_oriented_rect(r: Rect, o: OrientedRect) -> bool:
    """Separating axes: the two of the rectangle and the two of the box."""
    x0, y0 = r.origin
    w, h = r.size
    x1 = x0 + w
    y1 = y0 + h
    cx, cy = o.center
    hx, hy = o.half_extents
    # The rectangle's axes compare edges, not centres: the rectangle's far
    # edge is origin + size, and going through its centre would round again
    # and miss boxes that share an edge. First without the trigonometry: the
    # box lies within hx + hy of its centre along each axis.
    reach = hx + hy
    if cx + reach < x0 or cx - reach > x1 or cy + reach < y0 or cy - reach > y1:
        return False
    co, si = rotation_cos_sin(o.rotation)
    ac = abs(co)
    as_ = abs(si)
    ex = hx * ac + hy * as_
    ey = hx * as_ + hy * ac
    if cx + ex < x0 or cx - ex > x1 or cy + ey < y0 or cy - ey > y1:
        return False
    if co == 0.0 or si == 0.0:
        return True  # a quarter turn: the box's axes are the rectangle's
    wx = w * 0.5
    wy = h * 0.5
    tx = cx - (x0 + wx)
    ty = cy - (y0 + wy)
    if abs(tx * co + ty * si) > hx + wx * ac + wy * as_:
        return False
    return abs(ty * co - tx * si) <= hy + wx * as_ + wy * ac


def rect_capsule(r: Rect, k: Capsule) -> bool:
    """Segment-to-rectangle distance against the capsule's radius."""
    x0, y0 = r.origin
    w, h = r.size
    a, b = k.a, k.b
    return _segment_box_within(a[0], a[1], b[0], b[1], x0, y0, x0 + w, y0 + h, k.radius)


def oriented_rect_oriented_rect(o1: OrientedRect, o2: OrientedRect) -> bool:
    """Separating axes along the sides of both boxes, in centre-extent form."""
    c1, s1 = rotation_cos_sin(o1.rotation)
    c2, s2 = rotation_cos_sin(o2.rotation)
    ax, ay = o1.half_extents
    bx, by = o2.half_extents
    tx = o2.center[0] - o1.center[0]
    ty = o2.center[1] - o1.center[1]
    # |u_i . v_j| for the axes u = (c1, s1), (-s1, c1) and v = (c2, s2), (-s2, c2).
    r00 = abs(c1 * c2 + s1 * s2)
    r01 = abs(s1 * c2 - c1 * s2)
    r10 = abs(c1 * s2 - s1 * c2)
    r11 = abs(s1 * s2 + c1 * c2)
    if abs(tx * c1 + ty * s1) > ax + bx * r00 + by * r01:
        return False
    if abs(ty * c1 - tx * s1) > ay + bx * r10 + by * r11:
        return False
    if abs(tx * c2 + ty * s2) > bx + ax * r00 + ay * r10:
        return False
    return abs(ty * c2 - tx * s2) <= by + ax * r01 + ay * r11


def oriented_rect_capsule(o: OrientedRect, k: Capsule) -> bool:
    """The capsule turned into the box's frame, then as for a rect."""
    hx, hy = o.half_extents
    return _segment_box_within(*_in_box_frame(o, k.a, k.b), -hx, -hy, hx, hy, k.radius)


def capsule_capsule(k1: Capsule, k2: Capsule) -> bool:
    a, b, c, d = k1.a, k1.b, k2.a, k2.b
    return _segments_within(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1],
                            k1.radius + k2.radius)


# --------------------------------------------------------------------------
# Dispatch
# --------------------------------------------------------------------------

_PAIR_TESTS = {
    (Vec2, Vec2): point_point,
    (Vec2, Line): point_line,
    (Vec2, Segment): point_segment,
    (Vec2, Circle): point_circle,
    (Vec2, Rect): point_rect,
    (Vec2, OrientedRect): point_oriented_rect,
    (Vec2, Capsule): point_capsule,
    (Line, Line): line_line,
    (Line, Segment): line_segment,
    (Line, Circle): line_circle,
    (Line, Rect): line_rect,
    (Line, OrientedRect): line_oriented_rect,
    (Line, Capsule): line_capsule,
    (Segment, Segment): segment_segment,
    (Segment, Circle): segment_circle,
    (Segment, Rect): segment_rect,
    (Segment, OrientedRect): segment_oriented_rect,
    (Segment, Capsule): segment_capsule,
    (Circle, Circle): circle_circle,
    (Circle, Rect): circle_rect,
    (Circle, OrientedRect): circle_oriented_rect,
    (Circle, Capsule): circle_capsule,
    (Rect, Rect): rect_rect,
    (Rect, OrientedRect): rect_oriented_rect,
    (Rect, Capsule): rect_capsule,
    (OrientedRect, OrientedRect): oriented_rect_oriented_rect,
    (OrientedRect, Capsule): oriented_rect_capsule,
    (Capsule, Capsule): capsule_capsule,
}


def _swapped(test):
    def swapped(b, a):
        return test(a, b)

    swapped.__name__ = swapped.__qualname__ = f"{test.__name__}_swapped"
    swapped.__doc__ = f"``{test.__name__}`` with its arguments the other way round."
    return swapped


_DISPATCH = dict(_PAIR_TESTS)
for (_ta, _tb), _test in _PAIR_TESTS.items():
    if _ta is not _tb:
        _DISPATCH[_tb, _ta] = _swapped(_test)
del _ta, _tb, _test


def _kind_of(shape):
    for kind in SHAPE_KINDS:
        if isinstance(shape, kind):
            return kind
    return None


def _dispatch_slow(a, b):
    """Subclasses of the shape types; otherwise a TypeError naming the types."""
    ka, kb = _kind_of(a), _kind_of(b)
    if ka is None or kb is None:
        names = ", ".join(k.__name__ for k in SHAPE_KINDS)
        raise TypeError(
            f"overlaps() cannot test {type(a).__name__} against {type(b).__name__}; "
            f"each argument must be one of {names}")
    return _DISPATCH[ka, kb](a, b)


def overlaps(a, b) -> bool:
    """Whether two shapes share at least one point; touching counts.

    Parameters
    ----------
    a, b : Vec2, Line, Segment, Circle, Rect, OrientedRect or Capsule
        The shapes, in either order. ``Vec2`` is a point.

    Returns
    -------
    bool
        True when the shapes overlap or touch.

    Raises
    ------
    TypeError
        When either argument is not one of the seven shape types (a plain
        tuple is not a point: wrap it in ``Vec2``).

    Examples
    --------
    >>> from level_editor.core.collision.shapes import Vec2, Circle, Rect, OrientedRect
    >>> overlaps(Rect(Vec2(1, 1), Vec2(4, 4)), Rect(Vec2(2, 2), Vec2(5, 5)))
    True
    >>> overlaps(Vec2(5, 7), Circle(Vec2(5, 4), 3))
    True
    >>> overlaps(OrientedRect(Vec2(10, 4), Vec2(4, 2), 25), Rect(Vec2(1, 5), Vec2(3, 3)))
    False
    """
    test = _DISPATCH.get((type(a), type(b)))
    if test is None:
        return _dispatch_slow(a, b)
    return test(a, b)
