"""Broad phase: which static colliders are near a region, without looking at all of them.

A hierarchical uniform grid. Level 0 has cells about the size of a typical
collider; each further level doubles the cell size. A collider lives in the
one level whose cells are at least as big as it is, so it covers at most 2 x 2
cells there: memory stays proportional to the number of colliders however
long a wall segment is, and a query visits a handful of cells per level. The
cost of a query therefore depends on what is near it, not on the level's size.

Queries return collider indices in increasing order, so everything built on
them is deterministic. Touching bounds count as overlapping, like
:func:`level_editor.core.collision.overlap.overlaps`.

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

__all__ = ["BroadPhase", "CellGrid"]

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


class CellGrid:
    """A flat grid of square cells over fixed boxes, for the mover's many small queries per tick.

    Each box is listed in every cell it overlaps, so a point query reads one
    cell (the player's contact test) and a box query reads the cells it covers
    (a sweep), with no set, no sort and no per-level loop. A box elongated
    along a segment (a wall segment grown by the player's body) is listed only
    in the cells along that segment, so a long wall costs cells in proportion
    to its length, not to its bounding box. Whatever would still need too many
    cells (a huge box next to small ones) is kept apart and checked by its
    bounds on every query.

    Cells hold indices in increasing order. Queries answer a superset of the
    boxes that overlap the region (every box of every cell touched): the
    caller filters with its own exact bounds.

    Parameters
    ----------
    boxes : sequence of (minx, miny, maxx, maxy)
        One box per index; finite, not inverted.
    cell_size : float
        The side of a cell (a power of two keeps cell edges exact).
    segments : sequence or function of the index, optional
        Per index, ``(ax, ay, bx, by, grow_x, grow_y)``, the segment the box
        is grown around, or None for an ordinary box: a box covering many
        cells is then listed along the segment only. Only read for those.
    margin : float, optional
        Grow every box (and segment) by this much more.

    >>> grid = CellGrid([(0, 0, 10, 10), (100, 0, 110, 10)], 16.0)
    >>> grid.at(5, 5, 1.0), sorted(grid.box(0, 0, 200, 5))
    ([0], [0, 1])
    """

    __slots__ = ("cell_size", "_inv", "_cells", "_big", "_big_boxes", "_count", "_extent", "reach", "area")

    #: A box covering more cells than this is listed along its segment, or kept apart.
    MAX_CELLS = 16
    #: A segment longer than this many cells is kept apart (a wall far longer than everything else).
    MAX_PIECES = 4096

    def __init__(self, boxes: Sequence[Sequence[float]], cell_size: float, segments=None, margin: float = 0.0):
        self._fill([b[0] for b in boxes], [b[1] for b in boxes], [b[2] for b in boxes], [b[3] for b in boxes],
                   cell_size, segments, margin)

    @classmethod
    def of_columns(cls, xs0, ys0, xs1, ys1, cell_size: float, segments=None, margin: float = 0.0) -> "CellGrid":
        """The grid of boxes given as four lists (min x, min y, max x, max y), each grown by ``margin``."""
        grid = cls.__new__(cls)
        grid._fill(xs0, ys0, xs1, ys1, cell_size, segments, margin)
        return grid

    def _fill(self, xs0, ys0, xs1, ys1, cell_size, segments, margin) -> None:
        if not (cell_size > 0.0 and math.isfinite(cell_size)):
            raise ValueError(f"cell size must be a positive number, not {cell_size!r}")
        self.cell_size = float(cell_size)
        inv = self._inv = 1.0 / self.cell_size
        self._count = len(xs0)
        cells: dict[tuple[int, int], list[int]] = {}
        big: list[int] = []
        floor = math.floor
        get = cells.get
        max_cells = self.MAX_CELLS
        m = margin
        for i, x0, y0, x1, y1 in zip(range(len(xs0)), xs0, ys0, xs1, ys1):
            ix0 = floor((x0 - m) * inv)
            ix1 = floor((x1 + m) * inv)
            iy0 = floor((y0 - m) * inv)
            iy1 = floor((y1 + m) * inv)
            if ix0 == ix1 and iy0 == iy1:
                key = (ix0, iy0)
                bucket = get(key)
                if bucket is None:
                    cells[key] = [i]
                else:
                    bucket.append(i)
            elif (ix1 - ix0 + 1) * (iy1 - iy0 + 1) <= max_cells:
                self._insert(cells, i, ix0, iy0, ix1, iy1)
            else:
                seg = None if segments is None else segments(i) if callable(segments) else segments[i]
                if seg is None or not self._insert_along(cells, i, seg, m):
                    big.append(i)
        self._cells = cells
        self._big = big
        self._big_boxes = [(xs0[i] - m, ys0[i] - m, xs1[i] + m, ys1[i] + m) for i in big]
        # The cells that hold anything lie within these column and row numbers: a query
        # reaching beyond them (a tick at 1e300 px/s) only reads the populated part.
        if cells:
            columns = [k[0] for k in cells]
            rows = [k[1] for k in cells]
            self._extent = (min(columns), min(rows), max(columns), max(rows))
            lo_x, lo_y, hi_x, hi_y = self._extent
            reach = self.cell_size * (max(-lo_x, -lo_y, hi_x, hi_y) + 1)
        else:
            self._extent = None
            reach = 0.0
        #: How many cells the populated columns and rows hold, empty ones included.
        self.area = 0 if not cells else (hi_x - lo_x + 1) * (hi_y - lo_y + 1)
        #: How far from the origin anything listed reaches (px): the scale of the rounding in a query.
        self.reach = max([reach] + [max(map(abs, b)) for b in self._big_boxes])

    @staticmethod
    def _insert(cells: dict, i: int, ix0: int, iy0: int, ix1: int, iy1: int) -> None:
        for ix in range(ix0, ix1 + 1):
            for iy in range(iy0, iy1 + 1):
                bucket = cells.get((ix, iy))
                if bucket is None:
                    cells[(ix, iy)] = [i]
                elif bucket[-1] != i:
                    bucket.append(i)

    def _insert_along(self, cells: dict, i: int, seg, margin: float) -> bool:
        """List box ``i`` in the cells along its segment; False when even that needs too many cells."""
        ax, ay, bx, by, gx, gy = seg
        gx += margin
        gy += margin
        cell = self.cell_size
        if gx > 2.0 * cell or gy > 2.0 * cell:
            return False
        inv = self._inv
        floor = math.floor
        # Pieces no longer than a cell, each listed with its own grown box: the
        # band of cells the grown segment crosses, plus a cell at most.
        pieces = max(1, math.ceil(max(abs(bx - ax), abs(by - ay)) * inv))
        if pieces > self.MAX_PIECES:
            return False
        px, py = ax, ay
        for k in range(1, pieces + 1):
            f = k / pieces
            qx = ax + (bx - ax) * f if k < pieces else bx
            qy = ay + (by - ay) * f if k < pieces else by
            self._insert(cells, i,
                         floor(((px if px < qx else qx) - gx) * inv), floor(((py if py < qy else qy) - gy) * inv),
                         floor(((qx if px < qx else px) + gx) * inv), floor(((qy if py < qy else py) + gy) * inv))
            px, py = qx, qy
        return True

    def __len__(self) -> int:
        return self._count

    def _big_in(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        return [i for i, b in zip(self._big, self._big_boxes) if b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3]]

    def at(self, x: float, y: float, margin: float) -> list[int]:
        """Indices listed in the cells within ``margin`` of ``(x, y)``, each once, in increasing order.

        The answer may be a list the grid keeps: read it, never change it.
        """
        inv = self._inv
        floor = math.floor
        try:
            ix0 = floor((x - margin) * inv)
            ix1 = floor((x + margin) * inv)
            iy0 = floor((y - margin) * inv)
            iy1 = floor((y + margin) * inv)
        except (OverflowError, ValueError):  # beyond any float cell index: far from every box
            return sorted(self.box(x - margin, y - margin, x + margin, y + margin))
        if ix0 == ix1 and iy0 == iy1 and not self._big:
            return self._cells.get((ix0, iy0), _EMPTY)
        return sorted(self.box(x - margin, y - margin, x + margin, y + margin))

    def box(self, x0: float, y0: float, x1: float, y1: float):
        """Indices listed in the cells the box touches, each once, in no particular order.

        A list or a set; for a box within one cell, the list the grid keeps:
        read it, never change it.
        """
        inv = self._inv
        floor = math.floor
        cells = self._cells
        extent = self._extent
        if extent is None:
            return self._big_in(x0, y0, x1, y1) if self._big else _EMPTY
        try:
            ix0 = floor(x0 * inv)
            ix1 = floor(x1 * inv)
            iy0 = floor(y0 * inv)
            iy1 = floor(y1 * inv)
        except (OverflowError, ValueError):  # a box reaching past any float cell number
            columns = _span(x0, x1, extent[0], extent[2], inv)
            rows = _span(y0, y1, extent[1], extent[3], inv) if columns else None
            if rows is None:
                return self._big_in(x0, y0, x1, y1) if self._big else _EMPTY
            ix0, ix1 = columns
            iy0, iy1 = rows
        else:
            if ix0 == ix1 and iy0 == iy1 and not self._big:
                return cells.get((ix0, iy0), _EMPTY)
            # Only the populated columns and rows are read: the rest are empty.
            ix0 = max(ix0, extent[0])
            iy0 = max(iy0, extent[1])
            ix1 = min(ix1, extent[2])
            iy1 = min(iy1, extent[3])
            if ix0 > ix1 or iy0 > iy1:
                return self._big_in(x0, y0, x1, y1) if self._big else _EMPTY
        everything = (ix1 - ix0 + 1) * (iy1 - iy0 + 1) > len(cells)
        if not everything and ix0 == ix1 and iy0 == iy1 and not self._big:
            return cells.get((ix0, iy0), _EMPTY)
        out: set[int] = set()
        if everything:
            # A query bigger than the populated part of the grid: every cell instead.
            for bucket in cells.values():
                out.update(bucket)
        else:
            get = cells.get
            update = out.update
            for ix in range(ix0, ix1 + 1):
                for iy in range(iy0, iy1 + 1):
                    bucket = get((ix, iy))
                    if bucket is not None:
                        update(bucket)
        if self._big:
            out.update(self._big_in(x0, y0, x1, y1))
        return out


    def count(self, x0: float, y0: float, x1: float, y1: float) -> int:
        """How many of the populated columns and rows' cells the box covers (empty cells among them count).

        >>> CellGrid([(0, 0, 10, 10), (100, 0, 110, 10)], 16.0).count(-1e308, -1e308, 1e308, 1e308)
        7
        """
        extent = self._extent
        columns = _span(x0, x1, extent[0], extent[2], self._inv) if extent else None
        rows = _span(y0, y1, extent[1], extent[3], self._inv) if columns else None
        return 0 if rows is None else (columns[1] - columns[0] + 1) * (rows[1] - rows[0] + 1)

    def walk(self, px: float, py: float, dx: float, dy: float, ex: float, ey: float, box, pad: float):
        """The cells near a segment, a column at a time in order along it, for a sweep that stops at its first hit.

        The segment runs from ``(px, py)`` to ``(ex, ey)`` in the direction
        ``(dx, dy)`` (not zero). Columns are across the axis the direction
        moves most along (rows of cells when that is y); each is read only
        within ``pad`` of the segment, and only within ``box`` (the region
        the caller would have queried with :meth:`box`), so what is read is
        a part of what that query reads. Yields ``(near, buckets)``: ``near``
        is how far along that axis from ``(px, py)`` the column begins (no
        point of it is nearer), ``buckets`` the lists of the column's cells
        (read them, never change them). The boxes kept apart come first, with
        ``near`` minus infinity.

        A caller that has found a hit ``h`` px along that axis can stop at
        the first column with ``near - pad > h``: whatever lies within ``pad``
        of the segment beyond it is further than the hit. That is the ray
        cast's walk through the cells (Amanatides and Woo's, widened to a
        band): the cost is that of the cells up to the first hit, at any
        speed, however far the segment goes.

        >>> grid = CellGrid([(0, 0, 10, 10), (100, 0, 110, 10), (40, 50, 50, 60)], 16.0)
        >>> [(near, sorted(i for b in buckets for i in b)) for near, buckets in
        ...  grid.walk(-5, 5, 1, 0, 1e300, 5, (-5, 4, 1e300, 6), 1.0)][:2]
        [(5.0, [0]), (21.0, [])]
        """
        x0, y0, x1, y1 = box
        if self._big:
            yield -math.inf, [self._big_in(x0, y0, x1, y1)]
        extent = self._extent
        if extent is None:
            return
        # Walk along x; a motion mostly along y walks the transposed grid.
        across = abs(dy) > abs(dx)
        if across:
            px, py, dx, dy, ex, ey, x0, y0, x1, y1 = py, px, dy, dx, ey, ex, y0, x0, y1, x1
            c_lo, r_lo, c_hi, r_hi = extent[1], extent[0], extent[3], extent[2]
        else:
            c_lo, r_lo, c_hi, r_hi = extent
        inv = self._inv
        columns = _span(x0, x1, c_lo, c_hi, inv)
        rows = _span(y0, y1, r_lo, r_hi, inv)
        if columns is None or rows is None:
            return
        r0, r1 = rows
        slope = dy / dx
        lo, hi = (px, ex) if px <= ex else (ex, px)
        cell = self.cell_size
        get = self._cells.get
        order = range(columns[0], columns[1] + 1) if dx > 0.0 else range(columns[1], columns[0] - 1, -1)
        for k in order:
            edge = k * cell
            near = edge - px if dx > 0.0 else px - (edge + cell)
            # The segment's part over this column, widened by pad: where the band crosses it.
            xa = min(max(edge - pad, lo), hi)
            xb = min(max(edge + cell + pad, lo), hi)
            if slope:
                ya = py + (xa - px) * slope
                yb = py + (xb - px) * slope
                if ya > yb:
                    ya, yb = yb, ya
            else:
                ya = yb = py
            band = _span(ya - pad, yb + pad, r0, r1, inv)
            buckets = []
            if band is not None:
                for j in range(band[0], band[1] + 1):
                    bucket = get((j, k) if across else (k, j))
                    if bucket is not None:
                        buckets.append(bucket)
            yield near, buckets


def _span(v0: float, v1: float, lo: int, hi: int, inv: float) -> Optional[tuple[int, int]]:
    """The cell numbers ``[v0, v1]`` covers among ``lo..hi``, or None: safe for any float, however far.

    >>> _span(-1e308, 20.0, -2, 5, 1 / 16), _span(100.0, 1e308, -2, 5, 1 / 16)
    ((-2, 1), None)
    """
    a = v0 * inv
    b = v1 * inv
    if not (b >= lo and a < hi + 1):
        return None
    return (lo if a < lo else math.floor(a)), (hi if b >= hi + 1 else math.floor(b))


_EMPTY: list = []
