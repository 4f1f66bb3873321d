"""BoxItem: an axis-aligned box."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPainterPath

from level_editor.core.level.model import Box
from level_editor.editor.items.object_item import ObjectItem


class BoxItem(ObjectItem):
    """A box drawn from its origin (the item's position) and size."""

    FILL = QColor(196, 134, 74)
    EDGE = QColor(92, 58, 26)

    def shape_key(self, value: Box):
        return value.size

    def build_outline(self, value: Box) -> QPainterPath:
        path = QPainterPath()
        path.addRect(QRectF(0, 0, value.size.x, value.size.y))
        return path

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        o, s = self.value.origin, self.value.size
        return (o.x - tolerance <= scene_pos.x() <= o.x + s.x + tolerance
                and o.y - tolerance <= scene_pos.y() <= o.y + s.y + tolerance)

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        painter.setPen(look[0])
        painter.setBrush(look[1])
        painter.drawRect(self._outline_rect)
