"""Draw a round pillar from its centre outwards (C)."""
from __future__ import annotations

import math
from typing import Optional

import shiboken6
from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QPainterPath

from core.level import Pillar
from editor.commands import AddObjectsCommand
from editor.context import EditorContext
from editor.tools.preview import LabelItem, distance, fill_brush, format_number, outline_pen, preview_item
from editor.tools.tool import Tool


class CircleTool(Tool):
    """Press at the centre, drag out the radius, release.

    With grid snapping on the radius goes in half-grid steps; dragging onto
    another object's node or corner makes the circle reach exactly to it.
    """

    name = "Circle"
    shortcut = "C"
    icon_name = "tool-circle"
    hint = "Circle: press at the centre, drag out the radius and release (Ctrl: no snapping, Esc cancels)."
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._center: Optional[QPointF] = None
        self._radius = 0.0
        self._edge = QPointF()
        self._shape = None
        self._label: Optional[LabelItem] = None

    @property
    def drawing(self) -> bool:
        return self._center is not None

    def deactivate(self) -> None:
        self._cancel()
        for item in (self._shape, self._label):
            if item is not None and shiboken6.isValid(item) and item.scene() is not None:
                item.scene().removeItem(item)
        self._shape = self._label = None

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
            self.editor.message.emit("Drag out from the centre to give the circle a radius.")
            return
        doc = self.editor.document
        pillar = Pillar(doc.new_id("pillar"), (center.x(), center.y()), radius)
        self.editor.push(AddObjectsCommand(doc, [pillar], "Add circle"))
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

    def _alive(self) -> bool:
        return (self._shape is not None and shiboken6.isValid(self._shape)
                and self._shape.scene() is self.editor.scene
                and shiboken6.isValid(self._label) and self._label.scene() is self.editor.scene)

    def _update_preview(self) -> None:
        if self._center is None:
            if self._alive():
                self._shape.setVisible(False)
                self._label.setVisible(False)
            return
        if not self._alive():
            self._shape = preview_item()
            self._shape.setPen(outline_pen())
            self._shape.setBrush(fill_brush())
            self._label = LabelItem()
            self.editor.scene.addItem(self._shape)
            self.editor.scene.addItem(self._label)
        c, r = self._center, self._radius
        path = QPainterPath()
        if r > 0 and math.isfinite(r):
            path.addEllipse(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r))
            path.moveTo(c)
            path.lineTo(self._edge)
        self._shape.setPath(path)
        self._label.setPos(self._edge)
        self._label.set_text(f"radius {format_number(r)}")
        self._shape.setVisible(True)
        self._label.setVisible(True)
