"""Draw an axis-aligned box from corner to corner (B)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QPointF, Qt

from level_editor.core.level.model import Box
from level_editor.editor.tools.drag_tool import DragTool


class BoxTool(DragTool):
    """Press at one corner, drag to the opposite one (any direction), release."""

    name = "Box"
    shortcut = "B"
    icon_name = "tool-box"
    hint = "Box: press at one corner, drag to the opposite corner and release (Ctrl: no snapping, Esc cancels)."
    empty_drag_message = "Drag from one corner of the box to the opposite one."
    drawing_hint = "drag to the opposite corner and release (Ctrl: no snapping); Esc or Ctrl+Z cancels."

    def make_object(self, start: QPointF, end: QPointF, modifiers: Qt.KeyboardModifier) -> Optional[Box]:
        x0, x1 = sorted((start.x(), end.x()))
        y0, y1 = sorted((start.y(), end.y()))
        if x1 - x0 <= 0 or y1 - y0 <= 0:
            return None
        return Box(self.editor.document.new_id("box"), (x0, y0), (x1 - x0, y1 - y0))
