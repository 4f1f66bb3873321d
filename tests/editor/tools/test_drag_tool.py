"""What the press-drag-release tools share (DragTool): the same gesture for a box, an oriented box and a pillar."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from core.level.model import Box, OrientedBox, Pillar
from editor.tools.box_tool import BoxTool
from editor.tools.oriented_box_tool import OrientedBoxTool
from editor.tools.pillar_tool import PillarTool
from tests.editor.tools.conftest import Mouse, key

TOOLS = [(BoxTool, Box, "Add box"), (OrientedBoxTool, OrientedBox, "Add oriented box"),
         (PillarTool, Pillar, "Add pillar")]


def make(editor, cls):
    tool = cls(editor)
    tool.activate()
    return tool, Mouse(tool)


@pytest.mark.parametrize("cls,kind,label", TOOLS)
def test_a_drag_adds_one_object_in_one_step_and_selects_it(editor, cls, kind, label):
    tool, mouse = make(editor, cls)
    mouse.drag((32, 32), (96, 64))
    [obj] = editor.document.objects
    assert isinstance(obj, kind)
    assert editor.selection.ids() == [obj.id]
    assert editor.undo_stack.count() == 1 and editor.undo_stack.undoText() == label
    assert not tool.drawing and not tool.preview.shape_item.isVisible()


@pytest.mark.parametrize("cls,kind,label", TOOLS)
def test_other_buttons_draw_nothing(editor, cls, kind, label):
    tool, mouse = make(editor, cls)
    mouse.press(32, 32, button=Qt.RightButton)
    mouse.move(96, 64, buttons=Qt.RightButton)
    mouse.release(96, 64, button=Qt.RightButton)
    assert not tool.drawing and editor.document.objects == ()


@pytest.mark.parametrize("cls,kind,label", TOOLS)
def test_escape_cancels_and_hides_the_preview(editor, cls, kind, label):
    tool, mouse = make(editor, cls)
    mouse.press(32, 32)
    mouse.move(96, 64)
    assert tool.drawing and tool.preview.shape_item.isVisible()
    assert key(tool, Qt.Key_Escape) is True
    assert not tool.drawing and not tool.preview.shape_item.isVisible()
    assert key(tool, Qt.Key_Escape) is False  # nothing left to cancel: the key is the canvas's again
    mouse.release(96, 64)
    assert editor.document.objects == ()


@pytest.mark.parametrize("cls,kind,label", TOOLS)
def test_leaving_the_tool_mid_drag_removes_the_preview_and_draws_nothing(editor, cls, kind, label):
    tool, mouse = make(editor, cls)
    mouse.press(32, 32)
    mouse.move(96, 64)
    tool.deactivate()
    assert tool.preview.shape_item is None and tool.preview.label_item is None
    assert not editor.snapper.marker_visible()
    mouse.release(96, 64)
    assert editor.document.objects == ()


@pytest.mark.parametrize("cls,message", [(BoxTool, "opposite one"), (OrientedBoxTool, "opposite one"),
                                         (PillarTool, "give the pillar a radius")])
def test_a_drag_that_makes_nothing_says_why(editor, cls, message):
    tool, mouse = make(editor, cls)
    mouse.drag((32, 32), (33, 33))
    assert editor.document.objects == () and editor.undo_stack.count() == 0
    assert message in editor.messages[-1]

