"""Boxes ``(x0, y0, x1, y1)`` in scene units, as the canvas adds up the areas that changed without a Qt call each."""
from __future__ import annotations

from typing import Iterable, Optional

from PySide6.QtCore import QRectF

Box = tuple[float, float, float, float]


def union(boxes: Iterable[Box]) -> Optional[Box]:
    """The bounding box of ``boxes``, or None when there are none.

    >>> union([(0, 0, 1, 1), (2, -1, 3, 0)])
    (0, -1, 3, 1)
    """
    boxes = list(boxes)
    if not boxes:
        return None
    x0s, y0s, x1s, y1s = zip(*boxes)
    return min(x0s), min(y0s), max(x1s), max(y1s)


def rect_of(box: Box) -> QRectF:
    return QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1])


def shifted(box: Box, dx: float, dy: float) -> Box:
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy
