"""LevelItems: one graphics item per level object, each under its layer's item (:mod:`.layer_stack`).

The items are made, found, restacked, moved to other layers and let go here; what a change of the document
does to them is :mod:`.syncing`'s business, and what makes a big level's items ahead of opening it is
:mod:`.slices`'.
"""
from __future__ import annotations

from collections import deque
from typing import Iterator, Optional

from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Point, Sprite, Tiles, Wall
from level_editor.editor.canvas.layer_stack import LayerStack, drawing_order
from level_editor.editor.items.box_item import BoxItem
from level_editor.editor.items.image_item import ImageItem
from level_editor.editor.items.object_item import LookState, ObjectItem
from level_editor.editor.items.oriented_box_item import OrientedBoxItem
from level_editor.editor.items.pillar_item import PillarItem
from level_editor.editor.items.point_item import PointItem
from level_editor.editor.items.sprite_item import SpriteItem
from level_editor.editor.items.tiles_item import TilesItem
from level_editor.editor.items.wall_item import WallItem

ITEM_CLASSES = {Wall: WallItem, Box: BoxItem, OrientedBox: OrientedBoxItem, Pillar: PillarItem, Tiles: TilesItem,
                Point: PointItem, Image: ImageItem, Sprite: SpriteItem}

_SET_PARENT = QGraphicsItem.setParentItem


def item_for(obj, looks: Optional[LookState] = None) -> ObjectItem:
    """A new graphics item showing ``obj`` (``looks``: the scene's shared selection and hover)."""
    return ITEM_CLASSES[type(obj)](obj, looks)


def new_item(obj, index: int, looks: LookState) -> ObjectItem:
    """A new item for ``obj``, the ``index``-th object of the file, as a scene keeps it until a frame shows it:
    stacked at its place in the file, without contents (it draws once a frame shows it)."""
    item = item_for(obj, looks)
    item.setZValue(index)
    item.set_drawing(False)
    return item


def type_colors(level: Level) -> dict[str, str]:
    return {t.name: t.color for t in level.types}


def shown_items(level: Level) -> list[ObjectItem]:
    """New items for ``level``'s shown objects, bottom first, looking as a scene shows them once ``level`` opens.

    What the whole-level picture is painted from in a child process, while the window makes its own items
    (:mod:`level_editor.editor.canvas.picture_ahead`).
    """
    looks = LookState()
    looks.type_colors = type_colors(level)
    objects = level.objects
    return [item_for(objects[i], looks) for i in drawing_order(level)]


class LevelItems:
    """The items showing a document's objects in ``scene``, by object id, each under its layer's item.

    ``layers`` is the :class:`~.layer_stack.LayerStack` they hang from.
    """

    def __init__(self, scene: QGraphicsScene, looks: LookState):
        self._scene = scene
        self._looks = looks
        self._by_id: dict[str, ObjectItem] = {}
        self.layers = LayerStack(scene)

    # -- reading -------------------------------------------------------------
    def get(self, object_id: str) -> Optional[ObjectItem]:
        return self._by_id.get(object_id)

    def __getitem__(self, object_id: str) -> ObjectItem:
        return self._by_id[object_id]

    def of(self, object_ids) -> list[ObjectItem]:
        """The items of ``object_ids``, in that order (looked up in C: a move of everything asks for 100,000)."""
        return list(map(self._by_id.__getitem__, object_ids))

    def __len__(self) -> int:
        return len(self._by_id)

    def __iter__(self) -> Iterator[ObjectItem]:
        return iter(self._by_id.values())

    def pickable(self, item: ObjectItem) -> bool:
        """Whether a click or a rubber band may take ``item``: shown, and not on a locked layer."""
        return item.isVisible() and item.value.layer not in self.layers.locked

    # -- changing --------------------------------------------------------------
    def add(self, obj, index: int) -> ObjectItem:
        """A new item for ``obj``, the ``index``-th object of the file, under its layer's item."""
        item = new_item(obj, index, self._looks)
        item.setParentItem(self.layers.parent_for(obj))
        self._by_id[obj.id] = item
        return item

    def adopt(self, by_id: dict) -> None:
        """Keep the items of ``by_id`` (object id -> item), made ahead for the document's objects
        (:mod:`.slices`); they go under their layers' items with :meth:`hang`."""
        self._by_id = by_id

    def hang(self, items: list, objects) -> None:
        """Hang ``items``, made ahead for ``objects`` (one to one), under their layers' items, in Qt's loop."""
        parents = list(map(self.layers.parent_for, objects))
        deque(map(_SET_PARENT, items, parents), maxlen=0)

    def remove(self, object_id: str) -> Optional[ObjectItem]:
        """Take ``object_id``'s item out of the scene and let it go; returns it (None when there is none)."""
        item = self._by_id.pop(object_id, None)
        if item is not None:
            self._scene.removeItem(item)
        return item

    def replace(self, item: ObjectItem, obj, index: int) -> ObjectItem:
        """A new item for ``obj`` in place of ``item`` (an object that became another kind)."""
        self._scene.removeItem(item)
        return self.add(obj, index)

    def rename(self, old_ids, new_ids) -> list[ObjectItem]:
        """File the items of ``old_ids`` under ``new_ids`` (one to one); returns them in that order.

        All are taken out first, so ids that swap do not overwrite each other.
        """
        items = [self._by_id.pop(i) for i in old_ids]
        for item, new_id in zip(items, new_ids):
            self._by_id[new_id] = item
        return items

    def move_to_layer(self, item: ObjectItem, obj, index: int) -> None:
        """``item``'s object ``obj`` is on another layer now: it goes under that layer's item."""
        item.setParentItem(self.layers.parent_for(obj))
        item.setZValue(index)

    def restack(self, objects) -> None:
        """Stack the items as ``objects`` (the file's order) say."""
        by_id = self._by_id
        for i, obj in enumerate(objects):
            by_id[obj.id].setZValue(i)

    def let_go(self) -> None:
        """Take every item out of the scene and let them go (another level is shown).

        Each layer's items leave with its layer item, in one pass of Qt's; taken out one by one, each would be
        looked for in its layer's list of children, which for 100,000 objects restacked even once was a pass
        over that list each.
        """
        self._by_id = {}
        self.layers.let_go()
