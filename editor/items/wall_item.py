"""WallItem: a chain of nodes drawn exactly as it collides (capsules: round caps and joins)."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen

from core.geometry import point_segment_distance_sq_xy
from core.level import Wall
from editor.items.object_item import HOVER_COLOR, SELECTED_COLOR, ObjectItem


class WallItem(ObjectItem):
    """A wall: its centre line stroked with a pen as wide as the wall, round caps and joins.

    The item's position is the first node. Drawing with a round pen of the
    wall's thickness paints exactly the union of the capsules it collides as.
    """

    FILL = QColor(168, 178, 196)
    EDGE = QColor(52, 58, 70)

    def __init__(self, value: Wall):
        self._centre_line = QPainterPath()
        super().__init__(value)

    def anchor(self, value: Wall):
        p = value.points[0]
        return p.x, p.y

    def shape_key(self, value: Wall):
        p0 = value.points[0]
        return tuple((p.x - p0.x, p.y - p0.y) for p in value.points), value.thickness, value.closed

    def build_outline(self, value: Wall) -> QPainterPath:
        p0 = value.points[0]
        line = QPainterPath()
        line.moveTo(0, 0)
        for p in value.points[1:]:
            line.lineTo(p.x - p0.x, p.y - p0.y)
        if value.closed and len(value.points) > 2:
            line.closeSubpath()
        self._centre_line = line
        stroker = QPainterPathStroker()
        stroker.setWidth(value.thickness)
        stroker.setCapStyle(Qt.RoundCap)
        stroker.setJoinStyle(Qt.RoundJoin)
        outline = stroker.createStroke(line)
        outline.setFillRule(Qt.WindingFill)
        return outline

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        limit = (self.value.thickness / 2 + tolerance) ** 2
        px, py = scene_pos.x(), scene_pos.y()
        for a, b in self.value.segments():
            if point_segment_distance_sq_xy(px, py, a.x, a.y, b.x, b.y) <= limit:
                return True
        p = self.value.points[0]
        return len(self.value.points) == 1 and math.hypot(px - p.x, py - p.y) ** 2 <= limit

    def _pen(self, color: QColor, width: float) -> QPen:
        pen = QPen(color, width)
        pen.setCapStyle(Qt.RoundCap)
        pen.setJoinStyle(Qt.RoundJoin)
        return pen

    def paint_object(self, painter: QPainter, lod: float) -> None:
        t = self.value.thickness
        px = 1.0 / lod if lod > 0 else 1.0
        painter.setBrush(Qt.NoBrush)
        if self._selected:
            edge, edge_px = SELECTED_COLOR, 2.0
        elif self._hovered:
            edge, edge_px = HOVER_COLOR, 1.5
        else:
            edge, edge_px = self.EDGE, 1.0
        # the edge is drawn as a slightly wider stroke under the body, so joins never show seams
        painter.setPen(self._pen(edge, t + edge_px * px))
        painter.drawPath(self._centre_line)
        inner = t - edge_px * px
        if inner > 0:
            painter.setPen(self._pen(self.fill_color(), inner))
            painter.drawPath(self._centre_line)
        if self._selected:
            # the nodes, so a selected wall shows how it is built
            node = QPen(SELECTED_COLOR, 5.0)
            node.setCosmetic(True)
            node.setCapStyle(Qt.RoundCap)
            painter.setPen(node)
            p0 = self.value.points[0]
            painter.drawPoints([QPointF(p.x - p0.x, p.y - p0.y) for p in self.value.points])

    def padding(self, value) -> float:
        return 2.0
