"""The play-test's input turned into a wished velocity: keys, or steering towards the mouse.

Plain functions of the input and the player's speed, so the editor and a
test compute exactly the velocities that a replay records.

>>> key_velocity(1, 0, 240)
Vec2(x=240.0, y=0.0)
>>> v = key_velocity(1, -1, 240)        # diagonals are as fast as straight moves
>>> round(v.length(), 9)
240.0
>>> seek_velocity((0, 0), (100, 0), 240, 1 / 60)
Vec2(x=240.0, y=0.0)
>>> seek_velocity((0, 0), (2, 0), 240, 1 / 60)   # arrives in one tick instead of overshooting
Vec2(x=120.0, y=0.0)
"""
from __future__ import annotations

import math

from level_editor.core.collision.shapes import Vec2, as_vec2

__all__ = ["key_velocity", "seek_velocity", "key_input", "seek_input"]


def key_velocity(right: float, down: float, speed: float) -> Vec2:
    """Velocity for the held direction keys.

    Parameters
    ----------
    right, down : float
        -1, 0 or 1 each: left/right and up/down keys held (opposite keys cancel).
    speed : float
        The player's speed (px/s); a diagonal is normalised to this speed too.
    """
    n = math.hypot(right, down)
    if n == 0.0:
        return Vec2(0.0, 0.0)
    return Vec2(right / n * speed, down / n * speed)


def seek_velocity(position, target, speed: float, dt: float) -> Vec2:
    """Velocity towards ``target`` at full ``speed``.

    Within one tick's distance (``speed * dt``) it is exactly the velocity
    that lands on the target in one tick, so the player stops there instead of
    overshooting and jittering around the cursor.
    """
    p, t = as_vec2(position), as_vec2(target)
    dx, dy = t.x - p.x, t.y - p.y
    d = math.hypot(dx, dy)
    if d == 0.0 or speed <= 0.0:
        return Vec2(0.0, 0.0)
    if d <= speed * dt:
        return Vec2(dx / dt, dy / dt)
    return Vec2(dx / d * speed, dy / d * speed)


def key_input(right: float, down: float) -> tuple[float, float]:
    """The held direction keys as a version 2 replay's ``(move_x, move_y)``: a diagonal is as fast as one key.

    >>> key_input(1, 0), key_input(0, 0)
    ((1.0, 0.0), (0.0, 0.0))
    >>> [round(v, 9) for v in key_input(1, -1)]
    [0.707106781, -0.707106781]
    """
    n = math.hypot(right, down)
    if n == 0.0:
        return 0.0, 0.0
    return right / n, down / n


def seek_input(position, target, speed: float, dt: float) -> tuple[float, float]:
    """Steering towards ``target`` (:func:`seek_velocity`) as ``(move_x, move_y)`` in [-1, 1], what a replay records.

    >>> seek_input((0, 0), (100, 0), 240, 1 / 60), seek_input((0, 0), (2, 0), 240, 1 / 60)
    ((1.0, 0.0), (0.5, 0.0))
    """
    v = seek_velocity(position, target, speed, dt)
    if speed <= 0.0:
        return 0.0, 0.0
    return max(-1.0, min(1.0, v.x / speed)), max(-1.0, min(1.0, v.y / speed))
