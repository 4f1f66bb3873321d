"""Play-test fixtures: a shown main window whose play-test runs on test time, driven by real key events.

``play_window`` is a main window with an open field, a tall wall box to the
right of the spawn, and play-tests that advance only through the session's
``advance()``, ``tick()`` and ``frame()`` (``use_timer = False``), so a test
knows exactly how many ticks ran. Keys go to the canvas as the keyboard
sends them (``qtbot.keyPress`` / ``keyRelease``), shortcuts included.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Box, Level, Pillar, Player
from tests.editor.helpers import make_window

DT = 1 / 60
SPAWN = (200.0, 400.0)
SPEED = 240.0
RADIUS = 12.0
WALL_X = 400.0


def field_level(speed: float = SPEED) -> Level:
    """Open ground; a wall (a tall box) whose left face is at x = 400; a pillar far away."""
    return Level(
        name="Field",
        grid=16,
        player=Player(spawn=SPAWN, radius=RADIUS, speed=speed),
        objects=(
            Box("wall", (WALL_X, -400), (32, 1200)),
            Pillar("pillar", (-300, 900), 20),
        ),
    )


def open_window(qtbot, tmp_path, level):
    window = make_window(qtbot, tmp_path, level)
    window.play_mode.use_timer = False
    window.activateWindow()
    qtbot.waitActive(window)
    window.canvas.setFocus()
    QApplication.processEvents()
    return window


@pytest.fixture
def play_window(qtbot, tmp_path):
    return open_window(qtbot, tmp_path, field_level())


def press(qtbot, window, key, modifiers=Qt.NoModifier):
    qtbot.keyPress(window.canvas, key, modifiers)


def release(qtbot, window, key, modifiers=Qt.NoModifier):
    qtbot.keyRelease(window.canvas, key, modifiers)


def tap(qtbot, window, key, modifiers=Qt.NoModifier):
    qtbot.keyClick(window.canvas, key, modifiers)


def play(qtbot, window, modifiers=Qt.NoModifier):
    """Press F5 (Shift+F5 with ``modifiers``) and return the running play-test."""
    tap(qtbot, window, Qt.Key_F5, modifiers)
    assert window.play_mode.is_playing
    return window.play_mode.session
