"""OrientedBoxItem: a box turned about its centre."""
from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainterPath

from level_editor.core.level.model import OrientedBox
from level_editor.editor.items.object_item import ObjectItem
from level_editor.editor.items.turned_rect import hits_turned_rect, outline_about


class OrientedBoxItem(ObjectItem):
    """An oriented box drawn from its exact corners, relative to its centre (the item's position)."""

    FILL = QColor(72, 170, 160)
    EDGE = QColor(24, 80, 74)

    def shape_key(self, value: OrientedBox):
        return value.half_extents, value.rotation

    def build_outline(self, value: OrientedBox) -> QPainterPath:
        return outline_about(value.center, value.corners())

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        v = self.value
        return hits_turned_rect(v.center, v.half_extents.x, v.half_extents.y, v.rotation, scene_pos, tolerance)
