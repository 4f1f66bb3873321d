"""LevelScene: one graphics item per level object, kept in step with the document.

The scene draws; it never edits. It listens to the document's change events
(Tiled's ``MapItem::documentChanged``), syncs the items, shows the selection,
and forwards mouse and key events to the active tool in scene coordinates.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSceneMouseEvent

from core.document import Change, LevelDocument
from core.level import Box, OrientedBox, Pillar, Wall
from editor.items.box_item import BoxItem
from editor.items.object_item import ObjectItem
from editor.items.oriented_box_item import OrientedBoxItem
from editor.items.pillar_item import PillarItem
from editor.items.player_item import PlayerItem
from editor.items.wall_item import WallItem
from editor.selection import Selection

ITEM_CLASSES = {Wall: WallItem, Box: BoxItem, OrientedBox: OrientedBoxItem, Pillar: PillarItem}

#: Room around the level that the view can scroll into, at least this many units.
SCROLL_MARGIN = 1024.0

#: The player's spawn is drawn above every object.
PLAYER_Z = 1e9


def item_for(obj) -> ObjectItem:
    """A new graphics item showing ``obj``."""
    return ITEM_CLASSES[type(obj)](obj)


class LevelScene(QGraphicsScene):
    """The canvas's scene: items for the document's objects and player.

    ``tool`` is the active tool (set by the main window); the scene forwards
    every mouse and key event to it and does nothing else with them.
    """

    def __init__(self, document: LevelDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.selection: Optional[Selection] = None
        self.tool = None
        self._items: dict[str, ObjectItem] = {}
        self._shown_selected: set[str] = set()
        self._hovered: Optional[ObjectItem] = None
        self.player_item = PlayerItem(document.player)
        self.player_item.setZValue(PLAYER_Z)
        self.addItem(self.player_item)
        # Measured with editor.bench: the BSP index keeps picking and rubber bands instant at 10,000 objects.
        self.setItemIndexMethod(QGraphicsScene.BspTreeIndex)
        self._rebuild()
        document.subscribe(self._on_document_changed)

    # -- reading -------------------------------------------------------------
    def item(self, object_id: str) -> Optional[ObjectItem]:
        """The item showing ``object_id`` (``"player"`` for the spawn)."""
        if object_id == PlayerItem.PLAYER_ID:
            return self.player_item
        return self._items.get(object_id)

    def object_items(self) -> list[ObjectItem]:
        return list(self._items.values())

    def object_at(self, pos: QPointF, tolerance: float = 0.0) -> Optional[str]:
        """The id of the topmost object (or ``"player"``) at ``pos``, within ``tolerance`` scene units."""
        t = max(tolerance, 1e-6)
        area = QRectF(pos.x() - t, pos.y() - t, 2 * t, 2 * t)
        for it in self.items(area, Qt.IntersectsItemBoundingRect, Qt.DescendingOrder):
            if isinstance(it, ObjectItem) and it.isVisible() and it.hit(pos, tolerance):
                return it.object_id
        return None

    def objects_in(self, rect: QRectF) -> list[str]:
        """Ids of the objects whose outline meets ``rect`` (the rubber band), in drawing order."""
        found = [it for it in self.items(rect.normalized(), Qt.IntersectsItemShape, Qt.AscendingOrder)
                 if isinstance(it, ObjectItem)]
        return [it.object_id for it in found]

    def level_rect(self) -> QRectF:
        """The level's bounding box (objects and player), in scene units."""
        b = self.document.level.bounds()
        return QRectF(b[0], b[1], b[2] - b[0], b[3] - b[1])

    # -- selection and hover look ---------------------------------------------
    def set_selection(self, selection: Selection) -> None:
        """Show ``selection`` (the editor's shared selection) on the items."""
        self.selection = selection
        selection.changed.connect(self._show_selection)
        self._show_selection()

    def _show_selection(self) -> None:
        now = set(self.selection.ids()) if self.selection is not None else set()
        for oid in self._shown_selected - now:
            it = self.item(oid)
            if it is not None:
                it.set_selected_look(False)
        for oid in now - self._shown_selected:
            it = self.item(oid)
            if it is not None:
                it.set_selected_look(True)
        self._shown_selected = now

    def set_hovered(self, object_id: Optional[str]) -> None:
        """Highlight the object under the mouse lightly (``None`` for nothing)."""
        it = self.item(object_id) if object_id else None
        if it is self._hovered:
            return
        if self._hovered is not None:
            self._hovered.set_hovered(False)
        self._hovered = it
        if it is not None:
            it.set_hovered(True)

    @property
    def hovered_id(self) -> Optional[str]:
        return self._hovered.object_id if self._hovered is not None else None

    # -- document -> items ---------------------------------------------------
    def _rebuild(self) -> None:
        self._hovered = None
        for it in self._items.values():
            self.removeItem(it)
        self._items = {}
        self._shown_selected = set()
        for z, obj in enumerate(self.document.objects):
            it = item_for(obj)
            it.setZValue(z)
            self.addItem(it)
            self._items[obj.id] = it
        self.player_item.sync(self.document.player)
        self._fit_scene_rect(reset=True)
        if self.selection is not None:
            self._show_selection()

    def _on_document_changed(self, change: Change) -> None:
        kind = change.kind
        if kind == "reset":
            self._rebuild()
        elif kind == "added":
            n = len(self.document)
            appended = all(self.document.index_of(o.id) >= n - len(change.objects) for o in change.objects)
            for obj in change.objects:
                it = item_for(obj)
                self.addItem(it)
                self._items[obj.id] = it
                if appended:
                    it.setZValue(self.document.index_of(obj.id))
            if not appended:
                self._restack()
            self._grow_scene_rect(change.objects)
            self._show_selection_of(o.id for o in change.objects)
        elif kind == "removed":
            for obj in change.objects:
                it = self._items.pop(obj.id, None)
                if it is not None:
                    if it is self._hovered:
                        self._hovered = None
                    self.removeItem(it)
                self._shown_selected.discard(obj.id)
        elif kind == "changed":
            for old, new in zip(change.old, change.objects):
                it = self._items.pop(old.id)
                self._items[new.id] = it
                if type(old) is not type(new):
                    self.removeItem(it)
                    z = it.zValue()
                    it = item_for(new)
                    it.setZValue(z)
                    self.addItem(it)
                    self._items[new.id] = it
                else:
                    it.sync(new)
                if old.id != new.id and old.id in self._shown_selected:
                    self._shown_selected.discard(old.id)
            self._grow_scene_rect(change.objects)
            self._show_selection_of(o.id for o in change.objects)
        elif kind == "player":
            self.player_item.sync(self.document.player)
            self._grow_scene_rect(())
        elif kind == "properties":
            # the grid size changed: the canvas redraws its background
            self.update()

    def _show_selection_of(self, ids) -> None:
        if self.selection is None:
            return
        for oid in ids:
            it = self._items.get(oid)
            if it is not None:
                on = oid in self.selection
                it.set_selected_look(on)
                if on:
                    self._shown_selected.add(oid)

    def _restack(self) -> None:
        for z, obj in enumerate(self.document.objects):
            self._items[obj.id].setZValue(z)

    def _fit_scene_rect(self, reset: bool = False) -> None:
        r = self.level_rect()
        m = max(SCROLL_MARGIN, r.width(), r.height())
        self.setSceneRect(r.adjusted(-m, -m, m, m))

    def _grow_scene_rect(self, objects) -> None:
        rect = self.sceneRect()
        r = QRectF(rect)
        boxes = [o.bounds() for o in objects]
        p = self.document.player
        h = p.half_size
        boxes.append((p.spawn.x - h.x, p.spawn.y - h.y, p.spawn.x + h.x, p.spawn.y + h.y))
        for b in boxes:
            r = r.united(QRectF(b[0] - SCROLL_MARGIN, b[1] - SCROLL_MARGIN,
                                b[2] - b[0] + 2 * SCROLL_MARGIN, b[3] - b[1] + 2 * SCROLL_MARGIN))
        if r != rect:
            self.setSceneRect(r)

    # -- events -> active tool -----------------------------------------------
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool is not None:
            self.tool.mouse_pressed(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool is not None:
            self.tool.mouse_moved(event.scenePos(), event.buttons(), event.modifiers())
        event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool is not None:
            self.tool.mouse_released(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool is not None:
            self.tool.mouse_double_clicked(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def keyPressEvent(self, event) -> None:
        if self.tool is not None and self.tool.key_pressed(event.key(), event.modifiers()):
            event.accept()
        else:
            event.ignore()
