"""ProblemMarkerItem: marks the spot of the problem picked in the Problems dock."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QVariantAnimation
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject

from level_editor.core.level.problems import ERROR, INFO, WARNING
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.support.guard import guarded

#: One colour per severity: the Problems dock's icons, the badges at objects' corners and this ring.
SEVERITY_COLORS = {
    ERROR: QColor(240, 72, 72),
    WARNING: QColor(255, 138, 36),  # orange: apart from the selection's amber
    INFO: QColor(90, 170, 250),
}

#: Above everything else on the canvas, the player included.
MARKER_Z = 2e9

#: Ring radius on screen in pixels (the marker keeps its size at every zoom).
RADIUS = 20.0
#: How far the ring swells while it pulses, in pixels.
PULSE = 14.0
#: Pulses when it appears; then it stays still so it does not nag.
PULSES = 3
PULSE_MS = 600


class ProblemMarkerItem(QGraphicsObject):
    """A bold ring with a cross in the problem's colour, at a constant size on screen.

    It pulses a few times when it appears (the eye finds movement first) and
    then stays until it is hidden. Clicks go through it to the tools.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setZValue(MARKER_Z)
        self._color = QColor(SEVERITY_COLORS[ERROR])
        self._swell = 0.0
        self._pulse = QVariantAnimation(self)
        self._pulse.setStartValue(1.0)
        self._pulse.setEndValue(0.0)
        self._pulse.setDuration(PULSE_MS)
        self._pulse.setLoopCount(PULSES)
        self._pulse.valueChanged.connect(self._set_swell)
        self._pulse.finished.connect(lambda: self._set_swell(0.0))
        mark_editor_only(self)
        self.hide()

    @property
    def color(self) -> QColor:
        return QColor(self._color)

    def show_at(self, pos: QPointF, severity: str) -> None:
        """Mark ``pos`` (scene units) in the colour of ``severity`` and pulse."""
        self._color = QColor(SEVERITY_COLORS.get(severity, SEVERITY_COLORS[ERROR]))
        self.setPos(pos)
        self.show()
        self._pulse.stop()
        self._pulse.start()
        self.update()

    def clear(self) -> None:
        self._pulse.stop()
        self._swell = 0.0
        self.hide()

    def _set_swell(self, value) -> None:
        self._swell = float(value)
        self.update()

    @guarded("drawing a problem marker", default=QRectF())
    def boundingRect(self) -> QRectF:
        r = RADIUS + PULSE + 6
        return QRectF(-r, -r, 2 * r, 2 * r)

    @guarded("drawing the picked problem's mark")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        c = self._color
        arm = RADIUS + 6
        if self._swell > 0:
            halo = QColor(c)
            halo.setAlphaF(0.6 * self._swell)
            painter.setPen(QPen(halo, 3))
            painter.setBrush(Qt.NoBrush)
            r = RADIUS + PULSE * (1.0 - self._swell)
            painter.drawEllipse(QPointF(0, 0), r, r)
        wash = QColor(c)
        wash.setAlpha(45)
        painter.setPen(Qt.NoPen)
        painter.setBrush(wash)
        painter.drawEllipse(QPointF(0, 0), RADIUS, RADIUS)
        # a dark underlay and a light rim keep the marker readable on any object and on the canvas
        for pen in (QPen(QColor(255, 255, 255, 200), 8), QPen(QColor(0, 0, 0, 200), 6), QPen(c, 3.5)):
            pen.setCapStyle(Qt.RoundCap)
            painter.setPen(pen)
            painter.setBrush(Qt.NoBrush)
            painter.drawEllipse(QPointF(0, 0), RADIUS, RADIUS)
            painter.drawLine(QPointF(-arm, 0), QPointF(-RADIUS * 0.35, 0))
            painter.drawLine(QPointF(RADIUS * 0.35, 0), QPointF(arm, 0))
            painter.drawLine(QPointF(0, -arm), QPointF(0, -RADIUS * 0.35))
            painter.drawLine(QPointF(0, RADIUS * 0.35), QPointF(0, arm))
        painter.setPen(Qt.NoPen)
        painter.setBrush(c)
        painter.drawEllipse(QPointF(0, 0), 2.5, 2.5)
