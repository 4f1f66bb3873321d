"""Bounding hulls of a level's objects and of the whole level: what ``hulls`` holds in a saved file.

For each object id, and for the whole level under ``"level"``::

    {"aabb": [minx, miny, maxx, maxy],
     "circle": {"center": [x, y], "radius": r},
     "convex_hull": [[x, y], ...],
     "min_rect": [[x, y], [x, y], [x, y], [x, y]]}

all of the object's full collision outline: walls with their thickness and
round ends and joints, pillars round, tile grids the union of their solid
cells. Objects that are not solid have hulls like the others; markers
(points), reference images and tile grids without a solid cell have no
outline and so no entry, and the level's hulls cover every object that has
one. A level without such objects has no hulls (``{}``).

Every hull *contains* the exact shape, also after rounding to
:data:`DECIMALS` decimals:

- ``aabb`` is exact (computed from nodes, corners and radii, not from
  polygons), then rounded outwards.
- ``circle`` is the exact smallest circle for every object: the smallest
  circle around its nodes, corners (a tile grid's: of its convex hull) or
  centre, grown by its round radius. The level's circle is the smallest
  circle around the level's convex hull.
  Rounding moves the centre by at most half a unit of the last decimal; the
  radius grows by that shift and is rounded up.
- ``convex_hull`` of a wall or pillar is the convex hull of its nodes (or
  centre) grown by a regular polygon drawn around a circle a thousandth of a
  pixel larger than its round radius (so rounding cannot cut in), with just
  enough corners to stay within :data:`HULL_TOLERANCE` plus a thousandth of a
  pixel of the real arcs; a box's and an oriented box's hull is its four
  corners; a tile grid's is the exact convex hull of its solid cells.
- ``min_rect`` is exact for boxes, oriented boxes, pillars (the upright
  square), walls (the smallest rectangle around the convex hull of the nodes
  lies along one of its edges; grown by the half thickness all round) and
  tile grids and the level (shapely's minimum rotated rectangle of the hull).
  A wall whose nodes' hull has more than 64 corners takes shapely's rectangle
  around its hull.
- Exact corners that rounding would cut into are first moved out by one unit
  of the last decimal.

Points go round the polygon in shapely's order (clockwise with y up), without
repeating the first.

Everything is computed for all objects at once with NumPy, and with shapely's
vectorised functions where a shape needs GEOS (nodes' hulls of long walls,
smallest circles, tile grids); the hulls are kept as arrays
(:class:`LevelHulls`), which a save writes straight to the file and which
build an object's dict only when someone reads it.

>>> from level_editor.core.level.model import Level, Pillar
>>> hulls = level_hulls(Level(objects=[Pillar("p", (10, 20), 5)]))
>>> hulls["p"]["aabb"], hulls["p"]["circle"]
([5.0, 15.0, 15.0, 25.0], {'center': [10.0, 20.0], 'radius': 5.0})
>>> sorted(hulls)
['level', 'p']
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Optional

import numpy as np
import shapely

from level_editor.core.level.collector import paused_collector
from level_editor.core.level.json_numbers import decimal_text, thousandths
from level_editor.core.level.limits import MAX_COORDINATE, MAX_SIZE
from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Point, Wall
from level_editor.core.checks.outlines import (
    BOX,
    ORIENTED_BOX,
    PILLAR,
    ROUND_MARGIN,
    TILES,
    WALL,
    LevelOutlines,
    node_array,
    level_outlines,
    rotation_cos_sin_array,
)

__all__ = ["level_hulls", "LevelHulls", "DECIMALS", "LEVEL_KEY"]

#: Decimals kept in ``hulls`` (a thousandth of a pixel).
DECIMALS = 3

#: The key of the whole level's hulls.
LEVEL_KEY = "level"

_UNIT = 10.0 ** -DECIMALS

#: How far (px) the hull of a round part may reach outside its real arc.
HULL_TOLERANCE = 0.05

#: Walls whose nodes' hull has more corners than this take shapely's smallest rectangle (trying every edge
#: costs the square of the corners).
_CALIPER_CORNERS = 64

#: Objects written to a file per block of lines (bounds the memory a save needs besides the arrays).
_LINES_PER_BLOCK = 1024

#: Round objects grown per block (bounds the memory of the arrays in between).
_GROWN_PER_BLOCK = 4096


class LevelHulls(Mapping):
    """The ``hulls`` of a level as arrays: a read-only mapping from object id (and ``"level"``) to its hulls.

    Reading an entry builds its JSON-ready dict (plain floats, lists of ``[x, y]``);
    :meth:`json_blocks` writes them all as the lines of a level file without
    building any. Keys come in level order, the whole level's last; an id that
    appears twice keeps its first place and its last object's hulls, as a dict
    built object by object would.

    Row ``i`` of the arrays is the ``i``-th object with an outline; the last row
    is the whole level.
    """

    def __init__(self, ids: list, aabb, centres, radii, hull_xy, hull_ends, rect_xy, rect_ends):
        self.ids = ids
        self.aabb = aabb
        self.centres = centres
        self.radii = radii
        self.hull_xy = hull_xy
        self.hull_ends = hull_ends
        self.rect_xy = rect_xy
        self.rect_ends = rect_ends
        self._rows: Optional[dict] = None

    def _row_of(self) -> dict:
        """Key -> row, in the order of the keys."""
        if self._rows is None:
            rows = {oid: k for k, oid in enumerate(self.ids)}
            rows[LEVEL_KEY] = len(self.ids)
            self._rows = rows
        return self._rows

    def __getitem__(self, key) -> dict:
        return self.entry(self._row_of()[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._row_of())

    def __len__(self) -> int:
        return len(self._row_of())

    def __contains__(self, key) -> bool:
        return key in self._row_of()

    def __repr__(self) -> str:
        return f"LevelHulls({len(self)} entries)"

    def object_table(self) -> tuple:
        """The objects' hulls for drawing: ``(ids, entries, aabb, centres, radii)`` without the whole level's.

        ``entries[i]`` builds the ``i``-th object's dict when asked; the arrays are shared, not copied.
        """
        rows = self._row_of()
        ids = [k for k in rows if k != LEVEL_KEY]
        index = np.fromiter((rows[k] for k in ids), dtype=np.int64, count=len(ids))
        return ids, _Entries(self, index), self.aabb[index], self.centres[index], self.radii[index]

    def entry(self, row: int) -> dict:
        """The hulls of row ``row`` as in a level file."""
        h0, h1 = (self.hull_ends[row - 1] if row else 0), self.hull_ends[row]
        r0, r1 = (self.rect_ends[row - 1] if row else 0), self.rect_ends[row]
        return {
            "aabb": self.aabb[row].tolist(),
            "circle": {"center": self.centres[row].tolist(), "radius": float(self.radii[row])},
            "convex_hull": self.hull_xy[h0:h1].tolist(),
            "min_rect": self.rect_xy[r0:r1].tolist(),
        }

    def json_blocks(self, key_lines) -> Iterator[bytes]:
        """The lines of ``hulls`` in a level file, in blocks of bytes: joined, one object's hulls per line.

        ``key_lines(keys)`` gives the start of each key's line (bytes: indent, key as JSON,
        ``: {"aabb":[``). Lines are separated by ``,\\n``; numbers are written as the rest of the file
        writes them (see :mod:`level_editor.core.level.json_numbers`).
        """
        rows = self._row_of()
        keys, order = list(rows), np.fromiter(rows.values(), dtype=np.int64, count=len(rows))
        hull_n = np.diff(self.hull_ends, prepend=0)
        rect_n = np.diff(self.rect_ends, prepend=0)
        hull_at = self.hull_ends - hull_n
        rect_at = self.rect_ends - rect_n
        for first in range(0, len(keys), _LINES_PER_BLOCK):
            pick = order[first:first + _LINES_PER_BLOCK]
            text, ends, per_row = _block_text(self, pick, hull_n[pick], rect_n[pick], hull_at[pick], rect_at[pick])
            cut = np.concatenate([[0], ends[per_row - 1]]).tolist()
            starts = key_lines(keys[first:first + _LINES_PER_BLOCK])
            block = b",\n".join([start + text[a:b] for start, a, b in zip(starts, cut, cut[1:])])
            yield block if first == 0 else b",\n" + block


class _Entries:
    """A sequence of some rows' hulls, each built when asked for."""

    def __init__(self, hulls: LevelHulls, rows: np.ndarray):
        self._hulls, self._rows = hulls, rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, i: int) -> dict:
        return self._hulls.entry(int(self._rows[i]))


#: What follows each number of a line: see :func:`_block_text`.
_SEPARATORS = (b",", b'],"circle":{"center":[', b'],"radius":', b'},"convex_hull":[[', b"],[",
               b']],"min_rect":[[', b"]]}")
_COMMA, _TO_CENTRE, _TO_RADIUS, _TO_HULL, _NEXT_POINT, _TO_RECT, _END = range(7)


def _block_text(h: LevelHulls, rows, hull_n, rect_n, hull_at, rect_at):
    """The numbers of ``rows`` with their separators, one run per row: 7 numbers, the hull's points, the rectangle's.

    Returns the text, where each number ends, and each row's count of numbers
    (its run ends at ``ends[cumsum(counts) - 1]``).
    """
    count = 7 + 2 * hull_n + 2 * rect_n
    starts = np.cumsum(count) - count
    values = np.empty(int(count.sum()))
    seps = np.full(len(values), _COMMA, dtype=np.int64)
    head = np.concatenate([h.aabb[rows], h.centres[rows], h.radii[rows, None]], axis=1)
    at = starts[:, None] + np.arange(7)
    values[at] = head
    seps[at[:, 3]] = _TO_CENTRE
    seps[at[:, 5]] = _TO_RADIUS
    seps[at[:, 6]] = _TO_HULL
    for xy, n, source_at, offset, last_sep in ((h.hull_xy, hull_n, hull_at, 7, _TO_RECT),
                                                (h.rect_xy, rect_n, rect_at, 7 + 2 * hull_n, _END)):
        points = _ranges(source_at, n)
        where = np.repeat(starts + offset, n) + 2 * (np.arange(len(points)) - np.repeat(np.cumsum(n) - n, n))
        values[where] = xy[points, 0]
        values[where + 1] = xy[points, 1]
        seps[where + 1] = _NEXT_POINT
        last = starts + offset + 2 * n - 1
        seps[last] = last_sep
    text, ends = decimal_text(thousandths(values), seps, _SEPARATORS)
    return text, ends, np.cumsum(count)


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The indices ``starts[i] .. starts[i] + counts[i] - 1`` of every i, concatenated."""
    total = int(counts.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(counts) - counts
    return np.repeat(starts - offsets, counts) + np.arange(total)


def level_hulls(level: Level, outlines: Optional[LevelOutlines] = None) -> Mapping:
    """The ``hulls`` object of a level file: four hulls per object id and for the whole level.

    Parameters
    ----------
    level : Level
        The level (its player is not part of any hull).
    outlines : LevelOutlines, optional
        The level's outlines, when the caller already built them.

    Returns
    -------
    LevelHulls or dict
        A mapping, JSON-ready when read: plain floats rounded to :data:`DECIMALS`
        decimals, keyed by object id, plus ``"level"`` when the level has
        objects (``{}`` when it has none).

    Examples
    --------
    >>> from level_editor.core.level.model import Level, Wall
    >>> h = level_hulls(Level(objects=[Wall("w", [(0, 0), (10, 0)], 4)]))
    >>> h["w"]["aabb"], h["w"]["circle"]["radius"]
    ([-2.0, -2.0, 12.0, 2.0], 7.0)
    """
    with paused_collector():
        shapes = _Shapes.of_outlines(outlines) if outlines is not None else _Shapes.of_level(level)
        if shapes is None:
            shapes = _Shapes.of_outlines(level_outlines(level))
        return _hulls(shapes) if len(shapes) else {}


class _Shapes:
    """What the hulls are made from: per object with an outline (level order) its id, kind, exact bounds,
    round radius and sites (see :class:`~level_editor.core.checks.outlines.LevelOutlines`), the sites as coordinates.

    Taken from a level's outlines when they are built anyway, or gathered straight from the level
    (:meth:`of_level`): a save of a large level needs no shapely geometry for most objects.
    """

    def __init__(self, ids, kinds, aabb, rounding, site_xy, site_owner, outlines=None):
        self.ids, self.kinds, self.aabb, self.rounding = ids, kinds, aabb, rounding
        self.site_xy, self.site_owner = site_xy, site_owner
        self._outlines = outlines
        counts = np.bincount(site_owner, minlength=len(ids))
        self._site_at = np.cumsum(counts) - counts
        self._site_n = counts

    def __len__(self) -> int:
        return len(self.ids)

    def sites_of(self, index: np.ndarray) -> np.ndarray:
        """The sites of the objects at ``index`` as shapely MultiPoints."""
        if self._outlines is not None:
            return self._outlines.sites[index]
        n = self._site_n[index]
        return shapely.multipoints(self.site_xy[_ranges(self._site_at[index], n)],
                                   indices=np.repeat(np.arange(len(index)), n))

    def outlines_of(self, index: np.ndarray) -> np.ndarray:
        return self._outlines.outlines_of(index)

    @classmethod
    def of_outlines(cls, o: LevelOutlines) -> "_Shapes":
        xy, owner = shapely.get_coordinates(o.sites, return_index=True)
        return cls(list(o.ids), o.kinds, o.aabb, o.rounding, xy, owner, o)

    @classmethod
    def of_level(cls, level: Level) -> Optional["_Shapes"]:
        """Gathered from the objects themselves; None for a level with tile grids (their sites need their outline).

        Objects whose numbers the geometry code cannot take (not finite, beyond the limits; see
        :class:`~level_editor.core.checks.outlines.Unfit`) are left out, as the outlines leave them out.
        """
        objects = [obj for obj in level.objects if obj.__class__ not in (Point, Image)]
        ids, kinds = [], []
        wall_k, wall_pts, wall_n, wall_r = [], [], [], []
        box_k, box_v, obox_k, obox_v, pil_k, pil_v = [], [], [], [], [], []
        for obj in objects:
            cls_ = obj.__class__
            k = len(ids)
            if cls_ is Wall:
                pts = obj.points
                if not pts:
                    continue  # no nodes: no shape (the check says so)
                if len(pts) == 1:
                    pts = pts * 2  # a lone node collides as a disc
                elif obj.closed and len(pts) > 2:
                    pts = pts + pts[:1]
                wall_k.append(k)
                wall_pts.extend(pts)
                wall_n.append(len(pts))
                wall_r.append(obj.thickness / 2)
                kinds.append(WALL)
            elif cls_ is Box:
                box_k.append(k)
                box_v.append((*obj.origin, *obj.size))
                kinds.append(BOX)
            elif cls_ is OrientedBox:
                obox_k.append(k)
                obox_v.append((*obj.center, *obj.half_extents, obj.rotation))
                kinds.append(ORIENTED_BOX)
            elif cls_ is Pillar:
                pil_k.append(k)
                pil_v.append((*obj.center, obj.radius))
                kinds.append(PILLAR)
            else:
                return None  # tile grids (and anything new): from the outlines
            ids.append(obj.id)
        n = len(ids)
        kinds = np.array(kinds, dtype=np.int8)
        rounding = np.zeros(n)
        aabb = np.zeros((n, 4))
        sizes_ok = np.ones(n, dtype=bool)
        pieces = []
        if wall_k:
            rows = np.array(wall_k)
            counts = np.array(wall_n)
            pts = node_array(wall_pts)
            r = np.array(wall_r, dtype=float)
            at = np.cumsum(counts) - counts
            rounding[rows] = r
            lo, hi = np.minimum.reduceat(pts, at), np.maximum.reduceat(pts, at)
            aabb[rows] = np.concatenate([lo - r[:, None], hi + r[:, None]], axis=1)
            pieces.append((rows, pts, counts))
        if box_k:
            rows = np.array(box_k)
            v = _rows_array(box_v, 4)
            x0, y0, x1, y1 = v[:, 0], v[:, 1], v[:, 0] + v[:, 2], v[:, 1] + v[:, 3]
            corners = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1),
                                np.stack([x0, y1], 1)], axis=1)
            aabb[rows] = np.stack([x0, y0, x1, y1], axis=1)
            sizes_ok[rows] = ((v[:, 2:] >= 0) & (v[:, 2:] <= MAX_SIZE)).all(axis=1)
            pieces.append((rows, corners.reshape(-1, 2), np.full(len(rows), 4)))
        if obox_k:
            rows = np.array(obox_k)
            v = _rows_array(obox_v, 5)
            cx, cy, hx, hy = v[:, 0], v[:, 1], v[:, 2], v[:, 3]
            c, sn = rotation_cos_sin_array(v[:, 4])
            ex, ey, fx, fy = c * hx, sn * hx, -sn * hy, c * hy
            corners = np.stack([np.stack([cx - ex - fx, cy - ey - fy], 1), np.stack([cx + ex - fx, cy + ey - fy], 1),
                                np.stack([cx + ex + fx, cy + ey + fy], 1), np.stack([cx - ex + fx, cy - ey + fy], 1)],
                               axis=1)
            aabb[rows] = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
            sizes_ok[rows] = ((v[:, 2:4] >= 0) & (v[:, 2:4] <= MAX_SIZE)).all(axis=1) & np.isfinite(v[:, 4])
            pieces.append((rows, corners.reshape(-1, 2), np.full(len(rows), 4)))
        if pil_k:
            rows = np.array(pil_k)
            v = _rows_array(pil_v, 3)
            rounding[rows] = v[:, 2]
            aabb[rows] = np.stack([v[:, 0] - v[:, 2], v[:, 1] - v[:, 2], v[:, 0] + v[:, 2], v[:, 1] + v[:, 2]], axis=1)
            pieces.append((rows, v[:, :2], np.ones(len(rows), dtype=np.int64)))
        xy, counts = _in_row_order(n, pieces)
        owner = np.repeat(np.arange(n), counts)
        sizes_ok &= (rounding >= 0) & (2 * rounding <= MAX_SIZE)  # also False for NaN
        bad_site = ~np.isfinite(xy).all(axis=1) | (np.abs(xy) > MAX_COORDINATE).any(axis=1)
        bad = (np.bincount(owner[bad_site], minlength=n) > 0) | ~sizes_ok | ~np.isfinite(aabb).all(axis=1)
        if bad.any():
            keep = np.flatnonzero(~bad)
            renumber = np.cumsum(~bad) - 1
            sites = ~bad[owner]
            ids = [ids[k] for k in keep.tolist()]
            kinds, rounding, aabb = kinds[keep], rounding[keep], aabb[keep]
            xy, owner = xy[sites], renumber[owner[sites]]
        return cls(ids, kinds, aabb, rounding, xy, owner)


def _rows_array(rows: list, width: int) -> np.ndarray:
    """An (n, ``width``) float array of ``rows`` (tuples of ``width`` numbers), made in one pass.

    As :func:`~level_editor.core.checks.outlines.node_array`: ``np.array`` over 100,000 tuples holds the interpreter
    lock far longer than ``np.fromiter`` over their numbers (a save's window stops answering meanwhile).
    """
    flat = np.fromiter(itertools.chain.from_iterable(rows), float)
    if len(flat) != width * len(rows):
        raise ValueError(f"expected {width} numbers in each of {len(rows)} rows, got {len(flat)} in all")
    return flat.reshape(-1, width)


def _hulls(o: "_Shapes") -> LevelHulls:
    n = len(o)
    kinds = o.kinds
    site_xy, site_owner = o.site_xy, o.site_owner
    site_count = np.bincount(site_owner, minlength=n)
    site_start = np.cumsum(site_count) - site_count

    # Boxes and oriented boxes: their four corners are their hull and their smallest rectangle.
    boxy = np.flatnonzero((kinds == BOX) | (kinds == ORIENTED_BOX))
    corners = site_xy[site_start[boxy, None] + np.arange(4)]
    # Walls of one segment: a capsule, whose smallest rectangle runs along the segment.
    capsule = np.flatnonzero((kinds == WALL) & (site_count == 2))
    ends = site_xy[site_start[capsule, None] + np.arange(2)]
    # Pillars: any square around the disc is smallest; take the upright one.
    pillar = np.flatnonzero(kinds == PILLAR)
    # Longer walls: the smallest circle around the nodes, and the rectangle around the nodes' hull.
    chain = np.flatnonzero((kinds == WALL) & (site_count != 2))
    curved = np.flatnonzero((kinds == WALL) | (kinds == PILLAR))  # round parts, also of thickness 0
    # Tile grids: straight edges, the corners of their convex hull are their sites.
    tiles = np.flatnonzero(kinds == TILES)

    # The convex hull of each round object's sites (its "core": the hull is the core grown by the radius).
    core = _Cores(o, curved, site_xy, site_start, site_count)

    centres = np.zeros((n, 2))
    radii = np.zeros(n)
    centres[boxy] = corners.mean(axis=1)
    radii[boxy] = np.hypot(*(corners[:, 0] - corners[:, 2]).T) / 2
    centres[capsule] = ends.mean(axis=1)
    radii[capsule] = np.hypot(*(ends[:, 1] - ends[:, 0]).T) / 2 + o.rounding[capsule]
    centres[pillar] = site_xy[site_start[pillar]]
    radii[pillar] = o.rounding[pillar]
    if len(chain):
        at = np.searchsorted(curved, chain)
        centres[chain] = core.smallest_circle_centres(at)
        radii[chain] = core.farthest(at, centres[chain]) + o.rounding[chain]
    if len(tiles):
        # The smallest circle around the sites is the one around their convex hull, which has far fewer points.
        site_hulls = shapely.convex_hull(o.sites_of(tiles))
        centres[tiles] = _circle_centres(site_hulls)
        radii[tiles] = shapely.minimum_bounding_radius(site_hulls)
    centres, radii = _round_circle(centres, radii)
    aabb = _round_box(o.aabb)

    pieces = []  # (rows, hull coords, hull counts, rect coords, rect counts): all objects, in any order
    grown_xy, grown_n = _grown_rings(core, o.rounding[curved])
    rect_xy, rect_n = _quad_rings(core.rectangles(o.rounding[curved]))
    too_many = np.flatnonzero(core.count > _CALIPER_CORNERS)
    if len(too_many):  # shapely's rectangle around the grown hull, for the few walls with very many corners
        ring_at = np.cumsum(grown_n) - grown_n
        polys = shapely.polygons(shapely.linearrings(grown_xy[_ranges(ring_at[too_many], grown_n[too_many])],
                                                     indices=np.repeat(np.arange(len(too_many)), grown_n[too_many])))
        envelope_xy, envelope_n = _rings(_oriented_envelopes(polys), grow=True)
        rect_xy, rect_n = _replace_rings(rect_xy, rect_n, too_many, envelope_xy, envelope_n)
    del core  # its shapely hulls of long walls: not needed from here on (a save's peak memory)
    grown_xy = _clean(grown_xy)  # outside the real arcs by the margin, more than rounding moves a point
    pieces.append((curved, grown_xy, grown_n, rect_xy, rect_n))
    box_xy, box_n = _quad_rings(corners)
    pieces.append((boxy, box_xy, box_n, box_xy, box_n))
    if len(tiles):
        # The cells' corners may lie off the grid of DECIMALS decimals: grown so rounding cannot cut in.
        tile_hulls = shapely.convex_hull(o.outlines_of(tiles))
        tile_xy, tile_n = _rings(tile_hulls, grow=True)
        tile_rect_xy, tile_rect_n = _rings(_oriented_envelopes(tile_hulls), grow=True)
        pieces.append((tiles, tile_xy, tile_n, tile_rect_xy, tile_rect_n))
    level = _whole_level(o, site_xy, grown_xy, grown_n, curved, corners, boxy)
    # Each ring array is copied once, in row order with the level's ring at its end, and each group's own
    # arrays are let go as soon as they are copied: a save of 100,000 objects peaks tens of MB lower.
    del grown_xy, box_xy, corners
    hull_xy, hull_n = _in_row_order(n, [(p[0], p[1], p[2]) for p in pieces], tail=level["hull"])
    pieces = [(p[0], p[3], p[4]) for p in pieces]
    rect_xy, rect_n = _in_row_order(n, pieces, tail=level["rect"])
    del pieces
    return LevelHulls(
        list(o.ids),
        np.vstack([aabb, level["aabb"]]),
        np.vstack([centres, level["center"]]),
        np.concatenate([radii, [level["radius"]]]),
        hull_xy,
        np.cumsum(np.concatenate([hull_n, [len(level["hull"])]])),
        rect_xy,
        np.cumsum(np.concatenate([rect_n, [len(level["rect"])]])),
    )


class _Cores:
    """The convex hull of each round object's sites, counter-clockwise (y up), as flat arrays.

    ``xy`` holds the corners, ``count`` how many each object has (1: a point, 2: a segment), ``at`` where
    each object's start. Two and three sites are sorted out with NumPy; more go to shapely.
    """

    def __init__(self, o: "_Shapes", curved, site_xy, site_start, site_count):
        count = site_count[curved]
        start = site_start[curved]
        parts = []  # (indices into curved, their corners (flat), how many each has)
        one = np.flatnonzero(count == 1)
        parts.append((one, site_xy[start[one]], np.ones(len(one), dtype=np.int64)))
        two = np.flatnonzero(count == 2)
        if len(two):
            a, b = site_xy[start[two]], site_xy[start[two] + 1]
            same = (a == b).all(axis=1)
            keep = np.ones((len(two), 2), dtype=bool)
            keep[same, 1] = False
            parts.append((two, np.stack([a, b], axis=1).reshape(-1, 2)[keep.ravel()], np.where(same, 1, 2)))
        three = np.flatnonzero(count == 3)
        if len(three):
            parts.append((three,) + _triangle_cores(site_xy[start[three, None] + np.arange(3)]))
        more = np.flatnonzero(count > 3)
        self.geometry = {}
        if len(more):
            hulls = shapely.convex_hull(o.sites_of(curved[more]))
            self.geometry = dict(zip(more.tolist(), hulls))
            parts.append((more,) + _shapely_cores(hulls))
        self.xy, self.count = _in_row_order(len(curved), parts)
        self.at = np.cumsum(self.count) - self.count
        self.owner = np.repeat(np.arange(len(curved)), self.count)
        self.curved = curved

    def edges(self):
        """Each core's edges (zero-length ones left out): vectors, owners, and the corner each leaves from."""
        idx = np.arange(len(self.xy))
        pos = idx - self.at[self.owner]
        nxt = np.where(pos + 1 == self.count[self.owner], self.at[self.owner], idx + 1)
        vec = self.xy[nxt] - self.xy
        keep = (vec != 0).any(axis=1)
        return vec[keep], self.owner[keep], idx[keep]

    def smallest_circle_centres(self, which: np.ndarray) -> np.ndarray:
        """The centre of the smallest circle around the cores at ``which``."""
        out = np.empty((len(which), 2))
        count = self.count[which]
        small = count <= 3
        if small.any():
            pick = which[small]
            c = self.xy[self.at[pick, None] + np.minimum(np.arange(3), count[small, None] - 1)]
            out[small] = _three_point_centres(c)
        if (~small).any():
            out[~small] = _circle_centres(np.array([self.geometry[k] for k in which[~small].tolist()], dtype=object))
        return out

    def farthest(self, which: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """The distance from each centre to the farthest corner of its core."""
        at = _ranges(self.at[which], self.count[which])
        owner = np.repeat(np.arange(len(which)), self.count[which])
        d = np.hypot(*(self.xy[at] - centres[owner]).T)
        out = np.zeros(len(which))
        np.maximum.at(out, owner, d)
        return out

    def rectangles(self, r: np.ndarray) -> np.ndarray:
        """The smallest rectangle around each core grown by ``r``, shape (k, 4, 2).

        The area of the rectangle around a convex shape grown by r, as a function of
        the rectangle's angle, is the product of two positive concave functions between
        two edge directions: its least value is at an edge direction. A core of one or
        two corners is a capsule (its rectangle runs along the segment).
        """
        k = len(self.count)
        out = np.zeros((k, 4, 2))
        flat = self.count <= 2
        pick = np.flatnonzero(flat)
        a = self.xy[self.at[pick]]
        b = self.xy[self.at[pick] + self.count[pick] - 1]
        out[pick] = _capsule_rects(np.stack([a, b], axis=1), r[pick])
        solid = np.flatnonzero(~flat)
        if not len(solid):
            return out
        vec, owner, _ = self.edges()
        mine = np.isin(owner, solid) & (self.count[owner] <= _CALIPER_CORNERS)
        vec, owner = vec[mine], owner[mine]
        if len(vec):
            u = vec / np.hypot(vec[:, 0], vec[:, 1])[:, None]
            v = np.stack([-u[:, 1], u[:, 0]], axis=1)
            # every edge against every corner of its core
            corners = _ranges(self.at[owner], self.count[owner])
            edge = np.repeat(np.arange(len(vec)), self.count[owner])
            pu = np.einsum("ij,ij->i", self.xy[corners], u[edge])
            pv = np.einsum("ij,ij->i", self.xy[corners], v[edge])
            first = np.cumsum(self.count[owner]) - self.count[owner]
            lo_u, hi_u = np.minimum.reduceat(pu, first), np.maximum.reduceat(pu, first)
            lo_v, hi_v = np.minimum.reduceat(pv, first), np.maximum.reduceat(pv, first)
            rr = r[owner]
            lo_u, hi_u, lo_v, hi_v = lo_u - rr, hi_u + rr, lo_v - rr, hi_v + rr
            area = (hi_u - lo_u) * (hi_v - lo_v)
            order = np.lexsort((area, owner))
            best = order[np.r_[True, owner[order][1:] != owner[order][:-1]]]
            bu, bv = u[best], v[best]
            out[owner[best]] = np.stack([
                lo_u[best, None] * bu + lo_v[best, None] * bv, hi_u[best, None] * bu + lo_v[best, None] * bv,
                hi_u[best, None] * bu + hi_v[best, None] * bv, lo_u[best, None] * bu + hi_v[best, None] * bv,
            ], axis=1)
        return out


def _triangle_cores(t: np.ndarray):
    """The convex hulls of triples of points (k, 3, 2): counter-clockwise corners (flat) and their counts."""
    a, b, c = t[:, 0], t[:, 1], t[:, 2]
    cross = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    out = np.where((cross < 0)[:, None, None], t[:, [0, 2, 1]], t)
    counts = np.full(len(t), 3, dtype=np.int64)
    flat = np.flatnonzero(cross == 0)
    keep = np.ones((len(t), 3), dtype=bool)
    if len(flat):
        # in a line: the two points farthest apart (one when they all coincide)
        f = t[flat]
        pairs = np.array([[0, 1], [1, 2], [0, 2]])
        d = np.stack([np.hypot(*(f[:, i] - f[:, j]).T) for i, j in pairs], axis=1)
        p = pairs[np.argmax(d, axis=1)]
        rows = np.arange(len(flat))
        out[flat, 0] = f[rows, p[:, 0]]
        out[flat, 1] = f[rows, p[:, 1]]
        keep[flat, 2] = False
        same = (out[flat, 0] == out[flat, 1]).all(axis=1)
        keep[flat[same], 1] = False
        counts[flat] = np.where(same, 1, 2)
    return out.reshape(-1, 2)[keep.ravel()], counts


def _shapely_cores(hulls: np.ndarray):
    """Corners (counter-clockwise, flat) and counts of shapely's convex hulls (points, segments, polygons)."""
    rings = np.where(shapely.get_type_id(hulls) == 3, shapely.get_exterior_ring(hulls), hulls)
    xy, owner = shapely.get_coordinates(rings, return_index=True)
    counts = np.bincount(owner, minlength=len(hulls))
    is_ring = shapely.get_type_id(hulls) == 3
    ends = np.cumsum(counts)
    keep = np.ones(len(xy), dtype=bool)
    keep[ends[is_ring & (counts > 0)] - 1] = False  # a ring's closing point
    xy, owner = xy[keep], owner[keep]
    counts = np.bincount(owner, minlength=len(hulls))
    at = np.cumsum(counts) - counts
    # shapely's hulls go clockwise: reverse each polygon's corners
    idx = np.arange(len(xy))
    rev = np.where(is_ring[owner], at[owner] + counts[owner] - 1 - (idx - at[owner]), idx)
    return xy[rev], counts


def _three_point_centres(t: np.ndarray) -> np.ndarray:
    """The centre of the smallest circle around each triple of points (k, 3, 2) (repeated points allowed)."""
    a, b, c = t[:, 0], t[:, 1], t[:, 2]
    sides = np.stack([np.sum((b - c) ** 2, 1), np.sum((c - a) ** 2, 1), np.sum((a - b) ** 2, 1)], axis=1)
    longest = np.argmax(sides, axis=1)
    opposite = np.stack([(b + c) / 2, (c + a) / 2, (a + b) / 2], axis=1)[np.arange(len(t)), longest]
    # the longest side is a diameter unless the triangle is acute; then the circle goes through all three
    other = sides.sum(axis=1) - sides[np.arange(len(t)), longest]
    acute = sides[np.arange(len(t)), longest] < other
    bx, by = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    cx, cy = c[:, 0] - a[:, 0], c[:, 1] - a[:, 1]
    d = 2 * (bx * cy - by * cx)
    safe = np.where(acute & (d != 0), d, 1.0)
    ux = (cy * (bx * bx + by * by) - by * (cx * cx + cy * cy)) / safe
    uy = (bx * (cx * cx + cy * cy) - cx * (bx * bx + by * by)) / safe
    circum = np.stack([a[:, 0] + ux, a[:, 1] + uy], axis=1)
    return np.where((acute & (d != 0))[:, None], circum, opposite)


def _grown_rings(core: _Cores, r: np.ndarray):
    """Each core grown by a regular polygon around a circle of radius ``r`` + ROUND_MARGIN: hull rings, clockwise.

    The polygon's corners lie ``(r + margin) / cos(pi / m)`` from the centre, ``m`` (a multiple of 4) as
    small as keeps that within HULL_TOLERANCE + margin of the real arc. Made a block of objects at a time,
    so the arrays in between stay small.
    """
    half = np.arccos((r + ROUND_MARGIN) / (r + ROUND_MARGIN + HULL_TOLERANCE))
    m = 4 * np.clip(np.ceil((np.pi / 4) / half), 2, 256).astype(np.int64)
    xys, counts = [], []
    step = _GROWN_PER_BLOCK
    for first in range(0, len(r), step):
        last = min(first + step, len(r))
        a, b = core.at[first], core.at[last - 1] + core.count[last - 1]
        xy, n = _minkowski(core.xy[a:b], core.count[first:last], r[first:last], m[first:last])
        xys.append(xy)
        counts.append(n)
    if not xys:
        return np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
    return np.concatenate(xys), np.concatenate(counts)


def _minkowski(core_xy: np.ndarray, core_n: np.ndarray, r: np.ndarray, m: np.ndarray):
    """Convex cores (counter-clockwise, flat) grown by regular ``m``-gons around circles of radius ``r`` + margin.

    The Minkowski sum of two convex polygons walks their edges merged by direction, from the sum of the
    corners where each one's first edge (by direction) starts. The m-gon's edge ``i`` points at
    ``pi / m + 2 pi i / m``, so its edges are in order from its lowest corner; a core's edge goes before
    the m-gon's edges that point further round, and the merge needs no sort of the m-gons' edges.
    """
    k = len(r)
    core_at = np.cumsum(core_n) - core_n
    owner = np.repeat(np.arange(k), core_n)
    idx = np.arange(len(core_xy))
    nxt = np.where(idx + 1 == core_at[owner] + core_n[owner], core_at[owner], idx + 1)
    vec = core_xy[nxt] - core_xy
    keep = (vec != 0).any(axis=1)
    p_vec, p_owner, p_from = vec[keep], owner[keep], idx[keep]
    direction = np.arctan2(p_vec[:, 1], p_vec[:, 0]) % (2 * np.pi)
    order = np.lexsort((direction, p_owner))
    p_vec, p_owner, p_from, direction = p_vec[order], p_owner[order], p_from[order], direction[order]
    # how many of the m-gon's edges point less far round than each core edge
    before = np.clip(np.ceil(direction * m[p_owner] / (2 * np.pi) - 0.5), 0, m[p_owner]).astype(np.int64)
    p_n = np.bincount(p_owner, minlength=k)
    p_at = np.cumsum(p_n) - p_n
    n = p_n + m
    at = np.cumsum(n) - n
    out = np.empty((int(n.sum()), 2))
    out[at[p_owner] + (np.arange(len(p_vec)) - p_at[p_owner]) + before] = p_vec

    big_r = (r + ROUND_MARGIN) / np.cos(np.pi / m)
    q_owner = np.repeat(np.arange(k), m)
    q_at = np.cumsum(m) - m
    i = np.arange(len(q_owner)) - q_at[q_owner]
    # the m-gon's corner i at 3/2 pi + 2 pi i / m (its lowest first), edge i from corner i to corner i + 1
    angle = 1.5 * np.pi + 2 * np.pi * i / m[q_owner]
    step = 2 * np.pi / m[q_owner]
    chord = 2 * big_r[q_owner] * np.sin(step / 2)
    toward = angle + (np.pi + step) / 2
    limit = np.max(m) + 1
    core_before = np.searchsorted(p_owner * limit + before, q_owner * limit + i, side="right") - p_at[q_owner]
    where = at[q_owner] + i + core_before
    out[where, 0] = chord * np.cos(toward)
    out[where, 1] = chord * np.sin(toward)

    first_core = p_from[p_at[p_n > 0]]
    start = core_xy[core_at].copy()  # a core of one point has no edges: that point
    start[p_n > 0] = core_xy[first_core]
    start[:, 1] -= big_r  # the m-gon's lowest corner
    owner = np.repeat(np.arange(k), n)
    walked = np.cumsum(out, axis=0) - out
    xy = start[owner] + walked - walked[at][owner]

    # corners between two edges of one direction add nothing
    pos = np.arange(len(out))
    prev = np.where(pos == at[owner], at[owner] + n[owner] - 1, pos - 1)
    cross = out[prev, 0] * out[:, 1] - out[prev, 1] * out[:, 0]
    dot = np.einsum("ij,ij->i", out[prev], out)
    straight = (np.abs(cross) <= 1e-12 * np.hypot(*out[prev].T) * np.hypot(*out.T)) & (dot > 0)
    xy, owner = xy[~straight], owner[~straight]
    n = np.bincount(owner, minlength=k)
    at = np.cumsum(n) - n
    pos = np.arange(len(xy))
    return xy[at[owner] + n[owner] - 1 - (pos - at[owner])], n  # clockwise, as shapely's hulls


def _in_row_order(n: int, pieces, tail: Optional[np.ndarray] = None) -> tuple[np.ndarray, np.ndarray]:
    """Rings given per group of rows ``(rows, flat coords, counts)`` put in row order: coords and counts.

    ``tail`` (points), when given, follows the rows' rings in the coords (not in the counts).
    """
    counts = np.zeros(n, dtype=np.int64)
    for rows, _, c in pieces:
        counts[rows] = c
    at = np.cumsum(counts) - counts
    total = int(counts.sum())
    out = np.empty((total + (0 if tail is None else len(tail)), 2))
    if tail is not None:
        out[total:] = tail
    for rows, xy, c in pieces:
        if len(rows):
            c = np.asarray(c, dtype=np.int64)
            out[_ranges(at[rows], c)] = np.asarray(xy).reshape(-1, 2)
    return out, counts


def _replace_rings(xy, counts, which, new_xy, new_counts):
    """Rings ``which`` of (xy, counts) replaced by (new_xy, new_counts)."""
    keep = np.ones(len(counts), dtype=bool)
    keep[which] = False
    at = np.cumsum(counts) - counts
    rows = np.flatnonzero(keep)
    return _in_row_order(len(counts), [(rows, xy[_ranges(at[rows], counts[rows])], counts[rows]),
                                       (which, new_xy, new_counts)])


def _capsule_rects(ends: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The smallest rectangle around each one-segment wall: the segment grown by r all round."""
    d = ends[:, 1] - ends[:, 0]
    length = np.hypot(d[:, 0], d[:, 1])
    u = np.where(length[:, None] > 0, d / np.where(length > 0, length, 1.0)[:, None], [1.0, 0.0]) * r[:, None]
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    a, b = ends[:, 0], ends[:, 1]
    return np.stack([a - u - v, b + u - v, b + u + v, a - u + v], axis=1)


def _whole_level(o: "_Shapes", site_xy, grown_xy, grown_n, curved, corners, boxy) -> dict:
    """The level's hulls as arrays: ``aabb``, ``center``, ``radius``, ``hull`` and ``rect`` (points)."""
    box = np.concatenate([o.aabb[:, :2].min(axis=0), o.aabb[:, 2:].max(axis=0)])
    # The nodes, corners and centres belong to the objects, so their hull lies inside the
    # level's; an object whose box lies inside it cannot add a point to the level's hull.
    inner = shapely.convex_hull(shapely.linestrings(np.vstack([site_xy, site_xy[:1]])))
    shapely.prepare(inner)
    x0, y0, x1, y1 = o.aabb.T
    inside = (shapely.contains_xy(inner, x0, y0) & shapely.contains_xy(inner, x1, y0)
              & shapely.contains_xy(inner, x1, y1) & shapely.contains_xy(inner, x0, y1))
    outer_curved = np.flatnonzero(~inside[curved])
    outer_boxy = ~inside[boxy]
    grown_at = np.cumsum(grown_n) - grown_n
    points = np.vstack([
        shapely.get_coordinates(inner),
        grown_xy[_ranges(grown_at[outer_curved], grown_n[outer_curved])],
        corners[outer_boxy].reshape(-1, 2),
    ])
    hull = shapely.convex_hull(shapely.linestrings(np.vstack([points, points[:1]])))
    if len(o) == 1:
        # The exact circle of the only object.
        if o.kinds[0] == PILLAR:
            centre, radius = site_xy[:1], np.array([o.rounding[0]])
        else:
            site_hull = shapely.convex_hull(o.sites_of(np.array([0])))
            centre = _circle_centres(site_hull)
            radius = np.array([shapely.minimum_bounding_radius(site_hull[0]) + o.rounding[0]])
    else:
        centre = _circle_centres(np.array([hull], dtype=object))
        radius = np.array([shapely.minimum_bounding_radius(hull)])
    centre, radius = _round_circle(centre, radius)
    xy, counts = _rings(np.array([hull, _oriented_envelopes(np.array([hull], dtype=object))[0]], dtype=object),
                         grow=True)
    return {
        "aabb": _round_box(box[None, :])[0],
        "center": centre[0],
        "radius": float(radius[0]),
        "hull": xy[:counts[0]],
        "rect": xy[counts[0]:],
    }


def _oriented_envelopes(shapes: np.ndarray) -> np.ndarray:
    """shapely's smallest rotated rectangle of each shape, or its upright box where GEOS cannot make one.

    On a hull thinner than any float can tell apart from a line (a box 1e-300 px wide) GEOS's
    ``oriented_envelope`` sometimes fails ("Points of LinearRing do not form a closed linestring"),
    from one call to the next on the same input. The upright box still contains the shape.
    """
    try:
        return shapely.oriented_envelope(shapes)
    except shapely.errors.GEOSException:
        out = np.empty(len(shapes), dtype=object)
        for i, shape in enumerate(shapes):
            try:
                out[i] = shapely.oriented_envelope(shape)
            except shapely.errors.GEOSException:
                out[i] = shapely.envelope(shape)
        return out


def _circle_centres(shapes: np.ndarray) -> np.ndarray:
    """The centre of the smallest circle around each shape, shape (k, 2).

    shapely gives the circle of a single point (or of points all at one
    place) as that point, whose centroid is itself; any shape that yields
    no centre keeps the middle of its bounds.
    """
    circles = shapely.minimum_bounding_circle(shapes)
    centres = shapely.centroid(circles)
    bounds = shapely.bounds(shapes).reshape(-1, 4)
    middle = (bounds[:, :2] + bounds[:, 2:]) / 2
    xy = np.full((len(centres), 2), np.nan)
    found = ~shapely.is_empty(centres) & ~shapely.is_missing(centres)
    xy[found] = shapely.get_coordinates(centres[found])
    return np.where(np.isfinite(xy), xy, middle)


def _round_box(boxes: np.ndarray) -> np.ndarray:
    """Boxes rounded outwards: minimums down, maximums up (exact values stay as they are)."""
    scaled = boxes * (1.0 / _UNIT)
    near = np.round(scaled)
    # Values already on the grid (up to float noise) keep their exact rounding.
    on_grid = np.abs(scaled - near) < 1e-6
    low = np.where(on_grid[:, :2], near[:, :2], np.floor(scaled[:, :2]))
    high = np.where(on_grid[:, 2:], near[:, 2:], np.ceil(scaled[:, 2:]))
    return _clean(np.concatenate([low, high], axis=1) / (1.0 / _UNIT))


def _round_circle(centres: np.ndarray, radii: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centres rounded to the grid; radii grown by the centre's shift and rounded up."""
    rounded = np.round(centres, DECIMALS)
    grown = np.asarray(radii) + np.hypot(*(rounded - centres).T)
    scaled = grown * (1.0 / _UNIT)
    near = np.round(scaled)
    up = np.where(np.abs(scaled - near) < 1e-6, near, np.ceil(scaled))
    return _clean(rounded), _clean(up / (1.0 / _UNIT))


def _rings(polys: np.ndarray, grow: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each convex polygon's exterior on the grid, the first point not repeated: flat coords and counts.

    With ``grow``, a polygon with a vertex off the grid is first grown by one
    grid unit (each edge moved out, corners mitred), so rounding its vertices
    by at most half a unit in x and y cannot cut into it.
    """
    coords, owner = shapely.get_coordinates(shapely.get_exterior_ring(polys), return_index=True)
    counts = np.bincount(owner, minlength=len(polys))
    ends = np.cumsum(counts)
    keep = np.ones(len(coords), dtype=bool)
    keep[ends[counts > 0] - 1] = False  # the closing point
    coords, owner = coords[keep], owner[keep]
    counts = np.maximum(counts - 1, 0)
    return _on_grid(coords, owner, counts, grow), counts


def _quad_rings(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Four-cornered convex polygons (k, 4, 2) on the grid, grown where rounding would cut: coords and counts."""
    counts = np.full(len(quads), 4, dtype=np.int64)
    owner = np.repeat(np.arange(len(quads)), 4)
    return _on_grid(quads.reshape(-1, 2), owner, counts, grow=True), counts


def _on_grid(coords, owner, counts, grow: bool) -> np.ndarray:
    if grow and len(coords):
        starts = np.cumsum(counts) - counts
        scaled = coords * (1.0 / _UNIT)
        off_grid = np.abs(scaled - np.round(scaled)) > 1e-6
        moved = np.bincount(owner, weights=off_grid.any(axis=1), minlength=len(counts)) > 0
        if moved.any():
            coords = coords + _UNIT * _mitre_offsets(coords, owner, starts, counts) * moved[owner, None]
    return _clean(coords)


def _mitre_offsets(coords, owner, starts, counts) -> np.ndarray:
    """For each vertex of convex rings, where it moves when every edge moves out by 1."""
    idx = np.arange(len(coords))
    pos = idx - starts[owner]
    nxt = np.where(pos + 1 == counts[owner], starts[owner], idx + 1)
    prv = np.where(pos == 0, starts[owner] + counts[owner] - 1, idx - 1)
    cross = coords[:, 0] * coords[nxt, 1] - coords[nxt, 0] * coords[:, 1]
    turn = np.sign(np.bincount(owner, weights=cross, minlength=len(starts)))[owner]

    def outward(d):
        length = np.hypot(d[:, 0], d[:, 1])
        length[length == 0] = 1.0
        return turn[:, None] * np.stack([d[:, 1], -d[:, 0]], axis=1) / length[:, None]

    n_in = outward(coords - coords[prv])
    n_out = outward(coords[nxt] - coords)
    denom = 1.0 + np.sum(n_in * n_out, axis=1)
    denom[denom < 1e-9] = 1e-9
    return (n_in + n_out) / denom[:, None]


def _clean(a: np.ndarray) -> np.ndarray:
    """Turns -0.0 into 0.0 so files never show a negative zero."""
    a = np.round(a, DECIMALS)
    a[a == 0] = 0.0
    return a
