"""Reading and writing level files (JSON, format ``level-editor.level`` version 2; version 1 is migrated).

The command line and the editor read and write files only through this module.

Loading checks structure, types and value ranges and reports every problem at
once, each naming its object; a file with any of these problems does not load.
Geometry (crossing outlines, a spawn inside a wall...) is the validator's job:
such a level loads, and the validator says what is wrong with it.

Saving is atomic: the text goes to a temporary file beside the target, which
then replaces it, so a crash or a full disk never leaves half a level behind.

Only regular files are read (:func:`level_editor.core.level.reading.read_file_bytes`), and
every number, size, node count and nesting is held to the documented limits
(:mod:`level_editor.core.level.limits`), so nothing a hostile file holds reaches shapely,
the simulation or the json writer as something they cannot take.

Large levels: msgspec checks the whole file is JSON but builds no objects for
``hulls`` (derived data, ignored on load) and checks plain objects as it
decodes them; anything unusual takes the standard library's reader and the
checking path, which say what is wrong and where. The collector is paused
while a level is read or written.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Iterator, Mapping
from typing import Any, Optional

try:  # the fast reader and writer; the standard library's json does everything without it, only slower
    import msgspec as _msgspec
except ImportError:  # pragma: no cover - msgspec is a dependency; this keeps a broken install working
    _msgspec = None

from level_editor.core.level.model import (
    OBJECT_KINDS,
    SOLID_CELL,
    EMPTY_CELL,
    Box,
    Image,
    Layer,
    Level,
    ObjectType,
    OrientedBox,
    Pillar,
    Player,
    Point,
    Ref,
    TRUSTED_MAKERS,
    Tiles,
    Wall,
)
from level_editor.core.level.migrations import CURRENT_VERSION, MigrationError, migrate
from level_editor.core.level.atomic import LevelSaveError, write_blocks_atomic
from level_editor.core.level.collector import paused_collector
from level_editor.core.level.limits import (
    MAX_COORDINATE,
    MAX_GRID,
    MAX_IMAGE_SCALE,
    MAX_LEVEL_NODES,
    MAX_NESTING,
    MAX_SIZE,
    MAX_SPEED,
    MAX_TILE_CELLS,
    MAX_WALL_NODES,
    MIN_SIZE,
)
from level_editor.core.level.reading import LevelFileError, read_file_bytes
from level_editor.core.level.problems import LEVEL_ID, PLAYER_ID, Problem
from level_editor.core.collision.shapes import Vec2

__all__ = [
    "FORMAT",
    "VERSION",
    "LevelFileError",
    "load_level",
    "loads_level",
    "parse_level",
    "level_to_dict",
    "object_to_dict",
    "player_to_dict",
    "layer_to_dict",
    "type_to_dict",
    "property_to_json",
    "dumps_level",
    "level_blocks",
    "save_level",
    "dumps_json",
]

FORMAT = "level-editor.level"
VERSION = CURRENT_VERSION

_TOP_KEYS = ("format", "version", "name", "grid", "properties", "types", "layers", "player", "objects", "hulls")
_PLAYER_KEYS = ("spawn", "shape", "radius", "size", "speed")
_LAYER_KEYS = ("id", "name", "visible", "locked")
_TYPE_KEYS = ("name", "color", "properties")
_COMMON_KEYS = ("id", "kind", "layer", "type", "properties")
_SOLID_KINDS = ("wall", "box", "oriented_box", "circle", "tiles")
_OBJECT_KEYS = {
    "wall": _COMMON_KEYS + ("points", "thickness", "closed", "solid"),
    "box": _COMMON_KEYS + ("origin", "size", "solid"),
    "oriented_box": _COMMON_KEYS + ("center", "half_extents", "rotation", "solid"),
    "circle": _COMMON_KEYS + ("center", "radius", "solid"),
    "tiles": _COMMON_KEYS + ("origin", "cell", "cells", "solid"),
    "point": _COMMON_KEYS + ("position",),
    "image": _COMMON_KEYS + ("path", "origin", "scale", "opacity"),
}
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
_BAD_CELL = re.compile(f"[^{re.escape(SOLID_CELL + EMPTY_CELL)}]")


# ---------------------------------------------------------------------------
# Reading


def load_level(path: str | os.PathLike) -> Level:
    """Read and check the level at ``path``.

    Only a regular file of at most :data:`~level_editor.core.level.limits.MAX_FILE_BYTES` is
    read (:func:`~level_editor.core.level.reading.read_file_bytes`); its ``hulls`` are
    skipped unparsed where the fast reader is installed (they are derived data).

    Raises
    ------
    LevelFileError
        When the file cannot be read, is not JSON, or is not a valid level.
    """
    source = os.fspath(path)
    return _load_bytes(read_file_bytes(source, "level file"), source)


def loads_level(text: str | bytes, source: str = "<level>") -> Level:
    """Parse and check a level from JSON text (or its UTF-8 bytes)."""
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
        top = _msgspec.json.decode(raw, type=dict[str, _msgspec.Raw])
        data = {}
        current = "version" in top and _msgspec.json.decode(top["version"]) == CURRENT_VERSION
        for key, value in top.items():
            if key == "objects" and current:  # an older version's objects are migrated as JSON first
                checked = _decode_objects_checked(value)
                if checked is not None:
                    data[key] = _CheckedObjects(checked)
                    continue
            if key != "hulls":
                data[key] = _msgspec.json.decode(value)
        return data
    except (_msgspec.MsgspecError, RecursionError, UnicodeDecodeError, ValueError):
        return None


class _CheckedObjects(list):
    """The model objects of a level's ``objects``, already checked (:func:`_decode_objects_checked`).

    A list, so that a migration sees a list; its items are model objects, not JSON objects."""


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


def parse_level(data: Any, source: str = "<level>") -> Level:
    """Build a :class:`Level` from parsed JSON, or raise :class:`LevelFileError` listing every problem."""
    problems: list[Problem] = []
    if not isinstance(data, dict):
        raise LevelFileError(source, [Problem(LEVEL_ID, f"a level file must hold a JSON object, not {_type_name(data)}")])
    fmt = data.get("format")
    version = data.get("version")
    if fmt != FORMAT:
        raise LevelFileError(source, [Problem(
            LEVEL_ID,
            f"unknown format {fmt!r} version {version!r}: expected format {FORMAT!r} version {VERSION}",
        )])
    if isinstance(version, float) and version.is_integer():
        # JSON has one number type: a writer that spells 1 as 1.0 means version 1.
        data = {**data, "version": int(version)}
    try:
        data = migrate(data)
    except MigrationError:
        raise LevelFileError(source, [Problem(
            LEVEL_ID,
            f"unknown version {version!r} of format {fmt!r}: this program reads versions 1 to {VERSION}",
        )]) from None

    reader = _Reader(problems)
    name = data.get("name", "Untitled")
    if not isinstance(name, str):
        problems.append(Problem(LEVEL_ID, f"name must be text, not {_type_name(name)}"))
        name = "Untitled"
    grid = 16.0
    if "grid" in data:
        grid = reader.positive(LEVEL_ID, "grid", data["grid"], default=16.0, limit=MAX_GRID)

    properties = reader.properties(LEVEL_ID, "properties", data.get("properties", {}))
    types = _parse_types(data.get("types", []), reader)
    layers = _parse_layers(data.get("layers"), reader)
    layer_ids = {layer.id for layer in layers}

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
        problems.append(Problem(LEVEL_ID, f"'objects' must be a list, not {_type_name(raw_objects)}"))
    elif raw_objects.__class__ is _CheckedObjects:
        objects = list(raw_objects)
        seen = set()
        for obj in objects:
            if obj.layer not in layer_ids and layers:
                problems.append(Problem(obj.id, f"layer {obj.layer!r} does not exist (the level's layers: "
                                                f"{', '.join(repr(i) for i in sorted(layer_ids))})"))
            if obj.id in seen:
                problems.append(Problem(obj.id, f"duplicate id: another object is already called {obj.id!r}"))
            seen.add(obj.id)
    else:
        seen: set[str] = set()
        for index, raw in enumerate(raw_objects):
            obj = _fast_object(raw) if raw.__class__ is dict else None
            if obj is None:
                obj = _parse_object(index, raw, reader)
                if obj is None:
                    continue
            if obj.layer not in layer_ids and layers and obj.layer:
                problems.append(Problem(obj.id, f"layer {obj.layer!r} does not exist (the level's layers: "
                                                f"{', '.join(repr(i) for i in sorted(layer_ids))})"))
            if obj.id in seen:
                if raw.get("id") == obj.id:  # not a stand-in for a missing or bad id
                    problems.append(Problem(obj.id, f"duplicate id: another object is already called {obj.id!r}"))
            elif raw.get("id") == obj.id:
                seen.add(obj.id)
            objects.append(obj)

    _check_level_totals(objects, reader)
    extra = reader.custom_data(LEVEL_ID, {k: v for k, v in data.items() if k not in _TOP_KEYS})
    if problems:
        raise LevelFileError(source, problems)
    return Level(name=name, grid=grid, player=player, objects=tuple(objects), extra=extra,
                 layers=tuple(layers), types=tuple(types), properties=properties)


def _check_level_totals(objects: list, r: "_Reader") -> None:
    """The limits on the whole level: nodes of all walls, cells of all tile grids."""
    nodes = sum(len(o.points) for o in objects if o.__class__ is Wall)
    if nodes > MAX_LEVEL_NODES:
        r._bad(LEVEL_ID, f"the walls have {nodes:,} nodes in all, more than the {MAX_LEVEL_NODES:,} a level may have")
    cells = sum(len(o.cells) * len(o.cells[0]) for o in objects if o.__class__ is Tiles and o.cells)
    if cells > MAX_TILE_CELLS:
        r._bad(LEVEL_ID, f"the tile grids have {cells:,} cells in all, more than the {MAX_TILE_CELLS:,} a level may "
                         f"have")


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class _Reader:
    """Reads typed fields, recording a problem (and returning a fallback) for each bad one."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems

    def _bad(self, oid: str, message: str):
        self.problems.append(Problem(oid, message))

    def number(self, oid: str, key: str, value: Any, default: float = 0.0, limit: float = MAX_COORDINATE) -> float:
        """A finite number no larger than ``limit`` either way (a coordinate unless said otherwise)."""
        if value.__class__ is float:  # the common case first: a level is mostly floats
            if -limit <= value <= limit:
                return value
        elif value.__class__ is int and -limit <= value <= limit:
            return float(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self._bad(oid, f"{key} must be a number, not {_type_name(value)}")
            return default
        if isinstance(value, int):
            try:
                value = float(value)
            except OverflowError:
                digits = len(str(abs(value))) if value.bit_length() < 20_000 else int(value.bit_length() * 0.30103) + 1
                self._bad(oid, f"{key} must be a finite number: one of about {digits} digits is too large")
                return default
        if not math.isfinite(value):
            self._bad(oid, f"{key} must be a finite number, not {value}")
            return default
        if not -limit <= value <= limit:
            self._bad(oid, f"{key} is {_fmt(value)}, beyond the limit of {_fmt(limit)} either way")
            return default
        return value

    def positive(self, oid: str, key: str, value: Any, default: float = 1.0,
                 limit: float = MAX_SIZE, smallest: float = MIN_SIZE) -> float:
        """A number in ``[smallest, limit]`` (a size, radius or thickness unless said otherwise), > 0 in any case."""
        if value.__class__ is float or value.__class__ is int:
            if smallest <= value <= limit and value > 0:
                return float(value)
        before = len(self.problems)
        v = self.number(oid, key, value, default, limit=sys.float_info.max)
        if len(self.problems) > before:
            return default
        if v <= 0:
            self._bad(oid, f"{key} must be greater than 0 (it is {_fmt(v)})")
            return default
        if v < smallest:
            self._bad(oid, f"{key} is {_fmt(v)}, smaller than the smallest allowed, {_fmt(smallest)}")
            return default
        if v > limit:
            self._bad(oid, f"{key} is {_fmt(v)}, larger than the largest allowed, {_fmt(limit)}")
            return default
        return v

    def point(self, oid: str, key: str, value: Any, positive: bool = False) -> Vec2:
        """``[x, y]``: a position within the coordinate limit, or (``positive``) a size within the size limits."""
        if value.__class__ is list and len(value) == 2:
            x, y = value
            if positive:
                if x.__class__ is float and y.__class__ is float and MIN_SIZE <= x <= MAX_SIZE \
                        and MIN_SIZE <= y <= MAX_SIZE:
                    return Vec2(x, y)
                return Vec2(self.positive(oid, f"{key}[0]", x, 1.0), self.positive(oid, f"{key}[1]", y, 1.0))
            return Vec2(self.number(oid, f"{key}[0]", x, 1.0), self.number(oid, f"{key}[1]", y, 1.0))
        self._bad(oid, f"{key} must be a pair of numbers [x, y], not {_describe(value)}")
        return Vec2(1.0, 1.0)

    def custom_data(self, oid: str, extra: dict) -> dict:
        """``extra`` as it is, after a problem for each key holding a NaN or an infinity (not JSON) or nested
        deeper than :data:`~level_editor.core.level.limits.MAX_NESTING` (Python's json could not write it back)."""
        for key, value in extra.items():
            if value.__class__ in (str, int, bool) or value is None:
                continue
            bad, depth = _scan_custom(value)
            if depth > MAX_NESTING:
                self._bad(oid, f"custom data {key!r} is nested deeper than {MAX_NESTING} levels "
                               f"(the most a level file may nest)")
            elif bad is not None:
                self._bad(oid, f"custom data {key!r} holds a number that is not finite ({_json_constant(bad)})")
        return extra

    def boolean(self, oid: str, key: str, value: Any, default: bool) -> bool:
        if not isinstance(value, bool):
            self._bad(oid, f"{key} must be true or false, not {_type_name(value)}")
            return default
        return value

    def text(self, oid: str, key: str, value: Any, default: str = "", non_empty: bool = False) -> str:
        if not isinstance(value, str) or (non_empty and not value.strip()):
            self._bad(oid, f"{key} must be {'non-empty ' if non_empty else ''}text, not {_describe(value)}")
            return default
        return value

    def properties(self, oid: str, key: str, value: Any) -> dict:
        """Custom properties: text, numbers (an integer stays one), true/false, or ``{"ref": ID}``."""
        if not isinstance(value, dict):
            self._bad(oid, f"{key} must be an object of name: value, not {_describe(value)}")
            return {}
        out: dict = {}
        for name, v in value.items():
            if not name.strip():
                self._bad(oid, f"{key}: a property name must not be empty")
                continue
            if isinstance(v, bool) or isinstance(v, str):
                out[name] = v
            elif isinstance(v, int):
                if abs(v) > 2**63:
                    self._bad(oid, f"property {name!r} is an integer too large to store ({len(str(abs(v)))} digits)")
                    continue
                out[name] = v
            elif isinstance(v, float):
                if not math.isfinite(v):
                    self._bad(oid, f"property {name!r} must be a finite number, not {_json_constant(v)}")
                    continue
                out[name] = v
            elif isinstance(v, dict) and set(v) == {"ref"} and isinstance(v["ref"], str):
                out[name] = Ref(v["ref"])
            else:
                self._bad(oid, f"property {name!r} must be text, a number, true/false or an object reference "
                               f"{{\"ref\": ID}}, not {_describe(v)}")
        return out

    def require(self, oid: str, raw: dict, key: str, what: str) -> bool:
        if key not in raw:
            self._bad(oid, f"missing '{key}' ({what})")
            return False
        return True


def _scan_custom(value: Any) -> tuple[Optional[float], int]:
    """The first NaN or infinity inside a parsed JSON value (else None), and how deep the value nests.

    Walks with a stack, not recursion: the value may nest deeper than Python recurses.
    The walk stops once the nesting passes the limit (the value is refused anyway).

    >>> _scan_custom({"a": [1, [float("nan")]]})
    (nan, 3)
    """
    stack = [(value, 1)]
    bad = None
    deepest = 0
    while stack:
        v, depth = stack.pop()
        if isinstance(v, float):
            if bad is None and not math.isfinite(v):
                bad = v
            continue
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_NESTING:
            break
        stack.extend((c, depth + 1) for c in children)
    return bad, deepest


def _json_constant(v: float) -> str:
    """How Python's json spells a non-finite number (NaN, Infinity, -Infinity)."""
    if math.isnan(v):
        return "NaN"
    return "Infinity" if v > 0 else "-Infinity"


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return _type_name(value)


def _fmt(v: float) -> str:
    return f"{v:g}"


def _unique_items(raw: Any, r: _Reader, section: str, key: str, what: str):
    """The JSON objects of a list of layers or types, each with its unique ``key``: ``(label, key, item)``.

    One problem per item that is not an object, lacks ``key`` or repeats another's; those are skipped.
    """
    seen: set[str] = set()
    for i, item in enumerate(raw):
        label = f"{section}[{i}]"
        if not isinstance(item, dict):
            r._bad(label, f"each {what} must be a JSON object, not {_type_name(item)}")
            continue
        if not r.require(label, item, key, f"the {what}'s unique {'text id' if key == 'id' else 'name'}"):
            continue
        value = r.text(label, key, item[key], non_empty=True)
        if not value:
            continue
        label = f"{what} {value}"
        if value in seen:
            noun = "id" if key == "id" else "name"
            r._bad(label, f"duplicate {what} {noun}: another {what} is already called {value!r}")
            continue
        seen.add(value)
        yield label, value, item


def _parse_layers(raw: Any, r: _Reader) -> list[Layer]:
    if raw is None:
        r._bad(LEVEL_ID, "missing 'layers' (a list of at least one layer)")
        return []
    if not isinstance(raw, list) or not raw:
        r._bad(LEVEL_ID, f"'layers' must be a list of at least one layer, not {_describe(raw)}")
        return []
    layers: list[Layer] = []
    for label, lid, item in _unique_items(raw, r, "layers", "id", "layer"):
        name = r.text(label, "name", item["name"]) if r.require(label, item, "name", "text") else lid
        visible = r.boolean(label, "visible", item.get("visible", True), True)
        locked = r.boolean(label, "locked", item.get("locked", False), False)
        extra = r.custom_data(label, {k: v for k, v in item.items() if k not in _LAYER_KEYS})
        layers.append(Layer(lid, name, visible, locked, extra))
    return layers


def _parse_types(raw: Any, r: _Reader) -> list[ObjectType]:
    if not isinstance(raw, list):
        r._bad(LEVEL_ID, f"'types' must be a list of object types, not {_describe(raw)}")
        return []
    types: list[ObjectType] = []
    for label, name, item in _unique_items(raw, r, "types", "name", "type"):
        color = item.get("color", "#a0a0a0")
        if not isinstance(color, str) or not _COLOR.fullmatch(color):
            r._bad(label, f"color must be \"#rrggbb\", not {json.dumps(color) if isinstance(color, str) else _describe(color)}")
            color = "#a0a0a0"
        props = r.properties(label, "properties", item.get("properties", {}))
        extra = r.custom_data(label, {k: v for k, v in item.items() if k not in _TYPE_KEYS})
        types.append(ObjectType(name, color, props, extra))
    return types


def _parse_tiles(oid: str, raw: dict, r: _Reader, common: dict) -> Tiles:
    origin = r.point(oid, "origin", raw["origin"]) if r.require(oid, raw, "origin", "its top-left corner [x, y]") else Vec2(0, 0)
    cell = r.positive(oid, "cell", raw["cell"], 16.0) if r.require(oid, raw, "cell", "the side of a cell, > 0") else 16.0
    rows: list[str] = []
    if r.require(oid, raw, "cells", 'rows of "#" (solid) and "." (empty)'):
        cells = raw["cells"]
        if not isinstance(cells, list):
            r._bad(oid, f"cells must be a list of rows (text), not {_type_name(cells)}")
        else:
            for i, row in enumerate(cells):
                if not isinstance(row, str):
                    r._bad(oid, f"cells row {i + 1} must be text of '#' and '.', not {_describe(row)}")
                    continue
                found = _BAD_CELL.search(row)
                bad = found.start() if found else None
                if bad is not None:
                    r._bad(oid, f"cells row {i + 1} has {row[bad]!r} at column {bad + 1} "
                                f"(a cell is '#' solid or '.' empty)")
                    continue
                if rows and len(row) != len(rows[0]):
                    r._bad(oid, f"cells row {i + 1} has {len(row)} cells, row 1 has {len(rows[0])} "
                                f"(all rows must be as long)")
                    continue
                rows.append(row)
    if rows and max(len(rows), len(rows[0])) * cell > MAX_SIZE:
        r._bad(oid, f"the grid is {len(rows[0])} x {len(rows)} cells of {_fmt(cell)}, larger than the largest size "
                    f"allowed, {_fmt(MAX_SIZE)}")
        rows = []
    return Tiles(oid, origin, cell, tuple(rows), **common)


def _parse_image(oid: str, raw: dict, r: _Reader, common: dict) -> Image:
    path = r.text(oid, "path", raw["path"], non_empty=True) if r.require(oid, raw, "path", "the picture's path") else ""
    origin = r.point(oid, "origin", raw["origin"]) if r.require(oid, raw, "origin", "its top-left corner [x, y]") else Vec2(0, 0)
    scale = r.positive(oid, "scale", raw.get("scale", 1.0), 1.0, limit=MAX_IMAGE_SCALE)
    before = len(r.problems)
    opacity = r.number(oid, "opacity", raw.get("opacity", 1.0), 1.0)
    if len(r.problems) == before and not 0.0 <= opacity <= 1.0:
        r._bad(oid, f"opacity must be between 0 and 1 (it is {_fmt(opacity)})")
        opacity = 1.0
    return Image(oid, path, origin, scale, opacity, **common)


def _parse_player(raw: Any, r: _Reader) -> Player:
    if not isinstance(raw, dict):
        r._bad(PLAYER_ID, f"player must be an object, not {_type_name(raw)}")
        return Player()
    spawn = Vec2(64.0, 64.0)
    if r.require(PLAYER_ID, raw, "spawn", "the player's start point [x, y]"):
        spawn = r.point(PLAYER_ID, "spawn", raw["spawn"])
    shape = raw.get("shape", "circle")
    radius, size = 12.0, Vec2(24.0, 24.0)
    if shape not in Player.SHAPES:
        r._bad(PLAYER_ID, f"shape must be \"circle\" or \"box\", not {json.dumps(shape)}")
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
    extra = r.custom_data(PLAYER_ID, {k: v for k, v in raw.items() if k not in _PLAYER_KEYS})
    return Player(spawn=spawn, shape=shape, radius=radius, size=size, speed=speed, extra=extra)


def _parse_object(index: int, raw: Any, r: _Reader):
    label = f"objects[{index}]"
    if not isinstance(raw, dict):
        r._bad(label, f"each object must be a JSON object, not {_type_name(raw)}")
        return None
    oid = raw.get("id")
    if not isinstance(oid, str) or not oid.strip():
        r._bad(label, "missing 'id' (every object needs a unique text id)" if oid is None
               else f"id must be non-empty text, not {_describe(oid)}")
        oid = label
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in OBJECT_KINDS:
        known = ", ".join(sorted(OBJECT_KINDS))
        r._bad(oid, f"unknown kind {json.dumps(kind)} (known kinds: {known})" if "kind" in raw
               else f"missing 'kind' (one of: {known})")
        return None
    extra = r.custom_data(oid, {k: v for k, v in raw.items() if k not in _OBJECT_KEYS[kind]})
    common = {"extra": extra, "layer": "", "type": "", "properties": {}}
    if r.require(oid, raw, "layer", "the id of the layer it is on"):
        common["layer"] = r.text(oid, "layer", raw["layer"], non_empty=True)
    if "type" in raw:
        common["type"] = r.text(oid, "type", raw["type"])
    if "properties" in raw:
        common["properties"] = r.properties(oid, "properties", raw["properties"])
    if kind in _SOLID_KINDS:
        common["solid"] = r.boolean(oid, "solid", raw.get("solid", True), True)
    if kind == "wall":
        obj = _parse_wall(oid, raw, r, common)
    elif kind == "tiles":
        obj = _parse_tiles(oid, raw, r, common)
    elif kind == "image":
        obj = _parse_image(oid, raw, r, common)
    elif kind == "point":
        position = r.point(oid, "position", raw["position"]) if r.require(oid, raw, "position", "[x, y]") else Vec2(0, 0)
        obj = Point(oid, position, **common)
    elif kind == "box":
        origin = r.point(oid, "origin", raw["origin"]) if r.require(oid, raw, "origin", "its minimum corner [x, y]") else Vec2(0, 0)
        size = r.point(oid, "size", raw["size"], positive=True) if r.require(oid, raw, "size", "[width, height]") else Vec2(1, 1)
        obj = Box(oid, origin, size, **common)
    elif kind == "oriented_box":
        center = r.point(oid, "center", raw["center"]) if r.require(oid, raw, "center", "[x, y]") else Vec2(0, 0)
        half = (r.point(oid, "half_extents", raw["half_extents"], positive=True)
                if r.require(oid, raw, "half_extents", "[half width, half height]") else Vec2(1, 1))
        rotation = r.number(oid, "rotation", raw.get("rotation", 0.0))
        obj = OrientedBox(oid, center, half, rotation, **common)
    else:
        center = r.point(oid, "center", raw["center"]) if r.require(oid, raw, "center", "[x, y]") else Vec2(0, 0)
        radius = r.positive(oid, "radius", raw["radius"]) if r.require(oid, raw, "radius", "a number > 0") else 1.0
        obj = Pillar(oid, center, radius, **common)
    return obj


# -- the fast path: a well-formed object of a common kind, read in one go ------------------------------------------
#
# Most objects of a large level are plain walls, boxes, oriented boxes, pillars and markers with nothing wrong.
# For those, every check the _Reader makes is done here inline and the model object is built without its
# __init__ (TRUSTED_MAKERS): a third of the time. Anything unusual (a missing or odd value, custom data,
# properties, a number out of the limits) returns None, and the object is read again by _parse_object,
# which says what is wrong. The two agree on every well-formed object (tests/core/level/test_file_format.py).

_new_tuple = tuple.__new__
_MAKE = TRUSTED_MAKERS
_FAST_KEYS = {
    "wall": frozenset(_OBJECT_KEYS["wall"]) - {"properties"},
    "box": frozenset(_OBJECT_KEYS["box"]) - {"properties"},
    "oriented_box": frozenset(_OBJECT_KEYS["oriented_box"]) - {"properties"},
    "circle": frozenset(_OBJECT_KEYS["circle"]) - {"properties"},
    "point": frozenset(_OBJECT_KEYS["point"]) - {"properties"},
}


def _position(p) -> Optional[Vec2]:
    if p.__class__ is list and len(p) == 2:
        x, y = p
        if x.__class__ is float:
            if not -MAX_COORDINATE <= x <= MAX_COORDINATE:
                return None
        elif x.__class__ is int and -MAX_COORDINATE <= x <= MAX_COORDINATE:
            x = float(x)
        else:
            return None
        if y.__class__ is float:
            if not -MAX_COORDINATE <= y <= MAX_COORDINATE:
                return None
        elif y.__class__ is int and -MAX_COORDINATE <= y <= MAX_COORDINATE:
            y = float(y)
        else:
            return None
        return _new_tuple(Vec2, (x, y))
    return None


def _size(v) -> Optional[float]:
    if (v.__class__ is float or v.__class__ is int) and MIN_SIZE <= v <= MAX_SIZE:
        return float(v)
    return None


def _extent(p) -> Optional[Vec2]:
    if p.__class__ is list and len(p) == 2:
        x, y = _size(p[0]), _size(p[1])
        if x is not None and y is not None:
            return _new_tuple(Vec2, (x, y))
    return None


def _fast_object(raw: dict):
    """The object ``raw`` describes when it is a well-formed wall, box, oriented box, pillar or marker, else None."""
    kind = raw.get("kind")
    known = _FAST_KEYS.get(kind) if kind.__class__ is str else None
    if known is None or not raw.keys() <= known:
        return None
    oid = raw.get("id")
    layer = raw.get("layer")
    otype = raw.get("type", "")
    if oid.__class__ is not str or layer.__class__ is not str or otype.__class__ is not str \
            or not oid.strip() or not layer.strip():
        return None
    if kind == "point":
        position = _position(raw.get("position"))
        return None if position is None else _MAKE[Point](oid, position, {}, layer, otype, {})
    solid = raw.get("solid", True)
    if solid.__class__ is not bool:
        return None
    if kind == "box":
        origin, size = _position(raw.get("origin")), _extent(raw.get("size"))
        if origin is None or size is None:
            return None
        return _MAKE[Box](oid, origin, size, {}, layer, otype, {}, solid)
    if kind == "wall":
        points = raw.get("points")
        thickness = _size(raw.get("thickness"))
        closed = raw.get("closed", False)
        if points.__class__ is not list or not 2 <= len(points) <= MAX_WALL_NODES or thickness is None \
                or closed.__class__ is not bool:
            return None
        nodes = []
        for p in points:
            node = _position(p)
            if node is None:
                return None
            nodes.append(node)
        return _MAKE[Wall](oid, tuple(nodes), thickness, closed, {}, layer, otype, {}, solid)
    center = _position(raw.get("center"))
    if center is None:
        return None
    if kind == "circle":
        radius = _size(raw.get("radius"))
        return None if radius is None else _MAKE[Pillar](oid, center, radius, {}, layer, otype, {}, solid)
    half = _extent(raw.get("half_extents"))
    rotation = raw.get("rotation", 0.0)
    if half is None or not (rotation.__class__ is float or rotation.__class__ is int) \
            or not -sys.float_info.max <= rotation <= sys.float_info.max:
        return None
    return _MAKE[OrientedBox](oid, center, half, float(rotation), {}, layer, otype, {}, solid)


# -- the fastest path: the whole list of objects checked by msgspec as it is decoded ---------------------------------
#
# When every object is a plain wall, box, oriented box, pillar or marker within the limits, msgspec checks the
# types and limits while it decodes (in C) and only the model objects are made here. Any object it does not
# take (another kind, custom data, properties, anything wrong) sends the whole list down the paths above.

if _msgspec is not None:
    from typing import Annotated, NamedTuple, Union

    _Meta = _msgspec.Meta
    _Coordinate = Annotated[float, _Meta(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
    _Length = Annotated[float, _Meta(ge=MIN_SIZE, le=MAX_SIZE)]

    class _XY(NamedTuple):
        x: _Coordinate
        y: _Coordinate

    class _WH(NamedTuple):
        x: _Length
        y: _Length

    _Nodes = Annotated[list[_XY], _Meta(min_length=2, max_length=MAX_WALL_NODES)]

    class _Object(_msgspec.Struct, forbid_unknown_fields=True, tag_field="kind"):
        id: str  # not blank: checked below (a pattern here would cost a regular expression per object)
        layer: str
        type: str = ""

    class _WallFields(_Object, tag="wall"):
        points: _Nodes = None
        thickness: _Length = None
        closed: bool = False
        solid: bool = True

    class _BoxFields(_Object, tag="box"):
        origin: _XY = None
        size: _WH = None
        solid: bool = True

    class _OrientedBoxFields(_Object, tag="oriented_box"):
        center: _XY = None
        half_extents: _WH = None
        rotation: float = 0.0
        solid: bool = True

    class _PillarFields(_Object, tag="circle"):
        center: _XY = None
        radius: _Length = None
        solid: bool = True

    class _PointFields(_Object, tag="point"):
        position: _XY = None

    _OBJECTS_TYPE = list[Union[_WallFields, _BoxFields, _OrientedBoxFields, _PillarFields, _PointFields]]


#: Objects decoded by one call of msgspec when a level's ``objects`` list is longer than DECODE_BATCH_BYTES.
DECODE_BATCH = 1024
DECODE_BATCH_BYTES = 1 << 18

if _msgspec is not None:
    _OBJECTS_DECODER = _msgspec.json.Decoder(_OBJECTS_TYPE)
    _PIECES_DECODER = _msgspec.json.Decoder(list[_msgspec.Raw])


def _decode_objects_checked(raw: bytes) -> Optional[list]:
    """The model objects of the ``objects`` list's JSON ``raw``, when msgspec finds every one well-formed."""
    objects = []
    try:
        for items in _object_batches(raw):
            if not _add_checked(items, objects.append):
                return None
    except (_msgspec.MsgspecError, RecursionError, UnicodeDecodeError, ValueError):
        return None
    return objects


def _object_batches(raw: bytes):
    """msgspec's objects of the ``objects`` list's JSON ``raw``, a batch at a time.

    A thousand objects per call: one call over 100,000 held Python's interpreter lock for ~0.1 s, and the
    editor reads a level on a worker thread while its window keeps answering. Each batch is made into model
    objects and let go before the next (letting go of 100,000 at once held the lock for 30-60 ms).
    """
    if len(raw) <= DECODE_BATCH_BYTES:
        yield _OBJECTS_DECODER.decode(raw)
        return
    pieces = _PIECES_DECODER.decode(raw)
    for i in range(0, len(pieces), DECODE_BATCH):
        yield _OBJECTS_DECODER.decode(b"[" + b",".join(pieces[i:i + DECODE_BATCH]) + b"]")


def _add_checked(items: list, append) -> bool:
    """``append`` the model object of each of msgspec's ``items``; False at the first that is not complete."""
    make_wall, make_box, make_obox = _MAKE[Wall], _MAKE[Box], _MAKE[OrientedBox]
    make_pillar, make_point = _MAKE[Pillar], _MAKE[Point]
    new = _new_tuple
    for o in items:
        oid, layer = o.id, o.layer
        if not oid or not layer or (oid[0].isspace() and not oid.strip()) or (layer[0].isspace()
                                                                              and not layer.strip()):
            return False
        cls = o.__class__
        if cls is _WallFields:
            if o.points is None or o.thickness is None:
                return False
            append(make_wall(o.id, tuple([new(Vec2, p) for p in o.points]), o.thickness, o.closed, {}, o.layer,
                             o.type, {}, o.solid))
        elif cls is _BoxFields:
            if o.origin is None or o.size is None:
                return False
            append(make_box(o.id, new(Vec2, o.origin), new(Vec2, o.size), {}, o.layer, o.type, {}, o.solid))
        elif cls is _PillarFields:
            if o.center is None or o.radius is None:
                return False
            append(make_pillar(o.id, new(Vec2, o.center), o.radius, {}, o.layer, o.type, {}, o.solid))
        elif cls is _OrientedBoxFields:
            if o.center is None or o.half_extents is None:
                return False
            append(make_obox(o.id, new(Vec2, o.center), new(Vec2, o.half_extents), o.rotation, {}, o.layer,
                             o.type, {}, o.solid))
        else:
            if o.position is None:
                return False
            append(make_point(o.id, new(Vec2, o.position), {}, o.layer, o.type, {}))
    return True


def _parse_wall(oid: str, raw: dict, r: _Reader, common: dict) -> Wall:
    points: list[Vec2] = []
    if r.require(oid, raw, "points", "its nodes [[x, y], ...]"):
        pts = raw["points"]
        if not isinstance(pts, list):
            r._bad(oid, f"points must be a list of [x, y] pairs, not {_type_name(pts)}")
        else:
            if len(pts) < 2:
                r._bad(oid, f"a wall needs at least 2 nodes, this one has {len(pts)}")
            elif len(pts) > MAX_WALL_NODES:
                r._bad(oid, f"a wall may have at most {MAX_WALL_NODES:,} nodes, this one has {len(pts):,}")
                pts = pts[:2]
            mark = len(r.problems)
            points = [r.point(oid, "points", p) for p in pts]
            if len(r.problems) > mark:  # again, numbering the nodes at fault (the common path does not)
                del r.problems[mark:]
                points = [r.point(oid, f"points[{i}]", p) for i, p in enumerate(pts)]
    thickness = 8.0
    if r.require(oid, raw, "thickness", "a number > 0"):
        thickness = r.positive(oid, "thickness", raw["thickness"], 8.0)
    closed = raw.get("closed", False)
    if not isinstance(closed, bool):
        r._bad(oid, f"closed must be true or false, not {_type_name(closed)}")
        closed = False
    if len(points) < 2:
        points = points + [Vec2(0, 0)] * (2 - len(points))
    return Wall(oid, tuple(points), thickness, closed, **common)


# ---------------------------------------------------------------------------
# Writing


_EXACT_INTS = 2.0**53


def _num(v: float):
    """Whole numbers are written without a trailing .0 (64 rather than 64.0); others as the shortest
    decimal that reads back as the same float (Python's repr).

    >>> [_num(64.0), _num(0.1), _num(1e300), _num(-2.5)]
    [64, 0.1, 1e+300, -2.5]
    """
    if v.__class__ is float:
        return int(v) if v.is_integer() and -_EXACT_INTS < v < _EXACT_INTS else v
    if v == int(v) and abs(v) < _EXACT_INTS:
        return int(v)
    return v


def _pt(p: Vec2) -> list:
    x, y = p
    if x.__class__ is float and x.is_integer() and -_EXACT_INTS < x < _EXACT_INTS:
        x = int(x)
    else:
        x = _num(x)
    if y.__class__ is float and y.is_integer() and -_EXACT_INTS < y < _EXACT_INTS:
        y = int(y)
    else:
        y = _num(y)
    return [x, y]


def property_to_json(value) -> Any:
    """A custom property's JSON value (an object reference becomes ``{"ref": ID}``)."""
    return {"ref": value.id} if isinstance(value, Ref) else value


def properties_to_dict(properties) -> dict:
    return {k: property_to_json(v) for k, v in properties.items()}


def object_to_dict(obj) -> dict:
    """The JSON object for one level object (unknown keys kept, after the known ones)."""
    d: dict[str, Any] = {"id": obj.id, "kind": obj.kind, "layer": obj.layer}
    if obj.type:
        d["type"] = obj.type
    if isinstance(obj, Wall):
        d["points"] = [_pt(p) for p in obj.points]
        d["thickness"] = _num(obj.thickness)
        d["closed"] = obj.closed
    elif isinstance(obj, Box):
        d["origin"] = _pt(obj.origin)
        d["size"] = _pt(obj.size)
    elif isinstance(obj, OrientedBox):
        d["center"] = _pt(obj.center)
        d["half_extents"] = _pt(obj.half_extents)
        d["rotation"] = _num(obj.rotation)
    elif isinstance(obj, Pillar):
        d["center"] = _pt(obj.center)
        d["radius"] = _num(obj.radius)
    elif isinstance(obj, Tiles):
        d["origin"] = _pt(obj.origin)
        d["cell"] = _num(obj.cell)
        d["cells"] = list(obj.cells)
    elif isinstance(obj, Point):
        d["position"] = _pt(obj.position)
    elif isinstance(obj, Image):
        d["path"] = obj.path
        d["origin"] = _pt(obj.origin)
        d["scale"] = _num(obj.scale)
        d["opacity"] = _num(obj.opacity)
    else:
        raise TypeError(f"not a level object: {type(obj).__name__}")
    if not obj.solid and obj.kind in _SOLID_KINDS:
        d["solid"] = False
    if obj.properties:
        d["properties"] = properties_to_dict(obj.properties)
    for k, v in obj.extra.items():
        d.setdefault(k, v)
    return d


class _NotPlain(Exception):
    """An object :func:`_object_line` leaves to the general path (a number that is not a plain finite float)."""


class _NumberTexts(dict):
    """Float -> its text as json.dumps writes :func:`_num` of it, remembered (a level repeats its numbers).

    Anything but a finite float raises :class:`_NotPlain`. ``-0.0`` and ``0.0`` share a key and a text,
    as they share their text (``0``) in the file.
    """

    def __missing__(self, v) -> str:
        if v.__class__ is not float:
            raise _NotPlain
        if v.is_integer() and -_EXACT_INTS < v < _EXACT_INTS:
            text = int.__repr__(int(v))
        else:
            text = float.__repr__(v)
            if text[-1] in "fn":  # inf, nan: the general path says what is wrong
                raise _NotPlain
        self[v] = text
        return text


_quote = json.encoder.encode_basestring


def _object_line(obj, n: _NumberTexts) -> str:
    """``_one_line(object_to_dict(obj))``, written straight from the object for the common kinds.

    Saving 100,000 objects made a dict and a list per point for each; the same text is now one
    f-string per object, numbers looked up in ``n``. Objects with properties or custom data, and
    numbers that are not plain floats, take the general path.
    """
    cls = obj.__class__
    if obj.properties or obj.extra or cls not in _LINE_KINDS:
        return _one_line(object_to_dict(obj))
    try:
        head = f'{{"id": {_quote(obj.id)}, "kind": "{obj.kind}", "layer": {_quote(obj.layer)}'
        if obj.type:
            head += f', "type": {_quote(obj.type)}'
        if cls is Wall:
            points = ", ".join([f"[{n[x]}, {n[y]}]" for x, y in obj.points])
            body = (f', "points": [{points}], "thickness": {n[obj.thickness]}, '
                    f'"closed": {"true" if obj.closed else "false"}')
        elif cls is Box:
            (x, y), (w, h) = obj.origin, obj.size
            body = f', "origin": [{n[x]}, {n[y]}], "size": [{n[w]}, {n[h]}]'
        elif cls is Pillar:
            x, y = obj.center
            body = f', "center": [{n[x]}, {n[y]}], "radius": {n[obj.radius]}'
        elif cls is OrientedBox:
            (x, y), (w, h) = obj.center, obj.half_extents
            body = f', "center": [{n[x]}, {n[y]}], "half_extents": [{n[w]}, {n[h]}], "rotation": {n[obj.rotation]}'
        else:
            x, y = obj.position
            return f'{head}, "position": [{n[x]}, {n[y]}]}}'
    except _NotPlain:
        return _one_line(object_to_dict(obj))
    if not obj.solid:
        body += ', "solid": false'
    return f"{head}{body}}}"


_LINE_KINDS = frozenset({Wall, Box, OrientedBox, Pillar, Point})


_DEFAULT_PLAYER = Player()


def player_to_dict(player: Player) -> dict:
    d: dict[str, Any] = {"spawn": _pt(player.spawn), "shape": player.shape}
    # The value in use always; the other one only when it is not the default (it was in the file, or was
    # set before the shape was switched), so the file keeps it and says no more than it needs to.
    active, other = ("size", "radius") if player.shape == "box" else ("radius", "size")
    values = {"radius": _num(player.radius), "size": _pt(player.size)}
    d[active] = values[active]
    if getattr(player, other) != getattr(_DEFAULT_PLAYER, other):
        d[other] = values[other]
    d["speed"] = _num(player.speed)
    for k, v in player.extra.items():
        d.setdefault(k, v)
    return d


def layer_to_dict(layer: Layer) -> dict:
    d: dict[str, Any] = {"id": layer.id, "name": layer.name, "visible": layer.visible, "locked": layer.locked}
    for k, v in layer.extra.items():
        d.setdefault(k, v)
    return d


def type_to_dict(object_type: ObjectType) -> dict:
    d: dict[str, Any] = {"name": object_type.name, "color": object_type.color,
                         "properties": properties_to_dict(object_type.properties)}
    for k, v in object_type.extra.items():
        d.setdefault(k, v)
    return d


def level_to_dict(level: Level, hulls: Optional[dict] = None) -> dict:
    """The level as a JSON-ready dict, ``hulls`` included (``{}`` when not given)."""
    return _level_dict(level, [object_to_dict(o) for o in level.objects], hulls)


def _level_dict(level: Level, objects: list, hulls: Optional[dict]) -> dict:
    d: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "name": level.name,
        "grid": _num(level.grid),
        "properties": properties_to_dict(level.properties),
        "types": [type_to_dict(t) for t in level.types],
        "layers": [layer_to_dict(layer) for layer in level.layers],
        "player": player_to_dict(level.player),
        "objects": objects,
        "hulls": hulls if hulls is not None else {},
    }
    for k, v in level.extra.items():
        d.setdefault(k, v)
    return d


_SURROGATE = re.compile("[\ud800-\udfff]")

#: One JSON encoder for every line (json.dumps with options builds a new one per call, the larger cost
#: for a small object). The C encoder when there is one; the same text either way.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
try:
    from _json import make_encoder as _c_make_encoder
except ImportError:  # pragma: no cover - every CPython has it
    _c_make_encoder = None


def _one_line(value: Any) -> str:
    """``value`` as one line of JSON, separators ``", "`` and ``": "``, non-ASCII text as itself."""
    if _c_make_encoder is None or not isinstance(value, (dict, list)):
        return _ENCODER.encode(value)
    return "".join(_LINE_ENCODER(value, 0))


if _c_make_encoder is not None:
    # markers=None: no check for cycles; values read from JSON have none, and deep ones are refused on load.
    _LINE_ENCODER = _c_make_encoder(None, _ENCODER.default, json.encoder.encode_basestring, None, ": ", ", ",
                                    False, False, False)


def _escape_surrogates(text: str) -> str:
    if text.isascii():  # the common case, answered without looking at the text
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def dumps_json(value: Any) -> str:
    r"""``value`` as one line of JSON that UTF-8 can hold: text as itself, lone surrogates escaped.

    JSON text may carry half of a surrogate pair (``"\ud800"``); it loads as a
    character that UTF-8 cannot encode, so it is written back as its escape.

    >>> dumps_json(["箱", chr(0xD800)])
    '["箱", "\\ud800"]'
    """
    return _escape_surrogates(_one_line(value))


def _hull_lines(hulls) -> str:
    """The lines of the ``hulls`` value (not empty): one object's hulls per line, indented, numbers compact."""
    return "".join(_hull_blocks(hulls))


def _hull_blocks(hulls) -> Iterator[str | bytes]:
    """The lines of the ``hulls`` value (not empty) in blocks: one object's hulls per line, indented, numbers compact.

    One object per line makes a one-object edit a few-line diff. Hulls are derived data, written often and
    never read back: hulls that write themselves (``json_blocks``, as
    :class:`level_editor.core.checks.hulls.LevelHulls` do, straight from their arrays) are written so; a plain dict is
    written by msgspec (compact separators, the same shortest round-trip decimals) when it is there.
    """
    blocks = getattr(hulls, "json_blocks", None)
    if blocks is not None:
        yield from blocks(_key_lines)
        return
    if _msgspec is not None:
        encode = _msgspec.json.encode
        try:
            yield b",\n".join([b"    " + encode(k) + b": " + encode(v) for k, v in hulls.items()]).decode("utf-8")
            return
        except (TypeError, ValueError, UnicodeEncodeError, OverflowError):
            pass  # a lone surrogate in an id, or a value msgspec does not write: the standard way
    yield ",\n".join(f"    {_one_line(key)}: {_one_line(value)}" for key, value in hulls.items())


def _key_lines(keys: list) -> list:
    """The start of each key's line in ``hulls``, as bytes: indent, the key as JSON, and the opening of its value."""
    text = _escape_surrogates("\0".join([f'    {_quote(k)}: {{"aabb":[' for k in keys]))
    return text.encode("utf-8").split(b"\0")  # JSON text holds no raw NUL: a key's is escaped


def dumps_level(level: Level, hulls: Optional[Mapping] = None) -> str:
    """The level as JSON text: one object per line, so diffs of level files stay readable.

    The objects, layers and types one per line; the ``hulls`` too, one object's per line.
    Numbers are the shortest decimals that read back as the same floats (whole ones without ``.0``).

    Raises
    ------
    ValueError
        When custom data cannot be written (nested deeper than Python's json goes, or not finite);
        :func:`save_level` turns it into a :class:`~level_editor.core.level.atomic.LevelSaveError`.
    """
    return "".join(b.decode("utf-8") if isinstance(b, bytes) else b for b in level_blocks(level, hulls))


#: Objects per block of :func:`level_blocks`.
_OBJECTS_PER_BLOCK = 4096


def level_blocks(level: Level, hulls: Optional[Mapping] = None) -> Iterator[str | bytes]:
    """The text of :func:`dumps_level` in blocks (str, or bytes in UTF-8), made as they are asked for.

    A save writes each block as it comes (:func:`level_editor.core.level.atomic.write_blocks_atomic`), so a level of
    100,000 objects is never whole in memory, as text or as dicts. The collector is paused while a
    block is made.

    Raises
    ------
    ValueError
        As :func:`dumps_level`, when the block with the faulty custom data is made.
    """
    blocks = _level_blocks(level, hulls)
    while True:
        # paused while each block is made, never across a yield: a write that fails half-way leaves this
        # generator suspended until it is collected, and the collector must not stay off meanwhile
        with paused_collector():
            block = next(blocks, None)
        if block is None:
            return
        yield block


def _level_blocks(level: Level, hulls: Optional[Mapping]) -> Iterator[str | bytes]:
    d = _level_dict(level, [], None)
    parts = ["{"]
    try:
        for k, v in d.items():
            if k in ("types", "layers") and v:
                # one type and one layer per line, as objects: a diff shows which one changed
                parts.append(f"  {_one_line(k)}: [")
                parts.append(",\n".join("    " + _one_line(item) for item in v))
                parts.append("  ],")
            elif k not in ("objects", "hulls"):
                parts.append(f"  {_one_line(k)}: {_one_line(v)},")
        objects = level.objects
        if objects:
            parts.append('  "objects": [\n')
            yield _escape_surrogates("\n".join(parts))
            for first in range(0, len(objects), _OBJECTS_PER_BLOCK):
                block = objects[first:first + _OBJECTS_PER_BLOCK]
                numbers = _NumberTexts()  # per block: the numbers of 100,000 objects would take 60 MB
                text = ",\n".join(["    " + _object_line(o, numbers) for o in block])
                yield _escape_surrogates(text if first == 0 else ",\n" + text)
            parts = ["\n  ],"]
        else:
            parts.append('  "objects": [],')
        if hulls:  # the megabytes of hulls as they are made, not copied into a line first
            parts.append('  "hulls": {\n')
            yield _escape_surrogates("\n".join(parts))
            for block in _hull_blocks(hulls):
                yield _escape_surrogates(block) if isinstance(block, str) else block
            parts = ["\n  }"]
        else:
            parts.append('  "hulls": {}')
    except RecursionError:
        raise ValueError(f"custom data is nested deeper than {MAX_NESTING} levels; it cannot be written") from None
    parts.append("}\n")
    yield _escape_surrogates("\n".join(parts))


def save_level(
    level: Level,
    path: str | os.PathLike,
    hulls: Optional[dict] = None,
) -> None:
    """Write ``level`` to ``path`` atomically, with ``hulls`` as given (``{}`` when not given).

    The hulls are computed by the caller (:func:`level_editor.core.checks.check.check_level`):
    the file format knows nothing of shapely.

    Raises
    ------
    LevelSaveError
        When the file cannot be written. The old file, if any, is left whole.
    """
    try:
        write_blocks_atomic(path, level_blocks(level, hulls))
    except ValueError as e:
        raise LevelSaveError(f"could not save {os.fspath(path)}: {e}") from None


