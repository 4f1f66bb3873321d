"""The character controller: move and slide the player for one tick.

The player's centre moves as a point among the configuration obstacles of
a :class:`~level_editor.core.collision.world.World` (every collider grown by the player's body), so
a circle player and a box player share one exact algorithm. :func:`move` is
a short list of named steps, as Box2D's mover is:

1. **Check** the motion once (:func:`_check`); the steps after it trust their floats.
2. **Push out** (:func:`_push_out`) when the tick starts overlapping (or
   touching) anything: move along the penetration normal of each overlap in
   turn until nothing overlaps (the tutorial's "Solving intersecting boxes",
   the wall-chain article's push to the thickness). Only a start that was
   already invalid moves the player without being asked.
3. **Contact planes** (:func:`_contact_planes`): the surfaces within
   :data:`~level_editor.core.collision.planes.CONTACT` of the centre, as
   :class:`~level_editor.core.collision.planes.Plane` records.
4. **Clip** (:func:`~level_editor.core.collision.planes.clip_motion`): remove only the
   part of the remaining motion that goes into those surfaces (the
   tutorial's speed projection). Against two surfaces the motion follows
   their crease; against opposing ones it stops.
5. **Slide limit** (:func:`_slide_limit`): a clipped
   slide is only right while its surfaces are still there (to the end of a
   ledge, around a round corner).
6. **Sweep** (:func:`_sweep`) to the first contact along the slide, with the
   exact closed-form ray cast against every other obstacle grown by a small
   :data:`SKIN`: the player stops with a positive gap, so it never ends a
   tick touching geometry, and no speed can tunnel.

Steps 5 and 6 read the broad phase's cells near the player's path only: a
path across a few cells reads them at once; a longer one walks them in order
along the path (:meth:`~level_editor.core.collision.broadphase.CellGrid.walk`,
as a ray cast walks a grid) and stops past the first contact or the end of
the run of faces, so a tick at 1e300 px/s costs what its motion up to the
first contact costs, not the level.

Steps 3 to 6 repeat with what is left of the motion, up to
:data:`MAX_ITERATIONS` sweeps per tick.

Why it does not catch on seams: a run of boxes or a chain of wall segments
grows into overlapping obstacles whose faces line up, and the skin rounds
every corner. Sliding along the run at the skin distance, the next box's
corner is met on its rounded side, whose normal is (within 1e-5 for a hair of
misalignment) the face normal: the projection removes nothing along the run.
Why it rests still in wedges: resting is a contact with no motion left after
clipping, and a contact does not move the player at all (no push, no bounce),
so the position repeats bit for bit; nothing is carried from tick to tick, so
the first tick away from a wall runs at full speed.

>>> from level_editor.core.collision.shapes import Circle, Rect, Vec2
>>> from level_editor.core.collision.world import World
>>> world = World([Rect(Vec2(0, 10), Vec2(100, 10))], Circle(Vec2(0, 0), 5))
>>> m = move(world, Vec2(10, 0), Vec2(20, 20))  # lands on the floor, slides right
>>> round(m.position.x, 6), round(10 - 5 - m.position.y, 6)
(30.0, 0.001)
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Optional

from level_editor.core.collision.planes import CONTACT, SKIN, Plane, clip_motion, slide_limit
from level_editor.core.collision.shapes import Circle, Vec2, as_vec2

isfinite = math.isfinite

__all__ = ["SKIN", "MAX_ITERATIONS", "EDGE", "Contact", "Move", "move", "move_xy", "clip_motion"]

#: Sweeps per tick; each one either finishes the move or meets a new surface.
MAX_ITERATIONS = 12

_PUSH_PASSES = 16

# A surface in contact may still be approached to half the skin, so that a
# player stopped by a sweep (at SKIN, up to rounding) can slide along it.
_HALF_SKIN = 0.5 * SKIN

# Corners that the whole sweep enters by less than this are grazed, not hit
# (the seam of two boxes misaligned by a hair).
_GRAZE = 0.25 * SKIN

# Shared by every tick that starts clear (a Vec2 cannot change under anyone).
_NOT_PUSHED = Vec2(0.0, 0.0)

#: The play-test's world ends at the largest float on each axis: a centre moved
#: there stops as against a wall (and slides along it), so that no speed, however
#: absurd, makes a position overflow to infinity. Nothing else ever notices it.
EDGE = sys.float_info.max


@dataclass(frozen=True)
class Contact:
    """A surface touched during a tick: collider index, contact point, normal (towards the player)."""

    collider: int
    point: Vec2
    normal: Vec2


@dataclass(frozen=True)
class Move:
    """The outcome of one tick, also everything a debug view may want to draw.

    Attributes
    ----------
    position : Vec2
        The player's centre at the end of the tick.
    path : tuple of Vec2
        Where the centre went: the start (after any push-out), then every stop.
        The swept body is the body moved along each of these straight pieces.
    candidates : tuple of int
        Colliders the broad phase handed to the narrow phase.
    contacts : tuple of Contact
        Surfaces that stopped or deflected the player, in the order met.
    slide : Vec2 or None
        Unit direction of the last piece of the path, None when it did not move.
    pushed_out : Vec2
        How far the start was pushed out of an overlap (zero normally).
    """

    position: Vec2
    path: tuple
    candidates: tuple
    contacts: tuple
    slide: Optional[Vec2]
    pushed_out: Vec2


def _contact(world, index: int, px: float, py: float, gap: float, nx: float, ny: float) -> Contact:
    """A contact for drawing: the point on the surface opposite the body's support."""
    body = world.body
    if isinstance(body, Circle):
        k = body.radius + gap
        return Contact(index, Vec2(px - nx * k, py - ny * k), Vec2(nx, ny))
    hx, hy = world.half_extents
    sx = 0.0 if abs(nx) < 1e-9 else math.copysign(hx, nx)
    sy = 0.0 if abs(ny) < 1e-9 else math.copysign(hy, ny)
    return Contact(index, Vec2(px - sx - nx * gap, py - sy - ny * gap), Vec2(nx, ny))


def _min_gap(world, px: float, py: float) -> float:
    """Smallest gap between the body at ``(px, py)`` and anything near it."""
    m = 2.0 * CONTACT
    best = math.inf
    obstacle = world.obstacle
    for i in world.near_indices(px - m, py - m, px + m, py + m):
        g = obstacle(i).gap(px, py)[0]
        if g < best:
            best = g
    return best


def _push_out(world, px: float, py: float) -> tuple[float, float]:
    """A nearby position that overlaps nothing, starting from an overlapping one."""
    obstacle = world.obstacle
    m = 2.0 * CONTACT
    for _ in range(_PUSH_PASSES):
        moved = False
        for i in world.near_indices(px - m, py - m, px + m, py + m):
            g, nx, ny = obstacle(i).gap(px, py)
            if g <= 0.0:
                # Push to the skin distance, as the sweeps leave it.
                px += nx * (SKIN - g)
                py += ny * (SKIN - g)
                moved = True
        if not moved:
            return px, py
    # Wedged between surfaces that push back and forth (a slot narrower than
    # the player): look for the nearest free spot on growing rings instead.
    hx, hy = world.half_extents
    step = max(hx, hy, 1.0) * 0.05
    for k in range(80):
        radius = step * 1.2 ** k
        for j in range(32):
            a = math.tau * j / 32.0
            qx = px + radius * math.cos(a)
            qy = py + radius * math.sin(a)
            if not (math.isfinite(qx) and math.isfinite(qy)):
                continue
            if _min_gap(world, qx, qy) >= SKIN:
                return qx, qy
    return px, py


def _touching(world, px: float, py: float) -> list:
    """``(index, obstacle, closest)`` for every obstacle whose bounds are within CONTACT of the centre.

    In collider order; ``closest`` is :meth:`RoundedPolygon.closest` at the
    centre, which says both whether the start overlaps (a gap <= 0) and which
    surfaces clip the motion (a gap < CONTACT). Only the grid cell under the
    centre is read, and only obstacles met there are ever made.
    """
    memo = world.memo
    if memo is not None and memo[0] == px and memo[1] == py:
        return memo[2]
    obstacles = world.obstacle_list
    x0 = px - CONTACT
    x1 = px + CONTACT
    y0 = py - CONTACT
    y1 = py + CONTACT
    found = []
    for i in world.grid.at(px, py, CONTACT):
        ob = obstacles[i]
        if ob is None:
            ob = world.obstacle(i)
        b = ob.bounds
        if b[0] > x1 or b[2] < x0 or b[1] > y1 or b[3] < y0:
            continue
        found.append((i, ob, ob.closest(px, py)))
    # Ticks start where the last one ended: keep the answer for that centre. Not at
    # a zero coordinate: -0.0 == 0.0, yet the normals found there may differ in sign.
    world.memo = (px, py, found) if px and py else None
    return found


def _planes(touching) -> list[Plane]:
    """The surfaces touching the centre: they clip the motion, since a sweep cannot start on them."""
    planes = []
    for i, ob, (g, nx, ny, face) in touching:
        if g < CONTACT:
            allow = g - _HALF_SKIN
            planes.append(Plane(nx, ny, allow if allow > 0.0 else 0.0, i, ob, g, face))
    return planes


def _contact_planes(near, px: float, py: float) -> list[Plane]:
    """The surfaces touching the centre, among an already gathered list of ``(index, obstacle)``."""
    x0 = px - CONTACT
    x1 = px + CONTACT
    y0 = py - CONTACT
    y1 = py + CONTACT
    return _planes([(i, ob, ob.closest(px, py)) for i, ob in near
                    if not (ob.bounds[0] > x1 or ob.bounds[2] < x0 or ob.bounds[1] > y1 or ob.bounds[3] < y0)])


def _record_blocking(world, planes, px: float, py: float, rx: float, ry: float, contacts: list) -> None:
    """Append the surfaces that took motion away, so the debug view can show what stopped the player."""
    for p in planes:
        if p.normal_x * rx + p.normal_y * ry < -p.allowance:
            contacts.append(_contact(world, p.collider, px, py, p.gap, p.normal_x, p.normal_y))


def _slide_limit(world, planes, px: float, py: float, rx: float, ry: float, sx: float, sy: float) -> float:
    """:func:`slide_limit` of the slide ``(sx, sy)``, given the obstacles along it, where it looks for a run of faces.

    A face that can extend the run lies within CONTACT of the slide's line
    and overlaps it (give or take the skin); a face beyond the slide cannot
    shorten it. A slide across a few cells hands over everything in them; a
    longer one walks the cells along it (:meth:`CellGrid.walk`) until the
    cells left begin beyond the runs found, so a slide of 1e298 px along a
    wall costs what the wall's run costs. The limit is the same bit for bit:
    faces that begin beyond a run's end never extend it, and any run that
    starts at the player is in the first cells read.
    """
    m = 2.0 * (SKIN + CONTACT) + 1e-8 * (abs(sx) + abs(sy))
    ex = px + sx
    ey = py + sy
    x0 = (px if px < ex else ex) - m
    x1 = (ex if px < ex else px) + m
    y0 = (py if py < ey else ey) - m
    y1 = (ey if py < ey else py) + m
    obstacles = world.obstacle_list
    near = []
    if _few_cells(world, x0, y0, x1, y1):
        for i in world.grid.box(x0, y0, x1, y1):
            ob = obstacles[i]
            if ob is None:
                ob = world.obstacle(i)
            b = ob.bounds
            if b[0] > x1 or b[2] < x0 or b[1] > y1 or b[3] < y0:
                continue
            near.append((i, ob))
        return slide_limit(near, px, py, rx, ry, sx, sy, planes)
    pad = 2.0 * (SKIN + CONTACT) + _band(world, px, py)
    along = abs(sy) if abs(sy) > abs(sx) else abs(sx)  # px along the walk's axis per unit of the slide
    # Faces only ever shorten the slide from this (the round corners' and the slide's own end) ...
    most = slide_limit((), px, py, rx, ry, sx, sy, planes)
    seen: set = set()
    limit = None  # the limit of what is gathered so far; None when more was gathered since
    counted = 0
    for start, buckets in world.grid.walk(px, py, sx, sy, ex, ey, (x0, y0, x1, y1), pad):
        # ... and once the faces at the player are gathered, more faces only lengthen a run.
        if limit is not None and start - pad > SKIN and (limit >= most or limit * along + SKIN < start - pad):
            return limit  # as long as it can be, or every face left begins beyond the runs' ends
        added = False
        for bucket in buckets:
            for i in bucket:
                if i in seen:
                    continue
                seen.add(i)
                ob = obstacles[i]
                if ob is None:
                    ob = world.obstacle(i)
                b = ob.bounds
                if b[0] > x1 or b[2] < x0 or b[1] > y1 or b[3] < y0:
                    continue
                near.append((i, ob))
                added = True
        if added:
            limit = None
        # Once a run of new faces pauses, or doubled what was gathered: often enough to stop
        # soon after the runs end, seldom enough that a long run is not looked at again and again.
        if limit is None and (not added or len(near) >= 2 * counted):
            limit = slide_limit(near, px, py, rx, ry, sx, sy, planes)
            counted = len(near)
    return slide_limit(near, px, py, rx, ry, sx, sy, planes) if limit is None else limit


#: A motion's box over at most this many of the grid's populated cells is read at once; a longer path
#: is walked. Reading a few cells at once costs less than walking them (a tick at 20,000 px/s is 333 px,
#: a cell or two; a small level has a few cells in all).
AT_ONCE = 9


def _few_cells(world, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether a box covers at most :data:`AT_ONCE` populated cells of the grid: read at once."""
    grid = world.grid
    if grid.area <= AT_ONCE:
        return True
    inv = 1.0 / grid.cell_size
    # Less than 2 cells across covers at most 3 x 3 cells. Not a subtraction of cell numbers:
    # at 1e300 px they are not floats any more.
    if (x1 - x0) * inv < 2.0 and (y1 - y0) * inv < 2.0:
        return True
    return grid.count(x0, y0, x1, y1) <= AT_ONCE


def _band(world, px: float, py: float) -> float:
    """How far from a segment the walk through the cells looks: the skin, and far more than any rounding.

    The ray casts round to about 1e-8 of the distances involved (a corner
    met at a grazing angle loses half its digits), and every distance is
    within the start's and the level's reach of the origin.
    """
    return 2.0 * SKIN + 1e-6 * (abs(px) + abs(py) + world.grid.reach + 1.0)


def _sweep(world, planes, px: float, py: float, sx: float, sy: float, limit: float):
    """The first surface along the slide, grown by the skin so that the player stops short of it.

    Returns ``(t, index, hit)``: the fraction of the slide, and the collider
    and ray hit met there (``-1, None`` when the slide ends first). Of two
    colliders met at the very same ``t``, the lower index is the one met.

    A slide across a few cells casts against everything in them; a longer
    one walks the cells along it (:meth:`CellGrid.walk`) and stops once the
    cells left all begin beyond the best hit, so a tick at 1e300 px/s costs
    what the motion up to its first contact costs. Both find the same hit,
    bit for bit: the walk reads a part of the same cells, casts the same
    rays, and leaves out only colliders that cannot be met before the hit.
    """
    ex = px + sx * limit
    ey = py + sy * limit
    x0 = (px if px < ex else ex) - SKIN
    x1 = (ex if px < ex else px) + SKIN
    y0 = (py if py < ey else ey) - SKIN
    y1 = (ey if py < ey else py) + SKIN
    # Surfaces in contact are not swept: along a straight line the gap to a
    # convex obstacle only shrinks while moving into it, and the clip forbids that.
    skip = {p.collider for p in planes} if planes else ()
    best_t = limit
    best_i = -1
    best = None
    obstacles = world.obstacle_list
    if _few_cells(world, x0, y0, x1, y1):
        for i in world.grid.box(x0, y0, x1, y1):
            if i in skip:
                continue
            ob = obstacles[i]
            if ob is None:
                ob = world.obstacle(i)
            b = ob.bounds
            if b[0] > x1 or b[2] < x0 or b[1] > y1 or b[3] < y0:
                continue
            h = ob.ray(px, py, sx, sy, ob.radius + SKIN, _GRAZE)
            if h is not None:
                t = h[0]
                if t < best_t or (t == best_t and best is not None and i < best_i):
                    best_t = t
                    best_i = i
                    best = h
        return best_t, best_i, best
    pad = _band(world, px, py)
    along = abs(sy) if abs(sy) > abs(sx) else abs(sx)  # px along the walk's axis per unit of t
    seen = set(skip)
    for near, buckets in world.grid.walk(px, py, sx, sy, ex, ey, (x0, y0, x1, y1), pad):
        if near - pad > best_t * along:
            break  # every collider left begins beyond the best hit
        for bucket in buckets:
            for i in bucket:
                if i in seen:
                    continue
                seen.add(i)
                ob = obstacles[i]
                if ob is None:
                    ob = world.obstacle(i)
                b = ob.bounds
                if b[0] > x1 or b[2] < x0 or b[1] > y1 or b[3] < y0:
                    continue
                h = ob.ray(px, py, sx, sy, ob.radius + SKIN, _GRAZE)
                if h is not None:
                    t = h[0]
                    if t < best_t or (t == best_t and best is not None and i < best_i):
                        best_t = t
                        best_i = i
                        best = h
    return best_t, best_i, best


def _slide(world, px: float, py: float, rx: float, ry: float, path, contacts):
    """The tick itself, on bare floats: push out, then clip, limit and sweep until the motion is spent.

    ``path`` and ``contacts`` are lists to record into for a debug view, or
    None (headless: nothing is recorded). Returns ``(x, y, pushed_x,
    pushed_y, slide_x, slide_y, moved)``.
    """
    if not (-EDGE <= px + rx <= EDGE and -EDGE <= py + ry <= EDGE):
        rx, ry = _inside_edge(px, py, rx, ry)
    touching = _touching(world, px, py)
    pushed_x = pushed_y = 0.0
    for t in touching:
        if t[2][0] <= 0.0:
            qx, qy = _push_out(world, px, py)
            pushed_x, pushed_y = qx - px, qy - py
            px, py = qx, qy
            touching = _touching(world, px, py)
            break
    start_x, start_y = px, py
    if path is not None:
        path.append(Vec2(px, py))
    slide_x = slide_y = 0.0
    at_x, at_y = px, py
    # (rx, ry) is the intent: what is left of the wished motion. Each pass
    # clips it against the surfaces in contact *here*, so a surface left
    # behind (the end of a ledge) stops clipping as soon as it is left.
    for _ in range(MAX_ITERATIONS):
        if rx == 0.0 and ry == 0.0:
            break
        if px != at_x or py != at_y:
            touching = _touching(world, px, py)
            at_x, at_y = px, py
        sx, sy = rx, ry
        limit = 1.0
        planes = _planes(touching) if touching else None
        if planes:
            sx, sy = clip_motion(rx, ry, planes)
            if not (isfinite(sx) and isfinite(sy)):
                # A motion near the largest float overflowed in the projection: slide
                # half as far (still some 1e308 px), which cannot overflow.
                sx, sy = clip_motion(rx * 0.5, ry * 0.5, planes)
            if sx != rx or sy != ry:
                if contacts is not None:
                    _record_blocking(world, planes, px, py, rx, ry, contacts)
                if sx == 0.0 and sy == 0.0:
                    break  # at rest: no push, no bounce, so the position repeats bit for bit
                limit = _slide_limit(world, planes, px, py, rx, ry, sx, sy)
        t, hit_index, hit = _sweep(world, planes, px, py, sx, sy, limit)
        slide_x, slide_y = sx, sy
        if hit is None and t >= 1.0:
            px, py = px + sx, py + sy
            if path is not None:
                path.append(Vec2(px, py))
            break
        px += sx * t
        py += sy * t
        if path is not None:
            path.append(Vec2(px, py))
            if hit is not None:
                contacts.append(_contact(world, hit_index, px, py, SKIN, hit[1], hit[2]))
        # The rest of the tick, with the wished motion again.
        rx *= 1.0 - t
        ry *= 1.0 - t

    moved = px != start_x or py != start_y
    if moved and not (isfinite(px) and isfinite(py)):
        # A slide along a surface at the very edge of the floats overflowed: stop there.
        px, py = start_x, start_y
        if path is not None:
            path[:] = [Vec2(px, py)]
        moved = False
    if moved:
        for t in _touching(world, px, py):
            if t[2][0] <= 0.0:
                # Cannot happen with exact sweeps; if rounding ever disagreed, a tick
                # standing still is better than one ending inside a wall.
                px, py = start_x, start_y
                if path is not None:
                    path[:] = [Vec2(px, py)]
                moved = False
                break
    return px, py, pushed_x, pushed_y, slide_x, slide_y, moved


def _inside_edge(px: float, py: float, rx: float, ry: float) -> tuple[float, float]:
    """The motion cut so that the centre stays within :data:`EDGE` on each axis (it slides along the edge)."""
    # Only an axis whose sum overflows is cut; then px and rx have the same sign,
    # so the cut motion is shorter and finite.
    if not -EDGE <= px + rx <= EDGE:
        rx = math.copysign(EDGE, rx) - px
    if not -EDGE <= py + ry <= EDGE:
        ry = math.copysign(EDGE, ry) - py
    return rx, ry


def _check(px: float, py: float, rx: float, ry: float) -> None:
    if not (math.isfinite(px) and math.isfinite(py)):
        raise ValueError(f"position must be finite, got ({px}, {py})")
    if not (math.isfinite(rx) and math.isfinite(ry)):
        raise ValueError(f"motion must be finite, got ({rx}, {ry})")


def move_xy(world, px: float, py: float, rx: float, ry: float) -> tuple[float, float]:
    """:func:`move` for a caller that only wants the end position: floats in, ``(x, y)`` out.

    Raises ValueError, as :func:`move` does, when a number is not finite.

    The very same steps as :func:`move`, so the same position bit for bit,
    without recording the path, the contacts and the broad phase's
    candidates (the headless play-test's tick).

    >>> from level_editor.core.collision.shapes import Circle, Rect, Vec2
    >>> from level_editor.core.collision.world import World
    >>> world = World([Rect(Vec2(0, 10), Vec2(100, 10))], Circle(Vec2(0, 0), 5))
    >>> move_xy(world, 20.0, 20.0, 10.0, 0.0) == tuple(move(world, Vec2(20, 20), Vec2(10, 0)).position)
    True
    """
    if not (isfinite(px) and isfinite(py) and isfinite(rx) and isfinite(ry)):
        _check(px, py, rx, ry)
    r = _slide(world, px, py, rx, ry, None, None)
    return r[0], r[1]


def move(world, position, motion) -> Move:
    """Move the player's centre by ``motion`` for one tick, sliding along what it meets.

    Parameters
    ----------
    world : level_editor.core.collision.world.World
        The static colliders, for the player's body.
    position : Vec2
        The player's centre at the start of the tick.
    motion : Vec2
        The wished displacement for this tick (velocity times dt), any length.

    Returns
    -------
    Move
        The end position and what happened on the way.

    Raises
    ------
    ValueError
        When ``position`` or ``motion`` is not finite. This is the tick's one
        check: the steps after it trust their floats.

    Notes
    -----
    Guarantees, for a start that does not overlap anything: the player never
    moves further than ``|motion|``, never crosses a collider, and ends every
    tick with a positive gap (close to :data:`SKIN`) to all geometry.
    """
    # The tick's one check of its input: every step after it trusts its floats.
    p = as_vec2(position)
    d = as_vec2(motion)
    _check(p.x, p.y, d.x, d.y)
    path: list = []
    contacts: list[Contact] = []
    reach = math.hypot(d.x, d.y) + 2.0 * CONTACT
    px, py, pushed_x, pushed_y, slide_x, slide_y, moved = _slide(world, p.x, p.y, d.x, d.y, path, contacts)
    # The candidates: what the broad phase hands over for everything the tick can reach from its start.
    indices = world.near_indices(path[0].x - reach, path[0].y - reach, path[0].x + reach, path[0].y + reach)
    pushed = _NOT_PUSHED if pushed_x == 0.0 and pushed_y == 0.0 else Vec2(pushed_x, pushed_y)
    slide = None
    if moved:
        # Only a sweep moves the player, so (slide_x, slide_y) is the last one's, and not zero.
        n = math.hypot(slide_x, slide_y)
        if n > 0.0:
            slide = Vec2(slide_x / n, slide_y / n)
    # path[-1] is Vec2(px, py): every step that moves the centre appends it.
    return Move(path[-1], tuple(path), tuple(indices), tuple(contacts), slide, pushed)


def contacts_at(world, px: float, py: float) -> list[tuple[int, float, float, float]]:
    """``(collider, gap, nx, ny)`` for every surface within :data:`CONTACT` of the centre ``(px, py)``.

    The surfaces the player stands on, leans on or bumps its head on after a tick (the normal points from
    the surface towards the player), in collider order. A platformer tells floors, walls and ceilings apart
    by the normal.
    """
    return [(i, c[0], c[1], c[2]) for i, _ob, c in _touching(world, px, py) if c[0] < CONTACT]


def cast_point(world, px: float, py: float, sx: float, sy: float):
    """The first surface the centre meets moving straight by ``(sx, sy)``, without sliding: ``(t, collider, nx, ny)``.

    ``t`` is the fraction of the motion at which the player is a skin's width from the surface (so that
    ``(px + sx * t, py + sy * t)`` touches nothing); None when it meets nothing. Surfaces already in contact
    that the motion does not go into are passed over, as the mover's sweeps do. A platformer's ground probe
    (snapping down onto a slope) and its walk along a floor use it.
    """
    planes = _planes(_touching(world, px, py))
    for p in planes:
        if p.normal_x * sx + p.normal_y * sy < -p.allowance:
            return 0.0, p.collider, p.normal_x, p.normal_y
    t, i, hit = _sweep(world, planes, px, py, sx, sy, 1.0)
    if hit is None:
        return None
    return t, i, hit[1], hit[2]
