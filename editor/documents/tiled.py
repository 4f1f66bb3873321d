"""Tiled maps from the editor: File > Export As… (level JSON, TMJ or TMX) and importing a TMJ or TMX map.

:class:`TiledActions` is one part of :class:`~level_editor.editor.window.main_window.MainWindow`. The
work is core's (:mod:`level_editor.core.interop`), shared with ``level-editor export`` and
``level-editor import``; this only asks where, and shows what came of it. An
imported map opens as a new, unsaved level (Save asks where to put it), and what
it could not hold is listed in a dialog, one line per object, as the command
line prints it. A long import can be cancelled: the open level then stays as it was.
"""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QLabel, QPlainTextEdit,
                               QVBoxLayout)

from level_editor.core.interop import TiledImportError, tiled_format, write_tiled
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.level.atomic import LevelSaveError, same_file
from level_editor.core.level.file_format import save_level
from level_editor.core.level.pictures import pictures_moved
from level_editor.editor.work import long_task
from level_editor.editor.documents.file_checks import not_a_level_file, save_cause
from level_editor.editor.support.guard import describe

EXPORT_FILTER = "Tiled map (*.tmx);;Tiled JSON map (*.tmj);;Level (*.json)"
MAP_FILTER = "Tiled maps (*.tmx *.tmj);;All files (*)"


#: The notes dialog's width in a new window (it can be resized); the notes wrap to it.
NOTES_WIDTH = 560


def notes_dialog(parent, title: str, text: str, notes) -> QDialog:
    """What came of an import or export: ``text``, then every note in full, wrapped, one a paragraph.

    Not a message box: its Show Details button hid the notes, and its
    informative text was cut at the box's width. The notes are read-only text
    that can be selected and copied; the list scrolls only when it is long.
    """
    dialog = QDialog(parent)
    dialog.setObjectName("notesDialog")
    dialog.setWindowTitle(title)
    heading = QLabel(text, dialog)
    heading.setWordWrap(True)
    listing = QPlainTextEdit(dialog)
    listing.setObjectName("notes")
    listing.setReadOnly(True)
    listing.setLineWrapMode(QPlainTextEdit.WidgetWidth)
    listing.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)  # wrapped: nothing to scroll sideways
    listing.setPlainText("\n".join(str(n) for n in notes))
    buttons = QDialogButtonBox(QDialogButtonBox.Ok, dialog)
    buttons.accepted.connect(dialog.accept)
    layout = QVBoxLayout(dialog)
    layout.addWidget(heading)
    layout.addWidget(listing, 1)
    layout.addWidget(buttons)
    # tall enough for the notes wrapped at this width, up to about twenty lines; then the list scrolls
    metrics = listing.fontMetrics()
    room = NOTES_WIDTH - 40
    lines = sum(max(1, -(-metrics.horizontalAdvance(str(n)) // room)) for n in notes)
    listing.setMinimumHeight(min(lines, 20) * metrics.lineSpacing() + 16)
    dialog.resize(NOTES_WIDTH, dialog.sizeHint().height())
    return dialog


class TiledActions:
    """Export As and Import for the main window (a part of it)."""

    # -- questions (tests answer these) ---------------------------------------------
    def ask_export_path(self) -> str:
        stem = os.path.splitext(self.path)[0] if self.path else os.path.join(self._start_folder(), "level")
        path, chosen = QFileDialog.getSaveFileName(self, "Export level as", stem + ".tmx", EXPORT_FILTER)
        if path and not os.path.splitext(path)[1]:
            path += ".tmj" if "tmj" in chosen else ".json" if "json" in chosen else ".tmx"
        return path

    def ask_import_path(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self, "Import Tiled map", self._start_folder(), MAP_FILTER)
        return path

    def show_notes(self, title: str, text: str, notes) -> None:
        notes_dialog(self, title, text, notes).exec()

    # -- actions ------------------------------------------------------------------
    def export_as(self) -> bool:
        """Write the level to a file of the designer's choice (Tiled TMX or TMJ, or level JSON); the open file
        stays the one Save writes."""
        path = self.ask_export_path()
        if not path:
            return False
        level = self.document.level
        level_dir = self.document.folder  # where its pictures' paths are relative to (an imported map's folder)
        name = os.path.basename(path)
        if self.path and tiled_format(path) is not None and same_file(path, self.path):
            self.show_error("Could not export level", f"{name} is the level's own file: a Tiled map there would "
                            f"replace the level.", "Export to another name; the level's file is as it was.")
            return False
        if tiled_format(path) is not None:
            def work():
                return write_tiled(level, path, level_dir=level_dir)
        else:
            completion = self.checks.completion(level)  # what the background check knows, read here

            # a copy in another folder names the same pictures from there
            copy = pictures_moved(level, level_dir, os.path.dirname(os.path.abspath(path)))

            def work():
                save_level(copy, path, hulls=completion().hulls)
                return ()
        try:
            # a big level takes seconds: written off the GUI thread, the window repainting, its progress shown
            notes = long_task.run_with_progress(self, f"Exporting {name}…", work)
        except Exception as e:  # noqa: BLE001 - whatever it was, say it: the open level is untouched either way

            cause = save_cause(e) if isinstance(e, LevelSaveError) else describe(e)
            self.show_error("Could not export level", f"{name} was not written: {cause}.",
                            "The open level is as it was.")
            return False
        self.statusBar().showMessage(f"Exported {path}", 6000)
        if notes:
            self.show_notes("Exported with notes", f"{name} was written. Some things needed a note:", list(notes))
        return True

    def import_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        path = self.ask_import_path()
        return bool(path) and self.import_map(path, ask=False)

    def import_map(self, path: str, ask: bool = True) -> bool:
        """Open the Tiled map at ``path`` as a new unsaved level; on failure the open level stays as it was."""

        name = os.path.basename(path)
        problem = not_a_level_file(path)  # a named pipe would make reading wait for ever
        if problem is not None:
            self.show_error("Could not import map", f"{name} could not be imported: {problem.replace('level', 'map')}.",
                            self.still_open())
            return False
        if ask and not self.maybe_save():
            return False
        try:
            # a hostile map takes seconds: its progress has a Cancel (and Esc, and closing the window, cancel it)
            result = long_task.run_with_progress(self, f"Importing {name}…", lambda stop: read_tiled(path, stop=stop),
                                                 cancellable=True)
        except long_task.Cancelled:
            self.statusBar().showMessage(f"Import of {name} cancelled: the open level is as it was", 8000)
            return False
        except TiledImportError as e:
            self.show_error("Could not import map", f"{name} could not be imported.", str(e) or "")
            return False
        except Exception as e:  # noqa: BLE001 - a map nobody foresaw: say why, keep the open level
            self.show_error("Could not import map", f"{name} could not be imported: {describe(e)}.",
                            self.still_open())
            return False
        self.set_level(result.level, None)
        self.undo_stack.resetClean()  # nothing is written until Save asks where
        self._folder_for_pictures(os.path.dirname(os.path.abspath(path)))
        self.statusBar().showMessage(f"Imported {path}: Save asks where to put the level", 8000)
        if result.notes:
            self.show_notes("Imported with notes", f"{name} was imported. What a level cannot hold as it was:",
                            [f"{name}: {n}" for n in result.notes])
        return True

    def _folder_for_pictures(self, folder: Optional[str]) -> None:
        """Pictures of an imported map are relative to the map's folder until the level is saved (and saved
        elsewhere, they are named from there)."""
        self.document.move_to(folder)
        self.scene.set_base_folder(folder)
