"""Draw a round pillar from its centre outwards (C)."""
from __future__ import annotations

import math
from typing import Optional

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QPainterPath

from core.level.model import Pillar
from editor.commands import AddObjectsCommand
from editor.context import EditorContext
from editor.tools.preview import ShapePreview, distance, format_number
from editor.tools.tool import Tool


class PillarTool(Tool):
    """Press at the centre, drag out the radius, release.

    With grid snapping on the radius goes in half-grid steps; dragging onto
    another object's node or corner makes the pillar reach exactly to it.
    """

    name = "Pillar"
    shortcut = "C"
    icon_name = "tool-pillar"
    hint = "Pillar: press at the centre, drag out the radius and release (Ctrl: no snapping, Esc cancels)."
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._center: Optional[QPointF] = None
        self._radius = 0.0
        self._edge = QPointF()
        self.preview = ShapePreview(editor.scene)

    @property
    def drawing(self) -> bool:
        return self._center is not None

    def deactivate(self) -> None:
        self._cancel()
        self.preview.remove()

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton:
            return
        self._center = self.editor.snap(pos, modifiers)
        self._radius = 0.0
        self._edge = QPointF(self._center)
        self._update_preview()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self._center is None:
            self.editor.snap(pos, modifiers)
            return
        self._radius = self._radius_to(pos, modifiers)
        self._update_preview()

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._center is None:
            return
        radius = self._radius_to(pos, modifiers)
        center = self._center
        self._cancel()
        if radius <= 0:
            self.editor.message.emit("Drag out from the centre to give the pillar a radius.")
            return
        doc = self.editor.document
        pillar = Pillar(doc.new_id("pillar"), (center.x(), center.y()), radius)
        self.editor.push(AddObjectsCommand(doc, [pillar], "Add pillar"))
        self.editor.selection.set([pillar.id])

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key == Qt.Key_Escape and self._center is not None:
            self._cancel()
            return True
        return False

    def _radius_to(self, pos: QPointF, modifiers) -> float:
        snapper = self.editor.snapper
        hit = snapper.snap_detail(pos, modifiers)
        if hit.kind == "object":
            self._edge = hit.point
            return distance(self._center, hit.point)
        raw = distance(self._center, pos)
        if snapper.grid_active(modifiers):
            step = self.editor.document.level.grid / 2
            radius = round(raw / step) * step
        else:
            radius = raw
        if raw > 0:
            k = radius / raw
            self._edge = QPointF(self._center.x() + (pos.x() - self._center.x()) * k,
                                 self._center.y() + (pos.y() - self._center.y()) * k)
        return radius

    def _cancel(self) -> None:
        self._center = None
        self._radius = 0.0
        self.editor.snapper.hide_marker()
        self._update_preview()

    def _update_preview(self) -> None:
        if self._center is None:
            self.preview.hide()
            return
        c, r = self._center, self._radius
        path = QPainterPath()
        if r > 0 and math.isfinite(r):
            path.addEllipse(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r))
            path.moveTo(c)
            path.lineTo(self._edge)
        self.preview.show(path, self._edge, f"radius {format_number(r)}")
