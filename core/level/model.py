"""The level model: walls, boxes, oriented boxes, pillars and the player.

Every value here is immutable. An edit makes a new value (``box.moved(4, 0)``)
and the editor's undo commands swap old and new values in the document, so an
undo restores exactly what was there.

Each object also knows what it collides as (:meth:`collision_shapes`): the
play-test, the validator and the hull generator all read that one answer.

``extra`` holds keys this version does not know (a game's own data). They are
kept untouched through load and save; never mutate an ``extra`` dict in place.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import ClassVar, Iterator, Mapping, Optional, Union

from core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Vec2, as_vec2

__all__ = [
    "Player",
    "Wall",
    "Box",
    "OrientedBox",
    "Pillar",
    "LevelObject",
    "Level",
    "OBJECT_KINDS",
    "DEFAULT_GRID",
]

DEFAULT_GRID = 16.0


def _points(points) -> tuple[Vec2, ...]:
    return tuple(as_vec2(p) for p in points)


@dataclass(frozen=True, slots=True)
class Player:
    """The player: where a play-test starts, what shape it collides as and how fast it runs.

    ``shape`` is ``"circle"`` (uses ``radius``) or ``"box"`` (uses ``size``,
    axis-aligned, never rotated). Both values are kept so switching the shape
    back and forth in the inspector loses nothing; only the one in use is saved.
    """

    spawn: Vec2 = Vec2(64.0, 64.0)
    shape: str = "circle"
    radius: float = 12.0
    size: Vec2 = Vec2(24.0, 24.0)
    speed: float = 240.0
    extra: Mapping = field(default_factory=dict, hash=False)

    SHAPES: ClassVar[tuple[str, ...]] = ("circle", "box")

    def __post_init__(self):
        object.__setattr__(self, "spawn", as_vec2(self.spawn))
        object.__setattr__(self, "size", as_vec2(self.size))
        object.__setattr__(self, "radius", float(self.radius))
        object.__setattr__(self, "speed", float(self.speed))

    def body_at(self, position) -> Union[Circle, Rect]:
        """The player's collision shape with its centre at ``position``."""
        p = as_vec2(position)
        if self.shape == "box":
            return Rect(Vec2(p.x - self.size.x / 2, p.y - self.size.y / 2), self.size)
        return Circle(p, self.radius)

    @property
    def half_size(self) -> Vec2:
        """Half the player's extent on each axis (its radius for a circle)."""
        if self.shape == "box":
            return Vec2(self.size.x / 2, self.size.y / 2)
        return Vec2(self.radius, self.radius)

    def moved(self, dx: float, dy: float) -> "Player":
        return replace(self, spawn=Vec2(self.spawn.x + dx, self.spawn.y + dy))

    def bounds(self) -> tuple[float, float, float, float]:
        """The player's body at its spawn as ``(minx, miny, maxx, maxy)``."""
        h, s = self.half_size, self.spawn
        return (s.x - h.x, s.y - h.y, s.x + h.x, s.y + h.y)


@dataclass(frozen=True, slots=True)
class Wall:
    """A chain of nodes with a thickness; each segment collides as a capsule.

    >>> w = Wall("w", [(0, 0), (10, 0)], 4)
    >>> w.collision_shapes()[0].radius
    2.0
    """

    id: str
    points: tuple[Vec2, ...]
    thickness: float = 8.0
    closed: bool = False
    extra: Mapping = field(default_factory=dict, hash=False)

    kind: ClassVar[str] = "wall"

    def __post_init__(self):
        object.__setattr__(self, "points", _points(self.points))
        object.__setattr__(self, "thickness", float(self.thickness))
        object.__setattr__(self, "closed", bool(self.closed))

    def segments(self) -> Iterator[tuple[Vec2, Vec2]]:
        """Each segment's two nodes, including the closing one of a closed wall."""
        pts = self.points
        for i in range(len(pts) - 1):
            yield pts[i], pts[i + 1]
        if self.closed and len(pts) > 2:
            yield pts[-1], pts[0]

    def collision_shapes(self) -> tuple[Capsule, ...]:
        r = self.thickness / 2
        return tuple(Capsule(a, b, r) for a, b in self.segments())

    def moved(self, dx: float, dy: float) -> "Wall":
        return replace(self, points=tuple(Vec2(p.x + dx, p.y + dy) for p in self.points))

    def with_id(self, new_id: str) -> "Wall":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        r = self.thickness / 2
        xs = [p.x for p in self.points]
        ys = [p.y for p in self.points]
        return (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box; ``origin`` is its minimum corner."""

    id: str
    origin: Vec2
    size: Vec2
    extra: Mapping = field(default_factory=dict, hash=False)

    kind: ClassVar[str] = "box"

    def __post_init__(self):
        object.__setattr__(self, "origin", as_vec2(self.origin))
        object.__setattr__(self, "size", as_vec2(self.size))

    def collision_shapes(self) -> tuple[Rect]:
        return (Rect(self.origin, self.size),)

    def moved(self, dx: float, dy: float) -> "Box":
        return replace(self, origin=Vec2(self.origin.x + dx, self.origin.y + dy))

    def with_id(self, new_id: str) -> "Box":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        o, s = self.origin, self.size
        return (o.x, o.y, o.x + s.x, o.y + s.y)


@dataclass(frozen=True, slots=True)
class OrientedBox:
    """A box turned by ``rotation`` degrees (clockwise on screen) about its ``center``."""

    id: str
    center: Vec2
    half_extents: Vec2
    rotation: float = 0.0
    extra: Mapping = field(default_factory=dict, hash=False)

    kind: ClassVar[str] = "oriented_box"

    def __post_init__(self):
        object.__setattr__(self, "center", as_vec2(self.center))
        object.__setattr__(self, "half_extents", as_vec2(self.half_extents))
        object.__setattr__(self, "rotation", float(self.rotation))

    def collision_shapes(self) -> tuple[OrientedRect]:
        return (OrientedRect(self.center, self.half_extents, self.rotation),)

    def corners(self) -> tuple[Vec2, Vec2, Vec2, Vec2]:
        return OrientedRect(self.center, self.half_extents, self.rotation).corners()

    def moved(self, dx: float, dy: float) -> "OrientedBox":
        return replace(self, center=Vec2(self.center.x + dx, self.center.y + dy))

    def with_id(self, new_id: str) -> "OrientedBox":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        r = math.radians(self.rotation)
        c, s = abs(math.cos(r)), abs(math.sin(r))
        hx, hy = self.half_extents
        ex, ey = c * hx + s * hy, s * hx + c * hy
        return (self.center.x - ex, self.center.y - ey, self.center.x + ex, self.center.y + ey)


@dataclass(frozen=True, slots=True)
class Pillar:
    """A round obstacle; stored with ``"kind": "circle"``."""

    id: str
    center: Vec2
    radius: float
    extra: Mapping = field(default_factory=dict, hash=False)

    kind: ClassVar[str] = "circle"

    def __post_init__(self):
        object.__setattr__(self, "center", as_vec2(self.center))
        object.__setattr__(self, "radius", float(self.radius))

    def collision_shapes(self) -> tuple[Circle]:
        return (Circle(self.center, self.radius),)

    def moved(self, dx: float, dy: float) -> "Pillar":
        return replace(self, center=Vec2(self.center.x + dx, self.center.y + dy))

    def with_id(self, new_id: str) -> "Pillar":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        c, r = self.center, self.radius
        return (c.x - r, c.y - r, c.x + r, c.y + r)


LevelObject = Union[Wall, Box, OrientedBox, Pillar]

#: The object classes by the ``kind`` string used in level files.
OBJECT_KINDS: dict[str, type] = {cls.kind: cls for cls in (Wall, Box, OrientedBox, Pillar)}


@dataclass(frozen=True, slots=True)
class Level:
    """A whole level: its name, grid size, player and objects (in drawing order)."""

    name: str = "Untitled"
    grid: float = DEFAULT_GRID
    player: Player = field(default_factory=Player)
    objects: tuple[LevelObject, ...] = ()
    extra: Mapping = field(default_factory=dict, hash=False)

    def __post_init__(self):
        object.__setattr__(self, "objects", tuple(self.objects))

    def object_by_id(self, object_id: str) -> Optional[LevelObject]:
        for obj in self.objects:
            if obj.id == object_id:
                return obj
        return None

    def ids(self) -> set[str]:
        return {obj.id for obj in self.objects}

    def with_objects(self, objects) -> "Level":
        return replace(self, objects=tuple(objects))

    def with_player(self, player: Player) -> "Level":
        return replace(self, player=player)

    def collision_shapes(self):
        """Every object's collision shapes, in object order."""
        for obj in self.objects:
            yield from obj.collision_shapes()

    def bounds(self) -> tuple[float, float, float, float]:
        """Bounding box of all objects and the player's body (a level always has a player)."""
        boxes = [obj.bounds() for obj in self.objects]
        boxes.append(self.player.bounds())
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


def unique_id(kind: str, taken) -> str:
    """The first ``kind-N`` id not in ``taken`` (``wall-1``, ``wall-2``...)."""
    n = 1
    while f"{kind}-{n}" in taken:
        n += 1
    return f"{kind}-{n}"
