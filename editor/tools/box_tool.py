"""Draw an axis-aligned box from corner to corner (B)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QObject, QPointF, Qt

from core.level.model import Box
from editor.commands import AddObjectsCommand
from editor.context import EditorContext
from editor.tools.preview import ShapePreview
from editor.tools.tool import Tool


class BoxTool(Tool):
    """Press at one corner, drag to the opposite one (any direction), release."""

    name = "Box"
    shortcut = "B"
    icon_name = "tool-box"
    hint = "Box: press at one corner, drag to the opposite corner and release (Ctrl: no snapping, Esc cancels)."
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._start: Optional[QPointF] = None
        self._end: Optional[QPointF] = None
        self.preview = ShapePreview(editor.scene)

    @property
    def drawing(self) -> bool:
        return self._start is not None

    def deactivate(self) -> None:
        self._cancel()
        self.preview.remove()

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton:
            return
        self._start = self.editor.snap(pos, modifiers)
        self._end = QPointF(self._start)
        self._update_preview()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self._start is None:
            self.editor.snap(pos, modifiers)  # shows the snap marker before the press
            return
        self._end = self.editor.snap(pos, modifiers)
        self._update_preview()

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._start is None:
            return
        end = self.editor.snap(pos, modifiers)
        start = self._start
        self._cancel()
        x0, x1 = sorted((start.x(), end.x()))
        y0, y1 = sorted((start.y(), end.y()))
        if x1 - x0 <= 0 or y1 - y0 <= 0:
            self.editor.message.emit("Drag from one corner of the box to the opposite one.")
            return
        doc = self.editor.document
        box = Box(doc.new_id("box"), (x0, y0), (x1 - x0, y1 - y0))
        self.editor.push(AddObjectsCommand(doc, [box], "Add box"))
        self.editor.selection.set([box.id])

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key == Qt.Key_Escape and self._start is not None:
            self._cancel()
            return True
        return False

    def _cancel(self) -> None:
        self._start = self._end = None
        self.editor.snapper.hide_marker()
        self._update_preview()

    def _update_preview(self) -> None:
        if self._start is None:
            self.preview.hide()
            return
        self.preview.show_drag_rect(self._start, self._end)
