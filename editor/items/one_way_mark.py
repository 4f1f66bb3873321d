"""The mark of a one-way floor: its top edge drawn thick, with small arrows pointing up through it.

A one-way object (format version 3) is landed on from above and passed through from below. The canvas says so
where it matters, on the surface the player stands on: :func:`top_edges` finds the upward-facing edges of a box,
an oriented box, a wall (the upper side of each segment, its thickness away from the nodes) and a tile grid (the
tops of runs of cells with nothing above them); :func:`paint_one_way` draws them at a size fixed on screen.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

from level_editor.core.level.model import Box, OrientedBox, Tiles, Wall, anchor

__all__ = ["top_edges", "paint_one_way", "MARK_COLOR"]

#: The mark's colour: a light cyan that reads on the boxes' brown and the walls' grey alike.
MARK_COLOR = QColor(90, 230, 255)
#: Screen pixels: the edge's width, the arrows' spacing and size.
EDGE_PIXELS = 3.0
ARROW_SPACING = 18.0
ARROW_PIXELS = 4.0


def top_edges(value) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The upward-facing edges of a one-way object, from its anchor (where its item stands), left to right."""
    ax, ay = anchor(value)
    edges = []
    if isinstance(value, Box):
        edges.append(((0.0, 0.0), (value.size.x, 0.0)))
    elif isinstance(value, OrientedBox):
        corners = [(c.x - ax, c.y - ay) for c in value.corners()]
        best = None
        for a, b in zip(corners, corners[1:] + corners[:1]):
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2  # outward: from the centre (the anchor) to the middle
            up = my / math.hypot(mx, my)  # the outward normal's y: the most negative faces up
            if best is None or up < best[0] - 1e-9:
                best = (up, a, b)
        edges.append(best[1:])
    elif isinstance(value, Wall):
        half = value.thickness / 2
        for a, b in value.segments():
            dx, dy = b.x - a.x, b.y - a.y
            length = math.hypot(dx, dy)
            if length == 0.0 or dx == 0.0:
                continue  # no top to a vertical segment
            nx, ny = dy / length, -dx / length
            if ny > 0:
                nx, ny = -nx, -ny
            edges.append(((a.x - ax + nx * half, a.y - ay + ny * half), (b.x - ax + nx * half, b.y - ay + ny * half)))
    elif isinstance(value, Tiles):
        c = value.cell
        for row in range(value.rows):
            col = 0
            while col < value.columns:
                if value.is_solid(col, row) and not value.is_solid(col, row - 1):
                    start = col
                    while col < value.columns and value.is_solid(col, row) and not value.is_solid(col, row - 1):
                        col += 1
                    edges.append(((start * c, row * c), (col * c, row * c)))
                else:
                    col += 1
    return [(a, b) if a[0] <= b[0] else (b, a) for a, b in edges]


def paint_one_way(painter: QPainter, edges, zoom: float) -> None:
    """Draw ``edges`` (from :func:`top_edges`) thick, with arrows pointing up through them, at ``zoom``."""
    if not edges or zoom <= 0:
        return
    pen = QPen(MARK_COLOR, EDGE_PIXELS)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.FlatCap)
    painter.setPen(pen)
    painter.setBrush(Qt.NoBrush)
    painter.drawLines([QLineF(QPointF(*a), QPointF(*b)) for a, b in edges])
    painter.setPen(Qt.NoPen)
    painter.setBrush(MARK_COLOR)
    size = ARROW_PIXELS / zoom
    for (x0, y0), (x1, y1) in edges:
        length = math.hypot(x1 - x0, y1 - y0)
        count = int(length * zoom / ARROW_SPACING)
        if count < 1:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        nx, ny = uy, -ux  # up: the edges run left to right
        for k in range(count):
            t = (k + 0.5) * length / count
            px, py = x0 + ux * t, y0 + uy * t
            tip = QPointF(px + nx * size * 0.5, py + ny * size * 0.5)
            base_l = QPointF(px - ux * size * 0.6 - nx * size, py - uy * size * 0.6 - ny * size)
            base_r = QPointF(px + ux * size * 0.6 - nx * size, py + uy * size * 0.6 - ny * size)
            painter.drawPolygon(QPolygonF([tip, base_l, base_r]))
