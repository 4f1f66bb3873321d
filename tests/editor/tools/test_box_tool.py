"""The box tool: press, drag, release."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from level_editor.core.level.model import Box
from level_editor.editor.tools.box_tool import BoxTool
from tests.editor.tools.conftest import key, round_trip, use_tool


def make(editor):
    return use_tool(editor, BoxTool)


@pytest.mark.parametrize("start,end", [((30, 18), (97, 63)), ((97, 63), (30, 18)), ((97, 18), (30, 63)),
                                       ((30, 63), (97, 18))])
def test_drag_in_any_direction_draws_the_same_snapped_box(editor, start, end):
    tool, mouse = make(editor)
    mouse.drag(start, end)
    [box] = editor.document.objects
    assert isinstance(box, Box)
    assert box.id == "box-1"
    assert tuple(box.origin) == (32, 16) and tuple(box.size) == (64, 48)
    assert editor.selection.ids() == ["box-1"]
    assert editor.undo_stack.undoText() == "Add box"


def test_preview_shows_the_box_while_dragging(editor):
    tool, mouse = make(editor)
    mouse.press(0, 0)
    mouse.move(64, 32)
    assert tool.preview.shape_item.isVisible()
    r = tool.preview.shape_item.path().boundingRect()
    assert (r.x(), r.y(), r.width(), r.height()) == (0, 0, 64, 32)
    assert tool.preview.label_item.text() == "64 × 32"
    mouse.release(64, 32)
    assert not tool.preview.shape_item.isVisible()


@pytest.mark.parametrize("end", [(0, 0), (64, 3), (2, 64)])
def test_a_drag_without_area_makes_nothing(editor, end):
    tool, mouse = make(editor)
    mouse.drag((0, 0), end)
    assert editor.document.objects == ()
    assert editor.undo_stack.count() == 0


def test_ctrl_turns_snapping_off(editor):
    tool, mouse = make(editor)
    mouse.drag((3, 5), (50, 41), Qt.ControlModifier)
    box = editor.document.objects[0]
    assert tuple(box.origin) == (3, 5) and tuple(box.size) == (47, 36)


def test_escape_cancels_the_drag(editor):
    tool, mouse = make(editor)
    mouse.press(0, 0)
    mouse.move(64, 64)
    assert key(tool, Qt.Key_Escape) is True
    mouse.release(64, 64)
    assert editor.document.objects == ()


def test_undo_and_redo(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    mouse.drag((0, 0), (64, 64))
    round_trip(editor, before, "Add box")
