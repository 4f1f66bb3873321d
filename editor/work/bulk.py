"""Work on many objects at once (open a level, move 100,000 objects) without Python's cycle collector in the way.

Each burst of new objects (items, moved copies of objects) sets off the cycle
collector, which then walks every object alive: at 100,000 level objects that
doubled the time to make them. Within
:func:`~level_editor.core.level.collector.paused_collector` it waits; it runs as
usual afterwards (nothing is lost: it only finds cycles later).

A move of many objects by one offset (a drag, its undo and redo) tells the
document's listeners so while the document announces it (:func:`moving_by`,
:func:`moved_by`): each can then skip looking at every object for what else
changed, which nothing did.

Once a big level is open its objects and items are set aside from the collector's
passes (:func:`settle`), until a small level is shown again (:func:`unsettle`).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator, Optional

from level_editor.core.level.document import Change, ChangeKind

# (the moved objects, dx, dy) while a move of them by one offset is being announced
_move: Optional[tuple] = None
# whether what was alive when a big level opened (or many objects moved) is set aside from the collector
_settled = False


def settle() -> None:
    """Let the cycle collector leave alone what is alive now: call it once a big level's items are made.

    Every full pass of the collector walks every object alive: with 100,000 level objects and their items,
    600,000 of them, a pass held the window for one to two seconds (the first came right after the level
    opened). Those objects live as long as the level is open, and hold no cycles the collector would have
    to find (they go by reference counting), so they are moved out of its way (``gc.freeze``); objects
    made later are collected as usual. (Looking for cycles among them first would be the very pass this
    saves: a cycle made while the level opened stays uncollected, a few bytes at most.)
    """
    global _settled
    gc.freeze()
    _settled = True


def settled() -> bool:
    """Whether a big level's objects are set aside from the collector (:func:`settle`, not undone since)."""
    return _settled


def unsettle() -> None:
    """A small level is shown: the collector looks at everything again (what a big level set aside is gone).

    >>> settle(); settled(), gc.get_freeze_count() > 0
    (True, True)
    >>> unsettle(); settled(), gc.get_freeze_count()
    (False, 0)
    """
    global _settled
    if _settled:
        gc.unfreeze()
        _settled = False


@contextmanager
def moving_by(objects: tuple, dx: float, dy: float) -> Iterator[None]:
    """While the block runs, the document's change that puts ``objects`` in is a pure move by ``(dx, dy)``.

    ``objects`` must be the very tuple handed to ``replace_objects`` (a tuple passes through it as it is),
    and each of them the object it replaces moved by the offset, with its id, kind, shape, type, layer and
    properties as they were (MoveObjectsCommand's promise). Any other change announced meanwhile is not one.
    """
    global _move
    outer, _move = _move, (objects, dx, dy)
    try:
        yield
    finally:
        _move = outer


def moved_by(change: Change) -> Optional[tuple[float, float]]:
    """The offset when ``change`` is a pure move of its objects announced under :func:`moving_by`, else None.

    >>> from level_editor.core.level.model import Box
    >>> old = (Box("b", (1, 2), (3, 4)),)
    >>> new = (Box("b", (11, 22), (3, 4)),)
    >>> change = Change(ChangeKind.CHANGED, new, old)
    >>> moved_by(change) is None
    True
    >>> with moving_by(new, 10, 20):
    ...     moved_by(change), moved_by(Change(ChangeKind.CHANGED, tuple(new), old))
    ((10, 20), (10, 20))
    >>> with moving_by(new, 10, 20):
    ...     moved_by(Change(ChangeKind.CHANGED, (Box("b", (11, 22), (3, 4)),), old)) is None
    True
    """
    move = _move
    if move is None or change.kind is not ChangeKind.CHANGED or change.objects is not move[0]:
        return None
    return move[1], move[2]
