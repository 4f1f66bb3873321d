"""What each kind of object holds in a level file: the one description the reader and the writer follow.

A kind (``wall``, ``box``...) is its model class and its fields in the order the file writes them; a field
is a name (the JSON key and the model's attribute), the sort of value it holds (a position, a size, a
length, true/false...), and either what it is (the file must give it: ``missing 'size' ([width, height])``)
or its default. Every kind also has the common keys: ``id``, ``kind``, ``layer``, ``type``, ``properties``,
and ``solid`` for the kinds that collide.

From this table :mod:`~level_editor.core.level.format.read` checks each object (wording every refusal),
builds msgspec's types that check plain objects as they are decoded, and writes out the builder of their
model objects; :mod:`~level_editor.core.level.format.write` writes each object, as a dict and as a line of
the file. Tiled works the same way, with one converter per direction (``varianttomapconverter.cpp``,
``maptovariantconverter.cpp``) over one model.

Adding a field to a kind is one :class:`Field` in its list (and the model's attribute), plus its check when
its sort of value does not say everything; a new sort of value is a new :class:`Value`.

>>> [f.name for f in KINDS["box"].fields]
['origin', 'size', 'one_way', 'path']
>>> sorted(KINDS["point"].keys)
['id', 'kind', 'layer', 'position', 'properties', 'type']
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import sys
from dataclasses import dataclass, fields as model_fields
from typing import Annotated, Any, Callable, Literal, NamedTuple, Optional

import msgspec

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.limits import (
    MAX_COORDINATE, MAX_IMAGE_SCALE, MAX_PATH_POINTS, MAX_SIZE, MAX_SPEED, MAX_WALL_NODES, MIN_SIZE,
)
from level_editor.core.level.migrations import CURRENT_VERSION
from level_editor.core.level.art import FLAGS
from level_editor.core.level.model import Box, Image, OrientedBox, Pillar, Point, Sprite, Tiles, Wall
from level_editor.core.level.motion import MODES, MovePath
from level_editor.core.level.format.text import fmt, one_line, pt
from level_editor.core.level.number_text import file_number

__all__ = ["FORMAT", "VERSION", "Value", "Field", "Kind", "KINDS", "KIND_OF", "COMMON_KEYS", "ONLY_ON",
           "Setting", "PLAYER_SETTINGS"]

#: The ``format`` of every level file, and the ``version`` this program writes.
FORMAT = "level-editor.level"
VERSION = CURRENT_VERSION

#: The keys every object has, whatever its kind (``solid`` is added for the kinds that collide).
COMMON_KEYS = ("id", "kind", "layer", "type", "properties")


# ---------------------------------------------------------------------------
# Sorts of values


class Value(ABC):
    """A sort of value a field holds: how it is checked, decoded and written.

    ``read`` checks a JSON value with the level reader (``r``, :class:`~level_editor.core.level.format.checks.Reader`),
    which words every refusal, and returns the model's value (``default`` when it is wrong); ``to_json``
    turns the model's value into its JSON value (None: it is one already). The rest serve the fast paths,
    which only ever take a value or leave it to ``read``: ``struct`` is msgspec's type for it, checked in C
    as the file is decoded (None: only ``read`` reads it, and its kinds take the checking path);
    ``from_struct`` is the Python expression of msgspec's value ``$v`` that gives the model's value;
    ``text`` is the piece of an f-string that writes the model's value ``$v`` as JSON, numbers looked up in
    ``n`` (None: written through ``to_json``).
    """

    struct: Any = None
    #: A Python expression of msgspec's value ``$v`` that must be true for the fast path to keep the object (what
    #: msgspec cannot check; else the checking reader reads it and says what is wrong). None: nothing more.
    struct_ok: Optional[str] = None
    from_struct = "$v"
    #: Names ``from_struct`` uses besides ``new`` and ``Vec2``.
    scope: dict = {}
    text: Optional[str] = None
    to_json: Optional[Callable[[Any], Any]] = None

    @abstractmethod
    def read(self, r, oid: str, key: str, value: Any, default: Any) -> Any:
        """The model's value for the JSON ``value`` of ``key`` on object ``oid`` (every sort says how)."""


_Coordinate = Annotated[float, msgspec.Meta(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
_Length = Annotated[float, msgspec.Meta(ge=MIN_SIZE, le=MAX_SIZE)]


class _XY(NamedTuple):
    x: _Coordinate
    y: _Coordinate


class _WH(NamedTuple):
    x: _Length
    y: _Length


class Position(Value):
    """``[x, y]``, each within the coordinate limit (a node, an origin, a centre)."""

    struct = _XY
    from_struct = "new(Vec2, $v)"
    text = "[{n[$v[0]]}, {n[$v[1]]}]"

    to_json = staticmethod(pt)

    def read(self, r, oid, key, value, default):
        return r.point(oid, key, value)


class Extent(Position):
    """``[w, h]``, each a size (> 0, within the size limits)."""

    struct = _WH

    def read(self, r, oid, key, value, default):
        return r.point(oid, key, value, positive=True)


class Number(Value):
    """A finite number no larger than ``limit`` either way."""

    text = "{n[$v]}"
    to_json = staticmethod(file_number)

    def __init__(self, limit: float = MAX_COORDINATE):
        self.limit = limit
        self.struct = Annotated[float, msgspec.Meta(ge=-limit, le=limit)]

    def read(self, r, oid, key, value, default):
        return r.number(oid, key, value, default, limit=self.limit)


class Length(Number):
    """A size, radius or thickness: a number in ``[MIN_SIZE, limit]``."""

    def __init__(self, limit: float = MAX_SIZE):
        self.limit = limit
        self.struct = Annotated[float, msgspec.Meta(ge=MIN_SIZE, le=limit)]

    def read(self, r, oid, key, value, default):
        return r.positive(oid, key, value, default, limit=self.limit)


class Flag(Value):
    """``true`` or ``false``."""

    struct = bool
    text = "{TRUE_FALSE[$v]}"

    def read(self, r, oid, key, value, default):
        return r.boolean(oid, key, value, default)


class Text(Value):
    """Non-empty text (a picture's path)."""

    struct = Annotated[str, msgspec.Meta(min_length=1)]
    struct_ok = "(not $v or $v.strip())"  # left out (the default, "") or not only white space
    text = "{quote($v)}"

    def read(self, r, oid, key, value, default):
        return r.text(oid, key, value, default, non_empty=True)


class Nodes(Value):
    """A wall's nodes: ``[[x, y], ...]``, 2 to ``MAX_WALL_NODES`` positions."""

    struct = Annotated[list[_XY], msgspec.Meta(min_length=2, max_length=MAX_WALL_NODES)]
    from_struct = "tuple([new(Vec2, p) for p in $v])"
    text = "{nodes_text($v, n)}"

    def read(self, r, oid, key, value, default):
        return r.nodes(oid, key, value)

    @staticmethod
    def to_json(value):
        return [pt(p) for p in value]


class Cells(Value):
    """A tile grid's rows: text of ``#`` (solid) and ``.`` (empty), all as long."""

    text = "{rows_text($v)}"
    to_json = staticmethod(list)

    def read(self, r, oid, key, value, default):
        return r.cells(oid, key, value)


class _PathStruct(msgspec.Struct, forbid_unknown_fields=True):
    points: Annotated[list[_XY], msgspec.Meta(min_length=2, max_length=MAX_PATH_POINTS)]
    speed: Annotated[float, msgspec.Meta(gt=0, le=MAX_SPEED)]
    mode: Literal[MODES] = "ping_pong"


def _path_from_struct(v) -> Optional[MovePath]:
    if v is None:
        return None
    return MovePath(tuple(Vec2(p[0], p[1]) for p in v.points), v.speed, v.mode)


class Motion(Value):
    """A moving object's path: ``{"points": [[dx, dy], ...], "speed": px/s, "mode": "ping_pong" | "loop"}``.

    Absent (None) for an object that stays put.
    """

    struct = _PathStruct  # left out: None (msgspec does not check a default); null is refused, as by ``read``
    from_struct = "path_from_struct($v)"
    text = "{path_text($v)}"

    @staticmethod
    def to_json(value):
        if value is None:
            return None
        return {"points": [pt(p) for p in value.points], "speed": file_number(value.speed), "mode": value.mode}

    scope = {"path_from_struct": _path_from_struct, "path_text": lambda value: one_line(Motion.to_json(value))}

    def read(self, r, oid, key, value, default):
        return r.path(oid, key, value)


class TileRows(Value):
    """A painted grid's rows: lists of whole numbers, all as long; each a tile's number with its flip flags
    (:mod:`level_editor.core.level.art`), or -1 for an empty cell. Whether a tile is in the tileset is checked
    with the level (:func:`~.read.parse_level`)."""

    @staticmethod
    def to_json(value):
        return [list(row) for row in value]

    def read(self, r, oid, key, value, default):
        return r.tile_rows(oid, key, value)


class TileNumber(Value):
    """A tile's number in its tileset: a whole number, 0 or more."""

    struct = Annotated[int, msgspec.Meta(ge=0, le=~FLAGS & 0xFFFFFFFF)]

    def read(self, r, oid, key, value, default):
        if value.__class__ is not int or not 0 <= value <= ~FLAGS & 0xFFFFFFFF:
            r.bad(oid, f"{key} must be a tile's number (a whole number, 0 or more), not {describe_value(value)}")
            return default
        return value


def describe_value(value) -> str:
    from level_editor.core.level.format.checks import describe
    return describe(value)


class PlainText(Text):
    """Non-empty text, written through ``to_json`` (a kind holding it takes the general writer)."""

    text = None


POSITION, EXTENT, LENGTH, FLAG, TEXT, MOTION = Position(), Extent(), Length(), Flag(), Text(), Motion()
#: A rotation in degrees: any finite number (the JSON Schema says no more; turning is periodic).
ANGLE = Number(limit=sys.float_info.max)


# ---------------------------------------------------------------------------
# Fields and kinds


@dataclass(frozen=True)
class Field:
    """One field of a kind.

    Attributes
    ----------
    name : str
        The JSON key, and the model's attribute of the same name.
    value : Value
        The sort of value it holds.
    missing : str or None
        What the field is, for the refusal when a file leaves it out; None when it may be left out.
    default : Any
        The value when left out, and the stand-in when it is missing or wrong (reading goes on, to report
        every problem at once).
    check : callable or None
        A further check of a value of the right sort: ``check(value)`` is None when it is fine, else what is
        wrong, said after the key ("must be between 0 and 1 (it is 2)").
    omit_default : bool
        Written only when it is not its default (a field a later version adds, so that objects without it
        save as they did; ``solid`` is written so too).
    """

    name: str
    value: Value
    missing: Optional[str] = None
    default: Any = None
    check: Optional[Callable[[Any], Optional[str]]] = None
    omit_default: bool = False
    #: Left out of the object ``o`` when ``omit(o)`` is true (a painted grid has no ``cells``, a plain one no
    #: ``tiles``); a kind with such a field is written by the general writer.
    omit: Optional[Callable[[Any], bool]] = None


@dataclass(frozen=True)
class Kind:
    """One kind of object: its ``kind`` in the file, its model class, its fields in file order.

    ``solid``: whether it has the common ``solid`` key (``false``: the player passes through).
    ``check``: a check across its fields, ``check(r, oid, values)``, which reports with ``r.bad`` and may
    replace values in ``values`` (read fields by name) with stand-ins.
    """

    kind: str
    model: type
    fields: tuple[Field, ...]
    solid: bool = True
    check: Optional[Callable[[Any, str, dict], None]] = None
    #: ``solid`` when the file leaves it out (art is not solid unless the file says so).
    solid_default: bool = True
    #: :attr:`check` as a Python expression of msgspec's object ``o``, true when the check has nothing to say (the
    #: fast path then keeps the object). None: a kind with a check takes the checking path.
    struct_ok: Optional[str] = None

    @property
    def keys(self) -> frozenset:
        """Every key an object of this kind may have (others are the game's own data)."""
        return frozenset(COMMON_KEYS + tuple(f.name for f in self.fields) + (("solid",) if self.solid else ()))


def _fraction(value: float) -> Optional[str]:
    return None if 0.0 <= value <= 1.0 else f"must be between 0 and 1 (it is {fmt(value)})"


#: ``cells`` left out: said only of a grid that paints no tileset (a painted grid's cells are its tiles).
NO_CELLS = ("no cells",)


def _grid_fits(r, oid: str, values: dict) -> None:
    """A grid's cells or tiles, as its tileset says; no larger than the largest size allowed (its longer side,
    in cells, times the cell)."""
    if values["tileset"]:
        if values["cells"] is not NO_CELLS:
            r.bad(oid, f"cells: a grid that paints tileset {values['tileset']!r} has no 'cells' (its 'tiles' say "
                       f"where its tiles are)")
        values["cells"] = ()
        rows = values["tiles"]
        if not rows:
            r.bad(oid, f"missing 'tiles' (the rows of tiles of tileset {values['tileset']!r} it paints)")
    else:
        if values["tiles"]:
            r.bad(oid, "tiles: a grid without a 'tileset' paints no tiles (name the tileset, or give 'cells')")
            values["tiles"] = ()
        if values["cells"] is NO_CELLS:
            r.bad(oid, 'missing \'cells\' (rows of "#" (solid) and "." (empty))')
            values["cells"] = ()
        rows = values["cells"]
    cell = values["cell"]
    if rows and max(len(rows), len(rows[0])) * cell > MAX_SIZE:
        r.bad(oid, f"the grid is {len(rows[0])} x {len(rows)} cells of {fmt(cell)}, larger than the largest size "
                   f"allowed, {fmt(MAX_SIZE)}")
        values["cells"] = ()


def _sprite_picture(r, oid: str, values: dict) -> None:
    """A sprite shows one picture: a tileset's tile, or a picture file."""
    if values["tileset"] and values["picture"]:
        r.bad(oid, "a sprite shows a tileset's tile or a picture, not both ('tileset' and 'picture' are given)")
    elif not values["tileset"] and not values["picture"]:
        r.bad(oid, "missing 'picture' or 'tileset' and 'tile' (what the sprite shows)")


#: Version 3's fields of the kinds that may have them, written only when set (objects without them save as
#: version 2 wrote them).
_ONE_WAY = Field("one_way", FLAG, default=False, omit_default=True)
_PATH = Field("path", MOTION, default=None, omit_default=True)

#: Keys that mean something only on some kinds: on another kind they are a mistake, not the game's own data
#: (``{"kind": "circle", "one_way": true}``). The refusal names the kinds that may have the key.
ONLY_ON = {
    "one_way": ("a one-way floor", "boxes, oriented boxes, walls and tile grids"),
    "path": ("a moving object", "boxes, oriented boxes, walls, circles and tile grids"),
}

_ORIGIN = Vec2(0.0, 0.0)
_UNIT = Vec2(1.0, 1.0)

#: Every kind of object, by its ``kind`` in the file.
KINDS: dict[str, Kind] = {k.kind: k for k in (
    Kind("wall", Wall, (
        Field("points", Nodes(), "its nodes [[x, y], ...]", (_ORIGIN, _ORIGIN)),
        Field("thickness", LENGTH, "a number > 0", 8.0),
        Field("closed", FLAG, default=False),
        _ONE_WAY, _PATH,
    )),
    Kind("box", Box, (
        Field("origin", POSITION, "its minimum corner [x, y]", _ORIGIN),
        Field("size", EXTENT, "[width, height]", _UNIT),
        _ONE_WAY, _PATH,
    )),
    Kind("oriented_box", OrientedBox, (
        Field("center", POSITION, "[x, y]", _ORIGIN),
        Field("half_extents", EXTENT, "[half width, half height]", _UNIT),
        Field("rotation", ANGLE, default=0.0),
        _ONE_WAY, _PATH,
    )),
    Kind("circle", Pillar, (
        Field("center", POSITION, "[x, y]", _ORIGIN),
        Field("radius", LENGTH, "a number > 0", 1.0),
        _PATH,
    )),
    Kind("tiles", Tiles, (
        Field("origin", POSITION, "its top-left corner [x, y]", _ORIGIN),
        Field("cell", LENGTH, "the side of a cell, > 0", 16.0),
        Field("cells", Cells(), default=NO_CELLS, omit=lambda o: bool(o.tileset)),
        _ONE_WAY, _PATH,
        Field("tileset", TEXT, default="", omit_default=True),
        Field("tiles", TileRows(), default=(), omit=lambda o: not o.tileset),
    ), check=_grid_fits),
    Kind("point", Point, (
        Field("position", POSITION, "[x, y]", _ORIGIN),
    ), solid=False),
    Kind("image", Image, (
        Field("path", TEXT, "the picture's path", ""),
        Field("origin", POSITION, "its top-left corner [x, y]", _ORIGIN),
        Field("scale", Length(limit=MAX_IMAGE_SCALE), default=1.0),
        Field("opacity", Number(), default=1.0, check=_fraction),
    ), solid=False),
    Kind("sprite", Sprite, (
        Field("center", POSITION, "[x, y]", _ORIGIN),
        Field("size", EXTENT, "[width, height]", _UNIT),
        Field("rotation", ANGLE, default=0.0, omit_default=True),
        Field("flip_x", FLAG, default=False, omit_default=True),
        Field("flip_y", FLAG, default=False, omit_default=True),
        Field("opacity", Number(), default=1.0, check=_fraction, omit_default=True),
        Field("tileset", PlainText(), default="", omit_default=True),
        Field("tile", TileNumber(), default=0, omit_default=True),
        Field("picture", PlainText(), default="", omit_default=True),
    ), check=_sprite_picture, solid_default=False, struct_ok="bool(o.tileset) != bool(o.picture)"),
)}

# ---------------------------------------------------------------------------
# The player's settings


@dataclass(frozen=True)
class Setting:
    """One number of the player's platformer settings (format version 3): its range and its default.

    ``low``/``high`` bound it, each included unless ``low_open``/``high_open``; ``optional`` settings may be
    left out (None: not used). :meth:`problem` words what is wrong with a value, after the key.
    """

    name: str
    default: Optional[float]
    low: float
    high: float
    low_open: bool = False
    high_open: bool = False
    optional: bool = False
    unit: str = ""
    #: The smallest value taken above ``low`` (a time so short that gravity would overflow is refused).
    smallest: Optional[float] = None

    def problem(self, value: float) -> Optional[str]:
        """None when ``value`` is in range, else what is wrong (``must be more than 0 (it is -1)``)."""
        below = value <= self.low if self.low_open else value < self.low
        above = value >= self.high if self.high_open else value > self.high
        it = f"(it is {fmt(value)})"
        if not (below or above):
            if self.smallest is not None and value < self.smallest:
                return f"must be at least {fmt(self.smallest)} {it}"
            return None
        if self.low_open and self.high_open:
            return f"must be more than {fmt(self.low)} and less than {fmt(self.high)} {it}"
        if not self.low_open and not self.high_open and self.high <= 1.0:
            return f"must be between {fmt(self.low)} and {fmt(self.high)} {it}"
        if below:
            return f"must be more than {fmt(self.low)} {it}" if self.low_open else \
                f"must be {fmt(self.low)} or more {it}"
        return f"must be at most {fmt(self.high)} {it}"


#: The platformer's settings in file order (``controller`` comes first, then these), with their ranges.
PLAYER_SETTINGS: tuple[Setting, ...] = (
    Setting("jump_height", 80.0, 0.0, MAX_SIZE, low_open=True, unit="px", smallest=MIN_SIZE),
    Setting("jump_time", 0.4, 0.0, 60.0, low_open=True, unit="s", smallest=0.001),
    Setting("fall_gravity_scale", 1.0, 0.0, 100.0, low_open=True),
    Setting("max_fall_speed", 1200.0, 0.0, MAX_SPEED, low_open=True, unit="px/s"),
    Setting("acceleration", None, 0.0, MAX_SPEED * 1000, low_open=True, optional=True, unit="px/s²"),
    Setting("deceleration", None, 0.0, MAX_SPEED * 1000, low_open=True, optional=True, unit="px/s²"),
    Setting("air_control", 1.0, 0.0, 1.0),
    Setting("coyote_time", 0.1, 0.0, 60.0, unit="s"),
    Setting("jump_buffer", 0.1, 0.0, 60.0, unit="s"),
    Setting("jump_cut", 0.5, 0.0, 1.0),
    Setting("floor_max_angle", 45.0, 0.0, 90.0, low_open=True, high_open=True, unit="°"),
    Setting("snap_length", 4.0, 0.0, MAX_SIZE, unit="px"),
)


#: The kinds by model class.
KIND_OF: dict[type, Kind] = {k.model: k for k in KINDS.values()}

#: The model's attributes every object has besides its kind's fields (``solid`` on the kinds that collide).
MODEL_COMMON = ("id", "extra", "layer", "type", "properties", "solid")
#: What the model keeps of an object that no file holds (a picture's folder: see ``Image.folder``).
MODEL_ONLY = ("folder", "art")


def check_against_the_model(kinds: dict[str, Kind]) -> None:
    """Raise TypeError unless each kind's fields are its model's own attributes, no more, no fewer.

    A field the model gains but the file does not describe would be lost on save: this says so at import.
    The fields may come in any order (the file's order is the description's, not the model's).
    """
    for k in kinds.values():
        own = {f.name for f in model_fields(k.model)} - set(MODEL_COMMON) - set(MODEL_ONLY)
        if own != {f.name for f in k.fields}:
            raise TypeError(f"the file's {k.kind!r} fields {sorted(f.name for f in k.fields)} are not "
                            f"{k.model.__name__}'s {sorted(own)}")
        if ("solid" in {f.name for f in model_fields(k.model)}) != k.solid:
            raise TypeError(f"{k.kind!r}: solid={k.solid} but {k.model.__name__} says otherwise")


check_against_the_model(KINDS)
