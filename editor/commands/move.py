"""MoveObjectsCommand: many objects (and the spawn) moved by one offset, in one undo step.

A drag of many objects changes the level once, on release (the select tool
shows the drag on the canvas until then); the arrow keys nudge with it too.
Undo and redo put back the very objects they took out: nothing is built again.
The document's change says it is a pure move and by how much
(:attr:`~level_editor.core.level.document.Change.moved_by`), so what shows the
objects only moves them.
"""
from __future__ import annotations

import gc
from operator import attrgetter
from typing import Optional, Sequence

from level_editor.core.level import model
from level_editor.core.level.collector import paused_collector
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import LevelObject, Player
from level_editor.editor.commands.objects import ChangeObjectsCommand
from level_editor.editor.work.bulk import settle

#: A move that makes at least this many new objects (objects and their nodes) sets them aside from the cycle
#: collector (level_editor.editor.work.bulk.settle): its next pass would walk them all, ~80 ms for 100,000
#: objects and ~25 ms for a 300,000-node wall, and they hold no cycles (they go with their undo step, by
#: reference counting).
SETTLE_AT = 50_000

_ID = attrgetter("id")


def moved_objects(objects: Sequence[LevelObject], dx: float, dy: float) -> list[LevelObject]:
    """``[o.moved(dx, dy) for o in objects]`` (:func:`level_editor.core.level.model.moved_objects`), set aside
    from the collector when they are many.

    >>> from level_editor.core.level.model import Box
    >>> moved_objects([Box("b", (1, 2), (3, 4))], 10, 20) == [Box("b", (11, 22), (3, 4))]
    True
    """
    with paused_collector():
        moved = model.moved_objects(objects, dx, dy)
        # what the collector's youngest generation has gained meanwhile: the new objects and nodes
        if gc.get_count()[0] >= SETTLE_AT:
            settle()
    return moved


class MoveObjectsCommand(ChangeObjectsCommand):
    """Move ``objects`` (as they are in ``document`` now) and ``player`` (when given) by ``(dx, dy)``.

    An offset of zero changes nothing: the command is then obsolete and the
    editor drops it instead of pushing it.
    """

    def __init__(self, document: LevelDocument, objects: Sequence[LevelObject], dx: float, dy: float, text: str,
                 player: Optional[Player] = None):
        self.offset = (dx, dy)
        moved = moved_objects(objects, dx, dy)
        players = (player, player.moved(dx, dy)) if player is not None else None
        super().__init__(document, objects, moved, text, player=players)

    def _changes_nothing(self) -> bool:
        # comparing 100,000 objects with their moved copies would cost what moving them did
        return self.offset == (0.0, 0.0) or (not self._old and self._player is None)

    # the document's change says it is a pure move: its listeners skip looking for anything else
    def redo(self):
        with paused_collector():
            self._doc.replace_objects(list(map(_ID, self._old)), self._new, moved_by=self.offset)
            if self._player is not None:
                self._doc.set_player(self._player[1])

    def undo(self):
        dx, dy = self.offset
        with paused_collector():
            self._doc.replace_objects(list(map(_ID, self._new)), self._old, moved_by=(-dx, -dy))
            if self._player is not None:
                self._doc.set_player(self._player[0])
