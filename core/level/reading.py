"""The one way the tools read a file: regular files only, never more than a limit, never blocking.

Levels, replays, recovery copies and the Tiled maps, tilesets, templates and
pictures the importer reads all come in through :func:`read_file_bytes`, so a
named pipe with no writer, a device (``/dev/zero``), a folder or a file larger
than :data:`~level_editor.core.level.limits.MAX_FILE_BYTES` gets the same one-line answer
everywhere, at once, before anything is read.

>>> import tempfile
>>> read_file_bytes(tempfile.gettempdir(), "level file")
Traceback (most recent call last):
...
level_editor.core.level.reading.LevelFileError: ...: -: is a folder, not a level file
"""
from __future__ import annotations

import os
import stat

from level_editor.core.level.limits import MAX_FILE_BYTES
from level_editor.core.level.problems import LEVEL_ID, Problem

__all__ = ["LevelFileError", "read_file_bytes", "mib"]


class LevelFileError(Exception):
    """A level file that cannot be read, is not JSON, or does not describe a valid level.

    ``problems`` lists every problem found; ``unreadable`` is true when the
    file could not be read or parsed at all (the command line's exit code 2).
    """

    def __init__(self, source: str, problems: list[Problem], unreadable: bool = False):
        self.source = source
        self.problems = list(problems)
        self.unreadable = unreadable
        super().__init__(self._message())

    def _message(self) -> str:
        lines = [f"{self.source}: {p}" for p in self.problems]
        return "\n".join(lines) if lines else f"{self.source}: not a valid level"

    @property
    def reason(self) -> str:
        """The first problem's message alone (for callers that put their own name in front)."""
        return self.problems[0].message if self.problems else "not a valid level"


def mib(n: int) -> str:
    """A byte count for messages, in MiB when it is a whole number of them, else in bytes.

    >>> mib(256 * 2**20), mib(256 * 2**20 + 1), mib(12)
    ('256 MiB', '268435457 bytes', '12 bytes')
    """
    return f"{n // 2**20} MiB" if n >= 2**20 and n % 2**20 == 0 else f"{n} bytes"


def kind_of_file(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words, when it is not a regular file.

    >>> import stat
    >>> kind_of_file(stat.S_IFDIR), kind_of_file(stat.S_IFIFO)
    ('a folder', 'a named pipe')
    """
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _unreadable(source: str, message: str) -> LevelFileError:
    return LevelFileError(source, [Problem(LEVEL_ID, message)], unreadable=True)


def read_file_bytes(path: str | os.PathLike, what: str = "level file", limit: int = MAX_FILE_BYTES,
                    head: int | None = None) -> bytes:
    """The bytes of the regular file at ``path``, refused before reading when it is anything else or too large.

    ``what`` names the file in messages ("level file", "replay", "map"). The
    file is looked at with ``stat`` first, then opened without blocking
    (``O_NONBLOCK``: a named pipe with no writer cannot hang the caller) and
    looked at again through the open descriptor, so a file swapped for a
    pipe in between is refused too. At most ``limit`` bytes are ever read;
    with ``head``, only the first ``head`` bytes are (and a larger file is no error).

    Raises
    ------
    LevelFileError
        ``unreadable`` set, with one problem saying why, for a missing file, a
        folder, a pipe, a device, a file over ``limit``, or a read that fails.
    """
    source = os.fspath(path)
    try:
        info = os.stat(source)
    except FileNotFoundError:
        raise _unreadable(source, "no such file") from None
    except NotADirectoryError:
        raise _unreadable(source, "no such file (a part of its path is not a folder)") from None
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise _unreadable(source, f"cannot be read: {getattr(e, 'strerror', None) or e}") from None
    if head is not None:
        limit = max(limit, info.st_size)
    _check_regular(source, info, what, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(source, flags)
    except OSError as e:
        raise _unreadable(source, f"cannot be read: {e.strerror or e}") from None
    try:
        info = os.fstat(fd)
        _check_regular(source, info, what, limit)
        if head is not None:
            return os.read(fd, head)
        chunks = []
        total = 0
        # One read of the announced size, then small ones until the end (a file that grows meanwhile).
        want = min(info.st_size, limit) + 1
        while True:
            chunk = os.read(fd, max(want - total, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise _unreadable(source, f"is larger than the {mib(limit)} a {what} may be; refused")
    except OSError as e:
        raise _unreadable(source, f"cannot be read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _check_regular(source: str, info: os.stat_result, what: str, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise _unreadable(source, f"is {kind_of_file(info.st_mode)}, not a {what}")
    if info.st_size > limit:
        raise _unreadable(source, f"is {mib(info.st_size)}, more than the {mib(limit)} a {what} may be; refused")
