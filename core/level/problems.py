"""Problems found in a level: what the loader, the validator and the command line report.

A problem names the object it is about (its id, ``"player"`` for the player,
``"-"`` for the level itself), says what is wrong in a designer's words, and
may carry a point on the canvas to show.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from level_editor.core.collision.shapes import Vec2

ERROR = "error"
WARNING = "warning"
INFO = "info"

LEVEL_ID = "-"
PLAYER_ID = "player"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong (or worth knowing) about a level.

    >>> str(Problem("wall-1", "thickness must be greater than 0"))
    'wall-1: thickness must be greater than 0'
    """

    object_id: str
    message: str
    severity: str = ERROR
    location: Optional[Vec2] = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        if self.severity == ERROR:
            return f"{self.object_id}: {self.message}"
        return f"{self.object_id}: {self.severity}: {self.message}"
