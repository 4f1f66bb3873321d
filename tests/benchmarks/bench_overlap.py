"""Micro benchmark: how many :func:`~level_editor.core.collision.overlap.overlaps` calls run per second.

Not a test: numbers depend on the machine. ``python -m tests.benchmarks.bench_overlap``
prints the rate of every pair of kinds.

>>> rates = overlap_calls_per_second(seconds_per_pair=0.001)
>>> len(rates), rates["Circle-Capsule"] > 0
(31, True)
>>> all(rate > 0 for rate in rates.values())
True
"""
from __future__ import annotations

import random
import time

from level_editor.core.collision.overlap import SHAPE_KINDS, overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2

__all__ = ["overlap_calls_per_second"]

_NAMES = {Vec2: "Point", Line: "Line", Segment: "Segment", Circle: "Circle", Rect: "Rect",
          OrientedRect: "OrientedRect", Capsule: "Capsule"}


def _random_shape(kind, rng: random.Random):
    """A shape of ``kind`` somewhere in a 200 px square, sized like level objects."""
    def point():
        return Vec2(rng.uniform(0.0, 200.0), rng.uniform(0.0, 200.0))

    def near(p, reach):
        return Vec2(p.x + rng.uniform(-reach, reach), p.y + rng.uniform(-reach, reach))

    if kind is Vec2:
        return point()
    if kind is Line:
        return Line(point(), Vec2(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)))
    if kind is Segment:
        a = point()
        return Segment(a, near(a, 60.0))
    if kind is Circle:
        return Circle(point(), rng.uniform(4.0, 20.0))
    if kind is Rect:
        return Rect(point(), Vec2(rng.uniform(8.0, 40.0), rng.uniform(8.0, 40.0)))
    if kind is OrientedRect:
        return OrientedRect(point(), Vec2(rng.uniform(4.0, 20.0), rng.uniform(4.0, 20.0)),
                            rng.uniform(0.0, 360.0))
    a = point()
    return Capsule(a, near(a, 60.0), rng.uniform(2.0, 6.0))


def _rate(pairs, seconds: float) -> float:
    """Calls per second of ``overlaps`` over ``pairs``, repeated for ``seconds``."""
    calls = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for a, b in pairs:
            overlaps(a, b)
        calls += len(pairs)
        elapsed = time.perf_counter() - start
    return calls / elapsed


def overlap_calls_per_second(seconds_per_pair: float = 0.05, seed: int = 0) -> dict[str, float]:
    """Measure ``overlaps`` calls per second for each of the 28 pairs of kinds.

    Each pair of kinds is timed on 256 random pairs of shapes (a mix of
    overlapping and apart, as in a level) through the public ``overlaps``
    entry point, dispatch included.

    Parameters
    ----------
    seconds_per_pair : float
        Time spent on each pair of kinds; the whole run takes about 30 times
        this.
    seed : int
        Seed of the random shapes, so runs are comparable.

    Returns
    -------
    dict of str to float
        ``"Circle-Rect"`` style keys (the first kind as passed first) to calls
        per second, plus ``"all pairs"`` for a mix of every pair in both
        orders and ``"Rect-Circle"`` and ``"Capsule-Circle"`` for the swapped
        order of the play-test's two hot pairs.

    Examples
    --------
    >>> overlap_calls_per_second(seconds_per_pair=0.001)["Circle-Rect"] > 0
    True
    """
    rng = random.Random(seed)
    rates: dict[str, float] = {}
    mixed = []
    for i, ka in enumerate(SHAPE_KINDS):
        for kb in SHAPE_KINDS[i:]:
            pairs = [(_random_shape(ka, rng), _random_shape(kb, rng)) for _ in range(256)]
            rates[f"{_NAMES[ka]}-{_NAMES[kb]}"] = _rate(pairs, seconds_per_pair)
            mixed.extend(pairs[:16])
            mixed.extend((b, a) for a, b in pairs[16:32])
    for ka, kb in ((Rect, Circle), (Capsule, Circle)):
        pairs = [(_random_shape(ka, rng), _random_shape(kb, rng)) for _ in range(256)]
        rates[f"{_NAMES[ka]}-{_NAMES[kb]}"] = _rate(pairs, seconds_per_pair)
    rng.shuffle(mixed)
    rates["all pairs"] = _rate(mixed, seconds_per_pair * 4)
    return rates


if __name__ == "__main__":
    for name, rate in overlap_calls_per_second().items():
        print(f"{name:28s} {rate / 1e6:6.2f} M calls/s")
