"""What the editor asks of a path or a failed save before it acts: is it a level file at all, a Tiled map, read-only,
and why a save failed, in words. Plain functions of the file system, shared by open, save, import and recovery.
"""
from __future__ import annotations

import errno
import os
import stat
from typing import Optional

from level_editor.core.interop import tiled_format
from level_editor.core.level.atomic import LevelSaveError
from level_editor.core.level.reading import kind_of_file

#: What the designer can do about each reason a save fails (``LevelSaveError.reason``).
SAVE_ADVICE = {
    "permission": "You may not write there: use Save As… to save somewhere else, or change the permissions "
                  "of the file or its folder.",
    "no-space": "The disk is full: free some space, or use Save As… to save on another disk.",
    "read-only": "The disk is read-only: use Save As… to save on another disk.",
    "other": "Use Save As… to save somewhere else.",
}
_REASON_ERRNOS = {
    "permission": (errno.EACCES, errno.EPERM),
    "no-space": (errno.ENOSPC, errno.EDQUOT, errno.EFBIG),
    "read-only": (errno.EROFS,),
}
_REASON_WORDS = {
    "permission": ("permission denied", "operation not permitted"),
    "no-space": ("no space left", "disk quota", "file too large"),
    "read-only": ("read-only file system",),
}


def save_reason(error: LevelSaveError) -> str:
    """``"permission"``, ``"no-space"``, ``"read-only"`` or ``"other"``: why ``error``'s save failed."""
    reason = getattr(error, "reason", None)
    if reason in SAVE_ADVICE and reason != "other":
        return reason
    code = error.errno or getattr(error.__cause__ or error.__context__, "errno", None)
    text = str(error).lower()
    for name, codes in _REASON_ERRNOS.items():
        if code in codes or any(words in text for words in _REASON_WORDS[name]):
            return name
    return "other"


def save_cause(error: LevelSaveError) -> str:
    """The operating system's words for ``error`` ("Permission denied"), without the path the writer adds."""
    if error.strerror:
        return error.strerror
    text = str(error).strip()
    return text.rsplit(": ", 1)[-1] if ": " in text else (text or type(error).__name__)


def not_a_level_file(path: str) -> Optional[str]:
    """Why ``path`` cannot be a level file (a folder, a named pipe, a device), or None when it may be one.

    Asked before anything opens it: opening a named pipe with no writer would wait forever. The words are the
    loader's (:func:`level_editor.core.level.reading.kind_of_file`).
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # missing or unreadable: the loader says which
    if stat.S_ISREG(mode):
        return None
    kind = kind_of_file(mode)
    return f"it is {kind}" if kind.startswith("not ") else f"it is {kind}, not a level file"


def read_only_reason(path: str) -> Optional[str]:
    """Why replacing the file at ``path`` needs asking first (read-only, another user's), or None."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    name = os.path.basename(path)
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        return f"{name} is read-only."
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return f"{name} belongs to another user: saving replaces it with a copy that you own."
    return None


def is_tiled_map(path: str) -> bool:
    """Whether ``path`` names a Tiled map (``.tmx``, ``.tmj``, also gzip-packed)."""
    name = path.lower()
    return tiled_format(name[:-3] if name.endswith(".gz") else name) is not None
