"""LevelScene: one graphics item per level object, kept in step with the document.

The scene draws; it never edits. It listens to the document's change events (Tiled's
``MapItem::documentChanged``), has the items follow them (:mod:`.syncing`), shows the selection, and hands
mouse and key events to the active tool (:mod:`.tool_events`).

Each layer is one parent item holding its objects' items (:mod:`.layer_stack`): layers stack bottom to top,
and inside each the file's order holds; a layer's reference pictures go under its other objects. A hidden layer's item is
hidden, its objects with it; neither a hidden nor a locked layer's objects can be picked or caught by a rubber
band.

The other jobs have modules of their own: the items and their layers (:mod:`.level_items`), a big level's
items made ahead and put in a slice at a time (:mod:`.slices`), a drag of many objects shown before it is
done (:mod:`.drag_preview`), and the picture that stands in for the items far out (:mod:`.overview`).
"""
from __future__ import annotations

import math
from typing import Callable, Optional

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene

from level_editor.core.level.collector import paused_collector
from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.core.level.model import Image, Level
from level_editor.editor.canvas import picture_ahead, slices
from level_editor.editor.canvas.boxes import rect_of, union
from level_editor.editor.canvas.drag_preview import DragPreview
from level_editor.editor.canvas.level_items import ITEM_CLASSES, LevelItems, type_colors
from level_editor.editor.canvas.overview import LevelOverview
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.canvas.slices import makes_items_ahead
from level_editor.editor.canvas.syncing import MANY, ItemSync, Shown
from level_editor.editor.canvas.tool_events import ToolScene
from level_editor.editor.items.image_item import forget_pictures
from level_editor.editor.items.layer_item import LayerItem
from level_editor.editor.items.object_item import LookState, ObjectItem
from level_editor.editor.items.player_item import PlayerItem
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.work.bulk import settle, unsettle

__all__ = ["LevelScene", "ITEM_CLASSES", "PLAYER_Z", "SCROLL_MARGIN", "bsp_depth_for", "makes_items_ahead"]

#: Room around the level that the view can scroll into, at least this many units.
SCROLL_MARGIN = 1024.0

#: The player's spawn is drawn above every object.
PLAYER_Z = 1e9

#: The items of the level's objects and layers; every other item added is drawn over them (overlay_items).
_LEVEL_ITEM_TYPES = frozenset(ITEM_CLASSES.values()) | {LayerItem}


def bsp_depth_for(count: int) -> int:
    """The BSP tree depth for ``count`` items (measured with editor.bench at 1,000 to 100,000 objects).

    Qt picks a depth automatically only once, for the items in the scene at the
    first lookup (an empty level: 5), and keeps it: at 100,000 objects that is
    3,000 items per leaf, 20 ms a pick and 70 ms a pan frame at 100%. About
    eight objects per leaf keeps both under a few milliseconds.
    """
    return max(5, min(14, math.ceil(math.log2(max(count, 1))) - 3))


class _Probe(QGraphicsRectItem):
    """The rectangle :meth:`LevelScene._items_meeting` asks the index with; never in the scene.

    Qt's own ``collidesWithItem`` compares with the other item's ``shape()`` even for a
    bounding-rectangle question, and a long wall's shape is an outline of up to 300,000
    nodes (editor/items/wall_item.py): this one compares bounding rectangles only.
    """

    def collidesWithItem(self, other, mode=Qt.IntersectsItemShape) -> bool:  # noqa: N802 - Qt's name
        return self.rect().intersects(other.sceneBoundingRect())


def _widened(rect: QRectF) -> QRectF:
    """``rect``, a little wider or taller if it has no width or height, as ``items(rect)`` makes it: it still meets
    what it touches."""
    rect = QRectF(rect)
    if rect.width() == 0:
        rect.adjust(-1e-5, 0, 1e-5, 0)
    if rect.height() == 0:
        rect.adjust(0, -1e-5, 0, 1e-5)
    return rect


class LevelScene(ToolScene):
    """The canvas's scene: items for the document's objects and player.

    Selection and hover are one shared :class:`LookState` that items read as
    they paint. ``overview`` is a cached picture of all objects that a view
    zoomed far out shows instead of the items (:meth:`set_overview_active`).
    """

    def __init__(self, document: LevelDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.selection: Optional[Selection] = None
        self.looks = LookState()
        self._items = LevelItems(self, self.looks)
        self._sync = ItemSync(document, self._items, self.looks)
        self._drag = DragPreview(self)
        self._overview_active = False
        # the object items that draw themselves (the others have no contents until a frame shows them)
        self._drawing: list[ObjectItem] = []
        self._level_box = None  # the level's bounds, until the document changes (level_rect)
        # items made ahead for a level about to be opened (prepare)
        self._prepared: Optional[slices.Prepared] = None
        self._preparing = False
        # set while a new level's items go into the scene: the overview shows nothing meanwhile
        self._filling = False
        self.overview = LevelOverview(self.level_rect, self._overview_items, self.__len__)
        # the items that are not level objects (the spawn, tools' handles and previews, problem signs...)
        self._overlays: dict = {}
        # the rectangle that asks the scene's index which items meet it (_items_meeting); never in the scene
        self._probe = _Probe()
        self._probe.setPen(QPen(Qt.NoPen))
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
        return list(self._items)

    def __len__(self) -> int:
        """How many object items (without the player)."""
        return len(self._items)

    def object_at(self, pos: QPointF, tolerance: float = 0.0) -> Optional[str]:
        """The id of the topmost object (or ``"player"``) at ``pos``, within ``tolerance`` scene units.

        Objects on hidden and locked layers are not picked: the click reaches what lies under them.
        """
        t = max(tolerance, 1e-6)
        area = QRectF(pos.x() - t, pos.y() - t, 2 * t, 2 * t)
        for it in self._items_meeting(area):
            if isinstance(it, ObjectItem) and self.pickable(it) and it.hit(pos, tolerance):
                return it.object_id
        return None

    def objects_in(self, rect: QRectF) -> list[str]:
        """Ids of the objects whose outline meets ``rect`` (the rubber band), in drawing order.

        Objects on hidden and locked layers are left out.
        """
        rect = _widened(rect.normalized())
        band = QPainterPath()
        band.addRect(rect)
        found = self._items_meeting(rect)
        found.reverse()
        # each item's own test, as items(rect) makes it (a long wall's is on its nodes, not its outline)
        return [it.object_id for it in found if isinstance(it, ObjectItem) and self.pickable(it)
                and it.collidesWithPath(it.mapFromScene(band), Qt.IntersectsItemShape)]

    def _items_meeting(self, rect: QRectF) -> list:
        """The items whose bounding rectangles meet ``rect`` (scene units), topmost first, hidden ones too.

        Asked of the index through an item of that rectangle (``collidingItems``): ``items(rect)`` finds the
        layer items through the index, and then looks at every object item under them, 6 to 10 ms for a
        layer of 100,000 objects; this way only the objects near the rectangle are looked at. (Qt's index
        indexes new items first, as for any other question.)
        """
        self._probe.setRect(_widened(rect))
        return self.collidingItems(self._probe, Qt.IntersectsItemBoundingRect)

    def pickable(self, item: ObjectItem) -> bool:
        """Whether a click or a rubber band may take ``item``: shown, and not on a locked layer."""
        if item is self.player_item:
            return item.isVisible()
        return self._items.pickable(item)

    def layer_locked(self, layer_id: str) -> bool:
        return layer_id in self._items.layers.locked

    def layer_hidden(self, layer_id: str) -> bool:
        return layer_id in self._items.layers.hidden

    def level_rect(self) -> QRectF:
        """The level's bounding box (objects and player), in scene units.

        Worked out once per state of the document (opening a level asks three
        times: the scene's rectangle, the overview, the view's fit) and kept until
        the document changes.
        """
        if self._level_box is None:
            self._level_box = self.document.level.bounds()
        return rect_of(self._level_box)

    # -- the items over the objects ------------------------------------------------
    def addItem(self, item) -> None:
        super().addItem(item)
        if type(item) not in _LEVEL_ITEM_TYPES:
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

    @property
    def hovered_id(self) -> Optional[str]:
        return self.looks.hovered

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
                    self.repaint_area(rect_of(it.scene_box()))

    def repaint_area(self, rect: QRectF) -> None:
        """``rect`` (scene units) changed: the overview repaints it, and so does the view showing it."""
        self.overview.invalidate(rect)
        # items without contents (all of them under the overview, those no frame showed yet otherwise)
        # ask for no repaint of their own
        self.update(rect)

    def _repaint_boxes(self, boxes: list) -> None:
        """Objects inside these ``(x0, y0, x1, y1)`` boxes changed: repaint them (many: around all of them)."""
        if len(boxes) > MANY:
            boxes = [union(boxes)]
        for b in boxes:
            self.repaint_area(rect_of(b))

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
        if self._drag.active:
            # a drag under way: shown the way the new mode shows it
            self._drag.place()
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
        drawing, player = self._drawing, self.player_item
        for it in self._items_meeting(rect):
            if isinstance(it, ObjectItem) and not it.drawing and it is not player:
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
            return self._items.layers.shown_items()
        player = self.player_item
        found = self._items_meeting(rect)
        found.reverse()
        return [it for it in found if isinstance(it, ObjectItem) and it is not player and it.isVisible()]

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
        pictures = [it for it in map(self._items.get, (o.id for o in self.document.objects if o.__class__ is Image))
                    if it is not None]
        before = [it.scene_box() for it in pictures]
        for it in pictures:
            it.reload()
        after = [it.scene_box() for it in pictures]
        self._repaint_boxes(before + after)
        self._grow_scene_rect(after)

    # -- a drag of many objects, shown before it is done (drag_preview.py) ------------
    def show_moving(self, ids, dx: float, dy: float) -> None:
        """Show the objects ``ids`` (``"player"`` too) moved by ``(dx, dy)``, leaving the document as it is.

        The select tool calls this on each mouse move of a drag of many objects and changes the document once,
        on release; :meth:`end_moving` ends the show.
        """
        self._drag.show(ids, dx, dy)

    def end_moving(self, restore: bool = True) -> None:
        """End :meth:`show_moving`; ``restore``: put the items back where their objects are."""
        self._drag.end(restore)

    @property
    def moving(self) -> bool:
        """Whether a drag of many objects is being shown (:meth:`show_moving`)."""
        return self._drag.active

    # -- document -> items ---------------------------------------------------
    def prepare(self, level: Level, progress: Optional[Callable[[int, int], None]] = None,
                between: Callable[[], None] = slices.answer_events) -> None:
        """Make the items for ``level`` before it is opened, a slice at a time, the window answering in between.

        Call it just before the document is reset to ``level``: the reset then only puts the items in the
        scene (:mod:`.slices`). ``between()`` runs at least every :data:`~.slices.ANSWER_EVERY` seconds (by
        default the window repaints and runs its timers, while the designer's clicks and keys wait until the
        level is open), after ``progress(done, total)``. The document is not touched: until the reset the
        canvas shows the level that was open. Levels under :data:`~.slices.PREPARE_AT` objects are made at
        once on the reset; items made for a level that is not the one the document is reset to next are
        dropped.
        """
        if self._prepared is not None:
            picture_ahead.stop(self._prepared.picture)
        self._prepared = None
        if not makes_items_ahead(level) or self._preparing:
            return
        self._preparing = True
        try:
            self._prepared = slices.make_ahead(level, self.looks, progress, between)
        finally:
            self._preparing = False

    def _rebuild(self) -> None:
        self.looks.hovered = None
        self.end_moving(restore=False)
        self._drawing = []
        prepared, self._prepared = self._prepared, None
        level = self.document.level
        objects = level.objects
        if prepared is not None and prepared.objects is not objects:
            picture_ahead.stop(prepared.picture)
            prepared = None
        # nothing of the last level's picture shows, and none of the new one until every item is in the scene
        self.overview.new_level()
        if prepared is not None and prepared.picture is not None:
            self.overview.paint_elsewhere(prepared.picture)
        self._filling = True
        try:
            between = prepared.between if prepared is not None else None
            if between is not None:
                between()  # the window shows the level gone before the slices start
            self._items.let_go()
            self._fit_bsp_depth()
            self._items.layers.follow(level.layers)
            self.looks.type_colors = type_colors(level)
            if prepared is not None:
                self._items.adopt(prepared.by_id)
                self._level_box = prepared.level_box
                # the scene's rectangle first: setting it later would make Qt index every item again
                self._fit_scene_rect()
                made = prepared.items

                def hang(start: int, stop: int) -> None:
                    self._items.hang(made[start:stop], objects[start:stop])
                    self._index_now()  # Qt's index of them a slice at a time: 0.3 s for 100,000 in one piece

                slices.in_slices(len(made), hang, between)
            else:
                for i, obj in enumerate(objects):
                    self._items.add(obj, i)
                if makes_items_ahead(level):
                    settle()
                else:
                    unsettle()
                self._fit_scene_rect()
                self._index_now()
        finally:
            self._filling = False
        self.player_item.sync(self.document.player)
        self.update()
        if self.selection is not None:
            self._show_selection()

    def _index_now(self) -> None:
        """Have Qt index the items added, now, rather than at the first look-up (a view showing the overview
        may not look anything up for seconds, and its first frame would pay for it)."""
        self._items_meeting(QRectF(0, 0, 1, 1))

    def _on_document_changed(self, change: Change) -> None:
        with paused_collector():
            self._follow(change)

    def _follow(self, change: Change) -> None:
        kind = change.kind
        self._level_box = None
        if kind is ChangeKind.RESET:
            self._rebuild()
        elif kind is ChangeKind.PLAYER:
            self.player_item.sync(self.document.player)
            self._grow_scene_rect(())
        elif kind is ChangeKind.PROPERTIES:
            # the grid size changed: the canvas redraws its background
            self.update()
        elif kind is ChangeKind.TYPES:
            # new colours: every item looks its type up as it paints, so a repaint is all it takes
            self.looks.type_colors = type_colors(self.document.level)
            self._repaint_everything()
        else:
            self._show(self._sync.follow(change))
            if kind is ChangeKind.ADDED:
                self._fit_bsp_depth()

    def _show(self, shown: Shown) -> None:
        """Repaint what a change did (:class:`~.syncing.Shown`), and let the view reach where objects went."""
        if shown.moved_by is not None:
            self._everything_moved(*shown.moved_by)
            return
        if shown.everything:
            self._repaint_everything()
        else:
            self._repaint_boxes(shown.boxes)
        if shown.reach is not None:
            self._grow_scene_rect(shown.reach)

    def _repaint_everything(self) -> None:
        """Every object changed: the overview paints a new picture, the view repaints."""
        self.overview.invalidate(None)
        self.update()

    def _everything_moved(self, dx: float, dy: float) -> None:
        """Every object moved by ``(dx, dy)`` and nothing else changed: the level's picture moves too.

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
        self._index_now()
        self.update()

    def _fit_bsp_depth(self) -> None:
        depth = bsp_depth_for(len(self.document))
        if abs(depth - self.bspTreeDepth()) > 1:
            self.setBspTreeDepth(depth)

    def _fit_scene_rect(self) -> None:
        r = self.level_rect()
        m = max(SCROLL_MARGIN, r.width(), r.height())
        self.setSceneRect(r.adjusted(-m, -m, m, m))

    def _grow_scene_rect(self, boxes) -> None:
        """Let the view scroll to ``boxes`` (and the spawn) with the usual room around them."""
        b = union([self.document.player.bounds(), *boxes])
        rect = self.sceneRect()
        m = SCROLL_MARGIN
        r = rect.united(QRectF(b[0] - m, b[1] - m, b[2] - b[0] + 2 * m, b[3] - b[1] + 2 * m))
        if r != rect:
            self.setSceneRect(r)
