"""Undo and Redo while a tool is in the middle of a gesture act on that gesture, never past it (issue 16, item 1).

Driven through the real window: Ctrl+Z and Ctrl+Shift+Z on the canvas, the Edit menu's action, mouse events.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Point, Tiles, Wall
from level_editor.editor.support.guard import set_error_handler
from tests.editor.helpers import click, hover, key, make_window, move, press, release, undo_texts

CTRL_Z = (Qt.Key_Z, Qt.ControlModifier)
CTRL_SHIFT_Z = (Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)


@pytest.fixture
def window(qtbot, tmp_path):
    level = Level(name="Gestures", grid=16, player=Player(spawn=(48, 48), radius=12),
                  objects=(Box("box-1", (240, 80), (64, 32)),))
    return make_window(qtbot, tmp_path, level)


def walls(window):
    return [o for o in window.document.objects if isinstance(o, Wall)]


def draw_wall(window, *nodes):
    for x, y in nodes:
        click(window, x, y)
    key(window, Qt.Key_Return)


def test_ctrl_z_while_drawing_a_wall_removes_its_last_node_not_the_finished_wall(window):
    key(window, Qt.Key_W)
    draw_wall(window, (32, 160), (160, 160))
    [first] = walls(window)
    tool = window.tool
    click(window, 32, 320)
    click(window, 160, 320)
    assert len(tool.nodes) == 2

    key(window, *CTRL_Z)
    assert walls(window) == [first], "the finished wall stays"
    assert [(p.x(), p.y()) for p in tool.nodes] == [(32, 320)]
    assert "1 left" in window.statusBar().currentMessage()

    key(window, *CTRL_Z)
    assert tool.nodes == [] and walls(window) == [first]
    # the half-drawn wall is gone from the screen too: no preview item is left showing
    assert not any(item.isVisible() for item in tool.preview_items() + tool.node_handles())

    key(window, *CTRL_Z)  # the tool is at rest: now Undo reaches the level
    assert walls(window) == []
    key(window, *CTRL_SHIFT_Z)
    assert walls(window) == [first]


def test_redo_while_drawing_puts_back_the_nodes_undo_took(window):
    key(window, Qt.Key_W)
    tool = window.tool
    for x, y in ((32, 160), (160, 160), (160, 288)):
        click(window, x, y)
    key(window, *CTRL_Z)
    key(window, *CTRL_Z)
    assert [(p.x(), p.y()) for p in tool.nodes] == [(32, 160)]
    key(window, *CTRL_SHIFT_Z)
    key(window, Qt.Key_Y, Qt.ControlModifier)
    assert [(p.x(), p.y()) for p in tool.nodes] == [(32, 160), (160, 160), (160, 288)]
    key(window, *CTRL_SHIFT_Z)  # nothing more to put back: refused, the level's history untouched
    assert len(tool.nodes) == 3 and window.undo_stack.count() == 0
    key(window, Qt.Key_Return)
    assert [(p.x, p.y) for p in walls(window)[0].points] == [(32, 160), (160, 160), (160, 288)]


def test_undo_is_offered_while_drawing_the_first_wall_of_an_empty_history(window):
    assert not window.undo_action.isEnabled()
    key(window, Qt.Key_W)
    click(window, 32, 160)
    assert window.undo_action.isEnabled()
    window.undo_action.trigger()  # the Edit menu's entry and the toolbar button are this action
    assert window.tool.nodes == []
    assert not window.undo_action.isEnabled()


def test_redo_never_reaches_past_a_wall_being_drawn(window):
    key(window, Qt.Key_W)
    draw_wall(window, (32, 160), (160, 160))
    key(window, *CTRL_Z)
    assert walls(window) == [] and window.undo_stack.canRedo()
    click(window, 32, 320)
    key(window, *CTRL_SHIFT_Z)
    assert walls(window) == [], "the undone wall is not redone under the one being drawn"
    assert len(window.tool.nodes) == 1
    assert "first" in window.statusBar().currentMessage()


@pytest.mark.parametrize("tool_key, start, end", [
    (Qt.Key_B, (400, 400), (464, 448)),
    (Qt.Key_O, (400, 400), (464, 448)),
    (Qt.Key_C, (400, 400), (448, 400)),
])
def test_ctrl_z_during_a_drawing_drag_cancels_the_drag_and_nothing_is_added(window, tool_key, start, end):
    key(window, Qt.Key_W)
    draw_wall(window, (32, 160), (160, 160))
    key(window, tool_key)
    hover(window, *start)
    press(window, *start)
    move(window, *end)
    assert window.tool.in_gesture()
    key(window, *CTRL_Z)
    assert not window.tool.in_gesture()
    assert window.tool.preview.shape_item is None or not window.tool.preview.shape_item.isVisible()
    release(window, *end)
    assert undo_texts(window) == ["Add wall"] and window.undo_stack.index() == 1, "the wall stays, nothing added"
    assert len(window.document.objects) == 2


def test_redo_during_a_drag_is_refused(window):
    key(window, Qt.Key_W)
    draw_wall(window, (32, 160), (160, 160))
    key(window, *CTRL_Z)
    key(window, Qt.Key_B)
    hover(window, 400, 400)
    press(window, 400, 400)
    move(window, 464, 448)
    key(window, *CTRL_SHIFT_Z)
    assert walls(window) == [] and window.undo_stack.canRedo()
    release(window, 464, 448)
    assert [o.id for o in window.document.objects] == ["box-1", "box-2"]


def test_ctrl_z_while_moving_the_spawn_puts_it_back(window):
    key(window, Qt.Key_I)
    hover(window, 48, 48)
    press(window, 48, 48)
    move(window, 160, 96)
    assert window.document.player.spawn == Vec2(160, 96)
    key(window, *CTRL_Z)
    assert window.document.player.spawn == Vec2(48, 48)
    move(window, 200, 200)
    release(window, 200, 200)
    assert window.document.player.spawn == Vec2(48, 48)
    assert window.undo_stack.count() == 0 and not window.is_modified()


def test_ctrl_z_with_the_button_down_on_a_marker_places_none(window):
    key(window, Qt.Key_M)
    hover(window, 400, 400)
    press(window, 400, 400)
    key(window, *CTRL_Z)
    release(window, 400, 400)
    assert not any(isinstance(o, Point) for o in window.document.objects)


def test_ctrl_z_during_a_tile_stroke_cancels_the_stroke(window):
    key(window, Qt.Key_T)
    hover(window, 400, 400)
    press(window, 400, 400)
    move(window, 480, 400)
    key(window, *CTRL_Z)
    release(window, 480, 400)
    assert not any(isinstance(o, Tiles) for o in window.document.objects)
    assert window.document.get("box-1") is not None


def test_ctrl_z_while_turning_an_oriented_box_puts_the_angle_back(qtbot, tmp_path):
    level = Level(grid=16, objects=(OrientedBox("obox-1", (400, 240), (40, 10), 0),))
    window = make_window(qtbot, tmp_path, level)
    key(window, Qt.Key_O)
    window.selection.set(["obox-1"])
    h = window.tool.handle_position(window.document.get("obox-1"))
    hover(window, h.x(), h.y())
    press(window, h.x(), h.y())
    move(window, 480, 240)
    assert window.document.get("obox-1").rotation == pytest.approx(90)
    key(window, *CTRL_Z)
    assert window.document.get("obox-1").rotation == 0
    move(window, 400, 320)
    release(window, 400, 320)
    assert window.document.get("obox-1").rotation == 0
    assert window.undo_stack.count() == 0


def test_a_tool_that_fails_mid_gesture_is_cancelled_cleanly_and_says_so(window):
    errors = []
    set_error_handler(lambda where, error, *rest: errors.append((where, str(error))))
    try:
        key(window, Qt.Key_B)
        tool = window.tool

        def broken(start, end, modifiers):
            raise ValueError("no box today")

        tool.make_object = broken
        hover(window, 400, 400)
        press(window, 400, 400)
        move(window, 464, 448)
        release(window, 464, 448)  # raises inside the tool: reported, never out into Qt
        assert errors == [("mouse released (Box tool)", "no box today")]
        assert not tool.in_gesture() and tool.current_hint() == tool.hint
        assert [o.id for o in window.document.objects] == ["box-1"]
        del tool.make_object
        hover(window, 400, 400)
        press(window, 400, 400)
        move(window, 464, 448)
        release(window, 464, 448)
        assert window.document.get("box-2") is not None, "the tool works again after the error"
    finally:
        set_error_handler(None)


def test_pillar_drag_and_box_drag_cancel_leave_no_marker(window):
    window.document  # a pillar drawn after a cancelled one gets the first id
    key(window, Qt.Key_C)
    hover(window, 400, 400)
    press(window, 400, 400)
    move(window, 440, 400)
    key(window, *CTRL_Z)
    release(window, 440, 400)
    assert not any(isinstance(o, Pillar) for o in window.document.objects)
    assert not window.context.snapper.marker_visible()


def test_the_toolbar_button_and_the_edit_menu_entry_go_through_the_gesture_too(window):
    from PySide6.QtTest import QTest

    key(window, Qt.Key_W)
    draw_wall(window, (32, 160), (160, 160))
    [first] = walls(window)
    click(window, 32, 320)
    click(window, 160, 320)
    button = window.main_toolbar.widgetForAction(window.undo_action)
    QTest.mouseClick(button, Qt.LeftButton)
    assert len(window.tool.nodes) == 1 and walls(window) == [first]
    edit_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.undo_action in edit_menu.actions()
    window.undo_action.activate(window.undo_action.ActionEvent.Trigger)  # as the menu entry does
    assert window.tool.nodes == [] and walls(window) == [first]
