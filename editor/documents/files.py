"""Files of the open level: new, open, save, save as, recent files, drag and drop, and the questions they ask.

:class:`FileActions` is one part of :class:`~level_editor.editor.window.main_window.MainWindow`; it
uses the window's document, undo stack, canvas, settings and background checks.
The questions it asks (save changes?, which file?) and the errors it shows go
through :meth:`FileActions.ask_unsaved_changes`, :meth:`FileActions.ask_open_path`,
:meth:`FileActions.ask_save_path` and :meth:`FileActions.show_error`, so tests
can answer them.
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Optional

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QFileDialog, QMessageBox

from level_editor.core.checks.check import pictures_looked_for_in
from level_editor.core.level import atomic
from level_editor.core.level.atomic import LevelSaveError, write_blocks_atomic
from level_editor.core.level.file_format import LevelFileError, level_blocks, load_level
from level_editor.core.level.kinds import plural
from level_editor.core.level.model import Level
from level_editor.core.level.pictures import pictures_moved
from level_editor.core.level.problems import LEVEL_ID
from level_editor.editor.work import long_task
from level_editor.editor.commands.objects import ChangeLevelPropertiesCommand
from level_editor.editor.support import typed_edits
from level_editor.editor.support.guard import describe, guarded
from level_editor.editor.documents.file_checks import (SAVE_ADVICE, is_tiled_map, not_a_level_file, read_only_reason,
                                                       save_cause, save_reason)

APP_NAME = "Level Editor"
MAX_RECENT = 10
LEVEL_FILTER = "Levels (*.json);;Tiled maps (*.tmx *.tmj);;All files (*)"

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"
#: Answers to "X is read-only": replace it all the same, or pick another file.
SAVE_ANYWAY, SAVE_AS = "save-anyway", "save-as"

#: The name a level has until someone names it (the model's default).
UNTITLED = Level().name
_KEPT = "The file on disk was not changed, and your changes are still open and unsaved."


def recent_labels(paths: list[str]) -> list[str]:
    """Menu labels for ``paths``: the file name, and when two share it, as many trailing folders as tell them apart.

    >>> recent_labels(["/l/a/new-level.json", "/l/b/new-level.json", "/l/castle.json"])
    ['new-level.json — l/a', 'new-level.json — l/b', 'castle.json']
    """
    names = [os.path.basename(p) for p in paths]
    labels = list(names)
    for i, path in enumerate(paths):
        twins = [p for p, n in zip(paths, names) if n == names[i] and p != path]
        if not twins:
            continue
        folders = os.path.dirname(path).strip(os.sep).split(os.sep)
        # at least two folders ("levels/a"): one alone ("a") says little about where the file is
        for depth in range(min(2, len(folders)), len(folders) + 1):
            tail = folders[-depth:]
            if all(os.path.dirname(t).strip(os.sep).split(os.sep)[-depth:] != tail for t in twins):
                break
        labels[i] = f"{names[i]} — {'/'.join(tail)}" if folders != [""] else names[i]
    return labels


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
        """An error box: ``text`` says what failed and why, ``details`` what it means (a short paragraph shown
        under it) or a long list (behind Show Details). Nothing is said twice."""
        box = QMessageBox(QMessageBox.Critical, title, text or title, QMessageBox.Ok, self)
        box.setObjectName("errorBox")
        if details and details.count("\n") < 12:
            box.setInformativeText(details)
        elif details:
            box.setInformativeText(f"{details.count(chr(10)) + 1} lines: see Show Details….")
            box.setDetailedText(details)
        box.exec()

    def ask_read_only(self, path: str, why: str) -> str:
        """Ask before replacing a read-only file (``why`` says what it is): Save Anyway, Save As… or Cancel."""
        box = QMessageBox(QMessageBox.Warning, APP_NAME, why, QMessageBox.NoButton, self)
        box.setObjectName("readOnlyQuestion")
        box.setInformativeText("Save anyway replaces it; Save As… keeps it and saves your level elsewhere.")
        anyway = box.addButton("Save Anyway", QMessageBox.DestructiveRole)
        save_as = box.addButton("Save As…", QMessageBox.AcceptRole)
        box.addButton(QMessageBox.Cancel)
        box.setDefaultButton(save_as)
        box.exec()
        clicked = box.clickedButton()
        return SAVE_ANYWAY if clicked is anyway else SAVE_AS if clicked is save_as else CANCEL

    def _start_folder(self) -> str:
        if self.path:
            return os.path.dirname(os.path.abspath(self.path))
        recent = self.recent_files()
        return os.path.dirname(recent[0]) if recent else os.getcwd()

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def maybe_save(self) -> bool:
        """True when it is fine to drop the open level (saved, discarded or unchanged).

        A save that fails (or is cancelled) answers False: the window stays open with the edits.
        """
        if long_task.busy:
            self.statusBar().showMessage("The level is being saved or read: wait until it is done.", 6000)
            return False
        # a value still being typed belongs to this level: applied to it now (and saved with it if asked), never
        # left to land on the level that replaces it (a file dropped or opened from the menu takes no click)
        for widget in typed_edits.typing_in(self):
            typed_edits.finish_typing(widget)
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
        name = os.path.splitext(os.path.basename(path))[0] or UNTITLED
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

        A Tiled map (``.tmx``, ``.tmj``) is imported: it opens as a new unsaved level. Something that is not
        a file (a folder, a named pipe, a device) is refused at once, before anything tries to read it. A big
        level is read on a worker thread while the window shows progress.
        """
        name = path  # as given: "/dev/zero", not "zero"; the one typed on the command line, the one dropped
        problem = not_a_level_file(path)
        if problem is not None:
            self.show_error("Could not open level", f"{name} could not be opened: {problem}.", self.still_open())
            return False
        if is_tiled_map(path):
            return self.import_map(path, ask)
        if ask and not self.maybe_save():
            return False
        try:
            level = long_task.run_with_progress(self, f"Opening {os.path.basename(path) or path}…",
                                                lambda: load_level(path))
        except LevelFileError as e:
            # Problems of the file as a whole carry the file's name, not the command line's "-".
            problems = [f"{name}: {p.message}" if p.object_id == LEVEL_ID else str(p) for p in e.problems]
            if len(problems) == 1:
                text = f"{name} could not be opened: {e.problems[0].message}."
                if e.problems[0].object_id != LEVEL_ID:
                    text = f"{name} could not be opened: {problems[0]}."
                self.show_error("Could not open level", text, self.still_open())
            else:
                self.show_error("Could not open level",
                                f"{name} could not be opened: {len(problems) or 'unknown'} problems.",
                                "\n".join(problems))
            return False
        except Exception as e:  # noqa: BLE001 - whatever went wrong, say it in words and keep the open level
            self.show_error("Could not open level", f"{name} could not be opened: {describe(e)}.", self.still_open())
            return False
        self.set_level(level, os.path.abspath(path))
        self.add_recent(self.path)
        atomic.remove_stale_temporaries(os.path.dirname(self.path))
        return True

    def still_open(self) -> str:
        """What a failed open or import says of the level in the window: that it is still open, when there is
        one (a file, unsaved work, objects); nothing when the window holds only an empty, untouched new level
        (``level-editor /dev/zero`` opened no level before it)."""
        some = self.path is not None or self.is_modified() or len(self.document) > 0
        return "The level that was open is still open." if some else ""

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

    def _name_for_file(self, path: str) -> Optional[str]:
        """The name the level takes when saved as ``path`` (as in Tiled, it follows the file), or None to keep it.

        A level that is still "Untitled", or named after its old file, follows the file; a name the
        designer chose stays.
        """
        if path == self.path:
            return None  # Save keeps the name; Save As and a first save name it
        stem = os.path.splitext(os.path.basename(path))[0]
        current = self.document.level.name
        following = current in ("", UNTITLED) or (
            self.path is not None and current == os.path.splitext(os.path.basename(self.path))[0])
        return stem if stem and current != stem and following else None

    def _save_to(self, path: str) -> bool:
        """Write the open level to ``path``: checked, hulls added and written atomically on the file worker.

        Returns True when the file was written. Every failure is shown with its cause, and leaves the
        document, its unsaved state and the file on disk as they were. A read-only file (or another user's)
        is never replaced without asking.
        """
        name = os.path.basename(path)
        if long_task.busy:
            self.statusBar().showMessage("A save is already under way.", 6000)
            return False
        problem = not_a_level_file(path)
        if problem is not None:
            self.show_error("Could not save level", f"{name} could not be saved: {problem}.",
                            f"Use Save As… to choose a file. {_KEPT}")
            return False
        why = read_only_reason(path)
        if why is not None and path not in self._replace_allowed():
            answer = self.ask_read_only(path, why)
            if answer == SAVE_AS:
                return self.save_as()
            if answer != SAVE_ANYWAY:
                return False
            self._replace_allowed().add(path)
        folder = os.path.dirname(path)
        # immutable: edits made meanwhile cannot reach the file. Saved in another folder, its pictures are named
        # from there, as the document names them once it is saved
        level = pictures_moved(self.document.level, self.document.folder, folder)
        index = self.undo_stack.index()
        new_name = self._name_for_file(path)
        # the name plays no part in the check: the background check's outlines of the open level serve, and
        # pictures named from a new folder are looked for from there
        found = self.checks.completion(self.document.level)
        moved = level

        def check_work():
            return pictures_looked_for_in(found(), moved, folder)

        if new_name is not None:
            level = replace(level, name=new_name)
        replace_read_only = path in self._replace_allowed()

        def work():  # on the file worker: reads nothing of the window, only the values above
            check, check_failure = None, ""
            try:
                check = check_work()
            except Exception as e:  # noqa: BLE001 - a failing geometry check must never cost the designer their work
                check_failure = describe(e)
            # the text goes to the file block by block as it is made: never whole in memory
            try:
                _write(path, level_blocks(level, check.hulls if check is not None else {}), replace_read_only)
            except (ValueError, OverflowError) as e:
                if check is None or not check.hulls:
                    raise
                check, check_failure = None, f"its hulls could not be written: {describe(e)}"
                _write(path, level_blocks(level, {}), replace_read_only)
            return check, check_failure

        try:
            check, check_failure = long_task.run_with_progress(self, f"Saving {name}…", work)
        except LevelSaveError as e:
            if isinstance(e, atomic.ReadOnlyTargetError) and path not in self._replace_allowed():
                # the writer found it read-only (after our look, or by rules of its own): ask as above
                answer = self.ask_read_only(path, f"{name} could not be saved: {save_cause(e)}.")
                if answer == SAVE_AS:
                    return self.save_as()
                if answer == SAVE_ANYWAY:
                    self._replace_allowed().add(path)
                    return self._save_to(path)
                return False
            self.show_error("Could not save level", f"{name} could not be saved: {save_cause(e)}.",
                            f"{SAVE_ADVICE[save_reason(e)]} {_KEPT}")
            return False
        except RecursionError:
            self.show_error("Could not save level",
                            f"{name} could not be saved: some of its data is nested too deeply to write.",
                            f"Flatten the deepest custom data (a game's own keys in the file). {_KEPT}")
            return False
        except Exception as e:  # noqa: BLE001 - never lose work to an error nobody foresaw: say it, keep the edits
            self.show_error("Could not save level", f"{name} could not be saved: {describe(e)}.", _KEPT)
            return False
        self.path = path
        # its pictures are named from the file's folder, as the file names them: part of the save, not an undo step
        self.document.move_to(folder)
        if self.undo_stack.index() == index:
            if new_name is not None:  # the file has the new name: so has the level, one undoable step
                self.context.push(ChangeLevelPropertiesCommand(self.document, f"Name level '{new_name}'",
                                                               name=new_name))
            if check is not None:
                # the document is the level written: a name and the pictures' folder change no problem and no hull
                check = replace(check, level=self.document.level)
            self.undo_stack.setClean()
        self._update_title()
        self.add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 4000)
        if check is None:
            self.show_error("Saved without hulls",
                            f"{name} was saved, but its hulls are empty and the Problems list is not up to "
                            f"date: {check_failure}.", "")
            return True
        if check.problems is None:  # a large level saved without validating it: its problems follow soon
            self.checks.validate_saved(check)
            return True
        self.checks.accept(check)
        errors = sum(p.is_error for p in check.problems)
        if errors:
            # the file is written all the same: never lose work; the dock says what to fix
            self.statusBar().showMessage(f"Saved with {plural(errors, 'error')} – see Problems", 10000)
            self.problems_dock.show()
            self.problems_dock.raise_()
        return True

    def _replace_allowed(self) -> set:
        """Read-only files the designer said to replace all the same (asked once per file and window)."""
        if not hasattr(self, "_read_only_allowed"):
            self._read_only_allowed: set = set()
        return self._read_only_allowed

    def set_level(self, level: Level, path: Optional[str] = None) -> None:
        """Show ``level`` as the open level, saved at ``path`` (``None``: not saved yet), with no changes to undo.

        Asks nothing: callers that may drop unsaved changes call :meth:`maybe_save` first. A level with
        objects is framed whole; an empty one (a new level) shows at 100% with the spawn in the middle.
        """
        self.drop_pending_typing()
        self.undo_stack.clear()
        self.document.reset(level, os.path.dirname(path) if path else None)
        self.undo_stack.setClean()
        self.path = path
        self.setWindowModified(False)
        self._update_title()
        if len(level.objects):
            self.canvas.fit_level()
        else:
            self.canvas.set_zoom(1.0)
            self.canvas.centerOn(QPointF(*level.player.spawn))

    def drop_pending_typing(self) -> None:
        """Drop a value still being typed for the open level, before another level replaces it.

        Callers that may drop unsaved changes applied it already (:meth:`maybe_save`); what is left here was
        typed for a level being thrown away, and applied later it would land on the next one.
        """
        for widget in typed_edits.typing_in(self):
            typed_edits.drop_typing(widget)

    def _display_name(self) -> str:
        return os.path.basename(self.path) if self.path else "Untitled"

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self._display_name()}[*] — {APP_NAME}")

    def recent_files(self) -> list[str]:
        """The recently opened and saved levels, newest first, each path once."""
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)):  # a settings file edited by hand: a number, a map...
            return []
        return _unique_paths(v for v in value if isinstance(v, str) and v and "\0" not in v)

    def add_recent(self, path: str) -> None:
        """Put ``path`` first among the recent files (every level opened or saved goes there), at most
        :data:`MAX_RECENT` of them kept."""
        files = _unique_paths([path] + self.recent_files())
        self.settings.setValue("recentFiles", files[:MAX_RECENT])

    def _fill_recent_menu(self) -> None:
        """File > Open Recent: one entry per file; two of the same name show the folders that tell them apart."""
        self.recent_menu.clear()
        files = [p for p in self.recent_files() if os.path.exists(p)]
        for i, (path, label) in enumerate(zip(files, recent_labels(files))):
            a = self.recent_menu.addAction(f"&{i + 1} {label.replace('&', '&&')}")
            a.setToolTip(path)
            a.setStatusTip(path)
            a.triggered.connect(lambda checked=False, p=path: self.open_file(p))
        self.recent_menu.setToolTipsVisible(True)
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

    @guarded("dragging files over the window")
    def dragEnterEvent(self, event) -> None:
        if self._dropped_level(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    @guarded("dragging files over the window")
    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    @guarded("opening a dropped file", explicit=True)
    def dropEvent(self, event) -> None:
        path = self._dropped_level(event.mimeData())
        if path:
            event.acceptProposedAction()
            self.open_file(path)
        else:
            event.ignore()


def _write(path: str, blocks, replace_read_only: bool) -> None:
    """The atomic write of the text in ``blocks``; ``replace_read_only``: the designer said to replace a
    read-only file."""
    write_blocks_atomic(path, blocks, replace_read_only=replace_read_only)


def _unique_paths(paths) -> list[str]:
    """``paths`` made absolute, each file once (the first time it appears), whatever way it was spelled."""
    seen: set = set()
    unique = []
    for path in paths:
        full = os.path.abspath(path)
        key = os.path.normcase(os.path.realpath(full))
        if key not in seen:
            seen.add(key)
            unique.append(full)
    return unique
