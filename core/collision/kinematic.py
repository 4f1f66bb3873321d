"""A world with colliders that move, or that hold only from above: what a platformer plays in.

:class:`~level_editor.core.collision.world.World` is static: its broad phase is built once. A platformer
level also has **moving** colliders (a lift, a saw on a path) and **one-way** ones (a ledge the player jumps
through from below). :class:`KinematicWorld` puts those few *special* colliders beside the static world and
shows the mover (:mod:`level_editor.core.collision.mover`) one world with both: the static grid's answers
plus the special colliders that are *active* and near, each at its place for this tick.

The special colliders are numbered after the static ones, so a collider index means the same thing in every
answer. Before each tick the controller places them (:meth:`KinematicWorld.place`) and says which count
(:meth:`KinematicWorld.set_active`); a one-way collider counts only while the player is above it, a moving
one is where its path puts it. Seed 001's two moving boxes are the model: the mover works in the frame where
the special colliders stand still for the tick, and the controller carries and pushes the player by their
motion between ticks (:mod:`level_editor.core.playtest.platformer`).

>>> from level_editor.core.collision.shapes import Circle, Rect, Vec2
>>> from level_editor.core.collision.world import World
>>> static = World([Rect(Vec2(0, 100), Vec2(100, 10))], Circle(Vec2(0, 0), 5))
>>> kw = KinematicWorld(static, [Special("ledge", Rect(Vec2(0, 50), Vec2(40, 4)), one_way=True)])
>>> kw.place(1, 0.0, -10.0)  # collider 1 (the ledge) moved up by 10
>>> kw.obstacle(1).bounds
(-5.0, 35.0, 45.0, 49.0)
>>> kw.set_active(1, False); kw.near_indices(-100, 0, 100, 200)
[0]
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from level_editor.core.collision.rounded import RoundedPolygon
from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Shape, Vec2
from level_editor.core.collision.sweep import configuration_obstacle
from level_editor.core.collision.world import Collider

__all__ = ["Special", "KinematicWorld", "shifted_shape"]


@dataclass(frozen=True)
class Special:
    """A collider that moves or is one-way: its object, its shape where the file places it, and whether one-way."""

    object_id: str
    shape: Shape
    one_way: bool = False
    moving: bool = False


def shifted_shape(shape: Shape, dx: float, dy: float) -> Shape:
    """``shape`` moved by ``(dx, dy)`` (a circle, rectangle, oriented rectangle or capsule: a level's shapes)."""
    if dx == 0.0 and dy == 0.0:
        return shape
    if isinstance(shape, Circle):
        return Circle(Vec2(shape.center.x + dx, shape.center.y + dy), shape.radius)
    if isinstance(shape, Rect):
        return Rect(Vec2(shape.origin.x + dx, shape.origin.y + dy), shape.size)
    if isinstance(shape, OrientedRect):
        return OrientedRect(Vec2(shape.center.x + dx, shape.center.y + dy), shape.half_extents, shape.rotation)
    if isinstance(shape, Capsule):
        return Capsule(Vec2(shape.a.x + dx, shape.a.y + dy), Vec2(shape.b.x + dx, shape.b.y + dy), shape.radius)
    raise TypeError(f"a level holds no {type(shape).__name__} to move")


class _View(Sequence):
    """A read-only sequence of a world's colliders or obstacles, by index (made on asking)."""

    def __init__(self, size, item):
        self._size = size
        self._item = item

    def __len__(self) -> int:
        return self._size()

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._item(k) for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._item(i)


def _shifted(base: RoundedPolygon, dx: float, dy: float) -> RoundedPolygon:
    """``base`` moved by ``(dx, dy)``: the same faces, normals and radius (a translation keeps the hull's order)."""
    if dx == 0.0 and dy == 0.0:
        return base
    return RoundedPolygon.from_hull([(x + dx, y + dy) for x, y in zip(base.xs, base.ys)], base.radius)


class _Grid:
    """The static grid's answers plus the active special colliders whose obstacle reaches the query.

    Everything else a grid says (its size, its cells, how many a box covers) is the static grid's.
    """

    __slots__ = ("static", "world")

    def __init__(self, static, world: "KinematicWorld"):
        self.static = static
        self.world = world

    def __getattr__(self, name: str):
        return getattr(self.static, name)

    def walk(self, px: float, py: float, dx: float, dy: float, ex: float, ey: float, box, pad: float):
        """The static grid's walk, the special colliders in the box first (as the boxes it keeps apart)."""
        if self.world.active:
            x0, y0, x1, y1 = box
            extra = self._specials(x0, y0, x1, y1)
            if extra:
                yield -math.inf, [extra]
        yield from self.static.walk(px, py, dx, dy, ex, ey, box, pad)

    def _specials(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        w = self.world
        found = []
        for i in w.active:
            b = w.obstacle_list[i].bounds
            if b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3]:
                found.append(i)
        return found

    def at(self, x: float, y: float, margin: float) -> list[int]:
        extra = self._specials(x - margin, y - margin, x + margin, y + margin) if self.world.active else ()
        found = self.static.at(x, y, margin)
        return sorted([*found, *extra]) if extra else found

    def box(self, x0: float, y0: float, x1: float, y1: float):
        extra = self._specials(x0, y0, x1, y1) if self.world.active else ()
        found = self.static.box(x0, y0, x1, y1)
        return [*found, *extra] if extra else found


class KinematicWorld:
    """The static :class:`~level_editor.core.collision.world.World` and the special colliders, as one world.

    Parameters
    ----------
    static : World
        The colliders that never move and always hold.
    specials : sequence of Special
        The moving and one-way colliders; collider ``len(static) + k`` is ``specials[k]``.

    Every special collider starts active and at its place in the file.
    """

    def __init__(self, static, specials):
        self.static = static
        self.specials = tuple(specials)
        self.body = static.body
        self.half_extents = static.half_extents
        #: The first special collider's index.
        self.first_special = n = len(static)
        self.object_ids = tuple(static.object_ids) + tuple(s.object_id for s in self.specials)
        self._base = [configuration_obstacle(static.body, s.shape) for s in self.specials]
        # The static obstacles (made on first asking, as the static world does) and then the special ones.
        self.obstacle_list: list = static.obstacle_list + list(self._base)
        self._static_list = static.obstacle_list
        #: The special colliders that count this tick, by index.
        self.active: list[int] = list(range(n, n + len(self.specials)))
        # Without special colliders the static grid answers alone (no wrapper to call through on every query).
        self.grid = _Grid(static.grid, self) if self.specials else static.grid
        self.memo = None
        self.offsets = [(0.0, 0.0)] * len(self.specials)

    def __len__(self) -> int:
        return len(self.obstacle_list)

    @property
    def areas(self):
        """The static world's areas (objects the player passes through)."""
        return self.static.areas

    def areas_at(self, x: float, y: float) -> tuple[str, ...]:
        return self.static.areas_at(x, y)

    @property
    def obstacles(self) -> Sequence:
        """Every collider's configuration obstacle, by index (a special one where it is now)."""
        return _View(self.__len__, self.obstacle)

    @property
    def colliders(self) -> Sequence:
        """Every collider, by index (a special one with its shape where it is now), for drawing."""
        return _View(self.__len__, self._collider)

    def _collider(self, i: int) -> Collider:
        k = i - self.first_special
        if k < 0:
            return self.static.colliders[i]
        dx, dy = self.offsets[k]
        return Collider(i, self.specials[k].object_id, shifted_shape(self.specials[k].shape, dx, dy),
                        self.obstacle(i))

    def special(self, i: int) -> Optional[Special]:
        """The special collider of index ``i``, or None for a static one."""
        k = i - self.first_special
        return self.specials[k] if k >= 0 else None

    def place(self, i: int, dx: float, dy: float) -> None:
        """Put special collider ``i`` at ``(dx, dy)`` from where the file places it."""
        k = i - self.first_special
        self.offsets[k] = (dx, dy)
        self.obstacle_list[i] = _shifted(self._base[k], dx, dy)
        self.memo = None

    def set_active(self, i: int, active: bool) -> None:
        """Whether special collider ``i`` counts (a one-way floor the player is not above does not)."""
        if active and i not in self.active:
            self.active.append(i)
            self.active.sort()
        elif not active and i in self.active:
            self.active.remove(i)
        self.memo = None

    def obstacle(self, i: int) -> RoundedPolygon:
        """Collider ``i``'s configuration obstacle (a special one where it is this tick)."""
        if i >= self.first_special:
            return self.obstacle_list[i]
        ob = self._static_list[i]
        if ob is None:
            ob = self.static.obstacle(i)
            self.obstacle_list[i] = ob
        return ob

    def near_indices(self, minx: float, miny: float, maxx: float, maxy: float) -> list[int]:
        """Indices of the colliders that count whose obstacle reaches into the box, in increasing order."""
        found = []
        for i in sorted(self.grid.box(minx, miny, maxx, maxy)):
            b = self.obstacle(i).bounds
            if b[0] <= maxx and minx <= b[2] and b[1] <= maxy and miny <= b[3]:
                found.append(i)
        return found
