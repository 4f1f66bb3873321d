"""PlayInput: which movement keys are held and where the mouse steers, during a play-test."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QObject, QPointF, Qt

#: Movement keys and the direction each one pushes: (right, down).
DIRECTION_KEYS = {
    Qt.Key_Left: (-1, 0), Qt.Key_A: (-1, 0),
    Qt.Key_Right: (1, 0), Qt.Key_D: (1, 0),
    Qt.Key_Up: (0, -1), Qt.Key_W: (0, -1),
    Qt.Key_Down: (0, 1), Qt.Key_S: (0, 1),
}


class PlayInput(QObject):
    """The state of the play-test's controls, read once per tick.

    Keys come in as presses and releases (auto-repeat is ignored: a held key is
    held until it is released). The mouse steers while its left button is held;
    its position is kept in viewport pixels because the camera moves under a
    still mouse, so the level point it steers to is worked out each tick.
    """

    def __init__(self, parent: Optional[QObject] = None):
        super().__init__(parent)
        self._held: dict[int, None] = {}
        self.steering = False
        self.cursor: Optional[QPointF] = None

    # -- keys -----------------------------------------------------------------------
    @staticmethod
    def is_direction_key(key: int) -> bool:
        return key in DIRECTION_KEYS

    def key_pressed(self, key: int) -> bool:
        """A key went down; True when it is a movement key."""
        if key not in DIRECTION_KEYS:
            return False
        self._held[key] = None
        return True

    def key_released(self, key: int) -> bool:
        """A key came up; True when it is a movement key."""
        if key not in DIRECTION_KEYS:
            return False
        self._held.pop(key, None)
        return True

    def held_keys(self) -> list[int]:
        return list(self._held)

    def direction(self) -> tuple[int, int]:
        """(right, down), each -1, 0 or 1; opposite keys cancel, two keys for one way count once."""
        right = {DIRECTION_KEYS[k][0] for k in self._held} - {0}
        down = {DIRECTION_KEYS[k][1] for k in self._held} - {0}
        return sum(right), sum(down)

    # -- mouse ----------------------------------------------------------------------
    def mouse_pressed(self, pixel: QPointF) -> None:
        self.steering = True
        self.cursor = QPointF(pixel)

    def mouse_moved(self, pixel: QPointF) -> None:
        self.cursor = QPointF(pixel)

    def mouse_released(self) -> None:
        self.steering = False

    def clear(self) -> None:
        """Let go of everything (focus left the canvas: a key released elsewhere would stick)."""
        self._held.clear()
        self.steering = False
