"""The static world a play-test runs in: colliders, as the player sees them, areas, and a broad phase.

Built once per play-test (the geometry does not move while playing). Each
collision shape of a *solid* object becomes a :class:`Collider` holding its
configuration obstacle for the player's body (:func:`level_editor.core.collision.sweep.
configuration_obstacle`): the region the player's *centre* must stay out of.
The character controller only ever moves a point among these rounded convex
polygons, with plain floats in its inner loops.

Starting a play-test on a big level must be quick, and a player meets only a
few of its objects: the build computes each obstacle's bounds (plain floats,
a hair wider than exact) and files them in a :class:`~level_editor.core.collision.
broadphase.CellGrid`; the obstacle itself (and its :class:`Collider`) is made
the first time anything asks for it, and kept. :attr:`World.colliders` and
:attr:`World.obstacles` read as tuples.

The shapes of objects that are not solid (a trigger box, a zone, a non-solid
tile grid) become :class:`Area` records instead, with a broad phase of their
own: they never collide, but :meth:`World.areas_at` says which of them the
player's body overlaps (Box2D calls these sensors). Markers and images have
no shapes, so they are neither. Hidden and locked layers change nothing here:
those are editing states.

>>> from level_editor.core.collision.shapes import Circle, Rect, Vec2
>>> world = World([Rect(Vec2(0, 0), Vec2(10, 10))], Circle(Vec2(0, 0), 2))
>>> [c.index for c in world.near(11, 5, 11, 5)]
[0]
>>> world.colliders[0].obstacle.gap(15.0, 5.0)[0]
3.0
"""
from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional, Union

from level_editor.core.collision.broadphase import BroadPhase, CellGrid
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.rounded import RoundedPolygon
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Shape, Vec2
from level_editor.core.collision.sweep import configuration_obstacle, core_of

__all__ = ["Collider", "Area", "World"]


@dataclass(frozen=True, eq=False)
class Collider:
    """One static collision shape of the level.

    ``index`` is its position in :attr:`World.colliders`, ``object_id`` the
    level object it belongs to (a wall gives one collider per segment),
    ``shape`` the shape itself and ``obstacle`` the region the player's
    centre must stay out of.
    """

    index: int
    object_id: str
    shape: Shape
    obstacle: RoundedPolygon


@dataclass(frozen=True, eq=False)
class Area:
    """One collision shape of an object that is not solid: the player passes through it.

    ``index`` is its position in :attr:`World.areas` (areas are in level
    object order), ``object_id`` the level object it belongs to (a non-solid
    tile grid gives one area per merged rectangle) and ``shape`` the shape.
    """

    index: int
    object_id: str
    shape: Shape


def _shape_bounds(shape) -> tuple[float, float, float, float]:
    pts, r = core_of(shape)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r


def _core_extent(shape):
    """``(minx, miny, maxx, maxy, radius, segment)`` of a shape's convex core, cheaply.

    ``segment`` is ``(ax, ay, bx, by, half_width)``: a segment the core lies
    within ``half_width`` of (its long axis), or None. Only a superset of the
    configuration obstacle's bounds is needed (the broad phase's cells), so an
    oriented box may use ``math.cos`` instead of the exact quarter turns.
    """
    kind = type(shape)
    if kind is Capsule:
        a, b = shape.a, shape.b
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by), shape.radius, (ax, ay, bx, by, 0.0))
    if kind is Rect:
        x0, y0 = shape.origin
        w, h = shape.size
        x1, y1 = x0 + w, y0 + h
        if w >= h:
            cy = y0 + 0.5 * h
            seg = (x0, cy, x1, cy, 0.5 * h)
        else:
            cx = x0 + 0.5 * w
            seg = (cx, y0, cx, y1, 0.5 * w)
        return (x0, y0, x1, y1, 0.0, seg)
    if kind is Circle:
        c = shape.center
        return (c.x, c.y, c.x, c.y, shape.radius, None)
    if kind is OrientedRect:
        cx, cy = shape.center
        hx, hy = shape.half_extents
        a = math.radians(shape.rotation)
        c, s = abs(math.cos(a)), abs(math.sin(a))
        ex, ey = c * hx + s * hy, s * hx + c * hy
        if hx >= hy:
            ux, uy = math.cos(a) * hx, math.sin(a) * hx
            half = hy
        else:
            ux, uy = -math.sin(a) * hy, math.cos(a) * hy
            half = hx
        return (cx - ex, cy - ey, cx + ex, cy + ey, 0.0, (cx - ux, cy - uy, cx + ux, cy + uy, half))
    pts, r = core_of(shape)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys), r, None)


def _cell_size(extents: list) -> float:
    """A power of two at least twice the median extent of the grown boxes: most sit in one cell, the rest in two or four."""
    if not extents:
        return 64.0
    median = sorted(extents)[len(extents) // 2]
    if not median > 0.0:
        median = 1.0
    return min(max(2.0 ** math.ceil(math.log2(median * 2)), 1.0 / 16.0), float(2 ** 40))


class _Lazy(Sequence):
    """A read-only sequence whose items are made on first reading (and kept)."""

    __slots__ = ("_items", "_make")

    def __init__(self, items: list, make):
        self._items = items
        self._make = make

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self._items)))]
        item = self._items[i]
        if item is None:
            item = self._make(i if i >= 0 else i + len(self._items))
        return item

    def __eq__(self, other) -> bool:
        if isinstance(other, (tuple, list, _Lazy)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"({', '.join(repr(x) for x in self)})"


class World:
    """Static colliders for one player body, with a broad phase over them.

    Parameters
    ----------
    shapes : sequence of bounded shapes
        The level's collision shapes (``Level.collision_shapes()``).
    body : Circle or Rect
        The player's body centred on the origin.
    object_ids : sequence of str, optional
        The level object each shape belongs to (same length as ``shapes``).
    areas : sequence of (object id, shape), optional
        Shapes the player passes through, in level object order
        (:meth:`areas_at` reports them); they never collide.
    """

    def __init__(self, shapes: Sequence[Shape], body: Union[Circle, Rect],
                 object_ids: Optional[Sequence[str]] = None,
                 areas: Sequence[tuple[str, Shape]] = ()):
        if not isinstance(body, (Circle, Rect)):
            raise TypeError(f"the player's body must be a Circle or a Rect, not {type(body).__name__}")
        shapes = tuple(shapes)
        ids = tuple(object_ids) if object_ids is not None else tuple("" for _ in shapes)
        if len(ids) != len(shapes):
            raise ValueError(f"{len(shapes)} shapes but {len(ids)} object ids")
        for i, s in enumerate(shapes):
            if isinstance(s, Line):
                raise TypeError(f"shape {i} is an infinite Line; a level only holds bounded shapes")
        self.areas = tuple(Area(i, object_id, s) for i, (object_id, s) in enumerate(areas))
        for a in self.areas:
            if isinstance(a.shape, Line):
                raise TypeError(f"area {a.index} ({a.object_id}) is an infinite Line; a level only holds "
                                "bounded shapes")
        # Areas get a grid of their own, so that the mover's queries never see them
        # and a level without areas pays nothing for them.
        self._area_grid = BroadPhase([_shape_bounds(a.shape) for a in self.areas]) if self.areas else None
        self.body = body
        bpts, br = core_of(body)
        #: How far the body reaches from its centre along x and y.
        self.half_extents = (max(abs(p[0]) for p in bpts) + br, max(abs(p[1]) for p in bpts) + br)
        #: The level object of each collider (a wall gives one collider per segment).
        self.object_ids = ids
        self._shapes = shapes
        # Configuration obstacles are made on first meeting (most of a big level's
        # never are): the mover reads this list and calls obstacle() on a None.
        self._obstacles: list = [None] * len(shapes)
        self._colliders: list = [None] * len(shapes)
        #: The same list, for the mover's inner loops (None where not made yet).
        self.obstacle_list = self._obstacles
        self.obstacles = _Lazy(self._obstacles, self.obstacle)
        #: The mover's memo of the last centre it looked around (see level_editor.core.collision.mover).
        self.memo = None
        self.colliders = _Lazy(self._colliders, self._collider)
        self.grid = self._build_grid(shapes, bpts, br)

    def _build_grid(self, shapes, body_points, body_radius) -> CellGrid:
        """The cells of every collider's configuration obstacle, from bounds a hair wider than its own.

        One pass over the shapes with plain floats (this is most of a play-test's
        start on a big level); the obstacles themselves are not made here.
        """
        mx0 = min(p[0] for p in body_points)
        mx1 = max(p[0] for p in body_points)
        my0 = min(p[1] for p in body_points)
        my1 = max(p[1] for p in body_points)
        mcx, mcy = 0.5 * (mx0 + mx1), 0.5 * (my0 + my1)
        mhx, mhy = 0.5 * (mx1 - mx0), 0.5 * (my1 - my0)
        # The obstacle of a core [x0, x1] with radius r is [x0 - mx1 - r - br, x1 - mx0 + r + br].
        lo_x, lo_y = mx1 + body_radius, my1 + body_radius
        hi_x, hi_y = body_radius - mx0, body_radius - my0
        grow_x, grow_y = body_radius + mhx, body_radius + mhy
        xs0, ys0, xs1, ys1 = [], [], [], []
        add_x0, add_y0, add_x1, add_y1 = xs0.append, ys0.append, xs1.append, ys1.append
        for shape in shapes:
            if type(shape) is Capsule:
                a, b = shape.a, shape.b
                ax, ay, bx, by = a.x, a.y, b.x, b.y
                r = shape.radius
                if ax < bx:
                    add_x0(ax - lo_x - r)
                    add_x1(bx + hi_x + r)
                else:
                    add_x0(bx - lo_x - r)
                    add_x1(ax + hi_x + r)
                if ay < by:
                    add_y0(ay - lo_y - r)
                    add_y1(by + hi_y + r)
                else:
                    add_y0(by - lo_y - r)
                    add_y1(ay + hi_y + r)
                continue
            x0, y0, x1, y1, r, _ = _core_extent(shape)
            add_x0(x0 - lo_x - r)
            add_y0(y0 - lo_y - r)
            add_x1(x1 + hi_x + r)
            add_y1(y1 + hi_y + r)

        def segment(i):
            """The segment obstacle ``i`` lies along, for the few that cover many cells."""
            seg = _core_extent(shapes[i])
            if seg[5] is None:
                return None
            ax, ay, bx, by, half = seg[5]
            r = seg[4]
            return (ax - mcx, ay - mcy, bx - mcx, by - mcy, half + r + grow_x, half + r + grow_y)

        isfinite = math.isfinite
        if not (all(map(isfinite, xs0)) and all(map(isfinite, ys0)) and all(map(isfinite, xs1))
                and all(map(isfinite, ys1))):
            i = next(i for i in range(len(xs0)) if not all(map(isfinite, (xs0[i], ys0[i], xs1[i], ys1[i]))))
            raise ValueError(f"collider {i} has non-finite bounds {_shape_bounds(shapes[i])}")
        # Rounding in the Minkowski sum, the corners and the hull is far below this.
        scale = max(map(abs, xs0 + ys0 + xs1 + ys1), default=0.0)
        margin = 1e-9 * (scale + 1.0)
        extents = list(map(max, map(operator.sub, xs1, xs0), map(operator.sub, ys1, ys0)))
        return CellGrid.of_columns(xs0, ys0, xs1, ys1, _cell_size(extents), segment, margin)

    def obstacle(self, i: int) -> RoundedPolygon:
        """Collider ``i``'s configuration obstacle, made on first asking."""
        ob = self._obstacles[i]
        if ob is None:
            ob = self._obstacles[i] = configuration_obstacle(self.body, self._shapes[i])
        return ob

    def _collider(self, i: int) -> Collider:
        c = self._colliders[i]
        if c is None:
            c = self._colliders[i] = Collider(i, self.object_ids[i], self._shapes[i], self.obstacle(i))
        return c

    @classmethod
    def from_level(cls, level, body: Optional[Union[Circle, Rect]] = None) -> "World":
        """The world of a :class:`level_editor.core.level.model.Level` for its player (or ``body``).

        Solid objects collide (a tile grid as its merged rectangles, so a run
        of cells is one flat surface); objects that are not solid become
        areas; markers and images have no shapes and are neither. The
        examples are in tests/core/collision/test_world.py, since this room
        does not import the level model.
        """
        if body is None:
            body = level.player.body_at((0.0, 0.0))
        shapes, ids, areas = [], [], []
        for obj in level.objects:
            if obj.solid:
                for s in obj.collision_shapes():
                    shapes.append(s)
                    ids.append(obj.id)
            else:
                areas.extend((obj.id, s) for s in obj.collision_shapes())
        return cls(shapes, body, ids, areas)

    def __len__(self) -> int:
        return len(self.colliders)

    def near_indices(self, minx: float, miny: float, maxx: float, maxy: float) -> list[int]:
        """Indices of colliders the body could touch with its centre in the box, in increasing order.

        Every collider whose configuration obstacle reaches into the box
        (touching counts), among those whose obstacle's bounds overlap it: a
        long diagonal wall whose bounding box meets the box far from the wall
        may be left out. Their obstacles are made if they were not yet.
        """
        obstacle = self.obstacle
        found = []
        for i in sorted(self.grid.box(minx, miny, maxx, maxy)):
            b = obstacle(i).bounds
            if b[0] <= maxx and minx <= b[2] and b[1] <= maxy and miny <= b[3]:
                found.append(i)
        return found

    def near(self, minx: float, miny: float, maxx: float, maxy: float) -> list[Collider]:
        """The colliders the body could touch with its centre in the box, by index."""
        cs = self.colliders
        return [cs[i] for i in self.near_indices(minx, miny, maxx, maxy)]

    def body_at(self, x: float, y: float) -> Union[Circle, Rect]:
        """The player's body with its centre at ``(x, y)``.

        >>> World([], Rect(Vec2(-2, -1), Vec2(4, 2))).body_at(10, 0)
        Rect(origin=Vec2(x=8.0, y=-1.0), size=Vec2(x=4.0, y=2.0))
        """
        b = self.body
        if type(b) is Circle:
            return Circle(Vec2(x + b.center.x, y + b.center.y), b.radius)
        return Rect(Vec2(x + b.origin.x, y + b.origin.y), b.size)

    def areas_at(self, x: float, y: float) -> tuple[str, ...]:
        """The object ids of the areas the body overlaps with its centre at ``(x, y)``.

        Touching counts, as in :func:`level_editor.core.collision.overlap.overlaps`. Ids
        come in level object order, each once (however many of its shapes
        the body overlaps). Only areas near the body are tested, through
        their own broad phase; without areas this returns at once.

        Examples
        --------
        >>> world = World([], Circle(Vec2(0, 0), 2), areas=[("zone", Rect(Vec2(0, 0), Vec2(10, 10)))])
        >>> world.areas_at(5, 5), world.areas_at(-2, 5), world.areas_at(-2.5, 5)
        (('zone',), ('zone',), ())
        """
        grid = self._area_grid
        if grid is None:
            return ()
        hx, hy = self.half_extents
        # A hair wider than the body, so that rounding in the bounds never hides
        # a shape the exact overlap test would call touching.
        m = 1e-9 * (abs(x) + abs(y) + hx + hy + 1.0)
        found = grid.query(x - hx - m, y - hy - m, x + hx + m, y + hy + m)
        if not found:
            return ()
        body = self.body_at(x, y)
        areas = self.areas
        ids: dict[str, None] = {}
        for i in found:
            a = areas[i]
            if a.object_id not in ids and overlaps(body, a.shape):
                ids[a.object_id] = None
        return tuple(ids)
