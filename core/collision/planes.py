"""Contact planes: the surfaces a player touches, and the motion they still allow.

The character controller (:mod:`level_editor.core.collision.mover`) moves the player's
centre as a point among configuration obstacles. A surface within
:data:`CONTACT` of that point is not swept against; it becomes a
:class:`Plane` instead, and the wished motion is clipped against every plane
at once (:func:`clip_motion`: the tutorial's speed projection, and the crease
of two surfaces). A clipped slide is only right while the surfaces it was
clipped against are still under the player; :func:`slide_limit` says for how
long (to the end of a run of lined-up faces, or around a round corner).

Pure functions of plain floats: nothing here knows about the world or the
broad phase, only the obstacles handed in.

>>> floor = Plane(0.0, -1.0, 0.0)  # a surface below the player (y points down)
>>> clip_motion(3.0, 4.0, [floor])  # falling onto it keeps the run
(3.0, 0.0)
"""
from __future__ import annotations

import math
from typing import Any, NamedTuple

__all__ = ["SKIN", "CONTACT", "Plane", "clip_motion", "slide_limit", "face_run"]

#: Gap (px) the controller keeps between the player and geometry. Far above
#: rounding (1e-10 px even a million px from the origin), far below anything a
#: designer can see, and small enough that a gap 2 px wider than the player
#: lets it through.
SKIN = 1e-3

#: Within this gap a collider counts as "in contact": its surface clips the
#: motion instead of being swept against. A little over SKIN, so that a player
#: stopped by a sweep (at SKIN, up to rounding) is in contact next time.
CONTACT = SKIN * 1.01


class Plane(NamedTuple):
    """A surface in contact with the player, as the clip and the slide limit need it.

    The first three fields are all :func:`clip_motion` reads, so a plain
    ``(normal_x, normal_y, allowance)`` tuple works there too.

    Attributes
    ----------
    normal_x, normal_y : float
        Unit normal pointing away from the surface, towards the player.
    allowance : float
        How far (px) the motion may still approach the surface (>= 0).
    collider : int
        Index of the collider in the world (-1 when not from a world).
    obstacle : RoundedPolygon or None
        Its configuration obstacle, for the slide limit around a round corner.
    gap : float
        The gap (px) between the player and the surface.
    face : int
        The obstacle's face in contact (a flat contact), or -1 (a round corner).
    """

    normal_x: float
    normal_y: float
    allowance: float
    collider: int = -1
    obstacle: Any = None
    gap: float = 0.0
    face: int = -1


def clip_motion(vx: float, vy: float, planes) -> tuple[float, float]:
    """The motion closest to ``(vx, vy)`` that goes into none of ``planes``.

    Each plane is a :class:`Plane` (or any sequence starting with ``nx, ny,
    allowance``): a unit normal pointing away from a surface and how far (px)
    the motion may still approach it. The answer is the motion itself, its
    projection onto one surface (the tutorial's speed projection; with two
    surfaces this is their crease), or zero when the surfaces oppose each
    other.

    Examples
    --------
    >>> clip_motion(3.0, 4.0, [(0.0, -1.0, 0.0)])  # floor below: keep the run
    (3.0, 0.0)
    >>> clip_motion(3.0, 4.0, [(0.0, -1.0, 0.0), (-1.0, 0.0, 0.0)])  # corner
    (0.0, 0.0)
    """
    for p in planes:
        if p[0] * vx + p[1] * vy < -p[2]:
            break
    else:
        return vx, vy
    best_x = best_y = 0.0
    best_len = -1.0
    for i, p in enumerate(planes):
        nx = p[0]
        ny = p[1]
        d = nx * vx + ny * vy
        if d >= -p[2]:
            continue
        cx = vx - d * nx
        cy = vy - d * ny
        for j, q in enumerate(planes):
            if j != i and q[0] * cx + q[1] * cy < -q[2]:
                break
        else:
            length = cx * cx + cy * cy
            if length > best_len:
                best_x, best_y, best_len = cx, cy, length
    return best_x, best_y


def slide_limit(near, px: float, py: float, rx: float, ry: float, sx: float, sy: float, planes) -> float:
    """How much of the slide ``(sx, sy)`` stays valid, as a fraction of it.

    The slide was clipped against ``planes``, the surfaces in contact at
    ``(px, py)``; it is only right while they are still there. Along a flat
    face that is until the run of faces lined up with it ends (a ledge, a
    doorway); around a round corner it is until the wished motion ``(rx, ry)``
    no longer goes into the corner. ``near`` is the tick's ``(index,
    obstacle)`` pairs, where the run of faces is looked for.
    """
    slen = math.hypot(sx, sy)
    ux, uy = sx / slen, sy / slen
    rlen = math.hypot(rx, ry)
    wx, wy = rx / rlen, ry / rlen
    limit = 1.0
    for nx, ny, allow, _, ob, g, face in planes:
        if nx * rx + ny * ry >= -allow or abs(nx * ux + ny * uy) > 1e-9:
            continue  # not a surface this slide runs along
        if face >= 0:
            run = face_run(near, px, py, ux, uy, nx, ny)
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


def face_run(near, px: float, py: float, ux: float, uy: float, nx: float, ny: float) -> float:
    """How far (px) from ``(px, py)`` along ``(ux, uy)`` flat faces with normal ``n`` continue.

    Faces of neighbouring colliders that line up (a run of boxes, a straight
    wall chain, even misaligned by a hair) join into one surface; the run ends
    where no face continues, plus the skin, so the player is clear of the
    corner when it turns. Infinite when no face is under ``(px, py)``.
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
