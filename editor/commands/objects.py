"""Undo commands: the only code that changes the document.

Each command changes the core :class:`~level_editor.core.level.document.LevelDocument` and
nothing else; graphics items redraw from the document's change events.

One gesture is one undo step (Tiled's way): a tool pushes a command on every
mouse move with the same ``gesture`` number, and ``mergeWith`` folds each
into the first. A merged command that ends where it started marks itself
obsolete, so a drag that returns to its start leaves no step behind; so
does a command that changes nothing in the first place (a press on a handle,
a drag that snaps back to where it began).
"""
from __future__ import annotations

import itertools
from operator import attrgetter
from typing import Optional, Sequence

from PySide6.QtGui import QUndoCommand

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.kinds import objects_label
from level_editor.core.level.model import LevelObject, Player

_gestures = itertools.count(1)

# the ids of 100,000 objects (a move of everything) in a C loop
_ID = attrgetter("id")

#: Command ids for mergeWith (QUndoCommand.id); -1 never merges.
_CHANGE_OBJECTS_ID = 1001
_CHANGE_PLAYER_ID = 1002


def new_gesture() -> int:
    """A fresh number for one mouse gesture (press to release) or one typed edit."""
    return next(_gestures)


class AddObjectsCommand(QUndoCommand):
    """Add objects on top of the level (drawing, paste, duplicate)."""

    def __init__(self, document: LevelDocument, objects: Sequence[LevelObject], text: Optional[str] = None):
        super().__init__(text or objects_label("Add", objects))
        self._doc = document
        self._objects = tuple(objects)
        self._placed: list = []

    def redo(self):
        if self._placed:
            self._doc.insert_objects(self._placed)
        else:
            self._placed = self._doc.append_objects(self._objects)

    def undo(self):
        self._doc.remove_objects([obj.id for _, obj in self._placed])


class RemoveObjectsCommand(QUndoCommand):
    """Delete objects; undo puts each back at its place in the drawing order."""

    def __init__(self, document: LevelDocument, ids: Sequence[str], text: Optional[str] = None):
        objects = [document.get(i) for i in ids]
        super().__init__(text or objects_label("Delete", objects))
        self._doc = document
        self._ids = tuple(ids)
        self._removed: list = []

    def redo(self):
        self._removed = self._doc.remove_objects(self._ids)

    def undo(self):
        self._doc.insert_objects(self._removed)


class ChangeObjectsCommand(QUndoCommand):
    """Replace objects with edited versions (move, resize, rotate, node edits, inspector edits).

    Commands with the same ``gesture`` over the same objects merge into one step.
    """

    def __init__(
        self,
        document: LevelDocument,
        old: Sequence[LevelObject],
        new: Sequence[LevelObject],
        text: str,
        gesture: Optional[int] = None,
        player: Optional[tuple[Player, Player]] = None,
    ):
        super().__init__(text)
        if len(old) != len(new):
            raise ValueError("ChangeObjectsCommand needs one new object per old one")
        self._doc = document
        self._old = tuple(old)
        self._new = tuple(new)
        self._gesture = gesture
        # (old, new) player when the spawn moves along with the objects (a drag of a mixed selection)
        self._player = player
        self.setObsolete(self._changes_nothing())

    def _changes_nothing(self) -> bool:
        return self._new == self._old and (self._player is None or self._player[0] == self._player[1])

    def id(self) -> int:
        return _CHANGE_OBJECTS_ID if self._gesture is not None else -1

    def redo(self):
        self._doc.replace_objects(list(map(_ID, self._old)), self._new)
        if self._player is not None:
            self._doc.set_player(self._player[1])

    def undo(self):
        self._doc.replace_objects(list(map(_ID, self._new)), self._old)
        if self._player is not None:
            self._doc.set_player(self._player[0])

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ChangeObjectsCommand) or other._gesture != self._gesture:
            return False
        if [o.id for o in other._old] != [n.id for n in self._new]:
            return False
        if (self._player is None) != (other._player is None):
            return False
        self._new = other._new
        if self._player is not None:
            self._player = (self._player[0], other._player[1])
        self.setText(other.text())
        self.setObsolete(self._changes_nothing())
        return True


class ChangePlayerCommand(QUndoCommand):
    """Change the player (spawn, shape, size, speed); merges within a gesture like object edits."""

    def __init__(self, document: LevelDocument, old: Player, new: Player, text: str,
                 gesture: Optional[int] = None):
        super().__init__(text)
        self._doc = document
        self._old = old
        self._new = new
        self._gesture = gesture
        self.setObsolete(new == old)

    def id(self) -> int:
        return _CHANGE_PLAYER_ID if self._gesture is not None else -1

    def redo(self):
        self._doc.set_player(self._new)

    def undo(self):
        self._doc.set_player(self._old)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ChangePlayerCommand) or other._gesture != self._gesture:
            return False
        self._new = other._new
        self.setObsolete(self._new == self._old)
        return True


class ChangeLevelPropertiesCommand(QUndoCommand):
    """Change level-wide values (name, grid size)."""

    def __init__(self, document: LevelDocument, text: str, **changes):
        super().__init__(text)
        self._doc = document
        self._new = dict(changes)
        self._old = {k: getattr(document.level, k) for k in changes}

    def redo(self):
        self._doc.set_properties(**self._new)

    def undo(self):
        self._doc.set_properties(**self._old)
