"""PlayCamera: keeps the play-test's player in view, gliding after it."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsView

#: How quickly the camera catches up (1/s): after 1/RATE seconds it has covered 63% of the gap.
RATE = 6.0


class PlayCamera:
    """Centres a view on a moving point with exponential smoothing.

    ``center += (target - center) * (1 - exp(-RATE * seconds))`` is the same
    glide at any frame rate. The view's scene rectangle is widened around the
    target, so the camera can follow a player that walks out of the level.
    """

    def __init__(self, view: QGraphicsView, rate: float = RATE):
        self.view = view
        self.rate = rate
        self.center = view.mapToScene(view.viewport().rect().center())

    def jump_to(self, target: QPointF) -> None:
        self.center = QPointF(target)
        self._apply()

    def follow(self, target: QPointF, seconds: float) -> None:
        k = 1.0 - math.exp(-self.rate * max(seconds, 0.0))
        self.center = self.center + (QPointF(target) - self.center) * k
        self._apply()

    def _apply(self) -> None:
        view = self.view
        vp = view.viewport().rect()
        zoom = view.transform().m11() or 1.0
        half_w, half_h = vp.width() / zoom, vp.height() / zoom
        room = QRectF(self.center.x() - half_w, self.center.y() - half_h, 2 * half_w, 2 * half_h)
        rect = view.sceneRect()
        if not rect.contains(room):
            view.setSceneRect(rect.united(room.adjusted(-half_w, -half_h, half_w, half_h)))
        view.centerOn(self.center)
