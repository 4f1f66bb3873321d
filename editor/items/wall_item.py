"""WallItem: a chain of nodes drawn exactly as it collides (capsules: round caps and joins)."""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF

from level_editor.core.collision.geometry import point_segment_distance_sq_xy
from level_editor.core.level.model import Wall
from level_editor.editor.items import node_chain
from level_editor.editor.support.guard import report_error
from level_editor.editor.items.object_item import SELECTED_COLOR, ObjectItem, label_font


_NODE_PEN = QPen(SELECTED_COLOR, 5.0)
_NODE_PEN.setCosmetic(True)
_NODE_PEN.setCapStyle(Qt.RoundCap)

#: Thinner than this on screen (pixels), a wall is drawn as its centre line stroked as wide as the wall.
THIN_PIXELS = 4.0

#: A solid long wall at least a pixel wide on screen whose strokes in view would cover more than this many
#: screen pixels (overlaps counted each time) is drawn as a picture made with NumPy (node_chain.dense_picture):
#: Qt's antialiased strokes cost by the pixel they cover, again for every overlap and for the edge under the fill.
#: A 300,000-node zig-zag of teeth 40 units high and half a unit apart took 0.53 s a frame at 400% (its 700
#: teeth in view cover 900,000 pixels twice), a random walk at 60% to 180% 0.3 to 0.6 s.
DENSE_INK_PIXELS = 150_000

#: Walls of more nodes than this keep the stroke's outline as it comes: ``QPainterPath.simplified()`` (the
#: union of the capsules that overlap at every joint) grows far faster than the node count (a closed wall of
#: 20,000 nodes took a minute to open). Their fill is the same (the stroke fills by winding); the edge is drawn
#: as the centre line stroked a little wider than the wall under the fill, which looks the same.
#:
#: These long walls are also kept as one NumPy array of their nodes (editor/items/node_chain.py): made, drawn
#: and picked without a Python loop over the nodes, drawn only where in view and at most a node per half pixel,
#: their collision outline (``shape()``) made the first time Qt asks for it. A 200,000-node wall took 1 s to
#: open and 1 to 6 s to draw at 100% or 20% (measured before).
SIMPLIFY_NODES = 256


def _rect_of(path: QPainterPath):
    """The rectangle ``path`` is (one closed subpath along its bounding rectangle's sides), or None."""
    if path.elementCount() != 5:
        return None
    rect = path.boundingRect()
    xs, ys = (rect.left(), rect.right()), (rect.top(), rect.bottom())
    for i in range(5):
        e = path.elementAt(i)
        if e.x not in xs or e.y not in ys:
            return None
    return rect


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

    def _long_nodes(self, value: Wall):
        """The nodes of a long wall as an array relative to the first (None for a wall of few nodes).

        Made once per value: ``shape_key`` and ``_make_shape`` both read it as the item syncs.
        """
        if len(value.points) <= SIMPLIFY_NODES:
            return None
        made = getattr(self, "_nodes_made", None)
        if made is not None and made[0] is value.points and made[1] == value.closed:
            return made[2]
        nodes = node_chain.nodes_of(value.points, value.closed)
        self._nodes_made = (value.points, value.closed, nodes)
        return nodes

    def shape_key(self, value: Wall):
        nodes = self._long_nodes(value)
        if nodes is not None:
            # the same rounding as below, as one bytes string (a tuple of 200,000 pairs took 0.2 s)
            return (np.round(nodes * 1e6).astype(np.int64).tobytes(), value.thickness, value.closed)
        # in millionths of a unit: after a move, p - p0 can differ in the last bit, and a pure move must not
        # rebuild the outline (round(v * 1e6) is three times faster than round(v, 6), and walls come by the 10,000)
        p0 = value.points[0]
        x0, y0 = p0.x, p0.y
        return (tuple([(round((p.x - x0) * 1e6), round((p.y - y0) * 1e6)) for p in value.points]),
                value.thickness, value.closed)

    def build_outline(self, value: Wall) -> QPainterPath:
        line = QPainterPath()
        if len(value.points) > SIMPLIFY_NODES:
            # one call, not a lineTo per node
            line.addPolygon(node_chain.polygon_of(node_chain.nodes_of(value.points)))
        else:
            p0 = value.points[0]
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
        union = stroke.simplified()
        # ...except that Qt's union can drop the part of a stroke that runs back over itself ((250, 250),
        # (500, 500), (0, 0), 125 thick, lost everything behind the first node): then the stroke as it is
        slack = value.thickness / 4
        if not union.boundingRect().adjusted(-slack, -slack, slack, slack).contains(stroke.boundingRect()):
            return stroke
        return union

    def _make_shape(self, value: Wall) -> tuple:
        nodes = self._long_nodes(value)
        if nodes is None:
            return super()._make_shape(value)
        # no outline yet (shape() makes it when Qt first asks); the drawn rectangle from the nodes
        rect = node_chain.bounds_of(nodes, value.thickness / 2)
        pad = self.padding(value)
        bounds = rect.adjusted(-pad, -pad, pad, pad)
        return (None, rect, max(rect.width(), rect.height()), bounds,
                (bounds.left(), bounds.top(), bounds.right(), bounds.bottom()), nodes)

    def shape(self) -> QPainterPath:
        try:
            if self._outline is None:
                # a long wall's outline, made once per item the first time Qt needs it (a rubber band);
                # drawing and picking never do
                self._outline = self.build_outline(self.value)
            return self._outline
        except Exception as error:  # noqa: BLE001 - the boundary with Qt: report, never raise into it
            report_error("outlining an object on the canvas", error)
            return QPainterPath()

    def collidesWithPath(self, path: QPainterPath, mode=Qt.IntersectsItemShape) -> bool:  # noqa: N802 - Qt's name
        """A rubber band (a rectangle) against a long wall: tested on its nodes, without making its outline.

        Qt asks this of every item a rubber band's rectangle reaches; its own test
        needs the outline (``shape()``), which for 300,000 nodes took 0.4 to 0.85 s.
        """
        try:
            rect = _rect_of(path) if self.is_long else None
            if rect is None or mode not in (Qt.IntersectsItemShape, Qt.ContainsItemShape):
                return super().collidesWithPath(path, mode)
            radius = self.value.thickness / 2
            if mode == Qt.ContainsItemShape:
                return rect.contains(node_chain.bounds_of(self._extra, radius))
            return node_chain.chain_meets_rect(self._extra, rect, radius)
        except Exception as error:  # noqa: BLE001 - the boundary with Qt: report, never raise into it
            report_error("selecting an object on the canvas", error)
            return False

    @property
    def is_long(self) -> bool:
        """Whether the wall is drawn and picked from its array of nodes (more than :data:`SIMPLIFY_NODES`)."""
        return isinstance(self._extra, np.ndarray)

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
        if self.is_long:
            p0 = self.value.points[0]
            return node_chain.distance_sq_to_chain(self._extra, px - p0.x, py - p0.y, math.sqrt(limit)) <= limit
        for a, b in self.value.segments():
            if point_segment_distance_sq_xy(px, py, a.x, a.y, b.x, b.y) <= limit:
                return True
        p = self.value.points[0]
        return len(self.value.points) == 1 and math.hypot(px - p.x, py - p.y) ** 2 <= limit

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        if self.is_long:
            self._paint_long(painter, look, selected, zoom)
            return
        t = self.value.thickness
        if t * zoom < THIN_PIXELS:
            painter.setPen(self._thin_pen(look[2], t, t * zoom < 1.0, not self._solid))
            painter.drawPolyline(self._extra)
            return
        if self._solid:
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

    def _paint_long(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        """A wall of more than :data:`SIMPLIFY_NODES` nodes: as the others look, drawn only where in view.

        The centre line is cut to the segments that reach into the painter's
        view, thinned to a node per half pixel and handed to Qt in short runs
        (node_chain.runs_in_view); the strokes of a solid wall are opaque, so
        where runs meet shows no seam. An area the player passes through is a
        see-through band (a stroke of the fill's colour, darker where it crosses
        itself) and a dashed centre line, drawn in one run per stretch in view.
        """
        t = self.value.thickness
        view = self._view_of(painter)
        if view is None:
            return
        edge = look[0]
        half = max(edge.widthF(), 1.0) / zoom / 2
        # see-through or dashed (an area the player passes through): where two runs overlap the band would
        # show darker and each run would start its dashes anew, so one polyline per stretch in view
        # (and a hairline: Qt draws a one-pixel polyline of any length at once, and a run per call costs more)
        if self._solid and t * zoom >= 1.0 and self._paint_dense(painter, look, zoom, view):
            if selected:
                painter.setPen(_NODE_PEN)
                painter.drawPoints(node_chain.nodes_in_view(self._extra, view, zoom))
            return
        run_nodes = node_chain.RUN_NODES if self._solid and t * zoom >= 1.0 else 1 << 30
        runs = node_chain.runs_in_view(self._extra, view, t / 2 + 2 * half + 2 / zoom, zoom, run_nodes)
        if t * zoom < THIN_PIXELS:
            strokes = [self._thin_pen(look[2], t, t * zoom < 1.0, not self._solid)]
        elif self._solid:
            strokes = [self._band_pen(edge.color(), t + 2 * half), self._band_pen(look[1].color(), t - 2 * half)]
        else:
            strokes = [self._band_pen(look[1].color(), t), edge]
        draw = painter.drawPolyline
        for pen in strokes:
            # every run in one pen before the next: the fill covers the edge drawn under it, run after run
            painter.setPen(pen)
            for run in runs:
                draw(run)
        if selected:
            painter.setPen(_NODE_PEN)
            painter.drawPoints(node_chain.nodes_in_view(self._extra, view, zoom))

    def _paint_dense(self, painter: QPainter, look, zoom: float, view: QRectF) -> bool:
        """Draw a solid long wall as a picture of its capsules when its strokes would cover many pixels.

        The picture (node_chain.dense_picture) has the colours the strokes have:
        the edge colour in a ring as wide as the edge pen round the fill, or one
        colour when the wall is thin on screen; it has no antialiasing, which
        shows little where the wall is dense. Returns False (nothing drawn) when
        the strokes are few enough for Qt, the view turns or stretches the
        wall, or the wall is too dense even for the picture.
        """
        m = painter.worldTransform()
        if m.m12() != 0 or m.m21() != 0 or m.m11() != m.m22() or m.m11() <= 0:
            return False
        t = self.value.thickness
        nodes = self._extra
        seen = np.flatnonzero(node_chain.segments_meeting(nodes, view.left() - t, view.top() - t, view.right() + t,
                                                          view.bottom() + t))
        d = nodes[seen + 1] - nodes[seen]
        ink = (np.hypot(d[:, 0], d[:, 1]).sum() * zoom + len(d) * t * zoom) * t * zoom
        if ink < DENSE_INK_PIXELS:
            return False
        device = m.mapRect(view)
        box = (math.floor(device.left()), math.floor(device.top()), math.ceil(device.right()),
               math.ceil(device.bottom()))
        if box[2] <= box[0] or box[3] <= box[1]:
            return True
        if t * zoom < THIN_PIXELS:
            made = node_chain.dense_picture(nodes, zoom, m.dx(), m.dy(), box, t * zoom / 2,
                                            node_chain.premultiplied(look[2]))
        else:
            edge = look[0]
            ring = max(1, round(edge.widthF()))
            made = node_chain.dense_picture(nodes, zoom, m.dx(), m.dy(), box, t * zoom / 2 + ring / 2,
                                            node_chain.premultiplied(look[1].color()), ring,
                                            node_chain.premultiplied(edge.color()))
        if made is None:
            return False
        image, x, y, _pixels = made
        if image is not None:
            painter.save()
            painter.resetTransform()
            painter.drawImage(x, y, image)
            painter.restore()
        return True

    @staticmethod
    def _band_pen(color: QColor, width: float) -> QPen:
        pen = QPen(color, width)
        pen.setCapStyle(Qt.RoundCap)
        pen.setJoinStyle(Qt.RoundJoin)
        return pen

    @staticmethod
    def _view_of(painter: QPainter):
        """The part of the item's coordinates the painter can reach (its device, its clip), or None."""
        inverse, invertible = painter.worldTransform().inverted()
        if not invertible:
            return None
        device = painter.device()
        view = inverse.mapRect(QRectF(0, 0, device.width(), device.height()))
        if painter.hasClipping():
            view = view.intersected(painter.clipBoundingRect())
        return view

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
        p0 = self.value.points[0]
        if self.is_long:
            ax, ay, bx, by = node_chain.longest_segment(self._extra)
            ax, ay, bx, by = ax + p0.x, ay + p0.y, bx + p0.x, by + p0.y
        else:
            segments = list(self.value.segments())
            if not segments:
                return
            a, b = max(segments, key=lambda s: (s[1].x - s[0].x) ** 2 + (s[1].y - s[0].y) ** 2)
            ax, ay, bx, by = a.x, a.y, b.x, b.y
        dx, dy = bx - ax, by - ay
        if math.hypot(dx, dy) * zoom < width + height:
            return
        angle = math.degrees(math.atan2(dy, dx))
        if angle > 90:
            angle -= 180
        elif angle <= -90:
            angle += 180
        mid = painter.worldTransform().map(QPointF((ax + bx) / 2 - p0.x, (ay + by) / 2 - p0.y))
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
