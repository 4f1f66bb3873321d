"""EditorSnapshot: the editing state a play-test sets aside and gives back untouched."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QDockWidget


class EditorSnapshot:
    """Everything about the editor window that play mode changes, taken just before it does.

    :meth:`lock` makes the window read-only: the editor context drops any
    command pushed, every action except ``keep`` is disabled (so no shortcut
    can even try), the docks are disabled, the active tool stops receiving events (it is detached, not
    deactivated, so a wall being drawn is still there afterwards), drops are
    refused and the editable spawn marker is hidden. :meth:`restore` puts it
    all back: view (scene rectangle, zoom, scroll), selection, tool, actions,
    docks.
    """

    def __init__(self, window, keep=()):
        self.window = window
        canvas = window.canvas
        self.transform = canvas.transform()
        self.scroll = (canvas.horizontalScrollBar().value(), canvas.verticalScrollBar().value())
        view_rect = canvas.sceneRect()
        self.view_rect = None if view_rect == window.scene.sceneRect() else view_rect
        self.selection = window.selection.ids()
        self.scene_tool = window.scene.tool
        keep = set(keep)
        self.actions = {a: a.isEnabled() for a in window.actions() if a not in keep}
        self.docks = {d: d.isEnabled() for d in window.findChildren(QDockWidget)}
        self.player_visible = window.scene.player_item.isVisible()
        self.accept_drops = window.acceptDrops()
        self.cursor = canvas.viewport().cursor()
        self.read_only = window.context.read_only

    def lock(self) -> None:
        w = self.window
        for a in self.actions:
            a.setEnabled(False)
        for d in self.docks:
            d.setEnabled(False)
        w.scene.release_held_buttons()  # a drag under way ends here, before the canvas is taken away
        w.context.read_only = True
        w.scene.tool = None
        w.scene.player_item.setVisible(False)
        w.setAcceptDrops(False)
        w.canvas.viewport().setCursor(Qt.CrossCursor)
        w.canvas.setFocus(Qt.OtherFocusReason)

    def restore(self) -> None:
        w = self.window
        canvas = w.canvas
        # a null rectangle makes the view follow the scene's rectangle again
        canvas.setSceneRect(self.view_rect if self.view_rect is not None else QRectF())
        zoom_before = canvas.zoom()
        canvas.setTransform(self.transform)
        if canvas.zoom() != zoom_before:
            canvas.zoom_changed.emit(canvas.zoom())
        canvas.horizontalScrollBar().setValue(self.scroll[0])
        canvas.verticalScrollBar().setValue(self.scroll[1])
        w.selection.set(i for i in self.selection if i == w.selection.PLAYER or i in w.document)
        w.context.read_only = self.read_only
        w.scene.tool = self.scene_tool
        for a, enabled in self.actions.items():
            a.setEnabled(enabled)
        for d, enabled in self.docks.items():
            d.setEnabled(enabled)
        w.scene.player_item.setVisible(self.player_visible)
        w.setAcceptDrops(self.accept_drops)
        canvas.viewport().setCursor(self.cursor)
        canvas.setFocus(Qt.OtherFocusReason)
