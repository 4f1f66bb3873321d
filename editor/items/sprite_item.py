"""SpriteItem: a picture placed as an object, drawn as the game draws it, stretched, mirrored and turned."""
from __future__ import annotations

import os

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen

from level_editor.core.level.model import Sprite
from level_editor.editor.items.object_item import ObjectItem, draw_screen_text, label_font
from level_editor.editor.items.turned_rect import hits_turned_rect, outline_about
from level_editor.editor.painting.sprites import paint_sprite, sprite_mean_color, sprite_picture

_MISSING = QBrush(QColor(220, 90, 90, 150), Qt.BDiagPattern)
_MISSING_EDGE = QPen(QColor(230, 110, 110), 1.5, Qt.DashLine)
_MISSING_EDGE.setCosmetic(True)
_MISSING_TEXT = QColor(255, 214, 214)  # as a reference image's placeholder: readable on the dark canvas
_MISSING_BACK = QColor(60, 40, 44, 150)
_SMOOTH, _ANTIALIASING = QPainter.RenderHint.SmoothPixmapTransform, QPainter.RenderHint.Antialiasing
#: Screen pixels (its longer side) below which a sprite is drawn as one square of its picture's mean colour.
SMALL_PIXELS = 6.0


class SpriteItem(ObjectItem):
    """A sprite drawn from its centre (the item's position); hit anywhere on its picture's rectangle."""

    FILL = QColor(120, 140, 200)
    EDGE = QColor(40, 60, 120)

    def shape_key(self, value: Sprite):
        return value.size, value.rotation

    def build_outline(self, value: Sprite) -> QPainterPath:
        return outline_about(value.center, value.corners())

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        v = self.value
        return hits_turned_rect(v.center, v.size.x / 2, v.size.y / 2, v.rotation, scene_pos, tolerance)

    def paint_at(self, painter: QPainter, zoom: float) -> None:
        # A sprite a few pixels across on screen is drawn as one square of its picture's mean colour: so looks a
        # picture shrunk that far, and a far-out view of a level of 100,000 sprites is painted in a third of the time
        if self._extent * zoom < SMALL_PIXELS and self.look_state() == self.NORMAL:
            color = sprite_mean_color(self.value, self.looks.base_folder)
            if color is not None:
                if self.value.rotation % 90 == 0:
                    painter.fillRect(self._outline_rect, color)
                else:
                    painter.fillPath(self._outline, color)
                return
        super().paint_at(painter, zoom)

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        painter.setRenderHint(_SMOOTH, True)
        # Antialiasing a picture's edges is worth it only when it is turned: Qt then draws a scaled picture
        # through its slow path (27 ms instead of 4 for 384 sprites at 109 %) for edges that stay straight
        turned = self.value.rotation % 90 != 0
        antialiased = painter.testRenderHint(_ANTIALIASING)
        if antialiased != turned:
            painter.setRenderHint(_ANTIALIASING, turned)
        drawn = paint_sprite(painter, self.value, self.looks.base_folder)
        if antialiased != turned:
            painter.setRenderHint(_ANTIALIASING, antialiased)
        if not drawn:
            painter.fillPath(self._outline, _MISSING_BACK)
            painter.setPen(_MISSING_EDGE)
            painter.setBrush(_MISSING)
            painter.drawPath(self._outline)
            self._paint_missing_name(painter)
        if self.look_state() != self.NORMAL:
            painter.setPen(look[0])
            painter.setBrush(Qt.NoBrush)
            painter.drawPath(self._outline)

    def _paint_missing_name(self, painter: QPainter) -> None:
        """The file (or tile) it cannot show, and why, written across the placeholder when there is room."""
        v = self.value
        device = painter.worldTransform().mapRect(self._outline.boundingRect())
        _, metrics = label_font()
        if device.height() < 3 * metrics.height() or device.width() < 40:
            return
        _, _, problem = sprite_picture(v, self.looks.base_folder)
        name = f"{v.tileset} tile {v.tile}" if v.tileset else (os.path.basename(v.picture) or v.picture)
        lines = metrics.elidedText(name, Qt.ElideMiddle, device.width() - 8) + "\n" + problem
        draw_screen_text(painter, device, lines, _MISSING_TEXT, Qt.AlignCenter | Qt.TextWordWrap)

    def drawn_rect(self, value: Sprite, outline: QPainterPath) -> QRectF:
        return outline.boundingRect()
