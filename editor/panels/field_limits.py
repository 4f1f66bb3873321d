"""The ranges typed values must fall in, and numbers as a designer reads them.

Every number a panel accepts is checked against one of these ranges before any
command is pushed, so a grid of ``1e-320`` or a wall ten billion pixels long
never reaches the document. The limits themselves are the level's documented
ones (:mod:`level_editor.core.level.limits`); this module says which field uses which, and
words the refusal.

>>> GRID.problem(1e-320)
'must be from 1 to 9,999'
>>> COORDINATE.problem(-32) is None
True
>>> shown_number(12.345678), shown_number(1e-06), shown_number(-0.0), shown_number(16.0)
('12.346', '1e-06', '0', '16')
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from level_editor.core.level.number_text import rounded_text
from level_editor.core.level.limits import MAX_COORDINATE, MAX_GRID, MAX_IMAGE_SCALE, MAX_SIZE, MAX_SPEED, MIN_GRID, MIN_SIZE

__all__ = [
    "Bound", "COORDINATE", "SIZE", "GRID", "ROTATION", "SPEED", "SCALE", "OPACITY",
    "shown_number", "parse_number", "typed_number",
    "bounds_problem", "object_problem",
]


def shown_number(v: float) -> str:
    """``v`` in its shortest form with at most three decimals (``12.346``, ``16``), as a field shows it.

    A number too small for three decimals keeps three significant digits (``1e-06``), so a tiny
    size never reads as 0; a huge one keeps seven (the limits are ten million).
    """
    if not math.isfinite(v):
        return str(v)
    if v == 0:
        return "0"
    if abs(v) < 0.0005:
        return f"{v:.3g}"
    if abs(v) >= 1e12:
        return f"{v:.7g}"
    return rounded_text(v, 3)


def _plain(v: float) -> str:
    """A limit as a sentence shows it: ``10,000,000``, ``0.000001``."""
    if v == int(v):
        return f"{int(v):,}"
    return rounded_text(v, 10)


def parse_number(text: str) -> float:
    """A typed number; ValueError when it is not one or not finite (``1e999``, ``nan``).

    >>> parse_number(" 2.5 ")
    2.5
    """
    v = float(text.strip())
    if not math.isfinite(v):
        raise ValueError("not finite")
    return v


def typed_number(text: str, bound: Bound) -> float:
    """The number typed as ``text``; ValueError says why it is not one that ``bound`` takes.

    >>> typed_number(" 12", COORDINATE)
    12.0
    >>> typed_number("x", SIZE)
    Traceback (most recent call last):
    ValueError: 'x' is not a number
    """
    t = text.strip()
    if not t:
        raise ValueError("type a number")
    try:
        v = parse_number(t)
    except ValueError:
        raise ValueError(f"{t!r} is not a number") from None
    problem = bound.problem(v)
    if problem is not None:
        raise ValueError(problem)
    return v


@dataclass(frozen=True)
class Bound:
    """The numbers a field accepts: from ``low`` to ``high``; ``above_low``: ``low`` itself is refused.

    >>> SPEED.problem(0)
    'must be greater than 0 and at most 1,000,000'
    """

    low: float
    high: float
    above_low: bool = False

    def problem(self, v: float) -> Optional[str]:
        """Why ``v`` is refused, or None."""
        if not math.isfinite(v):
            return "must be a finite number"
        too_low = v <= self.low if self.above_low else v < self.low
        if too_low or v > self.high:
            return self.describe()
        return None

    def describe(self) -> str:
        if self.above_low:
            return f"must be greater than {_plain(self.low)} and at most {_plain(self.high)}"
        return f"must be from {_plain(self.low)} to {_plain(self.high)}"


#: Positions: nodes, origins, centres, the spawn.
COORDINATE = Bound(-MAX_COORDINATE, MAX_COORDINATE)
#: Sizes, half extents, radii, wall thickness, a tile grid's cell, the player's size.
SIZE = Bound(MIN_SIZE, MAX_SIZE)
#: The level's grid spacing (Tiled limits its tile size the same way).
GRID = Bound(MIN_GRID, MAX_GRID)
#: An oriented box's rotation in degrees (one turn either way says every angle).
ROTATION = Bound(-360.0, 360.0)
#: The player's speed in pixels per second.
SPEED = Bound(0.0, MAX_SPEED, above_low=True)
#: A reference picture's scale (the loader's limit above; below, the smallest size).
SCALE = Bound(MIN_SIZE, MAX_IMAGE_SCALE)
#: A reference picture's opacity.
OPACITY = Bound(0.0, 1.0)



def object_problem(obj) -> Optional[str]:
    """Why an edited object (or the player) is beyond the level's limits as a whole, or None.

    Its bounds stay within the coordinate range (:func:`bounds_problem`), and a tile grid's width and height
    (cells times cell) within the largest size, as the loader requires.
    """
    problem = bounds_problem(obj.bounds())
    if problem is None and hasattr(obj, "columns") and hasattr(obj, "cell"):
        if max(obj.columns, obj.rows) * obj.cell > MAX_SIZE:
            problem = f"would be wider or taller than {_plain(MAX_SIZE)} (the largest size)"
    return problem


def bounds_problem(bounds: tuple[float, float, float, float]) -> Optional[str]:
    """Why an object with these ``(minx, miny, maxx, maxy)`` bounds is out of reach, or None.

    A box at the edge of the coordinate range cannot grow past it, nor a wall be moved beyond it.

    >>> bounds_problem((0, 0, 2e7, 10))
    'would reach beyond 10,000,000 (the largest coordinate)'
    """
    if not all(math.isfinite(b) and abs(b) <= MAX_COORDINATE for b in bounds):
        return f"would reach beyond {_plain(MAX_COORDINATE)} (the largest coordinate)"
    return None
