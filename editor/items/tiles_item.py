"""TilesItem: a tile grid, its solid cells filled and a faint cell grid over its whole extent."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, QTimer
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen

from level_editor.core.level.model import Tiles
from level_editor.editor.items.object_item import ObjectItem
from level_editor.editor.painting.tile_chunks import MAKE_BUDGET, TileChunks

#: QInternal::Widget, what ``QPaintDevice.devType()`` says of a widget.
_WIDGET = 1

#: The cell grid is drawn only when a cell is at least this many pixels on screen (else it is a grey wash).
GRID_PIXELS = 6.0


class TilesItem(ObjectItem):
    """A tile grid drawn from its origin (the item's position).

    The solid cells are filled as one outline (the union of the few rectangles
    :meth:`Tiles.solid_rects` gives), so a run of cells reads as the one flat
    surface it collides as; a faint line between every two cells shows the grid
    that painting would snap to, empty cells included. Only solid cells are
    hit: a click on an empty cell reaches whatever lies under the grid.
    """

    FILL = QColor(150, 156, 120)
    EDGE = QColor(58, 62, 40)

    #: (look's edge colour) -> the faint pen of the cell lines
    _grid_pens: dict = {}

    #: The chunk pictures of its painted grid, made when it first draws one.
    chunks = None
    _finishing = False

    def shape_key(self, value: Tiles):
        return value.cell, value.cells, value.tiles, value.art

    def padding(self, value: Tiles) -> float:
        # tiles larger than a cell (or shifted by their tileset's offset) draw beyond the grid's cells
        art = value.art if value.tileset else None
        if art is None:
            return super().padding(value)
        return max(art.tile_size.x, art.tile_size.y) + abs(art.offset.x) + abs(art.offset.y)

    def build_outline(self, value: Tiles) -> QPainterPath:
        o = value.origin
        path = QPainterPath()
        for r in value.solid_rects():
            path.addRect(QRectF(r.origin.x - o.x, r.origin.y - o.y, r.size.x, r.size.y))
        # one outline around each group of touching cells, no seams inside it
        return path.simplified()

    def drawn_rect(self, value: Tiles, outline: QPainterPath) -> QRectF:
        return QRectF(0, 0, value.columns * value.cell, value.rows * value.cell)

    def outline_extra(self, value: Tiles) -> list[QLineF]:
        """The lines between cells, relative to the origin."""
        c, cols, rows = value.cell, value.columns, value.rows
        w, h = cols * c, rows * c
        lines = [QLineF(i * c, 0, i * c, h) for i in range(cols + 1)]
        lines += [QLineF(0, j * c, w, j * c) for j in range(rows + 1)]
        return lines

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        v = self.value
        c0, r0 = v.cell_at(scene_pos.x() - tolerance, scene_pos.y() - tolerance)
        c1, r1 = v.cell_at(scene_pos.x() + tolerance, scene_pos.y() + tolerance)
        # a few cells at most: the tolerance is a few pixels
        c0, r0 = max(c0, 0), max(r0, 0)
        c1, r1 = min(c1, v.columns - 1), min(r1, v.rows - 1)
        return any(v.is_solid(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        value = self.value
        if value.tileset:
            # the art as the game draws it, from chunk pictures; the outline of its cells only when selected or
            # hovered
            exposed = painter.worldTransform().inverted()[0].mapRect(QRectF(painter.viewport()))
            if self.chunks is None:
                self.chunks = TileChunks()
            # on screen a frame makes what chunks it can and asks for another; a picture (the overview) waits
            budget = MAKE_BUDGET if painter.device().devType() == _WIDGET else math.inf
            if not self.chunks.paint(painter, value, self.looks.base_folder, exposed, zoom, budget):
                self._finish_later()
            if self.look_state() != self.NORMAL:
                painter.setPen(look[0])
                painter.setBrush(QColor(0, 0, 0, 0))
                painter.drawPath(self._outline)
            return
        painter.setPen(look[0])
        painter.setBrush(look[1])
        painter.drawPath(self._outline)
        if self.value.cell * zoom >= GRID_PIXELS:
            painter.setPen(self._grid_pen(look[0].color()))
            painter.drawLines(self._extra)

    def _finish_later(self) -> None:
        """Draw again once the events waiting are handled: the chunks not made this frame come then."""
        if not self._finishing:
            self._finishing = True
            QTimer.singleShot(0, self._finish)

    def _finish(self) -> None:
        self._finishing = False
        try:
            if self.scene() is not None:
                self.update()
        except RuntimeError:  # the item was let go meanwhile
            pass

    @classmethod
    def _grid_pen(cls, color: QColor) -> QPen:
        key = color.rgba()
        pen = cls._grid_pens.get(key)
        if pen is None:
            faint = QColor(color)
            faint.setAlpha(70)
            pen = cls._grid_pens[key] = QPen(faint, 1.0)
            pen.setCosmetic(True)
        return pen
