"""View > Play Paths: every moving object runs along its path while editing, as it will in the game.

The objects are only shown moving (their items are drawn where their path puts them at the time shown); the
document is never changed, and they are shown back in place when the toggle is turned off or a play-test starts.
"""
from __future__ import annotations

import time
from typing import Callable, Optional

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction

from level_editor.core.level.model import moving_path
from level_editor.editor.items.object_item import show_offset
from level_editor.editor.support.guard import guarded
from level_editor.editor.support.subscriptions import subscribe_while_alive

__all__ = ["PlayPaths"]

#: Frames per second of the animation.
FRAME_MS = 33


class PlayPaths(QObject):
    """The Play Paths toggle and the animation it runs; ``clock()`` is the time in seconds."""

    def __init__(self, scene, document, clock: Callable[[], float] = time.monotonic,
                 parent: Optional[QObject] = None):
        super().__init__(parent)
        self.scene = scene
        self.document = document
        self.clock = clock
        self.action = QAction("Play &Paths", self)
        self.action.setCheckable(True)
        self.action.setStatusTip("Run every moving object along its path while editing")
        self.action.toggled.connect(self._toggled)
        self._started = 0.0
        self._moving: list = []  # (item, path)
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self.frame)
        subscribe_while_alive(document, self, self._on_document_changed)

    @property
    def playing(self) -> bool:
        return self.action.isChecked()

    def _toggled(self, on: bool) -> None:
        if on:
            self._started = self.clock()
            self._collect()
            self._timer.start()
            self.frame()
        else:
            self._timer.stop()
            self._put_back()

    def _collect(self) -> None:
        self._moving = []
        for obj in self.document.objects:
            path = moving_path(obj)
            item = self.scene.item(obj.id) if path is not None else None
            if item is not None:
                self._moving.append((item, path))

    def _put_back(self) -> None:
        for item, _path in self._moving:
            show_offset([item], 0.0, 0.0)
        self._moving = []

    def _on_document_changed(self, _change) -> None:
        if self.playing:
            self._put_back()
            self._collect()
            self.frame()

    @guarded("playing the paths")
    def frame(self) -> None:
        """Show every moving object where its path has it now."""
        seconds = self.clock() - self._started
        for item, path in self._moving:
            o = path.offset_at(path.speed * seconds)
            show_offset([item], o.x, o.y)

    def stop(self) -> None:
        """Turn the toggle off (a play-test starts: it draws the objects itself)."""
        self.action.setChecked(False)
