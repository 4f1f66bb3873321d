"""A tileset's picture cut into its tiles, zoomed, with grid lines; a click picks a tile, a drag a block of them."""
from __future__ import annotations

import math
from typing import Optional

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from level_editor.core.level.art import NO_TILE, Tileset
from level_editor.editor.support.guard import guarded

#: The colours of the grid lines, the picked tiles' frame and the tiles' collision shapes.
GRID_COLOR = QColor(0, 0, 0, 90)
PICK_COLOR = QColor(40, 140, 255)
COLLISION_COLOR = QColor(240, 70, 60)

Block = tuple[int, int, int, int]  # first column, first row, last column, last row (inclusive)


class TilesetView(QWidget):
    """Draws ``tileset``'s picture at ``zoom`` and picks its tiles with the mouse (emits :attr:`picked`)."""

    #: A block of tiles was picked: ``(c0, r0, c1, r1)``.
    picked = Signal(tuple)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tileset: Optional[Tileset] = None
        self.picture: Optional[QImage] = None
        self.zoom = 1.0
        self.show_collision = True
        self.block: Optional[Block] = None  # the picked block, shown framed
        self._press: Optional[tuple[int, int]] = None
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.setMouseTracking(False)

    # -- what it shows ---------------------------------------------------------------
    def set_tileset(self, tileset: Optional[Tileset], picture: Optional[QImage]) -> None:
        self.tileset, self.picture = tileset, picture
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def set_zoom(self, zoom: float) -> None:
        self.zoom = zoom
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def set_block(self, block: Optional[Block]) -> None:
        self.block = block
        self.update()

    def rows(self) -> int:
        ts = self.tileset
        if ts is None or ts.columns <= 0:
            return 0
        return math.ceil(ts.count / ts.columns)

    def sizeHint(self) -> QSize:
        if self.picture is None:
            return QSize(0, 0)
        return QSize(math.ceil(self.picture.width() * self.zoom), math.ceil(self.picture.height() * self.zoom))

    def tile_rect(self, tile: int) -> QRectF:
        """Where tile ``tile`` is drawn in the widget."""
        x, y, w, h = self.tileset.source_rect(tile)
        z = self.zoom
        return QRectF(x * z, y * z, w * z, h * z)

    def cell_at(self, pos: QPointF) -> Optional[tuple[int, int]]:
        """The ``(column, row)`` of the tile under ``pos`` (the nearest one on the spacing between tiles)."""
        ts = self.tileset
        if ts is None or self.picture is None or ts.columns <= 0:
            return None
        x, y = pos.x() / self.zoom - ts.margin, pos.y() / self.zoom - ts.margin
        col = math.floor(x / (ts.tile_size.x + ts.spacing))
        row = math.floor(y / (ts.tile_size.y + ts.spacing))
        return (min(max(col, 0), ts.columns - 1), min(max(row, 0), max(self.rows() - 1, 0)))

    def tile_of(self, col: int, row: int) -> int:
        ts = self.tileset
        tile = row * ts.columns + col
        return tile if 0 <= col < ts.columns and 0 <= tile < ts.count else NO_TILE

    @guarded("drawing the tileset")
    def paintEvent(self, event) -> None:
        ts, picture = self.tileset, self.picture
        if ts is None or picture is None:
            return
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(200, 200, 200))
        painter.save()
        painter.scale(self.zoom, self.zoom)
        painter.drawImage(0, 0, picture)
        painter.restore()
        painter.setPen(QPen(GRID_COLOR, 1))
        painter.setBrush(Qt.NoBrush)
        for tile in range(ts.count):
            painter.drawRect(self.tile_rect(tile))
        if self.show_collision:
            self._draw_collision(painter)
        if self.block is not None:
            c0, r0, c1, r1 = self.block
            first, last = self.tile_rect(r0 * ts.columns + c0), self.tile_rect(r1 * ts.columns + c1)
            painter.setPen(QPen(PICK_COLOR, 2))
            fill = QColor(PICK_COLOR)
            fill.setAlpha(60)
            painter.setBrush(fill)
            painter.drawRect(first.united(last))
        painter.end()

    def _draw_collision(self, painter: QPainter) -> None:
        ts, z = self.tileset, self.zoom
        painter.setRenderHint(QPainter.Antialiasing, True)
        fill = QColor(COLLISION_COLOR)
        fill.setAlpha(70)
        painter.setPen(QPen(COLLISION_COLOR, 1.5))
        painter.setBrush(fill)
        for tile, info in ts.tiles.items():
            if not info.collision or not 0 <= tile < ts.count:
                continue
            x, y, _, _ = ts.source_rect(tile)
            for shape in info.collision:
                painter.drawPolygon(QPolygonF([QPointF((x + p.x) * z, (y + p.y) * z) for p in shape.outline()]))
        painter.setRenderHint(QPainter.Antialiasing, False)

    # -- picking ---------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.LeftButton:
            return
        self._press = self.cell_at(event.position())
        if self._press is not None:
            self.set_block(self._press + self._press)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is None:
            return
        here = self.cell_at(event.position())
        if here is not None:
            (a, b), (c, d) = self._press, here
            self.set_block((min(a, c), min(b, d), max(a, c), max(b, d)))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.LeftButton or self._press is None:
            return
        self.mouseMoveEvent(event)
        self._press = None
        if self.block is not None:
            self.picked.emit(self.block)

    def block_rect(self, block: Block) -> QRect:
        """Where a block of tiles is in the widget (for tests and scrolling)."""
        c0, r0, c1, r1 = block
        ts = self.tileset
        return self.tile_rect(r0 * ts.columns + c0).united(self.tile_rect(r1 * ts.columns + c1)).toRect()
