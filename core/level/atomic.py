"""Atomic file writes: the new text is written beside the target, flushed to disk, then swapped in.

Every file the project writes (levels, recovery copies, replays, traces) goes
through :func:`write_text_atomic`, so a failed write never leaves half a file
where the old one was (Qt's ``QSaveFile`` does the same for Tiled).

How nothing is left behind:

- On Linux the text goes to an *unnamed* file in the target's folder
  (``O_TMPFILE``): a write killed half-way leaves no name anywhere, the
  kernel frees the blocks. Once the text is on disk the file gets a name,
  ``.~LEVEL.json.<8 random characters>.tmp``, and that name replaces the target at once.
- Elsewhere (or on a file system without ``O_TMPFILE``) the temporary is
  named from the start.
- Either way the writer holds a lock (``flock``) on the temporary while it
  exists, so :func:`remove_stale_temporaries`, which the editor calls when it
  starts and opens a level, deletes only our own names that nobody is writing.

After the swap the folder itself is flushed (``fsync``), so the new name
survives a power cut. An existing file keeps its mode and, where the writer
may set it, its owner. A read-only target (no write bit, or owned by another
user) is never replaced silently: :class:`ReadOnlyTargetError` lets the editor ask.
"""
from __future__ import annotations

import errno as errnos
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None

__all__ = ["LevelSaveError", "ReadOnlyTargetError", "write_text_atomic", "write_bytes_atomic", "write_blocks_atomic",
           "remove_stale_temporaries", "temporary_name_pattern", "use_named_temporaries", "same_file"]

#: Why a save failed, in words the editor can turn into advice.
PERMISSION, NO_SPACE, READ_ONLY, OTHER = "permission", "no-space", "read-only", "other"

_REASONS = {
    errnos.EACCES: PERMISSION,
    errnos.EPERM: PERMISSION,
    errnos.ENOSPC: NO_SPACE,
    errnos.EDQUOT: NO_SPACE,
    errnos.EFBIG: NO_SPACE,
    errnos.EROFS: READ_ONLY,
}


class LevelSaveError(OSError):
    """A file could not be written; the file that was there before is untouched.

    ``reason`` is one of ``"permission"``, ``"no-space"``, ``"read-only"``
    (the file or its file system) or ``"other"``; ``errno`` the system's error
    number when there is one.
    """

    def __init__(self, message: str, reason: str = OTHER, errno: int | None = None):
        super().__init__(message)
        self.reason = reason
        self.errno = errno


class ReadOnlyTargetError(LevelSaveError):
    """The target exists and is read-only (or another user's): it was left alone.

    Pass ``replace_read_only=True`` to :func:`write_text_atomic` to replace it anyway (after asking).
    """

    def __init__(self, message: str):
        super().__init__(message, READ_ONLY, errnos.EACCES)


_RANDOM = "[a-z0-9_]{8}"


def temporary_name_pattern(name: str = "") -> re.Pattern:
    """The names of our temporaries: ``.~NAME.<8 random characters>.tmp`` for the file ``NAME`` (any name when empty).

    >>> bool(temporary_name_pattern("a.json").fullmatch(".~a.json.k2x_9qza.tmp"))
    True
    >>> bool(temporary_name_pattern().fullmatch(".~notes.txt.tmp"))
    False
    """
    stem = re.escape(name) if name else ".+"
    return re.compile(rf"\.~{stem}\.{_RANDOM}\.tmp")


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether ``a`` and ``b`` name one existing file (through links, ``./`` and the like): writing one would
    replace the other, so an export or a generated level never writes over the file it was made from.

    >>> same_file(__file__, os.path.join(os.path.dirname(__file__), ".", os.path.basename(__file__)))
    True
    >>> same_file(__file__, "no such file")
    False
    """
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def write_text_atomic(path: str | os.PathLike, text: str, replace_read_only: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then swap it in.

    A symbolic link stays a link: the file it points to is the one replaced.
    A path that is not a regular file (``/dev/stdout``, a named pipe) cannot be
    swapped, so it is written straight into.

    Raises
    ------
    ReadOnlyTargetError
        The target is read-only or belongs to another user (and ``replace_read_only`` is false).
    LevelSaveError
        Any other failure, with ``reason`` and ``errno``; the old file stays as it was.
    """
    shown = os.fspath(path)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise LevelSaveError(f"could not save {shown}: {e.reason} in the text at {e.start}") from None
    write_bytes_atomic(shown, data, replace_read_only)


def write_bytes_atomic(path: str | os.PathLike, data: bytes, replace_read_only: bool = False) -> None:
    """:func:`write_text_atomic` for bytes."""
    write_blocks_atomic(path, (data,), replace_read_only)


def write_blocks_atomic(path: str | os.PathLike, blocks: Iterable, replace_read_only: bool = False) -> None:
    """:func:`write_text_atomic` for a text given in blocks (bytes, or str written as UTF-8), written as they come.

    A large level is written without ever being whole in memory. If making a
    block fails (the iterable raises), nothing is swapped in and the error is
    raised as it is; the old file stays as it was.
    """
    shown = os.fspath(path)
    try:
        target = os.path.realpath(shown)
        folder = os.path.dirname(target)
        try:
            info = os.stat(target)
        except FileNotFoundError:
            info = None
        if info is None and os.path.exists(shown):  # /dev/stdout into a pipe: its real path names no file
            target, info = shown, os.stat(shown)
        if info is not None and not stat.S_ISREG(info.st_mode):
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(errnos.EISDIR, "Is a directory")
            with _open_special(target, shown) as f:
                for data in _encoded(blocks, shown):
                    f.write(data)
            return
        if info is not None and not replace_read_only:
            _refuse_read_only(shown, info)
        _swap_in(target, folder, _encoded(blocks, shown), info)
    except LevelSaveError:
        raise
    except OSError as e:
        reason = e.strerror or str(e)
        raise LevelSaveError(f"could not save {shown}: {reason}", _REASONS.get(e.errno, OTHER), e.errno) from None


def _encoded(blocks: Iterable, shown: str) -> Iterator[bytes]:
    """The blocks as bytes; a text UTF-8 cannot hold is refused with where in the text it goes wrong."""
    offset = 0
    for block in blocks:
        if isinstance(block, str):
            try:
                data = block.encode("utf-8")
            except UnicodeEncodeError as e:
                raise LevelSaveError(f"could not save {shown}: {e.reason} in the text at {offset + e.start}") from None
            offset += len(block)
            yield data
        else:
            yield block


#: How long a save into a named pipe waits for a program to open the pipe's other end.
_READER_WAIT_SECONDS = 1.0


def _open_special(target: str, shown: str):
    """A device or a named pipe opened for writing, never waiting for a reader that may never come.

    A pipe nobody reads is refused at once (the open would block for ever); with a reader, the writes block as usual.
    """
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    deadline = time.monotonic() + _READER_WAIT_SECONDS
    while True:
        try:
            fd = os.open(target, flags)
            break
        except OSError as e:
            if e.errno != errnos.ENXIO:
                raise
            if time.monotonic() >= deadline:  # a reader starting just now gets a moment to open its end
                raise LevelSaveError(f"could not save {shown}: it is a named pipe that no program is reading") from None
            time.sleep(0.01)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "wb")


def _refuse_read_only(shown: str, info: os.stat_result) -> None:
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise ReadOnlyTargetError(f"could not save {shown}: the file is read-only")
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid() and os.geteuid() != 0:
        raise ReadOnlyTargetError(f"could not save {shown}: the file belongs to another user")


def _swap_in(target: str, folder: str, blocks: Iterator[bytes], info) -> None:
    global _unnamed_works
    name = os.path.basename(target)
    fd, tmp = _open_temporary(folder, name)
    try:
        for data in blocks:
            _write_all(fd, data)
        _finish(fd, info)
        if tmp is None:  # unnamed until now: name it, then swap the name in
            try:
                tmp = _link_unnamed(fd, folder, name)
            except OSError as e:
                if e.errno not in (errnos.EXDEV, errnos.ENOENT, errnos.EPERM, errnos.EOPNOTSUPP):
                    raise
                # No way to name it here (no /proc, a sandbox): named temporaries from now on; the text
                # written so far is copied over from the unnamed file.
                _unnamed_works = False
                unnamed = fd
                fd, tmp = _open_temporary(folder, name)
                try:
                    _copy_all(unnamed, fd)
                finally:
                    os.close(unnamed)
                _finish(fd, info)
        os.replace(tmp, target)
        tmp = None
    finally:
        os.close(fd)
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    _sync_folder(folder)


def _finish(fd: int, info) -> None:
    """Give the written file the old one's mode and owner (or 0644), and flush it to disk."""
    if info is not None:
        _keep_mode_and_owner(fd, info)
    else:
        os.fchmod(fd, 0o644)
    os.fsync(fd)


def _copy_all(source: int, target: int) -> None:
    os.lseek(source, 0, os.SEEK_SET)
    while True:
        data = os.read(source, 1 << 24)
        if not data:
            return
        _write_all(target, data)


#: False once naming an unnamed file failed in this process (then every temporary is named from the start).
_unnamed_works = True


def use_named_temporaries() -> None:
    """Name every temporary from the start, from now on in this process, as where ``O_TMPFILE`` is missing.

    The writes stay atomic; only a write killed half-way leaves a named temporary behind (for
    :func:`remove_stale_temporaries`) instead of nothing. For tools and tests that look at a write in progress.
    """
    global _unnamed_works
    _unnamed_works = False


def _open_temporary(folder: str, name: str) -> tuple[int, str | None]:
    """An open, locked temporary in ``folder``: ``(fd, None)`` when unnamed (O_TMPFILE), else ``(fd, path)``."""
    if _unnamed_works and hasattr(os, "O_TMPFILE"):
        try:
            fd = os.open(folder, os.O_TMPFILE | os.O_RDWR | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError as e:
            if e.errno not in (errnos.EOPNOTSUPP, errnos.EISDIR, errnos.EINVAL, errnos.ENOENT):
                raise
        else:
            _lock(fd)
            return fd, None
    fd, tmp = tempfile.mkstemp(prefix=f".~{name}.", suffix=".tmp", dir=folder)
    _lock(fd)
    return fd, tmp


def _link_unnamed(fd: int, folder: str, name: str) -> str:
    """Give the unnamed file ``fd`` a fresh temporary name in ``folder`` and return it."""
    for _ in range(100):
        tmp = os.path.join(folder, f".~{name}.{next(tempfile._get_candidate_names())}.tmp")
        try:
            os.link(f"/proc/self/fd/{fd}", tmp, follow_symlinks=True)
            return tmp
        except FileExistsError:
            continue
    raise FileExistsError(errnos.EEXIST, "no free temporary name")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view[: 1 << 24])
        view = view[written:]


def _keep_mode_and_owner(fd: int, info: os.stat_result) -> None:
    try:
        os.fchmod(fd, stat.S_IMODE(info.st_mode))
    except OSError:
        pass  # some file systems (FAT, network shares) keep no modes
    if hasattr(os, "fchown") and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, info.st_uid, info.st_gid)
        except OSError:
            pass  # only the owner's group or root may; the file then becomes the writer's


def _lock(fd: int) -> None:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pass  # a file system without locks: the temporary is still ours, only unprotected from the sweep


def _sync_folder(folder: str) -> None:
    """Flush the folder's entry for the new name (a rename is only durable once its folder is)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the file itself is on disk
    finally:
        os.close(fd)


def remove_stale_temporaries(folder_or_level_path: str | os.PathLike) -> list[str]:
    """Delete our own temporaries left by a save that was killed; return their paths.

    Given a folder, every name of our pattern (``.~NAME.<8 random characters>.tmp``) in it;
    given a level file, only that file's. A temporary that another save holds
    locked right now is left alone, and so is anything not a regular file.
    """
    where = os.fspath(folder_or_level_path)
    if os.path.isdir(where):
        folder, pattern = where, temporary_name_pattern()
    else:
        real = os.path.realpath(where)
        folder, pattern = os.path.dirname(real), temporary_name_pattern(os.path.basename(real))
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    removed = []
    for name in names:
        if not pattern.fullmatch(name):
            continue
        path = os.path.join(folder, name)
        if _remove_if_stale(path):
            removed.append(path)
    return removed


def _remove_if_stale(path: str) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False  # a save in progress holds it
            except OSError:
                pass
        os.unlink(path)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
