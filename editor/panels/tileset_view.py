"""A tileset's tiles to pick from, zoomed: a picture cut into tiles, with grid lines (a click picks a tile, a drag
a block of them), or a collection of pictures, each shrunk into a square of its own and laid out in rows as wide
as the dock (a click picks one), as Tiled shows them."""
from __future__ import annotations

import math
from typing import Optional

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QMouseEvent, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from level_editor.core.level.art import NO_TILE, Tileset
from level_editor.editor.support.guard import guarded

#: The colours of the grid lines, the picked tiles' frame and the tiles' collision shapes.
GRID_COLOR = QColor(0, 0, 0, 90)
PICK_COLOR = QColor(40, 140, 255)
COLLISION_COLOR = QColor(240, 70, 60)

Block = tuple[int, int, int, int]  # first column, first row, last column, last row (inclusive)

#: The side of a collection's square for each picture at a zoom of 100 %, in pixels.
THUMBNAIL = 64
#: The room around a collection's picture inside its square.
THUMBNAIL_PAD = 2


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
        # a collection: its tiles in the order shown, each tile's picture (None: missing), the room across
        self.collection: list[int] = []
        self.tile_pictures: dict[int, Optional[QImage]] = {}
        self.wrap_width = 4 * THUMBNAIL
        self._press: Optional[tuple[int, int]] = None
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.setMouseTracking(False)

    # -- what it shows ---------------------------------------------------------------
    def set_tileset(self, tileset: Optional[Tileset], picture: Optional[QImage],
                    tile_pictures: Optional[dict] = None) -> None:
        """Show ``tileset``: cut from ``picture``, or (a collection) its tiles' ``tile_pictures`` (tile ->
        picture, None for one that cannot be shown)."""
        self.tileset, self.picture = tileset, picture
        self.tile_pictures = dict(tile_pictures or {})
        self.collection = sorted(self.tile_pictures) if self.is_collection else []
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def set_zoom(self, zoom: float) -> None:
        self.zoom = zoom
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def set_wrap_width(self, width: int) -> None:
        """The room across a collection's rows (the dock's width)."""
        width = max(int(width), 1)
        if width != self.wrap_width:
            self.wrap_width = width
            if self.is_collection:
                self.updateGeometry()
                self.adjustSize()
                self.update()

    @property
    def is_collection(self) -> bool:
        return self.tileset is not None and self.tileset.is_collection

    def _cell(self) -> float:
        return THUMBNAIL * self.zoom

    def columns(self) -> int:
        """Tiles across: the tileset's columns, or as many of a collection's squares as fit the room across."""
        ts = self.tileset
        if ts is None:
            return 0
        if ts.is_collection:
            return max(1, min(len(self.collection), math.floor(self.wrap_width / self._cell())))
        return ts.columns

    def set_block(self, block: Optional[Block]) -> None:
        self.block = block
        self.update()

    def rows(self) -> int:
        ts = self.tileset
        if ts is not None and ts.is_collection:
            return math.ceil(len(self.collection) / self.columns())
        if ts is None or ts.columns <= 0:
            return 0
        return math.ceil(ts.count / ts.columns)

    def sizeHint(self) -> QSize:
        if self.is_collection:
            side = self._cell()
            return QSize(math.ceil(self.columns() * side), math.ceil(self.rows() * side))
        if self.picture is None:
            return QSize(0, 0)
        return QSize(math.ceil(self.picture.width() * self.zoom), math.ceil(self.picture.height() * self.zoom))

    def tile_rect(self, tile: int) -> QRectF:
        """Where tile ``tile`` is drawn in the widget (a collection's: its square)."""
        if self.is_collection:
            at = self.collection.index(tile) if tile in self.collection else 0
            columns, side = self.columns(), self._cell()
            return QRectF((at % columns) * side, (at // columns) * side, side, side)
        x, y, w, h = self.tileset.source_rect(tile)
        z = self.zoom
        return QRectF(x * z, y * z, w * z, h * z)

    def cell_at(self, pos: QPointF) -> Optional[tuple[int, int]]:
        """The ``(column, row)`` of the tile under ``pos`` (the nearest one on the spacing between tiles)."""
        ts = self.tileset
        if self.is_collection:
            if not self.collection:
                return None
            columns, side = self.columns(), self._cell()
            col = min(max(math.floor(pos.x() / side), 0), columns - 1)
            row = min(max(math.floor(pos.y() / side), 0), self.rows() - 1)
            return (col, row) if row * columns + col < len(self.collection) else None
        if ts is None or self.picture is None or ts.columns <= 0:
            return None
        x, y = pos.x() / self.zoom - ts.margin, pos.y() / self.zoom - ts.margin
        col = math.floor(x / (ts.tile_size.x + ts.spacing))
        row = math.floor(y / (ts.tile_size.y + ts.spacing))
        return (min(max(col, 0), ts.columns - 1), min(max(row, 0), max(self.rows() - 1, 0)))

    def tile_of(self, col: int, row: int) -> int:
        ts = self.tileset
        if self.is_collection:
            at = row * self.columns() + col
            return self.collection[at] if 0 <= col < self.columns() and 0 <= at < len(self.collection) else NO_TILE
        tile = row * ts.columns + col
        return tile if 0 <= col < ts.columns and 0 <= tile < ts.count else NO_TILE

    def picture_rect(self, tile: int) -> QRectF:
        """Where the tile's picture is drawn: its square's middle, shrunk to fit (a cut tile: its place)."""
        square = self.tile_rect(tile)
        if not self.is_collection:
            return square
        size = self.tileset.tile_picture_size(tile)
        room = square.width() - 2 * THUMBNAIL_PAD * self.zoom
        scale = min(room / max(size.x, 1.0), room / max(size.y, 1.0), self.zoom)  # shrunk, never enlarged
        w, h = size.x * scale, size.y * scale
        return QRectF(square.center().x() - w / 2, square.center().y() - h / 2, w, h)

    @guarded("drawing the tileset")
    def paintEvent(self, event) -> None:
        ts, picture = self.tileset, self.picture
        if self.is_collection:
            self._paint_collection()
            return
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

    def _paint_collection(self) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(200, 200, 200))
        painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
        for tile in self.collection:
            square, where = self.tile_rect(tile), self.picture_rect(tile)
            picture = self.tile_pictures.get(tile)
            if picture is not None:
                painter.drawImage(where, picture)
            else:  # missing: hatched, with the file's name
                painter.fillRect(square.adjusted(2, 2, -2, -2), QBrush(QColor(150, 150, 150), Qt.BDiagPattern))
                painter.setPen(QColor(60, 60, 60))
                name = self.tileset.info(tile).image.rsplit("/", 1)[-1]
                painter.drawText(square.adjusted(3, 3, -3, -3), Qt.AlignCenter | Qt.TextWrapAnywhere, name)
            painter.setPen(QPen(GRID_COLOR, 1))
            painter.setBrush(Qt.NoBrush)
            painter.drawRect(square)
        if self.show_collision:
            self._draw_collision(painter)
        if self.block is not None:
            tile = self.tile_of(self.block[0], self.block[1])
            if tile >= 0:
                fill = QColor(PICK_COLOR)
                fill.setAlpha(60)
                painter.setPen(QPen(PICK_COLOR, 2))
                painter.setBrush(fill)
                painter.drawRect(self.tile_rect(tile))
        painter.end()

    def _draw_collision(self, painter: QPainter) -> None:
        ts, z = self.tileset, self.zoom
        painter.setRenderHint(QPainter.Antialiasing, True)
        fill = QColor(COLLISION_COLOR)
        fill.setAlpha(70)
        painter.setPen(QPen(COLLISION_COLOR, 1.5))
        painter.setBrush(fill)
        for tile, info in ts.tiles.items():
            if not info.collision or not (tile in self.collection if ts.is_collection else 0 <= tile < ts.count):
                continue
            if ts.is_collection:  # the tile's pixels shrunk into its square
                where, size = self.picture_rect(tile), ts.tile_picture_size(tile)
                x0, y0, k = where.x(), where.y(), where.width() / max(size.x, 1.0)
            else:
                x, y, _, _ = ts.source_rect(tile)
                x0, y0, k = x * z, y * z, z
            for shape in info.collision:
                painter.drawPolygon(QPolygonF([QPointF(x0 + p.x * k, y0 + p.y * k) for p in shape.outline()]))
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
        if here is not None and not self.is_collection:  # a collection's tiles are picked one at a time
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
        return self.tile_rect(self.tile_of(c0, r0)).united(self.tile_rect(self.tile_of(c1, r1))).toRect()
