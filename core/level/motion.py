"""How a moving object moves: its path, and where it is after each tick.

An object with a ``path`` (format version 3) moves along ``points``, offsets from where the file places it,
at ``speed`` px/s: ``"ping_pong"`` goes there and back along the points, ``"loop"`` goes from the last point
straight back to the first. After tick ``i`` (counted from 0) of ``dt`` seconds the object is displaced by the
point at distance ``speed * (i + 1) * dt`` along the path (:meth:`MovePath.offset_after`), a pure function of
the tick, so the play-test, ``simulate``, the runtime and the editor's preview agree bit for bit and nothing
drifts however long a level runs.

>>> lift = MovePath(((0, 0), (0, -160)), speed=60)
>>> lift.offset_at(100), lift.offset_at(200), lift.offset_at(320)
(Vec2(x=0.0, y=-100.0), Vec2(x=0.0, y=-120.0), Vec2(x=0.0, y=0.0))
>>> MovePath(((0, 0), (10, 0), (10, 10)), speed=1, mode="loop").offset_at(25)
Vec2(x=6.464466094067262, y=6.464466094067262)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from level_editor.core.collision.shapes import Vec2, as_vec2

__all__ = ["MovePath", "PING_PONG", "LOOP", "MODES"]

PING_PONG, LOOP = "ping_pong", "loop"
#: A path's modes, in the order the editor offers them.
MODES = (PING_PONG, LOOP)


@dataclass(frozen=True, slots=True)
class MovePath:
    """A moving object's path: offsets from its place, a speed (px/s) and a mode (``ping_pong`` or ``loop``)."""

    points: tuple[Vec2, ...]
    speed: float = 60.0
    mode: str = PING_PONG

    MODES: ClassVar[tuple[str, ...]] = MODES

    def __post_init__(self):
        object.__setattr__(self, "points", tuple(as_vec2(p) for p in self.points))
        object.__setattr__(self, "speed", float(self.speed))

    def legs(self) -> list[tuple[Vec2, Vec2]]:
        """The straight pieces one round of the path runs, in order (there and back for ``ping_pong``)."""
        pts = self.points
        there = list(zip(pts, pts[1:]))
        if self.mode == LOOP:
            return there + [(pts[-1], pts[0])] if len(pts) > 1 else there
        return there + [(b, a) for a, b in reversed(there)]

    @property
    def round_length(self) -> float:
        """The distance (px) of one round, after which the object is back where it started."""
        return math.fsum(math.hypot(b.x - a.x, b.y - a.y) for a, b in self.legs())

    def offset_at(self, distance: float) -> Vec2:
        """The offset at ``distance`` px along the path (any distance: the path repeats)."""
        legs = self.legs()
        total = self.round_length
        if not legs or total <= 0.0:
            return self.points[0]
        d = math.fmod(distance, total)
        if d < 0.0:
            d += total
        for a, b in legs:
            length = math.hypot(b.x - a.x, b.y - a.y)
            if d <= length and length > 0.0:
                t = d / length
                return Vec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
            d -= length
        return legs[-1][1]

    def offset_after(self, tick: int, dt: float) -> Vec2:
        """The offset after tick ``tick`` (from 0) of ``dt`` seconds: at ``speed * (tick + 1) * dt`` along the path."""
        return self.offset_at(self.speed * (tick + 1) * dt)
