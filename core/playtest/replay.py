"""Replay and trace files (contract section 3): read, check, write.

A *replay* is what a play-test records and ``level-editor simulate`` plays
back: a fixed tick ``dt`` and, for every tick, what the player wished: a
velocity in version 1, what was pressed (``[move_x, move_y, jump]``) in
version 2. A *trace* is what the simulation produces: the start and the
player's centre after each tick. Floats are written with Python's shortest round-trip repr,
so a trace read back is bit for bit the trace written.

Everything wrong with a file raises :class:`ReplayFileError` with a one-line
message naming the file and the problem.

>>> r = loads_replay('{"format": "level-editor.replay", "version": 1, "dt": 0.5, "velocities": [[2, 0]]}')
>>> r.dt, r.velocities
(0.5, (Vec2(x=2.0, y=0.0),))
>>> r = loads_replay('{"format": "level-editor.replay", "version": 2, "dt": 0.5, "inputs": [[1, -0.5, 0]]}')
>>> r.version, r.inputs
(2, ((1.0, -0.5, 0),))
>>> dumps_trace(Trace(Vec2(0, 0), (Vec2(1.0, 0.5),)))
'{"format": "level-editor.trace", "version": 1, "start": [0.0, 0.0], "positions": [[1.0, 0.5]]}'
>>> json.loads(dumps_trace(Trace(Vec2(0, 0), (Vec2(1.0, 0.5),), [(0, "enter", "exit")])))["events"]
[[0, 'enter', 'exit']]
"""
from __future__ import annotations

import json
import math
import numbers
import os
from dataclasses import dataclass
from typing import Any, Optional

from level_editor.core.collision.shapes import Vec2, as_vec2
from level_editor.core.level.atomic import LevelSaveError, write_text_atomic
from level_editor.core.level.limits import MAX_REPLAY_TICKS
from level_editor.core.level.reading import LevelFileError, read_file_bytes
from level_editor.core.level.number_text import is_number

__all__ = [
    "REPLAY_FORMAT",
    "TRACE_FORMAT",
    "VERSION",
    "REPLAY_VERSIONS",
    "ENTER",
    "LEAVE",
    "ReplayFileError",
    "Replay",
    "Trace",
    "input_problem",
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
#: The version of the trace format (and of a replay of velocities).
VERSION = 1
#: The replay versions this program reads: 1 (a wished velocity per tick) and 2 (what was pressed per tick).
REPLAY_VERSIONS = (1, 2)

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
    """A fixed tick ``dt`` (s) and what the player wished in each tick.

    A version 1 replay has ``velocities``: one wished velocity (px/s) per
    tick. A version 2 replay has ``inputs`` instead: one ``(move_x, move_y,
    jump)`` per tick, as :func:`input_problem` allows; the simulation turns
    them into velocities with the level's player speed
    (:func:`level_editor.core.playtest.simulation.wished_velocity`).

    ``start`` (optional, an extension of the contract's format) is where the
    player started when it was not the spawn: the editor's Shift+F5 plays
    from the mouse cursor. Without it a replay starts at the level's spawn.

    >>> Replay(0.5, inputs=[(1, 0, 0), (0, -1, 1)]).inputs
    ((1.0, 0.0, 0), (0.0, -1.0, 1))
    """

    dt: float
    velocities: tuple[Vec2, ...] = ()
    start: Optional[Vec2] = None
    inputs: Optional[tuple[tuple[float, float, int], ...]] = None

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
        if self.inputs is not None:
            if self.velocities:
                raise ValueError("a replay has either velocities (version 1) or inputs (version 2), not both")
            inputs = []
            for tick, (move_x, move_y, jump) in enumerate(self.inputs):
                problem = input_problem(move_x, move_y, jump)
                if problem is not None:
                    raise ValueError(f"inputs[{tick}]: {problem}")
                inputs.append((float(move_x), float(move_y), int(jump)))
            object.__setattr__(self, "inputs", tuple(inputs))

    @property
    def version(self) -> int:
        """2 for a replay of inputs, 1 for a replay of velocities."""
        return 1 if self.inputs is None else 2

    @property
    def ticks(self) -> int:
        """How many ticks the replay holds."""
        return len(self.velocities) if self.inputs is None else len(self.inputs)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def input_problem(move_x, move_y, jump) -> Optional[str]:
    """What is wrong with one tick's input, naming the argument; None when nothing is.

    ``move_x`` and ``move_y`` are numbers in [-1, 1] (a stick, or the arrow keys
    as -1, 0, 1); ``jump`` is 1 (or True) while the jump button is held, 0 (or
    False) otherwise. The one rule for a version 2 replay's ticks and for
    :meth:`level_editor.core.runtime.Player.step`.

    >>> input_problem(0.5, -1, 0) is None
    True
    >>> input_problem(1.5, 0, 0)
    'move_x must be in [-1, 1], not 1.5'
    >>> input_problem(0, float("nan"), 0)
    'move_y must be a finite number in [-1, 1], not nan'
    >>> input_problem(0, 0, 2)
    'jump must be 0 or 1, not 2'
    """
    for name, value in (("move_x", move_x), ("move_y", move_y)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return f"{name} must be a number in [-1, 1], not {_shown(value)}"
        if not -1 <= value <= 1:
            if isinstance(value, numbers.Integral) or math.isfinite(value):
                return f"{name} must be in [-1, 1], not {_shown(value)}"
            return f"{name} must be a finite number in [-1, 1], not {_shown(value)}"
    if not (isinstance(jump, numbers.Real) and (jump == 0 or jump == 1)):
        return f"jump must be 0 or 1, not {_shown(jump)}"
    return None


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
    #: For a platformer level, whether the player stands on a floor after each tick (None: top-down).
    on_floor: Optional[tuple[bool, ...]] = None

    def __post_init__(self):
        object.__setattr__(self, "start", Vec2(float(self.start[0]), float(self.start[1])))
        object.__setattr__(self, "positions", tuple(map(as_vec2, self.positions)))
        object.__setattr__(self, "events", tuple((int(t), str(kind), str(i)) for t, kind, i in self.events))
        if self.on_floor is not None:
            object.__setattr__(self, "on_floor", tuple(bool(f) for f in self.on_floor))
            if len(self.on_floor) != len(self.positions):
                raise ValueError(f"on_floor has {len(self.on_floor)} flags for {len(self.positions)} positions")


# ---------------------------------------------------------------------------
# Reading


class _NonFinite(Exception):
    pass


def _refuse_constant(name: str):
    raise _NonFinite(name)


def _parse_json(text: str, source: str, constants: Optional[list] = None) -> Any:
    """Parsed JSON, or :class:`ReplayFileError`.

    NaN and Infinity are refused, unless ``constants`` is a list: then they
    parse as floats and their names are added to it, for a caller that says
    where they are (a version 2 replay names the tick that holds one).
    """
    if constants is None:
        hook = _refuse_constant
    else:
        def hook(name: str) -> float:
            constants.append(name)
            return float(name)
    try:
        return json.loads(text, parse_constant=hook)
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


def _finite(value: Any) -> Optional[float]:
    """``value`` as a finite float, or None (also for an int too large for a float)."""
    try:
        x = float(value)
    except OverflowError:
        return None
    return x if math.isfinite(x) else None


def _check_header(data: Any, fmt: str, source: str, versions: tuple[int, ...] = (VERSION,)) -> int:
    """The file's version, one of ``versions``, or :class:`ReplayFileError`."""
    if not isinstance(data, dict):
        raise ReplayFileError(source, f"must hold a JSON object, not {type(data).__name__}")
    version = data.get("version")
    # 1.0 is 1 (JSON has one number type), but true is not.
    if data.get("format") != fmt or not is_number(version) or version not in versions:
        expected = " or ".join(str(v) for v in versions)
        raise ReplayFileError(
            source, f"format {_describe(data.get('format'))} version {_describe(data.get('version'))} "
                    f"is not supported (expected format \"{fmt}\" version {expected})")
    return int(version)


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
    if not (isinstance(item, list) and len(item) == 2 and is_number(item[0]) and is_number(item[1])):
        raise ReplayFileError(source, f"{where} must be a pair of numbers [x, y], not {_describe(item)}")
    x, y = _finite(item[0]), _finite(item[1])
    if x is None or y is None:
        raise ReplayFileError(source, f"{where} is not a pair of finite numbers: {_describe(item)}")
    return Vec2(x, y)


def _inputs(data: dict, source: str) -> list:
    """A version 2 replay's ``inputs``, checked to be a list of ``[move_x, move_y, jump]`` of three numbers."""
    if "inputs" not in data:
        raise ReplayFileError(source, "missing \"inputs\" (a version 2 replay's [move_x, move_y, jump] per tick)")
    items = data["inputs"]
    if not isinstance(items, list):
        raise ReplayFileError(source, f"\"inputs\" must be a list of [move_x, move_y, jump] ticks, "
                                      f"not {_describe(items)}")
    if len(items) > MAX_REPLAY_TICKS:
        raise ReplayFileError(source, f"\"inputs\" has {len(items):,} ticks, more than the "
                                      f"{MAX_REPLAY_TICKS:,} a replay may have")
    for tick, item in enumerate(items):
        # JSON's true is no number here; the ranges are checked by Replay itself
        if not (isinstance(item, list) and len(item) == 3 and all(is_number(v) for v in item)):
            raise ReplayFileError(source, f"inputs[{tick}] must be three numbers [move_x, move_y, jump], "
                                          f"not {_describe(item)}")
    return items


def parse_replay(data: Any, source: str = "<replay>") -> Replay:
    """A :class:`Replay` (version 1 or 2) from parsed JSON, or :class:`ReplayFileError`."""
    version = _check_header(data, REPLAY_FORMAT, source, REPLAY_VERSIONS)
    if "dt" not in data:
        raise ReplayFileError(source, "missing \"dt\" (the tick length in seconds)")
    dt = data["dt"]
    if not is_number(dt) or _finite(dt) is None:
        raise ReplayFileError(source, f"\"dt\" must be a finite number, not {_describe(dt)}")
    if dt <= 0:
        raise ReplayFileError(source, f"\"dt\" must be > 0, not {_describe(dt)}")
    start = _pair(data["start"], "start", source) if data.get("start") is not None else None
    if version == 2:
        inputs = _inputs(data, source)
        try:
            return Replay(float(dt), start=start, inputs=inputs)
        except ValueError as e:  # a tick out of range (dt and start are checked above): "inputs[3]: move_x ..."
            raise ReplayFileError(source, str(e)) from None
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
    # Every tick is a list ([x, y], or [move_x, move_y, jump] in version 2): a text of more brackets than the most
    # ticks is refused before it is parsed (ten million pairs take a minute and gigabytes to parse, only to be
    # refused for their number).
    brackets = text.count("[")
    if brackets > MAX_REPLAY_TICKS + _OTHER_BRACKETS:
        raise ReplayFileError(source, f"holds {brackets:,} lists, more than a replay of the most ticks has "
                                      f"({MAX_REPLAY_TICKS:,} [x, y] pairs)")
    constants: list = []
    data = _parse_json(text, source, constants)
    if constants and not _is_version_2(data):
        raise ReplayFileError(source, f"contains {constants[0]}, which is not a finite number")
    replay = parse_replay(data, source)
    if constants:  # somewhere no check looks: a game's own key
        raise ReplayFileError(source, f"contains {constants[0]}, which is not a finite number")
    return replay


def _is_version_2(data: Any) -> bool:
    """Whether ``data`` says it is a version 2 replay (its ticks' checks name a NaN's tick)."""
    return (isinstance(data, dict) and data.get("format") == REPLAY_FORMAT and is_number(data.get("version"))
            and data["version"] == 2)


#: Lists a replay holds besides its ticks: "velocities" (or "inputs") itself, "start", and room for a game's own keys.
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
        if not (is_number(tick) and _finite(tick) is not None and float(tick).is_integer()):
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
    on_floor = data.get("on_floor")
    if on_floor is not None and not (isinstance(on_floor, list) and all(isinstance(f, bool) for f in on_floor)
                                     and len(on_floor) == len(positions)):
        raise ReplayFileError(source, f"\"on_floor\" must be a list of {len(positions)} true/false, one per "
                                      f"position, not {_describe(on_floor)}")
    return Trace(_pair(data["start"], "start", source), positions, _events(data, len(positions), source),
                 None if on_floor is None else tuple(on_floor))


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
    """The replay as one line of JSON, in its own version (``start`` only when the replay has one).

    >>> dumps_replay(Replay(0.5, inputs=[(1, 0, 0), (-0.5, 0, 1)]))
    '{"format": "level-editor.replay", "version": 2, "dt": 0.5, "inputs": [[1.0, 0.0, 0], [-0.5, 0.0, 1]]}'
    """
    data = {"format": REPLAY_FORMAT, "version": replay.version, "dt": replay.dt}
    if replay.start is not None:
        data["start"] = _xy(replay.start)
    if replay.inputs is None:
        data["velocities"] = [_xy(v) for v in replay.velocities]
    else:
        data["inputs"] = [[move_x, move_y, jump] for move_x, move_y, jump in replay.inputs]
    return json.dumps(data, allow_nan=False)


def dumps_trace(trace: Trace) -> str:
    """The trace as one line of JSON (shortest round-trip floats; ``events`` only when there are any)."""
    data = {"format": TRACE_FORMAT, "version": VERSION, "start": _xy(trace.start),
            "positions": [_xy(p) for p in trace.positions]}
    if trace.on_floor is not None:
        data["on_floor"] = list(trace.on_floor)
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
