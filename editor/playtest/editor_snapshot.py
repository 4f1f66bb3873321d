"""EditorSnapshot: the editing state a play-test sets aside and gives back untouched."""
from __future__ import annotations

import shiboken6
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QMainWindow

from level_editor.editor.support.editor_only import is_editor_only
from level_editor.editor.playtest.host import PlayHost


class EditorSnapshot:
    """Everything about the editor window that play mode changes, taken just before it does.

    :meth:`lock` makes the window read-only: the editor context drops any
    command pushed, the host's locked actions are disabled (so no shortcut can
    even try) and so are its docks, the active tool stops receiving events (it
    is detached, not deactivated, so a wall being drawn is still there
    afterwards), drops are refused and the editable spawn marker is hidden.
    So is everything that is only there for editing (items marked with
    :func:`level_editor.editor.support.editor_only.mark_editor_only`: handles, tool previews, a
    half-drawn wall, the rubber band, the snap marker, hull and problem
    overlays), the grid lines and the marks objects draw for editing (paths,
    one-way arrows, type names), and the selection and hover highlight are
    cleared: the level looks as the game will show it.
    :meth:`restore` puts it all back: view (scene rectangle, zoom, scroll),
    selection, tool, actions, docks, and exactly the editing aids it hid.
    """

    def __init__(self, host: PlayHost):
        self.host = host
        canvas = host.canvas
        self.transform = canvas.transform()
        self.scroll = (canvas.horizontalScrollBar().value(), canvas.verticalScrollBar().value())
        view_rect = canvas.sceneRect()
        self.view_rect = None if view_rect == host.scene.sceneRect() else view_rect
        self.selection = host.selection.ids()
        self.scene_tool = host.scene.tool
        self.actions = {a: a.isEnabled() for a in host.locked_actions}
        self.docks = {d: d.isEnabled() for d in host.docks}
        self.player_visible = host.scene.player_item.isVisible()
        self.accept_drops = host.window.acceptDrops()
        self.cursor = canvas.viewport().cursor()
        self.grid_shown = canvas.grid_shown()
        self.read_only = host.context.read_only
        #: The editing aids :meth:`lock` hid (only those that were showing).
        self.hidden_aids: list = []
        # the status bar's tool hint (editor/window/status_bar.py): the tool does nothing while playing
        bar = host.window.statusBar() if isinstance(host.window, QMainWindow) else None
        self.hint_label = getattr(bar, "hint_label", None)
        self.hint_visible = self.hint_label is not None and not self.hint_label.isHidden()

    def lock(self) -> None:
        host = self.host
        # first: the window answers a new selection by enabling actions, which are disabled next
        host.selection.clear()
        set_hovered = getattr(host.scene, "set_hovered", None)
        if set_hovered is not None:
            set_hovered(None)
        for a in self.actions:
            a.setEnabled(False)
        for d in self.docks:
            d.setEnabled(False)
        host.scene.release_held_buttons()  # a drag under way ends here, before the canvas is taken away
        host.context.read_only = True
        host.scene.tool = None
        host.scene.player_item.setVisible(False)
        self.hidden_aids = [i for i in host.scene.items() if is_editor_only(i) and i.isVisible()]
        for item in self.hidden_aids:
            item.setVisible(False)
        if self.hint_label is not None:
            self.hint_label.setVisible(False)
        host.canvas.set_grid_shown(False)  # Show Grid is locked while playing: nothing else turns it back on
        self._set_playing_looks(True)
        host.window.setAcceptDrops(False)
        host.canvas.viewport().setCursor(Qt.CrossCursor)
        host.canvas.setFocus(Qt.OtherFocusReason)

    def _set_playing_looks(self, playing: bool) -> None:
        """Objects draw without their editing marks (paths, one-way arrows, type names) while playing."""
        looks = getattr(self.host.scene, "looks", None)
        if looks is not None and looks.playing != playing:
            looks.playing = playing
            self.host.scene.update()

    def restore(self) -> None:
        host = self.host
        canvas = host.canvas
        # a null rectangle makes the view follow the scene's rectangle again
        canvas.setSceneRect(self.view_rect if self.view_rect is not None else QRectF())
        zoom_before = canvas.zoom()
        canvas.setTransform(self.transform)
        if canvas.zoom() != zoom_before:
            canvas.zoom_changed.emit(canvas.zoom())
        canvas.horizontalScrollBar().setValue(self.scroll[0])
        canvas.verticalScrollBar().setValue(self.scroll[1])
        selection = host.selection
        selection.set(i for i in self.selection if i == selection.PLAYER or i in host.document)
        host.context.read_only = self.read_only
        host.scene.tool = self.scene_tool
        for a, enabled in self.actions.items():
            a.setEnabled(enabled)
        for d, enabled in self.docks.items():
            d.setEnabled(enabled)
        host.scene.player_item.setVisible(self.player_visible)
        for item in self.hidden_aids:
            if shiboken6.isValid(item):
                item.setVisible(True)
        self.hidden_aids = []
        if self.hint_label is not None and shiboken6.isValid(self.hint_label):
            self.hint_label.setVisible(self.hint_visible)
        canvas.set_grid_shown(self.grid_shown)
        self._set_playing_looks(False)
        host.window.setAcceptDrops(self.accept_drops)
        canvas.viewport().setCursor(self.cursor)
        canvas.setFocus(Qt.OtherFocusReason)
