"""The level model: layers, object types, walls, boxes, oriented boxes, pillars, tile grids, markers,
reference images and the player.

Every value here is immutable. An edit makes a new value (``box.moved(4, 0)``)
and the editor's undo commands swap old and new values in the document, so an
undo restores exactly what was there.

Each object also knows what it collides as (:meth:`collision_shapes`): the
play-test, the validator and the hull generator all read that one answer.

``extra`` holds keys this version does not know (a game's own data). They are
kept untouched through load and save; never mutate an ``extra`` dict in place
(nor a ``properties`` dict: make a new one).

Every object sits on a ``layer`` (its id), may have a ``type`` (the game's name
for it: "enemy", "door") and its own custom ``properties``; the level's
:class:`ObjectType` of that name gives the defaults (:meth:`Level.properties_of`).
Walls, boxes, oriented boxes, pillars and tile grids are ``solid`` unless made
areas the player walks through (triggers); markers and images never collide.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import chain
from operator import attrgetter, itemgetter
from typing import ClassVar, Iterator, Mapping, Optional, Union

from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Vec2, as_vec2, rotation_cos_sin
from level_editor.core.level.art import (
    NO_TILE, POLYGON_EDGE_RADIUS, PaintedTile, Tileset, cell_polygons, painted_shapes, placed_tiles, tile_number,
)
from level_editor.core.level.collector import paused_collector
from level_editor.core.level.motion import MovePath

__all__ = [
    "Player",
    "Ref",
    "Layer",
    "ObjectType",
    "Wall",
    "Box",
    "OrientedBox",
    "Pillar",
    "Tiles",
    "Point",
    "Image",
    "Sprite",
    "LevelObject",
    "Level",
    "OBJECT_KINDS",
    "anchor",
    "moving_path",
    "moved_objects",
    "DEFAULT_GRID",
    "DEFAULT_LAYER",
    "SOLID_CELL",
    "EMPTY_CELL",
]

DEFAULT_GRID = 16.0

#: The id of the one layer a new level (or a version-1 file) has.
DEFAULT_LAYER = "main"

#: Tile grid cells: one character each.
SOLID_CELL, EMPTY_CELL = "#", "."


@dataclass(frozen=True, slots=True)
class Ref:
    """A custom property that points at another object (``{"ref": "lever"}`` in the file; ``""`` for none)."""

    id: str = ""


#: What a custom property may hold. ``bool`` is checked before ``int`` wherever it matters.
PropertyValue = Union[str, int, float, bool, Ref]


@dataclass(frozen=True, slots=True)
class Layer:
    """A layer of the level: objects draw in layer order. Hidden and locked are editing states only."""

    id: str
    name: str
    visible: bool = True
    locked: bool = False
    extra: Mapping = field(default_factory=dict, hash=False)
    #: How opaque its art draws, in [0, 1] (Tiled's layer opacity); it changes nothing else.
    opacity: float = 1.0


@dataclass(frozen=True, slots=True)
class ObjectType:
    """A kind of thing in the game ("enemy", "door"): a display colour and default properties."""

    name: str
    color: str = "#a0a0a0"
    properties: Mapping = field(default_factory=dict, hash=False)
    extra: Mapping = field(default_factory=dict, hash=False)


#: From this many nodes on, a wall's nodes are checked and built in bulk (C loops, the garbage collector paused).
LONG_WALL_NODES = 1000

_make_vec = tuple.__new__
_first, _second = itemgetter(0), itemgetter(1)


def _points(points) -> tuple[Vec2, ...]:
    """``points`` as a tuple of :class:`Vec2` of floats.

    A tuple that already is one is kept as it is: the check runs in C (about 25 ms
    for 300,000 nodes where converting each node costs 100 ms or more), so
    replacing one node of a long wall does not rebuild all the others.
    """
    if type(points) is tuple and len(points) >= LONG_WALL_NODES:
        if set(map(type, points)) == {Vec2} and set(map(type, chain.from_iterable(points))) == {float}:
            return points
        with paused_collector():
            return tuple([as_vec2(p) for p in points])
    return tuple(as_vec2(p) for p in points)


#: Bounds of long walls' node tuples, by ``id`` of the tuple (which the entry holds, so the id stays its own).
_BOUNDS_CACHE: dict[int, tuple[tuple, tuple[float, float, float, float]]] = {}
_BOUNDS_CACHE_SIZE = 16

#: Painted grids' collision shapes, by the ids of their tiles and tileset (which the entry holds) and their place.
_ART_SHAPES_CACHE: dict[tuple, tuple] = {}


def _node_bounds(points: tuple[Vec2, ...]) -> tuple[float, float, float, float]:
    """``(minx, miny, maxx, maxy)`` of the nodes; remembered for the last few long walls (a tuple never changes)."""
    if len(points) < LONG_WALL_NODES:
        xs = [p.x for p in points]
        ys = [p.y for p in points]
        return (min(xs), min(ys), max(xs), max(ys))
    hit = _BOUNDS_CACHE.get(id(points))
    if hit is not None and hit[0] is points:
        return hit[1]
    box = (min(map(_first, points)), min(map(_second, points)), max(map(_first, points)), max(map(_second, points)))
    if len(_BOUNDS_CACHE) >= _BOUNDS_CACHE_SIZE:
        _BOUNDS_CACHE.pop(next(iter(_BOUNDS_CACHE)))
    _BOUNDS_CACHE[id(points)] = (points, box)
    return box


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
    #: ``"top_down"`` (moves freely at ``speed``) or ``"platformer"`` (gravity, runs at ``speed``, jumps).
    controller: str = "top_down"
    # The platformer's feel (format version 3; see level_editor.core.playtest.platformer).
    jump_height: float = 80.0
    jump_time: float = 0.4
    fall_gravity_scale: float = 1.0
    max_fall_speed: float = 1200.0
    acceleration: Optional[float] = None
    deceleration: Optional[float] = None
    air_control: float = 1.0
    coyote_time: float = 0.1
    jump_buffer: float = 0.1
    jump_cut: float = 0.5
    floor_max_angle: float = 45.0
    snap_length: float = 4.0

    SHAPES: ClassVar[tuple[str, ...]] = ("circle", "box")
    CONTROLLERS: ClassVar[tuple[str, ...]] = ("top_down", "platformer")
    #: The field that says where it is (see :func:`anchor`).
    place: ClassVar[str] = "spawn"

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
        return _moved(self, dx, dy)

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
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)
    solid: bool = True
    #: A floor the player lands on from above and passes through from below and from the sides.
    one_way: bool = False
    #: Where it moves (None: it stays put).
    path: Optional[MovePath] = None

    kind: ClassVar[str] = "wall"
    #: The field that says where it is, its nodes: a move shifts them and nothing else; the first node is the
    #: wall's anchor (see :func:`anchor`).
    place: ClassVar[str] = "points"

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
        return _moved(self, dx, dy)

    def with_node(self, index: int, point) -> "Wall":
        """The wall with node ``index`` at ``point``; the other nodes are shared, not rebuilt.

        >>> Wall("w", [(0, 0), (10, 0), (20, 0)]).with_node(1, (10, 5)).points[1]
        Vec2(x=10.0, y=5.0)
        """
        pts = self.points
        index = range(len(pts))[index]
        return replace(self, points=pts[:index] + (as_vec2(point),) + pts[index + 1:])

    def with_id(self, new_id: str) -> "Wall":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        r = self.thickness / 2
        x0, y0, x1, y1 = _node_bounds(self.points)
        return (x0 - r, y0 - r, x1 + r, y1 + r)


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box; ``origin`` is its minimum corner."""

    id: str
    origin: Vec2
    size: Vec2
    extra: Mapping = field(default_factory=dict, hash=False)
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)
    solid: bool = True
    #: A floor the player lands on from above and passes through from below and from the sides.
    one_way: bool = False
    #: Where it moves (None: it stays put).
    path: Optional[MovePath] = None

    kind: ClassVar[str] = "box"
    #: The field that says where it is: a move shifts it and nothing else (see :func:`anchor`).
    place: ClassVar[str] = "origin"

    def __post_init__(self):
        object.__setattr__(self, "origin", as_vec2(self.origin))
        object.__setattr__(self, "size", as_vec2(self.size))

    def collision_shapes(self) -> tuple[Rect]:
        return (Rect(self.origin, self.size),)

    def moved(self, dx: float, dy: float) -> "Box":
        return _moved(self, dx, dy)

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
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)
    solid: bool = True
    #: A floor the player lands on from above and passes through from below and from the sides.
    one_way: bool = False
    #: Where it moves (None: it stays put).
    path: Optional[MovePath] = None

    kind: ClassVar[str] = "oriented_box"
    #: The field that says where it is: a move shifts it and nothing else (see :func:`anchor`).
    place: ClassVar[str] = "center"

    def __post_init__(self):
        object.__setattr__(self, "center", as_vec2(self.center))
        object.__setattr__(self, "half_extents", as_vec2(self.half_extents))
        object.__setattr__(self, "rotation", float(self.rotation))

    def collision_shapes(self) -> tuple[OrientedRect]:
        return (OrientedRect(self.center, self.half_extents, self.rotation),)

    def corners(self) -> tuple[Vec2, Vec2, Vec2, Vec2]:
        return OrientedRect(self.center, self.half_extents, self.rotation).corners()

    def moved(self, dx: float, dy: float) -> "OrientedBox":
        return _moved(self, dx, dy)

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
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)
    solid: bool = True
    #: Where it moves (None: it stays put).
    path: Optional[MovePath] = None

    kind: ClassVar[str] = "circle"
    #: The field that says where it is: a move shifts it and nothing else (see :func:`anchor`).
    place: ClassVar[str] = "center"

    def __post_init__(self):
        object.__setattr__(self, "center", as_vec2(self.center))
        object.__setattr__(self, "radius", float(self.radius))

    def collision_shapes(self) -> tuple[Circle]:
        return (Circle(self.center, self.radius),)

    def moved(self, dx: float, dy: float) -> "Pillar":
        return _moved(self, dx, dy)

    def with_id(self, new_id: str) -> "Pillar":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        c, r = self.center, self.radius
        return (c.x - r, c.y - r, c.x + r, c.y + r)


def _cell_rects(cells: tuple[str, ...]) -> list[tuple[int, int, int, int]]:
    """The solid cells as few rectangles ``(col, row, cols, rows)``: runs of a row, stacked while rows agree.

    A run of cells is one box (seed 003's box sets), so nothing can catch on a
    seam between two cells of one run; rows with the same run merge too.

    >>> _cell_rects(("##.#", "##.#", "####"))
    [(0, 0, 2, 2), (3, 0, 1, 2), (0, 2, 4, 1)]
    """
    open_runs: dict[tuple[int, int], list[int]] = {}  # (start col, length) -> [row started, rows]
    done: list[tuple[int, int, int, int]] = []
    for row, line in enumerate(cells):
        runs = set()
        col = 0
        while col < len(line):
            if line[col] == SOLID_CELL:
                start = col
                while col < len(line) and line[col] == SOLID_CELL:
                    col += 1
                runs.add((start, col - start))
            else:
                col += 1
        for run in list(open_runs):
            if run not in runs:
                r0, n = open_runs.pop(run)
                done.append((run[0], r0, run[1], n))
        for run in runs:
            if run in open_runs:
                open_runs[run][1] += 1
            else:
                open_runs[run] = [row, 1]
    for run, (r0, n) in open_runs.items():
        done.append((run[0], r0, run[1], n))
    return sorted(done, key=lambda r: (r[1], r[0]))


@dataclass(frozen=True, slots=True)
class Tiles:
    """A grid of square cells of side ``cell``; ``cells`` are rows top to bottom, ``#`` solid and ``.`` empty.

    A grid that paints a tileset's tiles (format version 3) names the ``tileset`` and holds ``tiles``: rows of
    painted cells (:mod:`level_editor.core.level.art`: a tile's number with its flip flags, -1 for none). Its
    ``cells`` are then made from them (``#`` where a tile is) and it collides through its tiles' collision shapes,
    read from ``art``, the level's tileset of that id (bound by :class:`Level`; no file holds it).

    >>> t = Tiles("tiles-1", (0, 256), 16, ("##..##", "######"))
    >>> [(r.origin.x, r.origin.y, r.size.x, r.size.y) for r in t.collision_shapes()]
    [(0.0, 256.0, 32.0, 16.0), (64.0, 256.0, 32.0, 16.0), (0.0, 272.0, 96.0, 16.0)]
    """

    id: str
    origin: Vec2
    cell: float
    cells: tuple[str, ...]
    extra: Mapping = field(default_factory=dict, hash=False)
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)
    solid: bool = True
    #: A floor the player lands on from above and passes through from below and from the sides.
    one_way: bool = False
    #: Where it moves (None: it stays put).
    path: Optional[MovePath] = None
    #: The id of the tileset whose tiles it paints ("": a grid of plain solid cells).
    tileset: str = ""
    #: Its painted cells, rows top to bottom (only with a tileset).
    tiles: tuple = ()
    art: Optional[Tileset] = field(default=None, compare=False, repr=False)

    kind: ClassVar[str] = "tiles"
    #: The field that says where it is: a move shifts it and nothing else (see :func:`anchor`).
    place: ClassVar[str] = "origin"

    def __post_init__(self):
        object.__setattr__(self, "origin", as_vec2(self.origin))
        object.__setattr__(self, "cell", float(self.cell))
        if self.tileset:
            rows = tuple(row if type(row) is tuple else tuple(row) for row in self.tiles)
            object.__setattr__(self, "tiles", rows)
            object.__setattr__(self, "cells", tuple(
                "".join([EMPTY_CELL if v < 0 else SOLID_CELL for v in row]) for row in rows))
        else:
            object.__setattr__(self, "cells", tuple(self.cells))

    @property
    def painted(self) -> bool:
        """Whether it paints a tileset's tiles (else its cells are plain solid squares)."""
        return bool(self.tileset)

    def painted_tiles(self) -> tuple[PaintedTile, ...]:
        """Its painted cells, row by row, each placed where its picture is drawn (none without its tileset)."""
        if self.art is None or not self.tiles:
            return ()
        return placed_tiles(self.art, self.tiles, self.origin, self.cell)

    def tile_at(self, col: int, row: int) -> int:
        """The painted cell at ``(col, row)`` (-1: none, or outside the grid)."""
        if 0 <= row < len(self.tiles) and 0 <= col < len(self.tiles[row]):
            return self.tiles[row][col]
        return NO_TILE

    @property
    def columns(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    @property
    def rows(self) -> int:
        return len(self.cells)

    def is_solid(self, col: int, row: int) -> bool:
        """Whether the cell at ``(col, row)`` is solid (cells outside the grid are empty)."""
        return 0 <= row < self.rows and 0 <= col < self.columns and self.cells[row][col] == SOLID_CELL

    def cell_at(self, x: float, y: float) -> tuple[int, int]:
        """The ``(col, row)`` of the cell under the point ``(x, y)``, inside the grid or not."""
        return math.floor((x - self.origin.x) / self.cell), math.floor((y - self.origin.y) / self.cell)

    def solid_rects(self) -> tuple[Rect, ...]:
        """The solid cells as few rectangles (runs of a row, stacked where rows agree)."""
        o, c = self.origin, self.cell
        return tuple(Rect(Vec2(o.x + col * c, o.y + row * c), Vec2(n * c, m * c))
                     for col, row, n, m in _cell_rects(self.cells))

    def collision_shapes(self) -> tuple:
        if self.tileset:
            return self.art_shapes()
        return self.solid_rects()

    def art_shapes(self) -> tuple:
        """A painted grid's collision: its tiles' shapes, rectangles joined where they meet (no seams).

        Worked out once per grid (a check asks for it several times; a 500 x 500 grid takes seconds): the last
        few answers are kept by the identity of the grid's tiles and tileset, which never change.
        """
        art = self.art
        if art is None:
            return ()
        key = (id(self.tiles), id(art), self.origin, self.cell)
        hit = _ART_SHAPES_CACHE.get(key)
        if hit is not None and hit[0] is self.tiles and hit[1] is art:
            return hit[2]
        shapes = self._art_shapes(art)
        if len(_ART_SHAPES_CACHE) >= _BOUNDS_CACHE_SIZE:
            _ART_SHAPES_CACHE.pop(next(iter(_ART_SHAPES_CACHE)))
        _ART_SHAPES_CACHE[key] = (self.tiles, art, shapes)
        return shapes

    def _art_shapes(self, art: Tileset) -> tuple:
        try:  # all cells at once with NumPy, loaded when a painted grid is met
            from level_editor.core.level.art_grid import grid_shapes
        except ImportError:  # a game without NumPy: cell by cell, the same shapes
            return painted_shapes(art, self.tiles, self.origin.x, self.origin.y, self.cell)
        return grid_shapes(art, self.tiles, self.origin.x, self.origin.y, self.cell)

    def enclosed_polygons(self) -> list:
        """The areas its tiles' polygons enclose (their sides are what collides), as lists of corners."""
        art = self.art
        if art is None:
            return []
        shaped = {t for t, info in art.tiles.items()
                  if any(s.kind == "polygon" or s.kind == "ellipse" for s in info.collision)}
        if not shaped:
            return []
        o, c = self.origin, self.cell
        return [corners for row, line in enumerate(self.tiles) for col, value in enumerate(line)
                if value >= 0 and tile_number(value) in shaped
                for corners in cell_polygons(art, value, o.x + col * c, o.y + row * c, c)]

    def with_tiles(self, changes: Mapping[tuple[int, int], int]) -> "Tiles":
        """The painted grid with the cells ``(col, row) -> tile`` set (-1 clears), grown to hold them and trimmed
        of empty edges; the origin moves by whole cells, so painted cells stay where they are.

        >>> t = Tiles("t", (0, 0), 10, (), tileset="ts", tiles=((3,),)).with_tiles({(1, 1): 4})
        >>> t.tiles, t.cells
        (((3, -1), (-1, 4)), ('#.', '.#'))
        """
        painted = {(c, r): v for r, line in enumerate(self.tiles) for c, v in enumerate(line) if v >= 0}
        for key, value in changes.items():
            if value >= 0:
                painted[key] = value
            else:
                painted.pop(key, None)
        if not painted:
            return replace(self, tiles=())
        c0 = min(c for c, _ in painted)
        r0 = min(r for _, r in painted)
        c1 = max(c for c, _ in painted)
        r1 = max(r for _, r in painted)
        rows = tuple(tuple(painted.get((c, r), NO_TILE) for c in range(c0, c1 + 1)) for r in range(r0, r1 + 1))
        origin = Vec2(self.origin.x + c0 * self.cell, self.origin.y + r0 * self.cell)
        return replace(self, origin=origin, tiles=rows)

    def with_cells(self, changes: Mapping[tuple[int, int], bool]) -> "Tiles":
        """The grid with the cells ``(col, row) -> solid`` set, grown to hold them and trimmed of empty edges.

        The origin moves by whole cells, so cells already painted stay where they are.

        >>> t = Tiles("t", (0, 0), 10, ("#",)).with_cells({(2, -1): True})
        >>> t.origin, t.cells
        (Vec2(x=0.0, y=-10.0), ('..#', '#..'))
        """
        solid = {(c, r) for r, line in enumerate(self.cells) for c, ch in enumerate(line) if ch == SOLID_CELL}
        for key, on in changes.items():
            (solid.add if on else solid.discard)(key)
        if not solid:
            return replace(self, cells=())
        c0 = min(c for c, _ in solid)
        r0 = min(r for _, r in solid)
        c1 = max(c for c, _ in solid)
        r1 = max(r for _, r in solid)
        cells = tuple("".join(SOLID_CELL if (c, r) in solid else EMPTY_CELL for c in range(c0, c1 + 1))
                      for r in range(r0, r1 + 1))
        origin = Vec2(self.origin.x + c0 * self.cell, self.origin.y + r0 * self.cell)
        return replace(self, origin=origin, cells=cells)

    def moved(self, dx: float, dy: float) -> "Tiles":
        return _moved(self, dx, dy)

    def with_id(self, new_id: str) -> "Tiles":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        o = self.origin
        return (o.x, o.y, o.x + self.columns * self.cell, o.y + self.rows * self.cell)


@dataclass(frozen=True, slots=True)
class Point:
    """A marker: an enemy's spawn point, a pickup, a lever. It has no size and never collides."""

    id: str
    position: Vec2
    extra: Mapping = field(default_factory=dict, hash=False)
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)

    kind: ClassVar[str] = "point"
    #: The field that says where it is: a move shifts it and nothing else (see :func:`anchor`).
    place: ClassVar[str] = "position"
    solid: ClassVar[bool] = False

    def __post_init__(self):
        object.__setattr__(self, "position", as_vec2(self.position))

    def collision_shapes(self) -> tuple:
        return ()

    def moved(self, dx: float, dy: float) -> "Point":
        return _moved(self, dx, dy)

    def with_id(self, new_id: str) -> "Point":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        p = self.position
        return (p.x, p.y, p.x, p.y)


@dataclass(frozen=True, slots=True)
class Image:
    """A reference picture to trace over, drawn under the geometry; it never collides.

    ``path`` is relative to the level file (forward slashes); ``origin`` is its
    top-left corner. Its size in pixels is the picture's, known only to whoever
    reads the picture, so :meth:`bounds` here is its origin (``size`` is set when
    known, and then the bounds cover it).

    ``folder`` is the folder ``path`` is relative to, when it is known (absolute; no file holds it): a picture
    that comes back by undo after Save As moved the level, or is pasted from a level in another folder, still
    names its picture (:mod:`level_editor.core.level.pictures` moves it). It plays no part in equality.
    """

    id: str
    path: str
    origin: Vec2
    scale: float = 1.0
    opacity: float = 1.0
    extra: Mapping = field(default_factory=dict, hash=False)
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)
    folder: Optional[str] = field(default=None, compare=False, repr=False)

    kind: ClassVar[str] = "image"
    #: The field that says where it is: a move shifts it and nothing else (see :func:`anchor`).
    place: ClassVar[str] = "origin"
    solid: ClassVar[bool] = False

    def __post_init__(self):
        object.__setattr__(self, "origin", as_vec2(self.origin))
        object.__setattr__(self, "scale", float(self.scale))
        object.__setattr__(self, "opacity", float(self.opacity))

    def collision_shapes(self) -> tuple:
        return ()

    def moved(self, dx: float, dy: float) -> "Image":
        return _moved(self, dx, dy)

    def with_id(self, new_id: str) -> "Image":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        o = self.origin
        return (o.x, o.y, o.x, o.y)


@dataclass(frozen=True, slots=True)
class Sprite:
    """A picture placed as an object (format version 3): a tileset's tile, or a picture file.

    ``center``, ``size`` (the picture is stretched to it), ``rotation`` in degrees about the centre (clockwise on
    screen), ``flip_x``/``flip_y`` (mirrored before it is turned) and ``opacity``. ``tileset`` and ``tile`` name
    a tileset's tile; else ``picture`` is a path relative to the level file. Art never collides by itself: a
    sprite is not ``solid`` unless the file says so, and then it collides as its tile's collision shapes (fitted
    to its size, flips and rotation) or, when the tile has none, as its whole rectangle.

    >>> Sprite("cloud", (100, 50), (64, 32), picture="cloud.png").collision_shapes()
    ()
    >>> Sprite("crate", (100, 50), (64, 32), picture="crate.png", solid=True).collision_shapes()[0].origin
    Vec2(x=68.0, y=34.0)
    """

    id: str
    center: Vec2
    size: Vec2
    rotation: float = 0.0
    flip_x: bool = False
    flip_y: bool = False
    opacity: float = 1.0
    tileset: str = ""
    tile: int = 0
    picture: str = ""
    extra: Mapping = field(default_factory=dict, hash=False)
    layer: str = DEFAULT_LAYER
    type: str = ""
    properties: Mapping = field(default_factory=dict, hash=False)
    solid: bool = False
    art: Optional[Tileset] = field(default=None, compare=False, repr=False)
    folder: Optional[str] = field(default=None, compare=False, repr=False)

    kind: ClassVar[str] = "sprite"
    #: The field that says where it is: a move shifts it and nothing else (see :func:`anchor`).
    place: ClassVar[str] = "center"

    def __post_init__(self):
        object.__setattr__(self, "center", as_vec2(self.center))
        object.__setattr__(self, "size", as_vec2(self.size))
        object.__setattr__(self, "rotation", float(self.rotation))
        object.__setattr__(self, "opacity", float(self.opacity))

    def corners(self) -> tuple[Vec2, Vec2, Vec2, Vec2]:
        """Its picture's corners where they are drawn: top-left, top-right, bottom-right, bottom-left (unturned)."""
        return OrientedRect(self.center, Vec2(self.size.x / 2, self.size.y / 2), self.rotation).corners()

    def to_level(self, x: float, y: float) -> Vec2:
        """The point ``(x, y)`` of its picture (0..width, 0..height of its size, unflipped) where it is drawn."""
        w, h = self.size.x, self.size.y
        px, py = x - w / 2, y - h / 2
        if self.flip_x:
            px = -px
        if self.flip_y:
            py = -py
        a = math.radians(self.rotation)
        cos, sin = math.cos(a), math.sin(a)
        return Vec2(self.center.x + px * cos - py * sin, self.center.y + px * sin + py * cos)

    def collision_shapes(self) -> tuple:
        if not self.solid:
            return ()
        art = self.art
        info = art.info(self.tile) if art is not None and self.tileset else None
        if info is None or not info.collision:
            half = Vec2(self.size.x / 2, self.size.y / 2)
            if self.rotation % 360.0 == 0.0:
                return (Rect(Vec2(self.center.x - half.x, self.center.y - half.y), self.size),)
            return (OrientedRect(self.center, half, self.rotation),)
        picture = art.tile_picture_size(self.tile)
        sx, sy = self.size.x / picture.x, self.size.y / picture.y
        shapes: list = []
        for shape in info.collision:
            if shape.kind == "rect" and self.rotation % 90.0 == 0.0:
                (px, py), (pw, ph) = shape.points
                a, b = self.to_level(px * sx, py * sy), self.to_level((px + pw) * sx, (py + ph) * sy)
                shapes.append(Rect(Vec2(min(a.x, b.x), min(a.y, b.y)), Vec2(abs(b.x - a.x), abs(b.y - a.y))))
            elif shape.kind == "rect":
                (px, py), (pw, ph) = shape.points
                c = self.to_level((px + pw / 2) * sx, (py + ph / 2) * sy)
                shapes.append(OrientedRect(c, Vec2(pw * sx / 2, ph * sy / 2), self.rotation))
            elif shape.kind == "ellipse" and shape.points[1].x * sx == shape.points[1].y * sy:
                (px, py), (pw, ph) = shape.points
                shapes.append(Circle(self.to_level((px + pw / 2) * sx, (py + ph / 2) * sy), pw * sx / 2))
            else:
                pts = self._picture_outline(shape, sx, sy)
                shapes.extend(Capsule(pts[i], pts[(i + 1) % len(pts)], POLYGON_EDGE_RADIUS)
                              for i in range(len(pts)) if pts[i] != pts[(i + 1) % len(pts)])
        return tuple(shapes)

    def _picture_outline(self, shape, sx: float, sy: float) -> list:
        return [self.to_level(p.x * sx, p.y * sy) for p in shape.outline()]

    def enclosed_polygons(self) -> list:
        """The areas its tile's polygons (and ellipses drawn as polygons) enclose where they are in the level,
        as lists of corners; none unless it collides."""
        shapes = self.collision_shapes()
        if not any(s.__class__ is Capsule for s in shapes):
            return []
        art = self.art
        picture = art.tile_picture_size(self.tile)
        sx, sy = self.size.x / picture.x, self.size.y / picture.y
        drawn_as_sides = [shape for shape in art.info(self.tile).collision if shape.kind == "polygon" or (
            shape.kind == "ellipse" and shape.points[1].x * sx != shape.points[1].y * sy)]
        return [[(p.x, p.y) for p in self._picture_outline(shape, sx, sy)] for shape in drawn_as_sides]

    def moved(self, dx: float, dy: float) -> "Sprite":
        return _moved(self, dx, dy)

    def with_id(self, new_id: str) -> "Sprite":
        return replace(self, id=new_id)

    def bounds(self) -> tuple[float, float, float, float]:
        # the corners' extent, worked out directly (a level of 100,000 sprites asks for every one as it opens)
        c, s = rotation_cos_sin(self.rotation)
        c, s = abs(c), abs(s)
        hx, hy = self.size.x / 2, self.size.y / 2
        ex, ey = c * hx + s * hy, s * hx + c * hy
        return (self.center.x - ex, self.center.y - ey, self.center.x + ex, self.center.y + ey)


LevelObject = Union[Wall, Box, OrientedBox, Pillar, Tiles, Point, Image, Sprite]

#: The object classes by the ``kind`` string used in level files.
OBJECT_KINDS: dict[str, type] = {cls.kind: cls
                                 for cls in (Wall, Box, OrientedBox, Pillar, Tiles, Point, Image, Sprite)}

#: The kinds that may draw a tileset's tiles (their ``art`` is bound by the level).
_ART_KINDS = (Tiles, Sprite)


@dataclass(frozen=True, slots=True)
class Level:
    """A whole level: name, grid, player, objects (in file order), layers (bottom to top), types, properties."""

    name: str = "Untitled"
    grid: float = DEFAULT_GRID
    player: Player = field(default_factory=Player)
    objects: tuple[LevelObject, ...] = ()
    extra: Mapping = field(default_factory=dict, hash=False)
    layers: tuple[Layer, ...] = (Layer(DEFAULT_LAYER, "Main"),)
    types: tuple[ObjectType, ...] = ()
    properties: Mapping = field(default_factory=dict, hash=False)
    #: Its tilesets (format version 3), whose tiles tile grids paint and sprites show.
    tilesets: tuple[Tileset, ...] = ()
    #: Its size ``[width, height]`` from ``(0, 0)`` when it has one (a map imported from Tiled keeps its own):
    #: what ``render`` covers. None: the bounds of what it holds.
    size: Optional[Vec2] = None
    #: The colour drawn behind everything (``#rrggbb``), or "" for none.
    background: str = ""

    def __post_init__(self):
        object.__setattr__(self, "objects", tuple(self.objects))
        object.__setattr__(self, "layers", tuple(self.layers))
        object.__setattr__(self, "types", tuple(self.types))
        object.__setattr__(self, "tilesets", tuple(self.tilesets))
        if self.size is not None:
            object.__setattr__(self, "size", as_vec2(self.size))
        if self.tilesets:
            self._bind_art()

    def _bind_art(self) -> None:
        """Give each tile grid and sprite that names a tileset this level's tileset of that id.

        ``art`` is a cache of the level's own value, not part of the object's value (it takes no part in
        equality and no file holds it), so it is set in place: a level always draws and collides with its own
        tilesets, and an edit of a tileset reaches every object that uses it.
        """
        by_id = {t.id: t for t in self.tilesets}
        for obj in self.objects:
            if obj.__class__ in _ART_KINDS and obj.tileset:
                art = by_id.get(obj.tileset)
                if obj.art is not art:
                    object.__setattr__(obj, "art", art)

    def tileset(self, tileset_id: str) -> Optional[Tileset]:
        """The tileset with this id, or None."""
        return next((t for t in self.tilesets if t.id == tileset_id), None)

    def layer(self, layer_id: str) -> Optional[Layer]:
        """The layer with this id, or None."""
        return next((layer for layer in self.layers if layer.id == layer_id), None)

    def object_type(self, name: str) -> Optional[ObjectType]:
        """The object type with this name, or None (also for ``""``, no type)."""
        return next((t for t in self.types if t.name == name), None) if name else None

    def properties_of(self, obj) -> dict:
        """An object's properties as the game sees them: its type's defaults overlaid with its own.

        >>> level = Level(types=(ObjectType("enemy", "#e0503c", {"health": 3, "speed": 1.5}),))
        >>> level.properties_of(Point("goblin-1", (0, 0), type="enemy", properties={"health": 5}))
        {'health': 5, 'speed': 1.5}
        """
        t = self.object_type(obj.type)
        merged = dict(t.properties) if t is not None else {}
        merged.update(obj.properties)
        return merged

    def solid_objects(self):
        """The objects that collide, in file order (hidden and locked layers' too: those are editing states)."""
        return (obj for obj in self.objects if obj.solid)

    def drawing_order(self) -> list:
        """The objects in the order they draw: by layer, bottom to top; on a layer its reference pictures first
        (traced over, they stay under what is drawn on them), then its other objects; each in file order."""
        rank = {layer.id: i for i, layer in enumerate(self.layers)}
        return sorted(self.objects, key=lambda o: (rank.get(o.layer, len(rank)), o.__class__ is not Image))

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
        """Every solid object's collision shapes, in object order."""
        for obj in self.solid_objects():
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


def _maker(cls):
    """A function that builds a ``cls`` from its fields' values in order, trusting them as they are.

    Only for readers that have already checked and converted every value (the loader's fast path): it skips
    ``__init__`` and ``__post_init__``, a third of the cost of an object. The result equals ``cls(*values)``.

    >>> make = _maker(Pillar)
    >>> make("p", Vec2(1.0, 2.0), 3.0, {}, "main", "", {}, True, None) == Pillar("p", (1, 2), 3)
    True
    """
    from dataclasses import fields

    names = [f.name for f in fields(cls)]
    # Unrolled, as dataclasses writes its __init__: a loop over the fields costs as much as it saves.
    lines = [f"def make({', '.join(names)}):", "    obj = new(cls)"]
    lines += [f"    set_{n}(obj, {n})" for n in names]
    lines.append("    return obj")
    scope = {"new": object.__new__, "cls": cls, **{f"set_{n}": getattr(cls, n).__set__ for n in names}}
    exec("\n".join(lines), scope)
    return scope["make"]


#: Builders of checked values, by class (see :func:`_maker`): the file reader's fast path uses them, for any kind
#: whose values msgspec checks (core/level/format/read.py), and so do moves (the player's too).
TRUSTED_MAKERS = {cls: _maker(cls) for cls in (*OBJECT_KINDS.values(), Player)}


# -- where an object is, and moving it ------------------------------------------------------------------------
#
# Each class's ``place`` names the one field that says where the object is. The anchor (the point that places
# it: what the editor draws it from) is read from that field and a move shifts that field alone, so the two
# always agree, for every kind, in this one place.

def _first_node(wall: Wall) -> Vec2:
    return wall.points[0]


#: :func:`anchor` by class, read in C where the place is a point (a move of 100,000 objects reads every one).
_ANCHORS = {cls: attrgetter(cls.place) for cls in (Player, Box, OrientedBox, Pillar, Tiles, Point, Image, Sprite)}
_ANCHORS[Wall] = _first_node


def moving_path(obj) -> Optional[MovePath]:
    """The path ``obj`` moves along (format version 3), or None when it stays put (a picture's ``path`` is its file).

    >>> moving_path(Box("lift", (0, 0), (9, 2), path=MovePath(((0, 0), (0, -5)), 10))).points[-1]
    Vec2(x=0.0, y=-5.0)
    >>> moving_path(Image("art", "a.png", (0, 0))) is None
    True
    """
    path = getattr(obj, "path", None)
    return path if isinstance(path, MovePath) else None


def anchor(obj) -> Vec2:
    """Where ``obj`` (an object or the player) is: the point a move shifts, which the editor draws it from.

    The value of its ``place`` field; a wall's is its first node.

    >>> anchor(Box("b", (1, 2), (3, 4))), anchor(Wall("w", [(5, 6), (7, 8)]))
    (Vec2(x=1.0, y=2.0), Vec2(x=5.0, y=6.0))
    >>> anchor(Box("b", (1, 2), (3, 4)).moved(10, 20))
    Vec2(x=11.0, y=22.0)
    """
    return _ANCHORS[obj.__class__](obj)


def _mover(cls):
    """A function giving a ``cls`` moved by float offsets: its ``place`` shifted, every other field the very value
    it was.

    Those values were checked when the object was made, and a shifted point of floats is one too: it is built
    with the maker for checked values (:func:`_maker`), a third of the cost of ``dataclasses.replace``, which
    counts at 100,000 objects. Unrolled as the maker is (no tuple of values, no unpacking per object); a node is
    made as the tuple it is, without Vec2's Python-level ``__new__`` (a wall has many).
    """
    from dataclasses import fields

    place = cls.place
    if place == "points":
        shifted = "tuple([vec(Vec2, (x + dx, y + dy)) for x, y in o.points])"
    else:
        shifted = f"vec(Vec2, (o.{place}[0] + dx, o.{place}[1] + dy))"
    args = ", ".join(shifted if f.name == place else f"o.{f.name}" for f in fields(cls))
    scope = {"make": TRUSTED_MAKERS[cls], "vec": _make_vec, "Vec2": Vec2}
    exec(f"def mover(o, dx, dy):\n    return make({args})", scope)
    return scope["mover"]


_MOVERS = {cls: _mover(cls) for cls in TRUSTED_MAKERS}


def _moved(obj, dx: float, dy: float):
    """``obj`` moved by ``(dx, dy)`` (every class's ``moved``)."""
    return moved_objects((obj,), dx, dy)[0]


def moved_objects(objects, dx: float, dy: float) -> list:
    """``[o.moved(dx, dy) for o in objects]`` in one pass, the cycle collector waiting (long walls, many objects).

    >>> [anchor(o) for o in moved_objects([Box("b", (1, 2), (3, 4)), Point("p", (0, 0))], 10, 20)]
    [Vec2(x=11.0, y=22.0), Vec2(x=10.0, y=20.0)]
    """
    dx, dy = float(dx), float(dy)
    movers = _MOVERS
    with paused_collector():
        return [movers[o.__class__](o, dx, dy) for o in objects]
