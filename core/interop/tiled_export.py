"""A level as a Tiled map: TMJ (Tiled's JSON) or TMX (its XML), for Tiled 1.8 and newer and Tiled's loaders.

:func:`level_to_tiled` builds the map as TMJ-shaped data (``dict``), the
pictures of its generated tilesets, and notes; :func:`write_tiled` writes them
(:mod:`level_editor.core.interop.tmx` turns the same data into XML).

How a level becomes a map:

- The map's tile size is the most common cell of the level's painted grids, so
  most of them are tile layers; without painted grids it is the level's grid
  (rounded when the grid is not a whole number of pixels; the grid itself is
  kept in the bookkeeping). The map covers the level's ``size`` (rounded up to
  whole tiles, the exact size in the bookkeeping), else what the level holds;
  ``background`` is the map's ``backgroundcolor``; a layer's opacity is its
  Tiled layer's.
- Each level layer is one Tiled layer, in order, with its name, ``visible`` and
  ``locked``: an object layer, or a group layer when the level layer holds
  reference images or tile grids (the group holds an image layer per image, a
  tile layer per grid, then one object layer for the rest).
- Objects keep their id as ``name`` and their type as ``type``; boxes are
  rectangles, oriented boxes rotated rectangles (Tiled turns a rectangle about
  its top-left corner, so x, y are that corner after the turn), pillars
  ellipses, walls polylines (polygons when closed) with a float property
  ``thickness``, markers points. Areas the player passes through carry a bool
  property ``solid`` = false. Each object's properties are written resolved (its
  type's defaults overlaid with its own); object references are ``object``
  properties holding the Tiled id of the object they point at.
- A tile grid is a tile layer of a generated two-tile tileset (a solid tile with
  a collision rectangle, and an "area" tile for grids that do not collide) whose
  picture is written beside the map (``<map>.tiles-<size>.png``). Its cells are
  the map's cells when the grid's cell is the map's tile size, or a whole
  multiple of it (bigger tiles, anchored bottom-left as Tiled draws them); the
  layer's ``offsetx``/``offsety`` carry an origin that is not on a cell
  boundary. A grid whose cell is no whole multiple of the map's tile size
  becomes an object layer of tile objects instead, one per solid cell.
- The level's art (format version 3). Each tileset is a tileset embedded in
  the map, in order from firstgid 1: its picture named from the map's folder,
  the picture's size (from the level, else its PNG header, else the least that
  holds the tiles), tile size, margin, spacing, columns, count, ``tileoffset``
  and ``transparentcolor``; each tile's ``type``, properties and collision
  shapes (rectangles, ellipses, polygons: the tile's object group). A
  collection stays a collection. Its bookkeeping holds its id. The sprites'
  picture files make one more collection, "level-editor pictures" (bookkeeping
  ``{"pictures": true}``), one tile per file, sized from the PNG header.
- A painted grid is a tile layer as a plain grid is (same placement and
  bookkeeping, plus ``tileset``), its cells the gids of its tiles with their
  flags in the high bits (ours are Tiled's). A painted grid whose cell is not a
  whole multiple of the map's tile size is an object layer of tile objects, one
  per painted cell, each at its tile's size with its bottom-left corner on the
  cell's (as a tile layer draws it), with a note. A level layer holding art is
  a group whose children follow the file order: each grid and image a layer of
  its own, each run of other objects an object layer, so Tiled draws them in
  the order we do.
- A sprite is a tile object: the gid of its tile (or of its picture file) with
  its flips, placed by its bottom-left corner and turned about it as Tiled
  does, ``width``/``height`` its size (Tiled stretches the tile to it). Tiled
  shifts a tile object by its tileset's offset and our sprites take none: the
  offset is taken off. A solid sprite has a bool property ``solid`` = true, and
  an opacity other than 1 is a float property ``opacity`` (Tiled has no opacity
  of its own for an object: it draws the sprite opaque).
- A reference image is an image layer (path relative to the map, offset,
  opacity). Tiled 1.8 image layers cannot be scaled: the scale is a float
  property ``scale``.
- The player's spawn is a point named ``player`` of type ``player_spawn`` on an
  object layer of its own, on top, with properties ``shape``, ``radius`` (a
  circle) or ``box_width``/``box_height`` (a box) and ``speed``.
- The level's name, its object types (with colours and default properties),
  unknown keys and file order go into ``level-editor`` bookkeeping properties
  (:mod:`level_editor.core.interop.tiled_common`).

>>> from level_editor.core.level.model import Box, Level
>>> data = level_to_tiled(Level(objects=(Box("crate", (16, 32), (64, 32)),))).data
>>> [(o["name"], o["x"], o["y"], o["width"]) for o in data["layers"][0]["objects"]]
[('crate', 16, 32, 64)]
"""
from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from level_editor.core.interop.png import png_size, png_tiles
from level_editor.core.interop.map_text import let_go, text_blocks
from level_editor.core.interop.tmx import tmx_blocks
from level_editor.core.interop.wall_outline import outline_sums, wall_polygons
from level_editor.core.interop.tiled_common import (
    BOOKKEEPING,
    LEVEL_MARK,
    PLAYER_NAME,
    PLAYER_TYPE,
    TILE_AREA,
    TILE_SOLID,
    TiledExportError,
    bookkeeping_text,
    relocate_path,
    xml_safe,
    reserved_names,
    rotated,
    same_value,
)
from level_editor.core.level.art import FLIP_X, FLIP_Y, TileShape, Tileset, tile_number
from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.atomic import write_blocks_atomic, write_bytes_atomic
from level_editor.core.level.file_format import VERSION, type_to_dict
from level_editor.core.level.format.fields import MOTION, PLAYER_SETTINGS
from level_editor.core.level.loader_names import tiled_names
from level_editor.core.level.number_text import file_number
from level_editor.core.level.model import (
    moving_path,
    SOLID_CELL,
    Box,
    Image,
    Level,
    OrientedBox,
    Pillar,
    Player,
    Point,
    Ref,
    Sprite,
    Tiles,
    Wall,
)

__all__ = ["TiledExportError", "TiledMap", "level_to_tiled", "dumps_tmj", "write_tiled", "tiled_format",
           "FORMATS"]

#: The map formats by name, and the file name endings that choose them.
FORMATS = ("tmj", "tmx")
_ENDINGS = {".tmj": "tmj", ".tmx": "tmx"}

#: Tiled keeps integer properties in 32 bits.
_INT32 = (-(2**31), 2**31 - 1)

#: A generated tile picture is at most this many pixels a side (larger cells become tile objects).
_MAX_TILE_PX = 4096
#: Tile objects stand for cells that are not map tiles; their picture is scaled, so it can stay small.
_MAX_OBJECT_TILE_PX = 256
#: A tile layer holds a tile for every cell of the map: past this many, grids stop being moved onto the
#: map's own cells (their layer offset carries their whole origin instead).
_CELL_BUDGET = 1 << 20

_COLORS = {TILE_SOLID: (90, 98, 112, 255), TILE_AREA: (64, 192, 112, 110)}
#: The player's colour in Tiled: the editor's (its spawn item's fill).
_PLAYER_COLOR = "#46c85a"


@dataclass(frozen=True)
class TiledMap:
    """A map ready to write: TMJ-shaped ``data``, the files beside it (name -> bytes), and notes."""

    data: dict
    files: dict = field(default_factory=dict)
    notes: tuple = ()


def tiled_format(path: str, fmt: Optional[str] = None) -> Optional[str]:
    """``"tmj"`` or ``"tmx"`` for a map path (or the format asked for), None for anything else.

    >>> tiled_format("out/level.TMX"), tiled_format("level.json"), tiled_format("level.json", "tmj")
    ('tmx', None, 'tmj')
    """
    if fmt is not None:
        return fmt if fmt in FORMATS else None
    return _ENDINGS.get(os.path.splitext(path)[1].lower())


class _Exporter:
    def __init__(self, level: Level, map_name: str, level_dir: Optional[str], map_dir: Optional[str]):
        self.level = level
        self.map_name = map_name
        self.level_dir, self.map_dir = level_dir, map_dir
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.tile = _map_tile(level)
        # Tiled object ids follow file order, so the import can give the objects back in the same order;
        # tile grids and images (layers in Tiled) keep their number in their bookkeeping.
        self.seq = {obj.id: i + 1 for i, obj in enumerate(level.objects)}
        self.player_id = len(level.objects) + 1
        self.next_object_id = len(level.objects) + 2
        self.next_layer_id = 1
        self.tilesets: dict[int, int] = {}  # tile size in px -> firstgid
        # the level's tilesets first, in order, then the sprites' picture files, then the generated tilesets
        self.art_gids: dict[str, int] = {}  # tileset id -> firstgid
        self.art_tilesets: list[dict] = []
        self.picture_gids: dict[tuple[str, Optional[str]], int] = {}  # (picture, folder) -> gid
        self.next_gid = 1

    # -- properties ---------------------------------------------------------------------------------

    def _ref_value(self, owner: str, name: str, ref: Ref) -> int:
        if not ref.id:
            return 0
        target = self.seq.get(ref.id)
        if target is None:
            self.problems.append(f"{owner}: property {name!r} refers to {ref.id!r}, which does not exist")
            return 0
        return target

    def _property(self, owner: str, name: str, value) -> dict:
        if isinstance(value, bool):
            return {"name": name, "type": "bool", "value": value}
        if isinstance(value, int):
            if not _INT32[0] <= value <= _INT32[1]:
                self.notes.append(f"{owner}: property {name!r} = {value} is outside Tiled's 32-bit integers: "
                                  f"Tiled itself will change it when it saves the map")
            return {"name": name, "type": "int", "value": value}
        if isinstance(value, float):
            return {"name": name, "type": "float", "value": value}
        if isinstance(value, Ref):
            return {"name": name, "type": "object", "value": self._ref_value(owner, name, value)}
        return {"name": name, "type": "string", "value": str(value)}

    def _properties(self, owner: str, props, kind: str, book: dict) -> list[dict]:
        """Typed properties; a name Tiled's loaders keep for themselves is written under another, noted in ``book``."""
        out = [self._property(owner, k, v) for k, v in props.items()]
        renamed = tiled_names(kind, props)
        if renamed:
            for p in out:
                p["name"] = renamed.get(p["name"], p["name"])
            book["renamed"] = {new: name for name, new in renamed.items()}
        return out

    def _object_properties(self, obj, extra_props: list[dict], book: dict) -> list[dict]:
        """An object's resolved properties, then what the export adds, then the bookkeeping (when any).

        A one-way floor says so in a bool property ``one_way``; a moving object's path is kept in the
        bookkeeping, as the level file writes it.
        """
        if getattr(obj, "one_way", False):
            extra_props = extra_props + [{"name": "one_way", "type": "bool", "value": True}]
        path = moving_path(obj)
        if path is not None:
            book["path"] = MOTION.to_json(path)
        resolved = self.level.properties_of(obj)
        clash = [k for k in resolved if k in reserved_names(obj.kind)]
        if clash:
            self.problems.append(f"{obj.id}: property {clash[0]!r} has the name the Tiled export gives "
                                 f"{'its own bookkeeping' if clash[0] == BOOKKEEPING else 'the ' + clash[0]}; "
                                 f"rename it to export")
        t = self.level.object_type(obj.type)
        defaults = t.properties if t is not None else {}
        own_as_default = [k for k, v in obj.properties.items() if k in defaults and same_value(defaults[k], v)]
        if own_as_default:
            book["own"] = own_as_default
        if defaults and [k for k in resolved if k in obj.properties] != list(obj.properties):
            book["own_order"] = list(obj.properties)  # the map lists them after the type's defaults
        if obj.extra:
            book["extra"] = dict(obj.extra)
        out = self._properties(obj.id, resolved, obj.kind, book) + extra_props
        if book:
            out.append({"name": BOOKKEEPING, "type": "string", "value": bookkeeping_text(book)})
        return out

    # -- tilesets -----------------------------------------------------------------------------------

    def _tileset_gid(self, size: int, solid: bool) -> int:
        if size not in self.tilesets:
            self.tilesets[size] = self.next_gid
            self.next_gid += 2
        return self.tilesets[size] + (TILE_SOLID if solid else TILE_AREA)

    def _png_name(self, size: int) -> str:
        return f"{self.map_name}.tiles-{size}.png"

    def _tileset_data(self) -> tuple[list[dict], dict]:
        tilesets, files = [], {}
        for size, firstgid in self.tilesets.items():
            name = self._png_name(size)
            files[name] = png_tiles(size, [_COLORS[TILE_SOLID], _COLORS[TILE_AREA]])
            collision = {"draworder": "index", "id": 2, "name": "", "objects": [
                {"id": 1, "name": "", "type": "", "x": 0, "y": 0, "width": size, "height": size,
                 "rotation": 0, "visible": True}], "opacity": 1, "type": "objectgroup", "visible": True,
                "x": 0, "y": 0}
            tilesets.append({
                "firstgid": firstgid, "name": f"level-editor {size}px", "tilewidth": size, "tileheight": size,
                "tilecount": 2, "columns": 2, "margin": 0, "spacing": 0,
                "image": name, "imagewidth": 2 * size, "imageheight": size,
                "tiles": [
                    {"id": TILE_SOLID, "type": "solid", "objectgroup": collision,
                     "properties": [{"name": "solid", "type": "bool", "value": True}]},
                    {"id": TILE_AREA, "type": "area",
                     "properties": [{"name": "solid", "type": "bool", "value": False}]},
                ],
            })
        return tilesets, files

    # -- the level's art: its tilesets, and the sprites' picture files ---------------------------------

    def _picture_path(self, path: str, folder: Optional[str]) -> str:
        """A picture's path as the map names it: relative to the map's folder (``folder``: where ``path`` is
        relative to when known, else the level's)."""
        return relocate_path(path, folder or self.level_dir, self.map_dir)

    def _picture_size(self, owner: str, path: str, folder: Optional[str]) -> Optional[tuple[int, int]]:
        """The size a picture file's PNG header gives, or None (with a note) when it cannot be read."""
        base = folder or self.level_dir
        if not os.path.isabs(path) and not base:
            return None  # a level without a folder: nothing to look in
        full = os.path.normpath(path if os.path.isabs(path) else os.path.join(base, *path.split("/")))
        try:
            with open(full, "rb") as f:
                head = f.read(24)
        except (OSError, ValueError):
            self.notes.append(f"{owner}: the picture {path!r} is missing: it is exported as it is named, and "
                              f"Tiled will draw nothing for it")
            return None
        try:
            return png_size(head)
        except ValueError:
            self.notes.append(f"{owner}: the picture {path!r} is not a PNG file: its size is taken from the level")
            return None

    def _art_tilesets(self) -> None:
        """Each of the level's tilesets as a Tiled tileset, firstgids in order, then a collection of the sprites'
        picture files (one tile per file)."""
        for ts in self.level.tilesets:
            self.art_gids[ts.id] = self.next_gid
            self.art_tilesets.append(self._art_tileset(ts, self.next_gid))
            self.next_gid += max(1, ts.tile_count())
        pictures: dict[tuple[str, Optional[str]], Sprite] = {}
        for obj in self.level.objects:
            if isinstance(obj, Sprite) and not obj.tileset and obj.picture:
                pictures.setdefault((obj.picture, obj.folder), obj)
        if not pictures:
            return
        tiles, widest, tallest = [], 1, 1
        for i, ((path, folder), sprite) in enumerate(pictures.items()):
            size = self._picture_size(sprite.id, path, folder)
            w, h = size if size is not None else (max(1, round(sprite.size.x)), max(1, round(sprite.size.y)))
            widest, tallest = max(widest, w), max(tallest, h)
            tiles.append({"id": i, "image": self._picture_path(path, folder), "imagewidth": w, "imageheight": h})
            self.picture_gids[(path, folder)] = self.next_gid + i
        self.art_tilesets.append({
            "firstgid": self.next_gid, "name": "level-editor pictures", "tilewidth": widest, "tileheight": tallest,
            "tilecount": len(tiles), "columns": 0, "margin": 0, "spacing": 0, "tiles": tiles,
            "properties": [{"name": BOOKKEEPING, "type": "string", "value": bookkeeping_text({"pictures": True})}]})
        self.next_gid += len(tiles)

    def _art_tileset(self, ts: Tileset, firstgid: int) -> dict:
        w, h = max(1, round(ts.tile_size.x)), max(1, round(ts.tile_size.y))
        owner = f"tileset {ts.id}"
        d: dict[str, Any] = {"firstgid": firstgid, "name": ts.name or ts.id, "tilewidth": w, "tileheight": h,
                             "tilecount": sum(1 for t in ts.tiles.values() if t.image),
                             "columns": 0 if ts.is_collection else ts.columns,
                             "margin": ts.margin, "spacing": ts.spacing}
        if not ts.is_collection:
            d["tilecount"] = ts.count
            d["image"] = self._picture_path(ts.image, ts.folder)
            found = self._picture_size(owner, ts.image, ts.folder)
            if ts.image_size is not None:
                iw, ih = round(ts.image_size.x), round(ts.image_size.y)
            elif found is not None:
                iw, ih = found
            else:  # the least picture that holds its tiles
                columns = max(1, ts.columns)
                rows = max(1, math.ceil(ts.count / columns))
                iw = 2 * ts.margin + columns * w + (columns - 1) * ts.spacing
                ih = 2 * ts.margin + rows * h + (rows - 1) * ts.spacing
            d["imagewidth"], d["imageheight"] = iw, ih
        if ts.offset.x or ts.offset.y:
            d["tileoffset"] = {"x": file_number(ts.offset.x), "y": file_number(ts.offset.y)}
        if ts.transparent:
            d["transparentcolor"] = ts.transparent
        tiles = []
        for number_ in sorted(ts.tiles):
            info = ts.tiles[number_]
            tile: dict[str, Any] = {"id": number_}
            if info.type:
                tile["type"] = info.type
            if ts.is_collection and info.image:
                tile["image"] = self._picture_path(info.image, ts.folder)
                found = self._picture_size(f"{owner} tile {number_}", info.image, ts.folder)
                size = info.image_size or (Vec2(*found) if found is not None else ts.tile_size)
                tile["imagewidth"], tile["imageheight"] = round(size.x), round(size.y)
            props = [self._property(f"{owner} tile {number_}", k, v) for k, v in info.properties.items()]
            if info.extra:
                props.append({"name": BOOKKEEPING, "type": "string",
                              "value": bookkeeping_text({"extra": dict(info.extra)})})
            if props:
                tile["properties"] = props
            if info.collision:
                tile["objectgroup"] = {"draworder": "index", "id": 2, "name": "", "type": "objectgroup",
                                       "visible": True, "opacity": 1, "x": 0, "y": 0,
                                       "objects": [_shape_object(i + 1, s) for i, s in enumerate(info.collision)]}
            tiles.append(tile)
        if tiles:
            d["tiles"] = tiles
        book: dict[str, Any] = {"tileset": ts.id}
        if ts.extra:
            book["extra"] = dict(ts.extra)
        d["properties"] = [{"name": BOOKKEEPING, "type": "string", "value": bookkeeping_text(book)}]
        return d

    def _cell_gid(self, owner: str, tileset_id: str, value: int) -> int:
        """The global tile id of a painted cell (its flags kept in the high bits, which are Tiled's), 0 for none."""
        if value < 0:
            return 0
        firstgid = self.art_gids.get(tileset_id)
        if firstgid is None:
            problem = f"{owner}: tileset {tileset_id!r} does not exist"
            if problem not in self.problems[-1:]:  # once for a grid, not once per cell
                self.problems.append(problem)
            return 0
        return (firstgid + tile_number(value)) | (value & 0xE0000000)

    # -- object types -------------------------------------------------------------------------------

    def _object_types(self) -> dict:
        """The level's types as Tiled's object types (name, colour, default properties), so Tiled draws each object
        in its type's colour: ``<map>.objecttypes.xml``, and ``<map>.tiled-project`` naming it (Tiled 1.9 and newer
        turn the object types of a project they open into classes; Tiled 1.8 reads them from View > Object Types
        Editor > File > Import, or from the project's properties)."""
        root = ET.Element("objecttypes")
        types = [(PLAYER_TYPE, _PLAYER_COLOR, {})] + [(t.name, t.color, t.properties) for t in self.level.types]
        for name, color, defaults in types:
            if not xml_safe(name):
                self.notes.append(f"-: type {name!r}: its name holds characters XML cannot carry: it is left out "
                                  f"of the object types file")
                continue
            el = ET.SubElement(root, "objecttype", name=name, color=color)
            renamed = tiled_names("point", defaults)
            for key, value in defaults.items():
                kind, text = _type_default(value, self.seq)
                if xml_safe(key) and xml_safe(text):
                    ET.SubElement(el, "property", name=renamed.get(key, key), type=kind, default=text)
        ET.indent(root, " ")
        xml = b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"
        types_file = f"{self.map_name}.objecttypes.xml"
        project = {"automappingRulesFile": "", "commands": [], "extensionsPath": "extensions", "folders": ["."],
                   "objectTypesFile": types_file, "propertyTypes": []}
        return {types_file: xml, f"{self.map_name}.tiled-project": (json.dumps(project, indent=4) + "\n").encode()}

    # -- layers -------------------------------------------------------------------------------------

    def _layer_id(self) -> int:
        self.next_layer_id += 1
        return self.next_layer_id - 1

    def _layer(self, kind: str, name: str, visible=True, locked=False, properties=None, **more) -> dict:
        d: dict[str, Any] = {"id": self._layer_id(), "name": name, "type": kind, "visible": visible}
        if locked:
            d["locked"] = True
        d.update({"opacity": 1, "x": 0, "y": 0})
        d.update(more)
        if properties:
            d["properties"] = properties
        return d

    def _vector_object(self, obj) -> dict:
        d: dict[str, Any] = {"id": self.seq[obj.id], "name": obj.id, "type": obj.type}
        extra: list[dict] = []
        book: dict[str, Any] = {}
        if isinstance(obj, Box):
            d.update(x=file_number(obj.origin.x), y=file_number(obj.origin.y),
                     width=file_number(obj.size.x), height=file_number(obj.size.y), rotation=0)
        elif isinstance(obj, OrientedBox):
            hx, hy = obj.half_extents
            dx, dy = rotated(-hx, -hy, obj.rotation)
            d.update(x=file_number(obj.center.x + dx), y=file_number(obj.center.y + dy),
                     width=file_number(2 * hx), height=file_number(2 * hy), rotation=file_number(obj.rotation))
            if obj.rotation == 0:  # a rectangle that is not turned reads back as a box
                book["kind"] = "oriented_box"
        elif isinstance(obj, Pillar):
            r = obj.radius
            d.update(x=file_number(obj.center.x - r), y=file_number(obj.center.y - r),
                     width=file_number(2 * r), height=file_number(2 * r), rotation=0, ellipse=True)
        elif isinstance(obj, Wall):
            x0, y0 = obj.points[0]
            d.update(x=file_number(x0), y=file_number(y0), width=0, height=0, rotation=0)
            # Tiled draws a polyline as a hairline: the outline shows the wall's thickness, the nodes are kept aside
            d["polygon"] = self.wall_polygons[obj.id]
            book["nodes"] = [[file_number(p.x - x0), file_number(p.y - y0)] for p in obj.points]
            if obj.closed:
                book["closed"] = True
            book["outline"] = outline_sums(d["polygon"])  # the import tells when the outline was edited in Tiled
            extra.append({"name": "thickness", "type": "float", "value": obj.thickness})
        elif isinstance(obj, Point):
            d.update(x=file_number(obj.position.x), y=file_number(obj.position.y), width=0, height=0, rotation=0,
                     point=True)
        elif isinstance(obj, Sprite):
            # Tiled places a tile object by its bottom-left corner and turns it about that corner; the flips
            # mirror the picture inside its box, as ours do before the turn
            w, h = obj.size.x, obj.size.y
            left, bottom = -w / 2, h / 2
            art = self.level.tileset(obj.tileset) if obj.tileset else None
            if art is not None and (art.offset.x or art.offset.y):
                # Tiled shifts a tile object by its tileset's offset, stretched and turned with it; ours take none
                picture = art.tile_picture_size(obj.tile)
                left -= art.offset.x * w / picture.x
                bottom -= art.offset.y * h / picture.y
            dx, dy = rotated(left, bottom, obj.rotation)
            d.update(gid=self._sprite_gid(obj), x=file_number(obj.center.x + dx), y=file_number(obj.center.y + dy),
                     width=file_number(w), height=file_number(h), rotation=file_number(obj.rotation))
            if obj.solid:
                extra.append({"name": "solid", "type": "bool", "value": True})
            if obj.opacity != 1:  # Tiled has no opacity of its own for an object: a game (and our import) reads it
                extra.append({"name": "opacity", "type": "float", "value": obj.opacity})
        else:  # pragma: no cover - the caller sorts kinds
            raise TypeError(type(obj).__name__)
        if not obj.solid and obj.kind in ("wall", "box", "oriented_box", "circle"):
            extra.append({"name": "solid", "type": "bool", "value": False})
        d["visible"] = True
        props = self._object_properties(obj, extra, book)
        if props:
            d["properties"] = props
        return d

    def _sprite_gid(self, sprite: Sprite) -> int:
        flags = (FLIP_X if sprite.flip_x else 0) | (FLIP_Y if sprite.flip_y else 0)
        if not sprite.tileset:
            return self.picture_gids[(sprite.picture, sprite.folder)] | flags
        ts = self.level.tileset(sprite.tileset)
        if ts is not None and not ts.has_tile(sprite.tile):
            self.problems.append(f"{sprite.id}: tile {sprite.tile} is not in tileset {sprite.tileset!r}")
        return self._cell_gid(sprite.id, sprite.tileset, sprite.tile | flags)

    def _image_layer(self, img: Image) -> dict:
        book = {"order": self.seq[img.id]}
        if img.type:
            book["type"] = img.type
        props = self._object_properties(img, [{"name": "scale", "type": "float", "value": img.scale}], book)
        layer = self._layer("imagelayer", img.id, properties=props,
                            image=relocate_path(img.path, self.level_dir, self.map_dir),
                            offsetx=file_number(img.origin.x), offsety=file_number(img.origin.y))
        layer["opacity"] = file_number(img.opacity)
        return layer

    def _tiles_placement(self, tiles: Tiles, width: int, height: int):
        """How a grid lies on the map's tiles: (k, start col, start row, offset x, offset y), or None when it
        cannot be map tiles (its cells are not a whole number of map tiles, or it would make the map too big).

        ``k`` map tiles make one cell; the grid's cell (c, r) is the map tile ((start col + c) * k,
        (start row + r) * k + k - 1), as Tiled anchors a bigger tile at its bottom-left corner. The start is
        the grid's origin in whole cells when that keeps the map within its budget, else 0 (the layer's offset
        then carries the whole origin).
        """
        cell = tiles.cell
        k = cell / self.tile
        if cell != int(cell) or k != int(k) or cell > _MAX_TILE_PX:
            return None
        k = int(k)
        o = tiles.origin
        for sc, sr in ((math.floor(o.x / cell) if o.x >= 0 else 0, math.floor(o.y / cell) if o.y >= 0 else 0),
                       (0, 0)):
            w, h = max(width, (sc + tiles.columns) * k), max(height, (sr + tiles.rows) * k)
            if w * h <= _CELL_BUDGET:
                return k, sc, sr, o.x - sc * cell, o.y - sr * cell
        return None

    def _tiles_book(self, grid: Tiles, **more) -> dict:
        book: dict[str, Any] = {"order": self.seq[grid.id], "cell": file_number(grid.cell),
                                "size": [grid.columns, grid.rows]}
        book.update(more)
        if grid.type:
            book["type"] = grid.type
        return book

    def _tiles_extra(self, tiles: Tiles) -> list[dict]:
        return [] if tiles.solid else [{"name": "solid", "type": "bool", "value": False}]

    def _painted_objects(self, tiles: Tiles) -> list[dict]:
        """A painted grid's cells as tile objects: each tile at its own size, its bottom-left corner on its cell's
        (as a tile layer draws it), its flips in its gid."""
        c, o, art = tiles.cell, tiles.origin, tiles.art
        objects = []
        for r, line in enumerate(tiles.tiles):
            for col, value in enumerate(line):
                gid = self._cell_gid(tiles.id, tiles.tileset, value)
                if not gid:
                    continue
                size = art.tile_picture_size(tile_number(value)) if art is not None else Vec2(c, c)
                objects.append({"id": self.next_object_id, "name": "", "type": "", "gid": gid,
                                "x": file_number(o.x + col * c), "y": file_number(o.y + (r + 1) * c),
                                "width": file_number(size.x), "height": file_number(size.y), "rotation": 0,
                                "visible": True})
                self.next_object_id += 1
        return objects

    def _tile_objects_layer(self, tiles: Tiles) -> dict:
        """A grid whose cells are not map tiles: one tile object per solid cell, scaled to the cell (a painted
        grid: per painted cell, its tile as it is drawn)."""
        c, o = tiles.cell, tiles.origin
        if tiles.painted:
            self.notes.append(f"{tiles.id}: its cells ({c:g} px) are not the map's tiles ({self.tile} px): its "
                              f"tiles are written as tile objects, one per painted cell, on an object layer")
            objects = self._painted_objects(tiles)
            book = self._tiles_book(tiles, origin=[file_number(o.x), file_number(o.y)], tiles="objects",
                                    tileset=tiles.tileset)
            props = self._object_properties(tiles, self._tiles_extra(tiles), book)
            return self._layer("objectgroup", tiles.id, properties=props, draworder="index", objects=objects)
        size = max(1, min(_MAX_OBJECT_TILE_PX, round(tiles.cell)))
        gid = self._tileset_gid(size, tiles.solid)
        objects = []
        for r, line in enumerate(tiles.cells):
            for col, ch in enumerate(line):
                if ch == SOLID_CELL:
                    objects.append({"id": self.next_object_id, "name": "", "type": "", "gid": gid,
                                    "x": file_number(o.x + col * c), "y": file_number(o.y + (r + 1) * c),
                                    "width": file_number(c), "height": file_number(c), "rotation": 0, "visible": True})
                    self.next_object_id += 1
        book = self._tiles_book(tiles, origin=[file_number(o.x), file_number(o.y)], tiles="objects")
        props = self._object_properties(tiles, self._tiles_extra(tiles), book)
        return self._layer("objectgroup", tiles.id, properties=props, draworder="index", objects=objects)

    def _tile_layer(self, tiles: Tiles, placement, width: int, height: int) -> dict:
        k, sc, sr, offx, offy = placement
        data = [0] * (width * height)
        if tiles.painted:
            gids: dict[int, int] = {}
            for r, line in enumerate(tiles.tiles):
                row = (sr + r) * k + k - 1
                for c, value in enumerate(line):
                    if value >= 0:
                        gid = gids.get(value)
                        if gid is None:
                            gid = gids[value] = self._cell_gid(tiles.id, tiles.tileset, value)
                        data[row * width + (sc + c) * k] = gid
            book = self._tiles_book(tiles, start=[sc, sr], tileset=tiles.tileset)
        else:
            gid = self._tileset_gid(int(tiles.cell), tiles.solid)
            for r, line in enumerate(tiles.cells):
                row = (sr + r) * k + k - 1
                for c, ch in enumerate(line):
                    if ch == SOLID_CELL:
                        data[row * width + (sc + c) * k] = gid
            book = self._tiles_book(tiles, start=[sc, sr])
        props = self._object_properties(tiles, self._tiles_extra(tiles), book)
        more: dict[str, Any] = {"width": width, "height": height}
        if offx or offy:
            more.update(offsetx=file_number(offx), offsety=file_number(offy))
        layer = self._layer("tilelayer", tiles.id, properties=props, **more)
        layer["data"] = data  # last: the one long field
        return layer

    def _grid_layer(self, tiles: Tiles, placement, width: int, height: int) -> dict:
        return self._tile_objects_layer(tiles) if placement is None else self._tile_layer(tiles, placement, width,
                                                                                         height)

    def _map_size(self) -> tuple[int, int, dict]:
        """The map's size in tiles (covering the level from 0, 0 and every tile grid) and each grid's placement."""
        if self.level.size is not None:  # the level's own size (a map imported from Tiled keeps its own)
            maxx, maxy = self.level.size
        else:
            minx, miny, maxx, maxy = self.level.bounds()
        w = max(1, math.ceil(max(maxx, 0) / self.tile)) if math.isfinite(maxx) else 1
        h = max(1, math.ceil(max(maxy, 0) / self.tile)) if math.isfinite(maxy) else 1
        if w * h > _CELL_BUDGET:
            w = h = 1
        placements = {}
        for obj in self.level.objects:
            if isinstance(obj, Tiles):
                p = self._tiles_placement(obj, w, h)
                placements[obj.id] = p
                if p is not None:
                    k, sc, sr, _, _ = p
                    w, h = max(w, (sc + obj.columns) * k), max(h, (sr + obj.rows) * k)
        return w, h, placements

    def _player(self, player: Player) -> dict:
        props = [{"name": "shape", "type": "string", "value": player.shape}]
        book: dict[str, Any] = {}
        if player.controller != "top_down":
            # a platformer's controller and its feel, as properties a game reads (an optional one only when set)
            props.append({"name": "controller", "type": "string", "value": player.controller})
            props += [{"name": s.name, "type": "float", "value": getattr(player, s.name)} for s in PLAYER_SETTINGS
                      if getattr(player, s.name) is not None]
        else:
            # a top-down player's platformer settings kept for switching back: only those not the default
            kept = {s.name: file_number(getattr(player, s.name)) for s in PLAYER_SETTINGS
                    if getattr(player, s.name) != s.default}
            if kept:
                book["settings"] = kept
        default = Player()
        if player.shape == "box":
            props += [{"name": "box_width", "type": "float", "value": player.size.x},
                      {"name": "box_height", "type": "float", "value": player.size.y}]
            if player.radius != default.radius:
                book["radius"] = player.radius
        else:
            props.append({"name": "radius", "type": "float", "value": player.radius})
            if player.size != default.size:
                book["size"] = [file_number(player.size.x), file_number(player.size.y)]
        props.append({"name": "speed", "type": "float", "value": player.speed})
        if player.extra:
            book["extra"] = dict(player.extra)
        if book:
            props.append({"name": BOOKKEEPING, "type": "string", "value": bookkeeping_text(book)})
        return {"id": self.player_id, "name": PLAYER_NAME, "type": PLAYER_TYPE, "x": file_number(player.spawn.x),
                "y": file_number(player.spawn.y), "width": 0, "height": 0, "rotation": 0, "visible": True,
                "point": True, "properties": props}

    def build(self) -> TiledMap:
        level = self.level
        layer_ids = {layer.id for layer in level.layers}
        for obj in level.objects:
            if obj.layer not in layer_ids:
                self.problems.append(f"{obj.id}: layer {obj.layer!r} does not exist")
        self._art_tilesets()
        width, height, placements = self._map_size()
        self.wall_polygons = wall_polygons(o for o in level.objects if isinstance(o, Wall))

        layers = []
        for layer in level.layers:
            objs = [o for o in level.objects if o.layer == layer.id]
            book: dict[str, Any] = {"layer": layer.id}
            if layer.extra:
                book["extra"] = dict(layer.extra)
            props = [{"name": BOOKKEEPING, "type": "string", "value": bookkeeping_text(book)}]
            opacity = {"opacity": file_number(layer.opacity)} if layer.opacity != 1 else {}
            if any(isinstance(o, Sprite) or (isinstance(o, Tiles) and o.painted) for o in objs):
                # art draws in file order within its layer: each run of objects is an object layer of its own,
                # between the grids' tile layers and the images
                children, run = [], []
                for o in objs:
                    if isinstance(o, (Tiles, Image)):
                        if run:
                            children.append(self._layer("objectgroup", layer.name, draworder="index", objects=run))
                            run = []
                        children.append(self._image_layer(o) if isinstance(o, Image)
                                        else self._grid_layer(o, placements[o.id], width, height))
                    else:
                        run.append(self._vector_object(o))
                if run:
                    children.append(self._layer("objectgroup", layer.name, draworder="index", objects=run))
                layers.append(self._layer("group", layer.name, layer.visible, layer.locked, props, layers=children,
                                          **opacity))
                continue
            vectors = [self._vector_object(o) for o in objs if not isinstance(o, (Tiles, Image))]
            if any(isinstance(o, (Tiles, Image)) for o in objs):
                children = [self._image_layer(o) for o in objs if isinstance(o, Image)]
                for o in objs:
                    if isinstance(o, Tiles):
                        children.append(self._grid_layer(o, placements[o.id], width, height))
                if vectors:
                    children.append(self._layer("objectgroup", layer.name, draworder="index", objects=vectors))
                layers.append(self._layer("group", layer.name, layer.visible, layer.locked, props, layers=children,
                                          **opacity))
            else:
                layers.append(self._layer("objectgroup", layer.name, layer.visible, layer.locked, props,
                                          draworder="index", objects=vectors, **opacity))
        layers.append(self._layer("objectgroup", "Player", properties=[
            {"name": BOOKKEEPING, "type": "string", "value": bookkeeping_text({"player": True})}],
            draworder="index", objects=[self._player(level.player)]))

        book: dict[str, Any] = {"format": LEVEL_MARK, "version": VERSION, "name": level.name}
        if level.grid != self.tile:
            book["grid"] = level.grid
        if level.size is not None:  # the map's size is in whole tiles
            book["size"] = [file_number(level.size.x), file_number(level.size.y)]
        if level.types:
            book["types"] = [type_to_dict(t) for t in level.types]
        if level.extra:
            book["extra"] = dict(level.extra)
        clash = [k for k in level.properties if k == BOOKKEEPING]
        if clash:
            self.problems.append(f"-: the level property {BOOKKEEPING!r} has the name of the Tiled export's "
                                 f"bookkeeping; rename it to export")
        map_props = self._properties("-", level.properties, "level", book)
        map_props.append({"name": BOOKKEEPING, "type": "string", "value": bookkeeping_text(book)})
        tilesets, files = self._tileset_data()
        tilesets = self.art_tilesets + tilesets
        files.update(self._object_types())
        data = {
            "type": "map", "version": "1.8", "orientation": "orthogonal", "renderorder": "right-down",
            "width": width, "height": height, "tilewidth": self.tile, "tileheight": self.tile,
            "infinite": False, "nextlayerid": self.next_layer_id, "nextobjectid": self.next_object_id,
            "properties": map_props, "tilesets": tilesets, "layers": layers,
        }
        if level.background:
            data["backgroundcolor"] = level.background
        if self.problems:
            raise TiledExportError(self.problems)
        return TiledMap(data, files, tuple(self.notes))


def _type_default(value, seq: dict) -> tuple[str, str]:
    """A type's default property as Tiled's object types file holds it: its Tiled type and its text.

    >>> _type_default(True, {}), _type_default(3, {}), _type_default(Ref("lever"), {"lever": 7})
    (('bool', 'true'), ('int', '3'), ('object', '7'))
    """
    if isinstance(value, bool):
        return "bool", "true" if value else "false"
    if isinstance(value, int):
        return "int", str(value)
    if isinstance(value, float):
        return "float", str(file_number(value))
    if isinstance(value, Ref):
        return "object", str(seq.get(value.id, 0))
    return "string", str(value)


def level_to_tiled(level: Level, map_name: str = "map", level_dir: Optional[str] = None,
                   map_dir: Optional[str] = None) -> TiledMap:
    """The Tiled map of ``level`` (TMJ-shaped data), the tileset pictures to write beside it, and notes.

    ``map_name`` names the tileset pictures (``<map_name>.tiles-16.png``). Pictures' paths are relative to
    ``level_dir`` in the level and are made relative to ``map_dir`` in the map (unchanged when either is
    not given).

    Raises
    ------
    TiledExportError
        When an object's property has a name the export writes itself (``thickness`` on a wall, ``solid``,
        ``scale`` on an image, ``level-editor``), an object is on a layer that does not exist or a reference
        points at nothing; the level's check reports the last two first.
    """
    return _Exporter(level, map_name, level_dir, map_dir).build()


_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps_tmj(data: dict) -> str:
    """TMJ text: Tiled's JSON map format, indented; text as itself (lone surrogates escaped)."""
    return "".join(tmj_blocks(data))


def tmj_blocks(data: dict) -> Iterator[str]:
    """:func:`dumps_tmj` as blocks of text made in short steps (:mod:`level_editor.core.interop.map_text`)."""
    encoder = json.JSONEncoder(ensure_ascii=False, allow_nan=False, indent=1)
    yield from text_blocks(encoder.iterencode(data), _escape_surrogates)
    yield "\n"


def _escape_surrogates(text: str) -> str:
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _write_bytes_atomic(path: str, data: bytes) -> None:
    """The one atomic writer (level_editor.core.level.atomic): nothing left behind, the folder synced, read-only files kept."""
    write_bytes_atomic(path, data)


def write_tiled(level: Level, path: str | os.PathLike, fmt: Optional[str] = None,
                level_dir: Optional[str] = None) -> tuple[str, ...]:
    """Write ``level`` as a Tiled map at ``path`` (TMJ or TMX, from ``fmt`` or the path's ending).

    The tileset pictures go beside the map first, then the map, each atomically. Returns the notes.

    Raises
    ------
    TiledExportError
        When the level cannot be a Tiled map (see :func:`level_to_tiled`), or holds text that XML cannot
        carry and the format is TMX. Nothing is written.
    LevelSaveError
        When a file cannot be written.
    """
    path = os.fspath(path)
    kind = tiled_format(path, fmt)
    if kind is None:
        raise ValueError(f"not a Tiled map format: {fmt or path!r} (use .tmj or .tmx)")
    map_dir = os.path.dirname(os.path.abspath(path))
    stem = os.path.splitext(os.path.basename(path))[0] or "map"
    tiled = level_to_tiled(level, stem, level_dir, map_dir if level_dir else None)
    # the whole text before anything is written: a TMX map XML cannot carry raises here, nothing written
    blocks = list(tmx_blocks(tiled.data) if kind == "tmx" else tmj_blocks(tiled.data))
    for name, data in tiled.files.items():
        _write_bytes_atomic(os.path.join(map_dir, name), data)
    write_blocks_atomic(path, blocks)
    let_go(tiled.data)
    return tiled.notes


def _map_tile(level: Level) -> int:
    """The map's tile size: the most common cell of the level's painted grids (a whole number of pixels), so
    that most of them are tile layers; else the level's grid (rounded when it is not a whole number of pixels).

    >>> _map_tile(Level(grid=10.0))
    10
    """
    cells = Counter(int(o.cell) for o in level.objects
                    if isinstance(o, Tiles) and o.painted and o.cell == int(o.cell) and 1 <= o.cell <= _MAX_TILE_PX)
    if cells:
        return cells.most_common(1)[0][0]
    grid = level.grid
    if grid == int(grid) and 1 <= grid <= _MAX_TILE_PX:
        return int(grid)
    return max(1, min(_MAX_TILE_PX, round(grid)))


def _shape_object(object_id: int, shape: TileShape) -> dict:
    """A tile's collision shape as an object of the tile's object group (Tiled's collision editor writes these).

    >>> _shape_object(1, TileShape("ellipse", ((0, 8), (16, 8))))["ellipse"]
    True
    """
    d: dict[str, Any] = {"id": object_id, "name": "", "type": "", "rotation": 0, "visible": True}
    if shape.kind == "polygon":
        d.update(x=0, y=0, width=0, height=0,
                 polygon=[{"x": file_number(p.x), "y": file_number(p.y)} for p in shape.points])
        return d
    (x, y), (w, h) = shape.points
    d.update(x=file_number(x), y=file_number(y), width=file_number(w), height=file_number(h))
    if shape.kind == "ellipse":
        d["ellipse"] = True
    return d
