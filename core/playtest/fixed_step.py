"""Fixed ticks from uneven frames: the accumulator of "Fix your timestep!" (Glenn Fiedler).

The display runs at whatever rate it can; the simulation always advances by
whole ticks of ``dt``. Time left over (less than a tick) waits in the
accumulator, and ``alpha`` says how far the display is between the last two
ticks, so a view can draw ``previous + (current - previous) * alpha`` and
motion looks smooth at any frame rate.

>>> clock = FixedStep(0.25)
>>> clock.advance(0.6), clock.alpha
(2, 0.3999999999999999)
>>> clock.advance(0.15), round(clock.alpha, 9)
(1, 0.0)
"""
from __future__ import annotations

import math

__all__ = ["FixedStep"]

#: Frame times are sums of float seconds; this much short of a whole tick still counts as one.
_TOLERANCE = 1e-9


class FixedStep:
    """Turns the seconds between frames into a whole number of fixed ticks.

    Parameters
    ----------
    dt : float
        The tick (s).
    max_ticks : int
        The most ticks one frame may run. A long stall (a modal dialog, a
        debugger, a slow frame) then drops time instead of running hundreds
        of ticks at once, which would make the next frame slower still.
    """

    def __init__(self, dt: float, max_ticks: int = 8):
        if not (isinstance(dt, (int, float)) and math.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be a finite number > 0, not {dt!r}")
        if max_ticks < 1:
            raise ValueError(f"max_ticks must be at least 1, not {max_ticks!r}")
        self.dt = float(dt)
        self.max_ticks = int(max_ticks)
        self.accumulator = 0.0
        #: Seconds thrown away by the clamp since the last reset.
        self.dropped = 0.0

    def reset(self) -> None:
        self.accumulator = 0.0
        self.dropped = 0.0

    def advance(self, seconds: float) -> int:
        """Add a frame's ``seconds``; returns how many ticks to run now (at most ``max_ticks``)."""
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"a frame lasts a finite, non-negative time, not {seconds!r}")
        self.accumulator += seconds
        due = int((self.accumulator + _TOLERANCE * self.dt) // self.dt)
        run = min(due, self.max_ticks)
        if due > run:
            self.dropped += (due - run) * self.dt
        self.accumulator = max(0.0, self.accumulator - due * self.dt)
        return run

    @property
    def alpha(self) -> float:
        """How far the display is past the last tick, as a fraction of a tick in ``[0, 1)``."""
        return min(self.accumulator / self.dt, 1.0 - 1e-12)
