"""The static world a play-test runs in: colliders, as the player sees them, and a broad phase.

Built once per play-test (the geometry does not move while playing). Each
collision shape of the level becomes a :class:`Collider` holding its
configuration obstacle for the player's body (:func:`core.collision.sweep.
configuration_obstacle`): the region the player's *centre* must stay out of.
With those precomputed, the character controller only ever moves a point
among rounded convex polygons, with plain floats in its inner loops.

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
from core.collision.rounded import RoundedPolygon
from core.collision.shapes import Circle, Line, Rect, Shape
from core.collision.sweep import configuration_obstacle, core_of

__all__ = ["Collider", "World"]


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
    """

    def __init__(self, shapes: Sequence[Shape], body: Union[Circle, Rect],
                 object_ids: Optional[Sequence[str]] = None):
        if not isinstance(body, (Circle, Rect)):
            raise TypeError(f"the player's body must be a Circle or a Rect, not {type(body).__name__}")
        shapes = tuple(shapes)
        ids = tuple(object_ids) if object_ids is not None else tuple("" for _ in shapes)
        if len(ids) != len(shapes):
            raise ValueError(f"{len(shapes)} shapes but {len(ids)} object ids")
        for i, s in enumerate(shapes):
            if isinstance(s, Line):
                raise TypeError(f"shape {i} is an infinite Line; a level only holds bounded shapes")
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
        """The world of a :class:`core.level.model.Level` for its player (or ``body``)."""
        if body is None:
            body = level.player.body_at((0.0, 0.0))
        shapes, ids = [], []
        for obj in level.objects:
            for s in obj.collision_shapes():
                shapes.append(s)
                ids.append(obj.id)
        return cls(shapes, body, ids)

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
