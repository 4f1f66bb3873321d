"""What the items of turned rectangles share (an oriented box, a sprite): the outline about the centre, and
the hit test in the rectangle's own axes."""
from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainterPath, QPolygonF

from level_editor.core.collision.geometry import rotation_cos_sin
from level_editor.core.collision.shapes import Vec2

__all__ = ["outline_about", "hits_turned_rect"]


def outline_about(center: Vec2, corners) -> QPainterPath:
    """The closed outline through ``corners``, relative to ``center`` (the item's position)."""
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(p.x - center.x, p.y - center.y) for p in corners]))
    path.closeSubpath()
    return path


def hits_turned_rect(center: Vec2, half_w: float, half_h: float, rotation: float, scene_pos: QPointF,
                     tolerance: float) -> bool:
    """Whether ``scene_pos`` is within ``tolerance`` of the rectangle turned by ``rotation`` about ``center``."""
    cos, sin = rotation_cos_sin(rotation)
    dx, dy = scene_pos.x() - center.x, scene_pos.y() - center.y
    # the point in the rectangle's own axes
    lx, ly = dx * cos + dy * sin, -dx * sin + dy * cos
    return abs(lx) <= half_w + tolerance and abs(ly) <= half_h + tolerance
