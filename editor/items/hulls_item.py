"""HullsItem: every object's hulls and the level's, drawn by one item (View > Show Hulls).

One item paints them all, so 10,000 objects cost one entry in the scene's
index instead of 40,000 items. A paint draws only the objects in the exposed
area that are large enough on screen for their hulls to mean something (the
test is vectorised over all objects; of very many, only the largest
:data:`MAX_DRAWN`), and builds each object's polygons once, the first time
they are drawn.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from level_editor.core.checks.hulls import LEVEL_KEY
from level_editor.editor.support.guard import guarded

#: Drawn over the objects, under the player's spawn (PLAYER_Z) and the problem marker.
HULLS_Z = 1e9 - 1

#: Objects smaller than this on screen (pixels) have their hulls left out: they would be a blur.
MIN_PIXELS = 12.0

#: At most this many objects' hulls are drawn in one paint, the largest first (a paint stays under ~50 ms).
MAX_DRAWN = 1500

#: Colours of the four hulls, per object (subtle) and for the whole level (strong).
COLORS = {
    "aabb": QColor(110, 160, 255),
    "circle": QColor(90, 215, 140),
    "min_rect": QColor(205, 120, 255),
    "convex_hull": QColor(255, 145, 70),
}
OBJECT_ALPHA = 150
LEVEL_ALPHA = 255

#: For the status bar and tooltips: which colour is which hull.
LEGEND = "hulls: blue bounding box, green bounding circle, purple smallest rectangle, orange convex hull"


def _pen(color: QColor, alpha: int, width: float, dashed: bool = False) -> QPen:
    c = QColor(color)
    c.setAlpha(alpha)
    pen = QPen(c, width)
    pen.setCosmetic(True)
    if dashed:
        pen.setStyle(Qt.DashLine)
    return pen


def _polygon(points) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


class HullsItem(QGraphicsItem):
    """Draws a level's ``hulls`` (as saved in its file): bounding box, circle, smallest rectangle, convex hull."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setZValue(HULLS_Z)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self._object_pens = {k: _pen(c, OBJECT_ALPHA, 1.0) for k, c in COLORS.items()}
        self._level_pens = {k: _pen(c, LEVEL_ALPHA, 2.0, dashed=k != "convex_hull") for k, c in COLORS.items()}
        self.hulls = None
        self.set_hulls({})

    # -- data --------------------------------------------------------------------
    def set_hulls(self, hulls: dict) -> None:
        """Show ``hulls`` (a ``hulls`` object of a level file; ``{}`` shows nothing)."""
        if hulls is self.hulls:
            return  # the same again (a save's, then the check that follows it): 50 ms at 100,000 objects
        self.prepareGeometryChange()
        self.hulls = hulls
        table = getattr(hulls, "object_table", None)
        if table is not None:  # hulls kept as arrays (LevelHulls): an object's dict is made when it is drawn
            self._ids, self._entries, self._aabb, self._centres, self._radii = table()
        else:
            entries = [(k, v) for k, v in hulls.items() if k != LEVEL_KEY]
            self._ids = [k for k, _ in entries]
            self._entries = [v for _, v in entries]
            n = len(entries)
            self._aabb = np.array([v["aabb"] for v in self._entries], dtype=float).reshape(n, 4)
            self._centres = np.array([v["circle"]["center"] for v in self._entries], dtype=float).reshape(n, 2)
            self._radii = np.array([v["circle"]["radius"] for v in self._entries], dtype=float).reshape(n)
        size = np.maximum(self._aabb[:, 2] - self._aabb[:, 0], self._aabb[:, 3] - self._aabb[:, 1])
        self._size = np.maximum(size, 2.0 * self._radii)
        self._polygons: dict[int, tuple[QPolygonF, QPolygonF]] = {}
        self._level = hulls.get(LEVEL_KEY)
        self._level_polygons = None
        bounds = QRectF()
        if self._level is not None:
            self._level_polygons = (_polygon(self._level["convex_hull"]), _polygon(self._level["min_rect"]))
            x0, y0, x1, y1 = self._level["aabb"]
            (cx, cy), r = self._level["circle"]["center"], self._level["circle"]["radius"]
            bounds = QRectF(x0, y0, x1 - x0, y1 - y0).united(QRectF(cx - r, cy - r, 2 * r, 2 * r))
            bounds = bounds.united(self._level_polygons[1].boundingRect())
        self._bounds = bounds.adjusted(-2, -2, 2, 2) if not bounds.isNull() else QRectF()
        self.update()

    def object_ids(self) -> list[str]:
        """The ids whose hulls are shown (level order)."""
        return list(self._ids)

    def drawn_objects(self, rect: QRectF, lod: float) -> np.ndarray:
        """Indices of the objects drawn in ``rect`` at ``lod`` screen pixels per unit (large enough, inside)."""
        a = self._aabb
        if not len(a):
            return np.zeros(0, dtype=np.int64)
        inside = ((a[:, 2] >= rect.left()) & (a[:, 0] <= rect.right())
                  & (a[:, 3] >= rect.top()) & (a[:, 1] <= rect.bottom()))
        drawn = np.flatnonzero(inside & (self._size * lod >= MIN_PIXELS))
        if len(drawn) > MAX_DRAWN:
            largest = np.argpartition(-self._size[drawn], MAX_DRAWN)[:MAX_DRAWN]
            drawn = np.sort(drawn[largest])
        return drawn

    # -- drawing ---------------------------------------------------------------------
    @guarded("drawing the hulls", default=QRectF())
    def boundingRect(self) -> QRectF:
        return self._bounds

    @guarded("drawing the hulls")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self._level is None:
            return
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        rect = option.exposedRect
        painter.setBrush(Qt.NoBrush)
        # a margin for pen widths: cosmetic pens reach a pixel or two beyond the geometry
        pad = 3.0 / max(lod, 1e-9)
        drawn = self.drawn_objects(rect.adjusted(-pad, -pad, pad, pad), lod)
        if len(drawn):
            self._paint_objects(painter, drawn)
        self._paint_level(painter)

    def _paint_objects(self, painter: QPainter, drawn: np.ndarray) -> None:
        pens = self._object_pens
        a = self._aabb[drawn]
        painter.setPen(pens["aabb"])
        painter.drawRects([QRectF(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in a.tolist()])
        painter.setPen(pens["circle"])
        for (cx, cy), r in zip(self._centres[drawn].tolist(), self._radii[drawn].tolist()):
            painter.drawEllipse(QPointF(cx, cy), r, r)
        polygons = [self._polygons_of(k) for k in drawn.tolist()]
        painter.setPen(pens["min_rect"])
        for _, rect in polygons:
            painter.drawPolygon(rect)
        painter.setPen(pens["convex_hull"])
        for hull, _ in polygons:
            painter.drawPolygon(hull)

    def _polygons_of(self, k: int) -> tuple[QPolygonF, QPolygonF]:
        p = self._polygons.get(k)
        if p is None:
            entry = self._entries[k]
            p = self._polygons[k] = (_polygon(entry["convex_hull"]), _polygon(entry["min_rect"]))
        return p

    def _paint_level(self, painter: QPainter) -> None:
        pens = self._level_pens
        level = self._level
        x0, y0, x1, y1 = level["aabb"]
        painter.setPen(pens["aabb"])
        painter.drawRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        (cx, cy), r = level["circle"]["center"], level["circle"]["radius"]
        painter.setPen(pens["circle"])
        painter.drawEllipse(QPointF(cx, cy), r, r)
        hull, rect = self._level_polygons
        painter.setPen(pens["min_rect"])
        painter.drawPolygon(rect)
        painter.setPen(pens["convex_hull"])
        painter.drawPolygon(hull)
