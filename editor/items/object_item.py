"""The common base of the items that draw one level object (or the player's spawn)."""
from __future__ import annotations

from collections import deque
from operator import attrgetter
from typing import Optional, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QStyleOptionGraphicsItem

from level_editor.core.level.model import anchor as object_anchor, moving_path
from level_editor.editor.support.guard import report_error
from level_editor.editor.items.one_way_mark import paint_one_way, top_edges
from level_editor.editor.items.path_mark import paint_path, path_middle

#: Selection outline and hover tint, shared by every item so they read as one language.
SELECTED_COLOR = QColor(255, 196, 0)
HOVER_COLOR = QColor(140, 220, 255)

#: Below this many screen pixels an object is drawn as a plain rectangle (10,000 objects stay fast).
TINY_PIXELS = 3.0

#: What an object that does not collide (a trigger, a zone, a route) is drawn in when it has no type.
TRIGGER_COLOR = QColor(236, 104, 200)
#: How opaque the fill of an object that does not collide is (0-255): the floor shows through it.
PASSABLE_FILL_ALPHA = 56

#: A type's name is written on an object at least this many screen pixels wide (and tall enough for it).
LABEL_PIXELS = 36.0
#: The labels' text height on screen, in pixels.
LABEL_FONT_PIXELS = 11

#: Outlines kept per item class for reuse by objects of the same shape; emptied when it grows past this.
MAX_SHARED_SHAPES = 20000

# Looked up once: PySide's enum attributes cost a Python call each, and items are made by the 100,000.
_NO_BUTTON = Qt.NoButton
#: The rectangle an item holds is its bounding rectangle as it is, with no pen's width around it.
_NO_PEN = QPen(Qt.NoPen)

# An object item's only flag, whether it has no contents (it draws nothing: see set_drawing), as whole sets of
# flags: setFlags with one of these takes a quarter of the time of setFlag (1.8 us, PySide's flag arithmetic).
_DRAWS = QGraphicsItem.GraphicsItemFlag(0)
_DRAWS_NOTHING = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents

#: The shape key of an item not synced yet: equal to no object's.
_NO_SHAPE = object()
#: What a failed shape() gives Qt: nothing to pick.
_NO_PATH = QPainterPath()


class LookState:
    """How the objects of one scene look: selected, hovered, their types' colours, where pictures are.

    One per scene, read by every item as it paints. The scene changes it and
    repaints what changed; a selection of 100,000 objects is then one set, not
    100,000 item updates in Python, and a type's new colour is one dict entry.

    ``type_colors`` maps a type's name to its colour (``"#rrggbb"``);
    ``base_folder`` is the level file's folder, that pictures' paths are relative
    to (``None`` for a level not saved yet); ``playing`` is true while a
    play-test runs: the objects then draw as the game shows them, without the
    marks that are there for editing (paths, one-way arrows, type names).
    """

    __slots__ = ("selected", "hovered", "type_colors", "base_folder", "playing")

    def __init__(self):
        self.selected: set[str] = set()
        self.hovered: Optional[str] = None
        self.type_colors: dict[str, str] = {}
        self.base_folder: Optional[str] = None
        self.playing = False


_label_font: Optional[QFont] = None
_label_metrics: Optional[QFontMetricsF] = None


def label_font() -> tuple[QFont, QFontMetricsF]:
    """The small font of the labels on the canvas and its metrics (made once, after the application)."""
    global _label_font, _label_metrics
    if _label_font is None:
        _label_font = QFont()
        _label_font.setPixelSize(LABEL_FONT_PIXELS)
        _label_metrics = QFontMetricsF(_label_font)
    return _label_font, _label_metrics


def draw_screen_text(painter: QPainter, rect: QRectF, text: str, color: QColor, flags=Qt.AlignCenter) -> None:
    """Write ``text`` in the label font at its size on screen, inside ``rect`` (screen pixels)."""
    painter.save()
    painter.resetTransform()
    painter.setFont(label_font()[0])
    painter.setPen(color)
    painter.drawText(rect, flags, text)
    painter.restore()


class ObjectItem(QGraphicsRectItem):
    """Draws one object from its value; ``sync`` brings it up to date.

    Geometry is kept relative to the object's anchor (where the model says it
    is: :func:`level_editor.core.level.model.anchor`, a box's origin, a
    pillar's centre...), which becomes the item's position: a pure move then
    only calls ``setPos`` instead of rebuilding the outline.

    Objects of the same shape share one outline (``shape_key`` -> outline, per
    class): a generated level's rooms repeat, and a QPainterPath per object
    would cost both the time to build it and the memory to keep it.

    ``looks`` is the scene's :class:`LookState` (a private one until the scene
    hands its own over). Subclasses implement :meth:`shape_key`,
    :meth:`build_outline`, :meth:`hit` and may override :meth:`paint_object`
    and :meth:`outline_extra`.

    It is a rectangle item holding its bounding rectangle (no pen, never drawn as
    a rectangle: :meth:`paint` is its own) so that Qt reads that rectangle in C++.
    Qt asks for it twice for every item moved (out of the scene's index and back
    in) and whenever it indexes or draws an item; answered by a Python method,
    each question cost about a microsecond of PySide's calling back, a fifth of
    a second for a move of 100,000 objects.
    """

    #: What every kind of object item defines:
    #: ``shape_key(value)`` everything but the position that changes the outline (pure moves keep it);
    #: ``build_outline(value) -> QPainterPath`` the collision outline relative to the anchor;
    #: ``hit(scene_pos, tolerance) -> bool`` whether a point is on the object or within tolerance of it.
    REQUIRED = ("shape_key", "build_outline", "hit")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        missing = [name for name in ObjectItem.REQUIRED if not callable(getattr(cls, name, None))]
        if missing:
            raise TypeError(f"{cls.__name__} must define {', '.join(missing)}")
        cls._shapes = {}

    FILL = QColor(128, 128, 128)
    EDGE = QColor(40, 40, 40)
    _shapes: dict = {}

    # What an item holds before its first sync, as defaults of the class: an item made sets only what differs.
    object_id: str = ""
    value = None
    # set from the shared outline by sync() (placeholders made per item would be 300,000 Qt objects thrown
    # away at once when a level of 100,000 objects opens)
    _outline = _bounds = _outline_rect = None
    _shape_key = _NO_SHAPE
    _extent = 0.0
    # the bounding rectangle relative to the anchor, and the anchor, as plain floats:
    # the scene adds up the area a change covers without a Qt call per item
    _local_box = (0.0, 0.0, 0.0, 0.0)
    _extra = None
    _ax = _ay = None
    # the object's type and whether it collides, read on every paint: kept as plain attributes
    _type = ""
    _solid = True
    _one_way = False
    #: Whether it draws itself (the scene gives it contents when a frame first shows it).
    drawing = False

    def __init__(self, value, looks: Optional[LookState] = None):
        super().__init__()
        self.looks = looks if looks is not None else LookState()
        self.setAcceptedMouseButtons(_NO_BUTTON)
        self.setPen(_NO_PEN)
        self.sync(value)

    def set_drawing(self, on: bool) -> None:
        """Whether Qt asks the item to draw itself (off: it has no contents, and a frame costs no Python for it;
        the scene's whole-level picture shows it instead). An object item has no other flag."""
        self.setFlags(_DRAWS if on else _DRAWS_NOTHING)
        self.drawing = on

    # -- model -> item -----------------------------------------------------
    def sync(self, value) -> bool:
        """Show ``value`` (the object as it now is in the document).

        Returns True when its outline or look changed, False when it at most moved
        (the scene then knows a move of every object is a move of the whole picture).
        """
        self.object_id = self.id_of(value)
        key = self.outline_key(value)
        reshaped = key != self._shape_key
        if reshaped:
            shapes = type(self)._shapes
            shape = shapes.get(key)
            if shape is None:
                shape = self._make_shape(value)
                if len(shapes) >= MAX_SHARED_SHAPES:
                    shapes.clear()
                shapes[key] = shape
            (self._outline, self._outline_rect, self._extent, self._bounds,
             self._local_box, self._extra) = shape
            # tells the scene when the bounding rectangle changes (prepareGeometryChange), as it must
            self.setRect(self._bounds)
            self._shape_key = key
        self.value = value
        kind = getattr(value, "type", "")
        solid = getattr(value, "solid", True) or not self.PASSABLE_LOOK
        one_way = getattr(value, "one_way", False)
        if kind != self._type or solid != self._solid or one_way != self._one_way:
            # a new type, solidity or one-way mark is a new look on the same outline
            self._type, self._solid, self._one_way = kind, solid, one_way
            reshaped = True
        ax, ay = object_anchor(value)
        if ax != self._ax or ay != self._ay:
            self._ax, self._ay = ax, ay
            self.setPos(ax, ay)
        if reshaped:
            self.update()
        return reshaped

    def outline_key(self, value):
        """What the item's shared outline and bounds depend on: its shape (:meth:`shape_key`) and the path it
        draws, when it moves."""
        path = moving_path(value)
        return self.shape_key(value) if path is None else (self.shape_key(value), path)

    def _make_shape(self, value) -> tuple:
        outline = self.build_outline(value)
        pad = self.padding(value)
        rect = self.drawn_rect(value, outline)
        bounds = rect.adjusted(-pad, -pad, pad, pad)
        beside = self.label_rect(value)
        if beside is not None:
            bounds = bounds.united(beside)
        path = moving_path(value)
        if path is not None:  # the path and the object's ghost at each of its points are drawn too
            for p in path.points:
                bounds = bounds.united(rect.translated(p.x, p.y).adjusted(-pad, -pad, pad, pad))
        return (outline, rect, max(rect.width(), rect.height()), bounds,
                (bounds.left(), bounds.top(), bounds.right(), bounds.bottom()), self.outline_extra(value))

    @property
    def anchor(self) -> tuple[float, float]:
        """Where the object is (its anchor, in scene units): where the item is placed, unless :func:`show_offset`
        shows it elsewhere for now."""
        return self._ax, self._ay

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

    def drawn_rect(self, value, outline: QPainterPath) -> QRectF:
        """The rectangle the object draws in, relative to the anchor (its outline's, unless it draws more)."""
        return outline.boundingRect()

    def label_rect(self, value) -> Optional[QRectF]:
        """Where a label beside the object goes (a marker's name), relative to the anchor; None for none.

        It widens what the item may paint, not what it is: picking, rubber bands
        and the small-on-screen test use the object's own outline.
        """
        return None

    # -- look --------------------------------------------------------------
    # Pens and brushes are made once per class, look, colour and solidity, not per paint: with
    # 10,000 objects in view the Python work in paint() is what a frame costs.
    _looks: dict = {}

    NORMAL, HOVERED, SELECTED = 0, 1, 2

    #: Whether an object of this kind that does not collide is drawn as an area (dashed, see-through).
    #: Markers and pictures never collide and have looks of their own.
    PASSABLE_LOOK = True

    @classmethod
    def look(cls, state: int, color: Optional[str] = None, solid: bool = True) -> tuple:
        """(edge pen, fill brush, colour when tiny on screen, label colour) for a look state.

        ``color`` is the object's type's colour (``"#rrggbb"``; ``None`` for the kind's own);
        an object that does not collide (``solid`` false) is outlined dashed and filled see-through.
        """
        key = (cls, state, color, solid)
        found = ObjectItem._looks.get(key)
        if found is None:
            found = ObjectItem._looks[key] = cls._make_look(state, color, solid)
        return found

    @classmethod
    def _make_look(cls, state: int, color: Optional[str], solid: bool) -> tuple:
        typed = QColor(color) if color else QColor()
        if solid:
            fill = typed if typed.isValid() else QColor(cls.FILL)
            edge = typed.darker(220) if typed.isValid() else QColor(cls.EDGE)
        else:
            base = typed if typed.isValid() else QColor(TRIGGER_COLOR)
            fill = QColor(base)
            fill.setAlpha(PASSABLE_FILL_ALPHA)
            edge = base
        if state == cls.SELECTED:
            pen = QPen(SELECTED_COLOR, 2.0)
            fill = fill.lighter(115)
            tiny = QColor(SELECTED_COLOR)
        elif state == cls.HOVERED:
            pen = QPen(HOVER_COLOR, 1.5)
            fill = fill.lighter(135)
            tiny = QColor(fill)
        else:
            pen = QPen(edge, 1.0 if solid else 2.0)
            tiny = QColor(fill)
        if not solid:
            pen.setStyle(Qt.DashLine)
            tiny.setAlpha(max(tiny.alpha(), 140))
        pen.setCosmetic(True)
        pen.setJoinStyle(Qt.MiterJoin)
        # the label on a solid fill: dark on a light colour, light on a dark one; on see-through: the edge's
        if solid:
            text = QColor(20, 20, 20) if fill.lightness() > 150 else QColor(245, 245, 245)
        else:
            text = edge.lighter(130)
        return pen, QBrush(fill), tiny, text

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
    # Guarded as level_editor.editor.support.guard.guarded() does, written out: Qt asks for the outline of every item a pick or
    # a rubber band meets, and a wrapper's extra call costs as much as the method.
    def shape(self) -> QPainterPath:
        try:
            return self._outline
        except Exception as error:  # noqa: BLE001
            report_error("outlining an object on the canvas", error)
            return _NO_PATH

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        try:
            # views only scale and translate, so m11 is the zoom
            self.paint_at(painter, painter.worldTransform().m11())
        except Exception as error:  # noqa: BLE001
            report_error("drawing an object on the canvas", error)

    def paint_at(self, painter: QPainter, zoom: float) -> None:
        """Draw the object with ``painter`` at ``zoom`` screen pixels per unit (the overview knows its zoom)."""
        state = self.look_state()
        kind = self._type
        look = self.look(state, self.looks.type_colors.get(kind) if kind else None, self._solid)
        if self._extent * zoom < TINY_PIXELS:
            painter.fillRect(self._outline_rect, look[2])
            return
        self.paint_object(painter, look, state == self.SELECTED, zoom)
        if self.looks.playing:
            return
        if self._one_way:
            paint_one_way(painter, top_edges(self.value), zoom)
        path = moving_path(self.value)
        if path is not None:
            mx, my = path_middle(self.value)
            paint_path(painter, path, self._outline, QPointF(mx - self._ax, my - self._ay), zoom)
        if kind and self._extent * zoom >= LABEL_PIXELS:
            self.paint_label(painter, kind, look[3], zoom)

    def label_center(self) -> QPointF:
        """Where the type's name is written, relative to the anchor (the middle of the object)."""
        return self._outline_rect.center()

    def paint_label(self, painter: QPainter, text: str, color: QColor, zoom: float) -> None:
        """Write ``text`` (the type's name) on the object, at a size fixed on screen, if it fits inside it."""
        _, metrics = label_font()
        width = metrics.horizontalAdvance(text) + 4
        height = metrics.height()
        c = self.label_center()
        local = QRectF(c.x() - width / zoom / 2, c.y() - height / zoom / 2, width / zoom, height / zoom)
        if not self._outline_rect.contains(local):
            return
        device = painter.worldTransform().mapRect(local)
        draw_screen_text(painter, device, text, color)

    def paint_object(self, painter: QPainter, look, selected: bool, zoom: float) -> None:
        """Draw the object at a size where its shape shows.

        ``look`` is (edge pen, fill brush, colour when small), ``zoom`` screen pixels per unit.
        """
        painter.setPen(look[0])
        painter.setBrush(look[1])
        painter.drawPath(self._outline)


_AX, _AY = attrgetter("_ax"), attrgetter("_ay")
_SET_POS = QGraphicsItem.setPos


def show_moved(items: Sequence[ObjectItem], objects: Sequence) -> None:
    """Show ``objects[i]`` on ``items[i]``, each the object its item shows moved and nothing else (a change whose
    :attr:`~level_editor.core.level.document.Change.moved_by` says so): the items only move.

    What :meth:`ObjectItem.sync` does for such a value, without working out its outline's key to find that the
    outline stayed: a move of 100,000 objects (a drag, its undo, its redo) then costs a new position per item
    and little else.
    """
    placed = []
    for it, new in zip(items, objects):
        ax, ay = object_anchor(new)
        it.value = new
        if ax != it._ax or ay != it._ay:
            it._ax, it._ay = ax, ay
            placed.append(it)
    # in Qt's loop, without a Python frame per item
    deque(map(_SET_POS, placed, map(_AX, placed), map(_AY, placed)), maxlen=0)


def show_offset(items: Sequence[ObjectItem], dx: float, dy: float) -> None:
    """Show the objects of ``items`` ``(dx, dy)`` away from where they are, leaving them as they are (a drag not
    done yet); ``(0, 0)`` shows them where they are again. In Qt's loop: a drag may show 100,000 objects."""
    deque(map(_SET_POS, items, [x + dx for x in map(_AX, items)], [y + dy for y in map(_AY, items)]), maxlen=0)
