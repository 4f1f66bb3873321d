"""Recovery copies: what the editor keeps of unsaved work so a crash does not lose it (no Qt).

A recovery copy is one file in a recovery folder (the editor passes its
per-user data folder; the environment variable ``LEVEL_EDITOR_DATA_DIR``
overrides it, see :func:`recovery_folder`). Its first line is a small JSON
header -- the level's own file, when it was written, by which process -- and
the rest is the level, exactly as a level file holds it (without hulls,
which Save computes)::

    {"format": "level-editor.recovery", "original": "/levels/castle.json", "saved_at": 1763771000.0, ...}
    {
      "format": "level-editor.level",
      ...

Copies are written with :func:`level_editor.core.level.atomic.write_text_atomic`, so a
crash while writing leaves the previous copy whole; they are never written
over the level's own file (the names end in ``.recovery.json`` and live in
the recovery folder). The name ties a copy to its level: ``castle.<hash of
the full path>.<session>.recovery.json``, or ``untitled.<session>...`` for a
level never saved; the session part keeps two editors apart.

A copy belongs to a *dead session* when the process that wrote it is gone
(or its pid now belongs to another process), or, for a copy written on
another machine (a shared home folder), when nobody has touched it for
:data:`STALE_AFTER` seconds: a live editor touches its copy at every
autosave tick. Those are the copies the editor offers to restore.

>>> import tempfile
>>> from level_editor.core.level.model import Level
>>> folder = tempfile.mkdtemp()
>>> path = write_recovery(folder, Level(name="Castle"), "/levels/castle.json", "s1")
>>> os.path.basename(path).startswith("castle.") and path.endswith(".s1.recovery.json")
True
>>> copy = read_header(path)
>>> copy.original, copy.name, copy.pid == os.getpid()
('/levels/castle.json', 'Castle', True)
>>> dead_copies(folder)  # this process is alive, so its copy is not offered
[]
>>> load_recovery(copy).name
'Castle'
"""
from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import re
import socket
import time
from dataclasses import dataclass
from typing import Optional

from level_editor.core.level.model import Level
from level_editor.core.level.atomic import LevelSaveError, write_text_atomic
from level_editor.core.level.file_format import LevelFileError, dumps_json, dumps_level, loads_level
from level_editor.core.level.pictures import pictures_moved
from level_editor.core.level.reading import read_file_bytes

__all__ = [
    "DATA_DIR_ENV",
    "FORMAT",
    "STALE_AFTER",
    "RecoveryCopy",
    "recovery_folder",
    "recovery_file_name",
    "write_recovery",
    "read_header",
    "load_recovery",
    "list_copies",
    "dead_copies",
    "is_dead",
    "touch",
    "remove_copy",
    "remove_stray_temp_files",
    "pid_alive",
]

#: Overrides the editor's data folder (tests and the crash test use it); copies go in its ``recovery`` folder.
DATA_DIR_ENV = "LEVEL_EDITOR_DATA_DIR"
FORMAT = "level-editor.recovery"
SUFFIX = ".recovery.json"
#: A copy written on another machine counts as abandoned after a day without a touch.
STALE_AFTER = 24 * 3600.0

_SAFE = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True)
class RecoveryCopy:
    """What a copy's header says, plus where the copy is.

    ``original`` is the level's own file (``None`` for a level never saved);
    ``saved_at`` is seconds since the epoch; ``touched_at`` is the copy's
    modification time (the writer touches it at every tick while it lives).
    """

    path: str
    original: Optional[str]
    saved_at: float
    pid: int
    host: str
    session: str
    name: str
    objects: int
    pid_start: Optional[int] = None
    touched_at: float = 0.0

    @property
    def display_name(self) -> str:
        """The level's file name, or ``Untitled (name)`` for a level never saved."""
        if self.original:
            return os.path.basename(self.original)
        return f"Untitled ({self.name})" if self.name and self.name != "Untitled" else "Untitled"


def recovery_folder(default_data_folder: str) -> str:
    """The recovery folder: ``$LEVEL_EDITOR_DATA_DIR/recovery`` when set, else ``default_data_folder/recovery``.

    The editor passes Qt's per-user application data folder (core cannot ask Qt).
    """
    base = os.environ.get(DATA_DIR_ENV) or default_data_folder
    return os.path.join(base, "recovery")


def recovery_file_name(original: Optional[str], session: str) -> str:
    """The copy's file name for the level saved at ``original`` (``None``: never saved) in ``session``.

    >>> recovery_file_name(None, "ab12")
    'untitled.ab12.recovery.json'
    >>> recovery_file_name("/a/My Level.json", "ab12")[:9]
    'My_Level.'
    """
    tag = _SAFE.sub("_", session) or "session"
    if not original:
        return f"untitled.{tag}{SUFFIX}"
    full = os.path.abspath(original)
    stem = _SAFE.sub("_", os.path.splitext(os.path.basename(full))[0]).strip("_")[:40] or "level"
    digest = hashlib.sha1(full.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{stem}.{digest}.{tag}{SUFFIX}"


def write_recovery(folder: str, level: Level, original: Optional[str], session: str,
                   now: Optional[float] = None, pictures_folder: Optional[str] = None) -> str:
    """Write a recovery copy of ``level`` into ``folder`` (made if missing), atomically; returns its path.

    The copy lives in ``folder`` but is the level of ``original``: its pictures, whose paths are relative to
    ``pictures_folder`` (the open level's folder; that of ``original`` when not given), are named from the
    folder of ``original`` (absolute for a level never saved), so they are found when the copy is restored.

    Raises
    ------
    level_editor.core.level.atomic.LevelSaveError
        When the copy cannot be written (the previous copy, if any, stays whole).
    ValueError
        When the copy's path would be the level's own file.
    """
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:  # a file where the folder should be, a folder that may not be made
        why = "a file is there, not a folder" if e.errno == errno.EEXIST else (e.strerror or str(e))
        raise LevelSaveError(f"could not make the recovery folder {folder}: {why}", errno=e.errno) from None
    path = os.path.join(folder, recovery_file_name(original, session))
    if original and os.path.abspath(original) == os.path.abspath(path):
        raise ValueError(f"a recovery copy must never replace the level itself: {original}")
    header = {
        "format": FORMAT,
        "original": os.path.abspath(original) if original else None,
        "saved_at": time.time() if now is None else now,
        "pid": os.getpid(),
        "pid_start": _process_start(os.getpid()),
        "host": socket.gethostname(),
        "session": session,
        "name": level.name,
        "objects": len(level.objects),
    }
    home = os.path.dirname(os.path.abspath(original)) if original else None
    level = pictures_moved(level, pictures_folder or home, home)
    write_text_atomic(path, dumps_json(header) + "\n" + dumps_level(level, {}))
    return path


def read_header(path: str) -> Optional[RecoveryCopy]:
    """The header of the copy at ``path``, or ``None`` when it is not a readable recovery copy."""
    try:
        first = read_file_bytes(path, "recovery copy", head=1 << 16).split(b"\n", 1)[0]
        touched = os.stat(path).st_mtime
        head = json.loads(first.decode("utf-8"))
    except (LevelFileError, OSError, ValueError, RecursionError):
        return None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        return None
    try:
        original = head.get("original")
        pid_start = head.get("pid_start")
        saved_at = float(head["saved_at"])
        if not math.isfinite(saved_at):
            return None
        return RecoveryCopy(
            path=path,
            original=str(original) if original else None,
            saved_at=saved_at,
            pid=int(head["pid"]),
            host=str(head.get("host", "")),
            session=str(head.get("session", "")),
            name=str(head.get("name", "")),
            objects=int(head.get("objects", 0)),
            pid_start=int(pid_start) if pid_start is not None else None,
            touched_at=touched,
        )
    except (KeyError, TypeError, ValueError, OverflowError):
        return None


def load_recovery(copy: RecoveryCopy | str) -> Level:
    """The level kept in a copy.

    Raises
    ------
    level_editor.core.level.file_format.LevelFileError
        When the copy cannot be read or its level is not valid.
    """
    path = copy.path if isinstance(copy, RecoveryCopy) else copy
    try:
        raw = read_file_bytes(path, "recovery copy")
    except LevelFileError as e:
        from level_editor.core.level.problems import LEVEL_ID, Problem

        raise LevelFileError(path, [Problem(LEVEL_ID, f"recovery copy cannot be read: {e.reason}")],
                             unreadable=True) from None
    return loads_level(raw.split(b"\n", 1)[1] if b"\n" in raw else b"", path)


def list_copies(folder: str) -> list[RecoveryCopy]:
    """Every readable copy in ``folder``, oldest first (a missing folder has none)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    copies = []
    for name in names:
        if name.endswith(SUFFIX) and not name.startswith("."):
            copy = read_header(os.path.join(folder, name))
            if copy is not None:
                copies.append(copy)
    copies.sort(key=lambda c: (c.saved_at, c.path))
    return copies


def is_dead(copy: RecoveryCopy, now: Optional[float] = None) -> bool:
    """True when the session that wrote ``copy`` has ended (see the module notes)."""
    if copy.host == socket.gethostname():
        if not pid_alive(copy.pid) or _is_zombie(copy.pid):
            return True
        start = _process_start(copy.pid)
        return copy.pid_start is not None and start is not None and start != copy.pid_start
    now = time.time() if now is None else now
    return now - copy.touched_at > STALE_AFTER


def dead_copies(folder: str, now: Optional[float] = None) -> list[RecoveryCopy]:
    """The copies in ``folder`` left by sessions that have ended: the ones to offer for restoring."""
    return [c for c in list_copies(folder) if is_dead(c, now)]


def touch(path: str) -> bool:
    """Mark a copy as still looked after (its writer lives); False when it is gone."""
    try:
        os.utime(path)
        return True
    except OSError:
        return False


def remove_copy(copy: RecoveryCopy | str) -> bool:
    """Delete a copy; True when it was there and is now gone."""
    path = copy.path if isinstance(copy, RecoveryCopy) else copy
    try:
        os.unlink(path)
        return True
    except FileNotFoundError:
        return False


def remove_stray_temp_files(folder: str, older_than: float = 3600.0, now: Optional[float] = None) -> int:
    """Delete half-written temporary copies a killed writer left behind; returns how many went.

    Only temporary files of recovery copies (``.~*.recovery.json.*.tmp``) older
    than ``older_than`` seconds are touched: a younger one may be a write in progress.
    """
    now = time.time() if now is None else now
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        if name.startswith(".~") and SUFFIX + "." in name and name.endswith(".tmp"):
            path = os.path.join(folder, name)
            try:
                if now - os.stat(path).st_mtime > older_than:
                    os.unlink(path)
                    removed += 1
            except OSError:
                pass
    return removed


def pid_alive(pid: int) -> bool:
    """True when a process ``pid`` exists on this machine."""
    if pid <= 0:
        return False
    if os.name == "nt":  # os.kill(pid, 0) would terminate the process on Windows
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        ctypes.windll.kernel32.CloseHandle(handle)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, OverflowError):  # OverflowError: beyond any pid the system can give
        return False
    return True


def _process_start(pid: int) -> Optional[int]:
    """When process ``pid`` started (clock ticks since boot) on Linux, so a reused pid is told apart."""
    fields = _proc_stat(pid)
    try:
        return int(fields[19])  # field 22 of the whole line
    except (IndexError, ValueError):
        return None


def _is_zombie(pid: int) -> bool:
    """A killed process its parent has not reaped yet still answers to its pid, but it is dead."""
    fields = _proc_stat(pid)
    return bool(fields) and fields[0] in ("Z", "X")


def _proc_stat(pid: int) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command name (field 3 on), or ``[]`` off Linux."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
    except OSError:
        return []
    # The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
    return stat[stat.rfind(")") + 2:].split()
