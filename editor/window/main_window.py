"""MainWindow: the editor's frame: canvas, tools, docks, menus and the actions that connect them."""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QPointF, QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QMenu,
    QToolBar,
    QUndoView,
)

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Level
from level_editor.editor.documents.autosave import Autosave
from level_editor.editor.window.edit_actions import EditActions
from level_editor.editor.documents.files import FileActions
from level_editor.editor.canvas.canvas import Canvas, show_grid_action
from level_editor.editor.support import error_reporter
from level_editor.editor.support.guard import guarded
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.window.context_menu import CanvasContextMenu
from level_editor.editor.window.help import HelpMenu
from level_editor.editor.panels.inspector import Inspector
from level_editor.editor.panels.layers_panel import LayersPanel
from level_editor.editor.items.hulls_item import LEGEND, HullsItem
from level_editor.editor.window.jump_arcs import JumpArcs
from level_editor.editor.window.play_paths import PlayPaths
from level_editor.editor.panels.object_list import ObjectList
from level_editor.editor.playtest.host import PlayHost
from level_editor.editor.playtest.play_mode import PlayMode
from level_editor.editor.panels.problems_dock import ProblemsDock
from level_editor.editor.panels.tilesets_dock import TilesetsPanel
from level_editor.editor.documents.reference_images import ReferenceImageActions
from level_editor.editor.documents.tiled import TiledActions
from level_editor.editor.support.resources import icon
from level_editor.editor.canvas.scene import LevelScene, makes_items_ahead
from level_editor.editor.canvas.snapping import snap_to_pixels_action
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.window.status_bar import StatusBar
from level_editor.core.level.transform import (
    FLIP_HORIZONTAL, FLIP_VERTICAL, ROTATE_CLOCKWISE, ROTATE_COUNTERCLOCKWISE,
)
from level_editor.editor.tools.registry import TOOL_CLASSES
from level_editor.editor.tools.tile_brush_tool import TileBrushTool
from level_editor.editor.tools.tool import Tool
from level_editor.editor.tools.undo_actions import GestureUndo
from level_editor.editor.support import typed_edits
from level_editor.editor.work import long_task
from level_editor.editor.work.validation_runner import ValidationRunner

#: The width of the right-hand docks (Properties, Layers, Objects) in a new window (more if a larger font needs it).
RIGHT_DOCKS_WIDTH = 330
#: The heights of Properties, Layers and Objects in a new window, shared out in these proportions.
RIGHT_DOCKS_HEIGHTS = (400, 110, 260)


def _icon(name: str) -> QIcon:
    """Icon ``name`` from the package (a missing one raises); ``""`` is an action without an icon."""
    return icon(name)


class MainWindow(TiledActions, ReferenceImageActions, FileActions, EditActions, QMainWindow):
    """One open level: the canvas in the centre, tools on the toolbar, docks around it.

    Its file handling is in :class:`~level_editor.editor.documents.files.FileActions` (new, open, save,
    recent files and the questions they ask), its edit actions in
    :class:`~level_editor.editor.window.edit_actions.EditActions` (copy, paste, duplicate, delete),
    and adding reference pictures (the menu entry and dropped PNGs and JPEGs) in
    :class:`~level_editor.editor.documents.reference_images.ReferenceImageActions`.
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

        # a value typed into a panel is applied before any click elsewhere or shortcut acts (typed_edits.py)
        typed_edits.install()
        self.tools: list[Tool] = [cls(self.context, self) for cls in TOOL_CLASSES]
        self.tool: Optional[Tool] = None
        self.tool_actions: dict[Tool, QAction] = {}

        self._build_actions()
        self._build_docks()
        self._build_menus()
        self._build_types_editor()
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
        error_reporter.install(self)
        # F5 play-test: its own actions, Play menu and toolbar buttons (editor/playtest)
        self.play_mode = PlayMode(self._play_host())
        self.play_mode.started.connect(self.play_paths.stop)  # the play-test moves the objects itself
        # right-click menus on the canvas, and the Help menu last in the menu bar (editor/context_menu, editor/help)
        self.canvas_menu = CanvasContextMenu(self)
        self.help = HelpMenu(self)

    def _play_host(self) -> PlayHost:
        """What the play-test may use of this window; every action but zoom and quit is locked while playing."""
        return PlayHost(
            window=self,
            context=self.context,
            canvas=self.canvas,
            checks=self.checks,
            locked_actions=(
                self.new_action, self.open_action, self.save_action, self.save_as_action,
                self.export_action, self.import_action,
                self.undo_action, self.redo_action, self.copy_action, self.paste_action, self.duplicate_action,
                self.delete_action, self.select_all_action, self.preferences_action, self.add_image_action,
                self.cut_action, self.frame_action, self.properties_action,
                *self.arrange_actions(), *self.order_actions(),
                self.types_action,
                self.fit_action, self.snap_action, self.snap_objects_action, self.show_hulls_action,
                self.show_grid_action, self.jump_arcs.action,
                *self.tool_actions.values(),
            ),
            docks=(self.inspector_dock, self.layers_dock, self.objects_dock, self.history_dock, self.problems_dock,
                   self.tilesets_dock),
            toolbar=self.main_toolbar,
            menu_bar=self.menuBar(),
            show_status=self.statusBar().showMessage,
            # looked up when called: show_error is the one place tests (and the benchmark) answer errors
            show_error=lambda title, text: self.show_error(title, text),
            level_path=lambda: self.path,
        )

    def set_level(self, level: Level, path: Optional[str] = None) -> None:
        self.drop_pending_typing()  # before the scene makes the next level's items (files.py)
        # pictures' paths are relative to the level file: the scene reads them from its folder
        folder = os.path.dirname(os.path.abspath(path)) if path else None
        self.scene.set_base_folder(folder)
        # a big level's items are made a slice at a time first, the window answering in between
        told = []

        def progress(done: int, total: int) -> None:
            told.append(done)
            self.statusBar().showMessage(f"Opening: {done:,} of {total:,} objects shown…")

        if makes_items_ahead(level):
            # its check and its picture are begun beside the window before the window makes its items
            self.checks.check_ahead(level, folder)
        self.scene.prepare(level, progress)
        super().set_level(level, path)
        if told:
            self.statusBar().clearMessage()  # the level is open: its progress is over

    def _save_to(self, path: str) -> bool:
        saved = super()._save_to(path)
        if saved:
            # saved elsewhere (Save As): pictures are now looked for next to the new file, as the game will
            self.scene.set_base_folder(os.path.dirname(os.path.abspath(self.path)))
        return saved

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
        # an error in the action is told in words (editor/support/error_reporter.py), never lost inside Qt
        a.triggered.connect(guarded(text.replace("&", "").rstrip("…"), explicit=True)(lambda checked=False: slot()))
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        self.new_action = self._action("&New", self.new_level, ["Ctrl+N"], "new", "Start a new level")
        self.open_action = self._action("&Open…", self.open_dialog, ["Ctrl+O"], "open", "Open a level file")
        self.save_action = self._action("&Save", self.save, ["Ctrl+S"], "save", "Save the level")
        self.save_as_action = self._action("Save &As…", self.save_as, ["Ctrl+Shift+S"], "save-as",
                                           "Save the level under a new name")
        self.export_action = self._action("&Export As…", self.export_as, ["Ctrl+E"], "",
                                          "Write the level as a Tiled map (TMX or TMJ) or a copy of its JSON")
        self.import_action = self._action("&Import Tiled Map…", self.import_dialog, ["Ctrl+I"], "",
                                          "Open a Tiled map (TMX or TMJ) as a new level")
        self.quit_action = self._action("&Quit", self.close, ["Ctrl+Q"], "", "Close the editor")

        self.undo_action = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.undo_action.setIcon(_icon("undo"))
        self.redo_action = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo_action.setIcon(_icon("redo"))
        self.addAction(self.undo_action)
        self.addAction(self.redo_action)
        # Ctrl+Z, the menu and the toolbar act on the active tool's gesture first (editor/tools/undo_actions.py)
        self.gesture_undo = GestureUndo(self.undo_action, self.redo_action, self.undo_stack, lambda: self.tool,
                                        self.tools, locked=lambda: self.context.read_only, scene=self.scene)
        self.copy_action = self._action("&Copy", self.copy, ["Ctrl+C"], "copy", "Copy the selected objects")
        self.paste_action = self._action("&Paste", self.paste, ["Ctrl+V"], "paste", "Paste objects")
        self.duplicate_action = self._action("D&uplicate", self.duplicate, ["Ctrl+D"], "duplicate",
                                             "Duplicate the selected objects")
        self.delete_action = self._action("&Delete", self.delete_key, ["Delete"], "delete",
                                          "Delete the selected objects")
        self.select_all_action = self._action("Select &All", self.select_all, ["Ctrl+A"], "",
                                              "Select every object")
        self._build_arrange_actions()
        self.preferences_action = self._action("&Preferences…", self.show_preferences, ["Ctrl+,"], "",
                                               "Autosave and other settings")
        self.preferences_action.setMenuRole(QAction.PreferencesRole)
        self.add_image_action = self._action("Add &Reference Image…", self.add_reference_image_dialog, [],
                                             "add-image", "Add a PNG or JPEG picture to trace over")

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
        self.snap_pixels_action = snap_to_pixels_action(self.context.snapper, self.settings, self)
        self.snap_objects_action.setChecked(self.context.snapper.objects_enabled)
        self.context.snapper.objects_enabled_changed.connect(self.snap_objects_action.setChecked)
        self.show_hulls_action = self._action("Show &Hulls", self._toggle_hulls, ["H"], "",
                                              f"Draw every object's and the level's {LEGEND}")
        self.show_hulls_action.setCheckable(True)
        self.show_grid_action = show_grid_action(self.canvas, self.settings, self)
        self.addAction(self.show_grid_action)

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
        self._build_tilesets_dock()
        self.objects_dock.raise_()
        # wider with a larger font: the Tilesets dock, the widest content of the column, never scrolls sideways
        width = max(RIGHT_DOCKS_WIDTH, self.tilesets_panel.fitting_width())
        self.resizeDocks([self.inspector_dock], [width], Qt.Horizontal)
        self._build_layers_dock()
        self._build_checks()

    def _build_tilesets_dock(self) -> None:
        """The Tilesets dock, a tab beside Objects and History; picking tiles there takes up the tile brush."""
        self.tilesets_panel = TilesetsPanel(self.context, self)
        self.tilesets_dock = self._dock("Tilesets", "tilesetsDock", self.tilesets_panel, Qt.RightDockWidgetArea)
        self.tabifyDockWidget(self.history_dock, self.tilesets_dock)
        self.tilesets_panel.tiles_picked.connect(self._tiles_picked)
        self.context.tile_pick_changed.connect(self._update_edit_actions)

    def _tiles_picked(self) -> None:
        # a tool that uses the pick itself (placing sprites) keeps it; any other gives way to the brush
        if getattr(self.tool, "uses_tile_pick", False):
            return
        self.set_tool(next(t for t in self.tools if isinstance(t, TileBrushTool)))

    def _update_edit_actions(self) -> None:
        super()._update_edit_actions()
        if isinstance(self.tool, TileBrushTool) and self.tool.picked_art() is not None:
            for a in self.arrange_actions():  # X, Y, Z, Shift+Z flip and turn the pick
                a.setEnabled(True)

    def transform_selection(self, symmetry) -> None:
        """X, Y, Z and Shift+Z flip and turn the picked tiles while the tile brush paints them, else the
        selection."""
        if isinstance(self.tool, TileBrushTool):
            how = {FLIP_HORIZONTAL: "x", FLIP_VERTICAL: "y", ROTATE_CLOCKWISE: "cw",
                   ROTATE_COUNTERCLOCKWISE: "ccw"}.get(symmetry)
            if how is not None and self.tool.transform_pick(how):
                return
        super().transform_selection(symmetry)

    def _build_layers_dock(self) -> None:
        """The Layers dock (as Tiled's), under the properties; its actions also make the Layer menu."""
        self.layers_panel = LayersPanel(self.context, self)
        self.layers_dock = QDockWidget("Layers", self)
        self.layers_dock.setObjectName("layersDock")
        self.layers_dock.setWidget(self.layers_panel)
        self.splitDockWidget(self.inspector_dock, self.layers_dock, Qt.Vertical)

    def _build_checks(self) -> None:
        """Validation and hulls in the background after edits: the Problems dock and the hull drawing."""
        self.checks = ValidationRunner(self.document, self,
                                       folder=lambda: os.path.dirname(self.path) if self.path else None)
        self.problems_dock = ProblemsDock(self.context, self.canvas, self)
        # The right-hand docks run the full height; Problems sits under the canvas only (as in Tiled and Godot).
        self.setCorner(Qt.BottomRightCorner, Qt.RightDockWidgetArea)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.problems_dock)
        self.resizeDocks([self.problems_dock], [120], Qt.Vertical)
        # Properties gets the room an object's fields and custom properties take, so they show whole at
        # 1280 x 800; Layers the handful of rows a level has; Objects scrolls through the rest.
        self.resizeDocks([self.inspector_dock, self.layers_dock, self.objects_dock], list(RIGHT_DOCKS_HEIGHTS),
                         Qt.Vertical)
        self.checks.problems_ready.connect(self.problems_dock.set_problems)
        self.hulls_item = mark_editor_only(HullsItem())  # hidden while playing
        self.hulls_item.setVisible(False)
        self.scene.addItem(self.hulls_item)
        self.checks.hulls_ready.connect(self.hulls_item.set_hulls)
        self.jump_arcs = JumpArcs(self.canvas, self.scene, self.context,
                                  lambda text: self.statusBar().showMessage(text, 6000), self)
        self.addAction(self.jump_arcs.action)
        self.play_paths = PlayPaths(self.scene, self.document, parent=self)

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
        file_menu.addActions([self.import_action, self.export_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        edit = bar.addMenu("&Edit")
        edit.addActions([self.undo_action, self.redo_action])
        edit.addSeparator()
        edit.addActions([self.cut_action, self.copy_action, self.paste_action, self.duplicate_action,
                         self.delete_action])
        edit.addSeparator()
        edit.addAction(self.select_all_action)
        edit.addSeparator()
        edit.addActions(self.arrange_actions())
        edit.addSeparator()
        edit.addActions(self.order_actions())
        self.move_to_layer_menu = edit.addMenu("Move Selection to &Layer")
        self.move_to_layer_menu.aboutToShow.connect(
            lambda: self.layers_panel.fill_move_menu(self.move_to_layer_menu))
        edit.addSeparator()
        edit.addAction(self.add_image_action)
        edit.addAction(self.tilesets_panel.add_action)
        edit.addSeparator()
        edit.addAction(self.preferences_action)

        view = bar.addMenu("&View")
        view.addActions([self.fit_action, self.frame_action, self.zoom_in_action, self.zoom_out_action,
                         self.actual_size_action])
        view.addSeparator()
        view.addAction(self.show_grid_action)
        view.addAction(self.snap_action)
        view.addAction(self.snap_objects_action)
        view.addAction(self.snap_pixels_action)
        view.addSeparator()
        view.addAction(self.show_hulls_action)
        view.addAction(self.jump_arcs.action)
        view.addAction(self.play_paths.action)
        view.addSeparator()
        for dock in (self.inspector_dock, self.layers_dock, self.objects_dock, self.history_dock, self.problems_dock,
                     self.tilesets_dock):
            view.addAction(dock.toggleViewAction())

        layer = bar.addMenu("&Layer")
        panel = self.layers_panel
        layer.addActions([panel.add_action, panel.delete_action, panel.rename_action])
        layer.addSeparator()
        layer.addActions([panel.raise_action, panel.lower_action])
        layer.addSeparator()
        layer.addAction(panel.move_selection_action)

        tools = bar.addMenu("&Tools")
        tools.addActions(list(self.tool_actions.values()))

    def _build_types_editor(self) -> None:
        """Edit > Object Types…: the level's types, their colours and default properties (a non-modal dialog)."""
        self.types_editor = None
        self.types_action = self._action("Object &Types…", self.show_types_editor, [], "",
                                         "The level's object types: names, colours and default properties")
        edit = next(m for m in self.preferences_action.associatedObjects() if isinstance(m, QMenu))
        edit.insertAction(self.preferences_action, self.types_action)
        edit.insertSeparator(self.preferences_action)

    def show_types_editor(self):
        """Show the Object Types editor (made on first use) and return it."""
        from level_editor.editor.panels.types_editor import TypesEditor

        if self.types_editor is None:
            self.types_editor = TypesEditor(self.context, self)
        self.types_editor.show()
        self.types_editor.raise_()
        self.types_editor.activateWindow()
        return self.types_editor

    def _build_toolbars(self) -> None:
        main = self.main_toolbar = QToolBar("Main", self)
        main.setObjectName("mainToolBar")
        main.addActions([self.new_action, self.open_action, self.save_action])
        main.addSeparator()
        main.addActions([self.undo_action, self.redo_action])
        main.addSeparator()
        main.addActions([self.snap_action, self.fit_action])
        main.addSeparator()
        main.addActions(self.arrange_actions())
        main.addSeparator()
        main.addAction(self.add_image_action)
        self.addToolBar(Qt.TopToolBarArea, main)
        # Tiled's Tool Options: what the active tool offers (the marker tool's type), empty for the others
        self.tool_options_toolbar = QToolBar("Tool Options", self)
        self.tool_options_toolbar.setObjectName("toolOptionsToolBar")
        self.tool_options: dict[Tool, QAction] = {}
        for tool in self.tools:
            options = getattr(tool, "options_widget", None)
            if options is not None:
                self.tool_options[tool] = self.tool_options_toolbar.addWidget(options())
                self.tool_options[tool].setVisible(False)
        self.addToolBar(Qt.TopToolBarArea, self.tool_options_toolbar)
        self.tools_toolbar = QToolBar("Tools", self)
        self.tools_toolbar.setObjectName("toolsToolBar")
        self.tools_toolbar.addActions(list(self.tool_actions.values()))
        self.addToolBar(Qt.LeftToolBarArea, self.tools_toolbar)

    def _build_status_bar(self) -> None:
        # messages elide beside the tool hint, never over the position and zoom (editor/window/status_bar.py)
        bar = StatusBar(self)
        self.setStatusBar(bar)
        self.hint_label, self.position_label, self.zoom_label = bar.hint_label, bar.position_label, bar.zoom_label
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
        for owner, options in self.tool_options.items():
            options.setVisible(owner is tool)
        self.hint_label.setText(tool.current_hint())
        self.canvas.viewport().setCursor(tool.cursor)
        tool.activate()
        self._update_edit_actions()
        self.canvas.setFocus(Qt.OtherFocusReason)

    def tool_named(self, name: str) -> Tool:
        return next(t for t in self.tools if t.name == name or type(t).__name__ == name)

    def show_preferences(self) -> None:
        from level_editor.editor.panels.preferences_dialog import PreferencesDialog

        if PreferencesDialog(self.settings, self, self.autosave.folder).exec():
            for widget in QApplication.topLevelWidgets():
                if isinstance(widget, MainWindow):
                    widget.autosave.apply_settings()

    @guarded("closing the window", cleanup=lambda window, event: event.ignore())  # an error keeps it open
    def closeEvent(self, event) -> None:
        if long_task.cancel(close=self):  # a map being read: it stops, the level stays as it was, then this closes
            event.ignore()
            return
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
