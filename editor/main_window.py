"""MainWindow: the editor's frame: canvas, tools, docks, menus, files and the clipboard."""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QPointF, QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QToolBar,
    QUndoView,
)

from core.level.document import LevelDocument
from core.level.model import Level
from core.level.atomic import LevelSaveError
from core.level.file_format import LevelFileError, load_level, save_level
from core.level.problems import LEVEL_ID
from editor.autosave import Autosave
from editor.canvas.canvas import Canvas
from editor.clipboard import objects_from_text, objects_to_text
from core.level.kinds import id_prefix, plural
from editor.commands import AddObjectsCommand, RemoveObjectsCommand
from editor.context import EditorContext
from editor.panels.inspector import Inspector
from editor.items.hulls_item import LEGEND, HullsItem
from editor.panels.object_list import ObjectList
from editor.playtest.play_mode import PlayMode
from editor.panels.problems_dock import ProblemsDock
from editor.resources import icon
from editor.canvas.scene import LevelScene
from editor.selection import Selection
from editor.tools.registry import TOOL_CLASSES
from editor.tools.tool import Tool
from editor.validation_runner import ValidationRunner

APP_NAME = "Level Editor"
MAX_RECENT = 10
LEVEL_FILTER = "Levels (*.json);;All files (*)"

SAVE, DISCARD, CANCEL = "save", "discard", "cancel"

def _icon(name: str) -> QIcon:
    """Icon ``name`` from the package (a missing one raises); ``""`` is an action without an icon."""
    return icon(name)


class MainWindow(QMainWindow):
    """One open level: the canvas in the centre, tools on the toolbar, docks around it.

    The questions it asks (save changes?, which file?) and the errors it shows go
    through :meth:`ask_unsaved_changes`, :meth:`ask_open_path`,
    :meth:`ask_save_path` and :meth:`show_error`, so tests can answer them.
    """

    def __init__(self, settings: Optional[QSettings] = None, parent=None):
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings()
        self.path: Optional[str] = None
        self.document = LevelDocument(Level())
        self.undo_stack = QUndoStack(self)
        self.scene = LevelScene(self.document, self)
        self.context = EditorContext(self.document, self.scene, self.undo_stack, self)
        self.selection: Selection = self.context.selection
        self.scene.set_selection(self.selection)
        self.canvas = Canvas(self.scene, self)
        self.setCentralWidget(self.canvas)
        self.setAcceptDrops(True)
        self.setWindowIcon(_icon("app"))
        self.setDockNestingEnabled(True)

        self.tools: list[Tool] = [cls(self.context, self) for cls in TOOL_CLASSES]
        self.tool: Optional[Tool] = None
        self.tool_actions: dict[Tool, QAction] = {}

        self._build_actions()
        self._build_docks()
        self._build_menus()
        self._build_toolbars()
        self._build_status_bar()

        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.autosave = Autosave(self.document, self.undo_stack, lambda: self.path, self.settings, parent=self)
        self.autosave.failed.connect(self._show_message)
        self.selection.changed.connect(self._update_edit_actions)
        self.context.message.connect(self._show_message)
        self._update_edit_actions()
        if self.tools:
            self.set_tool(self.tools[0])
        self._update_title()
        self.resize(1280, 800)
        # F5 play-test: its own actions, Play menu and toolbar buttons (editor/playtest)
        self.play_mode = PlayMode(self)

    def _clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def _show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 4000)

    # -- construction ---------------------------------------------------------------
    def _action(self, text: str, slot, shortcuts=(), icon: str = "", tip: str = "") -> QAction:
        a = QAction(_icon(icon), text, self)
        if shortcuts:
            a.setShortcuts([QKeySequence(s) for s in shortcuts])
        if tip:
            a.setStatusTip(tip)
            a.setToolTip(f"{text} ({QKeySequence(shortcuts[0]).toString()})" if shortcuts else text)
        a.triggered.connect(lambda checked=False: slot())
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        self.new_action = self._action("&New", self.new_level, ["Ctrl+N"], "new", "Start a new level")
        self.open_action = self._action("&Open…", self.open_dialog, ["Ctrl+O"], "open", "Open a level file")
        self.save_action = self._action("&Save", self.save, ["Ctrl+S"], "save", "Save the level")
        self.save_as_action = self._action("Save &As…", self.save_as, ["Ctrl+Shift+S"], "save-as",
                                           "Save the level under a new name")
        self.quit_action = self._action("&Quit", self.close, ["Ctrl+Q"], "", "Close the editor")

        self.undo_action = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.undo_action.setIcon(_icon("undo"))
        self.redo_action = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo_action.setIcon(_icon("redo"))
        self.addAction(self.undo_action)
        self.addAction(self.redo_action)
        self.copy_action = self._action("&Copy", self.copy, ["Ctrl+C"], "copy", "Copy the selected objects")
        self.paste_action = self._action("&Paste", self.paste, ["Ctrl+V"], "paste", "Paste objects")
        self.duplicate_action = self._action("D&uplicate", self.duplicate, ["Ctrl+D"], "duplicate",
                                             "Duplicate the selected objects")
        self.delete_action = self._action("&Delete", self.delete_key, ["Delete"], "delete",
                                          "Delete the selected objects")
        self.select_all_action = self._action("Select &All", self.select_all, ["Ctrl+A"], "",
                                              "Select every object")
        self.preferences_action = self._action("&Preferences…", self.show_preferences, ["Ctrl+,"], "",
                                               "Autosave and other settings")
        self.preferences_action.setMenuRole(QAction.PreferencesRole)

        self.fit_action = self._action("&Fit Level", self.canvas.fit_level, ["Ctrl+0"], "fit",
                                       "Show the whole level")
        self.zoom_in_action = self._action("Zoom &In", self.canvas.zoom_in, ["Ctrl++", "Ctrl+="], "zoom-in",
                                           "Zoom in")
        self.zoom_out_action = self._action("Zoom &Out", self.canvas.zoom_out, ["Ctrl+-"], "zoom-out",
                                            "Zoom out")
        self.actual_size_action = self._action("&Actual Size", lambda: self.canvas.set_zoom(1.0), ["Ctrl+1"], "",
                                               "Show the level at 100%")
        self.snap_action = self._action("&Snap to Grid", self.context.snapper.toggle, ["G"], "snap",
                                        "Snap to the grid (hold Ctrl while dragging to suspend)")
        self.snap_action.setCheckable(True)
        self.snap_action.setChecked(self.context.snapper.enabled)
        self.context.snapper.enabled_changed.connect(self.snap_action.setChecked)
        self.snap_objects_action = self._action("Snap to &Objects", self.context.snapper.toggle_objects, ["Shift+G"],
                                                "", "Snap to other objects' nodes, corners and centres")
        self.snap_objects_action.setCheckable(True)
        self.snap_objects_action.setChecked(self.context.snapper.objects_enabled)
        self.context.snapper.objects_enabled_changed.connect(self.snap_objects_action.setChecked)
        self.show_hulls_action = self._action("Show &Hulls", self._toggle_hulls, ["H"], "",
                                              f"Draw every object's and the level's {LEGEND}")
        self.show_hulls_action.setCheckable(True)

        self.tool_group = QActionGroup(self)
        self.tool_group.setExclusive(True)
        for tool in self.tools:
            a = QAction(_icon(tool.icon_name), tool.name, self)
            a.setCheckable(True)
            if tool.shortcut:
                a.setShortcut(QKeySequence(tool.shortcut))
                a.setToolTip(f"{tool.name} ({tool.shortcut})")
            a.setStatusTip(tool.hint)
            a.triggered.connect(lambda checked=False, t=tool: self.set_tool(t))
            self.tool_group.addAction(a)
            self.addAction(a)
            self.tool_actions[tool] = a

    def _build_docks(self) -> None:
        self.inspector = Inspector(self.context, self)
        self.inspector_dock = self._dock("Properties", "propertiesDock", self.inspector, Qt.RightDockWidgetArea)
        self.object_list = ObjectList(self.document, self.selection, self)
        self.object_list.frame_requested.connect(self.frame_object)
        self.objects_dock = self._dock("Objects", "objectsDock", self.object_list, Qt.RightDockWidgetArea)
        self.undo_view = QUndoView(self.undo_stack)
        self.undo_view.setEmptyLabel("<level as opened>")
        self.history_dock = self._dock("History", "historyDock", self.undo_view, Qt.RightDockWidgetArea)
        self.tabifyDockWidget(self.objects_dock, self.history_dock)
        self.objects_dock.raise_()
        self.resizeDocks([self.inspector_dock], [300], Qt.Horizontal)
        self._build_checks()

    def _build_checks(self) -> None:
        """Validation and hulls in the background after edits: the Problems dock and the hull drawing."""
        self.checks = ValidationRunner(self.document, self)
        self.problems_dock = ProblemsDock(self.context, self.canvas, self)
        # The right-hand docks run the full height; Problems sits under the canvas only (as in Tiled and Godot).
        self.setCorner(Qt.BottomRightCorner, Qt.RightDockWidgetArea)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.problems_dock)
        self.resizeDocks([self.problems_dock], [120], Qt.Vertical)
        self.resizeDocks([self.inspector_dock, self.objects_dock], [330, 400], Qt.Vertical)
        self.checks.problems_ready.connect(self.problems_dock.set_problems)
        self.hulls_item = HullsItem()
        self.hulls_item.setVisible(False)
        self.scene.addItem(self.hulls_item)
        self.checks.hulls_ready.connect(self.hulls_item.set_hulls)

    def _toggle_hulls(self) -> None:
        on = self.show_hulls_action.isChecked()
        self.hulls_item.setVisible(on)
        self.checks.set_hulls_wanted(on)
        self.statusBar().showMessage(f"Showing {LEGEND}" if on else "Hulls hidden", 6000)

    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addActions([self.save_action, self.save_as_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        edit = bar.addMenu("&Edit")
        edit.addActions([self.undo_action, self.redo_action])
        edit.addSeparator()
        edit.addActions([self.copy_action, self.paste_action, self.duplicate_action, self.delete_action])
        edit.addSeparator()
        edit.addAction(self.select_all_action)
        edit.addSeparator()
        edit.addAction(self.preferences_action)

        view = bar.addMenu("&View")
        view.addActions([self.fit_action, self.zoom_in_action, self.zoom_out_action, self.actual_size_action])
        view.addSeparator()
        view.addAction(self.snap_action)
        view.addAction(self.snap_objects_action)
        view.addSeparator()
        view.addAction(self.show_hulls_action)
        view.addSeparator()
        for dock in (self.inspector_dock, self.objects_dock, self.history_dock, self.problems_dock):
            view.addAction(dock.toggleViewAction())

        tools = bar.addMenu("&Tools")
        tools.addActions(list(self.tool_actions.values()))

    def _build_toolbars(self) -> None:
        main = QToolBar("Main", self)
        main.setObjectName("mainToolBar")
        main.addActions([self.new_action, self.open_action, self.save_action])
        main.addSeparator()
        main.addActions([self.undo_action, self.redo_action])
        main.addSeparator()
        main.addActions([self.snap_action, self.fit_action])
        self.addToolBar(Qt.TopToolBarArea, main)
        self.tools_toolbar = QToolBar("Tools", self)
        self.tools_toolbar.setObjectName("toolsToolBar")
        self.tools_toolbar.addActions(list(self.tool_actions.values()))
        self.addToolBar(Qt.LeftToolBarArea, self.tools_toolbar)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.hint_label = QLabel()
        self.hint_label.setObjectName("toolHint")
        self.position_label = QLabel()
        self.position_label.setObjectName("cursorPosition")
        self.position_label.setMinimumWidth(150)
        self.zoom_label = QLabel()
        self.zoom_label.setObjectName("zoomLevel")
        self.zoom_label.setMinimumWidth(60)
        bar.addWidget(self.hint_label, 1)
        bar.addPermanentWidget(self.position_label)
        bar.addPermanentWidget(self.zoom_label)
        self.canvas.cursor_moved.connect(self._show_position)
        self.canvas.zoom_changed.connect(self._show_zoom)
        self._show_zoom(self.canvas.zoom())

    def _show_position(self, pos: QPointF) -> None:
        self.position_label.setText(f"x {pos.x():.0f}, y {pos.y():.0f}")

    def _show_zoom(self, zoom: float) -> None:
        self.zoom_label.setText(f"{zoom * 100:.0f}%")

    # -- tools --------------------------------------------------------------------
    def set_tool(self, tool: Tool) -> None:
        """Make ``tool`` the active tool (its toolbar button and menu entry get checked)."""
        if tool is self.tool:
            return
        if self.tool is not None:
            self.tool.deactivate()
            self.tool.hint_changed.disconnect(self.hint_label.setText)
        self.tool = tool
        self.scene.tool = tool
        tool.hint_changed.connect(self.hint_label.setText)
        self.tool_actions[tool].setChecked(True)
        self.hint_label.setText(tool.hint)
        self.canvas.viewport().setCursor(tool.cursor)
        tool.activate()
        self.canvas.setFocus(Qt.OtherFocusReason)

    def tool_named(self, name: str) -> Tool:
        return next(t for t in self.tools if t.name == name or type(t).__name__ == name)

    # -- questions (tests answer these) ---------------------------------------------
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

    # -- files ---------------------------------------------------------------------
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
        self._set_level(Level(), None)
        return True

    def new_level_at(self, path: str) -> None:
        """Start a new level that Save will write to ``path`` without asking (the file need not exist)."""
        name = os.path.splitext(os.path.basename(path))[0] or "Untitled"
        self._set_level(Level(name=name), os.path.abspath(path))

    def restore_level(self, level: Level, path: Optional[str]) -> None:
        """Show a recovered level as unsaved changes to ``path``: the file is written only when the user saves."""
        self._set_level(level, path)
        self.undo_stack.resetClean()

    def show_preferences(self) -> None:
        from editor.panels.preferences_dialog import PreferencesDialog

        if PreferencesDialog(self.settings, self, self.autosave.folder).exec():
            for widget in QApplication.topLevelWidgets():
                if isinstance(widget, MainWindow):
                    widget.autosave.apply_settings()

    def open_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        path = self.ask_open_path()
        return bool(path) and self.open_file(path, ask=False)

    def open_file(self, path: str, ask: bool = True) -> bool:
        """Open the level at ``path``; on failure the open level stays as it was and the problems are shown."""
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
        self._set_level(level, os.path.abspath(path))
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

    def _set_level(self, level: Level, path: Optional[str]) -> None:
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

    def closeEvent(self, event) -> None:
        if self.maybe_save():
            if self.tool is not None:
                self.tool.deactivate()
                self.tool = None
                self.scene.tool = None
            self.autosave.close()
            self.checks.close()
            event.accept()
        else:
            event.ignore()

    # -- recent files ----------------------------------------------------------------
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

    # -- drag and drop -------------------------------------------------------------
    @staticmethod
    def _dropped_level(mime) -> Optional[str]:
        if not mime.hasUrls():
            return None
        for url in mime.urls():
            if url.isLocalFile() and url.toLocalFile().lower().endswith(".json"):
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

    # -- edit ----------------------------------------------------------------------
    def _update_edit_actions(self) -> None:
        has_objects = any(i != Selection.PLAYER for i in self.selection.ids())
        for a in (self.copy_action, self.duplicate_action, self.delete_action):
            a.setEnabled(has_objects or a is self.delete_action)

    def select_all(self) -> None:
        self.selection.set(o.id for o in self.document.objects)

    def delete_key(self) -> None:
        """Delete: the active tool may use it first (the node tool deletes a node), else the selection goes."""
        if self.canvas.hasFocus() and self.tool is not None and self.tool.key_pressed(Qt.Key_Delete, Qt.NoModifier):
            return
        self.delete_selection()

    def delete_selection(self) -> None:
        ids = [i for i in self.selection.ids() if i != Selection.PLAYER and i in self.document]
        if ids:
            self.context.push(RemoveObjectsCommand(self.document, ids))

    def copy(self) -> None:
        objects = self.selection.objects()
        if not objects:
            return
        QApplication.clipboard().setText(objects_to_text(objects))
        self.statusBar().showMessage(f"Copied {plural(len(objects), 'object')}", 3000)

    def paste(self) -> None:
        try:
            objects = list(objects_from_text(QApplication.clipboard().text()))
        except ValueError as e:
            self.statusBar().showMessage(f"Nothing pasted: {e}", 4000)
            return
        if not objects:
            return
        dx, dy = self._paste_offset(objects)
        self._add_copies(objects, dx, dy, "Paste")

    def duplicate(self) -> None:
        objects = self.selection.objects()
        if not objects:
            return
        g = self.document.level.grid
        self._add_copies(objects, g, g, "Duplicate")

    def _add_copies(self, objects, dx: float, dy: float, verb: str) -> None:
        taken: set[str] = set()
        copies = []
        for obj in objects:
            new_id = obj.id
            if new_id in self.document or new_id in taken or new_id == Selection.PLAYER:
                new_id = self.document.new_id(id_prefix(obj.kind), taken)
            taken.add(new_id)
            copies.append(obj.with_id(new_id).moved(dx, dy))
        self.context.push(AddObjectsCommand(self.document, copies, f"{verb} {plural(len(copies), 'object')}"))
        self.selection.set(c.id for c in copies)

    def _paste_offset(self, objects) -> tuple[float, float]:
        """Where pasted objects go: in view; one grid step off when they would land exactly on their originals."""
        boxes = [o.bounds() for o in objects]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        g = self.document.level.grid
        visible = self.canvas.visible_rect()
        centre = QPointF((x0 + x1) / 2, (y0 + y1) / 2)
        dx = dy = 0.0
        if not visible.contains(centre):
            c = visible.center()
            dx = round((c.x() - centre.x()) / g) * g
            dy = round((c.y() - centre.y()) / g) * g
        existing = {self._geometry_key(o) for o in self.document.objects}
        for _ in range(100):
            if not any(self._geometry_key(o.moved(dx, dy)) in existing for o in objects):
                break
            dx += g
            dy += g
        return dx, dy

    @staticmethod
    def _geometry_key(obj):
        return obj.with_id("")

    def frame_object(self, object_id: str) -> None:
        """Centre the canvas on an object and zoom so it is seen whole (object list double-click)."""
        if object_id == Selection.PLAYER:
            box = self.document.player.bounds()
        else:
            obj = self.document.get(object_id)
            if obj is None:
                return
            box = obj.bounds()
        from PySide6.QtCore import QRectF
        rect = QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1])
        self.canvas.frame_rect(rect, max_zoom=max(self.canvas.zoom(), 2.0))
