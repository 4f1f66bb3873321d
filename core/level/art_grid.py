"""A painted grid's collision shapes, all cells at once: what :meth:`Tiles.art_shapes` gives, made with NumPy.

Cell by cell in Python (:func:`~level_editor.core.level.art.cell_shapes` per painted cell, then
:func:`~level_editor.core.level.art.merged_rects`) a 500 x 500 grid took about 2 s. Here each distinct painted
cell (a tile with its flips and turn) is worked out once (:func:`~level_editor.core.level.art.cell_shape_parts`),
every cell's shapes are placed with the same sums on arrays, and the rectangles are joined as ``merged_rects``
joins them. The shapes, their numbers to the last bit and their order are the same as cell by cell (a test
compares them on random grids).
"""
from __future__ import annotations

import numpy as np

from level_editor.core.collision.shapes import Capsule, Circle, Rect, Vec2
from level_editor.core.level.art import FLAGS, POLYGON_EDGE_RADIUS, Tileset, cell_shape_parts

__all__ = ["grid_shapes", "painted_array"]


def painted_array(rows) -> np.ndarray:
    """Painted rows (tuples of cells) as a (rows, columns) int64 array, short rows padded with -1 (no tile)."""
    if not rows:
        return np.full((0, 0), -1, dtype=np.int64)
    width = max(len(row) for row in rows)
    if all(len(row) == width for row in rows):
        return np.array(rows, dtype=np.int64).reshape(len(rows), width)
    out = np.full((len(rows), width), -1, dtype=np.int64)
    for r, row in enumerate(rows):
        out[r, :len(row)] = row
    return out


def grid_shapes(art: Tileset, rows, ox: float, oy: float, c: float) -> tuple:
    """The collision shapes of the painted ``rows`` whose grid has its corner at ``(ox, oy)`` and cells of ``c``:
    the rectangles joined (:func:`~level_editor.core.level.art.merged_rects`), then circles and polygon sides in
    the order of the cells (row by row) and of each tile's shapes."""
    values = painted_array(rows)
    colliding = np.array(sorted(t for t, info in art.tiles.items() if info.collision), dtype=np.int64)
    if not len(colliding) or not values.size:
        return ()
    painted = (values >= 0) & np.isin(values & ~np.int64(FLAGS), colliding)
    r, col = np.nonzero(painted)  # row by row, as the cells are read
    if not len(r):
        return ()
    distinct, which = np.unique(values[r, col], return_inverse=True)
    which = which.reshape(-1)
    parts = [cell_shape_parts(art, v) for v in distinct.tolist()]
    h = np.array([p[0] if p else 0.0 for p in parts], dtype=float)
    # the same sums as cell_shapes: x = ox + col * c, left = x + offset; y = oy + row * c, top = y + c - h + offset
    left = (ox + col.astype(float) * c) + art.offset.x
    top = ((oy + r.astype(float) * c) + c - h[which]) + art.offset.y

    rect_spec = [(k, spec) for k, p in enumerate(parts) if p for spec in p[1]]
    rects = ()
    if rect_spec:
        cell, spec = _per_cell([k for k, _ in rect_spec], which, len(parts))
        table = np.array([s for _, s in rect_spec], dtype=float).reshape(-1, 4)[spec]
        x0 = left[cell] + table[:, 0]
        y0 = top[cell] + table[:, 1]
        rects = _merged(x0, y0, x0 + table[:, 2], y0 + table[:, 3])
    others = _others(parts, which, left, top)
    return rects + others


def _per_cell(owners: list, which: np.ndarray, n_values: int) -> tuple[np.ndarray, np.ndarray]:
    """For specs owned by values (``owners``, in order), every painted cell's specs: (cell index, spec index),
    cell by cell, each cell's in the specs' order."""
    owners = np.asarray(owners, dtype=np.int64)
    count = np.bincount(owners, minlength=n_values)
    first = np.cumsum(count) - count  # owners are grouped by value in increasing order
    per_cell = count[which]
    cell = np.repeat(np.arange(len(which)), per_cell)
    step = np.arange(len(cell)) - np.repeat(np.cumsum(per_cell) - per_cell, per_cell)
    return cell, first[which][cell] + step


def _segment_cummax(group: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The running maximum of ``values`` within each run of equal ``group`` (groups contiguous, increasing)."""
    levels, rank = np.unique(values, return_inverse=True)
    key = group.astype(np.int64) * (len(levels) + 1) + rank.reshape(-1)
    return levels[np.maximum.accumulate(key) - group.astype(np.int64) * (len(levels) + 1)]


def _starts(group: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Where a new run starts, as merged_rects starts one: at a group's first item, or where ``low`` lies past
    every ``high`` of the group so far (the items in order of ``low`` within each group)."""
    first = np.r_[True, group[1:] != group[:-1]]
    reach = _segment_cummax(group, high)
    return first | np.r_[False, low[1:] > reach[:-1]]


def _ids(*keys: np.ndarray) -> np.ndarray:
    """A group number per item, increasing along the items' order (which is sorted by ``keys``)."""
    change = np.zeros(len(keys[0]), dtype=bool)
    change[0] = True
    for k in keys:
        change[1:] |= k[1:] != k[:-1]
    return np.cumsum(change) - 1


def _merged(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> tuple:
    """:func:`~level_editor.core.level.art.merged_rects` of the rectangles, on arrays, in its order."""
    # along rows: by (top, bottom), then left; runs joined where they touch or overlap
    order = np.lexsort((x0, y1, y0))
    x0, y0, x1, y1 = x0[order], y0[order], x1[order], y1[order]
    row = _ids(y0, y1)
    start = _starts(row, x0, x1)
    run = np.cumsum(start) - 1
    run_x1 = np.full(int(run[-1]) + 1, -np.inf)
    np.maximum.at(run_x1, run, x1)
    run_x0, run_y0, run_y1 = x0[start], y0[start], y1[start]
    # along columns: the runs in that order, by (left, right) kept in the order first met; stacked where they touch
    seen = np.arange(len(run_x0))
    order = np.lexsort((seen, run_x1, run_x0))
    rx0, rx1, ry0, ry1, seen = run_x0[order], run_x1[order], run_y0[order], run_y1[order], seen[order]
    column = _ids(rx0, rx1)
    start = _starts(column, ry0, ry1)
    stack = np.cumsum(start) - 1
    out_y1 = np.full(int(stack[-1]) + 1, -np.inf)
    np.maximum.at(out_y1, stack, ry1)
    first_seen = np.minimum.reduceat(seen, np.flatnonzero(np.r_[True, column[1:] != column[:-1]]))[column[start]]
    out_x0, out_x1, out_y0 = rx0[start], rx1[start], ry0[start]
    # merged_rects lists the columns in the order first met, each column's stack in order, then sorts by top, left
    order = np.lexsort((ry0[start], first_seen, out_x0, out_y0))
    out_x0, out_y0, out_x1, out_y1 = out_x0[order], out_y0[order], out_x1[order], out_y1[order]
    return tuple(Rect(Vec2(a, b), Vec2(w, hh)) for a, b, w, hh in zip(
        out_x0.tolist(), out_y0.tolist(), (out_x1 - out_x0).tolist(), (out_y1 - out_y0).tolist()))


def _others(parts: list, which: np.ndarray, left: np.ndarray, top: np.ndarray) -> tuple:
    """The circles and polygon sides of every cell, cell by cell, each in its tile's order of shapes."""
    # per value, its items in order: (is a circle, x, y, radius or x of the side's end, y of the side's end)
    items, owners = [], []
    for k, p in enumerate(parts):
        if not p:
            continue
        _, _, circles, polygons, order = p
        for kind, i in order:
            if kind == "circle":
                cx, cy, radius = circles[i]
                items.append((1.0, cx, cy, radius, 0.0))
                owners.append(k)
            elif kind == "polygon":
                corners = polygons[i]
                for j, (ax, ay) in enumerate(corners):
                    bx, by = corners[(j + 1) % len(corners)]
                    items.append((0.0, ax, ay, bx, by))
                    owners.append(k)
    if not items:
        return ()
    cell, spec = _per_cell(owners, which, len(parts))
    t = np.array(items, dtype=float)[spec]
    lx, ty = left[cell], top[cell]
    ax, ay = lx + t[:, 1], ty + t[:, 2]
    circle = t[:, 0] == 1.0
    bx, by = np.where(circle, 0.0, lx + t[:, 3]), np.where(circle, 0.0, ty + t[:, 4])
    keep = circle | (ax != bx) | (ay != by)  # a side whose two ends fall on one point is left out
    out = []
    for is_circle, a_x, a_y, b_x, b_y, radius in zip(circle[keep].tolist(), ax[keep].tolist(), ay[keep].tolist(),
                                                     bx[keep].tolist(), by[keep].tolist(), t[keep, 3].tolist()):
        if is_circle:
            out.append(Circle(Vec2(a_x, a_y), radius))
        else:
            out.append(Capsule(Vec2(a_x, a_y), Vec2(b_x, b_y), POLYGON_EDGE_RADIUS))
    return tuple(out)
