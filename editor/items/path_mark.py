"""The mark of a moving object: its path from its middle, a dot at each point, and its ghost where each point
puts it (format version 3's ``path``)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF

__all__ = ["paint_path", "path_middle", "PATH_COLOR"]

#: A warm yellow, apart from the one-way mark's cyan and every type colour's fill.
PATH_COLOR = QColor(255, 205, 70)
#: Screen pixels: the line's width and the points' dots.
LINE_PIXELS = 1.5
DOT_PIXELS = 5.0


def path_middle(obj) -> tuple[float, float]:
    """Where an object's path is drawn from, in the scene: the middle of its bounds (handles go there too)."""
    x0, y0, x1, y1 = obj.bounds()
    return (x0 + x1) / 2, (y0 + y1) / 2


def paint_path(painter: QPainter, path, outline: QPainterPath, middle: QPointF, zoom: float) -> None:
    """Draw ``path`` (a :class:`~level_editor.core.level.motion.MovePath`) of an object whose outline is ``outline``
    (relative to its anchor, as its item draws it), from the outline's ``middle``."""
    if zoom <= 0:
        return
    points = [QPointF(middle.x() + p.x, middle.y() + p.y) for p in path.points]
    if path.mode == "loop":
        points.append(points[0])
    ghost = QPen(PATH_COLOR, 1.0, Qt.DotLine)
    ghost.setCosmetic(True)
    painter.setPen(ghost)
    painter.setBrush(Qt.NoBrush)
    for p in path.points[1:]:
        painter.drawPath(outline.translated(p.x, p.y))
    line = QPen(PATH_COLOR, LINE_PIXELS, Qt.DashLine)
    line.setCosmetic(True)
    painter.setPen(line)
    painter.drawPolyline(QPolygonF(points))
    painter.setPen(Qt.NoPen)
    painter.setBrush(PATH_COLOR)
    r = DOT_PIXELS / 2 / zoom
    for p in points:
        painter.drawEllipse(p, r, r)
