"""The pillar tool: press at the centre, drag out the radius."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from level_editor.core.level.model import Box, Pillar
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.pillar_tool import PillarTool
from tests.editor.tools.conftest import key, round_trip, use_tool


def make(editor):
    return use_tool(editor, PillarTool)


def test_press_at_the_centre_and_drag_out_the_radius(editor):
    tool, mouse = make(editor)
    mouse.drag((66, 63), (90, 62))
    [pillar] = editor.document.objects
    assert isinstance(pillar, Pillar)
    assert pillar.id == "pillar-1"
    assert tuple(pillar.center) == (64, 64)
    assert pillar.radius == 24  # 26 px, to the nearest half grid step
    assert editor.selection.ids() == ["pillar-1"]
    assert editor.undo_stack.undoText() == "Add pillar"


def test_preview_while_dragging(editor):
    tool, mouse = make(editor)
    mouse.press(0, 0)
    mouse.move(0, 33)
    r = tool.preview.shape_item.path().boundingRect()
    assert (r.width(), r.height()) == (64, 64)
    assert tool.preview.label_item.text() == "radius 32"
    mouse.release(0, 33)
    assert not tool.preview.shape_item.isVisible()


def test_ctrl_gives_the_exact_radius(editor):
    tool, mouse = make(editor)
    mouse.drag((5, 5), (8, 9), Qt.ControlModifier)
    assert editor.document.objects[0].radius == pytest.approx(5)
    assert tuple(editor.document.objects[0].center) == (5, 5)


def test_the_radius_reaches_another_objects_corner(editor):
    editor.push(AddObjectsCommand(editor.document, [Box("box-1", (30, 40), (10, 10))]))
    tool, mouse = make(editor)
    mouse.drag((0, 0), (32, 42))
    pillar = editor.document.objects[-1]
    assert pillar.radius == pytest.approx(50)


def test_no_radius_makes_nothing(editor):
    tool, mouse = make(editor)
    mouse.drag((0, 0), (2, 1))
    assert editor.document.objects == ()
    assert editor.undo_stack.count() == 0


def test_escape_cancels(editor):
    tool, mouse = make(editor)
    mouse.press(0, 0)
    mouse.move(40, 0)
    assert key(tool, Qt.Key_Escape) is True
    mouse.release(40, 0)
    assert editor.document.objects == ()


def test_undo_and_redo(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    mouse.drag((0, 0), (48, 0))
    round_trip(editor, before, "Add pillar")
