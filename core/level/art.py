"""A level's art: tilesets, the tiles a tile grid paints (with flips and quarter turns), and what tiles collide as.

A **tileset** is a picture cut into tiles of ``tile_size`` (with a ``margin`` around the picture and ``spacing``
between tiles, as Tiled cuts them), or a collection of pictures, one per tile. Tiles are numbered from 0, left
to right, top to bottom. A tile may have **collision shapes** (rectangles, ellipses, polygons, in the tile's
own pixels, y down) and custom properties. Art never collides by itself: a painted cell collides through its
tile's shapes only.

A painted cell is one integer, as in Tiled's maps: the tile's number with three flags in its high bits,
:data:`FLIP_X` (mirrored left to right), :data:`FLIP_Y` (upside down) and :data:`FLIP_D` (mirrored about the
diagonal from top-left to bottom-right, which with the other two makes the quarter turns); :data:`NO_TILE`
(-1) is an empty cell. The diagonal flip is applied first, then the other two (Tiled's order), so a game that
reads Tiled's flags reads ours.

>>> ts = Tileset("ground", "Ground", (16, 16), image="art/ground.png", columns=4, count=8,
...              tiles={1: TileInfo(collision=(TileShape("rect", ((0, 8), (16, 8))),))})
>>> ts.source_rect(5)
(16, 16, 16, 16)
>>> [(r.origin.y, r.size.y) for r in cell_shapes(ts, 1, 0.0, 0.0, 16.0)]
[(8.0, 8.0)]
>>> [(r.origin.y, r.size.y) for r in cell_shapes(ts, 1 | FLIP_Y, 0.0, 0.0, 16.0)]
[(0.0, 8.0)]
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, NamedTuple, Optional

from level_editor.core.collision.shapes import Capsule, Circle, Rect, Vec2, as_vec2

__all__ = ["FLIP_X", "FLIP_Y", "FLIP_D", "FLAGS", "NO_TILE", "TileShape", "TileInfo", "Tileset", "PaintedTile",
           "placed_tiles", "tile_number",
           "cell_flags", "flipped_x", "flipped_y", "turned", "cell_matrix", "cell_shapes", "cell_shape_parts",
           "painted_shapes", "merged_rects", "POLYGON_EDGE_RADIUS", "TILE_SHAPE_KINDS"]

FLIP_X = 0x80000000
FLIP_Y = 0x40000000
FLIP_D = 0x20000000
FLAGS = FLIP_X | FLIP_Y | FLIP_D
#: An empty cell of a painted grid.
NO_TILE = -1

#: A polygon's sides collide as capsules of this radius: segments (the core has no polygon shape; its capsules
#: sweep exactly, so nothing tunnels through them, and a radius of 0 leaves no lip where a slope tile meets the
#: floor beside it: a box walks onto it).
POLYGON_EDGE_RADIUS = 0.0

TILE_SHAPE_KINDS = ("rect", "ellipse", "polygon")


def tile_number(value: int) -> int:
    """The tile a painted cell holds, without its flags (-1 for an empty cell)."""
    return value & ~FLAGS if value >= 0 else NO_TILE


def cell_flags(value: int) -> tuple[bool, bool, bool]:
    """``(flip_x, flip_y, flip_d)`` of a painted cell."""
    if value < 0:
        return (False, False, False)
    return (bool(value & FLIP_X), bool(value & FLIP_Y), bool(value & FLIP_D))


def cell_matrix(value: int) -> tuple[int, int, int, int]:
    """The 2 x 2 matrix ``(a, b, c, d)`` a cell's flags apply to a point of its tile, about the tile's centre.

    ``(x, y) -> (a*x + b*y, c*x + d*y)``: the diagonal flip (swap x and y) first, then mirror x, then y.
    """
    fx, fy, fd = cell_flags(value)
    a, b, c, d = (0, 1, 1, 0) if fd else (1, 0, 0, 1)
    if fx:
        a, b = -a, -b
    if fy:
        c, d = -c, -d
    return a, b, c, d


_MATRIX_FLAGS = {cell_matrix(f): f for f in (0, FLIP_X, FLIP_Y, FLIP_D, FLIP_X | FLIP_Y, FLIP_X | FLIP_D,
                                              FLIP_Y | FLIP_D, FLAGS)}


def _with_matrix(value: int, m: tuple[int, int, int, int]) -> int:
    return tile_number(value) | _MATRIX_FLAGS[m]


def _then(m: tuple[int, int, int, int], value: int) -> int:
    """The cell with the matrix ``m`` applied after its own flags."""
    if value < 0:
        return value
    a, b, c, d = cell_matrix(value)
    p, q, r, s = m
    return _with_matrix(value, (p * a + q * c, p * b + q * d, r * a + s * c, r * b + s * d))


def flipped_x(value: int) -> int:
    """The cell mirrored left to right (Tiled's X)."""
    return _then((-1, 0, 0, 1), value)


def flipped_y(value: int) -> int:
    """The cell upside down (Tiled's Y)."""
    return _then((1, 0, 0, -1), value)


def turned(value: int, clockwise: bool = True) -> int:
    """The cell turned a quarter, clockwise on screen by default (Tiled's Z; Shift+Z the other way).

    >>> turned(turned(turned(turned(5))))
    5
    >>> cell_flags(turned(5))
    (True, False, True)
    """
    # y points down: a clockwise quarter turn on screen takes (x, y) to (-y, x)
    return _then((0, -1, 1, 0) if clockwise else (0, 1, -1, 0), value)


@dataclass(frozen=True, slots=True)
class TileShape:
    """A collision shape of a tile, in the tile's own pixels (y down).

    ``kind`` is ``"rect"`` or ``"ellipse"`` (``points`` is ``(top-left corner, size)``) or ``"polygon"``
    (``points`` are its corners, at least 3).
    """

    kind: str
    points: tuple[Vec2, ...]

    def __post_init__(self):
        object.__setattr__(self, "points", tuple(as_vec2(p) for p in self.points))

    def to_json(self) -> dict:
        from level_editor.core.level.number_text import file_number
        pts = [[file_number(p.x), file_number(p.y)] for p in self.points]
        if self.kind == "polygon":
            return {"polygon": pts}
        return {self.kind: pts[0] + pts[1]}

    def outline(self, segments: int = 16) -> tuple[Vec2, ...]:
        """Its corners (an ellipse: ``segments`` points on it)."""
        if self.kind == "polygon":
            return self.points
        (x, y), (w, h) = self.points
        if self.kind == "rect":
            return (Vec2(x, y), Vec2(x + w, y), Vec2(x + w, y + h), Vec2(x, y + h))
        cx, cy, rx, ry = x + w / 2, y + h / 2, w / 2, h / 2
        return tuple(Vec2(cx + rx * math.cos(2 * math.pi * i / segments), cy + ry * math.sin(2 * math.pi * i / segments))
                     for i in range(segments))


FULL_TILE = "full"


@dataclass(frozen=True, slots=True)
class TileInfo:
    """What a tileset says of one tile: its collision shapes, type and properties, and (a collection's tile) its
    own picture and that picture's size."""

    collision: tuple[TileShape, ...] = ()
    properties: Mapping = field(default_factory=dict, hash=False)
    type: str = ""
    image: str = ""
    image_size: Optional[Vec2] = None
    extra: Mapping = field(default_factory=dict, hash=False)

    def __post_init__(self):
        object.__setattr__(self, "collision", tuple(self.collision))
        if self.image_size is not None:
            object.__setattr__(self, "image_size", as_vec2(self.image_size))


@dataclass(frozen=True, slots=True)
class Tileset:
    """A picture cut into tiles, or a collection of pictures (``image`` empty, each tile's own in ``tiles``).

    ``image`` (and a collection's tile pictures) are paths relative to the level file, as an ``image`` object's.
    ``columns`` and ``count`` are the tiles per row and in all (a collection: its tiles' numbers decide);
    ``offset`` shifts every tile as it is drawn (Tiled's tile offset); ``transparent`` is a colour
    (``#rrggbb``) drawn as transparent, or ``""``. ``folder``, as an image's, is the folder the paths are relative
    to when known; no file holds it.
    """

    id: str
    name: str
    tile_size: Vec2
    image: str = ""
    image_size: Optional[Vec2] = None
    margin: int = 0
    spacing: int = 0
    columns: int = 0
    count: int = 0
    offset: Vec2 = Vec2(0.0, 0.0)
    transparent: str = ""
    tiles: Mapping = field(default_factory=dict, hash=False)
    extra: Mapping = field(default_factory=dict, hash=False)
    folder: Optional[str] = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "tile_size", as_vec2(self.tile_size))
        object.__setattr__(self, "offset", as_vec2(self.offset))
        if self.image_size is not None:
            object.__setattr__(self, "image_size", as_vec2(self.image_size))

    def __hash__(self):
        return hash((self.id, self.image, self.tile_size, self.count))

    @property
    def is_collection(self) -> bool:
        return not self.image

    def tile_count(self) -> int:
        """How many tiles it has (a collection: one more than its highest tile number)."""
        if self.is_collection:
            return max(max(self.tiles, default=-1) + 1, self.count)
        return self.count

    def has_tile(self, tile: int) -> bool:
        if self.is_collection:  # its tiles with pictures, or (a tileset of no pictures at all) its count
            return tile in self.tiles or 0 <= tile < self.count
        return 0 <= tile < self.count

    def info(self, tile: int) -> TileInfo:
        return self.tiles.get(tile, _NO_INFO)

    def source_rect(self, tile: int) -> tuple[int, int, int, int]:
        """Where tile ``tile`` is in the picture: ``(x, y, width, height)`` (a collection: its whole picture)."""
        if self.is_collection:
            size = self.tile_picture_size(tile)
            return (0, 0, int(size.x), int(size.y))
        w, h = int(self.tile_size.x), int(self.tile_size.y)
        columns = max(self.columns, 1)
        col, row = tile % columns, tile // columns
        return (self.margin + col * (w + self.spacing), self.margin + row * (h + self.spacing), w, h)

    def picture_of(self, tile: int) -> str:
        """The path of the picture tile ``tile`` is cut from."""
        return self.info(tile).image if self.is_collection else self.image

    def tile_picture_size(self, tile: int) -> Vec2:
        """The size the tile is drawn at (a collection's tile: its picture's size when known)."""
        if self.is_collection:
            size = self.info(tile).image_size
            return size if size is not None else self.tile_size
        return self.tile_size

    def with_tile(self, tile: int, info: TileInfo) -> "Tileset":
        from dataclasses import replace
        tiles = dict(self.tiles)
        if info == _NO_INFO:
            tiles.pop(tile, None)
        else:
            tiles[tile] = info
        return replace(self, tiles=tiles)


_NO_INFO = TileInfo()


class PaintedTile(NamedTuple):
    """One painted cell of a grid, placed as Tiled places it (and as the editor and ``render`` draw it).

    ``tile`` is the tile's number in the grid's tileset; ``x``, ``y``, ``width``, ``height`` the box its picture
    covers in the level once flipped (width and height swapped by a diagonal flip): its bottom-left corner on the
    cell's, shifted by the tileset's offset. To draw it, take the tile's picture (the tileset's
    ``picture_of(tile)``, the part ``source_rect(tile)``, at ``tile_picture_size(tile)``), flip it along its
    diagonal first (x and y swapped) when ``flip_diagonal``, then mirror it left to right when ``flip_x``, then
    upside down when ``flip_y``, and put it in the box.
    """

    column: int
    row: int
    tile: int
    flip_x: bool
    flip_y: bool
    flip_diagonal: bool
    x: float
    y: float
    width: float
    height: float


def placed_tiles(tileset: Tileset, rows, origin: Vec2, cell: float) -> tuple[PaintedTile, ...]:
    """Every painted cell of ``rows`` (a grid's painted rows at ``origin``, cells of side ``cell``), row by row.

    >>> art = Tileset("t", "T", (16, 24), image="t.png", columns=4, count=8, offset=(2, 0))
    >>> placed_tiles(art, ((-1, 5 | FLIP_D),), Vec2(100, 0), 16)
    (PaintedTile(column=1, row=0, tile=5, flip_x=False, flip_y=False, flip_diagonal=True, x=118.0, y=0.0, \
width=24.0, height=16.0),)
    """
    ox, oy = origin.x + tileset.offset.x, origin.y + tileset.offset.y
    placed = []
    for row, line in enumerate(rows):
        bottom = oy + (row + 1) * cell
        for column, value in enumerate(line):
            if value < 0:
                continue
            tile = tile_number(value)
            fx, fy, fd = cell_flags(value)
            w, h = tileset.tile_picture_size(tile)
            if fd:
                w, h = h, w
            placed.append(PaintedTile(column, row, tile, fx, fy, fd, ox + column * cell, bottom - h, w, h))
    return tuple(placed)


def columns_of(image_width: float, tile_width: float, margin: int, spacing: int) -> int:
    """How many tiles fit across a picture (Tiled's count: whole tiles only)."""
    return max(0, int((image_width - 2 * margin + spacing) // (tile_width + spacing)))


def _mapped(value: int, tile_w: float, tile_h: float):
    """A function taking a point of the tile (its pixels) to where it is in a cell of the tile's drawn box."""
    a, b, c, d = cell_matrix(value)
    cx, cy = tile_w / 2, tile_h / 2
    # the drawn box of a diagonally flipped tile swaps width and height
    ox, oy = (cy, cx) if b else (cx, cy)

    def point(p: Vec2) -> tuple[float, float]:
        x, y = p.x - cx, p.y - cy
        return (a * x + b * y + ox, c * x + d * y + oy)
    return point


def cell_shapes(tileset: Tileset, value: int, x: float, y: float, cell: float) -> list:
    """The collision shapes of the painted cell ``value`` whose cell has its top-left corner at ``(x, y)``.

    The tile is drawn with its bottom-left corner on the cell's bottom-left corner (as Tiled draws a tile
    larger than the map's cells), shifted by the tileset's offset; its shapes go with it. Rectangles stay
    rectangles under flips and turns; an ellipse as wide as high is a circle; other ellipses and polygons
    collide by their sides.
    """
    parts = cell_shape_parts(tileset, value)
    if not parts:
        return []
    h, rects, circles, polygons, order = parts
    left = x + tileset.offset.x
    top = y + cell - h + tileset.offset.y
    shapes: list = []
    for kind, k in order:
        if kind == "rect":
            mx, my, w, hh = rects[k]
            shapes.append(Rect(Vec2(left + mx, top + my), Vec2(w, hh)))
        elif kind == "circle":
            cx, cy, r = circles[k]
            shapes.append(Circle(Vec2(left + cx, top + cy), r))
        else:
            pts = [Vec2(left + px, top + py) for px, py in polygons[k]]
            shapes.extend(Capsule(pts[i], pts[(i + 1) % len(pts)], POLYGON_EDGE_RADIUS)
                          for i in range(len(pts)) if pts[i] != pts[(i + 1) % len(pts)])
    return shapes


def cell_shape_parts(tileset: Tileset, value: int):
    """What :func:`cell_shapes` places, relative to the tile's drawn box: None when the cell has no collision,
    else ``(h, rects, circles, polygons, order)``: the box's height (its top is ``y + cell - h`` plus the offset),
    ``rects`` as ``(min x, min y, width, height)``, ``circles`` as ``(x, y, radius)``, ``polygons`` (drawn as
    their sides) as lists of corners, and ``order``, the tile's shapes in order as ``(kind, index)``. Every placed coordinate is the drawn box's left (top) plus one of
    these, so a whole grid can be placed at once with the same sums (:mod:`level_editor.core.level.art_grid`).
    """
    tile = tile_number(value)
    if tile < 0:
        return None
    info = tileset.info(tile)
    if not info.collision:
        return None
    size = tileset.tile_picture_size(tile)
    turned_ = bool(value & FLIP_D) if value >= 0 else False
    h = size.x if turned_ else size.y
    to_cell = _mapped(value, size.x, size.y)
    rects, circles, polygons, order = [], [], [], []
    for shape in info.collision:
        if shape.kind == "rect":
            (px, py), (pw, ph) = shape.points
            x0, y0 = to_cell(Vec2(px, py))
            x1, y1 = to_cell(Vec2(px + pw, py + ph))
            order.append(("rect", len(rects)))
            rects.append((min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)))
        elif shape.kind == "ellipse" and shape.points[1].x == shape.points[1].y:
            (px, py), (pw, _) = shape.points
            cx, cy = to_cell(Vec2(px + pw / 2, py + pw / 2))
            order.append(("circle", len(circles)))
            circles.append((cx, cy, pw / 2))
        else:
            order.append(("polygon", len(polygons)))
            polygons.append([to_cell(p) for p in shape.outline()])
    return h, rects, circles, polygons, order


def cell_polygons(tileset: Tileset, value: int, x: float, y: float, cell: float) -> list:
    """The areas the polygons (and ellipses that are not circles) of the painted cell ``value`` enclose, as lists
    of corners, placed as :func:`cell_shapes` places them. Their sides are what collides; what is inside a slope
    is no free space either, which the checks need to know (a spawn there is stuck)."""
    tile = tile_number(value)
    if tile < 0:
        return []
    info = tileset.info(tile)
    shaped = [s for s in info.collision
              if s.kind == "polygon" or (s.kind == "ellipse" and s.points[1].x != s.points[1].y)]
    if not shaped:
        return []
    size = tileset.tile_picture_size(tile)
    h = size.x if value & FLIP_D else size.y
    left, top = x + tileset.offset.x, y + cell - h + tileset.offset.y
    to_cell = _mapped(value, size.x, size.y)
    return [[(left + px, top + py) for px, py in (to_cell(p) for p in shape.outline())] for shape in shaped]


def painted_shapes(tileset: Tileset, rows, ox: float, oy: float, cell: float) -> tuple:
    """The collision shapes of painted ``rows`` (a grid's corner at ``(ox, oy)``, cells of ``cell``), cell by cell:
    the rectangles joined (:func:`merged_rects`), then circles and polygon sides, row by row. Pure Python, for a game
    without NumPy; :func:`level_editor.core.level.art_grid.grid_shapes` gives the same shapes at once."""
    colliding = {t for t, info in tileset.tiles.items() if info.collision}
    if not colliding:
        return ()
    rects, others = [], []
    for row, line in enumerate(rows):
        y = oy + row * cell
        for col, value in enumerate(line):
            if value >= 0 and tile_number(value) in colliding:
                for shape in cell_shapes(tileset, value, ox + col * cell, y, cell):
                    (rects if shape.__class__ is Rect else others).append(shape)
    return tuple(merged_rects(rects)) + tuple(others)


def merged_rects(rects: Iterable[Rect]) -> list[Rect]:
    """Axis-aligned rectangles joined where they meet edge to edge: one flat surface, no seams to catch on.

    First along rows (same top and bottom, touching side by side), then along columns (same left and right,
    touching top to bottom), as a grid's solid cells are joined (seed 003's box sets).

    >>> [(r.origin.x, r.size.x) for r in merged_rects([Rect((16, 8), (16, 8)), Rect((0, 8), (16, 8))])]
    [(0.0, 32.0)]
    """
    rows: dict[tuple[float, float], list[list[float]]] = {}
    for r in sorted(rects, key=lambda r: (r.origin.y, r.origin.x)):
        y0, y1 = r.origin.y, r.origin.y + r.size.y
        x0, x1 = r.origin.x, r.origin.x + r.size.x
        runs = rows.setdefault((y0, y1), [])
        if runs and x0 <= runs[-1][1]:
            runs[-1][1] = max(runs[-1][1], x1)
        else:
            runs.append([x0, x1])
    columns: dict[tuple[float, float], list[list[float]]] = {}
    for (y0, y1), runs in sorted(rows.items()):
        for x0, x1 in runs:
            stack = columns.setdefault((x0, x1), [])
            if stack and y0 <= stack[-1][1]:
                stack[-1][1] = max(stack[-1][1], y1)
            else:
                stack.append([y0, y1])
    out = [Rect(Vec2(x0, y0), Vec2(x1 - x0, y1 - y0)) for (x0, x1), stack in columns.items() for y0, y1 in stack]
    return sorted(out, key=lambda r: (r.origin.y, r.origin.x))
