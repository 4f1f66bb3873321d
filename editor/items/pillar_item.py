"""PillarItem: a round obstacle (kind ``circle``)."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainter, QPainterPath

from level_editor.core.level.model import Pillar
from level_editor.editor.items.object_item import ObjectItem


class PillarItem(ObjectItem):
    """A pillar drawn about its centre (the item's position)."""

    FILL = QColor(150, 110, 200)
    EDGE = QColor(62, 40, 92)

    def shape_key(self, value: Pillar):
        return value.radius

    def build_outline(self, value: Pillar) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), value.radius, value.radius)
        return path

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        c = self.value.center
        return math.hypot(scene_pos.x() - c.x, scene_pos.y() - c.y) <= self.value.radius + tolerance

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        painter.setPen(look[0])
        painter.setBrush(look[1])
        painter.drawEllipse(self._outline_rect)
