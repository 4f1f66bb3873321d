"""DebugOverlayItem: the last tick's collision work, drawn over the level (F3)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem

from level_editor.core.playtest.debug_draw import RecordingDraw, draw_tick
from level_editor.editor.playtest.qt_debug_draw import QtDebugDraw
from level_editor.editor.support.guard import guarded

#: Above the play-test player: normals start at contact points under its outline.
DEBUG_OVERLAY_Z = 2.1e9

#: Room around the recorded shapes for arrowheads, dots and pen width (level units at zoom 1).
MARGIN = 16.0


class DebugOverlayItem(QGraphicsItem):
    """Shows one :class:`level_editor.core.playtest.simulation.TickDebug` through :func:`level_editor.core.playtest.debug_draw.draw_tick`.

    The core's drawing calls are recorded once per tick and replayed on every
    paint, so a repaint (a scroll, a zoom) does not walk the world again.
    """

    def __init__(self, world):
        super().__init__()
        self.world = world
        self.setZValue(DEBUG_OVERLAY_Z)
        self.recorded = RecordingDraw()
        self._bounds = QRectF()
        self.tick_number: Optional[int] = None

    def show_tick(self, tick) -> None:
        """Draw ``tick`` from now on (``None`` clears the overlay)."""
        number = tick.tick if tick is not None else None
        if number == self.tick_number and tick is not None:
            return
        self.tick_number = number
        rec = RecordingDraw()
        if tick is not None:
            draw_tick(tick, self.world, rec)
        self.prepareGeometryChange()
        self.recorded = rec
        self._bounds = self._measure(rec)
        self.update()

    @staticmethod
    def _measure(rec: RecordingDraw) -> QRectF:
        xs, ys = [], []
        for method, _role, args in rec.calls:
            if method == "polygon":
                pts, r = args[0], 0.0
            elif method in ("circle",):
                pts, r = (args[0],), args[1]
            elif method == "capsule":
                pts, r = (args[0], args[1]), args[2]
            else:
                pts, r = args, 0.0
            for p in pts:
                xs += [p[0] - r, p[0] + r]
                ys += [p[1] - r, p[1] + r]
        if not xs:
            return QRectF()
        return QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(-MARGIN, -MARGIN,
                                                                                      MARGIN, MARGIN)

    @guarded("drawing the collision overlay", default=QRectF())
    def boundingRect(self) -> QRectF:
        return self._bounds

    @guarded("drawing the collision overlay")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        scale = painter.worldTransform().m11()
        draw = QtDebugDraw(painter, 1.0 / scale if scale > 0 else 1.0)
        for method, role, args in self.recorded.calls:
            getattr(draw, f"draw_{method}")(*args, role)
