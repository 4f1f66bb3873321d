"""What the press-drag-release tools share (DragTool): the same gesture for a box, an oriented box and a pillar."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from level_editor.core.level.model import Box, Layer, Level, OrientedBox, Pillar
from level_editor.editor.tools.box_tool import BoxTool
from level_editor.editor.tools.oriented_box_tool import OrientedBoxTool
from level_editor.editor.tools.pillar_tool import PillarTool
from level_editor.editor.tools.wall_tool import WallTool
from tests.editor.tools.conftest import context_for, key, use_tool

TOOLS = [(BoxTool, Box, "Add box"), (OrientedBoxTool, OrientedBox, "Add oriented box"),
         (PillarTool, Pillar, "Add pillar")]


@pytest.mark.parametrize("cls,kind,label", TOOLS)
def test_a_drag_adds_one_object_in_one_step_and_selects_it(editor, cls, kind, label):
    tool, mouse = use_tool(editor, cls)
    mouse.drag((32, 32), (96, 64))
    [obj] = editor.document.objects
    assert isinstance(obj, kind)
    assert editor.selection.ids() == [obj.id]
    assert editor.undo_stack.count() == 1 and editor.undo_stack.undoText() == label
    assert not tool.drawing and not tool.preview.shape_item.isVisible()


@pytest.mark.parametrize("cls,kind,label", TOOLS)
def test_other_buttons_draw_nothing(editor, cls, kind, label):
    tool, mouse = use_tool(editor, cls)
    mouse.press(32, 32, button=Qt.RightButton)
    mouse.move(96, 64, buttons=Qt.RightButton)
    mouse.release(96, 64, button=Qt.RightButton)
    assert not tool.drawing and editor.document.objects == ()


@pytest.mark.parametrize("cls,kind,label", TOOLS)
def test_escape_cancels_and_hides_the_preview(editor, cls, kind, label):
    tool, mouse = use_tool(editor, cls)
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
    tool, mouse = use_tool(editor, cls)
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
    tool, mouse = use_tool(editor, cls)
    mouse.drag((32, 32), (33, 33))
    assert editor.document.objects == () and editor.undo_stack.count() == 0
    assert message in editor.messages[-1]


@pytest.fixture
def layered(qtbot):
    """A level without the default layer: "Art" and a locked "Walls" on top."""
    ctx = context_for(Level(name="Layers", grid=16, layers=(Layer("art", "Art"), Layer("walls", "Walls", locked=True))))
    yield ctx
    ctx.undo_stack.clear()


@pytest.mark.parametrize("cls", [BoxTool, OrientedBoxTool, PillarTool])
def test_a_drawn_object_goes_on_the_current_layer(layered, cls):
    layered.set_current_layer("art")
    tool, mouse = use_tool(layered, cls)
    mouse.drag((32, 32), (96, 64))
    [obj] = layered.document.objects
    assert obj.layer == "art"
    layered.undo_stack.undo()
    assert layered.document.objects == ()


@pytest.mark.parametrize("cls", [BoxTool, OrientedBoxTool, PillarTool])
def test_nothing_is_drawn_on_a_locked_layer_and_the_status_bar_says_why(layered, cls):
    layered.set_current_layer("walls")
    tool, mouse = use_tool(layered, cls)
    mouse.drag((32, 32), (96, 64))
    assert not tool.drawing and layered.document.objects == ()
    assert "locked" in layered.messages[-1]


def test_a_wall_goes_on_the_current_layer_and_not_on_a_locked_one(layered):
    tool, mouse = use_tool(layered, WallTool)
    layered.set_current_layer("walls")
    mouse.click(0, 0)
    mouse.double_click(64, 0)
    assert layered.document.objects == () and "locked" in layered.messages[-1]
    layered.set_current_layer("art")
    mouse.click(0, 0)
    mouse.double_click(64, 0)
    [wall] = layered.document.objects
    assert wall.layer == "art"
