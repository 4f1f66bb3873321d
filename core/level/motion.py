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
from bisect import bisect_left
from dataclasses import dataclass, field
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
    # The legs of one round and the distance at the end of each, made once (a path may have thousands of points).
    _legs: tuple = field(init=False, repr=False, compare=False, default=())
    _ends: tuple = field(init=False, repr=False, compare=False, default=())

    MODES: ClassVar[tuple[str, ...]] = MODES

    def __post_init__(self):
        points = tuple(as_vec2(p) for p in self.points)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "speed", float(self.speed))
        there = list(zip(points, points[1:]))
        if self.mode == LOOP:
            legs = there + [(points[-1], points[0])] if len(points) > 1 else there
        else:
            legs = there + [(b, a) for a, b in reversed(there)]
        ends, total = [], 0.0
        for a, b in legs:
            total += math.hypot(b.x - a.x, b.y - a.y)
            ends.append(total)
        object.__setattr__(self, "_legs", tuple(legs))
        object.__setattr__(self, "_ends", tuple(ends))

    def legs(self) -> list[tuple[Vec2, Vec2]]:
        """The straight pieces one round of the path runs, in order (there and back for ``ping_pong``)."""
        return list(self._legs)

    @property
    def round_length(self) -> float:
        """The distance (px) of one round, after which the object is back where it started."""
        return self._ends[-1] if self._ends else 0.0

    def offset_at(self, distance: float) -> Vec2:
        """The offset at ``distance`` px along the path (any distance: the path repeats)."""
        total = self.round_length
        if total <= 0.0:
            return self.points[0]
        d = math.fmod(distance, total)
        if d < 0.0:
            d += total
        k = bisect_left(self._ends, d)
        if k >= len(self._legs):
            return self._legs[-1][1]
        a, b = self._legs[k]
        start = self._ends[k - 1] if k else 0.0
        length = self._ends[k] - start
        if length <= 0.0:
            return b
        t = (d - start) / length
        return Vec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)

    def offset_after(self, tick: int, dt: float) -> Vec2:
        """The offset after tick ``tick`` (from 0) of ``dt`` seconds: at ``speed * (tick + 1) * dt`` along the path."""
        return self.offset_at(self.speed * (tick + 1) * dt)
