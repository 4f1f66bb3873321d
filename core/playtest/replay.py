"""Replay and trace files (contract section 3): read, check, write.

A *replay* is what a play-test records and ``level-editor simulate`` plays
back: a fixed tick ``dt`` and the player's wished velocity for every tick. A
*trace* is what the simulation produces: the start and the player's centre
after each tick. Floats are written with Python's shortest round-trip repr,
so a trace read back is bit for bit the trace written.

Everything wrong with a file raises :class:`ReplayFileError` with a one-line
message naming the file and the problem.

>>> r = loads_replay('{"format": "level-editor.replay", "version": 1, "dt": 0.5, "velocities": [[2, 0]]}')
>>> r.dt, r.velocities
(0.5, (Vec2(x=2.0, y=0.0),))
>>> dumps_trace(Trace(Vec2(0, 0), (Vec2(1.0, 0.5),)))
'{"format": "level-editor.trace", "version": 1, "start": [0.0, 0.0], "positions": [[1.0, 0.5]]}'
>>> json.loads(dumps_trace(Trace(Vec2(0, 0), (Vec2(1.0, 0.5),), [(0, "enter", "exit")])))["events"]
[[0, 'enter', 'exit']]
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any, Optional

from level_editor.core.collision.shapes import Vec2, as_vec2
from level_editor.core.level.atomic import LevelSaveError, write_text_atomic
from level_editor.core.level.limits import MAX_REPLAY_TICKS
from level_editor.core.level.reading import LevelFileError, read_file_bytes

__all__ = [
    "REPLAY_FORMAT",
    "TRACE_FORMAT",
    "VERSION",
    "ENTER",
    "LEAVE",
    "ReplayFileError",
    "Replay",
    "Trace",
    "parse_replay",
    "loads_replay",
    "load_replay",
    "dumps_replay",
    "save_replay",
    "parse_trace",
    "loads_trace",
    "load_trace",
    "dumps_trace",
    "save_trace",
]

REPLAY_FORMAT = "level-editor.replay"
TRACE_FORMAT = "level-editor.trace"
VERSION = 1

#: The two kinds of trace event: the player's shape starts or stops overlapping an area.
ENTER, LEAVE = "enter", "leave"


class ReplayFileError(ValueError):
    """A replay or trace file that cannot be read or is not valid; ``str()`` is one line."""

    def __init__(self, source: str, problem: str):
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem}")


@dataclass(frozen=True)
class Replay:
    """A fixed tick ``dt`` (s) and one wished velocity (px/s) per tick.

    ``start`` (optional, an extension of the contract's format) is where the
    player started when it was not the spawn: the editor's Shift+F5 plays
    from the mouse cursor. Without it a replay starts at the level's spawn.
    """

    dt: float
    velocities: tuple[Vec2, ...]
    start: Optional[Vec2] = None

    def __post_init__(self):
        if not (isinstance(self.dt, (int, float)) and math.isfinite(self.dt) and self.dt > 0):
            raise ValueError(f"dt must be a finite number > 0, not {self.dt!r}")
        object.__setattr__(self, "dt", float(self.dt))
        object.__setattr__(self, "velocities", tuple(Vec2(float(v[0]), float(v[1])) for v in self.velocities))
        if self.start is not None:
            start = Vec2(float(self.start[0]), float(self.start[1]))
            if not start.is_finite():
                raise ValueError(f"start must be a finite point, not {start!r}")
            object.__setattr__(self, "start", start)


@dataclass(frozen=True)
class Trace:
    """The start (the spawn), the player's centre after each tick, and the area events.

    ``events`` are ``(tick, "enter" | "leave", object id)`` tuples in order
    (:mod:`level_editor.core.playtest.simulation` gives the rule); empty when the player
    entered no area.
    """

    start: Vec2
    positions: tuple[Vec2, ...]
    events: tuple[tuple[int, str, str], ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "start", Vec2(float(self.start[0]), float(self.start[1])))
        object.__setattr__(self, "positions", tuple(map(as_vec2, self.positions)))
        object.__setattr__(self, "events", tuple((int(t), str(kind), str(i)) for t, kind, i in self.events))


# ---------------------------------------------------------------------------
# Reading


class _NonFinite(Exception):
    pass


def _refuse_constant(name: str):
    raise _NonFinite(name)


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as e:
        raise ReplayFileError(source, f"is not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except _NonFinite as e:
        raise ReplayFileError(source, f"contains {e.args[0]}, which is not a finite number") from None
    except RecursionError:
        raise ReplayFileError(source, "is not valid JSON: nested too deeply") from None
    except ValueError as e:
        # An integer of more digits than Python converts (4300 by default).
        raise ReplayFileError(source, f"is not valid JSON: {e}".split(";")[0]) from None


def _read_text(path, source: str, what: str = "replay") -> str:
    """The text of a replay or trace file: a regular file only, never more than MAX_FILE_BYTES, never blocking."""
    try:
        raw = read_file_bytes(path, what)
    except LevelFileError as e:
        raise ReplayFileError(source, e.reason) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ReplayFileError(source, f"is not UTF-8 text (bad byte at offset {e.start})") from None


def _describe(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _finite(value: Any) -> Optional[float]:
    """``value`` as a finite float, or None (also for an int too large for a float)."""
    try:
        x = float(value)
    except OverflowError:
        return None
    return x if math.isfinite(x) else None


def _check_header(data: Any, fmt: str, source: str) -> None:
    if not isinstance(data, dict):
        raise ReplayFileError(source, f"must hold a JSON object, not {type(data).__name__}")
    version = data.get("version")
    # 1.0 is 1 (JSON has one number type), but true is not.
    if data.get("format") != fmt or not _number(version) or version != VERSION:
        raise ReplayFileError(
            source, f"format {_describe(data.get('format'))} version {_describe(data.get('version'))} "
                    f"is not supported (expected format \"{fmt}\" version {VERSION})")


def _pairs(data: dict, key: str, source: str) -> tuple[Vec2, ...]:
    if key not in data:
        raise ReplayFileError(source, f"missing \"{key}\"")
    items = data[key]
    if not isinstance(items, list):
        raise ReplayFileError(source, f"\"{key}\" must be a list of [x, y] pairs, not {_describe(items)}")
    out = []
    for i, item in enumerate(items):
        out.append(_pair(item, f"{key}[{i}]", source))
    return tuple(out)


def _pair(item: Any, where: str, source: str) -> Vec2:
    if not (isinstance(item, list) and len(item) == 2 and _number(item[0]) and _number(item[1])):
        raise ReplayFileError(source, f"{where} must be a pair of numbers [x, y], not {_describe(item)}")
    x, y = _finite(item[0]), _finite(item[1])
    if x is None or y is None:
        raise ReplayFileError(source, f"{where} is not a pair of finite numbers: {_describe(item)}")
    return Vec2(x, y)


def parse_replay(data: Any, source: str = "<replay>") -> Replay:
    """A :class:`Replay` from parsed JSON, or :class:`ReplayFileError`."""
    _check_header(data, REPLAY_FORMAT, source)
    if "dt" not in data:
        raise ReplayFileError(source, "missing \"dt\" (the tick length in seconds)")
    dt = data["dt"]
    if not _number(dt) or _finite(dt) is None:
        raise ReplayFileError(source, f"\"dt\" must be a finite number, not {_describe(dt)}")
    if dt <= 0:
        raise ReplayFileError(source, f"\"dt\" must be > 0, not {_describe(dt)}")
    start = _pair(data["start"], "start", source) if data.get("start") is not None else None
    if isinstance(data.get("velocities"), list) and len(data["velocities"]) > MAX_REPLAY_TICKS:
        raise ReplayFileError(source, f"\"velocities\" has {len(data['velocities']):,} ticks, more than the "
                                      f"{MAX_REPLAY_TICKS:,} a replay may have")
    velocities = _pairs(data, "velocities", source)
    dt = float(dt)
    for i, v in enumerate(velocities):
        # Any speed is allowed, but one tick's motion must still be a number.
        if not (math.isfinite(v.x * dt) and math.isfinite(v.y * dt)):
            raise ReplayFileError(source, f"velocities[{i}] times dt is too large to be a motion: {_xy(v)}")
    return Replay(dt, velocities, start)


def loads_replay(text: str, source: str = "<replay>") -> Replay:
    """Parse and check a replay from JSON text."""
    # Every tick is an [x, y] pair: a text of more brackets than the most ticks is refused before it is parsed
    # (ten million pairs take a minute and gigabytes to parse, only to be refused for their number).
    brackets = text.count("[")
    if brackets > MAX_REPLAY_TICKS + _OTHER_BRACKETS:
        raise ReplayFileError(source, f"holds {brackets:,} lists, more than a replay of the most ticks has "
                                      f"({MAX_REPLAY_TICKS:,} [x, y] pairs)")
    return parse_replay(_parse_json(text, source), source)


#: Lists a replay holds besides its ticks' pairs: "velocities" itself, "start", and room for a game's own keys.
_OTHER_BRACKETS = 1000


def load_replay(path) -> Replay:
    """Read and check the replay file at ``path``."""
    source = os.fspath(path)
    return loads_replay(_read_text(path, source), source)


def _events(data: dict, ticks: int, source: str) -> tuple[tuple[int, str, str], ...]:
    """The optional ``events``: ``[tick, "enter" | "leave", id]`` with ticks in order and within the trace."""
    items = data.get("events")
    if items is None:
        return ()
    if not isinstance(items, list):
        raise ReplayFileError(source, f"\"events\" must be a list of [tick, \"enter\" or \"leave\", id], "
                                      f"not {_describe(items)}")
    out = []
    previous = 0
    for n, item in enumerate(items):
        where = f"events[{n}]"
        if not (isinstance(item, list) and len(item) == 3):
            raise ReplayFileError(source, f"{where} must be [tick, \"enter\" or \"leave\", id], "
                                          f"not {_describe(item)}")
        tick, kind, object_id = item
        # 3.0 is 3 (JSON has one number type), but true is not.
        if not (_number(tick) and _finite(tick) is not None and float(tick).is_integer()):
            raise ReplayFileError(source, f"{where}: the tick must be a whole number, not {_describe(tick)}")
        tick = int(tick)
        if not 0 <= tick < ticks:
            raise ReplayFileError(source, f"{where}: tick {tick} is not one of the trace's {ticks} ticks")
        if tick < previous:
            raise ReplayFileError(source, f"{where}: tick {tick} comes after tick {previous}; events are in order")
        if kind not in (ENTER, LEAVE):
            raise ReplayFileError(source, f"{where}: the event must be \"enter\" or \"leave\", "
                                          f"not {_describe(kind)}")
        if not isinstance(object_id, str):
            raise ReplayFileError(source, f"{where}: the object id must be a string, not {_describe(object_id)}")
        out.append((tick, kind, object_id))
        previous = tick
    return tuple(out)


def parse_trace(data: Any, source: str = "<trace>") -> Trace:
    """A :class:`Trace` from parsed JSON, or :class:`ReplayFileError`."""
    _check_header(data, TRACE_FORMAT, source)
    if "start" not in data:
        raise ReplayFileError(source, "missing \"start\"")
    positions = _pairs(data, "positions", source)
    return Trace(_pair(data["start"], "start", source), positions, _events(data, len(positions), source))


def loads_trace(text: str, source: str = "<trace>") -> Trace:
    """Parse and check a trace from JSON text."""
    return parse_trace(_parse_json(text, source), source)


def load_trace(path) -> Trace:
    """Read and check the trace file at ``path``."""
    source = os.fspath(path)
    return loads_trace(_read_text(path, source, "trace"), source)


# ---------------------------------------------------------------------------
# Writing


def _xy(v: Vec2) -> list:
    return [float(v.x), float(v.y)]


def dumps_replay(replay: Replay) -> str:
    """The replay as one line of JSON (``start`` only when the replay has one)."""
    data = {"format": REPLAY_FORMAT, "version": VERSION, "dt": replay.dt}
    if replay.start is not None:
        data["start"] = _xy(replay.start)
    data["velocities"] = [_xy(v) for v in replay.velocities]
    return json.dumps(data, allow_nan=False)


def dumps_trace(trace: Trace) -> str:
    """The trace as one line of JSON (shortest round-trip floats; ``events`` only when there are any)."""
    data = {"format": TRACE_FORMAT, "version": VERSION, "start": _xy(trace.start),
            "positions": [_xy(p) for p in trace.positions]}
    if trace.events:
        data["events"] = [[tick, kind, object_id] for tick, kind, object_id in trace.events]
    return json.dumps(data, allow_nan=False)


def _write_atomic(path, text: str) -> None:
    try:
        write_text_atomic(path, text + "\n")
    except LevelSaveError as e:
        source = os.fspath(path)
        reason = str(e).replace(f"could not save {source}: ", "")
        raise ReplayFileError(source, f"cannot be written: {reason}") from None


def save_replay(path, replay: Replay) -> None:
    """Write a replay atomically (temporary file, then swap)."""
    _write_atomic(path, dumps_replay(replay))


def save_trace(path, trace: Trace) -> None:
    """Write a trace atomically (temporary file, then swap)."""
    _write_atomic(path, dumps_trace(trace))
