"""The canvas's right-click menus: one on objects, one on the empty canvas.

On an object: Cut, Copy, Paste, Duplicate, Delete; the flips and quarter
turns; Raise, Lower, to the top and to the bottom of its layer; Frame
Selection; Properties (brings the inspector forward). A right-click on an
object that is not selected selects it first, alone (as in Tiled and Godot);
on a selected one it keeps the whole selection. On the empty canvas: Paste
Here (the clipboard's objects centred where the click was), Select All and
Fit Level. The Menu key (Shift+F10) opens the object menu over the selection.

The menus reuse the window's own actions, so they show the same keys and are
enabled exactly when the Edit menu's are. No menu pops up when the active tool
uses the right button for itself (the tile brush erases with it; the wall tool
ends the wall being drawn with it), nor during a play-test. The canvas itself
is not touched: the menu is installed from outside with Qt's custom context
menu policy.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from level_editor.editor.documents.clipboard import CLIPBOARD_FORMAT
from level_editor.editor.support.guard import guarded
from level_editor.editor.tools.select_tool import PICK_PIXELS
from level_editor.editor.tools.tile_brush_tool import TileBrushTool
from level_editor.editor.tools.wall_tool import WallTool


def tool_uses_right_button(tool) -> bool:
    """Whether a right press means something to ``tool`` now (then it gets the press and no menu shows).

    A tool can say so itself with a ``uses_right_button()`` method; the tile
    brush always does (it erases), the wall tool while a wall is being drawn
    (the press ends it).
    """
    if tool is None:
        return False
    uses = getattr(tool, "uses_right_button", None)
    if callable(uses):
        return bool(uses())
    if isinstance(tool, TileBrushTool):
        return True
    if isinstance(tool, WallTool):
        return bool(tool.nodes)
    return False


class CanvasContextMenu(QObject):
    """Right-click menus for the canvas of ``window`` (a :class:`~level_editor.editor.window.main_window.MainWindow`).

    ``menu`` is the menu last shown (for tests and screenshots); ``None`` before the first.
    """

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.menu: QMenu | None = None
        self._tool_took_press = False
        canvas = window.canvas
        canvas.setContextMenuPolicy(Qt.CustomContextMenu)
        canvas.customContextMenuRequested.connect(self._requested)
        # the press reaches the filter before the tool: whether the tool wanted it is decided by its state then
        canvas.viewport().installEventFilter(self)
        # the Menu key (or Shift+F10) reaches the canvas itself
        canvas.installEventFilter(self)

    @guarded("watching the right mouse button", default=False)
    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if kind == QEvent.MouseButtonPress and event.button() == Qt.RightButton:
            self._tool_took_press = tool_uses_right_button(self.window.tool)
        elif kind == QEvent.ContextMenu and event.reason() == QContextMenuEvent.Keyboard and \
                watched is self.window.canvas:
            return self._keyboard_menu()
        return False

    def _keyboard_menu(self) -> bool:
        """The Menu key: the object menu over the selection when it is in view, else the canvas menu (Qt's)."""
        w = self.window
        rect = w.selection_rect()
        if w.context.read_only or rect is None or not w.canvas.visible_rect().contains(rect.center()):
            return False
        if self.menu is not None:
            self.menu.close()
        self.menu = self.object_menu()
        self.menu.popup(w.canvas.viewport().mapToGlobal(w.canvas.mapFromScene(rect.center())))
        return True

    @guarded("opening the canvas menu")
    def _requested(self, pixel: QPoint) -> None:
        took, self._tool_took_press = self._tool_took_press, False
        if took or self.window.context.read_only:
            return
        self.popup(pixel)

    def popup(self, pixel: QPoint) -> QMenu:
        """Show the menu for the canvas's viewport pixel ``pixel`` (selecting the object there first)."""
        w = self.window
        at = w.canvas.mapToScene(pixel)
        hit = w.scene.object_at(at, PICK_PIXELS * w.context.scale())
        if hit is not None:
            if hit not in w.selection:
                w.selection.set([hit])
            menu = self.object_menu()
        else:
            menu = self.empty_canvas_menu(at)
        if self.menu is not None:
            self.menu.close()
        self.menu = menu
        menu.popup(w.canvas.viewport().mapToGlobal(pixel))
        return menu

    def object_menu(self) -> QMenu:
        """The menu for the selection."""
        w = self.window
        menu = self._new_menu("objectMenu")
        menu.addActions([w.cut_action, w.copy_action, w.paste_action, w.duplicate_action, w.delete_action])
        menu.addSeparator()
        menu.addActions(w.arrange_actions())
        menu.addSeparator()
        menu.addActions(w.order_actions())
        menu.addSeparator()
        menu.addAction(w.frame_action)
        menu.addAction(w.properties_action)
        return menu

    def empty_canvas_menu(self, at: QPointF) -> QMenu:
        """The menu for the empty canvas at level point ``at``."""
        w = self.window
        menu = self._new_menu("canvasMenu")
        paste_here = QAction(w.paste_action.icon(), "Paste &Here", menu)
        paste_here.setStatusTip("Paste the objects on the clipboard, centred where you clicked")
        paste_here.setEnabled(CLIPBOARD_FORMAT in (QApplication.clipboard().text() or "")[:200])
        point = QPointF(at)
        paste_here.triggered.connect(guarded("pasting here")(lambda checked=False: w.paste_here(point)))
        menu.addAction(paste_here)
        menu.addSeparator()
        menu.addAction(w.select_all_action)
        menu.addAction(w.fit_action)
        return menu

    def _new_menu(self, name: str) -> QMenu:
        menu = QMenu(self.window.canvas)
        menu.setObjectName(name)
        menu.setAttribute(Qt.WA_DeleteOnClose)
        menu.destroyed.connect(lambda *_: self._forget(menu))
        return menu

    def _forget(self, menu: QMenu) -> None:
        if self.menu is menu:
            self.menu = None
