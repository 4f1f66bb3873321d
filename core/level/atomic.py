"""Atomic file writes: a temporary file in the same folder, flushed to disk, then swapped in.

Every file the project writes (levels, recovery copies, replays, traces) goes
through :func:`write_text_atomic`, so a failed write never leaves half a file
where the old one was (Qt's ``QSaveFile`` does the same for Tiled).
"""
from __future__ import annotations

import os
import stat
import tempfile

__all__ = ["LevelSaveError", "write_text_atomic"]


class LevelSaveError(OSError):
    """A file could not be written; the file that was there before is untouched."""


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then swap it in.

    A symbolic link stays a link: the file it points to is the one replaced.
    A path that is not a regular file (``/dev/stdout``, a named pipe) cannot be
    swapped, so it is written straight into.

    Raises :class:`LevelSaveError` with the reason; the old file stays as it was.
    """
    shown = os.fspath(path)
    target = os.path.realpath(shown)
    folder = os.path.dirname(target)
    tmp = None
    try:
        data = text.encode("utf-8")
        try:
            mode = os.stat(target).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            if stat.S_ISDIR(mode):
                raise IsADirectoryError(21, "Is a directory")
            with open(target, "wb") as f:
                f.write(data)
            return
        fd, tmp = tempfile.mkstemp(prefix=".~" + os.path.basename(target) + ".", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, 0o644 if mode is None else stat.S_IMODE(mode))
        except OSError:
            pass  # some file systems (FAT, network shares) keep no modes
        os.replace(tmp, target)
        tmp = None
    except (OSError, UnicodeEncodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise LevelSaveError(f"could not save {shown}: {reason}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
