"""The level file's JSON text: how numbers and text are spelled, one value per line, the hulls' lines.

Numbers are the shortest decimals that read back as the same floats (Python's ``repr``), whole ones
without ``.0``; text outside ASCII is written as itself and lone surrogates (valid JSON escapes that
UTF-8 cannot hold as characters) as their escapes; each object, layer, type and object's hulls is one
line, so a one-object edit is a few-line diff.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from level_editor.core.level.number_text import EXACT_INTS, file_number

try:  # writes the hulls of a plain dict fast; the standard library's json does it without, only slower
    import msgspec as _msgspec
except ImportError:  # pragma: no cover - msgspec is a dependency; this keeps a broken install working
    _msgspec = None

__all__ = ["pt", "fmt", "NotPlain", "NumberTexts", "quote", "one_line", "dumps_json", "escape_surrogates",
           "hull_blocks", "nodes_text", "rows_text", "TRUE_FALSE"]

def pt(p) -> list:
    """A point as the JSON pair ``[x, y]``, numbers as :func:`~level_editor.core.level.number_text.file_number` writes them.

    >>> pt((64.0, 0.5))
    [64, 0.5]
    """
    x, y = p
    if x.__class__ is float and x.is_integer() and -EXACT_INTS < x < EXACT_INTS:
        x = int(x)
    else:
        x = file_number(x)
    if y.__class__ is float and y.is_integer() and -EXACT_INTS < y < EXACT_INTS:
        y = int(y)
    else:
        y = file_number(y)
    return [x, y]


def fmt(v: float) -> str:
    """A number as a problem's message says it.

    >>> fmt(1e7), fmt(0.5)
    ('1e+07', '0.5')
    """
    return f"{v:g}"


class NotPlain(Exception):
    """A value the line writer leaves to the general path (a number that is not a plain finite float)."""


class NumberTexts(dict):
    """Float -> its text as json.dumps writes :func:`~level_editor.core.level.number_text.file_number` of it, remembered (a level repeats its numbers).

    Anything but a finite float raises :class:`NotPlain`. ``-0.0`` and ``0.0`` share a key and a text,
    as they share their text (``0``) in the file.

    >>> n = NumberTexts()
    >>> n[64.0], n[0.1], n[-0.0]
    ('64', '0.1', '0')
    """

    def __missing__(self, v) -> str:
        if v.__class__ is not float:
            raise NotPlain
        if v.is_integer() and -EXACT_INTS < v < EXACT_INTS:
            text = int.__repr__(int(v))
        else:
            text = float.__repr__(v)
            if text[-1] in "fn":  # inf, nan: the general path says what is wrong
                raise NotPlain
        self[v] = text
        return text


#: Text as a JSON string, non-ASCII as itself (the encoder's own function).
quote = json.encoder.encode_basestring

#: ``true``/``false`` by value.
TRUE_FALSE = {True: "true", False: "false"}


def nodes_text(points, n: NumberTexts) -> str:
    """A wall's nodes as JSON, numbers from ``n``."""
    return "[" + ", ".join([f"[{n[x]}, {n[y]}]" for x, y in points]) + "]"


def rows_text(rows) -> str:
    """A tile grid's rows as JSON."""
    return "[" + ", ".join([quote(row) for row in rows]) + "]"


_SURROGATE = re.compile("[\ud800-\udfff]")

#: One JSON encoder for every line (json.dumps with options builds a new one per call, the larger cost
#: for a small object). The C encoder when there is one; the same text either way.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
try:
    from _json import make_encoder as _c_make_encoder
except ImportError:  # pragma: no cover - every CPython has it
    _c_make_encoder = None


def one_line(value: Any) -> str:
    """``value`` as one line of JSON, separators ``", "`` and ``": "``, non-ASCII text as itself.

    >>> one_line({"a": [1, 2.5], "b": "箱"})
    '{"a": [1, 2.5], "b": "箱"}'
    """
    if _c_make_encoder is None or not isinstance(value, (dict, list)):
        return _ENCODER.encode(value)
    return "".join(_LINE_ENCODER(value, 0))


if _c_make_encoder is not None:
    # markers=None: no check for cycles; values read from JSON have none, and deep ones are refused on load.
    _LINE_ENCODER = _c_make_encoder(None, _ENCODER.default, json.encoder.encode_basestring, None, ": ", ", ",
                                    False, False, False)


def escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as its JSON escape."""
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
    return escape_surrogates(one_line(value))


def hull_blocks(hulls) -> Iterator[str | bytes]:
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
    yield ",\n".join(f"    {one_line(key)}: {one_line(value)}" for key, value in hulls.items())


def _key_lines(keys: list) -> list:
    """The start of each key's line in ``hulls``, as bytes: indent, the key as JSON, and the opening of its value."""
    text = escape_surrogates("\0".join([f'    {quote(k)}: {{"aabb":[' for k in keys]))
    return text.encode("utf-8").split(b"\0")  # JSON text holds no raw NUL: a key's is escaped
