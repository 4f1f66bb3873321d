"""Exact sweeps: when does a moving shape first touch another one?

:func:`cast` is the contract's entry point; :func:`sweep` returns the richer
:class:`Hit` (fraction, contact normal, contact point) the character
controller uses, and :func:`penetration` tells how deep two shapes overlap and
which way to push them apart.

How it works (Box2D's shape cast, exact and uniform): every bounded shape is a
convex core plus a radius (:func:`core_of`). Moving ``A`` by ``d`` against
``B`` is the same as moving the single point ``0`` along ``d`` against the
configuration obstacle ``core(B) (-) core(A)`` grown by ``rA + rB``
(:func:`configuration_obstacle`), a :class:`~level_editor.core.collision.rounded.RoundedPolygon`.
The first touch is a closed-form ray cast against its offset faces and
rounded corners, so there is no stepping and no tunnelling at any speed. The
infinite ``Line`` is the one special case, solved in closed form.

Both objects moving (the book's "When Both Objects Move", the tutorial's
relative motion): subtract the other's motion, see :func:`sweep_relative`.

>>> from level_editor.core.collision.shapes import Vec2, Circle, Rect, Capsule
>>> cast(Circle(Vec2(0, 0), 1), Vec2(10, 0), Rect(Vec2(5, -1), Vec2(2, 2)))
0.4
>>> cast(Circle(Vec2(0, 0), 1), Vec2(100000, 0), Capsule(Vec2(500, -50), Vec2(500, 50), 0.5))
0.004985
>>> cast(Circle(Vec2(0, 0), 1), Vec2(0, 10), Rect(Vec2(5, -1), Vec2(2, 2))) is None
True
"""
from __future__ import annotations

import math
from typing import NamedTuple, Optional

from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.rounded import RoundedPolygon
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2, as_vec2

__all__ = [
    "Hit",
    "Penetration",
    "cast",
    "sweep",
    "cast_relative",
    "sweep_relative",
    "penetration",
    "core_of",
    "configuration_obstacle",
    "contact_point",
]


class Hit(NamedTuple):
    """The first touch of a sweep.

    ``t`` is the fraction of the motion travelled (0 when the shapes already
    overlap), ``normal`` the unit contact normal pointing from the target
    towards the mover, ``point`` a point where they touch (world space).
    """

    t: float
    normal: Vec2
    point: Vec2


class Penetration(NamedTuple):
    """How two overlapping shapes overlap.

    Moving the first shape by ``normal * depth`` makes them just touch;
    ``point`` lies on the second shape's surface.
    """

    depth: float
    normal: Vec2
    point: Vec2


_BOUNDED = (Vec2, Segment, Circle, Rect, OrientedRect, Capsule)


def core_of(shape) -> tuple[list[tuple[float, float]], float]:
    """A bounded shape as its convex core's vertices and a radius.

    Examples
    --------
    >>> core_of(Circle(Vec2(1, 2), 3))
    ([(1.0, 2.0)], 3.0)
    >>> core_of(Rect(Vec2(0, 0), Vec2(2, 1)))[0]
    [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)]
    """
    kind = type(shape)
    if kind is Circle:
        c = shape.center
        return [(c.x, c.y)], shape.radius
    if kind is Rect:
        x0, y0 = shape.origin
        x1, y1 = x0 + shape.size.x, y0 + shape.size.y
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], 0.0
    if kind is Capsule:
        return [(shape.a.x, shape.a.y), (shape.b.x, shape.b.y)], shape.radius
    if kind is OrientedRect:
        # corners() is exact for quarter turns, like level_editor.core.collision.overlap, so a box
        # turned by 90 degrees touches exactly where the overlap test says.
        return [(x, y) for x, y in shape.corners()], 0.0
    if kind is Segment:
        return [(shape.a.x, shape.a.y), (shape.b.x, shape.b.y)], 0.0
    if kind is Vec2:
        return [(float(shape.x), float(shape.y))], 0.0
    for k in _BOUNDED:
        if isinstance(shape, k):
            return core_of(k(*shape) if k is Vec2 else k(*(getattr(shape, f) for f in k.__slots__)))
    raise TypeError(f"{type(shape).__name__} is not a bounded shape; "
                    f"expected one of {', '.join(k.__name__ for k in _BOUNDED)}")


def configuration_obstacle(moving, target) -> RoundedPolygon:
    """``target`` as seen by the point "where ``moving`` has been displaced to".

    The mover, displaced by ``p``, overlaps the target exactly when the point
    ``p`` is inside or on the returned shape: the Minkowski difference of the
    cores, grown by both radii. For a mover centred on the origin this is the
    obstacle its centre must stay out of (the controller precomputes these).

    Examples
    --------
    >>> o = configuration_obstacle(Rect(Vec2(-1, -1), Vec2(2, 2)), Rect(Vec2(4, 0), Vec2(2, 2)))
    >>> o.vertices(), o.radius
    ([(3.0, -1.0), (7.0, -1.0), (7.0, 3.0), (3.0, 3.0)], 0.0)
    """
    mpts, mr = core_of(moving)
    tpts, tr = core_of(target)
    hull = _known_hull(mpts, tpts, type(target))
    if hull is not None:
        return RoundedPolygon.from_hull(hull, mr + tr)
    return RoundedPolygon([(gx - mx, gy - my) for gx, gy in tpts for mx, my in mpts], mr + tr)


def _known_hull(mpts, tpts, kind):
    """The hull :func:`convex_hull` would find for the common pairs, straight away, or None.

    A point (a circle player) against a point, a segment or a box, and a box
    player against a box: a play-test makes one of these per collider it
    meets. Each answer is exactly convex_hull's (same vertices, same order).
    """
    if len(mpts) == 1:
        mx, my = mpts[0]
        if kind is Circle:
            x, y = tpts[0]
            return [(x - mx, y - my)]
        if kind is Capsule or kind is Segment:
            (ax, ay), (bx, by) = tpts
            p, q = (ax - mx, ay - my), (bx - mx, by - my)
            if p == q:
                return None
            return [p, q] if p < q else [q, p]
        if kind is Rect:
            (x0, y0), _, (x1, y1), _ = tpts
            x0, y0, x1, y1 = x0 - mx, y0 - my, x1 - mx, y1 - my
            if x0 < x1 and y0 < y1 and _tame(x0, y0, x1, y1):
                return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        return None
    if kind is Rect and len(mpts) == 4:
        (mx0, my0), _, (mx1, my1), _ = mpts
        (x0, y0), _, (x1, y1), _ = tpts
        if mx0 <= mx1 and my0 <= my1:
            x0, y0, x1, y1 = x0 - mx1, y0 - my1, x1 - mx0, y1 - my0
            # (A zero may be 0.0 or -0.0 there, as it comes out of the points' dedup: leave it to convex_hull.)
            if x0 < x1 and y0 < y1 and x0 and y0 and x1 and y1 and _tame(x0, y0, x1, y1, mx0, my0, mx1, my1,
                                                                         *tpts[0], *tpts[2]):
                return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return None


def _tame(*values) -> bool:
    """Whether every value is 0 or between 1e-100 and 1e100 in size.

    Then no product of two differences of them under- or overflows, so
    convex_hull's turn tests see every corner, and the shortcut agrees with it.
    """
    for v in values:
        if v and not 1e-100 <= abs(v) <= 1e100:
            return False
    return True


def contact_point(mover_pts, target_pts, target_radius: float, nx: float, ny: float) -> Vec2:
    """Where two cores in contact along the normal ``(nx, ny)`` touch.

    ``(nx, ny)`` points from the target towards the mover. The point is the
    middle of the overlap of the two supporting features (a face against a
    face gives the middle of the shared stretch), on the target's surface.
    """
    tx, ty = -ny, nx
    hs = [nx * x + ny * y for x, y in target_pts]
    h = max(hs)
    scale = 1.0 + max(abs(v) for p in target_pts for v in p)
    tol = 1e-9 * scale
    ts = [tx * x + ty * y for (x, y), hv in zip(target_pts, hs) if hv >= h - tol]
    ms = [nx * x + ny * y for x, y in mover_pts]
    m = min(ms)
    us = [tx * x + ty * y for (x, y), mv in zip(mover_pts, ms) if mv <= m + tol]
    lo = max(min(ts), min(us))
    hi = min(max(ts), max(us))
    u = 0.5 * (lo + hi)
    k = h + target_radius
    return Vec2(u * tx + k * nx, u * ty + k * ny)


def _check_motion(motion) -> Vec2:
    try:
        d = as_vec2(motion)
    except (TypeError, ValueError):
        raise TypeError(f"motion must be a Vec2 (a pair of numbers), not {motion!r}") from None
    if not (math.isfinite(d.x) and math.isfinite(d.y)):
        raise ValueError(f"motion must be finite, got ({d.x}, {d.y})")
    return d


def _check_mover(moving) -> None:
    if not isinstance(moving, _BOUNDED):
        raise TypeError(f"cannot sweep a {type(moving).__name__}; the moving shape must be a "
                        f"Circle or a Rect (or another bounded shape: Vec2, Segment, OrientedRect, Capsule)")


def _line_frame(line: Line):
    """Unit normal and base of a line, or None for a line with no direction."""
    dx, dy = line.direction
    m = max(abs(dx), abs(dy))
    if m == 0.0 or not math.isfinite(m):
        return None
    # Scaled to a largest component of 1 first, so that the length of a huge
    # direction does not overflow (nor a subnormal one lose its precision).
    dx, dy = dx / m, dy / m
    length = math.hypot(dx, dy)
    return -dy / length, dx / length, line.base.x, line.base.y


def _moved(shape, dx: float, dy: float):
    """A bounded shape translated by ``(dx, dy)``."""
    if isinstance(shape, Vec2):
        return Vec2(shape.x + dx, shape.y + dy)
    if isinstance(shape, Circle):
        return Circle(Vec2(shape.center.x + dx, shape.center.y + dy), shape.radius)
    if isinstance(shape, Rect):
        return Rect(Vec2(shape.origin.x + dx, shape.origin.y + dy), shape.size)
    if isinstance(shape, OrientedRect):
        c = shape.center
        return OrientedRect(Vec2(c.x + dx, c.y + dy), shape.half_extents, shape.rotation)
    a = Vec2(shape.a.x + dx, shape.a.y + dy)
    b = Vec2(shape.b.x + dx, shape.b.y + dy)
    return Capsule(a, b, shape.radius) if isinstance(shape, Capsule) else Segment(a, b)


def _touches_at_end(moving, d: Vec2, target) -> bool:
    """Whether ``moving`` touches ``target`` at the end of the motion.

    The closed-form time of a touch exactly at the end can round to just
    past 1; :func:`~level_editor.core.collision.overlap.overlaps` decides that case exactly.
    """
    return overlaps(_moved(moving, d.x, d.y), target)


def _sweep_line(moving, d: Vec2, line: Line) -> Optional[Hit]:
    frame = _line_frame(line)
    if frame is None:
        return sweep(moving, d, line.base)
    nx, ny, bx, by = frame
    mpts, r = core_of(moving)
    ss = [nx * (x - bx) + ny * (y - by) for x, y in mpts]
    smin, smax = min(ss), max(ss)
    k = nx * d.x + ny * d.y
    if overlaps(moving, line) or smin - r <= 0.0 <= smax + r:
        t = 0.0
        # Push out towards the side that needs the shorter move.
        sign = 1.0 if (r - smin) <= (smax + r) else -1.0
    else:
        sign = 1.0 if smin > r else -1.0
        if sign * k >= 0.0:
            t = math.inf  # moving away from the line or along it
        elif sign > 0.0:
            t = (smin - r) / -k
        else:
            t = (-r - smax) / k
    if t > 1.0:
        if not _touches_at_end(moving, d, line):
            return None
        t = 1.0
    nx, ny = nx * sign, ny * sign
    # The mover's supporting feature, moved to the touch, projected on the line.
    moved = [(x + t * d.x, y + t * d.y) for x, y in mpts]
    proj = [nx * x + ny * y for x, y in moved]
    m = min(proj)
    tol = 1e-9 * (1.0 + max(abs(v) for p in moved for v in p))
    sup = [p for p, v in zip(moved, proj) if v <= m + tol]
    sx = sum(p[0] for p in sup) / len(sup)
    sy = sum(p[1] for p in sup) / len(sup)
    off = nx * (sx - bx) + ny * (sy - by)
    return Hit(t, Vec2(nx, ny), Vec2(sx - off * nx, sy - off * ny))


def sweep(moving, motion, target) -> Optional[Hit]:
    """The first touch of ``moving``, moved by ``motion``, with ``target``.

    Parameters
    ----------
    moving : Circle or Rect
        The moving shape at its start (any bounded shape works: Vec2,
        Segment, OrientedRect and Capsule too).
    motion : Vec2
        The whole displacement; ``t = 1`` is its end.
    target : Vec2, Line, Segment, Circle, Rect, OrientedRect or Capsule
        The shape standing still.

    Returns
    -------
    Hit or None
        ``Hit(t, normal, point)`` at the first touch within the motion,
        ``t = 0`` when they already overlap or touch; None when they never
        touch. ``normal`` points from the target towards the mover.

    Examples
    --------
    >>> h = sweep(Rect(Vec2(0, 0), Vec2(2, 2)), Vec2(10, 0), Rect(Vec2(6, 1), Vec2(4, 4)))
    >>> h.t, h.normal, h.point
    (0.4, Vec2(x=-1.0, y=0.0), Vec2(x=6.0, y=1.5))
    """
    _check_mover(moving)
    d = _check_motion(motion)
    if type(target) is Line or isinstance(target, Line):
        return _sweep_line(moving, d, target)
    obstacle = configuration_obstacle(moving, target)
    gap, nx, ny = obstacle.gap(0.0, 0.0)
    # overlaps() decides touching exactly; the gap, from unit normals, may
    # round either way by a hair.
    if gap <= 0.0 or overlaps(moving, target):
        t = 0.0
    else:
        hit = obstacle.ray(0.0, 0.0, d.x, d.y)
        if hit is not None and hit[0] <= 1.0:
            t, nx, ny = hit
        elif _touches_at_end(moving, d, target):
            t = 1.0
            _, nx, ny = obstacle.gap(d.x, d.y)
        else:
            return None
    mpts, _ = core_of(moving)
    tpts, tr = core_of(target)
    moved = [(x + t * d.x, y + t * d.y) for x, y in mpts]
    return Hit(t, Vec2(nx, ny), contact_point(moved, tpts, tr, nx, ny))


def cast(moving, motion, target) -> Optional[float]:
    """Fraction of ``motion`` at which ``moving`` first touches ``target``.

    The contract's entry point: ``0.0`` when they already overlap (touching
    counts), ``None`` when they never touch within the motion. Exact at any
    speed; see :func:`sweep` for the parameters and the contact normal.

    Examples
    --------
    >>> cast(Circle(Vec2(0, 0), 1), Vec2(10, 0), Circle(Vec2(6, 0), 1))
    0.4
    >>> cast(Rect(Vec2(0, 0), Vec2(2, 2)), Vec2(0, 0), Rect(Vec2(2, 0), Vec2(1, 1)))
    0.0
    """
    hit = sweep(moving, motion, target)
    return None if hit is None else hit.t


def sweep_relative(a, motion_a, b, motion_b) -> Optional[Hit]:
    """:func:`sweep` when both shapes move during the same step.

    Only the relative motion matters: ``b`` is held still and ``a`` moves by
    ``motion_a - motion_b``. The returned ``t`` is a fraction of *both*
    motions (at ``t`` each has covered that fraction of its own); ``point`` is
    where they touch relative to ``b`` at its start, so add ``t * motion_b``
    for the world point at the time of the touch.

    Examples
    --------
    >>> a = Circle(Vec2(0, 0), 1)
    >>> b = Circle(Vec2(10, 0), 1)
    >>> sweep_relative(a, Vec2(5, 0), b, Vec2(-5, 0)).t
    0.8
    """
    da = _check_motion(motion_a)
    db = _check_motion(motion_b)
    return sweep(a, Vec2(da.x - db.x, da.y - db.y), b)


def cast_relative(a, motion_a, b, motion_b) -> Optional[float]:
    """:func:`cast` when both shapes move; see :func:`sweep_relative`.

    >>> cast_relative(Circle(Vec2(0, 0), 1), Vec2(4, 0), Circle(Vec2(10, 0), 1), Vec2(4, 0)) is None
    True
    """
    hit = sweep_relative(a, motion_a, b, motion_b)
    return None if hit is None else hit.t


def penetration(a, b) -> Optional[Penetration]:
    """How deep ``a`` overlaps ``b``, and the shortest way to push it out.

    Returns
    -------
    Penetration or None
        ``depth >= 0`` and the unit ``normal`` (from ``b`` towards ``a``):
        moving ``a`` by ``normal * depth`` leaves the two just touching.
        None when they do not overlap (touching is a depth of 0).

    Examples
    --------
    >>> p = penetration(Circle(Vec2(0, 0), 2), Rect(Vec2(1, -5), Vec2(10, 10)))
    >>> p.depth, p.normal
    (1.0, Vec2(x=-1.0, y=0.0))
    """
    _check_mover(a)
    if isinstance(b, Line):
        frame = _line_frame(b)
        if frame is None:
            return penetration(a, b.base)
        nx, ny, bx, by = frame
        pts, r = core_of(a)
        ss = [nx * (x - bx) + ny * (y - by) for x, y in pts]
        smin, smax = min(ss), max(ss)
        if not overlaps(a, b):
            return None
        up, down = r - smin, smax + r
        if up <= down:
            depth, sign = up, 1.0
        else:
            depth, sign = down, -1.0
        # Touching exactly, though the unit normal rounds the distance a hair.
        depth = max(depth, 0.0)
        nx, ny = nx * sign, ny * sign
        i = min(range(len(pts)), key=lambda j: nx * pts[j][0] + ny * pts[j][1])
        px, py = pts[i]
        off = nx * (px - bx) + ny * (py - by)
        return Penetration(depth, Vec2(nx, ny), Vec2(px - off * nx, py - off * ny))
    if not overlaps(a, b):
        return None
    obstacle = configuration_obstacle(a, b)
    gap, nx, ny = obstacle.gap(0.0, 0.0)
    apts, _ = core_of(a)
    bpts, br = core_of(b)
    return Penetration(max(-gap, 0.0), Vec2(nx, ny), contact_point(apts, bpts, br, nx, ny))
