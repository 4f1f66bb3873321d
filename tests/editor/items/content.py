"""A small version-2 level with every kind of object, three layers and three types, for the editor's tests."""
from __future__ import annotations

from PySide6.QtGui import QColor

from level_editor.core.level.model import Box, Layer, Level, ObjectType, OrientedBox, Pillar, Player, Point, Tiles, Wall

ENEMY = "#e0503c"
DOOR = "#3c8ce0"
EXIT = "#40c070"


def content_level() -> Level:
    """Art at the bottom (empty), Walls, Things on top (the current layer); things well apart at 100%."""
    return Level(
        name="Content",
        grid=16,
        player=Player(spawn=(48, 48), radius=12),
        layers=(Layer("art", "Art"), Layer("walls", "Walls"), Layer("things", "Things")),
        types=(ObjectType("enemy", ENEMY), ObjectType("door", DOOR), ObjectType("exit_zone", EXIT)),
        objects=(
            Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8, False, layer="walls"),
            Box("box-1", (240, 80), (64, 32), layer="walls"),
            Box("gate", (340, 80), (32, 64), layer="walls", type="door"),
            Tiles("tiles-1", (0, 400), 16, ("####....", "########"), layer="walls"),
            Pillar("pillar-1", (240, 320), 16, layer="walls"),
            OrientedBox("obox-1", (400, 240), (40, 10), 0, layer="walls"),
            Point("goblin-1", (480, 120), layer="things", type="enemy"),
            Point("lever", (560, 120), layer="things"),
            Box("exit", (560, 300), (48, 48), layer="things", type="exit_zone", solid=False),
        ),
    )


def near(color: QColor, wanted, tolerance: int = 40) -> bool:
    """Whether ``color`` is within ``tolerance`` of ``wanted`` (a QColor or "#rrggbb") on every channel."""
    w = QColor(wanted)
    return all(abs(a - b) <= tolerance for a, b in
               ((color.red(), w.red()), (color.green(), w.green()), (color.blue(), w.blue())))
