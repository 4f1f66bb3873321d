"""The character controller: move and slide the player for one tick.

The player's centre moves as a point among the configuration obstacles of
a :class:`~core.collision.world.World` (every collider grown by the player's body), so
a circle player and a box player share one exact algorithm:

1. **Push out** when the tick starts overlapping (or touching) anything: move
   along the penetration normal of each overlap in turn until nothing
   overlaps (the tutorial's "Solving intersecting boxes", the wall-chain
   article's push to the thickness). Only a start that was already invalid
   moves the player without being asked.
2. **Sweep to the first contact** along what is left of the motion, with the
   exact closed-form ray cast against every obstacle grown by a small
   :data:`SKIN`: the player stops with a positive gap, so it never ends a
   tick touching geometry, and no speed can tunnel.
3. **Slide**: remove only the part of the remaining motion that goes into
   the surfaces in contact (the tutorial's speed projection). Against two
   surfaces the motion follows their crease; against opposing ones it stops.
   Repeat, up to :data:`MAX_ITERATIONS` sweeps per tick.

Why it does not catch on seams: a run of boxes or a chain of wall segments
grows into overlapping obstacles whose faces line up, and the skin rounds
every corner. Sliding along the run at the skin distance, the next box's
corner is met on its rounded side, whose normal is (within 1e-5 for a hair of
misalignment) the face normal: the projection removes nothing along the run.
Why it rests still in wedges: resting is a contact with no motion left after
clipping, and a contact does not move the player at all (no push, no bounce),
so the position repeats bit for bit; nothing is carried from tick to tick, so
the first tick away from a wall runs at full speed.

>>> from core.collision.shapes import Circle, Rect, Vec2
>>> from core.collision.world import World
>>> world = World([Rect(Vec2(0, 10), Vec2(100, 10))], Circle(Vec2(0, 0), 5))
>>> m = move(world, Vec2(10, 0), Vec2(20, 20))  # lands on the floor, slides right
>>> round(m.position.x, 6), round(10 - 5 - m.position.y, 6)
(30.0, 0.001)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from core.collision.shapes import Circle, Vec2, as_vec2

__all__ = ["SKIN", "MAX_ITERATIONS", "Contact", "Move", "move", "clip_motion"]

#: Gap (px) the controller keeps between the player and geometry. Far above
#: rounding (1e-10 px even a million px from the origin), far below anything a
#: designer can see, and small enough that a gap 2 px wider than the player
#: lets it through.
SKIN = 1e-3

#: Within this gap a collider counts as "in contact": its surface clips the
#: motion instead of being swept against. A little over SKIN, so that a player
#: stopped by a sweep (at SKIN, up to rounding) is in contact next time.
CONTACT = SKIN * 1.01

#: Sweeps per tick; each one either finishes the move or meets a new surface.
MAX_ITERATIONS = 12

_PUSH_PASSES = 16


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


def clip_motion(vx: float, vy: float, planes) -> tuple[float, float]:
    """The motion closest to ``(vx, vy)`` that goes into none of ``planes``.

    Each plane is ``(nx, ny, allowance)``: a unit normal pointing away from a
    surface and how far (px) the motion may still approach it. The answer is
    the motion itself, its projection onto one surface (the tutorial's speed
    projection; with two surfaces this is their crease), or zero when the
    surfaces oppose each other.

    Examples
    --------
    >>> clip_motion(3.0, 4.0, [(0.0, -1.0, 0.0)])  # floor below: keep the run
    (3.0, 0.0)
    >>> clip_motion(3.0, 4.0, [(0.0, -1.0, 0.0), (-1.0, 0.0, 0.0)])  # corner
    (0.0, 0.0)
    """
    for nx, ny, allow in planes:
        if nx * vx + ny * vy < -allow:
            break
    else:
        return vx, vy
    best_x = best_y = 0.0
    best_len = -1.0
    for i, (nx, ny, allow) in enumerate(planes):
        d = nx * vx + ny * vy
        if d >= -allow:
            continue
        cx = vx - d * nx
        cy = vy - d * ny
        for j, (mx, my, other) in enumerate(planes):
            if j != i and mx * cx + my * cy < -other:
                break
        else:
            length = cx * cx + cy * cy
            if length > best_len:
                best_x, best_y, best_len = cx, cy, length
    return best_x, best_y


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
    obstacles = world.obstacles
    m = 2.0 * CONTACT
    best = math.inf
    for i in world.near_indices(px - m, py - m, px + m, py + m):
        g = obstacles[i].gap(px, py)[0]
        if g < best:
            best = g
    return best


def _min_gap_of(near, px: float, py: float) -> float:
    """:func:`_min_gap` over an already gathered list of ``(index, obstacle)``."""
    best = math.inf
    for _, ob in near:
        b = ob.bounds
        if b[0] - CONTACT <= px <= b[2] + CONTACT and b[1] - CONTACT <= py <= b[3] + CONTACT:
            g = ob.gap(px, py)[0]
            if g < best:
                best = g
    return best


def _push_out(world, px: float, py: float) -> tuple[float, float]:
    """A nearby position that overlaps nothing, starting from an overlapping one."""
    obstacles = world.obstacles
    m = 2.0 * CONTACT
    for _ in range(_PUSH_PASSES):
        moved = False
        for i in world.near_indices(px - m, py - m, px + m, py + m):
            g, nx, ny = obstacles[i].gap(px, py)
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
            if _min_gap(world, qx, qy) >= SKIN:
                return qx, qy
    return px, py


def _slide_limit(near, px, py, rx, ry, sx, sy, planes, touching) -> float:
    """How much of the slide ``(sx, sy)`` stays valid, as a fraction of it.

    The slide was clipped against surfaces in contact at the start; it is only
    right while they are still there. Along a flat face that is until the run
    of faces lined up with it ends (a ledge, a doorway); around a round corner
    it is until the wished motion ``(rx, ry)`` no longer goes into the corner.
    """
    slen = math.hypot(sx, sy)
    ux, uy = sx / slen, sy / slen
    rlen = math.hypot(rx, ry)
    wx, wy = rx / rlen, ry / rlen
    limit = 1.0
    for (nx, ny, allow), (_, ob, g, _, _, face) in zip(planes, touching):
        if nx * rx + ny * ry >= -allow or abs(nx * ux + ny * uy) > 1e-9:
            continue  # not a surface this slide runs along
        if face >= 0:
            run = _face_run(near, px, py, ux, uy, nx, ny)
        else:
            # Round corner: centre c, grown radius rho. Slide until the line
            # along the wished motion just touches the corner's disc.
            k = ob.radius + g
            cx, cy = px - nx * k, py - ny * k
            rho = ob.radius + SKIN
            h0 = wx * (cy - py) - wy * (cx - px)
            turn = wx * uy - wy * ux
            if turn > 0.0:
                run = (h0 + rho) / turn
            elif turn < 0.0:
                run = (rho - h0) / -turn
            else:
                run = math.inf
        if run > 1e-9:
            limit = min(limit, run / slen)
    return limit


def _face_run(near, px, py, ux, uy, nx, ny) -> float:
    """How far (px) from ``(px, py)`` along ``(ux, uy)`` flat faces with normal ``n`` continue.

    Faces of neighbouring colliders that line up (a run of boxes, a straight
    wall chain, even misaligned by a hair) join into one surface; the run ends
    where no face continues, plus the skin, so the player is clear of the
    corner when it turns.
    """
    spans = []
    for _, ob in near:
        r = ob.radius
        for ax, ay, ex, ey, fnx, fny, _, _ in ob.faces:
            if abs(fnx - nx) > 1e-9 or abs(fny - ny) > 1e-9:
                continue
            d = fnx * (px - ax) + fny * (py - ay) - r
            if not -CONTACT < d < CONTACT:
                continue
            a = (ax - px) * ux + (ay - py) * uy
            b = a + ex * ux + ey * uy
            spans.append((a - SKIN, b + SKIN) if a < b else (b - SKIN, a + SKIN))
    spans.sort()
    end = None
    for lo, hi in spans:
        if end is None:
            if lo <= 0.0 <= hi:
                end = hi
        elif lo <= end:
            if hi > end:
                end = hi
        else:
            break
    return math.inf if end is None else end


def move(world, position, motion) -> Move:
    """Move the player's centre by ``motion`` for one tick, sliding along what it meets.

    Parameters
    ----------
    world : core.collision.world.World
        The static colliders, for the player's body.
    position : Vec2
        The player's centre at the start of the tick.
    motion : Vec2
        The wished displacement for this tick (velocity times dt), any length.

    Returns
    -------
    Move
        The end position and what happened on the way.

    Notes
    -----
    Guarantees, for a start that does not overlap anything: the player never
    moves further than ``|motion|``, never crosses a collider, and ends every
    tick with a positive gap (close to :data:`SKIN`) to all geometry.
    """
    p = as_vec2(position)
    d = as_vec2(motion)
    px, py = p.x, p.y
    rx, ry = d.x, d.y
    if not (math.isfinite(px) and math.isfinite(py)):
        raise ValueError(f"position must be finite, got ({px}, {py})")
    if not (math.isfinite(rx) and math.isfinite(ry)):
        raise ValueError(f"motion must be finite, got ({rx}, {ry})")
    obstacles = world.obstacles

    # Everything the centre can reach this tick: a slide may turn, but never
    # goes further than |motion| from the start.
    reach = math.hypot(rx, ry) + 2.0 * CONTACT
    indices = world.near_indices(px - reach, py - reach, px + reach, py + reach)
    near = [(i, obstacles[i]) for i in indices]

    pushed = Vec2(0.0, 0.0)
    if _min_gap_of(near, px, py) <= 0.0:
        qx, qy = _push_out(world, px, py)
        pushed = Vec2(qx - px, qy - py)
        px, py = qx, qy
        indices = world.near_indices(px - reach, py - reach, px + reach, py + reach)
        near = [(i, obstacles[i]) for i in indices]
    start_x, start_y = px, py

    path = [Vec2(px, py)]
    contacts: list[Contact] = []
    slide = None
    half_skin = 0.5 * SKIN
    graze = 0.25 * SKIN
    # (rx, ry) is the intent: what is left of the wished motion. Each pass
    # clips it against the surfaces in contact *here*, so a surface left
    # behind (the end of a ledge) stops clipping as soon as it is left.
    for _ in range(MAX_ITERATIONS):
        if rx == 0.0 and ry == 0.0:
            break
        planes = []
        touching = []
        x0 = px - CONTACT
        x1 = px + CONTACT
        y0 = py - CONTACT
        y1 = py + CONTACT
        for i, ob in near:
            b = ob.bounds
            if b[0] > x1 or b[2] < x0 or b[1] > y1 or b[3] < y0:
                continue
            g, nx, ny, face = ob.closest(px, py)
            if g < CONTACT:
                allow = g - half_skin
                planes.append((nx, ny, allow if allow > 0.0 else 0.0))
                touching.append((i, ob, g, nx, ny, face))
        sx, sy = rx, ry
        limit = 1.0
        if planes:
            sx, sy = clip_motion(rx, ry, planes)
            if sx != rx or sy != ry:
                for (nx, ny, allow), (i, ob, g, _, _, face) in zip(planes, touching):
                    if nx * rx + ny * ry < -allow:
                        contacts.append(_contact(world, i, px, py, g, nx, ny))
                if sx == 0.0 and sy == 0.0:
                    break
                limit = _slide_limit(near, px, py, rx, ry, sx, sy, planes, touching)
        # Sweep to the first surface, grown by the skin; surfaces in contact
        # are not swept (along a straight line the gap to a convex obstacle
        # only shrinks while moving into it, and the clip forbids that).
        ex = px + sx * limit
        ey = py + sy * limit
        x0 = (px if px < ex else ex) - SKIN
        x1 = (ex if px < ex else px) + SKIN
        y0 = (py if py < ey else ey) - SKIN
        y1 = (ey if py < ey else py) + SKIN
        skip = {t[0] for t in touching}
        best_t = limit
        best = None
        for i, ob in near:
            if i in skip:
                continue
            b = ob.bounds
            if b[0] > x1 or b[2] < x0 or b[1] > y1 or b[3] < y0:
                continue
            h = ob.ray(px, py, sx, sy, ob.radius + SKIN, graze)
            if h is not None and h[0] < best_t:
                best_t = h[0]
                best = (i, h[1], h[2])
        slide = (sx, sy)
        if best is None and best_t >= 1.0:
            px, py = px + sx, py + sy
            path.append(Vec2(px, py))
            break
        px += sx * best_t
        py += sy * best_t
        path.append(Vec2(px, py))
        if best is not None:
            i, nx, ny = best
            contacts.append(_contact(world, i, px, py, SKIN, nx, ny))
        # The rest of the tick, with the wished motion again.
        rx *= 1.0 - best_t
        ry *= 1.0 - best_t

    if (px != start_x or py != start_y) and _min_gap_of(near, px, py) <= 0.0:
        # Cannot happen with exact sweeps; if rounding ever disagreed, a tick
        # standing still is better than one ending inside a wall.
        px, py = start_x, start_y
        path = [Vec2(px, py)]
    if slide is not None:
        n = math.hypot(slide[0], slide[1])
        slide = Vec2(slide[0] / n, slide[1] / n) if n > 0.0 and (px, py) != (start_x, start_y) else None
    return Move(Vec2(px, py), tuple(path), tuple(indices), tuple(contacts), slide, pushed)
