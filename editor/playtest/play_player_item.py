"""PlayPlayerItem: the player as it moves during a play-test."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from level_editor.core.level.model import Player
from level_editor.editor.support.guard import guarded

#: Above every level object and the spawn marker.
PLAY_PLAYER_Z = 2e9


class PlayPlayerItem(QGraphicsItem):
    """The player's real collision shape, at its interpolated position, facing where it last went.

    Drawn in a warmer colour than the green spawn marker so it is clear this is
    the running player and not the editable spawn.
    """

    FILL = QColor(255, 168, 48, 235)
    EDGE = QColor(120, 60, 0)
    MARK = QColor(255, 248, 230)

    def __init__(self, player: Player):
        super().__init__()
        self.player = player
        self.facing = QPointF(1.0, 0.0)
        self.setZValue(PLAY_PLAYER_Z)
        h = player.half_size
        self._rect = QRectF(-h.x, -h.y, 2 * h.x, 2 * h.y)
        self._bounds = self._rect.adjusted(-2, -2, 2, 2)

    @guarded("drawing the player", default=QRectF())
    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_facing(self, dx: float, dy: float) -> None:
        """Point the arrow along ``(dx, dy)``; a standstill keeps the last direction."""
        n = math.hypot(dx, dy)
        if n > 1e-9:
            f = QPointF(dx / n, dy / n)
            if (f - self.facing).manhattanLength() > 1e-3:
                self.facing = f
                self.update()

    @guarded("drawing the player")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        edge = QPen(self.EDGE, 2)
        edge.setCosmetic(True)
        painter.setPen(edge)
        painter.setBrush(self.FILL)
        if self.player.shape == "box":
            painter.drawRect(self._rect)
        else:
            painter.drawEllipse(self._rect)
        r = min(self._rect.width(), self._rect.height()) / 2
        fx, fy = self.facing.x(), self.facing.y()
        tip = QPointF(fx * r * 0.8, fy * r * 0.8)
        back = QPointF(fx * r * 0.25, fy * r * 0.25)
        side = QPointF(-fy * r * 0.3, fx * r * 0.3)
        painter.setPen(QPen(self.MARK, 0))
        painter.setBrush(self.MARK)
        painter.drawPolygon(QPolygonF([tip, back + side, back - side]))
