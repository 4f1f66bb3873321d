"""Autosave: while a level has unsaved changes, a recovery copy is written every so often.

The copy goes to the recovery folder (see :mod:`level_editor.core.level.recovery`), never over
the level's own file. It is written while the undo stack is not clean, at the
interval set in the preferences (``autosave/intervalSeconds``, 30 s by
default, 0 turns it off; ``LEVEL_EDITOR_AUTOSAVE_SECONDS`` overrides it), and
removed when the level is saved, when undo brings it back to its saved
state, when another level opens and when the window closes normally. Only a
crash leaves it behind, and the next start offers it back.

A tick with no change since the last copy only touches the copy (so other
editors can tell it is looked after); a level that does not change -- during
a play-test, for one -- is never written again. The level is immutable, so
the copy is written on a worker thread from a snapshot: a big level does not
freeze the window while its copy is written.
"""
from __future__ import annotations

import math
import os
import threading
import uuid
from typing import Callable, Optional

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer, Signal
from PySide6.QtGui import QUndoStack

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Level
from level_editor.core.level.atomic import LevelSaveError
from level_editor.core.level.recovery import recovery_file_name, recovery_folder, remove_copy, touch, write_recovery
from level_editor.editor.support.guard import describe, guarded

__all__ = ["Autosave", "INTERVAL_KEY", "DEFAULT_INTERVAL", "INTERVAL_ENV", "MAX_INTERVAL",
           "interval_seconds", "default_recovery_folder"]

INTERVAL_KEY = "autosave/intervalSeconds"
DEFAULT_INTERVAL = 30
MAX_INTERVAL = 3600
#: Seconds between copies, overriding the preferences (the crash test uses 1).
INTERVAL_ENV = "LEVEL_EDITOR_AUTOSAVE_SECONDS"


def interval_seconds(settings: QSettings) -> float:
    """Seconds between recovery copies (0: autosave off): the environment override, else the preference."""
    override = os.environ.get(INTERVAL_ENV)
    if override:
        try:
            seconds = float(override)
        except ValueError:
            seconds = math.nan
        if seconds >= 0:  # NaN and negative numbers are no interval: the preference decides
            return min(seconds, float(MAX_INTERVAL))
    return float(stored_interval(settings))


def stored_interval(settings: QSettings) -> int:
    """The preference in whole seconds, 0 to :data:`MAX_INTERVAL`; whatever else the settings file holds there
    (text, a list, a negative number, NaN, infinity) gives the default."""
    value = settings.value(INTERVAL_KEY, DEFAULT_INTERVAL)
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return DEFAULT_INTERVAL
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        return DEFAULT_INTERVAL
    return int(min(value, MAX_INTERVAL))


def default_recovery_folder() -> str:
    """Qt's per-user data folder for this application + ``/recovery`` (``LEVEL_EDITOR_DATA_DIR`` overrides)."""
    return recovery_folder(QStandardPaths.writableLocation(QStandardPaths.AppDataLocation))


class Autosave(QObject):
    """Writes recovery copies of one window's level while it has unsaved changes.

    Parameters
    ----------
    document, undo_stack
        The window's level and its history: the stack's clean state says whether there is anything to keep.
    path_of
        Returns the level's own file (``None`` for a level never saved); the copy's name follows it.
    settings
        Where the interval is read from (:data:`INTERVAL_KEY`).
    folder
        The recovery folder; :func:`default_recovery_folder` when not given.
    """

    #: A copy was written (its path).
    written = Signal(str)
    #: The copy was removed (its path).
    removed = Signal(str)
    #: Writing a copy failed (a sentence for the status bar); the next tick tries again.
    failed = Signal(str)
    _write_done = Signal(object)

    def __init__(self, document: LevelDocument, undo_stack: QUndoStack, path_of: Callable[[], Optional[str]],
                 settings: QSettings, folder: Optional[str] = None, parent: Optional[QObject] = None):
        super().__init__(parent)
        self.document = document
        self.undo_stack = undo_stack
        self.path_of = path_of
        self.settings = settings
        self.folder = folder if folder is not None else default_recovery_folder()
        self.session = uuid.uuid4().hex[:12]
        self.copy_path: Optional[str] = None
        self._written_level: Optional[Level] = None
        self._worker: Optional[threading.Thread] = None
        self._generation = 0
        self._last_error = ""
        self._closed = False
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.tick)
        self._write_done.connect(self._finish_write)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.apply_settings()

    # -- settings ----------------------------------------------------------------
    def interval(self) -> float:
        """Seconds between copies; 0 when autosave is off."""
        return interval_seconds(self.settings)

    def apply_settings(self) -> None:
        """Take up a changed interval (the preferences call this); turning autosave off removes the copy."""
        seconds = self.interval()
        if seconds <= 0:
            self.timer.stop()
            self.discard()
            return
        self.timer.setInterval(max(1, round(seconds * 1000)))
        if not self.undo_stack.isClean() and not self._closed:
            self.timer.start()

    def is_active(self) -> bool:
        """True while copies are being written at the interval."""
        return self.timer.isActive()

    # -- what drives it ----------------------------------------------------------
    @guarded("keeping the recovery copy")
    def _clean_changed(self, clean: bool) -> None:
        if clean:
            self.timer.stop()
            self.discard()
        elif self.interval() > 0 and not self._closed:
            self.timer.start()

    @guarded("writing the recovery copy")
    def tick(self) -> None:
        """One timer tick: write the copy if the level changed since the last one, else touch it."""
        if self._closed or self.undo_stack.isClean():
            self.timer.stop()
            return
        if self._worker is not None:
            return  # the previous copy is still being written
        target = os.path.join(self.folder, recovery_file_name(self.path_of(), self.session))
        if self.copy_path and self.copy_path != target:
            self.discard()
        if self.document.level is self._written_level and self.copy_path and touch(self.copy_path):
            return
        self.write_now(wait=False)

    def write_now(self, wait: bool = True) -> None:
        """Write a copy of the level as it is now (``wait``: until the file is there)."""
        if self._worker is not None:
            self.wait()
        level, original, pictures = self.document.level, self.path_of(), self.document.folder
        generation = self._generation

        def work():
            try:
                path, error = write_recovery(self.folder, level, original, self.session,
                                             pictures_folder=pictures), ""
            except (LevelSaveError, OSError, ValueError) as e:
                path, error = None, str(e)
            except Exception as e:  # noqa: BLE001 - a thread that dies unheard would stop autosave for good
                path, error = None, describe(e)
            self._write_done.emit((generation, level, path, error))

        self._worker = threading.Thread(target=work, name="autosave", daemon=True)
        self._worker.start()
        if wait:
            self.wait()

    def wait(self) -> None:
        """Wait for a copy being written to be on disk (its signal delivered)."""
        worker = self._worker
        if worker is not None:
            worker.join()
            # The thread's signal is queued to this thread: deliver it now rather than at the next event loop.
            from PySide6.QtCore import QCoreApplication

            QCoreApplication.sendPostedEvents(self)
            if self._worker is worker:  # delivered through another path (direct connection)
                self._worker = None

    @guarded("writing the recovery copy")
    def _finish_write(self, result) -> None:
        generation, level, path, error = result
        self._worker = None
        if error:
            if error != self._last_error:
                self._last_error = error
                self.failed.emit(f"Recovery copy not written: {error}")
            return
        self._last_error = ""
        stale = generation != self._generation or self._closed or self.undo_stack.isClean()
        if stale:  # saved, closed or switched level while it was being written: it must not stay
            remove_copy(path)
            return
        self.copy_path = path
        self._written_level = level
        self.written.emit(path)

    # -- removing ----------------------------------------------------------------
    def discard(self) -> None:
        """Remove the copy (saved, back to the saved state, another level opened, autosave off)."""
        self._generation += 1
        path, self.copy_path, self._written_level = self.copy_path, None, None
        if path and remove_copy(path):
            self.removed.emit(path)

    def close(self) -> None:
        """The window closes normally: stop, let a write in progress finish, remove the copy."""
        self._closed = True
        self.timer.stop()
        self.wait()
        self.discard()
