"""Opening a big level without freezing the window: its items are made ahead of the reset a slice at a time
(:func:`make_ahead`), and go into the scene a slice at a time (:func:`in_slices`), the window answering in
between.

Made all at once on the reset, 100,000 items froze the window for more than a second.
"""
from __future__ import annotations

import time
from typing import Callable, NamedTuple, Optional

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

from level_editor.core.level.collector import paused_collector
from level_editor.core.level.model import Level
from level_editor.editor.canvas import picture_ahead
from level_editor.editor.canvas.boxes import union
from level_editor.editor.canvas.level_items import new_item, shown_items
from level_editor.editor.items.object_item import LookState
from level_editor.editor.work.bulk import settle

#: Levels with at least this many objects have their items made ahead of opening, a slice at a time.
PREPARE_AT = 5000

#: While items are made ahead, the window answers its events at least this often (seconds).
ANSWER_EVERY = 0.04
#: Items hung in the scene in one C loop while a big level opens (a few milliseconds).
SLICE = 2000


def answer_events() -> None:
    """Let the window repaint and run its timers; the designer's clicks and keys wait until the level is open."""
    QApplication.processEvents(QEventLoop.ExcludeUserInputEvents)


def makes_items_ahead(level: Level) -> bool:
    """Whether :meth:`LevelScene.prepare` makes ``level``'s items before it opens (a big level), rather than the
    reset making them all at once."""
    return len(level.objects) >= PREPARE_AT


class Prepared(NamedTuple):
    """Items made for a level before it is opened (:func:`make_ahead`)."""

    objects: tuple  # the level's objects: the items are for the document reset to these
    items: list  # in file order
    by_id: dict
    level_box: Optional[tuple]  # Level.bounds(), folded on the way
    picture: Optional[picture_ahead.PictureAhead]  # its whole-level picture, painted in a child process
    between: Callable[[], None]  # what lets the window answer between slices


def make_ahead(level: Level, looks: LookState, progress: Optional[Callable[[int, int], None]],
               between: Callable[[], None]) -> Prepared:
    """Make the items of ``level``'s objects (looking with ``looks``) and its bounds, calling ``progress(done,
    total)`` and then ``between()`` at least every :data:`ANSWER_EVERY` seconds; its whole-level picture is
    painted meanwhile in a child process where it can be."""
    objects = level.objects
    items, by_id, boxes = [], {}, []
    keep, measure = items.append, boxes.append
    ahead = picture_ahead.start(level, shown_items)
    clock = time.perf_counter
    last = clock()
    with paused_collector():
        for i, obj in enumerate(objects):
            it = new_item(obj, i, looks)
            keep(it)
            by_id[obj.id] = it
            measure(obj.bounds())
            if clock() - last > ANSWER_EVERY:  # each item: a long wall alone takes milliseconds
                # Level.bounds() so far, folded on the way (over 100,000 boxes at the end it took 0.1 s)
                boxes[:] = [union(boxes)]
                if progress is not None:
                    progress(i, len(objects))
                between()
                last = clock()
        boxes.append(level.player.bounds())
        # before the collector runs again: 100,000 new items would set off a pass over everything alive
        settle()
    return Prepared(objects, items, by_id, union(boxes), ahead, between)


def in_slices(count: int, call: Callable[[int, int], None], between: Optional[Callable[[], None]]) -> None:
    """``call(start, stop)`` over ``range(count)`` a :data:`SLICE` at a time, ``between()`` at least every
    :data:`ANSWER_EVERY` seconds and after the last slice (``between`` None: all in one call)."""
    clock = time.perf_counter
    step = max(1, count) if between is None else SLICE
    last = clock()
    for start in range(0, count, step):
        call(start, min(count, start + step))
        # and after the last slice: what follows (the first frame of a level just opened) is not added to the
        # slices since the last turn of the event loop
        if between is not None and (clock() - last > ANSWER_EVERY or start + step >= count):
            between()
            last = clock()
