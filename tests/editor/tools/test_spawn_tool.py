"""The spawn tool: click places the player, drag moves it, one undo step."""
from __future__ import annotations

from PySide6.QtCore import Qt

from level_editor.core.level.model import Box
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.spawn_tool import SpawnTool
from tests.editor.tools.conftest import Mouse


def make(editor):
    tool = SpawnTool(editor)
    tool.activate()
    return tool, Mouse(tool)


def test_click_places_the_spawn_on_the_grid(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    mouse.click(203, 95)
    assert tuple(editor.document.player.spawn) == (208, 96)
    assert editor.selection.ids() == ["player"]
    assert editor.undo_stack.count() == 1
    assert editor.undo_stack.undoText() == "Move spawn"
    editor.undo_stack.undo()
    assert editor.document.level == before


def test_a_drag_is_one_step(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    mouse.drag((100, 100), (300, 140), steps=10)
    assert tuple(editor.document.player.spawn) == (304, 144)
    assert editor.undo_stack.count() == 1
    after = editor.document.level
    editor.undo_stack.undo()
    assert editor.document.level == before
    editor.undo_stack.redo()
    assert editor.document.level == after


def test_ctrl_places_it_exactly(editor):
    tool, mouse = make(editor)
    mouse.click(203, 95, Qt.ControlModifier)
    assert tuple(editor.document.player.spawn) == (203, 95)


def test_clicking_where_it_already_is_adds_no_step(editor):
    tool, mouse = make(editor)
    mouse.click(64, 64)
    assert editor.undo_stack.count() == 0


def test_warns_when_the_player_starts_inside_an_object(editor):
    editor.push(AddObjectsCommand(editor.document, [Box("crate", (192, 192), (64, 64))]))
    tool, mouse = make(editor)
    mouse.click(224, 224)
    assert tuple(editor.document.player.spawn) == (224, 224)
    assert "inside crate" in editor.messages[-1]
