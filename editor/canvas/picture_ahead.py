"""A big level's whole-level picture, painted in a child process while the window makes the level's items.

Opening 100,000 objects, the window spends about 1.3 s making their items and then 0.7 s painting the
picture of the whole level from them (:class:`~level_editor.editor.canvas.overview.LevelOverview`), a piece at a time
between frames. Both are Python, and Python runs one thread at a time. A child process forked as the items
are begun (:mod:`level_editor.core.work.background_call`) makes items of its own from the same level and paints the same
picture on the other core. The window paints its pieces meanwhile, as always; whichever is done first
gives the picture. If the child's is not wanted any more (the level changed first), it is dropped and its
process ends. Where there is no fork, nothing is painted ahead.

The child only makes items and paints on a picture in memory: nothing that uses Qt's own threads, which a
fork leaves behind (halving a big picture does: it is left to the window). A level with reference pictures
is painted by the window: they are read from the level's folder, which is known only once the level is open.
"""
from __future__ import annotations

import mmap
from typing import Callable, Optional

import numpy as np
from PySide6.QtCore import QRectF

from level_editor.core.level.model import Image, Level
from level_editor.core.work import background_call
from level_editor.core.level.collector import paused_collector
from level_editor.editor.canvas.overview import ALIGN, MAX_SIDE, LevelOverview


#: The most bytes a whole-level picture takes (its sides are at most MAX_SIDE, rounded up to ALIGN).
_MOST_BYTES = (MAX_SIDE + ALIGN) ** 2 * 4


class PictureAhead:
    """A picture being painted in a child process; its pixels come through memory shared with it.

    (Sent back through the answer's pipe, 48 MB took seconds, 64 KB at each look of the window.)
    """

    def __init__(self, level: Level, shown_items: Callable[[Level], list]):
        # anonymous and shared: what the child writes here, the window reads; untouched pages cost nothing
        self._memory = mmap.mmap(-1, _MOST_BYTES)
        memory = self._memory
        # not at the background check's lower priority: the open ends with this picture (or the window's), and
        # the level's check, begun with it, would take half the core
        self._call = background_call.start(lambda stop: paint(level, shown_items, memory), nice=0)

    def done(self) -> bool:
        return self._call.done()

    def result(self) -> tuple:
        """``(geometry, pixels)`` of the picture (:meth:`LevelOverview.paint_elsewhere`); only once done."""
        geometry = self._call.result()
        if geometry is None:
            return None, None
        width, height = geometry[0], geometry[1]
        pixels = np.frombuffer(self._memory, np.uint8, count=width * height * 4).reshape(height, width * 4)
        return geometry, pixels

    def stop(self) -> None:
        self._call.stop()


def start(level: Level, shown_items: Callable[[Level], list]) -> Optional[PictureAhead]:
    """Begin painting ``level``'s picture in a child process; None when it is painted by the window.

    ``shown_items(level)`` makes new items for the level's shown objects, bottom first (as the scene will
    show them: :func:`level_editor.editor.canvas.scene.shown_items`).
    """
    if (not background_call.FORK or len(level.objects) < LevelOverview.min_objects
            or any(type(obj) is Image for obj in level.objects)):
        return None
    return PictureAhead(level, shown_items)


def paint(level: Level, shown_items: Callable[[Level], list], memory) -> Optional[tuple]:
    """In the child process: paint the whole-level picture of ``level`` into ``memory``; returns its geometry."""
    with paused_collector():  # 100,000 new items would set off passes of the collector over all of them
        items = shown_items(level)
        x0, y0, x1, y1 = level.bounds()
        rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        overview = LevelOverview(lambda: rect, lambda area: items, lambda: len(level.objects))
        overview.halves_when_painted = False
        overview.refresh()  # no deadline: the whole picture at once
        if overview.image is None:
            return None  # no picture for this level
        pixels = overview.pixels().reshape(-1)
        np.frombuffer(memory, np.uint8, count=pixels.size)[:] = pixels
        return overview.geometry()


def stop(call: Optional[PictureAhead]) -> None:
    """The picture is not wanted any more: its child process ends now."""
    if call is not None:
        call.stop()
