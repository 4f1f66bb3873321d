"""Pictures the painting tests draw with: tilesets made in the test, each tile its own colour with two marks.

Mark A (white) is in each tile's top-left corner and mark B (black) in its top-right corner, so where they land
shows every flip and quarter turn (a diagonal flip keeps A and moves B to the bottom-left).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QImage, QPainter

#: The colour of each tile by its number (tile 0 red, 1 green, ...).
COLORS = [QColor(200, 40, 40), QColor(40, 180, 60), QColor(40, 70, 200), QColor(220, 200, 40),
          QColor(40, 200, 200), QColor(200, 60, 200), QColor(120, 80, 40), QColor(250, 140, 20)]
MARK = 4
#: The colour between tiles and around them (margin and spacing): it must never show.
GAP = QColor(255, 0, 255)
WHITE, BLACK = QColor(255, 255, 255), QColor(0, 0, 0)


def paint_tile(painter: QPainter, x: int, y: int, w: int, h: int, color: QColor) -> None:
    painter.fillRect(x, y, w, h, color)
    painter.fillRect(x, y, MARK, MARK, WHITE)
    painter.fillRect(x + w - MARK, y, MARK, MARK, BLACK)


def tileset_picture(path: Path, tile: int = 16, columns: int = 4, rows: int = 2, margin: int = 0,
                    spacing: int = 0) -> Path:
    """Write a tileset picture of ``columns`` x ``rows`` tiles of side ``tile``; returns its path."""
    width = 2 * margin + columns * tile + (columns - 1) * spacing
    height = 2 * margin + rows * tile + (rows - 1) * spacing
    image = QImage(width, height, QImage.Format_ARGB32)
    image.fill(GAP)
    painter = QPainter(image)
    for n in range(columns * rows):
        col, row = n % columns, n // columns
        paint_tile(painter, margin + col * (tile + spacing), margin + row * (tile + spacing), tile, tile,
                   COLORS[n % len(COLORS)])
    painter.end()
    assert image.save(str(path))
    return path


def tile_picture(path: Path, width: int, height: int, color: QColor) -> Path:
    """Write one tile's picture (a collection's tile, a sprite's picture file)."""
    image = QImage(width, height, QImage.Format_ARGB32)
    painter = QPainter(image)
    paint_tile(painter, 0, 0, width, height, color)
    painter.end()
    assert image.save(str(path))
    return path


def rgba(image: QImage, x: int, y: int) -> tuple[int, int, int, int]:
    c = image.pixelColor(x, y)
    return c.red(), c.green(), c.blue(), c.alpha()


def rgb(color: QColor) -> tuple[int, int, int]:
    return color.red(), color.green(), color.blue()


def near(found, wanted, tolerance: int = 6) -> bool:
    return len(found) == len(wanted) and all(abs(a - b) <= tolerance for a, b in zip(found, wanted))
