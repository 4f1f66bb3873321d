"""A Tiled map (TMJ or TMX) as a level, with notes on what a level cannot hold.

:func:`read_tiled` reads a map file, its external tilesets (``.tsx``, ``.tsj``)
and templates (``.tx``, ``.tj``), and :func:`tiled_to_level` turns the map's
TMJ-shaped data (TMX is read into the same shape by :mod:`level_editor.core.interop.tmx`)
into a :class:`~level_editor.core.level.model.Level`.

What becomes what:

- Rectangles are boxes (oriented boxes when turned; Tiled turns them about
  their top-left corner, so the centre is computed back); ellipses with equal
  sides are pillars; polygons and polylines are walls (closed and open), their
  thickness the float property ``thickness`` (8 px without one, said in one
  note); points are markers. A bool property ``solid`` = false makes an area.
- A tile layer's cells are solid where the tile has collision shapes in its
  tileset or a bool ``solid``/``collides`` property (or the layer has one: true
  makes every tile count, ``solid`` = false makes them an area); each grid of
  square cells is a tile grid.
- An image layer is a reference image (``scale`` from its float property).
- The object of type ``player_spawn`` is the player (its properties ``shape``,
  ``radius``, ``box_width``, ``box_height``, ``speed``).
- Layers stay layers (a group's object layers become layers named
  ``Group/Layer``); names become ids (made unique; a renamed one is noted).
- What a level cannot hold is a note, one line per object: a text object (left
  out), an ellipse with unequal sides (a pillar of the mean radius), a tile
  object (its picture is left out, its bounds become a box), coordinates that
  are not finite (left out), a missing template (left out) or tileset (its tiles
  count as not solid).

A map that :mod:`level_editor.core.interop.tiled_export` wrote carries its bookkeeping, and
comes back as the same level: types with colours, each object's own
properties, unknown keys, file order.

Refused with :class:`~level_editor.core.interop.tiled_common.TiledImportError` (the command
line's exit code 2): a file that is not XML or JSON or not a Tiled map, other
orientations (isometric, staggered, hexagonal), XML that declares entities,
tile data that does not decode or is too large, files over 64 MiB, a map whose tile layers that can
collide hold more than :data:`~level_editor.core.interop.tiled_tiles.MAX_MAP_TILES` tiles (over it, layers
none of whose tiles can collide are left out unread, each with a note).

An import given ``stop`` asks it every few thousand tiles and objects whether to go on, and raises
:class:`~level_editor.core.interop.tiled_common.ImportCancelled` once it says True (the editor's Cancel).
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from level_editor.core.interop.tiled_common import (
    BOOKKEEPING,
    GID_MASK,
    LEVEL_MARK,
    ImportCancelled,
    PLAYER_TYPE,
    TiledImportError,
    brief,
    finite,
    number,
    relocate_path,
    rotated,
    same_value,
    text_of,
    whole,
)
from level_editor.core.interop.tiled_art import colour, tileset_of
from level_editor.core.interop.tiled_files import Files, load_document
from level_editor.core.interop.tiled_tiles import (
    MAX_LAYER_TILES, MAX_MAP_TILES, Tilesets, layer_size, layer_tiles, read_tileset,
)
from level_editor.core.interop.wall_outline import outline_changed
from level_editor.core.level.file_format import FORMAT, VERSION, LevelFileError, level_to_dict, parse_level
from level_editor.core.level.format.checks import Reader
from level_editor.core.level.format.fields import PLAYER_SETTINGS
from level_editor.core.level.kinds import id_prefix
from level_editor.core.level.limits import MAX_COORDINATE, MAX_GRID, MAX_SIZE, MAX_SPEED, MAX_TILE_CELLS, MIN_SIZE
from level_editor.core.level.model import (
    DEFAULT_LAYER,
    EMPTY_CELL,
    SOLID_CELL,
    Box,
    Image,
    Layer,
    Level,
    ObjectType,
    OrientedBox,
    Pillar,
    Sprite,
    Player,
    Point,
    Ref,
    Tiles,
    Wall,
)
from level_editor.core.level.number_text import is_number
from level_editor.core.level.spawn import free_spawn

__all__ = ["ImportResult", "read_tiled", "tiled_to_level", "DEFAULT_THICKNESS"]

#: A wall's thickness when its polygon or polyline has no ``thickness`` property.
DEFAULT_THICKNESS = 8.0

#: The level's grid when the map's tile width cannot be one.
DEFAULT_GRID = 16.0

#: A tile grid covering more cells than this (solid or not) is cut into blocks of BLOCK x BLOCK cells.
MAX_GRID_CELLS = 1 << 22
BLOCK = 256
#: Group layers nested deeper are refused.
MAX_DEPTH = 64
#: The names (or types) a map's player goes by when it has no ``player_spawn``: the object that gives the spot.
PLAYER_NAMES = ("player", "hero")

_SOLID_KINDS = {"wall", "box", "oriented_box", "circle", "tiles"}
#: The kinds that may be one-way floors and that may move along a path (format version 3).
_ONE_WAY_KINDS = {"wall", "box", "oriented_box", "tiles"}
_MOVING_KINDS = _SOLID_KINDS
_CLASSES = {"sprite": Sprite, "wall": Wall, "box": Box, "oriented_box": OrientedBox, "circle": Pillar, "tiles": Tiles,
            "point": Point, "image": Image}
_ALIGN = {"topleft": (0, 0), "top": (0.5, 0), "topright": (1, 0), "left": (0, 0.5), "center": (0.5, 0.5),
          "right": (1, 0.5), "bottomleft": (0, 1), "bottom": (0.5, 1), "bottomright": (1, 1)}


@dataclass(frozen=True)
class ImportResult:
    """The level a map became, and one note per thing it could not hold as it was."""

    level: Level
    notes: tuple = ()


# ---------------------------------------------------------------------------
# Values


def _tidy(v: float) -> float:
    """A computed coordinate rounded to 9 decimals: 480.00000000000006 comes back as 480."""
    r = round(v, 9)
    return r if math.isfinite(r) else v


def _slug(name: str) -> str:
    return re.sub(r"[\W_]+", "-", name.lower()).strip("-")

# ---------------------------------------------------------------------------
# The map


@dataclass
class _Found:
    """An object found in the map, before ids are given out and references resolved."""

    kind: str
    name: str
    label: str
    layer: str
    fields: dict
    type: str = ""
    props: dict = field(default_factory=dict)  # name -> TMJ property dict
    solid: bool = True
    book: dict = field(default_factory=dict)
    tiled_id: Optional[int] = None
    order: Optional[int] = None
    exact_name: bool = False  # generated from a layer name: never noted as renamed


@dataclass
class _Context:
    base_dir: str
    ox: float = 0.0
    oy: float = 0.0
    opacity: float = 1.0
    visible: bool = True
    locked: bool = False
    path: tuple = ()
    layer: Optional[str] = None
    depth: int = 0


def _split(props, notes: list[str], where: str) -> tuple[dict, dict]:
    """Custom properties by name, and the export's bookkeeping (``{}`` when there is none)."""
    out: dict[str, dict] = {}
    book: dict = {}
    for p in props if isinstance(props, list) else ():
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            continue
        if p["name"] == BOOKKEEPING:
            try:
                value = json.loads(p.get("value", ""), parse_constant=_no_constant)
                if not isinstance(value, dict):
                    raise ValueError
                book = value
            except (TypeError, ValueError, RecursionError):
                notes.append(f"{where}: its {BOOKKEEPING!r} property is not the export's bookkeeping; left out")
            continue
        out[p["name"]] = p
    renamed = book.get("renamed")
    if isinstance(renamed, dict) and renamed:
        out = _names_back(out, renamed)
    return out, book


def _names_back(props: dict, renamed: dict) -> dict:
    """The properties the export wrote under another name (:mod:`level_editor.core.level.loader_names`) under
    their own again, in their place.

    >>> list(_names_back({"hp": {}, "name_": {"name": "name_"}}, {"name_": "name"}).items())
    [('hp', {}), ('name', {'name': 'name'})]
    """
    out = {}
    for name, p in props.items():
        own = renamed.get(name)
        if isinstance(own, str) and own and own not in props:
            out[own] = dict(p, name=own)
        else:
            out[name] = p
    return out


def _listed(value) -> list:
    """``value`` when it is a list, else an empty one (a map's lists may hold anything in a hostile file)."""
    return value if isinstance(value, list) else []


def _no_constant(name: str):
    raise ValueError(name)


def _bool_prop(props: dict, name: str) -> Optional[bool]:
    """Take out a bool property ``name`` (kept when it has another type); None when there is none."""
    p = props.get(name)
    if p is None or p.get("type") != "bool":
        return None
    del props[name]
    v = p.get("value")
    return v is True or (isinstance(v, str) and v.strip().lower() == "true")


def _number_prop(props: dict, name: str) -> Optional[float]:
    p = props.get(name)
    if p is None or p.get("type") not in ("float", "int"):
        return None
    del props[name]
    return number(p.get("value"))


class _Importer:
    def __init__(self, data: dict, name: str, source: str, map_dir: str, level_dir: Optional[str],
                 files: Files, notes: list[str], stop: Optional[Callable[[], bool]] = None):
        self.data = data
        self.stop = stop
        #: Tiles read so far, and whether the map's tile layers hold more than an import reads.
        self.tiles_read = 0
        self.over_cap = False
        self.name = name
        self.source = source
        self.map_dir = map_dir
        self.level_dir = level_dir
        self.files = files
        self.notes = notes
        self.found: list[_Found] = []
        self.layers: list[Layer] = []
        self.layer_ids: set[str] = set()
        self.player: Optional[tuple] = None
        self.default_thickness = 0
        self.map_props, self.book = _split(data.get("properties"), notes, "the map")
        self.ours = self.book.get("format") == LEVEL_MARK

    def check_stop(self) -> None:
        """Raise :class:`ImportCancelled` when the import's ``stop`` says to stop."""
        if self.stop is not None and self.stop():
            raise ImportCancelled(f"{self.source}: stopped")

    # -- layers -------------------------------------------------------------------------------------

    def _new_layer(self, hint: str, name: str, ctx: _Context, extra=None) -> str:
        base = hint or _slug(name) or "layer"
        lid, n = base, 2
        while lid in self.layer_ids:
            lid, n = f"{base}-{n}", n + 1
        self.layer_ids.add(lid)
        opacity = min(max(ctx.opacity, 0.0), 1.0)
        self.layers.append(Layer(lid, name, ctx.visible, ctx.locked, extra if isinstance(extra, dict) else {},
                                 opacity))
        return lid

    def walk(self, layers, ctx: _Context) -> None:
        if ctx.depth > MAX_DEPTH:
            raise TiledImportError(f"{self.source}: group layers nested more than {MAX_DEPTH} deep; refused")
        if not isinstance(layers, list):
            raise TiledImportError(f"{self.source}: 'layers' is not a list, so this is not a Tiled map")
        for layer in layers:
            if not isinstance(layer, dict):
                raise TiledImportError(f"{self.source}: a layer that is not an object, so this is not a Tiled map")
            self.check_stop()
            self._layer(layer, ctx)

    def _layer(self, layer: dict, ctx: _Context) -> None:
        kind = layer.get("type")
        name = text_of(layer.get("name"))
        where = f"layer {name or '(unnamed)'}"
        props, book = _split(layer.get("properties"), self.notes, where)
        ox, oy = number(layer.get("offsetx", 0)), number(layer.get("offsety", 0))
        opacity = number(layer.get("opacity", 1))
        if not finite(ox, oy):
            self.notes.append(f"{where}: its offset is not a finite number; left out")
            return
        opacity = opacity if math.isfinite(opacity) else 1.0
        parallax = [number(layer.get(k, 1)) for k in ("parallaxx", "parallaxy")]
        if not self.ours and parallax != [1, 1]:
            self.notes.append(f"{where}: its parallax factor {parallax[0]:g}, {parallax[1]:g} is left out (a level's "
                              f"layers scroll together)")
        here = _Context(ctx.base_dir, ctx.ox + ox, ctx.oy + oy, ctx.opacity * min(max(opacity, 0.0), 1.0),
                        ctx.visible and layer.get("visible", True) is not False,
                        ctx.locked or layer.get("locked", False) is True,
                        ctx.path + (name,), ctx.layer, ctx.depth + 1)
        player_layer = self.ours and book.get("player") is True
        if self.ours and isinstance(book.get("layer"), str) and book["layer"].strip():
            here.layer = self._new_layer(book["layer"], name, here, book.get("extra"))
        elif here.layer is None and kind != "group" and not player_layer:
            here.layer = self._new_layer("", "/".join(p for p in here.path if p) or name, here)
        if kind in ("group", "objectgroup") and props and book.get("tiles") != "objects":
            self.notes.append(f"{where}: its properties are left out (a level's layers have none): "
                              f"{', '.join(sorted(props))}")
        if kind == "group":
            children = layer.get("layers", [])
            if not isinstance(children, list):  # the group is broken, not the whole map
                path = "/".join(p or "(unnamed)" for p in here.path)
                raise TiledImportError(f"{self.source}: group layer {path}: 'layers' is not a list")
            self.walk(children, here)
        elif kind == "objectgroup":
            objects = layer.get("objects")
            if not isinstance(objects, list):
                raise TiledImportError(f"{self.source}: {where}: 'objects' is not a list")
            if self.ours and book.get("tiles") == "objects":
                self._tile_objects(layer, objects, props, book, here, name)
                return
            for i, obj in enumerate(objects):
                if not i % _STOP_OBJECTS:
                    self.check_stop()
                if isinstance(obj, dict):
                    self._object(obj, here, player_layer)
        elif kind == "tilelayer":
            self._tile_layer(layer, props, book, here, name, where)
        elif kind == "imagelayer":
            self._image_layer(layer, props, book, here, name, where)
        else:
            self.notes.append(f"{where}: a layer of type {kind!r} is left out")

    def _where_to(self, ctx: _Context) -> str:
        if ctx.layer is None:  # the export's player layer, holding more than the player
            ctx.layer = self._new_layer("", "/".join(p for p in ctx.path if p) or "Player", ctx)
        return ctx.layer

    # -- objects ------------------------------------------------------------------------------------

    def _template(self, obj: dict, ctx: _Context, label: str):
        src = obj.get("template")
        path = os.path.join(ctx.base_dir, src) if isinstance(src, str) else ""
        tpl = self.files.load(path, "template", src) if path else None
        if not isinstance(tpl, dict) or not isinstance(tpl.get("object"), dict):
            self.notes.append(f"{label}: its template {src} cannot be read; left out")
            return None, None
        base = tpl["object"]
        merged = dict(base)
        merged.update({k: v for k, v in obj.items() if k not in ("properties", "template")})
        props = {p["name"]: p for p in _listed(base.get("properties")) if isinstance(p, dict)
                 and isinstance(p.get("name"), str)}
        props.update({p["name"]: p for p in _listed(obj.get("properties")) if isinstance(p, dict)
                      and isinstance(p.get("name"), str)})
        merged["properties"] = list(props.values())
        tilesets = None
        if "gid" in base and "gid" not in obj and isinstance(tpl.get("tileset"), dict):
            tpl_dir = os.path.dirname(os.path.normpath(path))
            ts = read_tileset(tpl["tileset"], tpl_dir, self.files)
            tilesets = Tilesets([ts] if ts else [])
        return merged, tilesets

    def _object(self, obj: dict, ctx: _Context, player_layer: bool) -> None:
        tiled_id = whole(obj.get("id"))
        label = f"object {text_of(obj.get('name')) or '(unnamed)'} (id {tiled_id if tiled_id is not None else '?'})"
        tilesets = self.tilesets
        if "template" in obj:
            obj, from_template = self._template(obj, ctx, label)
            if obj is None:
                return
            tilesets = from_template or tilesets
            label = f"object {text_of(obj.get('name')) or '(unnamed)'} (id {tiled_id if tiled_id is not None else '?'})"
        name = text_of(obj.get("name"))
        otype = text_of(obj.get("type")) or text_of(obj.get("class"))
        props, book = _split(obj.get("properties"), self.notes, label)
        x, y = number(obj.get("x", 0)) + ctx.ox, number(obj.get("y", 0)) + ctx.oy
        w, h = number(obj.get("width", 0)), number(obj.get("height", 0))
        rot = number(obj.get("rotation", 0))
        if not finite(x, y, w, h, rot):
            self.notes.append(f"{label}: its position, size or rotation is not a finite number; left out")
            return
        if otype == PLAYER_TYPE and self.player is None and (player_layer or not self.ours):
            self.player = (label, obj, x, y, w, h, rot, props, book)
            return
        found = _Found("", name, label, "", {}, otype, props, True, book, tiled_id)
        if "text" in obj:
            self.notes.append(f"{label}: text objects are left out")
            return
        if obj.get("point") is True:
            found.kind, found.fields = "point", {"position": (x, y)}
        elif obj.get("ellipse") is True:
            if not self._ellipse(found, x, y, w, h, rot):
                return
        elif isinstance(obj.get("polygon"), list) or isinstance(obj.get("polyline"), list):
            if not self._wall(found, obj, x, y, rot):
                return
        elif obj.get("gid") is not None:
            if not self._tile_object(found, obj, tilesets, x, y, w, h, rot):
                return
        elif w == 0 and h == 0:
            self.notes.append(f"{label}: a rectangle of no size became a point")
            found.kind, found.fields = "point", {"position": (x, y)}
        elif w <= 0 or h <= 0:
            self.notes.append(f"{label}: a rectangle {w:g}x{h:g} has no area; left out")
            return
        else:
            self._box(found, x, y, w, h, rot, book.get("kind") == "oriented_box")
        if not _all_finite(found.fields):
            self.notes.append(f"{label}: its position or size is beyond a level's limits (±{_LIMIT:g} px); left out")
            return
        if found.kind in _SOLID_KINDS:
            solid = _bool_prop(found.props, "solid")
            found.solid = solid is not False
        found.layer = self._where_to(ctx)
        self.found.append(found)

    def _box(self, found: _Found, x, y, w, h, rot, oriented: bool) -> None:
        """A rectangle turned by ``rot`` about ``(x, y)``, the corner of ``(ax, ay)`` = (0, 0)."""
        if rot == 0 and not oriented:
            found.kind, found.fields = "box", {"origin": (x, y), "size": (w, h)}
            return
        dx, dy = rotated(w / 2, h / 2, rot)
        found.kind = "oriented_box"
        found.fields = {"center": (_tidy(x + dx), _tidy(y + dy)), "half_extents": (w / 2, h / 2), "rotation": rot}

    def _ellipse(self, found: _Found, x, y, w, h, rot) -> bool:
        if w <= 0 or h <= 0:
            self.notes.append(f"{found.label}: an ellipse of no size is left out")
            return False
        if w != h:
            r = (w + h) / 4
            self.notes.append(f"{found.label}: ellipse {w:g}x{h:g} approximated as a pillar of radius {r:g}")
        dx, dy = rotated(w / 2, h / 2, rot)
        found.kind = "circle"
        found.fields = {"center": (_tidy(x + dx), _tidy(y + dy)), "radius": (w + h) / 4}
        return True

    def _wall(self, found: _Found, obj: dict, x, y, rot) -> bool:
        closed = isinstance(obj.get("polygon"), list)
        raw = obj["polygon"] if closed else obj["polyline"]
        nodes = found.book.get("nodes") if self.ours else None
        if isinstance(nodes, list) and all(isinstance(n, list) and len(n) == 2 for n in nodes):
            # the export's wall: the polygon is its outline, drawn for Tiled; its chain is in the bookkeeping
            if closed and outline_changed(found.book.get("outline"), obj["polygon"]):
                self.notes.append(f"{found.label}: its outline was changed in Tiled, but a wall is drawn from its "
                                  f"nodes: the change is left out (move the wall in Tiled, or edit its nodes here)")
            raw = [{"x": n[0], "y": n[1]} for n in nodes]
            closed = found.book.get("closed") is True
        points = []
        for p in raw:
            px, py = (number(p.get("x")), number(p.get("y"))) if isinstance(p, dict) else (math.nan, math.nan)
            if rot:
                px, py = rotated(px, py, rot)
            points.append((_tidy(x + px), _tidy(y + py)))
        if not all(finite(*p) for p in points):
            self.notes.append(f"{found.label}: a point of its outline is not a finite number; left out")
            return False
        if len(points) < 2:
            self.notes.append(f"{found.label}: a {'polygon' if closed else 'polyline'} of {len(points)} "
                              f"point{'s' if len(points) != 1 else ''} is left out")
            return False
        thickness = _number_prop(found.props, "thickness")
        if thickness is None:
            thickness = DEFAULT_THICKNESS
            self.default_thickness += 1
        elif not (math.isfinite(thickness) and thickness > 0):
            self.notes.append(f"{found.label}: thickness {thickness:g} is not a positive number: "
                              f"{DEFAULT_THICKNESS:g} px it is")
            thickness = DEFAULT_THICKNESS
        found.kind = "wall"
        found.fields = {"points": tuple(points), "thickness": thickness, "closed": closed}
        return True

    def _tile_object(self, found: _Found, obj: dict, tilesets: Tilesets, x, y, w, h, rot) -> bool:
        """A tile object as a sprite: its tile's picture, stretched, flipped and turned as Tiled draws it.

        It is a body (solid) when its tile has collision shapes, or the object (or its tile) says so with a true
        ``solid``, ``collides`` or ``collision`` property, or a ``bodyType`` of ``static`` (as sticker-knight's
        loader reads it); everything else is art the player passes."""
        gid = whole(obj.get("gid"), 0)
        hit = tilesets.find(gid) if gid > 0 else None
        art = self._art_for(hit[0]) if hit is not None else None
        picture = ""
        if art is None and hit is not None and self._tileset_book(hit[0]).get("pictures") is True:
            # the export's collection of picture files: the sprite shows its file
            source = hit[0].tiles.get(hit[1], {}).get("image") if isinstance(hit[0].tiles.get(hit[1]), dict) else None
            if isinstance(source, str) and source.strip():
                picture = relocate_path(source, hit[0].base_dir, self.level_dir)
        if picture:
            pass
        elif art is None or not art.has_tile(hit[1]):
            self.notes.append(f"{found.label}: its tile (gid {gid & GID_MASK}) is in no tileset the map has; left out")
            return False
        ts, local = hit
        tw, th = ts.size(local)
        if w == 0 and h == 0 and finite(tw, th):
            w, h = tw, th
        if not found.type and not self.ours:
            found.type = ts.tile_type(local)
        if not (w > 0 and h > 0):
            self.notes.append(f"{found.label}: a tile object of no size is left out")
            return False
        ax, ay = _ALIGN.get(ts.alignment, (0, 1))  # "unspecified" is bottom-left on orthogonal maps
        # Tiled draws a tile object shifted by its tileset's offset, stretched as the tile is; a sprite has none
        pw, ph = ts.size(local)
        ox, oy = ts.offset
        sx, sy = (w / pw, h / ph) if finite(pw, ph) and pw > 0 and ph > 0 else (1.0, 1.0)
        dx, dy = rotated((0.5 - ax) * w + ox * sx, (0.5 - ay) * h + oy * sy, rot)
        cx, cy = _tidy(x + dx), _tidy(y + dy)
        if not finite(cx, cy):
            self.notes.append(f"{found.label}: its position is too large to compute with; left out")
            return False
        if gid & 0x20000000:
            self.notes.append(f"{found.label}: a tile object flipped about its diagonal is drawn unflipped that way")
        found.kind = "sprite"
        found.fields = {"center": (cx, cy), "size": (w, h), "rotation": rot,
                        "flip_x": bool(gid & 0x80000000), "flip_y": bool(gid & 0x40000000)}
        found.fields.update({"picture": picture} if picture else {"tileset": art.id, "tile": local})
        if self.ours:  # the export says what Tiled cannot: a body, and the sprite's own opacity
            found.solid = _bool_prop(found.props, "solid") is True
            opacity = _number_prop(found.props, "opacity")
            if opacity is not None and 0 <= opacity <= 1:
                found.props.pop("opacity", None)
                found.fields["opacity"] = opacity
            return True
        tile_props = ts.tiles.get(local, {}).get("properties") if isinstance(ts.tiles.get(local), dict) else None
        merged = {p["name"]: p for p in _listed(tile_props) if isinstance(p, dict) and isinstance(p.get("name"), str)}
        merged.update(found.props)
        said = [_bool_prop(merged, key) for key in ("solid", "collides", "collision")]
        body = merged.get("bodyType", {}).get("value") if isinstance(merged.get("bodyType"), dict) else None
        if isinstance(body, str) and body.strip().lower() in ("dynamic", "kinematic"):
            self.notes.append(f"{found.label}: a {body.strip().lower()} body is art here (only static bodies collide)")
        found.solid = (False not in said) and (True in said or (art is not None and bool(art.info(local).collision))
                                               or (isinstance(body, str) and body.strip().lower() == "static"))
        return True

    # -- tile grids ---------------------------------------------------------------------------------

    def _grids(self, cells: dict, found_base: _Found, name: str) -> list[_Found]:
        """Tile grids from solid cells grouped by (width, height, phase x, phase y) -> {(i, j)}."""
        out = []
        for (tw, th, px, py), idx in cells.items():
            if tw != th:
                out.extend(self._tile_boxes(found_base, name, tw, th, px, py, idx))
                continue
            if not idx:
                continue
            imin, jmin = min(i for i, _ in idx), min(j for _, j in idx)
            imax, jmax = max(i for i, _ in idx), max(j for _, j in idx)
            if (imax - imin + 1) * (jmax - jmin + 1) > MAX_GRID_CELLS:
                blocks: dict = {}
                for i, j in idx:
                    blocks.setdefault((i // BLOCK, j // BLOCK), set()).add((i, j))
                self.notes.append(f"{found_base.label}: its tiles span {imax - imin + 1}x{jmax - jmin + 1} cells: "
                                  f"cut into {len(blocks)} tile grids of at most {BLOCK}x{BLOCK}")
                groups = [blocks[k] for k in sorted(blocks, key=lambda b: (b[1], b[0]))]
            else:
                groups = [idx]
            for group in groups:
                gi, gj = min(i for i, _ in group), min(j for _, j in group)
                rel = {(i - gi, j - gj) for i, j in group}
                out.append(self._grid(found_base, name, tw, (px + gi * tw, py + gj * tw), rel, 0, 0))
        return out

    def _grid(self, base: _Found, name: str, cell: float, origin, rel: set, cols: int, rows: int) -> _Found:
        if rel:
            imin, jmin = min(0, min(i for i, _ in rel)), min(0, min(j for _, j in rel))
            cols = max(cols, max(i for i, _ in rel) + 1) - imin
            rows = max(rows, max(j for _, j in rel) + 1) - jmin
            rel = {(i - imin, j - jmin) for i, j in rel}
            origin = (origin[0] + imin * cell, origin[1] + jmin * cell)
        lines = [bytearray(EMPTY_CELL.encode() * cols) for _ in range(rows)]
        for i, j in rel:
            lines[j][i] = ord(SOLID_CELL)
        f = _Found("tiles", name, base.label, base.layer, {
            "origin": (_tidy(origin[0]), _tidy(origin[1])), "cell": cell,
            "cells": tuple(line.decode() for line in lines)}, base.type, dict(base.props), base.solid,
            base.book, None, base.order, base.exact_name)
        return f

    def _tile_boxes(self, base: _Found, name: str, tw, th, px, py, idx) -> list[_Found]:
        """Tiles that are not square: each run of solid tiles in a row is one box."""
        out = []
        rows: dict[int, list[int]] = {}
        for i, j in idx:
            rows.setdefault(j, []).append(i)
        for j in sorted(rows):
            cols = sorted(rows[j])
            start = prev = cols[0]
            for i in cols[1:] + [None]:
                if i is not None and i == prev + 1:
                    prev = i
                    continue
                out.append(_Found("box", name, base.label, base.layer, {
                    "origin": (_tidy(px + start * tw), _tidy(py + j * th)), "size": ((prev - start + 1) * tw, th)},
                    base.type, dict(base.props), base.solid, {}, None, None, True))
                if i is not None:
                    start = prev = i
        self.notes.append(f"{base.label}: its tiles are {tw:g}x{th:g}, not square: {len(out)} boxes instead of "
                          f"a tile grid")
        return out

    def _tile_layer(self, layer: dict, props: dict, book: dict, ctx: _Context, name: str, where: str) -> None:
        solid_prop = _bool_prop(props, "solid")
        collides_prop = _bool_prop(props, "collides")
        if not (self.ours and whole(book.get("order")) is not None and "tileset" not in book):
            if self.tile_w != self.tile_h:
                # a level's tile grids have square cells: the tiles' collision is read as boxes, their art left out
                self.notes.append(f"{where}: the map's tiles are {self.tile_w:g}x{self.tile_h:g}, not square: its "
                                  f"tiles' pictures are left out")
            else:
                self._painted_layer(layer, props, book, ctx, name, where, solid_prop is not False)
                if not (solid_prop or collides_prop):
                    return
                # a layer marked solid collides where it has tiles, whatever they are: a grid of plain cells too
                name = f"{name}-solid"
            self.tiles_read -= layer_size(layer)  # read twice, counted once
        if solid_prop is False:
            mode = "area"
        elif solid_prop or collides_prop:
            mode = "all"
        else:
            mode = "collision"
        if not self._read_layer(layer, mode, where):
            return
        tw_map, th_map = self.tile_w, self.tile_h
        order = whole(book.get("order")) if self.ours else None
        anchor = _anchor(book, ctx) if self.ours and order is not None else None
        cells: dict = {}
        anchored: set = set()
        any_tile = unknown = kept = far = 0
        missing: set[str] = set()
        # What each global id means here, worked out once: None (no tileset holds it), False (it does not count),
        # or (tile width, tile height, x offset, y offset); a layer of millions of tiles uses a handful of ids.
        meaning: dict = {}
        for col, row, gid in layer_tiles(layer, f"{self.source}: {where}", self.stop):
            any_tile += 1
            seen = meaning.get(gid, ())
            if seen == ():
                seen = self._tile_meaning(gid, mode, missing, ctx, cells)
                if len(meaning) < _MEANINGS:  # millions of different ids (a hostile layer) are not all kept
                    meaning[gid] = seen
            if not seen:
                unknown += seen is None
                continue
            tw, th, offx, offy, shift = seen
            kept += 1
            if kept > MAX_TILE_CELLS:
                raise TiledImportError(f"{self.source}: {where}: more than {MAX_TILE_CELLS:,} solid tiles, the most "
                                       f"cells a level may have; refused")
            if shift is not None and anchor is None and -_FAST < col < _FAST and -_FAST < row < _FAST:
                # a tile of the map's own size: its cell is its column and row, shifted as every such tile is
                group, di, dj = shift
                group.add((col + di, row + dj))
                continue
            x = ctx.ox + col * tw_map + offx
            top = ctx.oy + (row + 1) * th_map - th + offy
            if not finite(x, top):
                far += 1
                continue
            if anchor is not None and tw == th == anchor[0]:  # a cell of the grid the export wrote
                i, j = round((x - anchor[1][0]) / tw), round((top - anchor[1][1]) / th)
                if 0 <= i < anchor[2][0] and 0 <= j < anchor[2][1]:
                    anchored.add((i, j))
                    continue
            px, py = _phase(x, top, tw, th)
            cells.setdefault((tw, th, px, py), set()).add((round((x - px) / tw), round((top - py) / th)))
        if unknown:
            self.notes.append(f"{where}: {unknown} tiles have ids that no tileset holds; left out")
        if far:
            self.notes.append(f"{where}: {far} tiles lie too far away to compute with; left out")
        base = _Found("tiles", name, where, self._where_to(ctx), {}, text_of(book.get("type")) if self.ours else "",
                      props, mode != "area", book if self.ours else {}, None, order)
        if not cells and anchor is None:
            if any_tile > unknown and not missing:
                self.notes.append(f"{where}: no tile collides (no collision shapes, no solid or collides "
                                  f"property): its tiles are left out")
            return
        found = self._grids(cells, base, name)
        if anchor is not None:
            cell, origin, (cols, rows) = anchor
            found.insert(0, self._grid(base, name, cell, origin, anchored, cols, rows))
        for i, f in enumerate(found[1:]):
            if f.kind == "tiles":
                f.name, f.order, f.exact_name = f"{name}-{i + 2}", None, True
        self.found.extend(found)

    def _painted_layer(self, layer: dict, props: dict, book: dict, ctx: _Context, name: str, where: str,
                       solid: bool) -> None:
        """A tile layer as it is drawn: one painted grid per tileset it uses, each cell its tile and flip flags.

        A grid collides through its tiles' collision shapes only (a ``solid: false`` layer never collides)."""
        # over the cap, a layer none of whose tiles can collide is left out unread (a hostile map's art)
        if not self._read_layer(layer, "collision" if solid else "area", where):
            return
        cell = self.tile_w
        by_set: dict = {}  # our tileset id -> {(col, row): value}
        unknown = 0
        beyond: dict[str, int] = {}  # tileset name -> tiles past its last
        hex_turned = 0
        meaning: dict = {}
        for col, row, gid in layer_tiles(layer, f"{self.source}: {where}", self.stop):
            seen = meaning.get(gid, ())
            if seen == ():
                hit = self.tilesets.find(gid)
                art = self._art_for(hit[0]) if hit is not None else None
                if art is not None and not art.has_tile(hit[1]):
                    seen = (None, art.name)  # a tileset holds its range but not that tile
                else:
                    seen = None if art is None else (art.id, hit[1] | (gid & _FLIPS))
                if len(meaning) < _MEANINGS:
                    meaning[gid] = seen
            if seen is None:
                unknown += 1
                continue
            if seen[0] is None:
                beyond[seen[1]] = beyond.get(seen[1], 0) + 1
                continue
            if gid & _HEX_TURN:
                hex_turned += 1
            cells = by_set.setdefault(seen[0], {})
            cells[(col, row)] = seen[1]
            if len(cells) > MAX_TILE_CELLS:
                raise TiledImportError(f"{self.source}: {where}: more than {MAX_TILE_CELLS:,} tiles, the most cells a "
                                       f"level may have; refused")
        if unknown:
            self.notes.append(f"{where}: {unknown} tiles have ids that no tileset holds; left out")
        if hex_turned:
            self.notes.append(f"{where}: {hex_turned} tile{'s carry' if hex_turned != 1 else ' carries'} the "
                              f"hexagonal 120-degree turn, which an orthogonal level does not have; drawn unturned")
        for set_name, n in beyond.items():
            self.notes.append(f"{where}: {n} tile{'s' if n != 1 else ''} beyond the last tile of tileset "
                              f"{set_name}; left out")
        order = whole(book.get("order")) if self.ours else None
        anchor = _anchor(book, ctx) if order is not None else None
        if anchor is not None:  # the export's painted grid: its own place and size, empty edges too
            a_cell, (ax, ay), (cols, rows_n) = anchor
            placed: dict = {}
            for cells in by_set.values():
                for (c, r), value in cells.items():
                    i = round((ctx.ox + c * self.tile_w - ax) / a_cell)
                    j = round((ctx.oy + (r + 1) * self.tile_h - a_cell - ay) / a_cell)
                    if 0 <= i < cols and 0 <= j < rows_n:
                        placed[(i, j)] = value
            set_id = next(iter(by_set), None) or self._book_tileset(book)
            rows = tuple(tuple(placed.get((i, j), -1) for i in range(cols)) for j in range(rows_n))
            self.found.append(_Found("tiles", name, where, self._where_to(ctx), {
                "origin": (_tidy(ax), _tidy(ay)), "cell": a_cell, "cells": (), "tileset": set_id, "tiles": rows},
                text_of(book.get("type")), dict(props), solid, book, None, order))
            return
        for n, (set_id, cells) in enumerate(sorted(by_set.items(), key=lambda kv: self.art_order[kv[0]])):
            c0, r0 = min(c for c, _ in cells), min(r for _, r in cells)
            c1, r1 = max(c for c, _ in cells), max(r for _, r in cells)
            rows = tuple(tuple(cells.get((c, r), -1) for c in range(c0, c1 + 1)) for r in range(r0, r1 + 1))
            origin = (_tidy(ctx.ox + c0 * cell), _tidy(ctx.oy + r0 * cell))
            f = _Found("tiles", name if n == 0 else f"{name}-{n + 1}", where, self._where_to(ctx),
                       {"origin": origin, "cell": cell, "cells": (), "tileset": set_id, "tiles": rows},
                       text_of(book.get("type")) if self.ours else "", dict(props), solid,
                       book if self.ours else {}, None, order if n == 0 else None, n > 0)
            self.found.append(f)

    def _book_tileset(self, book: dict) -> str:
        """The id of the tileset an exported painted grid paints (its bookkeeping's), made known if need be."""
        tid = book.get("tileset") if isinstance(book.get("tileset"), str) else ""
        return tid if tid in self.art_order else ""

    def _tileset_book(self, ts) -> dict:
        """The export's bookkeeping of a tileset (``{}`` for a map this program did not write)."""
        if not self.ours:
            return {}
        return _split(ts.raw.get("properties"), self.notes, f"tileset {ts.name}")[1]

    def _tile_values(self, props, where: str) -> tuple[dict, dict]:
        named, book = _split(props, self.notes, where)
        extra = book.get("extra") if self.ours and isinstance(book.get("extra"), dict) else {}
        return self._values(named, where, {}), extra

    def _art_for(self, ts):
        """The level's tileset made of the Tiled tileset ``ts`` (one per tileset file), or None (also for the
        export's collection of sprites' picture files, which is no tileset of the level)."""
        key = ts.source or id(ts)
        if key in self.art_by_source:
            return self.art_by_source[key]
        book = self._tileset_book(ts)
        if book.get("pictures") is True:
            self.art_by_source[key] = None
            return None
        own = book.get("tileset")
        base = own if isinstance(own, str) and own.strip() else (_slug(ts.name) or "tileset")
        tid, n = base, 2
        while tid in self.art_order:
            tid, n = f"{base}-{n}", n + 1
        extra = book.get("extra") if isinstance(book.get("extra"), dict) else {}
        art = None if ts.missing else tileset_of(ts, tid, self.level_dir, self._tile_values, self.notes.append,
                                                 extra)
        self.art_by_source[key] = art
        if art is not None:
            self.art_order[tid] = len(self.art_order)
            self.art.append(art)
        return art

    def _read_layer(self, layer: dict, mode: str, where: str) -> bool:
        """Whether to read the tile layer: False (with a note) for one that adds nothing to a map over
        :data:`MAX_MAP_TILES`; refused when it could add something but would bring the tiles read over it."""
        size = layer_size(layer)
        if size > MAX_LAYER_TILES:
            return True  # refused on its own, in its own words, as it is read
        if self.over_cap and mode == "collision" and not self.any_tile_collides:
            self.notes.append(f"{where}: its {size:,} tiles are left out unread: no tile of the map's tilesets "
                              f"collides, and the map's tile layers hold more than the {MAX_MAP_TILES:,} tiles an "
                              f"import reads")
            return False
        self.tiles_read += size
        if self.tiles_read > MAX_MAP_TILES:
            raise TiledImportError(
                f"{self.source}: {where}: its {size:,} tiles bring the tiles to read to {self.tiles_read:,}, more "
                f"than the {MAX_MAP_TILES:,} an import reads; refused (its tiles can collide, so it cannot be left "
                f"out; split the map or make it smaller)")
        return True

    def _tile_meaning(self, gid: int, mode: str, missing: set, ctx: _Context, cells: dict):
        """None: no tileset holds ``gid``; False: its tile does not count; else (width, height, x and y offset,
        shift), where shift is ``(cells of its grid, column shift, row shift)`` for a tile of the map's tile size
        (its cell follows from its column and row alone) and None for others."""
        hit = self.tilesets.find(gid)
        if hit is None:
            return None
        ts, local = hit
        if ts.missing:
            missing.add(ts.name)
        if mode == "collision" and not ts.collides(local):
            return False
        tw, th = ts.size(local)
        if not (finite(tw, th) and tw > 0 and th > 0):
            return False
        offx, offy = ts.offset
        shift = None
        if tw == self.tile_w and th == self.tile_h:
            x, top = ctx.ox + offx, ctx.oy + offy  # column 0, row 0
            px, py = _phase(x, top, tw, th)
            if finite(x, top):
                shift = cells.setdefault((tw, th, px, py), set()), round((x - px) / tw), round((top - py) / th)
        return tw, th, offx, offy, shift

    def _tile_objects(self, layer: dict, objects: list, props: dict, book: dict, ctx: _Context, name: str) -> None:
        """The export's tile grid whose cells are not map tiles: a tile object per solid cell."""
        where = f"layer {name}"
        solid = _bool_prop(props, "solid")
        anchor = _anchor(book, ctx, with_origin=True)
        base = _Found("tiles", name, where, self._where_to(ctx), {}, text_of(book.get("type")), props,
                      solid is not False, book, None, whole(book.get("order")))
        if anchor is None:
            self.notes.append(f"{where}: its bookkeeping does not say where its grid is; left out")
            return
        cell, (ox, oy), (cols, rows) = anchor
        if isinstance(book.get("tileset"), str):  # a painted grid whose cells are not the map's tiles
            placed: dict = {}
            set_id = ""
            for obj in objects:
                gid = whole(obj.get("gid"), 0) if isinstance(obj, dict) else 0
                hit = self.tilesets.find(gid) if gid else None
                art = self._art_for(hit[0]) if hit is not None else None
                x, y = number(obj.get("x", 0)) + ctx.ox, number(obj.get("y", 0)) + ctx.oy
                if art is None or not finite(x, y):
                    if isinstance(obj, dict):
                        self._object(obj, ctx, False)
                    continue
                set_id = art.id
                i, j = round((x - ox) / cell), round((y - oy) / cell) - 1
                if 0 <= i < cols and 0 <= j < rows:
                    placed[(i, j)] = hit[1] | (gid & _FLIPS)
            base.fields = {"origin": (_tidy(ox), _tidy(oy)), "cell": cell, "cells": (),
                           "tileset": set_id or book["tileset"],
                           "tiles": tuple(tuple(placed.get((i, j), -1) for i in range(cols)) for j in range(rows))}
            self.found.append(base)
            return
        rel = set()
        for obj in objects:
            if not isinstance(obj, dict):
                continue
            if obj.get("gid") is not None:
                x, y = number(obj.get("x", 0)) + ctx.ox, number(obj.get("y", 0)) + ctx.oy
                if finite(x, y):
                    i, j = round((x - ox) / cell), round((y - oy) / cell) - 1
                    if 0 <= i < cols and 0 <= j < rows:
                        rel.add((i, j))
                        continue
            self._object(obj, ctx, False)  # not a cell of the grid: an object like any other
        self.found.append(self._grid(base, name, cell, (ox, oy), rel, cols, rows))

    # -- images -------------------------------------------------------------------------------------

    def _image_layer(self, layer: dict, props: dict, book: dict, ctx: _Context, name: str, where: str) -> None:
        source = layer.get("image")
        if not isinstance(source, str) or not source.strip():
            self.notes.append(f"{where}: an image layer without a picture is left out")
            return
        scale = _number_prop(props, "scale")
        if scale is None:
            scale = 1.0
        elif not (math.isfinite(scale) and scale > 0):
            self.notes.append(f"{where}: scale {scale:g} is not a positive number: 1 it is")
            scale = 1.0
        repeats = [axis for axis in ("x", "y") if layer.get(f"repeat{axis}") in (True, 1, "1", "true")]
        if repeats:
            self.notes.append(f"{where}: its picture repeats along {' and '.join(repeats)} in Tiled; the level shows "
                              f"it once")
        path = relocate_path(source, self.map_dir, self.level_dir)
        # a map's image layer draws at its layer's opacity, which its level layer has (the export's images carry
        # their own)
        own = number(layer.get("opacity", 1))
        opacity = min(max(own, 0.0), 1.0) if self.ours and math.isfinite(own) else 1.0
        found = _Found("image", name, where, self._where_to(ctx), {
            "path": path, "origin": (ctx.ox, ctx.oy), "scale": scale, "opacity": opacity},
            text_of(book.get("type")) if self.ours else "", props, True, book if self.ours else {}, None,
            whole(book.get("order")) if self.ours else None)
        self.found.append(found)

    # -- the level ----------------------------------------------------------------------------------

    def _value(self, p: dict, where: str, refs: dict):
        """A Tiled property's value as a level's (None, with a note, when a level cannot hold it)."""
        kind, value, name = p.get("type", "string"), p.get("value"), p.get("name")
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "false"):
                return value.strip().lower() == "true"
        elif kind == "int":
            v = whole(value)
            if v is not None and abs(v) <= 2**63:
                return v
        elif kind == "float":
            v = number(value)
            if math.isfinite(v):
                return v
        elif kind == "object":
            target = whole(value, -1)
            if target == 0:
                return Ref("")
            if target in refs:
                return Ref(refs[target])
            self.notes.append(f"{where}: property {name} refers to object {brief(value)}, which is not in the level: "
                              f"it refers to nothing now")
            return Ref("")
        elif kind == "class":
            self.notes.append(f"{where}: property {name} is a class value; left out")
            return None
        elif kind in ("string", "color", "file", None) or isinstance(value, str):
            return value if isinstance(value, str) else ("" if value is None else str(value))
        self.notes.append(f"{where}: property {name} ({brief(kind)}) has a value a level cannot hold "
                          f"({brief(value)}); left out")
        return None

    def _values(self, props: dict, where: str, refs: dict) -> dict:
        out = {}
        for name, p in props.items():
            if not name.strip():
                self.notes.append(f"{where}: a property without a name is left out")
                continue
            v = self._value(p, where, refs)
            if v is not None:
                out[name] = v
        return out

    def _ids(self) -> list[str]:
        taken: set[str] = set()
        ids: list[Optional[str]] = []
        for f in self.found:
            ok = f.name.strip() and f.name not in taken
            ids.append(f.name if ok else None)
            if ok:
                taken.add(f.name)
        for i, f in enumerate(self.found):
            if ids[i] is not None:
                continue
            if f.name.strip():
                n = 2
                while f"{f.name}-{n}" in taken:
                    n += 1
                new = f"{f.name}-{n}"
                if not f.exact_name:
                    self.notes.append(f"{f.label}: another object is already called {f.name}; its id is {new}")
            else:
                prefix, n = id_prefix(f.kind), 1
                while f"{prefix}-{n}" in taken:
                    n += 1
                new = f"{prefix}-{n}"
            taken.add(new)
            ids[i] = new
        return ids

    def _motion(self, f: _Found) -> dict:
        """A moving object's path from the bookkeeping of a map this program wrote (a note when it is broken)."""
        raw = f.book.get("path") if self.ours and f.kind in _MOVING_KINDS else None
        if raw is None:
            return {}
        problems: list = []
        path = Reader(problems).path(f.name, "path", raw)
        for p in problems:
            self.notes.append(f"{f.label}: {p.message}; it stays put")
        return {} if path is None else {"path": path}

    def _settings(self, label: str, props: dict, book: dict) -> dict:
        """The player's controller and platformer settings: properties a designer may have set in Tiled, then what
        the bookkeeping kept of a top-down player's; each checked as the level file checks it."""
        out: dict = {}
        controller_p = props.pop("controller", None)
        if controller_p is not None:
            controller = controller_p.get("value")
            if controller in Player.CONTROLLERS:
                out["controller"] = controller
            else:
                self.notes.append(f"{label}: controller {brief(controller)} is not top_down or platformer: top-down it is")
        kept = book.get("settings") if self.ours and isinstance(book.get("settings"), dict) else {}
        for setting in PLAYER_SETTINGS:
            v = _number_prop(props, setting.name)
            if v is None and is_number(kept.get(setting.name)):
                v = float(kept[setting.name])
            if v is None:
                continue
            problem = "must be a finite number" if not math.isfinite(v) else setting.problem(v)
            if problem is None:
                out[setting.name] = v
            else:
                self.notes.append(f"{label}: {setting.name} {problem}; the default is used")
        return out

    def _player(self, refs: dict) -> tuple[Player, Optional[str]]:
        """The player, and why it starts at the default spot when it does (None when the map says where)."""
        if self.player is None:
            return Player(), f"no object of type {PLAYER_TYPE}"
        label, obj, x, y, w, h, rot, props, book = self.player
        if obj.get("point") is not True and w > 0 and h > 0:
            dx, dy = rotated(w / 2, h / 2, rot)
            x, y = _tidy(x + dx), _tidy(y + dy)
        default = Player()
        why = None
        if not (abs(x) <= MAX_COORDINATE and abs(y) <= MAX_COORDINATE):
            why = f"{label}: its position is beyond a level's limits (±{MAX_COORDINATE:g} px)"
            x, y = default.spawn.x, default.spawn.y
        shape_p = props.pop("shape", None)
        shape = shape_p.get("value") if shape_p else default.shape
        if not isinstance(shape, str) or shape not in Player.SHAPES:
            self.notes.append(f"{label}: shape {brief(shape)} is not circle or box: circle it is")
            shape = "circle"
        values = {}
        for key in ("radius", "box_width", "box_height", "speed"):
            v = _number_prop(props, key)
            if v is None:
                continue
            most = MAX_SPEED if key == "speed" else MAX_SIZE
            if math.isfinite(v) and 0 < v <= most:
                values[key] = v
            elif math.isfinite(v) and v > most:
                self.notes.append(f"{label}: {key} {v:g} is larger than a level allows ({most:g}); left out")
            else:
                self.notes.append(f"{label}: {key} {v:g} is not a positive number; left out")
        radius = values.get("radius", default.radius)
        size = (values.get("box_width", default.size.x), values.get("box_height", default.size.y))
        if self.ours:
            if is_number(book.get("radius")) and "radius" not in values:
                radius = float(book["radius"])
            if isinstance(book.get("size"), list) and len(book["size"]) == 2 and all(map(is_number, book["size"])):
                if "box_width" not in values and "box_height" not in values:
                    size = tuple(book["size"])
        settings = self._settings(label, props, book)
        for left in props:
            self.notes.append(f"{label}: property {left} is left out (the player has no custom properties)")
        extra = book.get("extra") if isinstance(book.get("extra"), dict) else {}
        return Player((x, y), shape, radius, size, values.get("speed", default.speed), extra, **settings), why

    def _free_spawn(self, level: Level, why: str) -> Level:
        """``level`` with its player, which starts at the default spot for ``why``, moved off anything solid there;
        a note says where it starts (a map this program wrote and Tiled lost the player of: only when moved).

        A map of someone else's without a ``player_spawn`` often has its player all the same, under the game's
        own name: the first object named or typed ``player`` or ``hero`` (sticker-knight's hero) gives the spot.
        """
        area = None
        w, h = number(self.data.get("width")), number(self.data.get("height"))
        if finite(w, h) and w > 0 and h > 0 and self.data.get("infinite") is not True:
            area = (0.0, 0.0, w * self.tile_w, h * self.tile_h)
        stand_in = None if self.ours or self.player is not None else next(
            (o for o in level.objects if o.id.lower() in PLAYER_NAMES or o.type.lower() in PLAYER_NAMES), None)
        if stand_in is not None:
            x0, y0, x1, y1 = stand_in.bounds()
            level = level.with_player(replace(level.player, spawn=((x0 + x1) / 2, (y0 + y1) / 2)))
            kind = f" (type {stand_in.type})" if stand_in.type else ""
            why = f"{why}; object {stand_in.id}{kind} stands in for it"
        default = level.player.spawn
        spot, hits = free_spawn(level, default, area)
        if hits:
            names = ", ".join(hits[:3]) + (f" and {len(hits) - 3} more" if len(hits) > 3 else "")
            self.notes.append(f"{why}: the player starts at {spot.x:g}, {spot.y:g}, a free spot near "
                              f"{default.x:g}, {default.y:g}, where it would overlap {names}")
            return level.with_player(replace(level.player, spawn=spot))
        if not (self.ours and self.player is None):
            self.notes.append(f"{why}: the player starts at {default.x:g}, {default.y:g}")
        return level

    def _size(self):
        """The map's size in pixels (a map this program wrote: the level's own size, when it had one)."""
        if self.ours:
            size = self.book.get("size")
            ok = isinstance(size, list) and len(size) == 2 and all(is_number(v) and 0 < v <= MAX_SIZE for v in size)
            return tuple(size) if ok else None
        w, h = number(self.data.get("width")), number(self.data.get("height"))
        if self.data.get("infinite") is True or not (finite(w, h) and w > 0 and h > 0):
            return None
        size = (w * self.tile_w, h * self.tile_h)
        return size if all(MIN_SIZE <= v <= MAX_SIZE for v in size) else None

    def _background(self) -> str:
        """The map's background colour as ``#rrggbb``; a partly transparent one keeps its colour, with a note."""
        raw = self.data.get("backgroundcolor")
        found = colour(raw)
        digits = raw.strip().lstrip("#") if isinstance(raw, str) else ""
        if found and len(digits) == 8 and digits[:2].lower() != "ff":
            self.notes.append(f"the map's background colour {raw.strip()} is partly transparent: the level's is "
                              f"{found}, opaque")
        return found

    def _types(self) -> tuple:
        if self.ours and "types" not in self.book:
            return ()
        if self.ours:
            try:
                parsed = parse_level({"format": FORMAT, "version": VERSION, "layers": [{"id": "x", "name": "x"}],
                                      "player": {"spawn": [0, 0], "radius": 1}, "objects": [],
                                      "types": self.book["types"]})
                return parsed.types
            except LevelFileError as e:
                first = e.problems[0] if e.problems else "not a list of types"
                self.notes.append(f"the map's object types cannot be read ({first}); left out")
        names = []
        for f in self.found:
            if f.type and f.type not in names:
                names.append(f.type)
        return tuple(ObjectType(n) for n in names)

    def build(self) -> Level:
        data = self.data
        orientation = data.get("orientation", "orthogonal")
        if orientation != "orthogonal":
            raise TiledImportError(f"{self.source}: {orientation} maps are not supported: only orthogonal maps "
                                   f"become levels")
        self.tile_w, self.tile_h = number(data.get("tilewidth")), number(data.get("tileheight"))
        if not (finite(self.tile_w, self.tile_h) and self.tile_w > 0 and self.tile_h > 0):
            raise TiledImportError(f"{self.source}: the map has no positive tilewidth and tileheight, so it is not a "
                                   f"Tiled map")
        tilesets = []
        for raw in _listed(data.get("tilesets")):
            if isinstance(raw, dict):
                ts = read_tileset(raw, self.map_dir, self.files)
                if ts is not None:
                    tilesets.append(ts)
        self.tilesets = Tilesets(tilesets)
        self.art: list = []
        self.art_order: dict = {}
        self.art_by_source: dict = {}
        if not self.ours:  # every tileset of the map, in the map's order, used or not (the export's own: if used)
            for ts in tilesets:
                self._art_for(ts)
        self.any_tile_collides = any(ts.any_collides() for ts in tilesets)
        self.over_cap = _map_tiles(data.get("layers", []), 0) > MAX_MAP_TILES

        self.walk(data.get("layers", []), _Context(self.map_dir))
        if self.default_thickness:
            n = self.default_thickness
            self.notes.append(f"{n} polygon{'s' if n != 1 else ''} and polylines without a thickness property: "
                              f"their walls are {DEFAULT_THICKNESS:g} px thick" if n != 1 else
                              f"1 polygon or polyline without a thickness property: its wall is "
                              f"{DEFAULT_THICKNESS:g} px thick")

        if self.ours:  # file order: Tiled ids follow it, grids and images keep theirs in the bookkeeping
            big = float("inf")
            self.found.sort(key=lambda f: f.order if f.order is not None else (f.tiled_id or big))
        ids = self._ids()
        refs: dict[int, str] = {}
        for f, oid in zip(self.found, ids):
            if f.tiled_id is not None:
                refs.setdefault(f.tiled_id, oid)
            if f.order is not None:
                refs.setdefault(f.order, oid)
        types = self._types()
        by_name = {t.name: t for t in types}
        objects = []
        for f, oid in zip(self.found, ids):
            one_way = _bool_prop(f.props, "one_way") if f.kind in _ONE_WAY_KINDS else None
            props = self._values(f.props, f.label, refs)
            if one_way:
                f.fields = dict(f.fields, one_way=True)
            t = by_name.get(f.type)
            if self.ours and t is not None:
                own = set(f.book.get("own", ())) if isinstance(f.book.get("own"), list) else set()
                props = {k: v for k, v in props.items()
                         if k in own or k not in t.properties or not same_value(t.properties[k], v)}
                props = _in_order(props, f.book.get("own_order"))
            extra = f.book.get("extra") if self.ours and isinstance(f.book.get("extra"), dict) else {}
            kwargs = dict(f.fields, layer=f.layer, type=f.type, properties=props, extra=extra)
            if f.kind in _SOLID_KINDS or f.kind == "sprite":
                kwargs["solid"] = f.solid
            kwargs.update(self._motion(f))
            objects.append(_CLASSES[f.kind](oid, **kwargs))
        player, default_spawn = self._player(refs)
        properties = self._values(self.map_props, "the map", refs)
        if not self.layers:
            self.layers.append(Layer(DEFAULT_LAYER, "Main"))
        name = self.book.get("name") if self.ours and isinstance(self.book.get("name"), str) else self.name
        grid = self.tile_w
        if self.ours and is_number(self.book.get("grid")) and math.isfinite(self.book["grid"]) and self.book["grid"] > 0:
            grid = float(self.book["grid"])
        if not MIN_SIZE <= grid <= MAX_GRID:  # the grids the loader accepts
            self.notes.append(f"the map's tile width {grid:g} is not a grid a level can have ({MIN_SIZE:g} to "
                              f"{MAX_GRID:g} px): the level's grid is {DEFAULT_GRID:g} px")
            grid = DEFAULT_GRID
        extra = self.book.get("extra") if self.ours and isinstance(self.book.get("extra"), dict) else {}
        level = Level(name=name, grid=grid, player=player, objects=tuple(objects), extra=extra,
                      layers=tuple(self.layers), types=types, properties=properties, tilesets=tuple(self.art),
                      size=self._size(), background=self._background())
        return level if default_spawn is None else self._free_spawn(level, default_spawn)


def _in_order(props: dict, order) -> dict:
    """``props`` in the order the bookkeeping lists (the map writes an object's own properties after its type's
    defaults); names it does not list keep their place after those it does.

    >>> _in_order({"health": 3, "boss": True}, ["boss", "health"])
    {'boss': True, 'health': 3}
    """
    if not isinstance(order, list):
        return props
    first = {k: props[k] for k in order if isinstance(k, str) and k in props}
    first.update((k, v) for k, v in props.items() if k not in first)
    return first


def _all_finite(fields: dict) -> bool:
    """Whether every number in an object's fields (numbers, pairs, lists of pairs) is finite and within the
    limits of a level (:data:`~level_editor.core.level.limits.MAX_COORDINATE`, which is also the largest size)."""
    stack = list(fields.values())
    while stack:
        v = stack.pop()
        if isinstance(v, (tuple, list)):
            stack.extend(v)
        elif isinstance(v, (float, int)) and not isinstance(v, bool) and not -_LIMIT <= v <= _LIMIT:
            return False
    return True


def _map_tiles(layers, depth: int) -> int:
    """How many tiles (empty ones too) the tile layers of ``layers`` and their groups hold (what is not a layer,
    or nested too deep, counts as none: reading the layers refuses it)."""
    if not isinstance(layers, list) or depth > MAX_DEPTH:
        return 0
    total = 0
    for layer in layers:
        if isinstance(layer, dict) and layer.get("type") == "tilelayer":
            total += layer_size(layer)
        elif isinstance(layer, dict) and layer.get("type") == "group":
            total += _map_tiles(layer.get("layers"), depth + 1)
    return total


_LIMIT = min(MAX_COORDINATE, MAX_SIZE)
#: How many objects of a layer are read between two looks at whether the import was stopped.
_STOP_OBJECTS = 1024
#: The most tile ids whose meaning one layer keeps at hand.
_MEANINGS = 1 << 16
#: Columns and rows below this take the quick way to their cell (their products with a tile size stay exact).
_FAST = 1 << 32
#: A global tile id's flip flags (mirrored left to right, upside down, about the diagonal): a painted cell's.
_FLIPS = 0xE0000000
#: The gid bit that turns a tile 120 degrees on hexagonal maps: meaningless on an orthogonal one.
_HEX_TURN = 0x10000000


def _phase(x: float, y: float, w: float, h: Optional[float] = None) -> tuple[float, float]:
    """Where a grid of cells ``w`` x ``h`` containing the point ``(x, y)`` starts, in [0, w) x [0, h)."""
    h = w if h is None else h
    px, py = round(x - w * math.floor(x / w), 6), round(y - h * math.floor(y / h), 6)
    return (0.0 if px >= w else px) + 0.0, (0.0 if py >= h else py) + 0.0


def _anchor(book: dict, ctx: _Context, with_origin: bool = False):
    """(cell, origin, (columns, rows)) of a grid the export wrote, from its bookkeeping and the layer's offset."""
    cell = book.get("cell")
    size = book.get("size")
    key = "origin" if with_origin else "start"
    where = book.get(key)
    ok = (is_number(cell) and math.isfinite(cell) and cell > 0 and isinstance(size, list) and len(size) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_GRID_CELLS for v in size)
          and size[0] * size[1] <= MAX_GRID_CELLS
          and isinstance(where, list) and len(where) == 2 and all(is_number(v) and math.isfinite(v) for v in where))
    if not ok:
        return None
    cell = float(cell)
    if with_origin:
        origin = (ctx.ox + where[0], ctx.oy + where[1])
    else:
        origin = (ctx.ox + where[0] * cell, ctx.oy + where[1] * cell)
    return cell, origin, (size[0], size[1])


def tiled_to_level(data: dict, name: str = "map", map_dir: str = ".", level_dir: Optional[str] = None,
                   files: Optional[Files] = None, source: Optional[str] = None,
                   stop: Optional[Callable[[], bool]] = None) -> ImportResult:
    """The level of a Tiled map's TMJ-shaped ``data``, and notes.

    ``name`` is the level's name when the map does not carry one, ``source`` the map in messages; external
    tilesets and templates are looked for from ``map_dir``; pictures' paths are made relative to
    ``level_dir`` (unchanged without it). ``stop``, when given, is asked now and then whether to go on.

    Raises
    ------
    TiledImportError
        When ``data`` is not an orthogonal Tiled map, or its tile data does not decode.
    ImportCancelled
        When ``stop()`` said True before the import ended.
    """
    notes: list[str] = files.notes if files is not None else []
    files = files or Files(notes)
    source = source or name
    if not isinstance(data, dict):
        raise TiledImportError(f"{source}: not a Tiled map")
    if data.get("format") == FORMAT:
        raise TiledImportError(f"{source}: is a level file, not a Tiled map")
    kind = data.get("type")
    if kind is not None and kind != "map":
        what = {"tileset": "a Tiled tileset", "template": "a Tiled template"}.get(
            kind if isinstance(kind, str) else "", f"of type {brief(kind)}")
        raise TiledImportError(f"{source}: is {what}, not a map")
    if "layers" not in data and "tilewidth" not in data:
        raise TiledImportError(f"{source}: has no layers and no tile size, so it is not a Tiled map")
    level = _Importer(data, name, source, map_dir, level_dir, files, notes, stop).build()
    if stop is not None and stop():
        raise ImportCancelled(f"{source}: stopped")
    return ImportResult(_as_the_loader_reads_it(level, notes, source), tuple(notes))


def _as_the_loader_reads_it(level: Level, notes: list[str], source: str) -> Level:
    """``level`` without the objects the loader would refuse (each named in a note), so the file ``import``
    writes always opens: the map may hold what a level cannot (a size below the limits, too many nodes)."""
    for _ in range(2):
        try:
            parse_level(level_to_dict(level), source)
            return level
        except LevelFileError as e:
            ids = {o.id for o in level.objects}
            bad = {p.object_id for p in e.problems if p.object_id in ids}
            if not bad:
                raise TiledImportError(f"{source}: cannot become a level: {e.problems[0]}") from None
            notes.extend(f"object {p.object_id}: {p.message}; left out" for p in e.problems if p.object_id in bad)
            level = level.with_objects(o for o in level.objects if o.id not in bad)
    return level


def read_tiled(path: str | os.PathLike, level_dir: Optional[str] = None,
               stop: Optional[Callable[[], bool]] = None) -> ImportResult:
    """Read the Tiled map at ``path`` (TMJ or TMX, gzip-packed or not) as a level, with notes.

    Pictures' paths are made relative to ``level_dir`` (the folder the level will be saved in; the map's
    folder when not given). The level's name, when the map does not carry one, is the file's name.
    ``stop``, when given, is asked every few thousand tiles and objects whether to go on.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "hall.tmj"), "w") as f:
    ...     _ = f.write('{"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, '
    ...                 '"layers": [{"type": "objectgroup", "name": "Things", "objects": ['
    ...                 '{"id": 1, "name": "crate", "x": 32, "y": 48, "width": 16, "height": 16},'
    ...                 '{"id": 2, "name": "sign", "x": 0, "y": 0, "text": {"text": "Hi"}}]}]}')
    >>> result = read_tiled(os.path.join(folder, "hall.tmj"))
    >>> [(o.kind, o.id, tuple(o.origin)) for o in result.level.objects]
    [('box', 'crate', (32.0, 48.0))]
    >>> result.notes[0]
    'object sign (id 2): text objects are left out'

    Raises
    ------
    TiledImportError
        When the file cannot be read, is not XML or JSON, is not an orthogonal Tiled map, or its tile data
        does not decode.
    ImportCancelled
        When ``stop()`` said True before the import ended.
    """
    source = os.fspath(path)
    data = load_document(source, source)
    map_dir = os.path.dirname(os.path.abspath(source))
    base = os.path.basename(source)
    for ending in (".gz", ".tmx", ".tmj", ".json"):
        if base.lower().endswith(ending):
            base = base[: -len(ending)]
    if stop is not None and stop():
        raise ImportCancelled(f"{source}: stopped")
    return tiled_to_level(data, base or "map", map_dir, level_dir or map_dir, source=source, stop=stop)
