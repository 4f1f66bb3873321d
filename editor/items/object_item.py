"""The common base of the items that draw one level object (or the player's spawn)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

#: Selection outline and hover tint, shared by every item so they read as one language.
SELECTED_COLOR = QColor(255, 196, 0)
HOVER_COLOR = QColor(140, 220, 255)

#: Below this many screen pixels an object is drawn as a plain rectangle (10,000 objects stay fast).
TINY_PIXELS = 3.0


class ObjectItem(QGraphicsItem):
    """Draws one object from its value; ``sync`` brings it up to date.

    Geometry is kept relative to an anchor point of the object (a box's origin,
    a pillar's centre...), which becomes the item's position: a pure move then
    only calls ``setPos`` instead of rebuilding the outline.

    Subclasses implement :meth:`anchor`, :meth:`shape_key`, :meth:`build_outline`,
    :meth:`hit` and :meth:`paint_object`.
    """

    FILL = QColor(128, 128, 128)
    EDGE = QColor(40, 40, 40)

    def __init__(self, value):
        super().__init__()
        self.object_id: str = ""
        self.value = None
        self._outline = QPainterPath()
        self._bounds = QRectF()
        self._shape_key = None
        self._selected = False
        self._hovered = False
        self._look = self.look(self.NORMAL)
        self._extent = 0.0
        self._outline_rect = QRectF()
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptHoverEvents(False)
        self.sync(value)

    # -- model -> item -----------------------------------------------------
    def sync(self, value) -> None:
        """Show ``value`` (the object as it now is in the document)."""
        self.object_id = self.id_of(value)
        key = self.shape_key(value)
        if key != self._shape_key:
            self.prepareGeometryChange()
            self._outline = self.build_outline(value)
            pad = self.padding(value)
            self._outline_rect = self._outline.boundingRect()
            self._extent = max(self._outline_rect.width(), self._outline_rect.height())
            self._bounds = self._outline_rect.adjusted(-pad, -pad, pad, pad)
            self._shape_key = key
        self.value = value
        ax, ay = self.anchor(value)
        if self.pos().x() != ax or self.pos().y() != ay:
            self.setPos(ax, ay)
        self.update()

    def id_of(self, value) -> str:
        return value.id

    def anchor(self, value) -> tuple[float, float]:
        raise NotImplementedError

    def shape_key(self, value):
        """Everything but the position that changes the outline (pure moves keep it)."""
        raise NotImplementedError

    def build_outline(self, value) -> QPainterPath:
        """The collision outline in item coordinates (relative to the anchor)."""
        raise NotImplementedError

    def padding(self, value) -> float:
        return 1.0

    def hit(self, scene_pos: QPointF, tolerance: float) -> bool:
        """Whether ``scene_pos`` is on the object or within ``tolerance`` scene units of it."""
        raise NotImplementedError

    # -- look --------------------------------------------------------------
    # Pens and brushes are made once per class and look, not per paint: with 10,000
    # objects in view the Python work in paint() is what a frame costs.
    _looks: dict = {}

    NORMAL, HOVERED, SELECTED = 0, 1, 2

    @classmethod
    def look(cls, state: int) -> tuple[QPen, QBrush, QColor]:
        """(edge pen, fill brush, colour when tiny on screen) for a look state."""
        key = (cls, state)
        found = ObjectItem._looks.get(key)
        if found is None:
            fill = QColor(cls.FILL)
            if state == cls.SELECTED:
                pen = QPen(SELECTED_COLOR, 2.0)
                fill = fill.lighter(115)
                tiny = SELECTED_COLOR
            elif state == cls.HOVERED:
                pen = QPen(HOVER_COLOR, 1.5)
                fill = fill.lighter(135)
                tiny = fill
            else:
                pen = QPen(cls.EDGE, 1.0)
                tiny = fill
            pen.setCosmetic(True)
            pen.setJoinStyle(Qt.MiterJoin)
            found = (pen, QBrush(fill), tiny)
            ObjectItem._looks[key] = found
        return found

    def _update_look(self) -> None:
        state = self.SELECTED if self._selected else self.HOVERED if self._hovered else self.NORMAL
        self._look = self.look(state)
        self.update()

    def set_selected_look(self, selected: bool) -> None:
        if selected != self._selected:
            self._selected = selected
            self._update_look()

    def set_hovered(self, hovered: bool) -> None:
        if hovered != self._hovered:
            self._hovered = hovered
            self._update_look()

    @property
    def is_selected_look(self) -> bool:
        return self._selected

    @property
    def is_hovered(self) -> bool:
        return self._hovered

    # -- QGraphicsItem -----------------------------------------------------
    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._outline

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        # views only scale and translate, so m11 is the zoom
        lod = painter.worldTransform().m11()
        if self._extent * lod < TINY_PIXELS:
            painter.fillRect(self._outline_rect, self._look[2])
            return
        self.paint_object(painter, lod)

    def paint_object(self, painter: QPainter, lod: float) -> None:
        pen, brush, _ = self._look
        painter.setPen(pen)
        painter.setBrush(brush)
        painter.drawPath(self._outline)
