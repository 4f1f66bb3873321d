"""The common base of the items that draw one level object (or the player's spawn)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
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
            self._bounds = self._outline.boundingRect().adjusted(-pad, -pad, pad, pad)
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
    def set_selected_look(self, selected: bool) -> None:
        if selected != self._selected:
            self._selected = selected
            self.update()

    def set_hovered(self, hovered: bool) -> None:
        if hovered != self._hovered:
            self._hovered = hovered
            self.update()

    @property
    def is_selected_look(self) -> bool:
        return self._selected

    @property
    def is_hovered(self) -> bool:
        return self._hovered

    def fill_color(self) -> QColor:
        c = QColor(self.FILL)
        if self._hovered:
            c = c.lighter(135)
        elif self._selected:
            c = c.lighter(115)
        return c

    def edge_pen(self, lod: float) -> QPen:
        if self._selected:
            pen = QPen(SELECTED_COLOR, 2.0)
        elif self._hovered:
            pen = QPen(HOVER_COLOR, 1.5)
        else:
            pen = QPen(self.EDGE, 1.0)
        pen.setCosmetic(True)
        pen.setJoinStyle(Qt.MiterJoin)
        return pen

    # -- QGraphicsItem -----------------------------------------------------
    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._outline

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        r = self._outline.boundingRect()
        if max(r.width(), r.height()) * lod < TINY_PIXELS:
            painter.fillRect(r, SELECTED_COLOR if self._selected else self.fill_color())
            return
        self.paint_object(painter, lod)

    def paint_object(self, painter: QPainter, lod: float) -> None:
        painter.setPen(self.edge_pen(lod))
        painter.setBrush(self.fill_color())
        painter.drawPath(self._outline)
