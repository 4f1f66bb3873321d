"""Which objects are selected: view state, not document state (selecting is not an undo step)."""
from __future__ import annotations

from typing import Iterable

from PySide6.QtCore import QObject, Signal

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.editor.support.subscriptions import subscribe_while_alive


def whole_level(document: LevelDocument, ids) -> bool:
    """Whether ``ids`` are every object of ``document`` in drawing order (what Select All selects).

    The objects they name are then the level's own, in its order: a panel showing 100,000 of them reads
    them from the level instead of looking each one up.
    """
    objects = document.objects
    return len(ids) == len(objects) and list(ids) == [o.id for o in objects]


class Selection(QObject):
    """The selected object ids, in the order they were selected.

    The player's spawn can be selected too, under the id ``"player"``.
    Objects that leave the document leave the selection with them.

    Objects on a hidden or a locked layer cannot be selected (as on Tiled's
    canvas), and leave the selection when their layer is hidden or locked: then
    no tool, key or menu can move, reshape or delete what the designer has put
    out of reach, and every tool need not check for itself. The Objects list is
    the exception, as in Tiled: ``set(ids, include_locked=True)`` selects objects
    on locked layers too (locking blocks picking on the canvas, not the list),
    and they stay selected until the next selection made without it.
    """

    PLAYER = "player"

    changed = Signal()

    def __init__(self, document: LevelDocument, parent=None):
        super().__init__(parent)
        self._doc = document
        self._ids: dict[str, None] = {}
        self._include_locked = False
        subscribe_while_alive(document, self, self._on_document_changed)

    def ids(self) -> list[str]:
        return list(self._ids)

    def objects(self) -> list:
        """The selected level objects (without the player), in selection order."""
        return [o for o in (self._doc.get(i) for i in self._ids) if o is not None]

    def movable_ids(self) -> list[str]:
        """The selected ids the canvas may move, flip, turn or reorder: all but objects on locked layers.

        Objects on a locked layer can be selected from the Objects list (to read or type their properties, as
        in Tiled), but the lock keeps the canvas's gestures and keys from changing them.
        """
        locked = {layer.id for layer in self._doc.level.layers if layer.locked}
        if not locked:
            return list(self._ids)
        get = self._doc.get
        return [i for i in self._ids if (o := get(i)) is None or o.layer not in locked]

    def __contains__(self, object_id: str) -> bool:
        return object_id in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def __bool__(self) -> bool:
        return bool(self._ids)

    def set(self, ids: Iterable[str], include_locked: bool = False) -> None:
        self._include_locked = include_locked
        self._keep(ids)

    def _keep(self, ids: Iterable[str]) -> None:
        new = dict.fromkeys(ids)
        out_of_reach = self._out_of_reach_layers()
        if out_of_reach:
            get = self._doc.get
            new = {i: None for i in new if (o := get(i)) is None or o.layer not in out_of_reach}
        # the order counts (selection order); unequal sizes tell at once (select all, clear)
        if len(new) != len(self._ids) or list(new) != list(self._ids):
            self._ids = new
            self.changed.emit()

    def add(self, ids: Iterable[str]) -> None:
        self.set(list(self._ids) + [i for i in ids if i not in self._ids])

    def toggle(self, ids: Iterable[str]) -> None:
        current = dict(self._ids)
        for i in ids:
            if i in current:
                del current[i]
            else:
                current[i] = None
        self.set(current)

    def clear(self) -> None:
        self.set(())

    def _out_of_reach_layers(self) -> set[str]:
        """The ids of the hidden and the locked layers (only the hidden ones for a selection made in the list)."""
        locked_too = not self._include_locked
        return {layer.id for layer in self._doc.level.layers if (locked_too and layer.locked) or not layer.visible}

    def _on_document_changed(self, change: Change) -> None:
        if change.kind is ChangeKind.RESET:
            self.clear()
        elif change.kind is ChangeKind.REMOVED:
            gone = {o.id for o in change.objects}
            if gone & self._ids.keys():
                self._keep(i for i in self._ids if i not in gone)
        elif change.kind is ChangeKind.CHANGED:
            if change.moved_by is not None:
                return  # a move keeps every id and layer
            renamed = {o.id: n.id for o, n in zip(change.old, change.objects) if o.id != n.id}
            if renamed and renamed.keys() & self._ids.keys():
                self._keep(renamed.get(i, i) for i in self._ids)
            elif self._ids and self._out_of_reach_layers() and \
                    any(o.layer != n.layer for o, n in zip(change.old, change.objects)):
                # moved to a hidden or locked layer: out of reach now
                self._keep(self._ids)
        elif change.kind is ChangeKind.LAYERS and self._ids:
            self._keep(self._ids)
