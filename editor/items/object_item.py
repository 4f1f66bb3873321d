"""The common base of the items that draw one level object (or the player's spawn)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

#: Selection outline and hover tint, shared by every item so they read as one language.
SELECTED_COLOR = QColor(255, 196, 0)
HOVER_COLOR = QColor(140, 220, 255)

#: Below this many screen pixels an object is drawn as a plain rectangle (10,000 objects stay fast).
TINY_PIXELS = 3.0

#: Outlines kept per item class for reuse by objects of the same shape; emptied when it grows past this.
MAX_SHARED_SHAPES = 20000

# Looked up once: PySide's enum attributes cost a Python call each, and items are made by the 100,000.
_NO_BUTTON = Qt.NoButton


class LookState:
    """Which objects look selected or hovered: one per scene, read by every item as it paints.

    The scene changes it and repaints what changed; a selection of 100,000
    objects is then one set, not 100,000 item updates in Python.
    """

    __slots__ = ("selected", "hovered")

    def __init__(self):
        self.selected: set[str] = set()
        self.hovered: Optional[str] = None


class ObjectItem(QGraphicsItem):
    """Draws one object from its value; ``sync`` brings it up to date.

    Geometry is kept relative to an anchor point of the object (a box's origin,
    a pillar's centre...), which becomes the item's position: a pure move then
    only calls ``setPos`` instead of rebuilding the outline.

    Objects of the same shape share one outline (``shape_key`` -> outline, per
    class): a generated level's rooms repeat, and a QPainterPath per object
    would cost both the time to build it and the memory to keep it.

    ``looks`` is the scene's :class:`LookState` (a private one until the scene
    hands its own over). Subclasses implement :meth:`anchor`, :meth:`shape_key`,
    :meth:`build_outline`, :meth:`hit` and may override :meth:`paint_object`
    and :meth:`outline_extra`.
    """

    #: What every kind of object item defines:
    #: ``anchor(value) -> (x, y)`` the item's position for the value;
    #: ``shape_key(value)`` everything but the position that changes the outline (pure moves keep it);
    #: ``build_outline(value) -> QPainterPath`` the collision outline relative to the anchor;
    #: ``hit(scene_pos, tolerance) -> bool`` whether a point is on the object or within tolerance of it.
    REQUIRED = ("anchor", "shape_key", "build_outline", "hit")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        missing = [name for name in ObjectItem.REQUIRED if not callable(getattr(cls, name, None))]
        if missing:
            raise TypeError(f"{cls.__name__} must define {', '.join(missing)}")
        cls._shapes = {}

    FILL = QColor(128, 128, 128)
    EDGE = QColor(40, 40, 40)
    _shapes: dict = {}

    def __init__(self, value, looks: Optional[LookState] = None):
        super().__init__()
        self.object_id: str = ""
        self.value = None
        self.looks = looks if looks is not None else LookState()
        self._outline = QPainterPath()
        self._bounds = QRectF()
        self._shape_key = None
        self._extent = 0.0
        self._outline_rect = QRectF()
        # the bounding rectangle relative to the anchor, and the anchor, as plain floats:
        # the scene adds up the area a change covers without a Qt call per item
        self._local_box = (0.0, 0.0, 0.0, 0.0)
        self._extra = None
        self._ax = self._ay = None
        self.setAcceptedMouseButtons(_NO_BUTTON)
        self.sync(value)

    # -- model -> item -----------------------------------------------------
    def sync(self, value) -> None:
        """Show ``value`` (the object as it now is in the document)."""
        self.object_id = self.id_of(value)
        key = self.shape_key(value)
        reshaped = key != self._shape_key
        if reshaped:
            self.prepareGeometryChange()
            shapes = type(self)._shapes
            shape = shapes.get(key)
            if shape is None:
                shape = self._make_shape(value)
                if len(shapes) >= MAX_SHARED_SHAPES:
                    shapes.clear()
                shapes[key] = shape
            (self._outline, self._outline_rect, self._extent, self._bounds,
             self._local_box, self._extra) = shape
            self._shape_key = key
        self.value = value
        ax, ay = self.anchor(value)
        if ax != self._ax or ay != self._ay:
            self._ax, self._ay = ax, ay
            self.setPos(ax, ay)
        if reshaped:
            self.update()

    def _make_shape(self, value) -> tuple:
        outline = self.build_outline(value)
        pad = self.padding(value)
        rect = outline.boundingRect()
        bounds = rect.adjusted(-pad, -pad, pad, pad)
        return (outline, rect, max(rect.width(), rect.height()), bounds,
                (bounds.left(), bounds.top(), bounds.right(), bounds.bottom()), self.outline_extra(value))

    def scene_box(self) -> tuple[float, float, float, float]:
        """The item's bounding rectangle in scene units as ``(x0, y0, x1, y1)``, without asking Qt."""
        x0, y0, x1, y1 = self._local_box
        return (self._ax + x0, self._ay + y0, self._ax + x1, self._ay + y1)

    def id_of(self, value) -> str:
        return value.id

    def outline_extra(self, value):
        """Anything else drawn from the shape alone, kept with the shared outline (``self._extra``)."""
        return None

    def padding(self, value) -> float:
        return 1.0

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

    def look_state(self) -> int:
        looks = self.looks
        oid = self.object_id
        if oid in looks.selected:
            return self.SELECTED
        return self.HOVERED if oid == looks.hovered else self.NORMAL

    @property
    def is_selected_look(self) -> bool:
        return self.object_id in self.looks.selected

    @property
    def is_hovered(self) -> bool:
        return self.object_id == self.looks.hovered

    # -- QGraphicsItem -----------------------------------------------------
    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._outline

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        state = self.look_state()
        look = self.look(state)
        # views only scale and translate, so m11 is the zoom
        zoom = painter.worldTransform().m11()
        if self._extent * zoom < TINY_PIXELS:
            painter.fillRect(self._outline_rect, look[2])
            return
        self.paint_object(painter, look, state == self.SELECTED, zoom)

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        """Draw the object at a size where its shape shows.

        ``look`` is (edge pen, fill brush, colour when small), ``zoom`` screen pixels per unit.
        """
        painter.setPen(look[0])
        painter.setBrush(look[1])
        painter.drawPath(self._outline)
