"""The outline of a painted tile grid, exact and fast: the union of its tiles' collision shapes, built cell by cell.

A painted grid collides through its tiles' collision shapes (:meth:`Tiles.art_shapes`), and inside a polygon
tile is no free space either (:meth:`Tiles.enclosed_polygons`). Their union is what the checks and hulls work
on. ``shapely.union_all`` of a 500 x 500 grid's shapes took 11 to 14 s; this builds the same union in about a
second (README: Speed):

1. Every distinct painted cell (a tile with its flips and turn) is worked out once, in the cell's own
   coordinates: the union of its shapes (as :func:`~level_editor.core.checks.outlines.shape_polygons` makes
   them), cut at the cell's sides into the part in the cell and the parts reaching into other cells (a tile
   larger than a cell, a tileset's offset, the thousandth of a pixel round a slope's sides).
2. Each cell's ground is the union of its own part and the parts its neighbours reach into it with, worked out
   once per distinct combination.
3. The vertices a neighbour's ground has on a side it shares with a cell are added along the cell's side too
   (a full cell beside a half cell gets a corner halfway down that side), so neighbouring cells share their
   corners exactly: the cells' grounds are then a valid coverage. A side's coordinates are computed from whole
   cell numbers, ``origin + k * cell``, as a plain grid's squares are, so both cells have the same numbers.
   Grounds and their neighbours' needs are worked out once per distinct combination, and every cell is placed
   from them at once.
4. GEOS joins the coverage without any overlay (``coverage_union_all``), block by block: a block's parts that
   touch no side of the block are done, the others are joined with the neighbouring blocks' in a block
   :data:`GROWTH` times as wide, and so on (one union of all cells slows down more than linearly: 3.5 s for 125,000 squares).

The result equals ``union_all`` of the shapes (up to the last bit of a coordinate: a side is computed from the
cell numbers, ``origin + k * cell``, as a plain grid's cells are). Should GEOS refuse the coverage anyway, the
outline falls back to ``union_all``, slow and exact.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
import shapely

from level_editor.core.level.art import FLAGS, cell_polygons, cell_shapes
from level_editor.core.level.art_grid import painted_array
from level_editor.core.level.model import Tiles

__all__ = ["painted_outline", "join_cells"]

#: Cells per side of the smallest blocks joined in one coverage union (doubled at each step up).
BLOCK = 32

#: How much larger each step up joins blocks (per side).
GROWTH = 2


def painted_outline(tiles: Tiles, polygons_of):
    """The union of the painted grid's collision shapes and enclosed areas (None when it has none).

    ``polygons_of(shapes, corners)`` turns collision shapes and enclosed corner lists into shapely polygons,
    as :func:`~level_editor.core.checks.outlines.shape_polygons` does.
    """
    art = tiles.art
    if art is None:
        return None
    values = painted_array(tiles.tiles)
    colliding = np.array(sorted(t for t, info in art.tiles.items() if info.collision), dtype=np.int64)
    painted = (values >= 0) & np.isin(values & ~np.int64(FLAGS), colliding)
    rows, cols = np.nonzero(painted)
    if not len(rows):
        return None
    distinct, which = np.unique(values[rows, cols], return_inverse=True)
    c = tiles.cell
    # 1. each distinct painted cell once, in its cell's coordinates, cut at the cells' sides
    pieces: list = []  # (polygonal geometry in the target cell's own coordinates, row offset, column offset)
    known: dict = {}  # the same part of another painted cell (a full tile flipped) is the same piece
    by_value: list[list[int]] = []
    full = np.zeros(len(distinct), dtype=bool)
    for k, value in enumerate(distinct.tolist()):
        shape = shapely.union_all(polygons_of(cell_shapes(art, value, 0.0, 0.0, c),
                                              cell_polygons(art, value, 0.0, 0.0, c)))
        mine = []
        if not shape.is_empty:
            x0, y0, x1, y1 = shape.bounds
            for dr in range(math.floor(y0 / c), max(math.ceil(y1 / c), math.floor(y0 / c) + 1)):
                for dc in range(math.floor(x0 / c), max(math.ceil(x1 / c), math.floor(x0 / c) + 1)):
                    part = _polygonal(shapely.intersection(shape, shapely.box(dc * c, dr * c, (dc + 1) * c,
                                                                               (dr + 1) * c)))
                    if part is None:
                        continue
                    part = _into_cell(part, dc * c, dr * c, c)
                    if (dr, dc) == (0, 0) and part.area == c * c:
                        full[k] = True
                    key = (shapely.to_wkb(shapely.normalize(part)), dr, dc)
                    if key not in known:
                        known[key] = len(pieces)
                        pieces.append((part, dr, dc))
                    mine.append(known[key])
        by_value.append(mine)
    # 2. each cell's ground: its own part and what its neighbours reach into it with
    n_rows, n_cols = values.shape
    src, piece_ids = _expand(by_value, which)
    dr = np.array([p[1] for p in pieces], dtype=np.int64)[piece_ids] if len(piece_ids) else np.zeros(0, np.int64)
    dc = np.array([p[2] for p in pieces], dtype=np.int64)[piece_ids] if len(piece_ids) else np.zeros(0, np.int64)
    tr, tc = rows[src] + dr, cols[src] + dc
    # a part reaching into a cell that its own tile fills is lost in it (parts may reach out of the grid)
    lo_r, lo_c = min(0, int(tr.min(initial=0))), min(0, int(tc.min(initial=0)))
    hi_r, hi_c = max(n_rows, int(tr.max(initial=0)) + 1), max(n_cols, int(tc.max(initial=0)) + 1)
    full_cell = np.zeros((hi_r - lo_r, hi_c - lo_c), dtype=bool)
    full_cell[rows[full[which]] - lo_r, cols[full[which]] - lo_c] = True
    own = (dr == 0) & (dc == 0)
    keep = own | ~full_cell[tr - lo_r, tc - lo_c]
    tr, tc, piece_ids = tr[keep], tc[keep], piece_ids[keep]
    target = (tr - lo_r) * (hi_c - lo_c) + (tc - lo_c)
    order = np.lexsort((piece_ids, target))
    target, piece_ids = target[order], piece_ids[order]
    starts = np.flatnonzero(np.r_[True, target[1:] != target[:-1]])
    counts = np.diff(np.r_[starts, len(target)])
    cells = target[starts]
    widest = int(counts.max())
    table = np.full((len(cells), widest), -1, dtype=np.int64)
    slot = np.arange(len(target)) - np.repeat(starts, counts)
    table[np.repeat(np.arange(len(cells)), counts), slot] = piece_ids
    combos, combo_of = _distinct_rows(table)
    grounds = []
    for combo in combos.tolist():
        parts = [pieces[p][0] for p in combo if p >= 0]
        grounds.append(parts[0] if len(parts) == 1 else _polygonal(shapely.union_all(parts)))
    # 3. the vertices a neighbour has on a side shared with a cell, on that cell's side too
    width = hi_c - lo_c
    cell_r, cell_c = cells // width + lo_r, cells % width + lo_c
    sides, side_sets = _sides(grounds, c)  # per ground: set ids of its left, right, top and bottom sides
    grid = np.full((hi_r - lo_r + 2, width + 2), -1, dtype=np.int64)  # combo per cell, a margin of none round
    grid[cell_r - lo_r + 1, cell_c - lo_c + 1] = combo_of
    sides = np.vstack([sides, np.zeros(4, dtype=np.int64)])  # the last row: no ground, an empty side (set 0)
    gr, gc = cell_r - lo_r + 1, cell_c - lo_c + 1
    need = np.stack([combo_of,
                     sides[grid[gr, gc - 1], 1],   # the left side needs the left neighbour's right side
                     sides[grid[gr, gc + 1], 0],   # the right side, the right neighbour's left side
                     sides[grid[gr - 1, gc], 3],   # the top, the bottom of the cell above
                     sides[grid[gr + 1, gc], 2]],  # the bottom, the top of the cell below
                    axis=1)
    keys, key_of = _distinct_rows(need)
    rings = [_rings_of(g) for g in grounds]
    covered = {}  # (set on a side of the ground, set a neighbour needs there) -> whether it holds them all

    def holds(mine: int, wanted: int) -> bool:
        if (mine, wanted) not in covered:
            covered[mine, wanted] = set(side_sets[wanted].tolist()) <= set(side_sets[mine].tolist())
        return covered[mine, wanted]

    templates = []
    for combo, *wanted in keys.tolist():
        if grounds[combo] is None or all(holds(int(sides[combo, k]), w) for k, w in enumerate(wanted)):
            templates.append(rings[combo])  # its sides have every vertex its neighbours have there
        else:
            offsets = [side_sets[w] for w in wanted]
            templates.append([[_ring_with(ring, offsets, c) for ring in polygon] for polygon in rings[combo]])
    # 4. the cells' grounds placed, and joined
    polygons, poly_r, poly_c = _placed(templates, key_of, cell_r, cell_c, tiles.origin.x, tiles.origin.y, c)
    if not len(polygons):
        return None
    try:
        return join_cells(polygons, poly_r, poly_c, tiles.origin.x, tiles.origin.y, c)
    except shapely.errors.GEOSException:  # not a valid coverage after all: the slow way, exact all the same
        return None


def _distinct_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of an int table and, for each row, which of them it is (``np.unique(axis=0)``, which
    sorts rows as bytes and is ten times slower), column by column as numbers."""
    key = np.zeros(len(table), dtype=np.int64)
    for column in table.T:
        values, column_id = np.unique(column, return_inverse=True)
        key = key * len(values) + column_id.reshape(-1)
        _, key = np.unique(key, return_inverse=True)
        key = key.reshape(-1)
    first = np.full(int(key.max()) + 1 if len(key) else 0, len(key), dtype=np.int64)
    np.minimum.at(first, key, np.arange(len(key)))
    return table[first], key


def _expand(by_value: list, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every painted cell (index into ``which``) each of its value's pieces: (cell index, piece id) pairs."""
    counts = np.array([len(p) for p in by_value], dtype=np.int64)
    per_cell = counts[which]
    src = np.repeat(np.arange(len(which)), per_cell)
    first = np.cumsum(counts) - counts
    flat = np.array([p for ps in by_value for p in ps], dtype=np.int64)
    offset = np.arange(len(src)) - np.repeat(np.cumsum(per_cell) - per_cell, per_cell)
    return src, flat[first[which][src] + offset] if len(src) else np.zeros(0, np.int64)


def _polygonal(geometry) -> Optional[object]:
    """The polygons of ``geometry`` with an area (lines and points where shapes only touch are dropped)."""
    if geometry is None or geometry.is_empty:
        return None
    parts = [p for p in shapely.get_parts(geometry).tolist()
             if p.geom_type in ("Polygon", "MultiPolygon") and p.area > 0]
    if not parts:
        return None
    flat = [q for p in parts for q in shapely.get_parts(p).tolist()]
    return flat[0] if len(flat) == 1 else shapely.MultiPolygon(flat)


def _into_cell(part, x0: float, y0: float, c: float):
    """``part`` (lying in the cell whose corner is ``(x0, y0)``) in that cell's own coordinates, its sides exactly
    on 0 and ``c``."""
    def move(xy):
        x, y = xy[:, 0], xy[:, 1]
        x = np.where(x == x0, 0.0, np.where(x == x0 + c, c, x - x0))
        y = np.where(y == y0, 0.0, np.where(y == y0 + c, c, y - y0))
        return np.stack([np.clip(x, 0.0, c), np.clip(y, 0.0, c)], axis=1)
    return shapely.transform(part, move)


def _sides(grounds: list, c: float) -> tuple[np.ndarray, list]:
    """Per ground, which set of offsets lies on its left, right (y), top and bottom (x) sides, as ids into the
    list of sets returned with them (set 0 is the empty one)."""
    sets: dict = {(): 0}
    ids = np.zeros((len(grounds), 4), dtype=np.int64)
    for k, g in enumerate(grounds):
        if g is None:
            continue
        xy = shapely.get_coordinates(g)
        on = (xy[:, 0] == 0.0, xy[:, 0] == c, xy[:, 1] == 0.0, xy[:, 1] == c)
        for side, at in enumerate(on):
            values = tuple(np.unique(xy[at, 1 if side < 2 else 0]).tolist())
            ids[k, side] = sets.setdefault(values, len(sets))
    return ids, [np.asarray(v, dtype=float) for v in sets]


def _rings_of(ground) -> list:
    """``ground``'s polygons as lists of rings (closed coordinate arrays, the shell first); none of no ground."""
    if ground is None:
        return []
    return [[np.asarray(ring.coords) for ring in [polygon.exterior, *polygon.interiors]]
            for polygon in shapely.get_parts(ground).tolist()]


def _ring_with(xy: np.ndarray, offsets: list, c: float) -> np.ndarray:
    """The closed ring ``xy`` with the ``offsets`` of the left, right, top and bottom sides added along its edges
    that lie on those sides of the cell, in the edges' direction."""
    p, q = xy[:-1], xy[1:]
    vertical = (p[:, 0] == q[:, 0]) & ((p[:, 0] == 0.0) | (p[:, 0] == c))
    horizontal = ~vertical & (p[:, 1] == q[:, 1]) & ((p[:, 1] == 0.0) | (p[:, 1] == c))
    on_side = np.flatnonzero(vertical | horizontal)
    if not len(on_side):
        return xy
    left, right, top, bottom = offsets
    out, done = [], 0
    for e in on_side.tolist():
        (px, py), (qx, qy) = p[e].tolist(), q[e].tolist()
        if vertical[e]:
            along = left if px == 0.0 else right
            lo, hi = min(py, qy), max(py, qy)
        else:
            along = top if py == 0.0 else bottom
            lo, hi = min(px, qx), max(px, qx)
        between = along[(along > lo) & (along < hi)]
        if not len(between):
            continue
        if not ((qy > py) if vertical[e] else (qx > px)):
            between = between[::-1]
        added = np.column_stack([np.full(len(between), px), between]) if vertical[e] else \
            np.column_stack([between, np.full(len(between), py)])
        out.append(xy[done:e + 1])
        out.append(added)
        done = e + 1
    if not out:
        return xy
    out.append(xy[done:])
    return np.concatenate(out)


def _placed(templates: list, key_of: np.ndarray, cell_r: np.ndarray, cell_c: np.ndarray, ox: float, oy: float,
            c: float):
    """Every cell's ground (``templates[key_of[cell]]``) as shapely polygons in the level, its sides at
    ``origin + k * cell`` exactly, all cells at once."""
    xy, ring_len, poly_rings = [], [], []
    counts = np.zeros((len(templates), 3), dtype=np.int64)  # points, rings, polygons of each template
    for t, template in enumerate(templates):
        for polygon in template:
            poly_rings.append(len(polygon))
            for ring in polygon:
                xy.append(ring)
                ring_len.append(len(ring))
                counts[t, 0] += len(ring)
            counts[t, 1] += len(polygon)
        counts[t, 2] = len(template)
    if not xy:
        return np.empty(0, dtype=object), np.zeros(0, np.int64), np.zeros(0, np.int64)
    xy, ring_len, poly_rings = np.concatenate(xy), np.asarray(ring_len), np.asarray(poly_rings)
    starts = np.cumsum(counts, axis=0) - counts
    k = key_of
    owner = np.repeat(np.arange(len(k)), counts[k, 0])
    local = xy[_ranges(starts[k, 0], counts[k, 0])]
    r, col = cell_r[owner].astype(float), cell_c[owner].astype(float)
    x, y = local[:, 0], local[:, 1]
    gx = np.where(x == 0.0, ox + col * c, np.where(x == c, ox + (col + 1.0) * c, (ox + col * c) + x))
    gy = np.where(y == 0.0, oy + r * c, np.where(y == c, oy + (r + 1.0) * c, (oy + r * c) + y))
    rings = ring_len[_ranges(starts[k, 1], counts[k, 1])]
    per_polygon = poly_rings[_ranges(starts[k, 2], counts[k, 2])]
    polygons = shapely.from_ragged_array(shapely.GeometryType.POLYGON, np.stack([gx, gy], axis=1),
                                         (np.r_[0, np.cumsum(rings)], np.r_[0, np.cumsum(per_polygon)]))
    return polygons, np.repeat(cell_r, counts[k, 2]), np.repeat(cell_c, counts[k, 2])


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The indices ``starts[i] .. starts[i] + counts[i] - 1`` of every i, one after the other."""
    total = int(counts.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(counts)
    return np.repeat(starts - (ends - counts), counts) + np.arange(total)


def join_cells(polygons: np.ndarray, row: np.ndarray, col: np.ndarray, ox: float, oy: float, c: float):
    """The coverage union of polygons each lying in the cell ``(row, col)`` of a grid whose corner is ``(ox, oy)``
    and whose cells are ``c`` wide, block by block (see the module notes): they must be a valid coverage, their
    corners on the cells' sides computed as ``ox + col * c`` and ``oy + row * c``."""
    done = []
    size = BLOCK
    r0, c0 = int(row.min()), int(col.min())
    row, col = row - r0, col - c0
    span = max(int(row.max()), int(col.max())) + 1
    while len(polygons):
        br, bc = row // size, col // size
        key = br * (span // size + 1) + bc
        order = np.argsort(key, kind="stable")
        key, polygons, row, col, br, bc = key[order], polygons[order], row[order], col[order], br[order], bc[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        counts = np.diff(np.r_[starts, len(key)])
        table = np.full((len(starts), int(counts.max())), None, dtype=object)
        table[np.repeat(np.arange(len(starts)), counts), np.arange(len(key)) - np.repeat(starts, counts)] = polygons
        joined = shapely.coverage_union_all(table, axis=1)
        parts, block = shapely.get_parts(joined, return_index=True)
        if size >= span:
            done.append(parts)
            break
        # the block's sides, from whole cell numbers as the cells' sides are
        b_r, b_c = br[starts][block], bc[starts][block]
        left = ox + ((b_c * size + c0).astype(float)) * c
        right = ox + (((b_c + 1) * size + c0).astype(float)) * c
        top = oy + ((b_r * size + r0).astype(float)) * c
        bottom = oy + (((b_r + 1) * size + r0).astype(float)) * c
        x0, y0, x1, y1 = shapely.bounds(parts).T
        edge = (x0 <= left) | (x1 >= right) | (y0 <= top) | (y1 >= bottom)
        done.append(parts[~edge])
        # a part on a block's side goes up with the block's first cell, to be joined in the block twice as large
        polygons, row, col = parts[edge], (b_r * size)[edge], (b_c * size)[edge]
        size *= GROWTH
    parts = np.concatenate(done)
    # Shapes that touch at a single point (two ellipses side by side) come out of the coverage union as one ring
    # that touches itself there, which is not a valid polygon: made valid, the same area in two polygons.
    broken = ~shapely.is_valid(parts)
    if broken.any():
        fixed = shapely.get_parts(shapely.get_parts(shapely.make_valid(parts[broken])))  # (a collection: its own)
        parts = np.concatenate([parts[~broken], fixed[shapely.get_type_id(fixed) == 3]])
    return parts[0] if len(parts) == 1 else shapely.multipolygons(parts)
