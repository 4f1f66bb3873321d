"""LayerStack: one parent item per layer, stacked in the layers' order (Tiled's ``MapItem`` and its
``ObjectGroupItem``\\ s).

A layer's objects' items are children of its :class:`~level_editor.editor.items.layer_item.LayerItem`, and
stack inside it in file order (an item's z value is its object's place in the file). The layer items' z values
are the layers' places, bottom first: moving a layer restacks one item, and hiding a layer hides one item, and
with it every object on it.

A layer's reference pictures draw under its other objects (traced over, they stay under what is drawn on
them) and over the layers below, as ``render`` draws them (:meth:`Level.drawing_order`): they have a layer item
of their own, made when the layer first has one, stacked just under the layer's objects item.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from level_editor.core.level.model import Image, Layer, Level
from level_editor.editor.items.layer_item import LayerItem


def holds_pictures(obj) -> bool:
    """Whether ``obj`` goes under its layer's pictures item (a reference picture) rather than its objects item."""
    return obj.__class__ is Image


def drawing_order(level: Level) -> list[int]:
    """The places in the file of ``level``'s shown objects, bottom first, as a scene stacks them: by layer (bottom
    first), on each its pictures and then its other objects, each in file order.

    >>> from level_editor.core.level.model import Box, Image, Layer
    >>> level = Level(layers=(Layer("low", "Low"), Layer("high", "High")), objects=(
    ...     Box("a", (0, 0), (1, 1), layer="high"), Image("pic", "p.png", (0, 0), layer="high"),
    ...     Box("b", (0, 0), (1, 1), layer="low")))
    >>> [level.objects[i].id for i in drawing_order(level)]
    ['b', 'pic', 'a']
    """
    rank = {layer.id: i for i, layer in enumerate(level.layers)}
    hidden = {layer.id for layer in level.layers if not layer.visible}
    top = len(rank)
    placed = sorted((rank.get(obj.layer, top), not holds_pictures(obj), i)
                    for i, obj in enumerate(level.objects) if obj.layer not in hidden)
    return [i for _, _, i in placed]


class LayerStack:
    """The layer items of ``scene``, one per layer (and one for each layer's pictures), as the layers say.

    ``hidden`` and ``locked`` hold the ids of the hidden and the locked layers as last read (:meth:`follow`).
    """

    def __init__(self, scene: QGraphicsScene):
        self._scene = scene
        # (layer id, pictures) -> its layer item
        self._items: dict[tuple[str, bool], LayerItem] = {}
        self._rank: dict[str, int] = {}
        self._opacity: dict[str, float] = {}
        self.hidden: set[str] = set()
        self.locked: set[str] = set()

    def parent_for(self, obj) -> LayerItem:
        """The layer item that holds ``obj``'s item (made, in the scene, if its layer had none yet)."""
        key = (obj.layer, holds_pictures(obj))
        item = self._items.get(key)
        if item is None:
            item = self._items[key] = LayerItem(*key)
            self._place(item)
            self._scene.addItem(item)
        return item

    def follow(self, layers: Sequence[Layer]) -> set[str]:
        """Stack, show and hide the layer items as ``layers`` (bottom to top) say.

        Returns the ids of the layers whose objects now show differently: moved, shown or hidden (a lock, a
        new name or a new layer changes nothing on screen). The item of a layer that is gone goes too (its
        objects went first: a document removes a layer's objects before the layer).
        """
        old_rank, old_hidden = self._rank, self.hidden
        self._rank = {layer.id: i for i, layer in enumerate(layers)}
        self._opacity = {layer.id: max(0.0, min(1.0, layer.opacity)) for layer in layers}
        self.hidden = {layer.id for layer in layers if not layer.visible}
        self.locked = {layer.id for layer in layers if layer.locked}
        for key in [key for key in self._items if key[0] not in self._rank]:
            self._scene.removeItem(self._items.pop(key))
        for item in self._items.values():
            self._place(item)
        moved = {lid for lid, r in self._rank.items() if lid in old_rank and old_rank[lid] != r}
        return moved | (self.hidden ^ old_hidden)

    def _place(self, item: LayerItem) -> None:
        count = len(self._rank)
        rank = self._rank.get(item.layer_id, count)  # (an object on a layer not read yet: on top)
        # set only what changes: a lock or a new name touches no item (tests count what a layer change touches)
        z = rank - 0.5 if item.pictures else rank
        if item.zValue() != z:
            item.setZValue(z)
        shown = item.layer_id not in self.hidden
        if item.isVisible() != shown:
            item.setVisible(shown)
        # a layer's opacity reaches its objects' items as Qt passes an item's opacity on to its children
        opacity = self._opacity.get(item.layer_id, 1.0)
        if item.opacity() != opacity:
            item.setOpacity(opacity)

    def let_go(self) -> None:
        """Take every layer item out of the scene, their object items with them, and let them all go."""
        items, self._items = list(self._items.values()), {}
        for item in items:
            self._scene.removeItem(item)

    def shown_items(self) -> list:
        """The object items on shown layers, bottom first (Qt sorts each layer's children by stacking order)."""
        ordered = sorted((item for item in self._items.values() if item.isVisible()), key=QGraphicsItem.zValue)
        return [child for item in ordered for child in item.childItems()]

    def areas(self, layer_ids: Iterable[str]) -> list[tuple[float, float, float, float]]:
        """The boxes ``(x0, y0, x1, y1)`` around the objects of the layers ``layer_ids``, one per layer item."""
        wanted = set(layer_ids)
        boxes = []
        for (layer_id, _), item in self._items.items():
            if layer_id in wanted:
                r = item.childrenBoundingRect()  # (in C: a layer may hold 100,000 objects)
                if not r.isNull():
                    boxes.append((r.left(), r.top(), r.right(), r.bottom()))
        return boxes
