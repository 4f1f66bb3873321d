"""PlayCamera: keeps the view the designer was editing while the player is in it, and follows it out."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsView

#: How quickly the camera catches up (1/s): after 1/RATE seconds it has covered 63% of the gap.
RATE = 6.0

#: The share of the view's width and height, on each side, that counts as its edge: a player there (or
#: beyond) is followed, a player inside stays where it is on screen while the view stays still.
MARGIN = 0.15


class PlayCamera:
    """Keeps the editing view still while the player is well inside it, and glides after a player leaving it.

    The view does not move while the player is inside the view less its
    edges (:data:`MARGIN` of the width and height on each side), so F5 plays
    in the picture the designer was looking at. Once the player is on an edge
    or beyond, the camera glides, ``center += gap * (1 - exp(-RATE *
    seconds))``, the same at any frame rate, towards the place that brings the
    player back just inside the edges, never further: the view follows a
    player that walks out, and stops with it. The view's scene rectangle is
    widened as needed, so the camera can follow a player out of the level.
    """

    def __init__(self, view: QGraphicsView, rate: float = RATE, margin: float = MARGIN):
        self.view = view
        self.rate = rate
        self.margin = margin
        self.center = view.mapToScene(view.viewport().rect().center())

    def jump_to(self, target: QPointF) -> None:
        self.center = QPointF(target)
        self._apply()

    def inner_rect(self) -> QRectF:
        """The part of the level, in scene units, where the player is left alone: the view less its edges."""
        half_w, half_h = self._half_size()
        keep_w, keep_h = half_w * (1.0 - 2.0 * self.margin), half_h * (1.0 - 2.0 * self.margin)
        return QRectF(self.center.x() - keep_w, self.center.y() - keep_h, 2 * keep_w, 2 * keep_h)

    def follow(self, target: QPointF, seconds: float) -> None:
        """Glide towards keeping ``target`` inside :meth:`inner_rect`; no move while it is there."""
        inner = self.inner_rect()
        x, y = target.x(), target.y()
        dx = x - inner.right() if x > inner.right() else x - inner.left() if x < inner.left() else 0.0
        dy = y - inner.bottom() if y > inner.bottom() else y - inner.top() if y < inner.top() else 0.0
        if dx == 0.0 and dy == 0.0:
            return
        k = 1.0 - math.exp(-self.rate * max(seconds, 0.0))
        self.center = self.center + QPointF(dx, dy) * k
        self._apply()

    def _half_size(self) -> tuple[float, float]:
        vp = self.view.viewport().rect()
        zoom = self.view.transform().m11() or 1.0
        return vp.width() / zoom / 2.0, vp.height() / zoom / 2.0

    def _apply(self) -> None:
        view = self.view
        half_w, half_h = self._half_size()
        room = QRectF(self.center.x() - 2 * half_w, self.center.y() - 2 * half_h, 4 * half_w, 4 * half_h)
        rect = view.sceneRect()
        if not rect.contains(room):
            view.setSceneRect(rect.united(room.adjusted(-2 * half_w, -2 * half_h, 2 * half_w, 2 * half_h)))
        view.centerOn(self.center)
