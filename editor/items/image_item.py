"""ImageItem: a reference picture to trace over, drawn under the geometry at its scale and opacity."""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPen

from level_editor.core.level.model import Image
from level_editor.editor.items.object_item import ObjectItem, draw_screen_text, label_font
from level_editor.editor.painting.pictures import forget_pictures, full_path, load_picture

__all__ = ["ImageItem", "PLACEHOLDER_SIZE", "picture_path", "load_picture", "forget_pictures"]

#: The size a picture that cannot be shown stands in with (pixels, times its scale).
PLACEHOLDER_SIZE = 128

_HATCH = QBrush(QColor(220, 90, 90, 150), Qt.BDiagPattern)
_PLACEHOLDER_BACK = QColor(60, 40, 44, 150)
_PLACEHOLDER_EDGE = QPen(QColor(230, 110, 110), 1.5, Qt.DashLine)
_PLACEHOLDER_EDGE.setCosmetic(True)
_PLACEHOLDER_TEXT = QColor(255, 214, 214)

def picture_path(value: Image, base_folder: Optional[str]) -> Optional[str]:
    """The picture's full path: ``path`` is relative to the level file's folder (None when there is none yet).

    >>> picture_path(Image("i", "art/a.png", (0, 0)), "/levels").replace(os.sep, "/")
    '/levels/art/a.png'
    >>> picture_path(Image("i", "art/a.png", (0, 0)), None) is None
    True
    """
    return full_path(value.path, base_folder)


class ImageItem(ObjectItem):
    """A picture with its top-left corner at ``origin`` (the item's position), scaled and see-through.

    Its size is the picture's, which only the file knows: a missing or
    unreadable file shows a hatched placeholder of :data:`PLACEHOLDER_SIZE`
    with the file's name and what is wrong, and the level opens all the same.
    The scene puts pictures under every other object of their layer.
    """

    FILL = QColor(90, 90, 110)
    EDGE = QColor(150, 150, 170)

    #: A picture never collides; it has a look of its own.
    PASSABLE_LOOK = False

    def _picture(self, value: Image) -> tuple[Optional[QImage], str]:
        return load_picture(picture_path(value, self.looks.base_folder))

    @property
    def picture(self) -> Optional[QImage]:
        """The picture shown, or None when the placeholder stands in for it."""
        return self._picture(self.value)[0]

    @property
    def problem(self) -> str:
        """``""`` when the picture is shown, else why not ("missing", "unreadable")."""
        return self._picture(self.value)[1]

    def shape_key(self, value: Image):
        picture, problem = self._picture(value)
        size = (picture.width(), picture.height()) if picture is not None else (PLACEHOLDER_SIZE, PLACEHOLDER_SIZE)
        return picture_path(value, self.looks.base_folder), value.path, value.scale, size, problem

    def build_outline(self, value: Image) -> QPainterPath:
        _, _, scale, (w, h), _ = self.shape_key(value)
        path = QPainterPath()
        path.addRect(QRectF(0, 0, w * scale, h * scale))
        return path

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        o, r = self.value.origin, self._outline_rect
        return (o.x - tolerance <= scene_pos.x() <= o.x + r.width() + tolerance
                and o.y - tolerance <= scene_pos.y() <= o.y + r.height() + tolerance)

    def reload(self) -> None:
        """Show the picture anew (the level's folder changed, or the file did)."""
        self._shape_key = None
        self.sync(self.value)

    def paint_at(self, painter: QPainter, zoom: float) -> None:
        rect = self._outline_rect
        picture, problem = self._picture(self.value)
        if picture is not None:
            painter.save()
            painter.setOpacity(max(0.0, min(1.0, self.value.opacity)))
            painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
            painter.setRenderHint(QPainter.Antialiasing, False)  # upright: antialiasing only slows Qt down
            painter.drawImage(rect, picture)
            painter.restore()
        else:
            self._paint_placeholder(painter, rect, problem)
        state = self.look_state()
        if state != self.NORMAL:
            painter.setPen(self.look(state)[0])
            painter.setBrush(Qt.NoBrush)
            painter.drawRect(rect)

    def _paint_placeholder(self, painter: QPainter, rect: QRectF, problem: str) -> None:
        painter.setPen(Qt.NoPen)
        painter.fillRect(rect, _PLACEHOLDER_BACK)
        painter.setBrush(_HATCH)
        # the hatching at a fixed spacing on screen, whatever the zoom
        painter.setBrushOrigin(0, 0)
        painter.drawRect(rect)
        painter.setPen(_PLACEHOLDER_EDGE)
        painter.setBrush(Qt.NoBrush)
        painter.drawRect(rect)
        device = painter.worldTransform().mapRect(rect)
        _, metrics = label_font()
        if device.height() < 3 * metrics.height() or device.width() < 40:
            return
        name = os.path.basename(self.value.path) or self.value.path
        lines = metrics.elidedText(name, Qt.ElideMiddle, device.width() - 8) + "\n" + problem
        draw_screen_text(painter, device, lines, _PLACEHOLDER_TEXT, Qt.AlignCenter | Qt.TextWordWrap)
