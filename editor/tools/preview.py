"""The look of what the drawing tools show while a gesture is under way.

Previews and handles are the tools' own scene items: they never enter the
document, take no mouse buttons (the scene forwards events to the tool), keep
the same size on screen at every zoom where that matters (handles, labels), and
are marked editor-only (:mod:`level_editor.editor.support.editor_only`), so a play-test hides them.
"""
from __future__ import annotations

import math
from typing import Optional

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
)

from level_editor.core.level.number_text import rounded_text
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.support.guard import guarded

#: Above the level's objects (z = drawing order), the spawn and the select tool's handles; below the snap marker.
PREVIEW_Z = 2.5e9

#: The colour of a shape being drawn (a clear blue that reads on light and dark canvases).
DRAW_COLOR = QColor(30, 144, 255)

#: The stem of a rotation handle (the select tool's colour for the same thing).
STEM_COLOR = QColor(255, 196, 0)


def outline_pen(color: QColor = DRAW_COLOR, width: float = 1.5, dashed: bool = False) -> QPen:
    """A pen of ``width`` screen pixels at any zoom."""
    pen = QPen(color, width)
    pen.setCosmetic(True)
    pen.setJoinStyle(Qt.RoundJoin)
    if dashed:
        pen.setStyle(Qt.DashLine)
    return pen


def fill_brush(color: QColor = DRAW_COLOR, alpha: int = 70) -> QBrush:
    c = QColor(color)
    c.setAlpha(alpha)
    return QBrush(c)


def thick_pen(thickness: float, color: QColor = DRAW_COLOR, alpha: int = 110) -> QPen:
    """A pen as wide as a wall (scene units), with the round ends and joints walls collide with."""
    c = QColor(color)
    c.setAlpha(alpha)
    pen = QPen(c, max(thickness, 0.0))
    pen.setCapStyle(Qt.RoundCap)
    pen.setJoinStyle(Qt.RoundJoin)
    return pen


def format_number(value: float) -> str:
    """A number as a preview's label shows it: at most one decimal, ``32`` rather than ``32.0``."""
    return rounded_text(value, 1)


def preview_item(z: float = PREVIEW_Z) -> QGraphicsPathItem:
    """An empty path item set up for a preview."""
    item = QGraphicsPathItem()
    item.setZValue(z)
    item.setAcceptedMouseButtons(Qt.NoButton)
    return mark_editor_only(item)


class LabelItem(QGraphicsItem):
    """A small measurement next to the cursor (``64 × 32``, ``r 24``, ``30°``)."""

    OFFSET = QPointF(14, 14)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._text = ""
        self._font = QFont()
        self._font.setPointSizeF(9)
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setZValue(PREVIEW_Z + 20)
        mark_editor_only(self)

    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        if text != self._text:
            self.prepareGeometryChange()
            self._text = text
            self.update()

    def _box(self) -> QRectF:
        fm = QFontMetricsF(self._font)
        w = fm.horizontalAdvance(self._text) + 10
        h = fm.height() + 4
        return QRectF(self.OFFSET.x(), self.OFFSET.y(), w, h)

    @guarded("drawing the tool's preview", default=QRectF())
    def boundingRect(self) -> QRectF:
        return self._box().adjusted(-1, -1, 1, 1)

    @guarded("drawing the tool's preview")
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if not self._text:
            return
        box = self._box()
        painter.setRenderHint(QPainter.Antialiasing, True)
        painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(20, 30, 45, 215))
        painter.drawRoundedRect(box, 3, 3)
        painter.setPen(QColor(240, 245, 255))
        painter.setFont(self._font)
        painter.drawText(box, Qt.AlignCenter, self._text)


def rect_path(x0: float, y0: float, x1: float, y1: float) -> QPainterPath:
    path = QPainterPath()
    path.addRect(QRectF(QPointF(min(x0, x1), min(y0, y1)), QPointF(max(x0, x1), max(y0, y1))))
    return path


def distance(a: QPointF, b: QPointF) -> float:
    return math.hypot(a.x() - b.x(), a.y() - b.y())


def _alive(item, scene: QGraphicsScene) -> bool:
    """The item still exists and is in ``scene`` (a New or Open clears the scene under a tool)."""
    return item is not None and shiboken6.isValid(item) and item.scene() is scene


class ShapePreview:
    """A drawing tool's live preview: the outline being drawn and a measurement beside the cursor.

    The items are made on first show and made again if the scene was cleared
    under the tool; :meth:`remove` takes them out of the scene for good.
    """

    def __init__(self, scene: QGraphicsScene):
        self._scene = scene
        self._shape: Optional[QGraphicsPathItem] = None
        self._label: Optional[LabelItem] = None

    def show(self, path: QPainterPath, label_at: QPointF, text: str) -> None:
        if not _alive(self._shape, self._scene):
            self._shape = preview_item()
            self._shape.setPen(outline_pen())
            self._shape.setBrush(fill_brush())
            self._scene.addItem(self._shape)
        self._shape.setPath(path)
        self._shape.setVisible(True)
        self.show_label(label_at, text)

    def show_drag_rect(self, start: QPointF, end: QPointF) -> None:
        """The rectangle from ``start`` to ``end`` with its size beside the cursor (box and oriented box tools)."""
        self.show(rect_path(start.x(), start.y(), end.x(), end.y()), end,
                  f"{format_number(abs(end.x() - start.x()))} × {format_number(abs(end.y() - start.y()))}")

    def show_label(self, at: QPointF, text: str) -> None:
        """Only the measurement (e.g. the angle while turning something that exists already)."""
        if not _alive(self._label, self._scene):
            self._label = LabelItem()
            self._scene.addItem(self._label)
        self._label.setPos(at)
        self._label.set_text(text)
        self._label.setVisible(bool(text))

    def hide(self) -> None:
        for item in (self._shape, self._label):
            if _alive(item, self._scene):
                item.setVisible(False)

    def remove(self) -> None:
        for item in (self._shape, self._label):
            if item is not None and shiboken6.isValid(item) and item.scene() is not None:
                item.scene().removeItem(item)
        self._shape = self._label = None

    @property
    def shape_item(self) -> Optional[QGraphicsPathItem]:
        return self._shape if _alive(self._shape, self._scene) else None

    @property
    def label_item(self) -> Optional[LabelItem]:
        return self._label if _alive(self._label, self._scene) else None
