"""The canvas survives what a hostile tester throws at it: errors inside tools, far-off objects, absurd grids.

Every case drives the real window with real mouse, wheel and key events and checks that the editor is
still there, the document untouched, and the designer told in words.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Box, Level, Player
from level_editor.editor.support import error_reporter
from level_editor.editor.canvas.canvas import MAX_VIEW_PIXELS
from tests.editor.helpers import hover, key, make_window, move, press, release, sample_level, window  # noqa: F401


class BrokenTool:
    """Stands in for a tool with a bug: every mouse move raises, as the snapper did on a 1e-320 grid."""

    def __init__(self):
        self.cancelled = 0
        self.presses = 0

    def mouse_pressed(self, pos, button, modifiers):
        self.presses += 1

    def mouse_moved(self, pos, buttons, modifiers):
        raise OverflowError("cannot convert float infinity to integer")

    def mouse_released(self, pos, button, modifiers):
        pass

    def mouse_double_clicked(self, pos, button, modifiers):
        pass

    def key_pressed(self, key, modifiers):
        raise ZeroDivisionError("float division by zero")

    def cancel_gesture(self):
        self.cancelled += 1


def wheel(window, steps: int, at: QPoint | None = None) -> None:
    viewport = window.canvas.viewport()
    pos = QPointF(at if at is not None else viewport.rect().center())
    for _ in range(abs(steps)):
        event = QWheelEvent(pos, QPointF(viewport.mapToGlobal(pos.toPoint())), QPoint(),
                            QPoint(0, 120 if steps > 0 else -120), Qt.NoButton, Qt.NoModifier,
                            Qt.NoScrollPhase, False)
        QApplication.sendEvent(viewport, event)


def test_an_error_in_a_tool_abandons_the_gesture_and_says_so(window):
    broken = BrokenTool()
    window.scene.tool = broken
    level = window.document.level
    press(window, 100, 100)
    for x in range(110, 200, 10):
        move(window, x, 100)  # each move raises inside the scene, under the canvas's override
    release(window, 200, 100)
    assert window.isVisible()
    assert broken.presses == 1 and broken.cancelled == 9
    assert window.document.level is level and window.undo_stack.count() == 0
    assert window.statusBar().currentMessage().startswith("Moving the mouse on the canvas failed: "
                                                          "cannot convert float infinity to integer")
    assert window.errors == []  # a mouse move never opens a dialog, however often it fails
    key(window, Qt.Key_X)
    assert "Pressing a key on the canvas failed: float division by zero" in window.statusBar().currentMessage()


def test_a_grid_of_1e_320_does_not_take_the_editor_down(window):
    """The hostile tester's crash: the snapper's round(x / grid) overflowed on the first mouse move."""
    window.document.set_properties(grid=1e-320)
    window.snap_action.setChecked(True)
    for name in ("WallTool", "BoxTool", "SelectTool"):
        window.set_tool(window.tool_named(name))
        hover(window, 100, 100)
        press(window, 100, 100)
        move(window, 140, 130)
        release(window, 140, 130)
        QApplication.processEvents()
    assert window.isVisible()
    window.canvas.viewport().repaint()  # the grid at 1e-320 draws (thinned to visible steps)
    minor, major = window.canvas.grid_steps()
    assert minor * window.canvas.zoom() >= 8 and math.isfinite(major)


def test_far_off_objects_zoom_and_pan_without_overflow(qtbot, tmp_path):
    far = Level(player=Player(spawn=(0, 0)), objects=(Box("far", (1e7 - 64, 1e7 - 64), (64, 64)),))
    window = make_window(qtbot, tmp_path, far)
    caught = []
    error_reporter.install(window)
    window.show_error = lambda *a: caught.append(a)
    wheel(window, 60)  # far past 64x: would put the level beyond 2^31 screen pixels
    canvas = window.canvas
    assert canvas.zoom() <= canvas.max_zoom() + 1e-9
    r = canvas.sceneRect()
    assert max(abs(r.left()), abs(r.right()), abs(r.top()), abs(r.bottom())) * canvas.zoom() <= MAX_VIEW_PIXELS
    canvas.pan_by(1e12, -1e12)  # far past the ends of the scroll bars
    canvas.pan_by(float("nan"), float("inf"))
    h, v = canvas.horizontalScrollBar(), canvas.verticalScrollBar()
    assert h.value() == h.maximum() and v.value() == v.minimum()
    # middle-button panning by huge steps
    press(window, 0, 0, Qt.MiddleButton)
    move(window, 5000, 5000, Qt.MiddleButton)
    release(window, 5000, 5000, Qt.MiddleButton)
    wheel(window, -80)
    assert "failed" not in window.statusBar().currentMessage()
    assert caught == []


def test_a_scene_that_grows_past_the_zoom_limit_zooms_out(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, sample_level())
    window.canvas.set_zoom(64.0)
    assert window.canvas.zoom() == 64.0
    window.document.set_player(window.document.player.moved(5e7, 5e7))  # the scene rect grows with it
    QApplication.processEvents()
    assert window.canvas.zoom() <= window.canvas.max_zoom() < 64.0
