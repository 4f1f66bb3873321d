"""OrientedBoxItem: a box turned about its centre."""
from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainterPath, QPolygonF

from level_editor.core.collision.geometry import rotation_cos_sin
from level_editor.core.level.model import OrientedBox
from level_editor.editor.items.object_item import ObjectItem


class OrientedBoxItem(ObjectItem):
    """An oriented box drawn from its exact corners, relative to its centre (the item's position)."""

    FILL = QColor(72, 170, 160)
    EDGE = QColor(24, 80, 74)

    def shape_key(self, value: OrientedBox):
        return value.half_extents, value.rotation

    def build_outline(self, value: OrientedBox) -> QPainterPath:
        c = value.center
        path = QPainterPath()
        path.addPolygon(QPolygonF([QPointF(p.x - c.x, p.y - c.y) for p in value.corners()]))
        path.closeSubpath()
        return path

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        v = self.value
        cos, sin = rotation_cos_sin(v.rotation)
        dx, dy = scene_pos.x() - v.center.x, scene_pos.y() - v.center.y
        # the point in the box's own axes
        lx, ly = dx * cos + dy * sin, -dx * sin + dy * cos
        return abs(lx) <= v.half_extents.x + tolerance and abs(ly) <= v.half_extents.y + tolerance
