"""The reader: a level file's JSON checked and made into the model, each object as its kind's description says.

Loading checks structure, types and value ranges and reports every problem at once, each naming its
object; a file with any of these problems does not load. Geometry (crossing outlines, a spawn inside a
wall...) is the validator's job: such a level loads, and the validator says what is wrong with it.

One reader checks each object as its kind's description (:mod:`.fields`) says, and one class words every
refusal (:class:`~.checks.Reader`). Most objects of a large level are plain (a wall, box, oriented box,
pillar or marker, with no properties or custom data and nothing wrong): for those, msgspec checks the same
description in C, as the file is decoded or as a dict (:func:`struct_types`), and :func:`object_builder`
makes the model objects without their ``__init__``. msgspec only ever takes an object or leaves it:
anything it does not take is read again by the checking reader, which says what is wrong, so every path
gives the same level and the same problems.

Only regular files are read (:func:`level_editor.core.level.reading.read_file_bytes`), and every number,
size, node count and nesting is held to the documented limits (:mod:`level_editor.core.level.limits`), so
nothing a hostile file holds reaches shapely, the simulation or the json writer as something they cannot
take. msgspec checks the whole file is JSON but builds no objects for ``hulls`` (derived data, ignored on
load); anything unusual takes the standard library's reader, which says what is wrong and where. The
collector is paused while a level is read.
"""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import fields as model_fields
from typing import Any, Callable, Mapping, Optional, Union

import msgspec

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.collector import paused_collector
from level_editor.core.level.format.checks import Reader, describe, type_name, unique_items
from level_editor.core.level.art import tile_number
from level_editor.core.level.format.tilesets import parse_tilesets
from level_editor.core.level.format.fields import FORMAT, KIND_OF, KINDS, ONLY_ON, PLAYER_SETTINGS, VERSION, Kind
from level_editor.core.level.limits import MAX_GRID, MAX_LEVEL_NODES, MAX_NESTING, MAX_SPEED, MAX_TILE_CELLS
from level_editor.core.level.migrations import CURRENT_VERSION, OBJECTS_AS_CURRENT_FROM, MigrationError, migrate
from level_editor.core.level.model import TRUSTED_MAKERS, Layer, Level, ObjectType, Player
from level_editor.core.level.problems import LEVEL_ID, PLAYER_ID, Problem
from level_editor.core.level.reading import LevelFileError, read_file_bytes

__all__ = ["load_level", "loads_level", "parse_level", "read_object", "struct_types", "object_builder"]

#: msgspec, the fast reader; the tests set this to None to read everything the checking way (the same level).
_msgspec = msgspec

_TOP_KEYS = ("format", "version", "name", "grid", "properties", "types", "layers", "tilesets", "size", "background",
             "player", "objects", "hulls")
_PLAYER_KEYS = ("spawn", "shape", "radius", "size", "speed", "controller") + tuple(s.name for s in PLAYER_SETTINGS)
_LAYER_KEYS = ("id", "name", "visible", "locked", "opacity")
_TYPE_KEYS = ("name", "color", "properties")
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


# ---------------------------------------------------------------------------
# From the file to JSON values


def load_level(path: str | os.PathLike) -> Level:
    """Read and check the level at ``path``.

    Only a regular file of at most :data:`~level_editor.core.level.limits.MAX_FILE_BYTES` is
    read (:func:`~level_editor.core.level.reading.read_file_bytes`); its ``hulls`` are
    skipped unparsed (they are derived data).

    Raises
    ------
    LevelFileError
        When the file cannot be read, is not JSON, or is not a valid level.
    """
    source = os.fspath(path)
    return _load_bytes(read_file_bytes(source, "level file"), source)


def loads_level(text: str | bytes, source: str = "<level>") -> Level:
    """Parse and check a level from JSON text (or its UTF-8 bytes).

    >>> loads_level('{"format": "level-editor.level", "version": 1, "player": {"spawn": [0, 0], "radius": 8}, '
    ...             '"objects": [{"id": "b", "kind": "box", "origin": [0, 0], "size": [4, 2]}]}').objects
    (Box(id='b', origin=Vec2(x=0.0, y=0.0), size=Vec2(x=4.0, y=2.0), extra={}, layer='main', type='',
         properties={}, solid=True, one_way=False, path=None),)
    """
    if isinstance(text, str):
        # a parse makes millions of objects and no cycles (level_editor.core.level.collector)
        with paused_collector():
            return parse_level(_decode_text(text, source), source)
    return _load_bytes(text, source)


def _load_bytes(raw: bytes, source: str) -> Level:
    with paused_collector():
        data = _decode_fast(raw)
        if data is None:
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError as e:
                raise LevelFileError(
                    source, [Problem(LEVEL_ID, f"is not UTF-8 text (bad byte at offset {e.start})")], unreadable=True
                ) from None
            raw = None
            data = _decode_text(text, source)
            text = None
        raw = None  # the file's bytes (the hulls' too) are not needed while the model is built
        return parse_level(data, source)


def _decode_fast(raw: bytes) -> Optional[dict]:
    """The level's top-level object with ``hulls`` left unparsed, or None to take the standard reader's path.

    msgspec checks the whole text is JSON but turns only what the loader reads
    into Python objects (``hulls`` stays bytes and is dropped). Anything it does
    not take (malformed JSON, a lone surrogate, NaN, huge integers, deep nesting)
    goes to the standard library's reader, which says what and where (line and column).
    """
    if _msgspec is None:
        return None
    if raw[:3] == b"\xef\xbb\xbf":
        raw = raw[3:]
    try:
        top = msgspec.json.decode(raw, type=dict[str, msgspec.Raw])
        data = {}
        version = msgspec.json.decode(top["version"]) if "version" in top else None
        current = version.__class__ is int and OBJECTS_AS_CURRENT_FROM <= version <= CURRENT_VERSION
        for key, value in top.items():
            if key == "objects" and current:  # an older version's objects are migrated as JSON first
                data[key] = _decode_objects(value)
            elif key != "hulls":
                data[key] = msgspec.json.decode(value)
        return data
    except (msgspec.MsgspecError, RecursionError, UnicodeDecodeError, ValueError):
        return None


#: Objects decoded by one call of msgspec when a level's ``objects`` list is longer than DECODE_BATCH_BYTES.
DECODE_BATCH = 1024
DECODE_BATCH_BYTES = 1 << 18


def _decode_objects(raw: bytes) -> Any:
    """The ``objects`` list of the JSON ``raw``: model objects where msgspec takes a batch whole, JSON values elsewhere.

    A thousand objects per call: one call over 100,000 held Python's interpreter lock for ~0.1 s, and the
    editor reads a level on a worker thread while its window keeps answering. Each batch is made into model
    objects and let go before the next (letting go of 100,000 at once held the lock for 30-60 ms). A batch
    msgspec does not take is decoded as plain JSON, for :func:`parse_level` to read object by object.
    """
    if len(raw) <= DECODE_BATCH_BYTES:
        return _decode_batch(raw)
    try:
        pieces = _PIECES_DECODER.decode(raw)
    except msgspec.ValidationError:  # not a list: parse_level says what it is
        return msgspec.json.decode(raw)
    objects: list = []
    for i in range(0, len(pieces), DECODE_BATCH):
        objects += _decode_batch(b"[" + b",".join(pieces[i:i + DECODE_BATCH]) + b"]")
    return objects


def _decode_batch(raw: bytes) -> Any:
    try:
        structs = _OBJECTS_DECODER.decode(raw)
    except (msgspec.MsgspecError, RecursionError, UnicodeDecodeError, ValueError):
        return msgspec.json.decode(raw)
    objects = []
    append = objects.append
    for o in structs:
        obj = model_object(o)
        if obj is None:
            return msgspec.json.decode(raw)
        append(obj)
    return objects


#: Longer integer literals are read as floats (infinite, so refused as not finite): Python
#: refuses to turn more than 4300 digits into an int, with an error that names no place.
_MAX_INT_DIGITS = 4000


def _parse_int(literal: str):
    return int(literal) if len(literal) <= _MAX_INT_DIGITS else float(literal)


def _decode_text(text: str, source: str) -> Any:
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as e:
        raise LevelFileError(
            source, [Problem(LEVEL_ID, f"is not valid JSON: {e.msg.removesuffix(' at')} at line {e.lineno}, column {e.colno}")],
            unreadable=True,
        ) from None
    except RecursionError:
        raise LevelFileError(source, [Problem(LEVEL_ID, _too_deep(text))]) from None


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep(text: str) -> str:
    """Where ``text`` first nests deeper than :data:`~level_editor.core.level.limits.MAX_NESTING` (said as a problem)."""
    depth = 0
    for m in _TOKEN.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > MAX_NESTING + 1:
                line = text.count("\n", 0, m.start()) + 1
                column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                return (f"custom data nested deeper than {MAX_NESTING} levels at line {line}, column {column} "
                        f"(the most a level file may nest)")
        elif ch in "]}":
            depth -= 1
    return f"custom data nested deeper than {MAX_NESTING} levels (the most a level file may nest)"


# ---------------------------------------------------------------------------
# From JSON values to the model


def parse_level(data: Any, source: str = "<level>") -> Level:
    """Build a :class:`Level` from parsed JSON, or raise :class:`LevelFileError` listing every problem.

    >>> parse_level({"format": "level-editor.level", "version": 2, "layers": [{"id": "main", "name": "Main"}],
    ...              "player": {"spawn": [0, 0], "radius": 8},
    ...              "objects": [{"id": "b", "kind": "box", "layer": "top"}]})
    Traceback (most recent call last):
    ...
    level_editor.core.level.reading.LevelFileError: <level>: b: missing 'origin' (its minimum corner [x, y])
    <level>: b: missing 'size' ([width, height])
    <level>: b: layer 'top' does not exist (the level's layers: 'main')
    """
    problems: list[Problem] = []
    if not isinstance(data, dict):
        raise LevelFileError(source, [Problem(LEVEL_ID, f"a level file must hold a JSON object, not {type_name(data)}")])
    format_name = data.get("format")
    version = data.get("version")
    if format_name != FORMAT:
        raise LevelFileError(source, [Problem(
            LEVEL_ID,
            f"unknown format {format_name!r} version {version!r}: expected format {FORMAT!r} version {VERSION}",
        )])
    if isinstance(version, float) and version.is_integer():
        # JSON has one number type: a writer that spells 1 as 1.0 means version 1.
        data = {**data, "version": int(version)}
    try:
        data = migrate(data)
    except MigrationError:
        raise LevelFileError(source, [Problem(
            LEVEL_ID,
            f"unknown version {version!r} of format {format_name!r}: this program reads versions 1 to {VERSION}",
        )]) from None

    reader = Reader(problems)
    name = data.get("name", "Untitled")
    if not isinstance(name, str):
        problems.append(Problem(LEVEL_ID, f"name must be text, not {type_name(name)}"))
        name = "Untitled"
    grid = 16.0
    if "grid" in data:
        grid = reader.positive(LEVEL_ID, "grid", data["grid"], default=16.0, limit=MAX_GRID)

    properties = reader.properties(LEVEL_ID, "properties", data.get("properties", {}))
    types = _parse_types(data.get("types", []), reader)
    layers = _parse_layers(data.get("layers"), reader)
    tilesets = parse_tilesets(data["tilesets"], reader) if "tilesets" in data else []
    size = reader.point(LEVEL_ID, "size", data["size"], positive=True) if "size" in data else None
    background = data.get("background", "")
    if background != "" and (not isinstance(background, str) or not _COLOR.fullmatch(background)):
        reader.bad(LEVEL_ID, f"background must be \"#rrggbb\", not {describe(background)}")
        background = ""

    player = Player()
    if "player" not in data:
        problems.append(Problem(PLAYER_ID, "the level has no player (a 'player' object with a spawn)"))
    else:
        player = _parse_player(data["player"], reader)

    objects = []
    raw_objects = data.get("objects")
    if raw_objects is None:
        problems.append(Problem(LEVEL_ID, "the level has no 'objects' list"))
    elif not isinstance(raw_objects, list):
        problems.append(Problem(LEVEL_ID, f"'objects' must be a list, not {type_name(raw_objects)}"))
    else:
        objects = _read_objects(raw_objects, layers, reader)

    _check_level_totals(objects, reader)
    _check_art(objects, tilesets, reader)
    extra = reader.custom_data(LEVEL_ID, {k: v for k, v in data.items() if k not in _TOP_KEYS})
    if problems:
        raise LevelFileError(source, problems)
    return Level(name=name, grid=grid, player=player, objects=tuple(objects), extra=extra,
                 layers=tuple(layers), types=tuple(types), properties=properties, tilesets=tuple(tilesets),
                 size=size, background=background)


def _check_art(objects: list, tilesets: list, r: Reader) -> None:
    """Every tileset an object names exists, and holds the tiles it paints or shows."""
    by_id = {t.id: t for t in tilesets}
    for obj in objects:
        name = getattr(obj, "tileset", "")
        if not name or obj.kind not in ("tiles", "sprite"):
            continue
        tileset = by_id.get(name)
        if tileset is None:
            known = ", ".join(repr(i) for i in sorted(by_id)) or "none"
            r.bad(obj.id, f"tileset {name!r} does not exist (the level's tilesets: {known})")
            continue
        if obj.kind == "sprite":
            if not tileset.has_tile(obj.tile):
                r.bad(obj.id, f"tile {obj.tile} is not in tileset {name!r} ({_has(tileset)})")
            continue
        for i, row in enumerate(obj.tiles):
            bad = next((v for v in row if v >= 0 and not tileset.has_tile(tile_number(v))), None)
            if bad is not None:
                r.bad(obj.id, f"tiles row {i + 1} paints tile {tile_number(bad)}, which is not in tileset {name!r} "
                              f"({_has(tileset)})")
                break


def _has(tileset) -> str:
    if tileset.is_collection:
        return f"its pictures are tiles {', '.join(str(t) for t in sorted(tileset.tiles)[:8])}" + \
            ("..." if len(tileset.tiles) > 8 else "") if tileset.tiles else "it has no pictures"
    return f"it has {tileset.count} tiles"


_MODEL_CLASSES = frozenset(KIND_OF)


def _read_objects(raw_objects: list, layers: list[Layer], r: Reader) -> list:
    """The level's objects, each checked on its own, then against the layers and the ids before it.

    ``raw_objects`` holds JSON values, or model objects already made from a batch msgspec took whole
    (:func:`_decode_objects`). A plain JSON object goes to msgspec first (:func:`_plain_object`);
    anything else, or anything msgspec does not take, to the checking reader (:func:`read_object`).
    """
    layer_ids = {layer.id for layer in layers}
    fast = _msgspec is not None
    seen: set[str] = set()
    objects = []
    for index, item in enumerate(raw_objects):
        cls = item.__class__
        own_id = True
        if cls in _MODEL_CLASSES:
            obj = item
        else:
            obj = _plain_object(item) if fast and cls is dict else None
            if obj is None:
                obj, own_id = read_object(index, item, r)
                if obj is None:
                    continue
        if obj.layer and layers and obj.layer not in layer_ids:  # a missing layer is said already
            r.bad(obj.id, f"layer {obj.layer!r} does not exist (the level's layers: "
                          f"{', '.join(repr(i) for i in sorted(layer_ids))})")
        if own_id:  # not a stand-in for a missing or bad id
            if obj.id in seen:
                r.bad(obj.id, f"duplicate id: another object is already called {obj.id!r}")
            else:
                seen.add(obj.id)
        objects.append(obj)
    return objects


def _check_level_totals(objects: list, r: Reader) -> None:
    """The limits on the whole level: nodes of all walls, cells of all tile grids."""
    nodes = sum(len(o.points) for o in objects if o.kind == "wall")
    if nodes > MAX_LEVEL_NODES:
        r.bad(LEVEL_ID, f"the walls have {nodes:,} nodes in all, more than the {MAX_LEVEL_NODES:,} a level may have")
    cells = sum(len(o.cells) * len(o.cells[0]) for o in objects if o.kind == "tiles" and o.cells)
    if cells > MAX_TILE_CELLS:
        r.bad(LEVEL_ID, f"the tile grids have {cells:,} cells in all, more than the {MAX_TILE_CELLS:,} a level may "
                        f"have")


def _parse_layers(raw: Any, r: Reader) -> list[Layer]:
    if raw is None:
        r.bad(LEVEL_ID, "missing 'layers' (a list of at least one layer)")
        return []
    if not isinstance(raw, list) or not raw:
        r.bad(LEVEL_ID, f"'layers' must be a list of at least one layer, not {describe(raw)}")
        return []
    layers: list[Layer] = []
    for label, lid, item in unique_items(raw, r, "layers", "id", "layer"):
        name = r.text(label, "name", item["name"]) if r.require(label, item, "name", "text") else lid
        visible = r.boolean(label, "visible", item.get("visible", True), True)
        locked = r.boolean(label, "locked", item.get("locked", False), False)
        opacity = 1.0
        if "opacity" in item:
            opacity = r.number(label, "opacity", item["opacity"], 1.0)
            if not 0.0 <= opacity <= 1.0:
                r.bad(label, f"opacity must be between 0 and 1 (it is {opacity:g})")
                opacity = 1.0
        extra = r.custom_data(label, {k: v for k, v in item.items() if k not in _LAYER_KEYS})
        layers.append(Layer(lid, name, visible, locked, extra, opacity))
    return layers


def _parse_types(raw: Any, r: Reader) -> list[ObjectType]:
    if not isinstance(raw, list):
        r.bad(LEVEL_ID, f"'types' must be a list of object types, not {describe(raw)}")
        return []
    types: list[ObjectType] = []
    for label, name, item in unique_items(raw, r, "types", "name", "type"):
        color = item.get("color", "#a0a0a0")
        if not isinstance(color, str) or not _COLOR.fullmatch(color):
            r.bad(label, f"color must be \"#rrggbb\", not {json.dumps(color) if isinstance(color, str) else describe(color)}")
            color = "#a0a0a0"
        props = r.properties(label, "properties", item.get("properties", {}))
        extra = r.custom_data(label, {k: v for k, v in item.items() if k not in _TYPE_KEYS})
        types.append(ObjectType(name, color, props, extra))
    return types


def _parse_player(raw: Any, r: Reader) -> Player:
    if not isinstance(raw, dict):
        r.bad(PLAYER_ID, f"player must be an object, not {type_name(raw)}")
        return Player()
    spawn = Vec2(64.0, 64.0)
    if r.require(PLAYER_ID, raw, "spawn", "the player's start point [x, y]"):
        spawn = r.point(PLAYER_ID, "spawn", raw["spawn"])
    shape = raw.get("shape", "circle")
    radius, size = 12.0, Vec2(24.0, 24.0)
    if shape not in Player.SHAPES:
        r.bad(PLAYER_ID, f"shape must be \"circle\" or \"box\", not {json.dumps(shape)}")
        shape = "circle"
    elif shape == "circle":
        r.require(PLAYER_ID, raw, "radius", "a circle player needs a radius")
    else:
        r.require(PLAYER_ID, raw, "size", "a box player needs a size [w, h]")
    # Both values are read when present, the one not in use too: switching the shape in the editor
    # then starts from what the file says, and saving writes it back.
    if "radius" in raw:
        radius = r.positive(PLAYER_ID, "radius", raw["radius"], 12.0)
    if "size" in raw:
        size = r.point(PLAYER_ID, "size", raw["size"], positive=True)
    speed = 240.0
    if "speed" in raw:
        speed = r.positive(PLAYER_ID, "speed", raw["speed"], 240.0, limit=MAX_SPEED, smallest=0.0)
    controller = raw.get("controller", "top_down")
    if controller not in Player.CONTROLLERS:
        r.bad(PLAYER_ID, f"controller must be {' or '.join(json.dumps(c) for c in Player.CONTROLLERS)}, not "
                         f"{json.dumps(controller) if isinstance(controller, str) else describe(controller)}")
        controller = "top_down"
    settings = {}
    for setting in PLAYER_SETTINGS:
        if setting.name not in raw:
            continue
        value = raw[setting.name]
        before = len(r.problems)
        number = r.number(PLAYER_ID, setting.name, value, setting.default, limit=sys.float_info.max)
        if len(r.problems) == before:
            problem = setting.problem(number)
            if problem is None:
                settings[setting.name] = number
            else:
                r.bad(PLAYER_ID, f"{setting.name} {problem}")
    extra = r.custom_data(PLAYER_ID, {k: v for k, v in raw.items() if k not in _PLAYER_KEYS})
    return Player(spawn=spawn, shape=shape, radius=radius, size=size, speed=speed, extra=extra,
                  controller=controller, **settings)


# ---------------------------------------------------------------------------
# Objects, as their kind's description says


def read_object(index: int, raw: Any, r: Reader, kinds: Mapping[str, Kind] = KINDS) -> tuple[Any, bool]:
    """The object ``raw`` (``objects[index]``) checked field by field: ``(model object or None, own id)``.

    Every problem is recorded with ``r`` and reading goes on with stand-ins, to report all of them at once;
    the object is None when it is not a JSON object or its kind is unknown. ``own id`` is False when its
    id is a stand-in (``objects[3]``) for a missing or bad one.
    """
    label = f"objects[{index}]"
    if not isinstance(raw, dict):
        r.bad(label, f"each object must be a JSON object, not {type_name(raw)}")
        return None, False
    oid = raw.get("id")
    own_id = isinstance(oid, str) and bool(oid.strip())
    if not own_id:
        r.bad(label, "missing 'id' (every object needs a unique text id)" if oid is None
              else f"id must be non-empty text, not {describe(oid)}")
        oid = label
    name = raw.get("kind")
    kind = kinds.get(name) if isinstance(name, str) else None
    if kind is None:
        known = ", ".join(sorted(kinds))
        r.bad(oid, f"unknown kind {json.dumps(name)} (known kinds: {known})" if "kind" in raw
              else f"missing 'kind' (one of: {known})")
        return None, own_id
    keys = kind.keys
    for key, (what, kinds_that_may) in ONLY_ON.items():
        if key in raw and key not in keys:
            article = "an" if name[0] in "aeiou" else "a"
            r.bad(oid, f"{key}: {article} {name} cannot be {what} (only {kinds_that_may} can)")
    values: dict[str, Any] = {"extra": r.custom_data(oid, {k: v for k, v in raw.items()
                                                         if k not in keys and k not in ONLY_ON}),
                              "layer": "", "type": "", "properties": {}}
    if r.require(oid, raw, "layer", "the id of the layer it is on"):
        values["layer"] = r.text(oid, "layer", raw["layer"], non_empty=True)
    if "type" in raw:
        values["type"] = r.text(oid, "type", raw["type"])
    if "properties" in raw:
        values["properties"] = r.properties(oid, "properties", raw["properties"])
    if kind.solid:
        values["solid"] = r.boolean(oid, "solid", raw.get("solid", kind.solid_default), kind.solid_default)
    for field in kind.fields:
        if field.name not in raw:
            if field.missing is not None:
                r.require(oid, raw, field.name, field.missing)
            values[field.name] = field.default
            continue
        before = len(r.problems)
        value = field.value.read(r, oid, field.name, raw[field.name], field.default)
        if field.check is not None and len(r.problems) == before:
            complaint = field.check(value)
            if complaint is not None:
                r.bad(oid, f"{field.name} {complaint}")
                value = field.default
        values[field.name] = value
    if kind.check is not None:
        kind.check(r, oid, values)
    return kind.model(oid, **values), own_id


class _Object(msgspec.Struct, forbid_unknown_fields=True, tag_field="kind"):
    id: str  # not blank: checked by the builder (a pattern here would cost a regular expression per object)
    layer: str
    type: str = ""


def struct_types(kinds: Mapping[str, Kind]) -> dict[str, type]:
    """msgspec's type of each kind whose every value msgspec can check, by ``kind``.

    The fields the file must give default to None here, so that a missing one is not msgspec's refusal
    but the builder's (:func:`object_builder`), and the checking reader says which. Keys outside the
    description (properties, custom data) are refused, so such objects take the checking reader too.
    """
    types = {}
    for kind in kinds.values():
        if any(f.value.struct is None for f in kind.fields) or (kind.check is not None and kind.struct_ok is None):
            continue
        fields = [(f.name, f.value.struct, None if f.missing is not None else f.default) for f in kind.fields]
        if kind.solid:
            fields.append(("solid", bool, kind.solid_default))
        types[kind.kind] = msgspec.defstruct(f"{kind.model.__name__}Fields", fields, bases=(_Object,),
                                             tag=kind.kind, forbid_unknown_fields=True)
    return types


#: How the builder passes each of the model's common attributes.
_COMMON_ARGUMENTS = {"id": "oid", "extra": "{}", "layer": "layer", "type": "o.type", "properties": "{}",
                     "solid": "o.solid", "folder": "None", "art": "None"}


def object_builder(kinds: Mapping[str, Kind], structs: Mapping[str, type]) -> Callable:
    """``model_object(o)``: the model object of msgspec's ``o`` (of ``structs``), or None when it is not complete.

    Incomplete: a field the file must give is missing, or the id or layer is blank. The values are checked
    already, so the object is built without its ``__init__`` (:data:`~level_editor.core.level.model.TRUSTED_MAKERS`),
    a third of the cost. The function is written out as Python from the description and compiled once,
    one branch per kind: a loop over the fields made a load of 100,000 objects 15 % slower.
    """
    scope: dict[str, Any] = {"new": tuple.__new__, "Vec2": Vec2}
    lines = ["def model_object(o):",
             "    oid, layer = o.id, o.layer",
             "    if not oid or not layer or (oid[0].isspace() and not oid.strip()) or (layer[0].isspace()",
             "                                                                          and not layer.strip()):",
             "        return None",
             "    cls = o.__class__"]
    for i, (name, struct) in enumerate(structs.items()):
        kind = kinds[name]
        for f in kind.fields:
            scope.update(f.value.scope)
        scope[f"struct_{i}"], scope[f"make_{i}"] = struct, TRUSTED_MAKERS[kind.model]
        lines.append(f"    if cls is struct_{i}:")
        required = [f"o.{f.name} is None" for f in kind.fields if f.missing is not None]
        # what msgspec cannot check: a value's own condition, a field's check, the kind's check across fields
        refused = [f"not {f.value.struct_ok.replace('$v', f'o.{f.name}')}" for f in kind.fields if f.value.struct_ok]
        for j, f in enumerate(kind.fields):
            if f.check is not None:
                scope[f"check_{i}_{j}"] = f.check
                refused.append(f"check_{i}_{j}(o.{f.name}) is not None")
        if kind.struct_ok is not None:
            refused.append(f"not ({kind.struct_ok})")
        if required or refused:
            lines += [f"        if {' or '.join(required + refused)}:", "            return None"]
        by_name = {f.name: f for f in kind.fields}
        arguments = [by_name[f.name].value.from_struct.replace("$v", f"o.{f.name}") if f.name in by_name
                     else _COMMON_ARGUMENTS[f.name] for f in model_fields(kind.model)]
        lines.append(f"        return make_{i}({', '.join(arguments)})")
    lines.append("    return None")
    source = "\n".join(lines)
    exec(compile(source, f"<builder of {', '.join(structs)}>", "exec"), scope)
    builder = scope["model_object"]
    builder.source = source  # what was compiled, for whoever debugs it
    return builder


#: msgspec's type of each kind it can check, by ``kind``, and the builder of their model objects.
STRUCTS = struct_types(KINDS)
model_object = object_builder(KINDS, STRUCTS)
_OBJECTS_DECODER = msgspec.json.Decoder(list[Union[tuple(STRUCTS.values())]])
_PIECES_DECODER = msgspec.json.Decoder(list[msgspec.Raw])


def _plain_object(raw: dict):
    """The model object of a JSON object when msgspec takes it (a plain object of a kind it checks), else None."""
    kind = raw.get("kind")
    struct = STRUCTS.get(kind) if kind.__class__ is str else None
    if struct is None:
        return None
    try:
        return model_object(msgspec.convert(raw, struct))
    except (msgspec.MsgspecError, RecursionError, TypeError, ValueError):  # anything: the checking reader says what
        return None
