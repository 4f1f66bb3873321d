"""PointItem: a marker (an enemy's spawn point, a pickup, a lever) drawn as a pin with its name."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPolygonF

from level_editor.core.level.model import Point
from level_editor.editor.items.object_item import TINY_PIXELS, ObjectItem, draw_screen_text, label_font

#: The pin's round head: its radius and how far above the marked point its centre is (level units).
HEAD_RADIUS = 6.0
HEAD_HEIGHT = 16.0
#: Below this zoom the name is left out (it would be too small to read); at 100% and closer it keeps its size.
NAME_MIN_ZOOM = 0.6

_NAME_BACK = QColor(20, 22, 26, 170)
_NAME_TEXT = QColor(236, 238, 242)
_EYE = QColor(255, 255, 255, 230)


def name_of(value: Point) -> str:
    """What the pin says: the marker's id, and its type's name when it has one.

    >>> name_of(Point("goblin-1", (0, 0), type="enemy")), name_of(Point("lever", (0, 0)))
    ('goblin-1 · enemy', 'lever')
    """
    return f"{value.id} · {value.type}" if value.type else value.id


class PointItem(ObjectItem):
    """A pin whose tip is the marked point (the item's position), in its type's colour, with its name beside it.

    The pin has a size in the level (like every object, it grows as the view
    zooms in); the name is written at a fixed size on screen from 100% in, and
    shrinks with the level below that. Only the pin is picked, not the name.
    """

    FILL = QColor(226, 228, 236)
    EDGE = QColor(40, 42, 50)

    #: A marker never collides, and is drawn solid all the same: it is a point, not an area.
    PASSABLE_LOOK = False

    def shape_key(self, value: Point):
        # the name is part of what the item draws, so it is part of its shape
        return name_of(value)

    def build_outline(self, value: Point) -> QPainterPath:
        r, h = HEAD_RADIUS, HEAD_HEIGHT
        head = QPainterPath()
        head.addEllipse(QPointF(0, -h), r, r)
        tail = QPainterPath()
        # from the tip up to the head's widest points, so head and tail join smoothly
        tail.addPolygon(QPolygonF([QPointF(0, 0), QPointF(-r * 0.8, -h + r * 0.6), QPointF(r * 0.8, -h + r * 0.6)]))
        tail.closeSubpath()
        return head.united(tail).simplified()

    def label_rect(self, value: Point) -> Optional[QRectF]:
        _, metrics = label_font()
        # at 100%, one level unit is one pixel: the name's size there is its largest in level units
        width = metrics.horizontalAdvance(name_of(value)) + 8
        height = metrics.height() + 2
        return QRectF(HEAD_RADIUS + 3, -HEAD_HEIGHT - height / 2, width, height)

    def outline_extra(self, value: Point) -> QRectF:
        # kept with the shared outline: measuring the name again on every paint would cost a font lookup
        return self.label_rect(value)

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        p = self.value.position
        x, y = scene_pos.x() - p.x, scene_pos.y() - p.y
        r = HEAD_RADIUS + tolerance
        return -r <= x <= r and -HEAD_HEIGHT - r <= y <= tolerance

    def paint_at(self, painter: QPainter, zoom: float) -> None:
        state = self.look_state()
        kind = self._type
        look = self.look(state, self.looks.type_colors.get(kind) if kind else None, True)
        if self._extent * zoom < TINY_PIXELS:
            painter.fillRect(self._outline_rect, look[2])
            return
        painter.setPen(look[0])
        painter.setBrush(look[1])
        painter.drawPath(self._outline)
        painter.setPen(Qt.NoPen)
        painter.setBrush(_EYE)
        painter.drawEllipse(QPointF(0, -HEAD_HEIGHT), HEAD_RADIUS * 0.35, HEAD_RADIUS * 0.35)
        if zoom >= NAME_MIN_ZOOM and not self.looks.playing:  # a name is for editing, as a type's
            self._paint_name(painter, zoom)

    def _paint_name(self, painter: QPainter, zoom: float) -> None:
        text = name_of(self.value)
        local = self._extra
        if zoom > 1.0:
            # the same size on screen as at 100%, starting beside the head
            start = painter.worldTransform().map(QPointF(local.left(), -HEAD_HEIGHT))
            device = QRectF(start.x(), start.y() - local.height() / 2, local.width(), local.height())
        else:
            device = painter.worldTransform().mapRect(local)
        painter.save()
        painter.resetTransform()
        painter.setPen(Qt.NoPen)
        painter.setBrush(_NAME_BACK)
        painter.drawRoundedRect(device, 3, 3)
        painter.restore()
        if zoom >= 1.0:
            draw_screen_text(painter, device, text, _NAME_TEXT)
        else:
            painter.save()
            font = label_font()[0]
            painter.setFont(font)
            painter.setPen(_NAME_TEXT)
            painter.drawText(local, Qt.AlignCenter, text)
            painter.restore()
