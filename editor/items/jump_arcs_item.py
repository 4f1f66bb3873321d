"""JumpArcsItem: a platformer's jumps from one spot, drawn over the level (View > Jump Arcs).

The arcs are :func:`level_editor.core.playtest.jump_arcs.jump_arcs`: the standing jump and the running jumps to the
left and right, flown by the play-test's own controller. Each is drawn as the path of the player's centre with the
player's outline every few ticks (the shape swept along it), a dot where it leaves the floor and a mark where it
ends: a bar where it lands, a cross where it hits a wall or a ceiling.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from level_editor.core.playtest.jump_arcs import HIT, LANDED
from level_editor.editor.support.guard import guarded

#: Over the objects and the hulls, under the play-test's player.
JUMP_ARCS_Z = 1e9 - 0.5

#: Colour per arc: the standing jump white, the running jumps a warm and a cool tone.
COLORS = {"standing": QColor(240, 240, 240), "running left": QColor(255, 170, 60),
          "running right": QColor(90, 200, 255)}
#: The player's outline is drawn every this many ticks along an arc.
OUTLINE_EVERY = 6
#: Screen pixels: the arc's line, and the end marks' size.
LINE_PIXELS = 2.0
MARK_PIXELS = 7.0


def _pen(color: QColor, width: float, alpha: int = 255, style=Qt.SolidLine) -> QPen:
    c = QColor(color)
    c.setAlpha(alpha)
    pen = QPen(c, width, style)
    pen.setCosmetic(True)
    return pen


class JumpArcsItem(QGraphicsItem):
    """Draws :class:`~level_editor.core.playtest.jump_arcs.Arc` records for a player of half size ``(hx, hy)``."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setZValue(JUMP_ARCS_Z)
        self.arcs: list = []
        self.half = (12.0, 12.0)
        self.round_player = True
        self._bounds = QRectF()

    def set_arcs(self, arcs, half_size, round_player: bool) -> None:
        """Show ``arcs`` (none clears) for a player of ``half_size`` (circle or box)."""
        self.prepareGeometryChange()
        self.arcs = list(arcs)
        self.half = (float(half_size[0]), float(half_size[1]))
        self.round_player = round_player
        hx, hy = self.half
        xs = [p.x for a in self.arcs for p in (a.start, *a.points)]
        ys = [p.y for a in self.arcs for p in (a.start, *a.points)]
        self._bounds = QRectF() if not xs else QRectF(min(xs) - hx - 8, min(ys) - hy - 8,
                                                      max(xs) - min(xs) + 2 * hx + 16, max(ys) - min(ys) + 2 * hy + 16)
        self.update()

    @guarded("drawing the jump arcs", default=QRectF())
    def boundingRect(self) -> QRectF:
        return self._bounds

    @guarded("drawing the jump arcs")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        zoom = painter.worldTransform().m11() or 1.0
        painter.setRenderHint(QPainter.Antialiasing, True)
        hx, hy = self.half
        for arc in self.arcs:
            color = COLORS.get(arc.name, QColor(255, 255, 255))
            points = [QPointF(arc.start.x, arc.start.y)] + [QPointF(p.x, p.y) for p in arc.points]
            painter.setBrush(Qt.NoBrush)
            painter.setPen(_pen(color, 1.0, 90))
            for k in range(OUTLINE_EVERY, len(points), OUTLINE_EVERY):
                p = points[k]
                body = QRectF(p.x() - hx, p.y() - hy, 2 * hx, 2 * hy)
                painter.drawEllipse(body) if self.round_player else painter.drawRect(body)
            painter.setPen(_pen(color, LINE_PIXELS))
            painter.drawPolyline(QPolygonF(points))
            m = MARK_PIXELS / zoom
            end = points[-1]
            if arc.ending == LANDED:
                painter.drawLine(QPointF(end.x() - m, end.y() + hy), QPointF(end.x() + m, end.y() + hy))
            elif arc.ending == HIT:
                painter.setPen(_pen(QColor(255, 80, 80), LINE_PIXELS))
                painter.drawLine(QPointF(end.x() - m, end.y() - m), QPointF(end.x() + m, end.y() + m))
                painter.drawLine(QPointF(end.x() - m, end.y() + m), QPointF(end.x() + m, end.y() - m))
        if self.arcs:
            start = self.arcs[0].start
            painter.setPen(Qt.NoPen)
            painter.setBrush(QColor(240, 240, 240))
            r = 3.0 / zoom
            painter.drawEllipse(QPointF(start.x, start.y + hy), r, r)
