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


#: The jump button (a platformer also jumps with Up and W).
JUMP_KEYS = {Qt.Key_Space}
_UP_KEYS = {Qt.Key_Up, Qt.Key_W}


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
        #: Keys pressed since the last tick read them: a tap between two ticks still counts for one tick.
        self._tapped: set[int] = set()
        self.steering = False
        self.cursor: Optional[QPointF] = None

    # -- keys -----------------------------------------------------------------------
    @staticmethod
    def is_direction_key(key: int) -> bool:
        """Whether ``key`` is one the play-test takes: a movement key or the jump button."""
        return key in DIRECTION_KEYS or key in JUMP_KEYS

    def key_pressed(self, key: int) -> bool:
        """A key went down; True when it is a movement key or the jump button."""
        if not self.is_direction_key(key):
            return False
        self._held[key] = None
        self._tapped.add(key)
        return True

    def key_released(self, key: int) -> bool:
        """A key came up; True when it is a movement key or the jump button."""
        if not self.is_direction_key(key):
            return False
        self._held.pop(key, None)
        return True

    def jump_held(self, up_jumps: bool = False) -> bool:
        """Whether the jump button is held, or was tapped since the last tick (Space; with ``up_jumps``, a
        platformer's, also Up and W)."""
        return any(k in JUMP_KEYS or (up_jumps and k in _UP_KEYS) for k in (*self._held, *self._tapped))

    def tick_read(self) -> None:
        """A tick has read the input: taps count no more."""
        self._tapped.clear()

    def held_keys(self) -> list[int]:
        return list(self._held)

    def direction(self) -> tuple[int, int]:
        """(right, down), each -1, 0 or 1; opposite keys cancel, two keys for one way count once."""
        right = {DIRECTION_KEYS[k][0] for k in self._held if k in DIRECTION_KEYS} - {0}
        down = {DIRECTION_KEYS[k][1] for k in self._held if k in DIRECTION_KEYS} - {0}
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
        self._tapped.clear()
        self.steering = False
