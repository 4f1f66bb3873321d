"""The collision outlines of a level's objects as shapely geometry, built once for all objects.

The validator and the hull generator both start here, so they agree on what
every object covers: a wall is the union of its capsules (round ends and
joints), a box and an oriented box are their rectangles, a pillar is its disc,
a tile grid is the union of its solid cells. Markers (points) and reference
images cover nothing and have no outline; nor has a tile grid without a solid
cell. Objects that are not solid (triggers, zones, routes) do have outlines:
they get hulls, and :attr:`LevelOutlines.solid` tells the collision checks to
leave them out.

Round parts cannot be exact polygons. Each round part is drawn with
``quad_segs`` vertices per quarter turn on a circle a little larger than the
real one (radius ``r * ROUND_GROWTH + ROUND_MARGIN``), so that every chord
lies outside the real arc: an outline always *contains* the exact shape and
lies at most ``r * (ROUND_GROWTH - 1) + ROUND_MARGIN`` (0.3 % of the radius
and a thousandth of a pixel) outside it. Two objects that
really touch therefore never look apart, and hulls built on outlines always
enclose the real shape. Straight edges (boxes, oriented boxes) are exact.

Everything is built with shapely's vectorised functions: one call per kind of
object for the whole level, so a level of 100,000 objects takes about a second.

>>> from level_editor.core.level.model import Level, Pillar
>>> o = level_outlines(Level(objects=[Pillar("p", (0, 0), 10)]))
>>> o.aabb[0].tolist()
[-10.0, -10.0, 10.0, 10.0]
>>> bool(o.outlines[0].covers(shapely.Point(10, 0)))
True
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import shapely

from level_editor.core.checks.painted import join_cells, painted_outline
from level_editor.core.level.collector import paused_collector
from level_editor.core.level.limits import MAX_COORDINATE, MAX_SIZE, MIN_SIZE
from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect
from level_editor.core.level.model import (
    EMPTY_CELL, SOLID_CELL, Box, Image, Level, OrientedBox, Pillar, Point, Sprite, Tiles, Wall,
)

__all__ = [
    "QUAD_SEGS",
    "ROUND_GROWTH",
    "ROUND_MARGIN",
    "WALL",
    "BOX",
    "ORIENTED_BOX",
    "PILLAR",
    "TILES",
    "LevelOutlines",
    "level_outlines",
    "has_solid_cells",
    "rotation_cos_sin_array",
    "Unfit",
    "Stopped",
]

#: Vertices per quarter turn on every round part (walls' ends and joints, pillars).
QUAD_SEGS = 16

#: Round parts are drawn on a circle this much larger than the real one, so the
#: polygon's chords stay outside the real arc: 1 / cos of half the widest chord's
#: angle. GEOS draws a joint's arc with a whole number of steps (the angle over the
#: step, rounded), so one chord can span 1.5 steps: half of it is 3 pi / (8 q).
ROUND_GROWTH = 1.0 / math.cos(3 * math.pi / (8 * QUAD_SEGS))

#: Round parts also keep this margin (px) outside the real arcs and sides, so that
#: hull points rounded to a thousandth of a pixel still enclose the exact shape.
ROUND_MARGIN = 0.001

#: Codes of :attr:`LevelOutlines.kinds`.
WALL, BOX, ORIENTED_BOX, PILLAR, TILES = 0, 1, 2, 3, 4
_WALL, _BOX, _OBOX, _PILLAR, _TILES = WALL, BOX, ORIENTED_BOX, PILLAR, TILES


def node_array(points) -> np.ndarray:
    """An (n, 2) float array of ``points`` (pairs of numbers), made in one pass.

    ``np.asarray`` over 300,000 tuples holds the interpreter lock for 0.2 to 0.3 s
    (the editor's window stops answering while its background check does it);
    ``np.fromiter`` over the flattened numbers holds it for under 20 ms.

    >>> node_array([(0, 1), (2.5, 3)]).tolist()
    [[0.0, 1.0], [2.5, 3.0]]
    """
    return np.fromiter(itertools.chain.from_iterable(points), float, 2 * len(points)).reshape(-1, 2)


@dataclass(frozen=True)
class Unfit:
    """An object the geometry code leaves out, and why: its numbers are not finite or beyond the limits.

    ``location`` is a point to show on the canvas, when the object has a usable one.
    """

    id: str
    message: str
    location: Optional[tuple] = None


@dataclass(frozen=True, eq=False)
class LevelOutlines:
    """The outline of every object that has one and the data derived from it, in level order.

    Index ``i`` of every array is the ``i``-th object *that has an outline*
    (:attr:`objects`), not the ``i``-th object of the level: markers, images,
    tile grids without solid cells and objects that are :attr:`unfit` are left out.

    Attributes
    ----------
    objects : tuple
        The objects that have an outline, in level order.
    ids : list of str
        Their ids.
    kinds : ndarray of int8
        :data:`WALL`, :data:`BOX`, :data:`ORIENTED_BOX`, :data:`PILLAR` or :data:`TILES` per object.
    solid : ndarray of bool
        Whether the object collides (only solid objects take part in the collision checks).
    shapes : ndarray of shapely.Polygon or None
        The outlines built so far: a wall's is built when first asked for (see
        :attr:`outlines` and :meth:`outlines_of`), since the checks and hulls
        work on its node chain and a wall of 100,000 nodes takes seconds to
        outline.
    aabb : ndarray, shape (n, 4)
        Exact axis-aligned bounds ``minx, miny, maxx, maxy`` of the exact shape.
    rounding : ndarray, shape (n,)
        The radius of the object's round parts (0 for boxes): the outline lies at
        most :attr:`slack` outside the exact shape.
    sites : ndarray of shapely.MultiPoint
        Points whose neighbourhood of radius ``rounding`` is exactly the convex
        hull of the object: a wall's nodes, a box's corners, a pillar's centre,
        the corners of a tile grid's convex hull. The smallest circle around an
        object is the one around its sites, grown by ``rounding``.
    wall_index : ndarray of int
        The index (into these arrays) of each wall, in level order.
    chains : ndarray of shapely.LineString
        Each wall's node chain (closed walls end on their first node), aligned
        with ``wall_index``.
    growth : float
        The factor round parts were drawn larger by (see :data:`ROUND_GROWTH`).
    unfit : tuple of Unfit
        The objects left out because the geometry code cannot handle their
        numbers (not finite, or beyond :mod:`level_editor.core.level.limits`), each with
        the reason in the designer's words. The validator reports them as
        errors; they get no hulls.
    """

    objects: tuple
    ids: list
    kinds: np.ndarray
    solid: np.ndarray
    shapes: np.ndarray
    aabb: np.ndarray
    rounding: np.ndarray
    sites: np.ndarray
    wall_index: np.ndarray
    chains: np.ndarray
    growth: float = ROUND_GROWTH
    quad_segs: int = QUAD_SEGS
    unfit: tuple = field(default=())

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def outlines(self) -> np.ndarray:
        """Each object's full collision outline (containing the exact shape), built on first use.

        A tile grid's is exact, and a MultiPolygon when its cells fall apart.
        """
        return self.outlines_of(np.arange(len(self)))

    def outlines_of(self, index) -> np.ndarray:
        """The outlines of the objects at ``index`` (an array of indices), building the walls' among them."""
        index = np.asarray(index, dtype=np.int64)
        missing = index[shapely.is_missing(self.shapes[index])]
        if len(missing):
            missing = np.unique(missing)
            walls = np.searchsorted(self.wall_index, missing)
            r = self.rounding[missing]
            self.shapes[missing] = shapely.buffer(self.chains[walls], r * self.growth + ROUND_MARGIN,
                                                  quad_segs=self.quad_segs)
        return self.shapes[index]

    @property
    def slack(self) -> np.ndarray:
        """How far each outline may reach beyond the exact shape, per object."""
        return np.where(self.rounding > 0, self.rounding * (self.growth - 1.0) + ROUND_MARGIN, 0.0)

    def solid_only(self) -> "LevelOutlines":
        """These outlines without the objects that do not collide (itself when all of them do).

        >>> from level_editor.core.level.model import Box, Level
        >>> o = level_outlines(Level(objects=[Box("a", (0, 0), (1, 1)), Box("zone", (5, 0), (1, 1), solid=False)]))
        >>> o.ids, o.solid_only().ids
        (['a', 'zone'], ['a'])
        """
        if self.solid.all():
            return self
        keep = np.flatnonzero(self.solid)
        walls = self.solid[self.wall_index]
        # Where each kept object lands in the new arrays, to renumber the walls.
        new_index = np.cumsum(self.solid) - 1
        return LevelOutlines(
            objects=tuple(self.objects[k] for k in keep.tolist()),
            ids=[self.ids[k] for k in keep.tolist()],
            kinds=self.kinds[keep],
            solid=self.solid[keep],
            shapes=self.shapes[keep],
            aabb=self.aabb[keep],
            rounding=self.rounding[keep],
            sites=self.sites[keep],
            wall_index=new_index[self.wall_index[walls]],
            chains=self.chains[walls],
            growth=self.growth,
            quad_segs=self.quad_segs,
            unfit=self.unfit,
        )


def rotation_cos_sin_array(degrees: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cosine and sine of rotations in degrees, exact for multiples of 90 (as in level_editor.core.collision.geometry)."""
    degrees = np.asarray(degrees, dtype=float)
    rad = np.radians(degrees)
    c, s = np.cos(rad), np.sin(rad)
    quarters, rest = np.divmod(degrees, 90.0)
    exact = rest == 0.0
    if exact.any():
        q = quarters[exact].astype(np.int64) % 4
        c[exact] = np.array([1.0, 0.0, -1.0, 0.0])[q]
        s[exact] = np.array([0.0, 1.0, 0.0, -1.0])[q]
    return c, s


class Stopped(Exception):
    """The caller of :func:`level_outlines` asked it to stop (its ``stop`` said True)."""


#: How many objects the Python loops of :func:`level_outlines` go through between two looks at ``stop``.
_STOP_EVERY = 4096


def _look(stop: Optional[Callable[[], bool]]) -> None:
    if stop is not None and stop():
        raise Stopped


def level_outlines(level: Level, quad_segs: int = QUAD_SEGS,
                   stop: Optional[Callable[[], bool]] = None) -> LevelOutlines:
    """Build the outlines of every object of ``level`` (see the module notes on round parts).

    Parameters
    ----------
    level : Level
        The level; its player plays no part here.
    quad_segs : int
        Vertices per quarter turn on round parts. The containment guarantee
        holds for any value; the default keeps outlines within 0.3 % of a
        radius of the exact shape.
    stop : callable, optional
        Asked every few thousand objects and between the steps; when it says True the build ends
        with :class:`Stopped` (a background check gives way to a save at once, not seconds later).
    """
    with paused_collector():
        return _level_outlines(level, quad_segs, stop)


def _level_outlines(level: Level, quad_segs: int, stop: Optional[Callable[[], bool]] = None) -> LevelOutlines:
    objects = tuple(obj for obj in level.objects if _has_outline(obj))
    unfit: dict[int, Unfit] = {}
    for i, obj in enumerate(objects):
        if not i % _STOP_EVERY:
            _look(stop)
        if isinstance(obj, Wall) and not obj.points:
            unfit[i] = Unfit(obj.id, "this wall has no nodes, so it has no shape to check; delete it")
        elif not isinstance(obj, (Wall, Box, OrientedBox, Pillar, Tiles, Sprite)):
            raise TypeError(f"not a level object with an outline: {type(obj).__name__}")
    data = _gather(tuple(obj for k, obj in enumerate(objects) if k not in unfit), stop)
    _look(stop)
    more = _unfit(data)
    if more:
        # Rare: build again without them, so every array below holds only sound numbers.
        kept = [k for k in range(len(objects)) if k not in unfit]
        for k, why in more.items():
            unfit[kept[k]] = why
        data = _gather(tuple(obj for k, obj in enumerate(objects) if k not in unfit), stop)
    _look(stop)
    return _build(data, quad_segs, tuple(unfit[k] for k in sorted(unfit)), stop)


@dataclass
class _Numbers:
    """The plain numbers of a level's objects, one pass in Python; everything after is vectorised."""

    objects: tuple
    kinds: np.ndarray
    wall_idx: list
    wall_pts: np.ndarray
    wall_owner: np.ndarray
    wall_r: np.ndarray
    box_idx: list
    box_vals: np.ndarray
    obox_idx: list
    obox_vals: np.ndarray
    pil_idx: list
    pil_vals: np.ndarray
    tile_idx: list
    tile_vals: np.ndarray


def _gather(objects: tuple, stop: Optional[Callable[[], bool]] = None) -> _Numbers:
    n = len(objects)
    kinds = np.empty(n, dtype=np.int8)
    wall_idx, wall_pts, wall_owner, wall_r = [], [], [], []
    box_idx, box_vals = [], []
    obox_idx, obox_vals = [], []
    pil_idx, pil_vals = [], []
    tile_idx, tile_vals = [], []
    for i, obj in enumerate(objects):
        if not i % _STOP_EVERY:
            _look(stop)
        if isinstance(obj, Wall):
            kinds[i] = _WALL
            k = len(wall_idx)
            wall_idx.append(i)
            wall_r.append(obj.thickness / 2)
            pts = obj.points
            if len(pts) == 1:
                pts = pts * 2  # a lone node collides as a disc
            wall_pts.extend(pts)
            wall_owner.extend([k] * len(pts))
            if obj.closed and len(pts) > 2:
                wall_pts.append(pts[0])
                wall_owner.append(k)
        elif isinstance(obj, Box):
            kinds[i] = _BOX
            box_idx.append(i)
            box_vals.append((obj.origin.x, obj.origin.y, obj.size.x, obj.size.y))
        elif isinstance(obj, OrientedBox):
            kinds[i] = _OBOX
            obox_idx.append(i)
            obox_vals.append((obj.center.x, obj.center.y, obj.half_extents.x, obj.half_extents.y, obj.rotation))
        elif isinstance(obj, Pillar):
            kinds[i] = _PILLAR
            pil_idx.append(i)
            pil_vals.append((obj.center.x, obj.center.y, obj.radius))
        elif isinstance(obj, Sprite):  # art that collides: its collision shapes, as a painted grid's
            kinds[i] = _TILES
            tile_idx.append(i)
            tile_vals.append((obj.center.x, obj.center.y, max(obj.size.x, obj.size.y), 1, 1))
        else:
            kinds[i] = _TILES
            tile_idx.append(i)
            width = max(len(row) for row in obj.cells)
            tile_vals.append((obj.origin.x, obj.origin.y, obj.cell, width, len(obj.cells)))
    return _Numbers(
        objects, kinds,
        wall_idx, node_array(wall_pts), np.asarray(wall_owner, dtype=np.int64),
        np.asarray(wall_r, dtype=float),
        box_idx, np.asarray(box_vals, dtype=float).reshape(-1, 4),
        obox_idx, np.asarray(obox_vals, dtype=float).reshape(-1, 5),
        pil_idx, np.asarray(pil_vals, dtype=float).reshape(-1, 3),
        tile_idx, np.asarray(tile_vals, dtype=float).reshape(-1, 5))


#: What each number of each kind is called in a message, and whether it is a place or a size.
_PLACE, _SIZE, _ANGLE = "place", "size", "angle"
_FIELDS = {
    "box": (("origin x", _PLACE), ("origin y", _PLACE), ("width", _SIZE), ("height", _SIZE)),
    "obox": (("centre x", _PLACE), ("centre y", _PLACE), ("half width", _SIZE), ("half height", _SIZE),
             ("rotation", _ANGLE)),
    "pillar": (("centre x", _PLACE), ("centre y", _PLACE), ("radius", _SIZE)),
    "tiles": (("origin x", _PLACE), ("origin y", _PLACE), ("cell size", _SIZE)),
}


def _unfit(d: _Numbers) -> dict[int, Unfit]:
    """The objects whose numbers the geometry code cannot take: not finite, or beyond the documented limits.

    Vectorised per kind; messages are written only for the objects that fail.
    """
    found: dict[int, Unfit] = {}
    if len(d.wall_idx):
        bad_pt = ~np.isfinite(d.wall_pts).all(axis=1) | (np.abs(d.wall_pts) > MAX_COORDINATE).any(axis=1)
        bad_wall = np.bincount(d.wall_owner[bad_pt], minlength=len(d.wall_idx)) > 0
        bad_r = ~np.isfinite(d.wall_r) | (d.wall_r < 0) | (2 * d.wall_r > MAX_SIZE)
        for k in np.flatnonzero(bad_wall | bad_r).tolist():
            obj = d.objects[d.wall_idx[k]]
            if bad_r[k]:
                found[d.wall_idx[k]] = Unfit(obj.id, _size_message("thickness", obj.thickness))
                continue
            node = next(m for m, p in enumerate(obj.points)
                        if not (math.isfinite(p.x) and math.isfinite(p.y))
                        or max(abs(p.x), abs(p.y)) > MAX_COORDINATE)
            p = obj.points[node]
            found[d.wall_idx[k]] = Unfit(obj.id, _place_message(f"node {node + 1}", (p.x, p.y)))
    for name, idx, vals in (("box", d.box_idx, d.box_vals), ("obox", d.obox_idx, d.obox_vals),
                            ("pillar", d.pil_idx, d.pil_vals), ("tiles", d.tile_idx, d.tile_vals[:, :3])):
        if not len(idx):
            continue
        fields = _FIELDS[name]
        bad = np.zeros(vals.shape, dtype=bool)
        for c, (_, what) in enumerate(fields):
            v = vals[:, c]
            if what == _PLACE:
                bad[:, c] = ~np.isfinite(v) | (np.abs(v) > MAX_COORDINATE)
            elif what == _SIZE:
                bad[:, c] = ~np.isfinite(v) | (v < 0) | (v > MAX_SIZE)
            else:
                bad[:, c] = ~np.isfinite(v)
        if name == "tiles":
            # The whole grid must stay within the largest size, or its far corner runs off the limits.
            # A cell beyond the sizes is an error of its own (above); clipped first, the span of a
            # cell near the largest float is not multiplied into an overflow.
            span = np.clip(d.tile_vals[:, 2], 0.0, MAX_SIZE) * np.maximum(d.tile_vals[:, 3], d.tile_vals[:, 4])
            bad[:, 2] |= ~(span <= MAX_SIZE) | ~(d.tile_vals[:, 2] >= MIN_SIZE)
        for k in np.flatnonzero(bad.any(axis=1)).tolist():
            c = int(np.flatnonzero(bad[k])[0])
            label, what = fields[c]
            obj = d.objects[idx[k]]
            value = float(vals[k, c])
            if name == "tiles" and c == 2 and math.isfinite(value) and 0 < value <= MAX_SIZE:
                message = (f"this tile grid spans {_show(value * max(obj.columns, obj.rows))} px, more than the "
                           f"largest size the tools accept ({_show(MAX_SIZE)} px); use a smaller cell size")
            elif name == "tiles" and c == 2 and 0 <= value < MIN_SIZE:
                message = (f"its cell size ({value:g} px) is smaller than the smallest size the tools accept "
                           f"({MIN_SIZE:g} px); give the grid a larger cell size")
            elif what == _PLACE:
                message = _place_message(label, None, value)
            elif what == _SIZE:
                message = _size_message(label, value)
            else:
                message = f"its {label} is {_show(value)}, not a number of degrees"
            found[idx[k]] = Unfit(obj.id, message)
    return found


def _show(v: float) -> str:
    if not math.isfinite(v):
        return "not a number" if math.isnan(v) else ("infinite" if v > 0 else "minus infinite")
    return f"{v:,.0f}" if abs(v) >= 1 else f"{v:g}"


def _place_message(label: str, point: Optional[tuple], value: Optional[float] = None) -> str:
    values = point if point is not None else (value,)
    if not all(math.isfinite(v) for v in values):
        shown = ", ".join(_show(v) for v in values)
        return f"its {label} is not a finite number ({shown}); move it back into the level"
    shown = ", ".join(_show(v) for v in values)
    return (f"its {label} ({shown}) lies beyond the largest coordinate the tools accept "
            f"(±{_show(MAX_COORDINATE)} px); move it back into the level")


def _size_message(label: str, value: float) -> str:
    if not math.isfinite(value):
        return f"its {label} is {_show(value)}; give it a size between 0 and {_show(MAX_SIZE)} px"
    if value < 0:
        return f"its {label} is negative ({_show(value)}); give it a size between 0 and {_show(MAX_SIZE)} px"
    return (f"its {label} ({_show(value)} px) is larger than the largest size the tools accept "
            f"({_show(MAX_SIZE)} px)")


def _build(d: _Numbers, quad_segs: int, unfit: tuple, stop: Optional[Callable[[], bool]] = None) -> LevelOutlines:
    growth = 1.0 / math.cos(3 * math.pi / (8 * quad_segs))
    objects = d.objects
    n = len(objects)
    ids = [obj.id for obj in objects]
    kinds = d.kinds
    solid = np.fromiter((obj.solid for obj in objects), dtype=bool, count=n)

    outlines = np.full(n, None, dtype=object)
    sites = np.empty(n, dtype=object)
    aabb = np.zeros((n, 4))
    rounding = np.zeros(n)
    chains = np.empty(len(d.wall_idx), dtype=object)

    if d.wall_idx:
        idx = np.asarray(d.wall_idx)
        pts, owner, r = d.wall_pts, d.wall_owner, d.wall_r
        chains[:] = shapely.linestrings(pts, indices=owner)
        # A wall's outline (the buffer of its chain) is built when first asked for: see LevelOutlines.outlines_of.
        sites[idx] = shapely.multipoints(pts, indices=owner)
        rounding[idx] = r
        lo_x = np.full(len(idx), np.inf)
        lo_y = np.full(len(idx), np.inf)
        hi_x = np.full(len(idx), -np.inf)
        hi_y = np.full(len(idx), -np.inf)
        np.minimum.at(lo_x, owner, pts[:, 0])
        np.minimum.at(lo_y, owner, pts[:, 1])
        np.maximum.at(hi_x, owner, pts[:, 0])
        np.maximum.at(hi_y, owner, pts[:, 1])
        aabb[idx] = np.stack([lo_x - r, lo_y - r, hi_x + r, hi_y + r], axis=1)

    _look(stop)
    if d.box_idx:
        idx = np.asarray(d.box_idx)
        v = d.box_vals
        x0, y0, x1, y1 = v[:, 0], v[:, 1], v[:, 0] + v[:, 2], v[:, 1] + v[:, 3]
        outlines[idx] = shapely.box(x0, y0, x1, y1)
        corners = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1),
                            np.stack([x1, y1], 1), np.stack([x0, y1], 1)], axis=1)
        sites[idx] = shapely.multipoints(corners)
        aabb[idx] = np.stack([x0, y0, x1, y1], axis=1)

    _look(stop)
    if d.obox_idx:
        idx = np.asarray(d.obox_idx)
        v = d.obox_vals
        cx, cy, hx, hy = v[:, 0], v[:, 1], v[:, 2], v[:, 3]
        c, s = rotation_cos_sin_array(v[:, 4])
        # Local x axis (c, s), local y axis (-s, c); corners in order around the box.
        ex_x, ex_y = c * hx, s * hx
        ey_x, ey_y = -s * hy, c * hy
        corners = np.stack([
            np.stack([cx - ex_x - ey_x, cy - ex_y - ey_y], 1),
            np.stack([cx + ex_x - ey_x, cy + ex_y - ey_y], 1),
            np.stack([cx + ex_x + ey_x, cy + ex_y + ey_y], 1),
            np.stack([cx - ex_x + ey_x, cy - ex_y + ey_y], 1),
        ], axis=1)
        outlines[idx] = shapely.polygons(corners)
        sites[idx] = shapely.multipoints(corners)
        aabb[idx] = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)

    _look(stop)
    if d.pil_idx:
        idx = np.asarray(d.pil_idx)
        v = d.pil_vals
        centres = shapely.points(v[:, 0], v[:, 1])
        outlines[idx] = shapely.buffer(centres, v[:, 2] * growth + ROUND_MARGIN, quad_segs=quad_segs)
        sites[idx] = shapely.multipoints(v[:, None, :2])
        rounding[idx] = v[:, 2]
        aabb[idx] = np.stack([v[:, 0] - v[:, 2], v[:, 1] - v[:, 2], v[:, 0] + v[:, 2], v[:, 1] + v[:, 2]], axis=1)

    _look(stop)
    if d.tile_idx:
        idx = np.asarray(d.tile_idx)
        outlines[idx] = [_tile_outline(objects[i]) for i in d.tile_idx]
        hull_rings = shapely.get_exterior_ring(shapely.convex_hull(outlines[idx]))
        corners, owner = shapely.get_coordinates(hull_rings, return_index=True)
        last = np.r_[owner[1:] != owner[:-1], True]
        corners, owner = corners[~last], owner[~last]  # each ring's closing point repeats its first
        sites[idx] = shapely.multipoints(corners, indices=owner)
        aabb[idx] = shapely.bounds(outlines[idx])

    return LevelOutlines(
        objects=objects,
        ids=ids,
        kinds=kinds,
        solid=solid,
        shapes=outlines,
        aabb=aabb,
        rounding=rounding,
        sites=sites,
        wall_index=np.asarray(d.wall_idx, dtype=np.int64),
        chains=chains,
        growth=growth,
        quad_segs=quad_segs,
        unfit=unfit,
    )


def _has_outline(obj) -> bool:
    """Whether ``obj`` covers any ground: markers and images do not, nor does a tile grid without solid cells, nor
    art without collision shapes (a painted grid whose tiles have none, a sprite that is not solid)."""
    if isinstance(obj, Tiles):
        return bool(obj.collision_shapes()) if obj.tileset else has_solid_cells(obj)
    if isinstance(obj, Sprite):
        return bool(obj.collision_shapes())
    return not isinstance(obj, (Point, Image))


def is_art(obj) -> bool:
    """Whether ``obj`` collides through art's collision shapes (a painted grid, a sprite), not plain cells."""
    return isinstance(obj, Sprite) or (isinstance(obj, Tiles) and bool(obj.tileset))


def shape_polygons(obj, quad_segs: int = QUAD_SEGS) -> list:
    """The shapely polygons of an art object's collision shapes (round parts grown to contain the exact shape),
    and the areas its polygons enclose: a polygon collides by its sides, but inside a slope is no free space."""
    return polygons_of(obj.collision_shapes(), obj.enclosed_polygons(), quad_segs)


def polygons_of(shapes, enclosed, quad_segs: int = QUAD_SEGS) -> list:
    """Collision shapes and enclosed areas (lists of corners) as shapely polygons, as :func:`shape_polygons`
    makes them: each kind made for all its shapes at once (a painted grid has a shape per cell), in their order."""
    growth = 1.0 / math.cos(3 * math.pi / (8 * quad_segs))
    rects, oriented, circles, capsules = [], [], [], []
    for k, s in enumerate(shapes):
        cls = s.__class__
        if cls is Rect:
            rects.append((k, s.origin.x, s.origin.y, s.origin.x + s.size.x, s.origin.y + s.size.y))
        elif cls is Capsule:
            capsules.append((k, s.a.x, s.a.y, s.b.x, s.b.y, s.radius))
        elif cls is Circle:
            circles.append((k, s.center.x, s.center.y, s.radius))
        elif cls is OrientedRect:
            oriented.append((k, [(p.x, p.y) for p in s.corners()]))
    out = np.full(len(shapes), None, dtype=object)
    if rects:
        v = np.array(rects, dtype=float)
        out[v[:, 0].astype(np.int64)] = shapely.box(v[:, 1], v[:, 2], v[:, 3], v[:, 4])
    if capsules:
        v = np.array(capsules, dtype=float)
        lines = shapely.linestrings(v[:, 1:5].reshape(-1, 2, 2))
        out[v[:, 0].astype(np.int64)] = shapely.buffer(lines, v[:, 5] * growth + ROUND_MARGIN, quad_segs=quad_segs)
    if circles:
        v = np.array(circles, dtype=float)
        out[v[:, 0].astype(np.int64)] = shapely.buffer(shapely.points(v[:, 1:3]), v[:, 3] * growth + ROUND_MARGIN,
                                                       quad_segs=quad_segs)
    for k, corners in oriented:
        out[k] = shapely.Polygon(corners)
    out = [g for g in out.tolist() if g is not None]
    if enclosed:
        sizes = [len(corners) for corners in enclosed]
        xy = np.array([p for corners in enclosed for p in corners], dtype=float).reshape(-1, 2)
        areas = shapely.polygons(shapely.linearrings(xy, indices=np.repeat(np.arange(len(sizes)), sizes)))
        bad = ~shapely.is_valid(areas)
        if bad.any():
            areas[bad] = shapely.make_valid(areas[bad])
        out.extend(areas.tolist())
    return out


def has_solid_cells(tiles: Tiles) -> bool:
    """Whether any cell of the grid is solid.

    >>> has_solid_cells(Tiles("t", (0, 0), 16, ("..", ".#"))), has_solid_cells(Tiles("t", (0, 0), 16, ("..",)))
    (True, False)
    """
    return any(SOLID_CELL in row for row in tiles.cells)


def _tile_outline(tiles):
    """The union of a grid's solid cells, exact: one square per cell, joined by shapely's coverage union.

    Neighbouring squares share their corners exactly (each is computed from
    whole cell numbers), so the squares form a valid coverage and GEOS joins
    them along the shared edges without any overlay: two to six times faster
    than ``union_all`` of the grid's merged rectangles (whose T-junctions are
    no valid coverage). They are joined block by block (:func:`join_cells`): one coverage union of a
    500 x 500 grid of noise took 3.5 s, by blocks it takes 0.8 s. A painted grid: the union of its
    collision shapes, cell by cell as exact (:mod:`level_editor.core.checks.painted`); a sprite: the union of its
    collision shapes.
    """
    if isinstance(tiles, Tiles) and tiles.painted:
        outline = painted_outline(tiles, polygons_of)
        if outline is not None:
            return outline
    if is_art(tiles):
        return shapely.union_all(shape_polygons(tiles))
    width = max(len(row) for row in tiles.cells)
    text = "".join(row.ljust(width, EMPTY_CELL) for row in tiles.cells).encode("ascii", "replace")
    grid = np.frombuffer(text, dtype=np.uint8).reshape(len(tiles.cells), width) == ord(SOLID_CELL)
    rows, cols = np.nonzero(grid)
    ox, oy, c = tiles.origin.x, tiles.origin.y, tiles.cell
    cells = shapely.box(ox + cols * c, oy + rows * c, ox + (cols + 1) * c, oy + (rows + 1) * c)
    return cells[0] if len(cells) == 1 else join_cells(cells, rows, cols, ox, oy, c)
