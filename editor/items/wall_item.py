"""WallItem: a chain of nodes drawn exactly as it collides (capsules: round caps and joins)."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF

from core.collision.geometry import point_segment_distance_sq_xy
from core.level.model import Wall
from editor.items.object_item import SELECTED_COLOR, ObjectItem, label_font


_NODE_PEN = QPen(SELECTED_COLOR, 5.0)
_NODE_PEN.setCosmetic(True)
_NODE_PEN.setCapStyle(Qt.RoundCap)

#: Thinner than this on screen (pixels), a wall is drawn as its centre line stroked as wide as the wall.
THIN_PIXELS = 4.0

#: Walls of more nodes than this keep the stroke's outline as it comes: ``QPainterPath.simplified()`` (the
#: union of the capsules that overlap at every joint) grows far faster than the node count (a closed wall of
#: 20,000 nodes took a minute to open). Their fill is the same (the stroke fills by winding); the edge is drawn
#: as the centre line stroked a little wider than the wall under the fill, which looks the same.
SIMPLIFY_NODES = 256


class WallItem(ObjectItem):
    """A wall: its centre line stroked as wide as the wall with round caps and joins.

    The item's position is the first node. The stroke (QPainterPathStroker,
    width = thickness, RoundCap, RoundJoin) is exactly the union of the
    capsules the wall collides as; it is drawn filled with a thin edge.
    Thin on screen, the centre line stroked as wide as the wall (at least a
    pixel) looks the same and costs a fraction of the outline.
    """

    #: (look state, thickness) -> pen for the thin drawing
    _thin_pens: dict = {}

    FILL = QColor(168, 178, 196)
    EDGE = QColor(52, 58, 70)

    def anchor(self, value: Wall):
        p = value.points[0]
        return p.x, p.y

    def shape_key(self, value: Wall):
        # in millionths of a unit: after a move, p - p0 can differ in the last bit, and a pure move must not
        # rebuild the outline (round(v * 1e6) is three times faster than round(v, 6), and walls come by the 10,000)
        p0 = value.points[0]
        x0, y0 = p0.x, p0.y
        return (tuple([(round((p.x - x0) * 1e6), round((p.y - y0) * 1e6)) for p in value.points]),
                value.thickness, value.closed)

    def build_outline(self, value: Wall) -> QPainterPath:
        p0 = value.points[0]
        line = QPainterPath()
        line.moveTo(0, 0)
        for p in value.points[1:]:
            line.lineTo(p.x - p0.x, p.y - p0.y)
        if value.closed and len(value.points) > 2:
            line.closeSubpath()
        stroker = QPainterPathStroker()
        stroker.setWidth(value.thickness)
        stroker.setCapStyle(Qt.RoundCap)
        stroker.setJoinStyle(Qt.RoundJoin)
        stroke = stroker.createStroke(line)
        if len(value.points) > SIMPLIFY_NODES:
            return stroke
        # the stroke overlaps itself at every joint; its union is the exact collision outline
        return stroke.simplified()

    def outline_extra(self, value: Wall) -> QPolygonF:
        """The centre line, relative to the first node (drawn when the wall is thin on screen)."""
        p0 = value.points[0]
        centre = [QPointF(p.x - p0.x, p.y - p0.y) for p in value.points]
        if value.closed and len(centre) > 2:
            centre.append(centre[0])
        return QPolygonF(centre)

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        limit = (self.value.thickness / 2 + tolerance) ** 2
        px, py = scene_pos.x(), scene_pos.y()
        for a, b in self.value.segments():
            if point_segment_distance_sq_xy(px, py, a.x, a.y, b.x, b.y) <= limit:
                return True
        p = self.value.points[0]
        return len(self.value.points) == 1 and math.hypot(px - p.x, py - p.y) ** 2 <= limit

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        t = self.value.thickness
        if t * zoom < THIN_PIXELS:
            painter.setPen(self._thin_pen(look[2], t, t * zoom < 1.0, not self._solid))
            painter.drawPolyline(self._extra)
            return
        if self._solid and len(self.value.points) > SIMPLIFY_NODES:
            self._paint_long_wall(painter, look, zoom)
        elif self._solid:
            super().paint_object(painter, look, selected, zoom)
        else:
            # a path the player passes along (a patrol route): a see-through band and its centre line, dashed
            painter.setPen(Qt.NoPen)
            painter.setBrush(look[1])
            painter.drawPath(self._outline)
            painter.setPen(look[0])
            painter.drawPolyline(self._extra)
        if selected:
            # the nodes, so a selected wall shows how it is built
            painter.setPen(_NODE_PEN)
            p0 = self.value.points[0]
            painter.drawPoints([QPointF(p.x - p0.x, p.y - p0.y) for p in self.value.points])

    def _paint_long_wall(self, painter: QPainter, look, zoom: float) -> None:
        """A wall of many nodes, whose outline overlaps itself at every joint.

        The centre line stroked in the edge's colour half an edge wider than the
        wall, then in the fill's colour half an edge narrower: the edge lies on the
        outline as the pen drawing the outline would put it, without the seams the
        overlapping pieces of an unsimplified outline would show.
        """
        edge = look[0]
        half = max(edge.widthF(), 1.0) / zoom / 2
        for color, width in ((edge.color(), self.value.thickness + 2 * half),
                             (look[1].color(), self.value.thickness - 2 * half)):
            pen = QPen(color, width)
            pen.setCapStyle(Qt.RoundCap)
            pen.setJoinStyle(Qt.RoundJoin)
            painter.setPen(pen)
            painter.drawPolyline(self._extra)

    @classmethod
    def _thin_pen(cls, color: QColor, thickness: float, hairline: bool, dashed: bool = False) -> QPen:
        key = (color.rgba(), thickness, hairline, dashed)
        pen = cls._thin_pens.get(key)
        if pen is None:
            # under a pixel wide: one pixel, so the wall stays visible
            pen = QPen(color, 1.0 if hairline else thickness)
            pen.setCosmetic(hairline)
            pen.setCapStyle(Qt.FlatCap if dashed else Qt.RoundCap)
            pen.setJoinStyle(Qt.RoundJoin)
            if dashed:
                # a path the player walks along (a patrol route), not a wall
                pen.setStyle(Qt.DashLine)
            cls._thin_pens[key] = pen
        return pen

    def paint_label(self, painter: QPainter, text: str, color: QColor, zoom: float) -> None:
        """The type's name along the longest segment, upright, when the wall is wide enough on screen to hold it."""
        _, metrics = label_font()
        width = metrics.horizontalAdvance(text) + 4
        height = metrics.height()
        if self.value.thickness * zoom < height:
            return
        segments = list(self.value.segments())
        if not segments:
            return
        a, b = max(segments, key=lambda s: (s[1].x - s[0].x) ** 2 + (s[1].y - s[0].y) ** 2)
        dx, dy = b.x - a.x, b.y - a.y
        if math.hypot(dx, dy) * zoom < width + height:
            return
        angle = math.degrees(math.atan2(dy, dx))
        if angle > 90:
            angle -= 180
        elif angle <= -90:
            angle += 180
        p0 = self.value.points[0]
        mid = painter.worldTransform().map(QPointF((a.x + b.x) / 2 - p0.x, (a.y + b.y) / 2 - p0.y))
        painter.save()
        painter.resetTransform()
        painter.translate(mid)
        painter.rotate(angle)
        painter.setFont(label_font()[0])
        painter.setPen(color)
        painter.drawText(QRectF(-width / 2, -height / 2, width, height), Qt.AlignCenter, text)
        painter.restore()

    def padding(self, value) -> float:
        return 2.0
