"""HandleItem: a grabbable knob of a fixed screen size (resize, radius, rotation and wall-node handles)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.support.guard import guarded

#: Half the size of a handle on screen, in pixels.
HANDLE_RADIUS = 5.0

#: Above every level object and the spawn; below the tools' previews.
HANDLE_Z = 2e9

_OUTLINE = QPen(QColor(20, 40, 70), 1.3)
_STEM = QPen(QColor(255, 196, 0), 1.5)
_FILL = QColor(255, 255, 255)
_ACTIVE_FILL = QColor(255, 170, 30)


class HandleItem(QGraphicsItem):
    """A square or round knob that keeps its size on screen at every zoom.

    The item sits at a point of an object (``setPos`` in scene units). Its knob
    is drawn ``offset`` screen pixels away from there, with a stem back to the
    point when the offset is not zero (the rotation handle stands off the box).
    ``role`` says what dragging it does (``"rotate"``, ``"radius"``, a corner...);
    an *active* handle (hovered, grabbed, or a wall's closing node) is lit.
    """

    SQUARE = "square"
    ROUND = "round"

    def __init__(self, role: str = "", style: str = SQUARE, offset: QPointF | None = None,
                 size: float = 2 * HANDLE_RADIUS, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.role = role
        self.style = style
        self.offset = QPointF(offset) if offset is not None else QPointF(0, 0)
        self._size = size
        self._active = False
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setZValue(HANDLE_Z)
        mark_editor_only(self)  # a play-test hides it (editor/support/editor_only.py)

    def knob_pos(self, scale: float) -> QPointF:
        """Where the knob is in scene units, given the view's scene units per pixel."""
        return self.pos() + self.offset * scale

    @property
    def active(self) -> bool:
        return self._active

    def set_active(self, on: bool) -> None:
        if on != self._active:
            self._active = on
            self.update()

    def set_size(self, size: float) -> None:
        if size != self._size:
            self.prepareGeometryChange()
            self._size = size

    def set_offset(self, offset: QPointF) -> None:
        if offset != self.offset:
            self.prepareGeometryChange()
            self.offset = QPointF(offset)

    @guarded("drawing a handle", default=QRectF())
    def boundingRect(self) -> QRectF:
        r = self._size / 2 + 2
        knob = QRectF(self.offset.x() - r, self.offset.y() - r, 2 * r, 2 * r)
        return knob.united(QRectF(-1, -1, 2, 2))

    @guarded("drawing a handle")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        if not self.offset.isNull():
            painter.setPen(_STEM)
            painter.drawLine(QPointF(0, 0), self.offset)
        painter.setPen(_OUTLINE)
        painter.setBrush(_ACTIVE_FILL if self._active else _FILL)
        r = self._size / 2
        if self.style == self.ROUND:
            painter.drawEllipse(self.offset, r, r)
        else:
            painter.drawRect(QRectF(self.offset.x() - r, self.offset.y() - r, 2 * r, 2 * r))
