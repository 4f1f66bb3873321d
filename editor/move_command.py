"""MoveObjectsCommand: many objects (and the spawn) moved by one offset, in one undo step.

A drag of many objects changes the level once, on release (the select tool
shows the drag on the canvas until then); the arrow keys nudge with it too.
Undo and redo put back the very objects they took out: nothing is built again.
"""
from __future__ import annotations

from typing import Optional, Sequence

from core.level.document import LevelDocument
from core.level.model import LevelObject, Player
from editor.bulk import paused_gc
from editor.commands import ChangeObjectsCommand


class MoveObjectsCommand(ChangeObjectsCommand):
    """Move ``objects`` (as they are in ``document`` now) and ``player`` (when given) by ``(dx, dy)``.

    An offset of zero changes nothing: the command is then obsolete and the
    editor drops it instead of pushing it.
    """

    def __init__(self, document: LevelDocument, objects: Sequence[LevelObject], dx: float, dy: float, text: str,
                 player: Optional[Player] = None):
        self.offset = (dx, dy)
        with paused_gc():
            moved = [o.moved(dx, dy) for o in objects]
        players = (player, player.moved(dx, dy)) if player is not None else None
        super().__init__(document, objects, moved, text, player=players)

    def _changes_nothing(self) -> bool:
        # comparing 100,000 objects with their moved copies would cost what moving them did
        return self.offset == (0.0, 0.0) or (not self._old and self._player is None)

    def redo(self):
        with paused_gc():
            super().redo()

    def undo(self):
        with paused_gc():
            super().undo()
