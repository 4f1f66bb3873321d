"""LevelScene: one graphics item per level object, kept in step with the document.

The scene draws; it never edits. It listens to the document's change events
(Tiled's ``MapItem::documentChanged``), syncs the items, shows the selection,
and forwards mouse and key events to the active tool in scene coordinates.

Items stack by layer, bottom to top, then in file order; reference pictures
go under everything else. A hidden layer's items are hidden; neither a hidden
nor a locked layer's objects can be picked or caught by a rubber band.
"""
from __future__ import annotations

import functools
import math
from collections import deque
import time
from operator import attrgetter
from typing import Callable, NamedTuple, Optional

import shiboken6
from PySide6.QtCore import QEventLoop, QPointF, QRectF, Qt
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsScene, QGraphicsSceneMouseEvent

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Point, Tiles, Wall
from level_editor.editor.items.box_item import BoxItem
from level_editor.editor.items.image_item import ImageItem, forget_pictures
from level_editor.editor.items.object_item import LookState, ObjectItem
from level_editor.editor.items.oriented_box_item import OrientedBoxItem
from level_editor.editor.items.pillar_item import PillarItem
from level_editor.editor.items.player_item import PlayerItem
from level_editor.editor.items.point_item import PointItem
from level_editor.editor.items.tiles_item import TilesItem
from level_editor.editor.items.wall_item import WallItem
from level_editor.core.level.collector import paused_collector
from level_editor.editor.work.bulk import moved_by, settle, unsettle
from level_editor.editor.canvas import picture_ahead
from level_editor.editor.canvas.overview import LevelOverview
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.support.subscriptions import subscribe_while_alive

ITEM_CLASSES = {Wall: WallItem, Box: BoxItem, OrientedBox: OrientedBoxItem, Pillar: PillarItem, Tiles: TilesItem,
                Point: PointItem, Image: ImageItem}

#: Room around the level that the view can scroll into, at least this many units.
SCROLL_MARGIN = 1024.0

#: The player's spawn is drawn above every object.
PLAYER_Z = 1e9

#: An object's z is its layer's place (bottom first) times this, plus its place in the file:
#: layers stack, and inside a layer the file's order holds. Grows for levels with more objects.
LAYER_STRIDE = 1 << 20

#: Reference pictures draw this much lower than other objects of their layer: under all the geometry.
PICTURES_BELOW = 1e9

#: A change of more objects than this repaints the area around all of them at once.
MANY = 64

#: Objects whose positions moved by offsets this close (level units) moved together.
SAME_MOVE = 1e-6

_ID = attrgetter("id")
_AX, _AY = attrgetter("_ax"), attrgetter("_ay")
_SET_POS = QGraphicsItem.setPos
#: An item's anchor (ObjectItem.anchor) by its object's kind, read in C: the point that places the object.
_ANCHOR = {Box: attrgetter("origin"), OrientedBox: attrgetter("center"), Pillar: attrgetter("center"),
           Point: attrgetter("position"), Image: attrgetter("origin"), Tiles: attrgetter("origin")}

#: Levels with at least this many objects have their items made ahead of opening, a slice at a time (prepare).
PREPARE_AT = 5000

#: While items are made ahead, the window answers its events at least this often (seconds).
ANSWER_EVERY = 0.04
#: Items added to (or removed from) the scene in one C loop while a big level opens (a few milliseconds).
SLICE = 2000

#: The item classes of level objects; every other item added is drawn over them (overlay_items).
_OBJECT_ITEM_TYPES = frozenset(ITEM_CLASSES.values())


def bsp_depth_for(count: int) -> int:
    """The BSP tree depth for ``count`` items (measured with editor.bench at 1,000 to 100,000 objects).

    Qt picks a depth automatically only once, for the items in the scene at the
    first lookup (an empty level: 5), and keeps it: at 100,000 objects that is
    3,000 items per leaf, 20 ms a pick and 70 ms a pan frame at 100%. About
    eight objects per leaf keeps both under a few milliseconds.
    """
    return max(5, min(14, math.ceil(math.log2(max(count, 1))) - 3))


def stride_for(count: int) -> int:
    """The z band of a layer for ``count`` objects: :data:`LAYER_STRIDE`, doubled until it holds them all."""
    stride = LAYER_STRIDE
    while stride <= count:
        stride *= 2
    return stride


def _answer_events() -> None:
    """Let the window repaint and run its timers; the designer's clicks and keys wait until the level is open."""
    QApplication.processEvents(QEventLoop.ExcludeUserInputEvents)


def item_for(obj, looks: Optional[LookState] = None) -> ObjectItem:
    """A new graphics item showing ``obj`` (``looks``: the scene's shared selection and hover)."""
    return ITEM_CLASSES[type(obj)](obj, looks)


def makes_items_ahead(level: Level) -> bool:
    """Whether :meth:`LevelScene.prepare` makes ``level``'s items before it opens (a big level), rather than the
    reset making them all at once."""
    return len(level.objects) >= PREPARE_AT


def _stacked(obj, index: int, rank: dict, count: int, stride: int) -> float:
    """Where ``obj``, the ``index``-th object of the file, stacks: by layer (``rank``: a layer's place, ``count``
    for one that does not exist), then file order; pictures under."""
    z = rank.get(obj.layer, count) * stride + index
    return z - PICTURES_BELOW if type(obj) is Image else z


def _stacking(level: Level) -> tuple[dict, set, int, int]:
    """What ``_stacked`` needs for ``level``'s objects (its layers' places, a count, the stride), and its hidden
    layers."""
    rank = {layer.id: i for i, layer in enumerate(level.layers)}
    hidden = {layer.id for layer in level.layers if not layer.visible}
    return rank, hidden, len(rank), stride_for(len(level.objects))


def shown_items(level: Level) -> list[ObjectItem]:
    """New items for ``level``'s shown objects, bottom first, looking as a scene shows them once ``level`` opens.

    What the whole-level picture is painted from in a child process, while the window makes its own items
    (:mod:`level_editor.editor.canvas.picture_ahead`).
    """
    looks = LookState()
    looks.type_colors = _type_colors(level)
    objects = level.objects
    rank, hidden, count, stride = _stacking(level)
    order = sorted((_stacked(obj, i, rank, count, stride), i) for i, obj in enumerate(objects)
                   if obj.layer not in hidden)
    return [item_for(objects[i], looks) for _, i in order]


def _type_colors(level: Level) -> dict[str, str]:
    return {t.name: t.color for t in level.types}


class _Prepared(NamedTuple):
    """Items made for a level before it is opened (:meth:`LevelScene.prepare`)."""

    objects: tuple  # the level's objects: the items are for the document reset to these
    items: list  # in file order
    by_id: dict
    level_box: Optional[tuple]  # Level.bounds(), folded on the way
    picture: Optional[picture_ahead.PictureAhead]  # its whole-level picture, painted in a child process
    between: Callable[[], None]  # what lets the window answer between slices


def _union(boxes) -> Optional[tuple[float, float, float, float]]:
    """The bounding box of ``(x0, y0, x1, y1)`` boxes, or None when there are none."""
    boxes = list(boxes)
    if not boxes:
        return None
    x0s, y0s, x1s, y1s = zip(*boxes)
    return min(x0s), min(y0s), max(x1s), max(y1s)


def _rect(box) -> QRectF:
    return QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1])


class LevelScene(QGraphicsScene):
    """The canvas's scene: items for the document's objects and player.

    ``tool`` is the active tool (set by the main window); the scene forwards
    every mouse and key event to it and does nothing else with them.

    Selection and hover are one shared :class:`LookState` that items read as
    they paint. ``overview`` is a cached picture of all objects that a view
    zoomed far out shows instead of the items (:meth:`set_overview_active`).
    """

    def __init__(self, document: LevelDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.selection: Optional[Selection] = None
        self.tool = None
        self._held = Qt.MouseButton.NoButton  # buttons pressed on the canvas and not yet let go
        self._last_pos = QPointF()
        self.looks = LookState()
        self._items: dict[str, ObjectItem] = {}
        # the layers as last shown: place (bottom first), hidden ones, locked ones
        self._rank: dict[str, int] = {}
        self._hidden: set[str] = set()
        self._locked: set[str] = set()
        self._stride = LAYER_STRIDE
        self._overview_active = False
        # the object items that draw themselves (the others have no contents until a frame shows them)
        self._drawing: list[ObjectItem] = []
        self._level_box = None  # the level's bounds, until the document changes (level_rect)
        # items made ahead for a level about to be opened: (its objects, their items in order and by id, its
        # bounds, what to call between slices of work) (prepare)
        self._prepared = None
        self._preparing = False
        # set while a new level's items go into the scene: the overview shows nothing meanwhile
        self._filling = False
        # a drag of many objects shown before it is done (show_moving): their items, the offset, how it is shown
        self._moving: list[ObjectItem] = []
        self._moving_offset = (0.0, 0.0)
        self._moving_everything = False
        self._moving_player = False
        self._moving_placed = False
        self._moving_shown = (0.0, 0.0)
        self._moving_box = None
        self.overview = LevelOverview(self.level_rect, self._overview_items, self.__len__)
        # the items that are not level objects (the spawn, tools' handles and previews, problem signs...)
        self._overlays: dict = {}
        self.player_item = PlayerItem(document.player, self.looks)
        self.player_item.setZValue(PLAYER_Z)
        self.addItem(self.player_item)
        # Measured with editor.bench: the BSP index keeps picking and rubber bands instant at 10,000 objects
        # (and at 100,000 with a depth that follows the level's size: bsp_depth_for).
        self.setItemIndexMethod(QGraphicsScene.BspTreeIndex)
        with paused_collector():
            self._rebuild()
        subscribe_while_alive(document, self, self._on_document_changed)

    # -- reading -------------------------------------------------------------
    def item(self, object_id: str) -> Optional[ObjectItem]:
        """The item showing ``object_id`` (``"player"`` for the spawn)."""
        if object_id == PlayerItem.PLAYER_ID:
            return self.player_item
        return self._items.get(object_id)

    def object_items(self) -> list[ObjectItem]:
        return list(self._items.values())

    def __len__(self) -> int:
        """How many object items (without the player)."""
        return len(self._items)

    def object_at(self, pos: QPointF, tolerance: float = 0.0) -> Optional[str]:
        """The id of the topmost object (or ``"player"``) at ``pos``, within ``tolerance`` scene units.

        Objects on hidden and locked layers are not picked: the click reaches what lies under them.
        """
        t = max(tolerance, 1e-6)
        area = QRectF(pos.x() - t, pos.y() - t, 2 * t, 2 * t)
        for it in self.items(area, Qt.IntersectsItemBoundingRect, Qt.DescendingOrder):
            if isinstance(it, ObjectItem) and self.pickable(it) and it.hit(pos, tolerance):
                return it.object_id
        return None

    def objects_in(self, rect: QRectF) -> list[str]:
        """Ids of the objects whose outline meets ``rect`` (the rubber band), in drawing order.

        Objects on hidden and locked layers are left out.
        """
        found = [it for it in self.items(rect.normalized(), Qt.IntersectsItemShape, Qt.AscendingOrder)
                 if isinstance(it, ObjectItem) and self.pickable(it)]
        return [it.object_id for it in found]

    def pickable(self, item: ObjectItem) -> bool:
        """Whether a click or a rubber band may take ``item``: shown, and not on a locked layer."""
        if not item.isVisible():
            return False
        return not self._locked or item is self.player_item or item.value.layer not in self._locked

    def layer_locked(self, layer_id: str) -> bool:
        return layer_id in self._locked

    def layer_hidden(self, layer_id: str) -> bool:
        return layer_id in self._hidden

    def level_rect(self) -> QRectF:
        """The level's bounding box (objects and player), in scene units.

        Worked out once per state of the document (opening a level asks three
        times: the scene's rectangle, the overview, the view's fit) and kept until
        the document changes; a move of everything moves it along.
        """
        if self._level_box is None:
            self._level_box = self.document.level.bounds()
        b = self._level_box
        return QRectF(b[0], b[1], b[2] - b[0], b[3] - b[1])

    # -- the items over the objects ------------------------------------------------
    def addItem(self, item) -> None:
        super().addItem(item)
        if type(item) not in _OBJECT_ITEM_TYPES:
            self._overlays[item] = None

    def removeItem(self, item) -> None:
        self._overlays.pop(item, None)
        super().removeItem(item)

    def overlay_items(self) -> list:
        """The items in the scene that are not level objects: the spawn, tools' handles and previews, problem signs.

        A view showing the overview picture draws only these with Qt (editor/canvas/canvas.py).
        """
        alive = [it for it in self._overlays if shiboken6.isValid(it) and it.scene() is self]
        if len(alive) != len(self._overlays):
            self._overlays = dict.fromkeys(alive)
        return alive

    # -- selection and hover look ---------------------------------------------
    def set_selection(self, selection: Selection) -> None:
        """Show ``selection`` (the editor's shared selection) on the items."""
        self.selection = selection
        selection.changed.connect(self._show_selection)
        self._show_selection()

    def _show_selection(self) -> None:
        now = set(self.selection.ids()) if self.selection is not None else set()
        shown = self.looks.selected
        if now == shown:
            return
        changed = now ^ shown
        self.looks.selected = now
        self._repaint_ids(changed)

    def set_hovered(self, object_id: Optional[str]) -> None:
        """Highlight the object under the mouse lightly (``None`` for nothing)."""
        if object_id is not None and self.item(object_id) is None:
            object_id = None
        old = self.looks.hovered
        if object_id == old:
            return
        self.looks.hovered = object_id
        self._repaint_ids([i for i in (old, object_id) if i is not None])

    def _repaint_ids(self, ids) -> None:
        """Repaint the items of ``ids`` (their look changed), on the canvas and in the overview."""
        if len(ids) > MANY:
            self.update()
            self.overview.invalidate(None)
            return
        for oid in ids:
            it = self.item(oid)
            if it is not None:
                it.update()
                if it is not self.player_item:
                    self._mark(_rect(it.scene_box()))

    def _mark(self, rect: QRectF) -> None:
        """``rect`` (scene units) changed: the overview repaints it, and so does the view showing it."""
        self.overview.invalidate(rect)
        # items without contents (all of them under the overview, those no frame showed yet otherwise)
        # ask for no repaint of their own
        self.update(rect)

    @property
    def hovered_id(self) -> Optional[str]:
        return self.looks.hovered

    # -- overview --------------------------------------------------------------
    @property
    def overview_active(self) -> bool:
        return self._overview_active

    def set_overview_active(self, on: bool) -> None:
        """Draw the overview picture instead of the object items (a view calls this when far out).

        The items stay in the scene and its index (picking, rubber bands) but
        tell Qt they have no contents, so a frame costs no Python per object.
        """
        if on == self._overview_active:
            return
        self._overview_active = on
        if on:
            # the items that drew themselves since the last switch stop; the others never started
            for it in self._drawing:
                it.set_drawing(False)
            self._drawing = []
        if self._moving:
            # a drag under way: shown the way the new mode shows it
            self._place_moving()
        self.update()

    def draw_overview(self, painter, rect: QRectF) -> None:
        """Draw the overview picture over ``rect`` when it stands in for the items (a view calls this per frame).

        Otherwise the items in ``rect`` are about to be drawn: those that were not drawing start
        to (:meth:`_draw_items_in`).
        """
        if self._filling:
            return  # a level's items going into the scene a slice at a time: nothing to show yet
        if self._overview_active:
            self.overview.draw(painter, rect)
        else:
            self._draw_items_in(rect)

    def _draw_items_in(self, rect: QRectF) -> None:
        """Let the object items meeting ``rect`` draw themselves.

        Items are made without contents and start drawing when a frame first shows
        them, so leaving the overview changes the few thousand items in view rather
        than all 100,000 at once (which took a frame of half a second); going back
        to the overview stops only those. Qt collects the items to draw after the
        background, so they draw in this very frame.
        """
        drawing = self._drawing
        for it in self.items(rect, Qt.IntersectsItemBoundingRect):
            if isinstance(it, ObjectItem) and not it.drawing and it is not self.player_item:
                it.set_drawing(True)
                drawing.append(it)

    def drawBackground(self, painter, rect: QRectF) -> None:
        # scene.render() without a view: the picture too, since the items draw nothing meanwhile
        super().drawBackground(painter, rect)
        self.draw_overview(painter, rect)

    def _overview_items(self, rect: Optional[QRectF]) -> list[ObjectItem]:
        """The shown object items meeting ``rect`` (``None``: all), bottom first (the player is not in the overview)."""
        if rect is None:
            # a new picture of the whole level: every shown item, in stacking order, without asking the index
            shown = [it for it in self._items.values() if it.isVisible()]
            shown.sort(key=QGraphicsItem.zValue)
            return shown
        player = self.player_item
        return [it for it in self.items(rect, Qt.IntersectsItemBoundingRect, Qt.AscendingOrder)
                if isinstance(it, ObjectItem) and it is not player and it.isVisible()]

    def _new_item(self, obj, z: Optional[float] = None) -> ObjectItem:
        it = item_for(obj, self.looks)
        if z is not None:
            it.setZValue(z)
        # it draws once a frame shows it (_draw_items_in)
        it.set_drawing(False)
        if obj.layer in self._hidden:
            it.setVisible(False)
        self.addItem(it)
        self._items[obj.id] = it
        return it

    def _z(self, obj, index: int) -> float:
        """Where ``obj``, the ``index``-th object of the file, stacks: by layer, then file order; pictures under."""
        return _stacked(obj, index, self._rank, len(self._rank), self._stride)

    # -- layers and types ------------------------------------------------------------
    def _read_layers(self) -> None:
        layers = self.document.level.layers
        self._rank = {layer.id: i for i, layer in enumerate(layers)}
        self._hidden = {layer.id for layer in layers if not layer.visible}
        self._locked = {layer.id for layer in layers if layer.locked}

    def _read_types(self) -> None:
        self.looks.type_colors = _type_colors(self.document.level)

    def _fit_stride(self) -> bool:
        """Make room for every object inside its layer's band of z values; True when the band grew."""
        n = len(self.document)
        if n < self._stride:
            return False
        self._stride = stride_for(n)
        return True

    def _layers_changed(self) -> None:
        """Show, hide and restack only the items of the layers whose state or place changed.

        A lock changes nothing on screen; a renamed or added layer nothing at all.
        At 100,000 objects that makes hiding one layer a pass over the objects that
        touches only that layer's items, and a lock instant.
        """
        old_rank, old_hidden = self._rank, self._hidden
        self._read_layers()
        moved = {lid for lid, r in self._rank.items() if lid in old_rank and old_rank[lid] != r}
        toggled = self._hidden ^ old_hidden
        if self.looks.hovered is not None:
            hovered = self.document.get(self.looks.hovered)
            if hovered is not None and (hovered.layer in self._locked or hovered.layer in self._hidden):
                self.set_hovered(None)
        if not moved and not toggled:
            return
        items, hidden, boxes = self._items, self._hidden, []
        for i, obj in enumerate(self.document.objects):
            layer = obj.layer
            if layer in moved:
                items[obj.id].setZValue(self._z(obj, i))
                if layer not in hidden:
                    boxes.append(items[obj.id].scene_box())
            if layer in toggled:
                it = items[obj.id]
                it.setVisible(layer not in hidden)
                boxes.append(it.scene_box())
        self._changed_area(boxes)

    def _types_changed(self) -> None:
        """New colours: every item looks its type up as it paints, so a repaint is all it takes."""
        self._read_types()
        self.update()
        self.overview.invalidate(None)

    # -- reference pictures ------------------------------------------------------------
    @property
    def base_folder(self) -> Optional[str]:
        """The folder the level file is in: pictures' paths are relative to it (None: not saved yet)."""
        return self.looks.base_folder

    def set_base_folder(self, folder: Optional[str]) -> None:
        """Read the level's pictures from ``folder`` (the window calls this when a level is opened or saved).

        The pictures are read from disk again, so a picture fixed since it was
        last shown (or one that is missing now) shows as it is.
        """
        self.looks.base_folder = folder
        forget_pictures()
        # found through the level's objects: a type test of each of 100,000 items took 70 ms of a save
        items = self._items
        pictures = [items[o.id] for o in self.document.objects if o.__class__ is Image and o.id in items]
        before = [it.scene_box() for it in pictures]
        for it in pictures:
            it.reload()
        after = [it.scene_box() for it in pictures]
        self._changed_area(before + after)
        self._grow_scene_rect(after)

    # -- a drag of many objects, shown before it is done ------------------------------
    def show_moving(self, ids, dx: float, dy: float) -> None:
        """Show the objects ``ids`` (``"player"`` too) moved by ``(dx, dy)``, leaving the document as it is.

        The select tool calls this on each mouse move of a drag of many objects and
        changes the document once, on release; :meth:`end_moving` ends the show. A
        mouse move then costs no new objects and no document change; and when every
        object moves while the overview stands in for the items, it moves the
        picture and touches no item at all.
        """
        if not self._moving:
            get = self._items.get
            items = [it for it in map(get, ids) if it is not None]
            self._moving_player = PlayerItem.PLAYER_ID in ids
            self._moving_everything = len(items) == len(self._items)
            if self._moving_player:
                items.append(self.player_item)
            if not items:
                return
            self._moving = items
            self._moving_box = None  # worked out when the overview needs it
            self._moving_shown = (0.0, 0.0)
        self._moving_offset = (dx, dy)
        self._place_moving()

    def _place_moving(self) -> None:
        dx, dy = self._moving_offset
        if self._overview_active and self._moving_everything:
            self.overview.set_offset(dx, dy)
            if self._moving_player:
                # the spawn is an item drawn over the picture
                player = self.player_item
                player.setPos(player._ax + dx, player._ay + dy)
            self.update()
            return
        self.overview.set_offset(0.0, 0.0)
        if self._overview_active:
            if self._moving_box is None:
                self._moving_box = _union(it.scene_box() for it in self._moving)
            # the picture shows the items where they are: the area they leave and the one they reach change
            for sx, sy in (self._moving_shown, (dx, dy)):
                b = self._moving_box
                self._mark(_rect((b[0] + sx, b[1] + sy, b[2] + sx, b[3] + sy)))
        for it in self._moving:
            it.setPos(it._ax + dx, it._ay + dy)
        self._moving_shown = (dx, dy)
        self._moving_placed = True
        self.overview.exact_positions = True
        # items coming into view may not have drawn yet: they ask for no repaint of their own
        self.update()

    def end_moving(self, restore: bool = True) -> None:
        """End :meth:`show_moving`; ``restore``: put the items back where their objects are.

        After the drag's own change of the document (``restore`` false) the
        items already show the objects where they went.
        """
        if not self._moving:
            return
        items, self._moving = self._moving, []
        if self.overview.offset != (0.0, 0.0):
            self.overview.set_offset(0.0, 0.0)
            self.update()
        if restore and self._moving_everything and self._moving_player and not self._moving_placed:
            self.player_item.setPos(self.player_item._ax, self.player_item._ay)
        if restore and self._moving_placed and self._moving_shown != (0.0, 0.0):
            if self._overview_active and self._moving_box is not None:
                b, (sx, sy) = self._moving_box, self._moving_shown
                self._mark(_rect(b))
                self._mark(_rect((b[0] + sx, b[1] + sy, b[2] + sx, b[3] + sy)))
            for it in items:
                it.setPos(it._ax, it._ay)
            self.update()
        self._moving_placed = self.overview.exact_positions = False
        self._moving_offset = self._moving_shown = (0.0, 0.0)
        self._moving_box = None

    @property
    def moving(self) -> bool:
        """Whether a drag of many objects is being shown (:meth:`show_moving`)."""
        return bool(self._moving)

    # -- document -> items ---------------------------------------------------
    def prepare(self, level: Level, progress: Optional[Callable[[int, int], None]] = None,
                between: Callable[[], None] = _answer_events) -> None:
        """Make the items for ``level`` before it is opened, a slice at a time, the window answering in between.

        Call it just before the document is reset to ``level``: the reset then only adds the items to the
        scene. Made all at once on the reset, 100,000 items froze the window for more than a second; here
        ``between()`` runs at least every :data:`ANSWER_EVERY` seconds (by default the window repaints
        and runs its timers, while the designer's clicks and keys wait until the level is open), after
        ``progress(done, total)``. The document is not touched: until the reset the canvas shows the level
        that was open. Levels under :data:`PREPARE_AT` objects are made at once on the reset, as before;
        items made for a level that is not the one the document is reset to next are dropped.
        """
        if self._prepared is not None:
            picture_ahead.stop(self._prepared.picture)
        self._prepared = None
        if not makes_items_ahead(level) or self._preparing:
            return
        self._preparing = True
        try:
            self._prepared = self._make_ahead(level, progress, between)
        finally:
            self._preparing = False

    def _make_ahead(self, level: Level, progress, between) -> _Prepared:
        objects = level.objects
        rank, hidden, count, stride = _stacking(level)
        looks = self.looks
        items, by_id, boxes = [], {}, []
        make, keep, measure = item_for, items.append, boxes.append
        # the whole-level picture, painted meanwhile on another core (nothing when it cannot be)
        ahead = picture_ahead.start(level, shown_items)
        clock = time.perf_counter
        last = clock()
        with paused_collector():
            for i, obj in enumerate(objects):
                it = make(obj, looks)
                # as _new_item and _z do once the level is the document's
                it.setZValue(_stacked(obj, i, rank, count, stride))
                it.set_drawing(False)
                if obj.layer in hidden:
                    it.setVisible(False)
                keep(it)
                by_id[obj.id] = it
                measure(obj.bounds())
                if clock() - last > ANSWER_EVERY:  # each item: a long wall alone takes milliseconds
                    # Level.bounds() so far, folded on the way (over 100,000 boxes at the end it took 0.1 s)
                    boxes[:] = [_union(boxes)]
                    if progress is not None:
                        progress(i, len(objects))
                    between()
                    last = clock()
            boxes.append(level.player.bounds())
            # before the collector runs again: 100,000 new items would set off a pass over everything alive
            settle()
        return _Prepared(objects, items, by_id, _union(boxes), ahead, between)

    def _rebuild(self) -> None:
        self.looks.hovered = None
        self.end_moving(restore=False)
        self._drawing = []
        prepared, self._prepared = self._prepared, None
        objects = self.document.objects
        if prepared is not None and prepared.objects is not objects:
            picture_ahead.stop(prepared.picture)
            prepared = None
        old = list(self._items.values())
        self._items = {}
        # nothing of the last level's picture shows, and none of the new one until every item is in the scene
        self.overview.new_level()
        if prepared is not None and prepared.picture is not None:
            self.overview.paint_elsewhere(prepared.picture)
        self._filling = True
        try:
            between = prepared.between if prepared is not None else None
            if between is not None:
                between()  # the window shows the level gone before the slices start
            self._remove_in_slices(old, between)
            self._fit_bsp_depth()
            self._read_layers()
            self._read_types()
            self._stride = LAYER_STRIDE
            self._fit_stride()
            if prepared is not None:
                made, self._items, self._level_box = prepared.items, prepared.by_id, prepared.level_box
                # the scene's rectangle first: setting it later would make Qt index every item again
                self._fit_scene_rect()
                # Qt's own addItem in C loops (object items are not overlays, nothing to note), and its index
                # of them a slice at a time: 100,000 items and their index took 0.3 s in one piece
                self._in_slices(made, functools.partial(QGraphicsScene.addItem, self), between, index=True)
            else:
                for i, obj in enumerate(objects):
                    self._new_item(obj, self._z(obj, i))
                if len(objects) >= PREPARE_AT:
                    settle()
                else:
                    unsettle()
                self._fit_scene_rect()
                # Qt indexes the new items at its first look-up: here, while the level opens, rather than in
                # the first frame that asks (a view showing the overview may not ask for seconds)
                self.items(QRectF(0, 0, 1, 1))
        finally:
            self._filling = False
        self.player_item.sync(self.document.player)
        self.update()
        if self.selection is not None:
            self._show_selection()

    def _remove_in_slices(self, items: list, between: Optional[Callable[[], None]]) -> None:
        """Remove ``items`` from the scene and let them go, emptying the list, :data:`SLICE` at a time with
        ``between()`` at least every :data:`ANSWER_EVERY` seconds (``None``: all at once).

        The last added first: Qt then removes each from the end of its lists instead of searching them.
        Each slice's items are freed with it (100,000 items freed at once took a quarter of a second).
        """
        clock = time.perf_counter
        last = clock()
        while items:
            part = items[-SLICE:] if between is not None else items[:]
            del items[-len(part):]
            part.reverse()
            deque(map(self.removeItem, part), maxlen=0)
            del part
            if between is not None and clock() - last > ANSWER_EVERY:
                between()
                last = clock()

    def _in_slices(self, items: list, call, between: Optional[Callable[[], None]], index: bool = False) -> None:
        """``call(item)`` for each of ``items`` in C loops, ``between()`` at least every :data:`ANSWER_EVERY`
        seconds (``None``: all at once); ``index``: Qt indexes each slice as it is done."""
        clock = time.perf_counter
        step = max(1, len(items)) if between is None else SLICE
        last = clock()
        for start in range(0, len(items), step):
            deque(map(call, items[start:start + step]), maxlen=0)
            if index:
                self.items(QRectF(0, 0, 1, 1))
            # and after the last slice: what follows (the first frame of a level just opened) is not added
            # to the slices since the last turn of the event loop
            if between is not None and (clock() - last > ANSWER_EVERY or start + step >= len(items)):
                between()
                last = clock()

    def _on_document_changed(self, change: Change) -> None:
        with paused_collector():
            self._follow(change)

    def _follow(self, change: Change) -> None:
        kind = change.kind
        if kind is not ChangeKind.CHANGED:
            self._level_box = None
        if kind is ChangeKind.RESET:
            self._rebuild()
        elif kind is ChangeKind.ADDED:
            n = len(self.document)
            appended = all(self.document.index_of(o.id) >= n - len(change.objects) for o in change.objects)
            appended = not self._fit_stride() and appended
            new = [self._new_item(obj, self._z(obj, self.document.index_of(obj.id)) if appended else None)
                   for obj in change.objects]
            if not appended:
                self._restack()
            self._changed_area([it.scene_box() for it in new])
            self._grow_scene_rect(it.scene_box() for it in new)
            self._fit_bsp_depth()
        elif kind is ChangeKind.REMOVED:
            boxes = []
            for obj in change.objects:
                it = self._items.pop(obj.id, None)
                if it is not None:
                    if obj.id == self.looks.hovered:
                        self.looks.hovered = None
                    boxes.append(it.scene_box())
                    self.removeItem(it)
            self._changed_area(boxes)
        elif kind is ChangeKind.CHANGED:
            self._sync_changed(change)
        elif kind is ChangeKind.PLAYER:
            self.player_item.sync(self.document.player)
            self._grow_scene_rect(())
        elif kind is ChangeKind.PROPERTIES:
            # the grid size changed: the canvas redraws its background
            self.update()
        elif kind is ChangeKind.LAYERS:
            self._layers_changed()
        elif kind is ChangeKind.TYPES:
            self._types_changed()

    def _sync_changed(self, change: Change) -> None:
        """One pass over a change of any size: pure moves only move items, ids follow renames."""
        if moved_by(change) is not None:
            self._sync_moved(change)
            return
        items = self._items
        if any(o.id != n.id for o, n in zip(change.old, change.objects)):
            # take them all out first, so ids that swap do not overwrite each other
            shown = [items.pop(o.id) for o in change.old]
            for it, new in zip(shown, change.objects):
                items[new.id] = it
            if self.looks.hovered in {o.id for o in change.old}:
                self.looks.hovered = None
        else:
            shown = [items[o.id] for o in change.old]
        # every object changed: the area is the whole level, and item by item boxes are not needed
        everything = len(shown) == len(items) and len(shown) > MANY
        before = None if everything else [it.scene_box() for it in shown]
        hidden = self._hidden
        # whether every item only moved, all by the same offset (dx, dy): then the picture moves along
        dx = dy = None
        same_move = True
        for i, (it, old, new) in enumerate(zip(shown, change.old, change.objects)):
            x0, y0 = it._ax, it._ay
            if type(it.value) is type(new):
                if it.sync(new):
                    same_move = False
            else:
                same_move = False
                z = it.zValue()
                self.removeItem(it)
                it = shown[i] = self._new_item(new, z)
            if old.layer != new.layer:
                same_move = False
                # moved to another layer: it stacks and shows as that layer's objects do
                it.setZValue(self._z(new, self.document.index_of(new.id)))
                it.setVisible(new.layer not in hidden)
            if same_move:
                if dx is None:
                    dx, dy = it._ax - x0, it._ay - y0
                elif abs(it._ax - x0 - dx) > SAME_MOVE or abs(it._ay - y0 - dy) > SAME_MOVE:
                    same_move = False
        self._level_box = None
        if everything and same_move and dx is not None:
            self._everything_moved(dx, dy)
            return
        after = [it.scene_box() for it in shown]
        if everything:
            self._mark_everything()
        else:
            self._changed_area(before + after)
        self._grow_scene_rect(after)

    def _sync_moved(self, change: Change) -> None:
        """A change known to be a pure move by one offset (:func:`level_editor.editor.work.bulk.moved_by`): the items only move.

        What :meth:`ObjectItem.sync` does for such a value, without working out its outline's key to find
        that the outline stayed: a move of 100,000 objects (a drag, its undo, its redo) then costs a new
        position per item and little else.
        """
        items, objects = self._items, change.objects
        shown = list(map(items.__getitem__, map(_ID, objects)))
        everything = len(shown) == len(items) and len(shown) > MANY
        before = None if everything else [it.scene_box() for it in shown]
        dx = dy = 0.0
        placed = []
        where = _ANCHOR.get
        for it, new in zip(shown, objects):
            at = where(type(new))
            ax, ay = at(new) if at is not None else it.anchor(new)
            it.value = new
            if ax != it._ax or ay != it._ay:
                dx, dy = ax - it._ax, ay - it._ay
                it._ax, it._ay = ax, ay
                placed.append(it)
        # in Qt's loop, without a Python frame per item (an item the drag's preview showed there is not moved again)
        deque(map(_SET_POS, placed, map(_AX, placed), map(_AY, placed)), maxlen=0)
        self._level_box = None
        if everything:
            self._everything_moved(dx, dy)
            return
        after = [it.scene_box() for it in shown]
        self._changed_area(before + after)
        self._grow_scene_rect(after)

    def _mark_everything(self) -> None:
        """Every object changed: the overview paints a new picture, the view repaints."""
        self.overview.invalidate(None)
        self.update()

    def _everything_moved(self, dx: float, dy: float) -> None:
        """Every object moved by ``(dx, dy)`` and nothing else changed: the level's bounds and picture move too.

        Moving everything (select all, drag; its undo and redo) then repaints no
        object into the overview: at 100,000 objects that is a second per step saved.
        The scene's rectangle, which held every object with room around it, grows
        by the move, so it still does.
        """
        self.overview.translate(dx, dy)
        rect = self.sceneRect()
        self.setSceneRect(rect.united(rect.translated(dx, dy)))
        self._grow_scene_rect(())
        # Qt indexes the moved items again now, as part of this step, rather than on a timer of its own two
        # seconds later: 100,000 items' index then froze the window at a moment nobody asked for anything
        self.items(QRectF(0, 0, 1, 1))
        self.update()

    def _changed_area(self, boxes: list) -> None:
        """Objects inside these ``(x0, y0, x1, y1)`` boxes changed: mark them for the overview."""
        if not boxes:
            return
        if len(boxes) > MANY:
            self._mark(_rect(_union(boxes)))
        else:
            for b in boxes:
                self._mark(_rect(b))

    def _fit_bsp_depth(self) -> None:
        depth = bsp_depth_for(len(self.document))
        if abs(depth - self.bspTreeDepth()) > 1:
            self.setBspTreeDepth(depth)

    def _restack(self) -> None:
        items, z = self._items, self._z
        for i, obj in enumerate(self.document.objects):
            items[obj.id].setZValue(z(obj, i))

    def _fit_scene_rect(self) -> None:
        r = self.level_rect()
        m = max(SCROLL_MARGIN, r.width(), r.height())
        self.setSceneRect(r.adjusted(-m, -m, m, m))

    def _grow_scene_rect(self, boxes) -> None:
        """Let the view scroll to ``boxes`` (and the spawn) with the usual room around them."""
        b = _union([self.document.player.bounds(), *boxes])
        rect = self.sceneRect()
        m = SCROLL_MARGIN
        r = rect.united(QRectF(b[0] - m, b[1] - m, b[2] - b[0] + 2 * m, b[3] - b[1] + 2 * m))
        if r != rect:
            self.setSceneRect(r)

    # -- events -> active tool -----------------------------------------------
    # Not guarded here: the canvas guards each event and, on an error, cancels the tool's gesture (canvas.py).
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._held |= event.button()
        self._last_pos = event.scenePos()
        if self.tool is not None:
            self.tool.mouse_pressed(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._last_pos = event.scenePos()
        if self.tool is not None:
            self.tool.mouse_moved(event.scenePos(), event.buttons(), event.modifiers())
        event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._held &= ~event.button()
        if self.tool is not None:
            self.tool.mouse_released(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def release_held_buttons(self) -> None:
        """End the active tool's gesture as if its buttons were let go where the mouse last was.

        For when something takes the canvas away mid-drag (a play-test started
        with F5): the real release then never reaches the tool, which would
        otherwise still think a button is down when editing resumes.
        """
        held, self._held = self._held, Qt.MouseButton.NoButton
        if self.tool is None:
            return
        for button in (Qt.LeftButton, Qt.RightButton, Qt.MiddleButton):
            if held & button:
                self.tool.mouse_released(QPointF(self._last_pos), button, Qt.NoModifier)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool is not None:
            self.tool.mouse_double_clicked(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def keyPressEvent(self, event) -> None:
        if self.tool is not None and self.tool.key_pressed(event.key(), event.modifiers()):
            event.accept()
        else:
            event.ignore()
