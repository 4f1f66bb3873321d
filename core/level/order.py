"""Raising and lowering objects in the drawing order, within their layers.

Objects draw by layer, bottom to top, then in file order (the contract), so an
object's place among the objects of its own layer is its z-order. Raising moves
each chosen object one place up past the next object of its layer that is not
chosen itself (Tiled's Raise Object); raising to the top moves the chosen ones
above all the others of their layer, keeping their own order. Objects of other
layers keep their places in the file.

>>> from level_editor.core.level.model import Point
>>> objs = [Point("a", (0, 0)), Point("b", (0, 0)), Point("c", (0, 0), layer="top"), Point("d", (0, 0))]
>>> [o.id for o in raised(objs, {"a"})]
['b', 'a', 'c', 'd']
>>> [o.id for o in raised(objs, {"a"}, to_end=True)]
['b', 'd', 'c', 'a']
>>> [o.id for o in lowered(objs, {"d"})]
['a', 'd', 'c', 'b']
"""
from __future__ import annotations

from typing import Collection, Sequence

from level_editor.core.level.model import LevelObject

__all__ = ["raised", "lowered"]


def raised(objects: Sequence[LevelObject], ids: Collection[str], to_end: bool = False) -> list[LevelObject]:
    """``objects`` with those in ``ids`` one place higher in their layer (or at its top, ``to_end``)."""
    return _reordered(objects, ids, up=True, to_end=to_end)


def lowered(objects: Sequence[LevelObject], ids: Collection[str], to_end: bool = False) -> list[LevelObject]:
    """``objects`` with those in ``ids`` one place lower in their layer (or at its bottom, ``to_end``)."""
    return _reordered(objects, ids, up=False, to_end=to_end)


def _reordered(objects: Sequence[LevelObject], ids: Collection[str], up: bool, to_end: bool) -> list[LevelObject]:
    wanted = set(ids)
    slots: dict[str, list[int]] = {}  # each layer's places in the file, in order
    for i, obj in enumerate(objects):
        slots.setdefault(obj.layer, []).append(i)
    result = list(objects)
    for places in slots.values():
        layer = [objects[i] for i in places]
        if not any(o.id in wanted for o in layer):
            continue
        for i, obj in zip(places, _reorder_layer(layer, wanted, up, to_end)):
            result[i] = obj
    return result


def _reorder_layer(layer: list, wanted: set, up: bool, to_end: bool) -> list:
    order = layer if up else layer[::-1]  # work as if raising; lowering is raising the reversed list
    if to_end:
        order = [o for o in order if o.id not in wanted] + [o for o in order if o.id in wanted]
    else:
        order = list(order)
        # from the top down, so a run of chosen objects moves up together past one other object
        for i in range(len(order) - 2, -1, -1):
            if order[i].id in wanted and order[i + 1].id not in wanted:
                order[i], order[i + 1] = order[i + 1], order[i]
    return order if up else order[::-1]
