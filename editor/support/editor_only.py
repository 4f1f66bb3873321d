"""The mark of a scene item that exists only for editing: handles, tool previews, the snap marker, overlays.

Such an item is no part of the level and must not be seen while the level is
played: F5 hides every marked item in the scene and Esc shows again exactly
those it hid (editor/playtest/editor_snapshot.py). Whoever adds an editing aid to
the scene marks it once, where it is made; children of a marked item follow it.

>>> from PySide6.QtWidgets import QGraphicsRectItem
>>> item = QGraphicsRectItem()
>>> is_editor_only(item)
False
>>> mark_editor_only(item) is item, is_editor_only(item)
(True, True)
"""
from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QGraphicsItem

#: The ``QGraphicsItem.data`` key that marks an editing aid (any free key: Qt reserves none).
EDITOR_ONLY = 0x45444954  # "EDIT"

Item = TypeVar("Item", bound=QGraphicsItem)


def mark_editor_only(item: Item) -> Item:
    """Mark ``item`` as an editing aid (hidden while playing) and return it."""
    item.setData(EDITOR_ONLY, True)
    return item


def is_editor_only(item: QGraphicsItem) -> bool:
    """``item`` is marked as an editing aid."""
    return item.data(EDITOR_ONLY) is True
