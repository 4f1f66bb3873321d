"""The oriented box tool: draw it, then turn it with its rotation handle."""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt

from level_editor.core.level.model import OrientedBox
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.oriented_box_tool import OrientedBoxTool
from tests.editor.tools.conftest import key, use_tool


def make(editor):
    return use_tool(editor, OrientedBoxTool)


def at_angle(center, radius, degrees):
    r = math.radians(degrees)
    return (center[0] + radius * math.cos(r), center[1] + radius * math.sin(r))


def test_drag_draws_an_axis_aligned_oriented_box_and_selects_it(editor):
    tool, mouse = make(editor)
    mouse.drag((97, 63), (31, 33))
    [box] = editor.document.objects
    assert isinstance(box, OrientedBox)
    assert box.id == "obox-1"
    assert tuple(box.center) == (64, 48)
    assert tuple(box.half_extents) == (32, 16)
    assert box.rotation == 0
    assert editor.selection.ids() == ["obox-1"]
    assert editor.undo_stack.undoText() == "Add oriented box"
    assert tool.handle_visible("obox-1")
    h = tool.handle_position(box)
    assert (h.x(), h.y()) == (64, 48 - 16 - 28)


def test_zero_size_drag_makes_nothing(editor):
    tool, mouse = make(editor)
    mouse.drag((0, 0), (64, 2))
    assert editor.document.objects == ()


def drag_handle_to(tool, mouse, box, degrees, modifiers=Qt.NoModifier):
    """Grab the rotation handle and swing it on by ``degrees`` about the box's centre."""
    h = tool.handle_position(box)
    mouse.press(h.x(), h.y())
    c = (box.center.x, box.center.y)
    steps = 6
    for i in range(1, steps + 1):
        x, y = at_angle(c, 60, -90 + box.rotation + degrees * i / steps)
        mouse.move(x, y, modifiers)
    mouse.release(x, y, modifiers)


def test_the_rotation_handle_turns_the_box_about_its_centre_in_one_step(editor):
    tool, mouse = make(editor)
    mouse.drag((32, 32), (96, 64))
    box = editor.document.objects[0]
    drag_handle_to(tool, mouse, box, 37)
    turned = editor.document.get("obox-1")
    assert turned.rotation == pytest.approx(37)
    assert turned.center == box.center and turned.half_extents == box.half_extents
    assert editor.undo_stack.count() == 2
    assert editor.undo_stack.undoText() == "Rotate oriented box"
    # The handle turned with the box.
    h = tool.handle_position(turned)
    expected = at_angle((64, 48), 16 + 28, -90 + 37)
    assert (h.x(), h.y()) == pytest.approx(expected)
    before_turn = editor.document.level
    editor.undo_stack.undo()
    assert editor.document.get("obox-1").rotation == 0
    editor.undo_stack.redo()
    assert editor.document.level == before_turn


def test_shift_turns_in_15_degree_steps(editor):
    tool, mouse = make(editor)
    mouse.drag((32, 32), (96, 64))
    box = editor.document.objects[0]
    drag_handle_to(tool, mouse, box, 37, Qt.ShiftModifier)
    assert editor.document.get("obox-1").rotation == 30
    box = editor.document.get("obox-1")
    drag_handle_to(tool, mouse, box, 53, Qt.ShiftModifier)
    assert editor.document.get("obox-1").rotation == 90  # 30 + 53 = 83, to the nearest 15
    assert not tool.preview.label_item.isVisible()  # the angle shows only while turning


def test_turning_past_half_a_turn_stays_within_180(editor):
    box = OrientedBox("obox-1", (0, 0), (20, 10), 170)
    editor.push(AddObjectsCommand(editor.document, [box]))
    editor.selection.set(["obox-1"])
    tool, mouse = make(editor)
    drag_handle_to(tool, mouse, box, 30)
    assert editor.document.get("obox-1").rotation == pytest.approx(-160)


def test_escape_during_a_turn_puts_the_box_back(editor):
    tool, mouse = make(editor)
    mouse.drag((32, 32), (96, 64))
    box = editor.document.objects[0]
    h = tool.handle_position(box)
    mouse.press(h.x(), h.y())
    mouse.move(*at_angle((64, 48), 60, 0))
    assert editor.document.get("obox-1").rotation == pytest.approx(90)
    assert tool.preview.label_item.text() == "90°" and tool.preview.label_item.isVisible()
    assert key(tool, Qt.Key_Escape) is True
    assert editor.document.get("obox-1").rotation == 0
    assert editor.undo_stack.count() == 1  # the turn left no step behind


def test_no_handle_without_a_selected_oriented_box(editor):
    tool, mouse = make(editor)
    mouse.drag((32, 32), (96, 64))
    editor.selection.clear()
    assert not tool.handle_visible("obox-1")
    # A press where the handle was draws a new box instead.
    mouse.drag((64, 4), (128, 20))
    assert len(editor.document.objects) == 2


def test_handle_hides_when_the_tool_is_left(editor):
    tool, mouse = make(editor)
    mouse.drag((32, 32), (96, 64))
    tool.deactivate()
    assert not tool.handle_visible("obox-1")


def test_undo_in_the_middle_of_a_turn_ends_the_turn_and_keeps_the_redo(editor):
    """Ctrl+Z mid-turn undoes the turn so far; moving on must not start a new step over the redo."""
    tool, mouse = make(editor)
    mouse.drag((32, 32), (96, 64))
    box = editor.document.objects[0]
    h = tool.handle_position(box)
    mouse.press(h.x(), h.y())
    c = (box.center.x, box.center.y)
    for degrees in (10, 20, 30):
        mouse.move(*at_angle(c, 60, -90 + degrees))
    assert editor.document.get("obox-1").rotation == pytest.approx(30)
    editor.undo_stack.undo()
    assert editor.document.get("obox-1").rotation == 0
    mouse.move(*at_angle(c, 60, -90 + 45))
    mouse.release(*at_angle(c, 60, -90 + 45))
    assert editor.document.get("obox-1").rotation == 0, "the undone turn does not carry on"
    assert editor.undo_stack.canRedo() and editor.undo_stack.redoText() == "Rotate oriented box"
    editor.undo_stack.redo()
    assert editor.document.get("obox-1").rotation == pytest.approx(30)
