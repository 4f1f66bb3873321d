"""The words of every refusal: each sort of value checked, and what is wrong with it said as ``OBJECT-ID: message``.

:class:`Reader` is the one place a level file's problems are worded. The checking reader
(:func:`~level_editor.core.level.format.read.read_object`) asks it for each field's value, as the
field's sort of value (:mod:`.fields`) says; it records a problem and returns a stand-in for each bad
value, so that reading goes on and every problem is reported at once.
"""
from __future__ import annotations

import json
import math
import re
import sys
from typing import Any, Optional

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.format.text import fmt
from level_editor.core.level.limits import (
    MAX_COORDINATE, MAX_NESTING, MAX_PATH_POINTS, MAX_SIZE, MAX_SPEED, MAX_WALL_NODES, MIN_SIZE,
)
from level_editor.core.level.model import EMPTY_CELL, SOLID_CELL, Ref
from level_editor.core.level.motion import MODES, PING_PONG, MovePath
from level_editor.core.level.problems import Problem

__all__ = ["Reader", "type_name", "describe", "unique_items"]

_BAD_CELL = re.compile(f"[^{re.escape(SOLID_CELL + EMPTY_CELL)}]")
_PATH_KEYS = {"points", "speed", "mode"}


def type_name(value: Any) -> str:
    """What sort of JSON value ``value`` is, as a refusal says it.

    >>> type_name(None), type_name(True), type_name(3.5), type_name([1])
    ('null', 'true/false', 'a number', 'a list')
    """
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


def describe(value: Any) -> str:
    """As :func:`type_name`, with a list's length (``a list of 3``)."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return type_name(value)


class Reader:
    """Reads typed values, recording a problem (and returning a stand-in) for each bad one: every refusal's words.

    Each method checks one sort of value (:class:`~.fields.Value` says which a field holds) and says what is
    wrong as ``OBJECT-ID: message``.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = problems

    def bad(self, oid: str, message: str) -> None:
        """Record a problem of the object ``oid``."""
        self.problems.append(Problem(oid, message))

    def number(self, oid: str, key: str, value: Any, default: float = 0.0, limit: float = MAX_COORDINATE) -> float:
        """A finite number no larger than ``limit`` either way (a coordinate unless said otherwise)."""
        if value.__class__ is float:  # the common case first: a level is mostly floats
            if -limit <= value <= limit:
                return value
        elif value.__class__ is int and -limit <= value <= limit:
            return float(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.bad(oid, f"{key} must be a number, not {type_name(value)}")
            return default
        if isinstance(value, int):
            try:
                value = float(value)
            except OverflowError:
                digits = len(str(abs(value))) if value.bit_length() < 20_000 else int(value.bit_length() * 0.30103) + 1
                self.bad(oid, f"{key} must be a finite number: one of about {digits} digits is too large")
                return default
        if not math.isfinite(value):
            self.bad(oid, f"{key} must be a finite number, not {value}")
            return default
        if not -limit <= value <= limit:
            self.bad(oid, f"{key} is {fmt(value)}, beyond the limit of {fmt(limit)} either way")
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
            self.bad(oid, f"{key} must be greater than 0 (it is {fmt(v)})")
            return default
        if v < smallest:
            self.bad(oid, f"{key} is {fmt(v)}, smaller than the smallest allowed, {fmt(smallest)}")
            return default
        if v > limit:
            self.bad(oid, f"{key} is {fmt(v)}, larger than the largest allowed, {fmt(limit)}")
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
        self.bad(oid, f"{key} must be a pair of numbers [x, y], not {describe(value)}")
        return Vec2(1.0, 1.0)

    def nodes(self, oid: str, key: str, value: Any) -> tuple[Vec2, ...]:
        """A wall's nodes: a list of 2 to :data:`~level_editor.core.level.limits.MAX_WALL_NODES` positions."""
        points: list[Vec2] = []
        if not isinstance(value, list):
            self.bad(oid, f"{key} must be a list of [x, y] pairs, not {type_name(value)}")
        else:
            if len(value) < 2:
                self.bad(oid, f"a wall needs at least 2 nodes, this one has {len(value)}")
            elif len(value) > MAX_WALL_NODES:
                self.bad(oid, f"a wall may have at most {MAX_WALL_NODES:,} nodes, this one has {len(value):,}")
                value = value[:2]
            mark = len(self.problems)
            points = [self.point(oid, key, p) for p in value]
            if len(self.problems) > mark:  # again, numbering the nodes at fault (the common path does not)
                del self.problems[mark:]
                points = [self.point(oid, f"{key}[{i}]", p) for i, p in enumerate(value)]
        if len(points) < 2:
            points = points + [Vec2(0, 0)] * (2 - len(points))
        return tuple(points)

    def cells(self, oid: str, key: str, value: Any) -> tuple[str, ...]:
        """A tile grid's rows: text of ``#`` and ``.``, all as long as the first (rows at fault are left out)."""
        rows: list[str] = []
        if not isinstance(value, list):
            self.bad(oid, f"{key} must be a list of rows (text), not {type_name(value)}")
            return ()
        for i, row in enumerate(value):
            if not isinstance(row, str):
                self.bad(oid, f"{key} row {i + 1} must be text of '#' and '.', not {describe(row)}")
                continue
            found = _BAD_CELL.search(row)
            if found is not None:
                bad = found.start()
                self.bad(oid, f"{key} row {i + 1} has {row[bad]!r} at column {bad + 1} "
                              f"(a cell is '#' solid or '.' empty)")
                continue
            if rows and len(row) != len(rows[0]):
                self.bad(oid, f"{key} row {i + 1} has {len(row)} cells, row 1 has {len(rows[0])} "
                              f"(all rows must be as long)")
                continue
            rows.append(row)
        return tuple(rows)

    def tile_rows(self, oid: str, key: str, value: Any) -> tuple[tuple[int, ...], ...]:
        """A painted grid's rows: lists of whole numbers (a tile with its flags, or -1), all as long as the first."""
        if not isinstance(value, list):
            self.bad(oid, f"{key} must be a list of rows (lists of tile numbers), not {type_name(value)}")
            return ()
        rows: list[tuple[int, ...]] = []
        for i, row in enumerate(value):
            if not isinstance(row, list):
                self.bad(oid, f"{key} row {i + 1} must be a list of tile numbers, not {describe(row)}")
                continue
            if not all(v.__class__ is int and -1 <= v <= 0xFFFFFFFF for v in row):
                col = next(j for j, v in enumerate(row) if not (v.__class__ is int and -1 <= v <= 0xFFFFFFFF))
                self.bad(oid, f"{key} row {i + 1} has {describe(row[col])} at column {col + 1} (a cell is a tile's "
                              f"number with its flip flags, or -1 for none)")
                continue
            if rows and len(row) != len(rows[0]):
                self.bad(oid, f"{key} row {i + 1} has {len(row)} cells, row 1 has {len(rows[0])} "
                              f"(all rows must be as long)")
                continue
            rows.append(tuple(row))
        return tuple(rows)

    def custom_data(self, oid: str, extra: dict) -> dict:
        """``extra`` as it is, after a problem for each key holding a NaN or an infinity (not JSON) or nested
        deeper than :data:`~level_editor.core.level.limits.MAX_NESTING` (Python's json could not write it back)."""
        for key, value in extra.items():
            if value.__class__ in (str, int, bool) or value is None:
                continue
            bad, depth = _scan_custom(value)
            if depth > MAX_NESTING:
                self.bad(oid, f"custom data {key!r} is nested deeper than {MAX_NESTING} levels "
                              f"(the most a level file may nest)")
            elif bad is not None:
                self.bad(oid, f"custom data {key!r} holds a number that is not finite ({_json_constant(bad)})")
        return extra

    def boolean(self, oid: str, key: str, value: Any, default: bool) -> bool:
        if not isinstance(value, bool):
            self.bad(oid, f"{key} must be true or false, not {type_name(value)}")
            return default
        return value

    def text(self, oid: str, key: str, value: Any, default: str = "", non_empty: bool = False) -> str:
        if not isinstance(value, str) or (non_empty and not value.strip()):
            self.bad(oid, f"{key} must be {'non-empty ' if non_empty else ''}text, not {describe(value)}")
            return default
        return value

    def properties(self, oid: str, key: str, value: Any) -> dict:
        """Custom properties: text, numbers (an integer stays one), true/false, or ``{"ref": ID}``."""
        if not isinstance(value, dict):
            self.bad(oid, f"{key} must be an object of name: value, not {describe(value)}")
            return {}
        out: dict = {}
        for name, v in value.items():
            if not name.strip():
                self.bad(oid, f"{key}: a property name must not be empty")
                continue
            if isinstance(v, bool) or isinstance(v, str):
                out[name] = v
            elif isinstance(v, int):
                if abs(v) > 2**63:
                    self.bad(oid, f"property {name!r} is an integer too large to store ({len(str(abs(v)))} digits)")
                    continue
                out[name] = v
            elif isinstance(v, float):
                if not math.isfinite(v):
                    self.bad(oid, f"property {name!r} must be a finite number, not {_json_constant(v)}")
                    continue
                out[name] = v
            elif isinstance(v, dict) and set(v) == {"ref"} and isinstance(v["ref"], str):
                out[name] = Ref(v["ref"])
            else:
                self.bad(oid, f"property {name!r} must be text, a number, true/false or an object reference "
                              f"{{\"ref\": ID}}, not {describe(v)}")
        return out

    def path(self, oid: str, key: str, value: Any) -> Optional[MovePath]:
        """A moving object's path: ``{"points": [[dx, dy], ...], "speed": px/s, "mode": "ping_pong" | "loop"}``."""
        if not isinstance(value, dict):
            self.bad(oid, f'{key} must be an object {{"points": [[dx, dy], ...], "speed": px/s}}, not '
                          f'{describe(value)}')
            return None
        before = len(self.problems)
        for extra in value.keys() - _PATH_KEYS:
            self.bad(oid, f"{key} has an unknown key {extra!r} (a path has points, speed and mode)")
        points: list[Vec2] = []
        if "points" not in value:
            self.bad(oid, f"{key}: missing 'points' (offsets [[dx, dy], ...] from where the object is)")
        elif not isinstance(value["points"], list):
            self.bad(oid, f"{key} points must be a list of [dx, dy] pairs, not {type_name(value['points'])}")
        elif len(value["points"]) < 2:
            self.bad(oid, f"{key} needs at least 2 points, this one has {len(value['points'])}")
        elif len(value["points"]) > MAX_PATH_POINTS:
            self.bad(oid, f"{key} may have at most {MAX_PATH_POINTS:,} points, this one has {len(value['points']):,}")
        else:
            points = [self.point(oid, f"{key} points[{i}]", p) for i, p in enumerate(value["points"])]
        speed = 1.0
        if "speed" not in value:
            self.bad(oid, f"{key}: missing 'speed' (px/s, more than 0)")
        else:
            v = value["speed"]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                self.bad(oid, f"{key} speed must be a number, not {type_name(v)}")
            elif not math.isfinite(v) or v <= 0:
                self.bad(oid, f"{key} speed must be more than 0 (it is {fmt(v) if math.isfinite(v) else v})")
            elif v > MAX_SPEED:
                self.bad(oid, f"{key} speed is {fmt(v)}, larger than the largest allowed, {fmt(MAX_SPEED)}")
            else:
                speed = float(v)
        mode = value.get("mode", PING_PONG)
        if mode not in MODES:
            self.bad(oid, f"{key} mode must be {' or '.join(json.dumps(m) for m in MODES)}, not {json.dumps(mode) if isinstance(mode, str) else describe(mode)}")
        if len(self.problems) > before:
            return None
        return MovePath(tuple(points), speed, mode)

    def require(self, oid: str, raw: dict, key: str, what: str) -> bool:
        """Whether ``raw`` has ``key``; a problem saying it is missing (and what it is) when not."""
        if key not in raw:
            self.bad(oid, f"missing '{key}' ({what})")
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


def unique_items(raw: Any, r: Reader, section: str, key: str, what: str):
    """The JSON objects of a list of layers, types or tilesets, each with its unique ``key``: ``(label, key, item)``.

    One problem per item that is not an object, lacks ``key`` or repeats another's; those are skipped.
    """
    seen: set[str] = set()
    for i, item in enumerate(raw):
        label = f"{section}[{i}]"
        if not isinstance(item, dict):
            r.bad(label, f"each {what} must be a JSON object, not {type_name(item)}")
            continue
        if not r.require(label, item, key, f"the {what}'s unique {'text id' if key == 'id' else 'name'}"):
            continue
        value = r.text(label, key, item[key], non_empty=True)
        if not value:
            continue
        label = f"{what} {value}"
        if value in seen:
            noun = "id" if key == "id" else "name"
            r.bad(label, f"duplicate {what} {noun}: another {what} is already called {value!r}")
            continue
        seen.add(value)
        yield label, value, item
