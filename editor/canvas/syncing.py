"""ItemSync: the items follow the document's changes of objects and layers (Tiled's
``MapItem::documentChanged``), and say what each change did on screen, for the scene to repaint.

A change that says it is a pure move (:attr:`~level_editor.core.level.document.Change.moved_by`) only moves
items: 100,000 objects moved (a drag, its undo, its redo) cost a new position per item and no comparison.
"""
from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple, Optional

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.editor.canvas.boxes import Box
from level_editor.editor.canvas.level_items import LevelItems
from level_editor.editor.items.object_item import LookState, show_moved

#: A change of more objects than this repaints the area around all of them at once.
MANY = 64

#: Objects whose positions moved by offsets this close (level units) moved together.
SAME_MOVE = 1e-6

_ID = attrgetter("id")


class Shown(NamedTuple):
    """What a change did on screen."""

    #: Boxes where objects look different now: where they were and where they are.
    boxes: list = []
    #: Boxes the view must be able to scroll to (None: nothing new to reach).
    reach: Optional[list] = None
    #: Every object changed: the whole-level picture is painted again.
    everything: bool = False
    #: Every object moved by this ``(dx, dy)`` and nothing else changed: the picture moves along, unrepainted.
    moved_by: Optional[tuple[float, float]] = None


class ItemSync:
    """Keeps ``items`` in step with ``document``'s objects and layers; ``looks`` loses a hovered object that goes."""

    def __init__(self, document: LevelDocument, items: LevelItems, looks: LookState):
        self._doc = document
        self._items = items
        self._looks = looks

    def follow(self, change: Change) -> Shown:
        """Bring the items up to date with ``change`` (objects added, removed or changed, or the layers)."""
        kind = change.kind
        if kind is ChangeKind.ADDED:
            return self._added(change.objects)
        if kind is ChangeKind.REMOVED:
            return self._removed(change.objects)
        if kind is ChangeKind.CHANGED:
            return self._moved(change) if change.moved_by is not None else self._changed(change)
        if kind is ChangeKind.LAYERS:
            return self._layers_changed()
        return Shown()

    def _added(self, objects) -> Shown:
        doc, items = self._doc, self._items
        n = len(doc)
        appended = all(doc.index_of(o.id) >= n - len(objects) for o in objects)
        new = [items.add(obj, doc.index_of(obj.id)) for obj in objects]
        if not appended:
            # inserted between others (an undone delete, a paste into the order): every place after them moved
            items.restack(doc.objects)
        boxes = [it.scene_box() for it in new]
        return Shown(boxes, reach=boxes)

    def _removed(self, objects) -> Shown:
        boxes = []
        for obj in objects:
            it = self._items.remove(obj.id)
            if it is not None:
                if obj.id == self._looks.hovered:
                    self._looks.hovered = None
                boxes.append(it.scene_box())
        return Shown(boxes)

    def _changed(self, change: Change) -> Shown:
        """Any change of any number of objects, in one pass: ids follow renames, items move to their new layers."""
        doc, items = self._doc, self._items
        if any(o.id != n.id for o, n in zip(change.old, change.objects)):
            shown = items.rename(list(map(_ID, change.old)), list(map(_ID, change.objects)))
            if self._looks.hovered in set(map(_ID, change.old)):
                self._looks.hovered = None
        else:
            shown = items.of(map(_ID, change.old))
        # every object changed: the area is the whole level, and item by item boxes are not needed
        everything = len(shown) == len(items) and len(shown) > MANY
        before = None if everything else [it.scene_box() for it in shown]
        # whether every item only moved, all by the same offset (dx, dy): then the picture moves along
        dx = dy = None
        same_move = True
        for i, (it, old, new) in enumerate(zip(shown, change.old, change.objects)):
            x0, y0 = it.anchor
            if type(it.value) is type(new):
                if it.sync(new):
                    same_move = False
            else:
                same_move = False
                it = shown[i] = items.replace(it, new, doc.index_of(new.id))
            if old.layer != new.layer:
                same_move = False
                items.move_to_layer(it, new, doc.index_of(new.id))
            if same_move:
                x1, y1 = it.anchor
                if dx is None:
                    dx, dy = x1 - x0, y1 - y0
                elif abs(x1 - x0 - dx) > SAME_MOVE or abs(y1 - y0 - dy) > SAME_MOVE:
                    same_move = False
        if everything and same_move and dx is not None:
            return Shown(moved_by=(dx, dy))
        after = [it.scene_box() for it in shown]
        if everything:
            return Shown(reach=after, everything=True)
        return Shown(before + after, reach=after)

    def _moved(self, change: Change) -> Shown:
        """A pure move of ``change.objects`` by ``change.moved_by``: their items only move."""
        items = self._items
        shown = items.of(map(_ID, change.objects))
        everything = len(shown) == len(items) and len(shown) > MANY
        before = None if everything else [it.scene_box() for it in shown]
        show_moved(shown, change.objects)
        if everything:
            return Shown(moved_by=change.moved_by)
        after = [it.scene_box() for it in shown]
        return Shown(before + after, reach=after)

    def _layers_changed(self) -> Shown:
        """Restack, show and hide the layers' items; only the areas of the layers that moved or were shown or
        hidden change (a lock changes nothing on screen, a rename or a new layer nothing at all)."""
        layers = self._items.layers
        changed = layers.follow(self._doc.level.layers)
        boxes: list[Box] = layers.areas(changed)
        hovered = self._looks.hovered
        obj = self._doc.get(hovered) if hovered is not None else None
        if obj is not None and (obj.layer in layers.locked or obj.layer in layers.hidden):
            # out of reach now: its hover light goes
            self._looks.hovered = None
            it = self._items.get(hovered)
            if it is not None:
                boxes.append(it.scene_box())
        return Shown(boxes)
