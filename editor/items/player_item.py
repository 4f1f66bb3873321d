"""PlayerItem: the player's spawn, drawn with the player's real shape and size."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF

from level_editor.core.level.model import Player
from level_editor.editor.items.object_item import ObjectItem


class PlayerItem(ObjectItem):
    """The spawn: the player's circle or box around the spawn point, with an arrow pointing right."""

    FILL = QColor(70, 200, 90, 200)
    EDGE = QColor(20, 90, 30)

    #: The id the selection uses for the player.
    PLAYER_ID = "player"

    def id_of(self, value: Player) -> str:
        return self.PLAYER_ID

    def shape_key(self, value: Player):
        return value.shape, value.radius, value.size

    def build_outline(self, value: Player) -> QPainterPath:
        path = QPainterPath()
        if value.shape == "box":
            w, h = value.size
            path.addRect(QRectF(-w / 2, -h / 2, w, h))
        else:
            path.addEllipse(QPointF(0, 0), value.radius, value.radius)
        return path

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        v = self.value
        dx, dy = scene_pos.x() - v.spawn.x, scene_pos.y() - v.spawn.y
        if v.shape == "box":
            return abs(dx) <= v.size.x / 2 + tolerance and abs(dy) <= v.size.y / 2 + tolerance
        return math.hypot(dx, dy) <= v.radius + tolerance

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        super().paint_object(painter, look, selected, zoom)
        h = self.value.half_size
        r = min(h.x, h.y)
        # a cross at the spawn point and an arrow towards +x: where the player starts and faces
        mark = QPen(QColor(240, 255, 240), 1.5)
        mark.setCosmetic(True)
        painter.setPen(mark)
        painter.drawLine(QPointF(-r * 0.35, 0), QPointF(r * 0.7, 0))
        painter.drawLine(QPointF(0, -r * 0.35), QPointF(0, r * 0.35))
        painter.setBrush(QColor(240, 255, 240))
        painter.drawPolygon(QPolygonF([QPointF(r * 0.85, 0), QPointF(r * 0.55, -r * 0.22),
                                       QPointF(r * 0.55, r * 0.22)]))
