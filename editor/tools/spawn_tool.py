"""Place the player's spawn (I)."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from PySide6.QtCore import QObject, QPointF, Qt

from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Vec2
from level_editor.editor.commands.objects import ChangePlayerCommand, new_gesture
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.tools.tool import Tool


class SpawnTool(Tool):
    """Click to put the player's spawn there; keep the button down and drag to move it about.

    The spawn snaps to the grid (not to other objects' nodes: a player
    centred on a wall's node starts stuck). One press-drag-release is one undo
    step. On release the status bar says when the player would start inside
    a wall, box or pillar.
    """

    name = "Player Spawn"
    shortcut = "I"
    icon_name = "tool-spawn"
    hint = "Player spawn: click to place where the play-test starts; drag to move it (Ctrl: no snapping)."
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._gesture: Optional[int] = None
        self._start: Optional[Vec2] = None  # the spawn when the press came

    def deactivate(self) -> None:
        self._gesture = None
        self.editor.snapper.hide_marker()

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton:
            return
        self._gesture = new_gesture()
        self._start = self.editor.document.player.spawn
        self._move_to(pos, modifiers)
        self.editor.selection.set([Selection.PLAYER])
        self.update_hint()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self._gesture is None:
            return
        if buttons & Qt.LeftButton:
            self._move_to(pos, modifiers)

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._gesture is None:
            return
        self._move_to(pos, modifiers)
        self._gesture = None
        self.editor.snapper.hide_marker()
        self.update_hint()
        blocker = self._blocking_object()
        if blocker is not None:
            self.editor.message.emit(f"The player starts inside {blocker}: move the spawn to open floor.")

    # -- Undo while dragging, and the hint -----------------------------------------------
    def in_gesture(self) -> bool:
        return self._gesture is not None

    def cancel_gesture(self) -> None:
        """Put the spawn back where the press found it (the drag's undo step then changes nothing)."""
        gesture, start = self._gesture, self._start
        self._gesture = self._start = None
        self.editor.snapper.hide_marker()
        self.update_hint()
        doc = self.editor.document
        if gesture is not None and start is not None and doc.player.spawn != start:
            self.push(ChangePlayerCommand(doc, doc.player, replace(doc.player, spawn=start), "Move spawn", gesture))

    def current_hint(self) -> str:
        if self._gesture is not None:
            return ("Player spawn: drag to move it and release to place it (Ctrl: no snapping); "
                    "Esc or Ctrl+Z puts it back.")
        return self.hint

    def _move_to(self, pos: QPointF, modifiers) -> None:
        p = self.editor.snapper.snap_detail(pos, modifiers, objects=False).point
        doc = self.editor.document
        old = doc.player
        spawn = Vec2(p.x(), p.y())
        if spawn == old.spawn:
            return
        self.push(ChangePlayerCommand(doc, old, replace(old, spawn=spawn), "Move spawn", self._gesture))

    def _blocking_object(self) -> Optional[str]:
        player = self.editor.document.player
        body = player.body_at(player.spawn)
        for obj in self.editor.document.objects:
            if any(overlaps(body, shape) for shape in obj.collision_shapes()):
                return obj.id
        return None
