"""A moving object's path points on the canvas, with the select tool: drag one, double-click the path to add one,
click one and press Delete to remove it; one undo step each."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import Box, Level, Player
from level_editor.core.level.motion import MovePath
from tests.editor.helpers import at, click, drag, make_window, undo_texts


def lift_window(qtbot, tmp_path):
    lift = Box("lift", (200, 300), (96, 16), path=MovePath(((0, 0), (0, -160)), 60))
    level = Level(name="Lift", grid=16, player=Player(spawn=(48, 48), radius=12), objects=(lift,))
    return make_window(qtbot, tmp_path, level)


def handles(window):
    return {h.role: (h.pos().x(), h.pos().y()) for h in window.tool.handles if h.role.startswith("path:")}


def test_the_selected_object_shows_a_handle_on_each_path_point(qtbot, tmp_path):
    w = lift_window(qtbot, tmp_path)
    click(w, 220, 305)
    assert handles(w) == {"path:0": (248.0, 308.0), "path:1": (248.0, 148.0)}  # from the lift's middle


def test_dragging_a_point_is_one_undo_step(qtbot, tmp_path):
    w = lift_window(qtbot, tmp_path)
    click(w, 220, 305)
    drag(w, (248, 148), (306, 99))
    assert w.document.get("lift").path.points[1] == Vec2(304 - 248, 96 - 308)  # dropped on the 16 px grid
    assert undo_texts(w) == ["Move path point of lift"]
    w.canvas.setFocus()
    QTest.keyClick(w.canvas, Qt.Key_Z, Qt.ControlModifier)
    assert w.document.get("lift").path.points[1] == Vec2(0, -160)


def test_a_double_click_on_the_path_adds_a_point_and_delete_removes_a_clicked_one(qtbot, tmp_path):
    w = lift_window(qtbot, tmp_path)
    click(w, 220, 305)
    QTest.mouseDClick(w.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, 248, 228))
    assert w.document.get("lift").path.points == (Vec2(0, 0), Vec2(0, -80), Vec2(0, -160))
    click(w, 248, 148)  # the last point's handle
    w.canvas.setFocus()
    QTest.keyClick(w.canvas, Qt.Key_Delete)
    assert w.document.get("lift").path.points == (Vec2(0, 0), Vec2(0, -80))
    assert w.document.get("lift") is not None  # Delete took the point, not the lift
    assert undo_texts(w) == ["Add path point to lift", "Remove path point of lift"]


def test_a_path_keeps_at_least_two_points(qtbot, tmp_path):
    w = lift_window(qtbot, tmp_path)
    click(w, 220, 305)
    click(w, 248, 148)
    w.canvas.setFocus()
    QTest.keyClick(w.canvas, Qt.Key_Delete)
    assert len(w.document.get("lift").path.points) == 2 and w.document.get("lift") is not None
    assert "at least 2 points" in w.statusBar().currentMessage()
