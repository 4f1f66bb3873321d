"""Broad phase: which static colliders are near a region, without looking at all of them.

A hierarchical uniform grid. Level 0 has cells about the size of a typical
collider; each further level doubles the cell size. A collider lives in the
one level whose cells are at least as big as it is, so it covers at most 2 x 2
cells there: memory stays proportional to the number of colliders however
long a wall segment is, and a query visits a handful of cells per level. The
cost of a query therefore depends on what is near it, not on the level's size.

Queries return collider indices in increasing order, so everything built on
them is deterministic. Touching bounds count as overlapping, like
:func:`core.collision.overlap.overlaps`.

Callers query with the *whole* region a mover can reach during a step, grown
by its own size (Chipmunk once missed contacts by querying with the centre's
path only).

>>> grid = BroadPhase([(0, 0, 10, 10), (100, 0, 110, 10), (5, 5, 5000, 6)])
>>> grid.query(8, 5, 20, 20)
[0, 2]
>>> grid.query(200, 200, 300, 300)
[]
"""
from __future__ import annotations

import math
from typing import Iterable, Optional, Sequence

__all__ = ["BroadPhase"]

#: Cell sizes are powers of two within these bounds (px).
_MIN_CELL = 1.0 / 16.0
_MAX_CELL = float(2 ** 40)


def _cell_size_for(extents: list[float]) -> float:
    """A power of two near the median collider extent (deterministic)."""
    if not extents:
        return 64.0
    ordered = sorted(extents)
    median = ordered[len(ordered) // 2]
    if not median > 0.0:
        median = 1.0
    size = 2.0 ** math.ceil(math.log2(median))
    return min(max(size, _MIN_CELL), _MAX_CELL)


class BroadPhase:
    """A hierarchical grid over fixed axis-aligned bounds.

    Parameters
    ----------
    bounds : sequence of (minx, miny, maxx, maxy)
        One box per collider; a collider's index is its position here.
    cell_size : float, optional
        Cell size of the finest level; by default a power of two near the
        median collider extent.

    Notes
    -----
    Built once for a static world; there is no insert or remove.
    """

    __slots__ = ("_minx", "_miny", "_maxx", "_maxy", "_levels", "cell_size", "count")

    def __init__(self, bounds: Sequence[Sequence[float]], cell_size: Optional[float] = None):
        boxes = [tuple(float(v) for v in b) for b in bounds]
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
                raise ValueError(f"collider {i} has non-finite bounds {boxes[i]}")
            if x1 < x0 or y1 < y0:
                raise ValueError(f"collider {i} has inverted bounds {boxes[i]}")
        self.count = len(boxes)
        self._minx = [b[0] for b in boxes]
        self._miny = [b[1] for b in boxes]
        self._maxx = [b[2] for b in boxes]
        self._maxy = [b[3] for b in boxes]
        extents = [max(b[2] - b[0], b[3] - b[1]) for b in boxes]
        base = float(cell_size) if cell_size else _cell_size_for(extents)
        if not (base > 0.0 and math.isfinite(base)):
            raise ValueError(f"cell size must be a positive number, not {cell_size!r}")
        self.cell_size = base
        # level -> (cell size, {(ix, iy): [indices]}, [indices in this level])
        levels: dict[int, tuple[float, dict, list]] = {}
        for i, extent in enumerate(extents):
            level = 0
            cell = base
            while extent > cell:
                level += 1
                cell *= 2.0
            if level not in levels:
                levels[level] = (cell, {}, [])
            cell, cells, members = levels[level]
            members.append(i)
            x0, y0, x1, y1 = boxes[i]
            for ix in range(math.floor(x0 / cell), math.floor(x1 / cell) + 1):
                for iy in range(math.floor(y0 / cell), math.floor(y1 / cell) + 1):
                    key = (ix, iy)
                    bucket = cells.get(key)
                    if bucket is None:
                        cells[key] = [i]
                    else:
                        bucket.append(i)
        self._levels = tuple(levels[k] for k in sorted(levels))

    def __len__(self) -> int:
        return self.count

    def level_count(self) -> int:
        """How many grid levels hold colliders."""
        return len(self._levels)

    def cell_count(self) -> int:
        """How many non-empty cells there are over all levels."""
        return sum(len(cells) for _, cells, _ in self._levels)

    def query(self, minx: float, miny: float, maxx: float, maxy: float) -> list[int]:
        """Indices of the colliders whose bounds overlap the box, in increasing order.

        Examples
        --------
        >>> BroadPhase([(0, 0, 1, 1), (1, 1, 2, 2)]).query(1, 1, 1, 1)
        [0, 1]
        """
        found: set[int] = set()
        bx0, by0, bx1, by1 = self._minx, self._miny, self._maxx, self._maxy
        for cell, cells, members in self._levels:
            ix0 = math.floor(minx / cell)
            ix1 = math.floor(maxx / cell)
            iy0 = math.floor(miny / cell)
            iy1 = math.floor(maxy / cell)
            if (ix1 - ix0 + 1) * (iy1 - iy0 + 1) > len(members):
                # A query bigger than this level's population: look at every
                # member instead of at mostly empty cells.
                candidates: Iterable[int] = members
            else:
                candidates = []
                get = cells.get
                for ix in range(ix0, ix1 + 1):
                    for iy in range(iy0, iy1 + 1):
                        bucket = get((ix, iy))
                        if bucket is not None:
                            candidates.extend(bucket)
            for i in candidates:
                if bx0[i] <= maxx and minx <= bx1[i] and by0[i] <= maxy and miny <= by1[i]:
                    found.add(i)
        return sorted(found)
