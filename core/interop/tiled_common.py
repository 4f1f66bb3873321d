"""What the Tiled export and import agree on: reserved property names, the player's object, bookkeeping.

A Tiled map has no place for a few things a level holds (the level's name,
its object types with their colours, which of an object's properties are its
own rather than its type's, unknown keys, file order across layers). The
export writes them as one string property named ``level-editor`` holding JSON
("bookkeeping") on the map, on layers and on objects that need it; the import
reads it back, so a map the export wrote comes back as the same level. A game
reading the map can ignore that property: everything it needs is in plain
Tiled terms (shapes, ``type``, typed properties, ``thickness``, ``solid``,
``scale``, tile layers with collision tiles).
"""
from __future__ import annotations

import json
import math
import re
from typing import Optional

from level_editor.core.level.number_text import is_number
from level_editor.core.level.pictures import relocate_path  # the one rule, shared with saving a level elsewhere

__all__ = [
    "BOOKKEEPING",
    "LEVEL_MARK",
    "PLAYER_NAME",
    "PLAYER_TYPE",
    "PLAYER_PROPERTIES",
    "TILE_SOLID",
    "TILE_AREA",
    "FLIP_BITS",
    "GID_MASK",
    "reserved_names",
    "bookkeeping_text",
    "xml_safe",
    "relocate_path",
    "brief",
    "number",
    "whole",
    "finite",
    "text_of",
    "same_value",
    "rotated",
    "TiledImportError",
    "TiledExportError",
]

#: The name of the string property that holds the export's bookkeeping (JSON).
BOOKKEEPING = "level-editor"

#: ``format`` in the map's bookkeeping: the map was written by this program's export.
LEVEL_MARK = "level-editor.level"

#: The player's spawn is a point object of this name and type (on a layer of its own, on top).
PLAYER_NAME = "player"
PLAYER_TYPE = "player_spawn"

#: The player object's properties: its shape ("circle" or "box"), size and speed.
PLAYER_PROPERTIES = ("shape", "radius", "box_width", "box_height", "speed")

#: The two tiles of a generated tileset (local ids): a solid cell, and a cell of a grid the player passes through.
TILE_SOLID, TILE_AREA = 0, 1

#: The flags Tiled keeps in the top bits of a global tile id (flipped horizontally, vertically, diagonally,
#: turned 120° on hexagonal maps), and the mask that leaves the id itself.
FLIP_BITS = 0xF0000000
GID_MASK = 0x0FFFFFFF

_KIND_RESERVED = {
    "wall": ("thickness", "solid", "one_way"),
    "box": ("solid", "one_way"),
    "oriented_box": ("solid", "one_way"),
    "circle": ("solid",),
    "tiles": ("solid", "one_way"),
    "image": ("scale",),
    "sprite": ("solid", "opacity"),
    "point": (),
}


def reserved_names(kind: str) -> tuple[str, ...]:
    """The property names the export writes itself on an object of ``kind`` (a level's own may not use them).

    >>> reserved_names("wall")
    ('thickness', 'solid', 'one_way', 'level-editor')
    """
    return _KIND_RESERVED.get(kind, ()) + (BOOKKEEPING,)


# XML 1.0 cannot hold these characters at all, not even escaped; JSON can, as \\u escapes.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def bookkeeping_text(data: dict) -> str:
    r"""The bookkeeping as compact JSON that both a TMJ and a TMX file can hold.

    Characters XML cannot carry stay JSON escapes, so the text is the same in both formats.

    >>> bookkeeping_text({"name": "Hall\x01", "order": 3})
    '{"name":"Hall\\u0001","order":3}'
    """
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def xml_safe(text: str) -> bool:
    """Whether ``text`` can be written into an XML file (TMX) as it is."""
    return _NOT_XML.search(text) is None


def number(value) -> float:
    """A number from TMJ (a number) or TMX (text); anything else is NaN."""
    if is_number(value):
        try:
            return float(value)
        except OverflowError:
            return math.inf
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return math.nan
    return math.nan


def whole(value, default: Optional[int] = None) -> Optional[int]:
    """A whole number from TMJ or TMX (``"3"``, ``3``, ``3.0``); ``default`` for anything else.

    >>> whole("9007199254740993"), whole(2.0), whole("2.5"), whole(True)
    (9007199254740993, 2, None, None)
    """
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and len(value) <= 4000:
        try:
            return int(value.strip())  # exactly, not through a float
        except ValueError:
            pass
    v = number(value)
    if math.isfinite(v) and v == int(v):
        return int(v)
    return default


def finite(*values: float) -> bool:
    """Whether every value is a finite number."""
    return all(math.isfinite(v) for v in values)


def brief(value, most: int = 40) -> str:
    r"""``repr(value)`` for a message: on one line, at most ``most`` characters (a hostile value may be a
    million characters long, or hold line breaks).

    >>> print(brief(10 ** 50), brief("a\nb"))
    1000000000000000000000000000000000000... 'a\nb'
    """
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def text_of(value) -> str:
    """``value`` when it is text, else ``""``."""
    return value if isinstance(value, str) else ""


def same_value(a, b) -> bool:
    """Equal and of the same type: ``True`` is not ``1``, ``1`` is not ``1.0``, ``-0.0`` is not ``0.0``.

    A property the level gives the same value as its type's default is written once, as the default; a
    value that only compares equal (``1`` for ``1.0``) is the object's own and must come back as itself.

    >>> same_value(1, 1), same_value(1, 1.0), same_value(True, 1), same_value(-0.0, 0.0)
    (True, False, False, False)
    """
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def rotated(x: float, y: float, degrees: float) -> tuple[float, float]:
    """``(x, y)`` turned about the origin by ``degrees``, clockwise on screen (y points down), as Tiled turns.

    Plain cosine and sine (not :meth:`Vec2.rotated`, which is exact at quarter turns): the maps written so
    far keep their numbers to the last digit.

    >>> rotated(2.0, 0.0, 30.0)
    (1.7320508075688774, 0.9999999999999999)
    """
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    return x * c - y * s, x * s + y * c


class TiledImportError(ValueError):
    """A file that is not a Tiled map this program can read (not XML or JSON, another orientation, a tile
    layer whose data does not decode...): the import writes nothing. The message is one line."""


class ImportCancelled(Exception):
    """The import was stopped before it ended (the ``stop`` it was given said so): nothing came of it."""


class TiledExportError(ValueError):
    """A level that cannot be written as a Tiled map; ``problems`` are lines ``OBJECT-ID: message``."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))
