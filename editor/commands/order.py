"""The undo command that changes the drawing order of objects (Raise, Lower, to top, to bottom).

The document has no "move" of its own, so the command takes out the objects
whose place changes and puts them back at their new places: one undo step,
and undo puts every object back at exactly the place it had.
"""
from __future__ import annotations

from typing import Sequence

from PySide6.QtGui import QUndoCommand

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import LevelObject


class ReorderObjectsCommand(QUndoCommand):
    """Give the document's objects the order ``new_order`` (the same objects, another order).

    ``chosen`` are the ids the designer raised or lowered: the window selects them
    again after the step is done, undone or redone (taking objects out drops them
    from the selection).
    """

    def __init__(self, document: LevelDocument, new_order: Sequence[LevelObject], text: str,
                 chosen: Sequence[str] = ()):
        super().__init__(text)
        self.chosen = tuple(chosen)
        old_order = document.objects
        if len(new_order) != len(old_order) or {o.id for o in new_order} != {o.id for o in old_order}:
            raise ValueError("a new drawing order must hold the same objects as the level")
        self._doc = document
        # only the objects that change places are taken out and put back (a short list for one raise)
        moved = {n.id for o, n in zip(old_order, new_order) if o.id != n.id}
        self._ids = [o.id for o in old_order if o.id in moved]
        self._old = [(i, o) for i, o in enumerate(old_order) if o.id in moved]
        self._new = [(i, o) for i, o in enumerate(new_order) if o.id in moved]
        self.setObsolete(not moved)

    def redo(self):
        self._move(self._new)

    def undo(self):
        self._move(self._old)

    def _move(self, placed) -> None:
        self._doc.remove_objects(self._ids)
        self._doc.insert_objects(placed)
