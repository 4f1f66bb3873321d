"""QtDebugDraw: the core's debug drawing (:class:`level_editor.core.playtest.debug_draw.DebugDraw`) with a QPainter."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF

from level_editor.core.playtest.debug_draw import (
    CANDIDATE, CONTACT, FLOOR, INSIDE, NORMAL, PATH, PUSH, SLIDE, SNAP, SWEPT,
)

#: Pen colour, fill and dash per role.
STYLES = {
    INSIDE: (QColor(120, 255, 140), QColor(120, 255, 140, 110), Qt.SolidLine),
    CANDIDATE: (QColor(255, 214, 64), QColor(255, 214, 64, 40), Qt.DashLine),
    SWEPT: (QColor(90, 200, 255), QColor(90, 200, 255, 55), Qt.SolidLine),
    PATH: (QColor(255, 255, 255), None, Qt.SolidLine),
    CONTACT: (QColor(255, 70, 70), QColor(255, 70, 70), Qt.SolidLine),
    NORMAL: (QColor(255, 90, 90), None, Qt.SolidLine),
    SLIDE: (QColor(100, 240, 130), None, Qt.SolidLine),
    PUSH: (QColor(230, 90, 255), None, Qt.SolidLine),
    FLOOR: (QColor(80, 230, 255), None, Qt.SolidLine),
    SNAP: (QColor(255, 200, 60), None, Qt.DashLine),
}
_DEFAULT = (QColor(255, 255, 255), None, Qt.SolidLine)

#: Screen sizes (pixels), the same at any zoom.
PEN_WIDTH = 1.5
ARROW_HEAD = 8.0
POINT_RADIUS = 3.5


def _q(p) -> QPointF:
    return QPointF(p[0], p[1])


class QtDebugDraw:
    """Draws the core's debug shapes on ``painter``, in level units.

    ``pixel`` is the size of one screen pixel in level units, so arrowheads
    and contact dots keep their size on screen whatever the zoom.
    """

    def __init__(self, painter: QPainter, pixel: float = 1.0):
        self.painter = painter
        self.pixel = pixel

    def _style(self, role: str, fill: bool = True) -> None:
        color, brush, dash = STYLES.get(role, _DEFAULT)
        pen = QPen(color, PEN_WIDTH, dash)
        pen.setCosmetic(True)
        self.painter.setPen(pen)
        self.painter.setBrush(QBrush(brush) if (fill and brush is not None) else Qt.NoBrush)

    def draw_polygon(self, points, role: str) -> None:
        self._style(role)
        self.painter.drawPolygon(QPolygonF([_q(p) for p in points]))

    def draw_circle(self, center, radius: float, role: str) -> None:
        self._style(role)
        self.painter.drawEllipse(_q(center), radius, radius)

    def draw_capsule(self, a, b, radius: float, role: str) -> None:
        self._style(role)
        path = QPainterPath()
        ax, ay, bx, by = a[0], a[1], b[0], b[1]
        if math.hypot(bx - ax, by - ay) < 1e-9:
            path.addEllipse(_q(a), radius, radius)
        else:
            angle = math.degrees(math.atan2(by - ay, bx - ax))
            # the outline of a stadium: half circle round b, straight side, half circle round a
            path.arcMoveTo(QRectF(bx - radius, by - radius, 2 * radius, 2 * radius), -angle + 90)
            path.arcTo(QRectF(bx - radius, by - radius, 2 * radius, 2 * radius), -angle + 90, -180)
            path.arcTo(QRectF(ax - radius, ay - radius, 2 * radius, 2 * radius), -angle - 90, -180)
            path.closeSubpath()
        self.painter.drawPath(path)

    def draw_segment(self, a, b, role: str) -> None:
        self._style(role, fill=False)
        self.painter.drawLine(QLineF(_q(a), _q(b)))

    def draw_arrow(self, tail, head, role: str) -> None:
        self._style(role, fill=False)
        t, h = _q(tail), _q(head)
        self.painter.drawLine(QLineF(t, h))
        d = h - t
        n = math.hypot(d.x(), d.y())
        if n < 1e-9:
            return
        ux, uy = d.x() / n, d.y() / n
        size = min(ARROW_HEAD * self.pixel, n * 0.6)
        back = h - QPointF(ux, uy) * size
        side = QPointF(-uy, ux) * size * 0.45
        color = STYLES.get(role, _DEFAULT)[0]
        self.painter.setBrush(color)
        self.painter.drawPolygon(QPolygonF([h, back + side, back - side]))

    def draw_point(self, p, role: str) -> None:
        self._style(role)
        color = STYLES.get(role, _DEFAULT)[0]
        self.painter.setBrush(color)
        r = POINT_RADIUS * self.pixel
        self.painter.drawEllipse(_q(p), r, r)
