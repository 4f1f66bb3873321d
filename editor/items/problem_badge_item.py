"""ProblemBadgeItem: the small sign at a problem's spot (or its object's corner) that says something is wrong.

As Godot's node warning icon: it is there all the time, not only once the
problem is picked in the Problems dock, and its tooltip says what is wrong. It
keeps its size on screen at every zoom, takes no clicks (a tool's pick and
rubber band see only objects) and is an editing aid, hidden while the level is
played (:mod:`level_editor.editor.support.editor_only`).

Why a scale that follows the zoom (:meth:`ProblemBadgeItem.set_zoom`) rather
than ``ItemIgnoresTransformations``: Qt keeps items that ignore transformations
out of its BSP index and tests every one of them on every query, so 2,000 such
badges made each pick on a 100,000-object canvas 75 times slower (0.35 ms to
27 ms, measured with /tmp/bench_badges.py in the commit that made this choice)
and each repaint 20 times slower. Scaled items stay in the index and cost
nothing away from the view; a zoom rescales them, once per zoom step.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from level_editor.core.level.problems import ERROR, INFO, WARNING
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.support.guard import guarded
from level_editor.editor.items.point_item import HEAD_HEIGHT, HEAD_RADIUS
from level_editor.editor.items.problem_marker_item import SEVERITY_COLORS

#: The badge's side on screen, in pixels.
BADGE_SIZE = 14.0

#: Over the objects and the selection, under the picked problem's ring (problem_marker_item.MARKER_Z = 2e9).
BADGE_Z = 1.9e9


def draw_severity_sign(painter: QPainter, rect: QRectF, severity: str) -> None:
    """A round red sign with "!" (error), an amber triangle with "!" (warning), a blue "i" (information)."""
    painter.save()
    painter.setRenderHint(QPainter.Antialiasing, True)
    color = SEVERITY_COLORS.get(severity, SEVERITY_COLORS[ERROR])
    painter.setPen(QPen(color.darker(170), 1))
    painter.setBrush(color)
    s = rect.width()
    x, y = rect.x(), rect.y()
    if severity == WARNING:
        painter.drawPolygon(QPolygonF([QPointF(x + s / 2, y + 0.5), QPointF(x + s - 0.5, y + s - 1),
                                       QPointF(x + 0.5, y + s - 1)]))
    else:
        painter.drawEllipse(QRectF(x + 0.75, y + 0.75, s - 1.5, s - 1.5))
    ink = QColor(40, 30, 0) if severity == WARNING else Qt.white
    painter.setPen(QPen(ink, max(1.5, s / 8), Qt.SolidLine, Qt.RoundCap))
    cx = x + s / 2
    if severity == INFO:
        painter.drawPoint(QPointF(cx, y + s * 0.3))
        painter.drawLine(QPointF(cx, y + s * 0.5), QPointF(cx, y + s * 0.72))
    else:
        top = y + s * (0.38 if severity == WARNING else 0.26)
        painter.drawLine(QPointF(cx, top), QPointF(cx, y + s * 0.58))
        painter.drawPoint(QPointF(cx, y + s * (0.76 if severity == WARNING else 0.74)))
    painter.restore()


class ProblemBadgeItem(QGraphicsItem):
    """A sign of constant size on screen whose bottom-left corner sits at the object's top-right corner.

    ``object_id`` says whose problems it shows; :meth:`show_problems` sets the
    severity (the worst of them) and the tooltip (all of them, one a line).
    """

    #: Where the badge's bottom-left corner sits from its anchor, in screen pixels.
    CORNER = QPointF(1.0, -1.0)
    #: Centred on its anchor: the spot a problem is about (the middle of a narrow passage, a crossing).
    AT_SPOT = QPointF(-BADGE_SIZE / 2, BADGE_SIZE / 2)
    #: Over a marker's pin instead (its anchor is the pin's point, and the pin stands above it).
    OVER_PIN = QPointF(-BADGE_SIZE / 2, -(HEAD_HEIGHT + HEAD_RADIUS + 1.0))

    def __init__(self, object_id: str, parent=None):
        super().__init__(parent)
        self.object_id = object_id
        self.severity = WARNING
        self._offset = QPointF(self.CORNER)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(BADGE_Z)
        mark_editor_only(self)

    def set_zoom(self, zoom: float) -> None:
        """The view's zoom (screen pixels per level unit): the badge stays :data:`BADGE_SIZE` pixels across."""
        if zoom > 0 and abs(self.scale() * zoom - 1.0) > 1e-9:
            self.setScale(1.0 / zoom)

    def show_problems(self, severity: str, messages: list[str]) -> None:
        if severity != self.severity:
            self.severity = severity
            self.update()
        self.setToolTip("\n".join(messages))

    def set_offset(self, offset: QPointF) -> None:
        """Where the bottom-left corner sits from the anchor, in screen pixels (:data:`CORNER`, :data:`AT_SPOT`,
        :data:`OVER_PIN`)."""
        if offset != self._offset:
            self.prepareGeometryChange()
            self._offset = QPointF(offset)

    @guarded("drawing a problem sign", default=QRectF())
    def boundingRect(self) -> QRectF:
        return QRectF(self._offset.x(), self._offset.y() - BADGE_SIZE, BADGE_SIZE, BADGE_SIZE)

    @guarded("drawing a problem's sign")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        draw_severity_sign(painter, self.boundingRect(), self.severity)
