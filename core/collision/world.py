"""The static world a play-test runs in: colliders, as the player sees them, areas, and a broad phase.

Built once per play-test (the geometry does not move while playing). Each
collision shape of a *solid* object becomes a :class:`Collider` holding its
configuration obstacle for the player's body (:func:`core.collision.sweep.
configuration_obstacle`): the region the player's *centre* must stay out of.
With those precomputed, the character controller only ever moves a point
among rounded convex polygons, with plain floats in its inner loops.

The shapes of objects that are not solid (a trigger box, a zone, a non-solid
tile grid) become :class:`Area` records instead, with a broad phase of their
own: they never collide, but :meth:`World.areas_at` says which of them the
player's body overlaps (Box2D calls these sensors). Markers and images have
no shapes, so they are neither. Hidden and locked layers change nothing here:
those are editing states.

>>> from core.collision.shapes import Circle, Rect, Vec2
>>> world = World([Rect(Vec2(0, 0), Vec2(10, 10))], Circle(Vec2(0, 0), 2))
>>> [c.index for c in world.near(11, 5, 11, 5)]
[0]
>>> world.colliders[0].obstacle.gap(15.0, 5.0)[0]
3.0
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Union

from core.collision.broadphase import BroadPhase
from core.collision.overlap import overlaps
from core.collision.rounded import RoundedPolygon
from core.collision.shapes import Circle, Line, Rect, Shape, Vec2
from core.collision.sweep import configuration_obstacle, core_of

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
        self.colliders = tuple(
            Collider(i, ids[i], s, configuration_obstacle(body, s)) for i, s in enumerate(shapes))
        self.obstacles = tuple(c.obstacle for c in self.colliders)
        self.broadphase = BroadPhase([_shape_bounds(s) for s in shapes])

    @classmethod
    def from_level(cls, level, body: Optional[Union[Circle, Rect]] = None) -> "World":
        """The world of a :class:`core.level.model.Level` for its player (or ``body``).

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
        """Indices of colliders the body could touch with its centre in the box."""
        hx, hy = self.half_extents
        return self.broadphase.query(minx - hx, miny - hy, maxx + hx, maxy + hy)

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

        Touching counts, as in :func:`core.collision.overlap.overlaps`. Ids
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
