"""The cycle collector held while a block makes many objects and no cycles: one helper for every caller.

Reading, checking or drawing a big level makes millions of small objects (tuples, floats, shapely
geometries, graphics items) that can hold no reference cycle. Each counts towards the collector's next
pass, which then walks the whole growing heap again and again: a third to a half of a large load or check.
Everyone who makes objects in bulk (the model's long walls, the file format, the checks, the command line,
the editor's items and moves) holds it with :func:`paused_collector`.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["paused_collector"]


@contextmanager
def paused_collector() -> Iterator[None]:
    """Hold the cycle collector while the block runs; nested uses keep it held until the outermost ends.

    It is turned on again only if it was on when the block began, so a caller that keeps it off (a
    short-lived command) finds it off afterwards.

    >>> with paused_collector():
    ...     with paused_collector():
    ...         pass
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
