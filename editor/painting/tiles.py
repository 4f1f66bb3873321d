"""Painting a tile grid's tiles as Tiled draws them: each tile's bottom-left corner on its cell's, shifted by
the tileset's offset, flipped and turned by its cell's flags (the diagonal flip first)."""
from __future__ import annotations

import math
from typing import Optional

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QTransform

from level_editor.core.level.art import FLIP_D, cell_matrix, tile_number
from level_editor.core.level.model import Tiles
from level_editor.editor.painting.pictures import tile_source, tileset_picture

__all__ = ["paint_tiles", "cell_transform", "cells_in"]


def cell_transform(value: int) -> QTransform:
    """The flips and turn of a painted cell as a QTransform about the tile's centre."""
    a, b, c, d = cell_matrix(value)
    # QTransform maps (x, y) to (m11 x + m21 y, m12 x + m22 y)
    return QTransform(a, c, b, d, 0.0, 0.0)


def cells_in(grid: Tiles, exposed: Optional[QRectF], reach: float = 0.0) -> tuple[int, int, int, int]:
    """The columns and rows ``(c0, r0, c1, r1)`` (inclusive) of ``grid`` that may draw inside ``exposed``
    (grid-local coordinates; None: all), widened by ``reach`` pixels for tiles larger than a cell."""
    if exposed is None or not grid.tiles:
        return 0, 0, grid.columns - 1, grid.rows - 1
    c = grid.cell
    c0 = max(0, math.floor((exposed.left() - reach) / c))
    r0 = max(0, math.floor((exposed.top() - reach) / c))
    c1 = min(grid.columns - 1, math.floor((exposed.right() + reach) / c))
    r1 = min(grid.rows - 1, math.floor((exposed.bottom() + reach) / c))
    return c0, r0, c1, r1


def paint_tiles(painter: QPainter, grid: Tiles, base_folder: Optional[str], exposed: Optional[QRectF] = None,
                cells: Optional[tuple[int, int, int, int]] = None) -> int:
    """Draw ``grid``'s tiles with the grid's origin at the painter's ``(0, 0)``; only cells that may show inside
    ``exposed`` (grid-local), or only the ``cells`` ``(c0, r0, c1, r1)`` (inclusive; a chunk of them). Returns
    how many tiles could not be drawn (their picture is missing)."""
    tileset = grid.art
    if tileset is None or not grid.tiles:
        return 0
    cell = grid.cell
    size = tileset.tile_size
    reach = max(size.x, size.y) + abs(tileset.offset.x) + abs(tileset.offset.y)
    c0, r0, c1, r1 = cells_in(grid, exposed, reach) if cells is None else cells
    ox, oy = tileset.offset.x, tileset.offset.y
    missing = 0
    pictures: dict[int, tuple] = {}
    for row in range(r0, r1 + 1):
        line = grid.tiles[row]
        bottom = (row + 1) * cell + oy
        for col in range(c0, c1 + 1):
            value = line[col]
            if value < 0:
                continue
            tile = tile_number(value)
            found = pictures.get(tile)
            if found is None:
                picture, _ = tileset_picture(tileset, tile, base_folder)
                if picture is None:
                    found = pictures[tile] = (None, None, 0.0, 0.0)
                else:
                    w, h = tileset.tile_picture_size(tile)
                    found = pictures[tile] = (picture, tile_source(tileset, tile, picture), w, h)
            picture, source, w, h = found
            if picture is None:
                missing += 1
                continue
            left = col * cell + ox
            if value & 0xE0000000 == 0:
                painter.drawImage(QRectF(left, bottom - h, w, h), picture, source)
                continue
            bw, bh = (h, w) if value & FLIP_D else (w, h)
            painter.save()
            painter.translate(left + bw / 2, bottom - bh / 2)
            painter.setTransform(cell_transform(value), True)
            painter.drawImage(QRectF(-w / 2, -h / 2, w, h), picture, source)
            painter.restore()
    return missing
