"""HandleItem: a resize, radius or rotation handle the select tool shows on the selected object."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

#: Half the size of a handle on screen, in pixels.
HANDLE_RADIUS = 5.0


class HandleItem(QGraphicsItem):
    """A square (resize) or round (rotation, radius) handle of a fixed screen size.

    The item sits at a point of the object (``setPos`` in scene units); its knob
    is drawn ``offset`` screen pixels away from there, with a stem back to the
    point when the offset is not zero (the rotation handle stands off the box).
    """

    SQUARE = "square"
    ROUND = "round"

    def __init__(self, role: str, style: str = SQUARE, offset: QPointF | None = None):
        super().__init__()
        self.role = role
        self.style = style
        self.offset = QPointF(offset) if offset is not None else QPointF(0, 0)
        self._hot = False
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setZValue(2e9)

    def knob_pos(self, scale: float) -> QPointF:
        """Where the knob is in scene units, given the view's scene units per pixel."""
        return self.pos() + self.offset * scale

    def set_hot(self, hot: bool) -> None:
        if hot != self._hot:
            self._hot = hot
            self.update()

    def set_offset(self, offset: QPointF) -> None:
        if offset != self.offset:
            self.prepareGeometryChange()
            self.offset = QPointF(offset)

    def boundingRect(self) -> QRectF:
        r = HANDLE_RADIUS + 2
        knob = QRectF(self.offset.x() - r, self.offset.y() - r, 2 * r, 2 * r)
        return knob.united(QRectF(-1, -1, 2, 2))

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        if not self.offset.isNull():
            painter.setPen(QPen(QColor(255, 196, 0), 1.5))
            painter.drawLine(QPointF(0, 0), self.offset)
        painter.setPen(QPen(QColor(30, 30, 30), 1.2))
        painter.setBrush(QColor(255, 230, 120) if self._hot else QColor(255, 255, 255))
        r = HANDLE_RADIUS
        if self.style == self.ROUND:
            painter.drawEllipse(self.offset, r, r)
        else:
            painter.drawRect(QRectF(self.offset.x() - r, self.offset.y() - r, 2 * r, 2 * r))
