"""Files of the open level: new, open, save, save as, recent files, drag and drop, and the questions they ask.

:class:`FileActions` is one part of :class:`~editor.main_window.MainWindow`; it
uses the window's document, undo stack, canvas, settings and background checks.
The questions it asks (save changes?, which file?) and the errors it shows go
through :meth:`FileActions.ask_unsaved_changes`, :meth:`FileActions.ask_open_path`,
:meth:`FileActions.ask_save_path` and :meth:`FileActions.show_error`, so tests
can answer them.
"""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from core.level.atomic import LevelSaveError
from core.level.file_format import LevelFileError, load_level, save_level
from core.level.kinds import plural
from core.level.model import Level
from core.level.problems import LEVEL_ID
from editor.tiled_actions import is_tiled_map

APP_NAME = "Level Editor"
MAX_RECENT = 10
LEVEL_FILTER = "Levels (*.json);;Tiled maps (*.tmx *.tmj);;All files (*)"

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"


class FileActions:
    """New, open, save and recent files for the main window (a part of it, not a window of its own)."""

    def ask_unsaved_changes(self) -> str:
        """Ask whether to save the changes: returns ``"save"``, ``"discard"`` or ``"cancel"``."""
        answer = QMessageBox.warning(
            self, APP_NAME, f"{self._display_name()} has unsaved changes.\nDo you want to save them?",
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        return {QMessageBox.Save: SAVE, QMessageBox.Discard: DISCARD}.get(answer, CANCEL)

    def ask_open_path(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self, "Open level", self._start_folder(), LEVEL_FILTER)
        return path

    def ask_save_path(self) -> str:
        start = self.path or os.path.join(self._start_folder(), "level.json")
        path, _ = QFileDialog.getSaveFileName(self, "Save level as", start, LEVEL_FILTER)
        return path

    def show_error(self, title: str, text: str, details: str = "") -> None:
        box = QMessageBox(QMessageBox.Critical, title, text, QMessageBox.Ok, self)
        if details:
            box.setDetailedText(details)
            box.setInformativeText(details if details.count("\n") < 12 else "")
        box.exec()

    def _start_folder(self) -> str:
        if self.path:
            return os.path.dirname(os.path.abspath(self.path))
        recent = self.recent_files()
        return os.path.dirname(recent[0]) if recent else os.getcwd()

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def maybe_save(self) -> bool:
        """True when it is fine to drop the open level (saved, discarded or unchanged)."""
        if not self.is_modified():
            return True
        answer = self.ask_unsaved_changes()
        if answer == SAVE:
            return self.save()
        return answer == DISCARD

    def new_level(self) -> bool:
        if not self.maybe_save():
            return False
        self.set_level(Level())
        return True

    def new_level_at(self, path: str) -> None:
        """Start a new level that Save will write to ``path`` without asking (the file need not exist)."""
        name = os.path.splitext(os.path.basename(path))[0] or "Untitled"
        self.set_level(Level(name=name), os.path.abspath(path))

    def restore_level(self, level: Level, path: Optional[str]) -> None:
        """Show a recovered level as unsaved changes to ``path``: the file is written only when the user saves."""
        self.set_level(level, path)
        self.undo_stack.resetClean()

    def open_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        path = self.ask_open_path()
        return bool(path) and self.open_file(path, ask=False)

    def open_file(self, path: str, ask: bool = True) -> bool:
        """Open the level at ``path``; on failure the open level stays as it was and the problems are shown.

        A Tiled map (``.tmx``, ``.tmj``) is imported: it opens as a new unsaved level.
        """
        if is_tiled_map(path):
            return self.import_map(path, ask)
        if ask and not self.maybe_save():
            return False
        try:
            level = load_level(path)
        except LevelFileError as e:
            name = os.path.basename(path)
            # Problems of the file as a whole carry the file's name, not the command line's "-".
            problems = "\n".join(f"{name}: {p.message}" if p.object_id == LEVEL_ID else str(p) for p in e.problems)
            self.show_error("Could not open level", f"{name} could not be opened.", problems)
            return False
        self.set_level(level, os.path.abspath(path))
        self._add_recent(self.path)
        return True

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self._save_to(self.path)

    def save_as(self) -> bool:
        path = self.ask_save_path()
        if not path:
            return False
        if not os.path.splitext(path)[1]:
            path += ".json"
        return self._save_to(os.path.abspath(path))

    def _save_to(self, path: str) -> bool:
        level = self.document.level
        # validation and hulls from one set of outlines (the background check's, when it is up to date)
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            check = self.checks.complete(level)
        except Exception as e:  # noqa: BLE001 - a failing geometry check must never cost the designer their work
            check = None
            check_failure = f"{type(e).__name__}: {e}"
        finally:
            QApplication.restoreOverrideCursor()
        try:
            save_level(level, path, hulls=check.hulls if check is not None else {})
        except LevelSaveError as e:
            self.show_error("Could not save level", str(e),
                            "The file on disk was not changed, and your changes are still open and unsaved. "
                            "Free some space, or use Save As… to save somewhere else.")
            return False
        self.path = path
        self.undo_stack.setClean()
        self._update_title()
        self._add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 4000)
        if check is None:
            self.show_error("Saved without hulls",
                            f"{os.path.basename(path)} was saved, but checking its geometry failed, so its hulls "
                            "are empty and the Problems list is not up to date.", check_failure)
            return True
        self.checks.accept(check)
        errors = sum(p.is_error for p in check.problems)
        if errors:
            # the file is written all the same: never lose work; the dock says what to fix
            self.statusBar().showMessage(f"Saved with {plural(errors, 'error')} – see Problems", 10000)
            self.problems_dock.show()
            self.problems_dock.raise_()
        return True

    def set_level(self, level: Level, path: Optional[str] = None) -> None:
        """Show ``level`` as the open level, saved at ``path`` (``None``: not saved yet), with no changes to undo.

        Asks nothing: callers that may drop unsaved changes call :meth:`maybe_save` first.
        """
        self.undo_stack.clear()
        self.document.reset(level)
        self.undo_stack.setClean()
        self.path = path
        self.setWindowModified(False)
        self._update_title()
        self.canvas.fit_level()

    def _display_name(self) -> str:
        return os.path.basename(self.path) if self.path else "Untitled"

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self._display_name()}[*] — {APP_NAME}")

    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: str) -> None:
        files = [path] + [p for p in self.recent_files() if p != path]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = [p for p in self.recent_files() if os.path.exists(p)]
        for i, path in enumerate(files):
            a = self.recent_menu.addAction(f"&{i + 1} {os.path.basename(path)}")
            a.setToolTip(path)
            a.triggered.connect(lambda checked=False, p=path: self.open_file(p))
        if not files:
            self.recent_menu.addAction("No recent files").setEnabled(False)

    @staticmethod
    def _dropped_level(mime) -> Optional[str]:
        if not mime.hasUrls():
            return None
        for url in mime.urls():
            if url.isLocalFile() and (url.toLocalFile().lower().endswith(".json") or is_tiled_map(url.toLocalFile())):
                return url.toLocalFile()
        return None

    def dragEnterEvent(self, event) -> None:
        if self._dropped_level(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        path = self._dropped_level(event.mimeData())
        if path:
            event.acceptProposedAction()
            self.open_file(path)
        else:
            event.ignore()
