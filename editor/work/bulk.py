"""Work on many objects at once (open a level, move 100,000 objects) without Python's cycle collector in the way.

Each burst of new objects (items, moved copies of objects) sets off the cycle
collector, which then walks every object alive: at 100,000 level objects that
doubled the time to make them. Within
:func:`~level_editor.core.level.collector.paused_collector` it waits; it runs as
usual afterwards (nothing is lost: it only finds cycles later).

Once a big level is open its objects and items are set aside from the collector's
passes (:func:`settle`), until a small level is shown again (:func:`unsettle`).
"""
from __future__ import annotations

import gc

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
