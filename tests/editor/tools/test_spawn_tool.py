"""The spawn tool: click places the player, drag moves it, one undo step."""
from __future__ import annotations

from PySide6.QtCore import Qt

from level_editor.core.level.model import Box
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.spawn_tool import SpawnTool
from tests.editor.tools.conftest import round_trip, use_tool


def make(editor):
    return use_tool(editor, SpawnTool)


def test_click_places_the_spawn_on_the_grid(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    mouse.click(203, 95)
    assert tuple(editor.document.player.spawn) == (208, 96)
    assert editor.selection.ids() == ["player"]
    round_trip(editor, before, "Move spawn")


def test_a_drag_is_one_step(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    mouse.drag((100, 100), (300, 140), steps=10)
    assert tuple(editor.document.player.spawn) == (304, 144)
    round_trip(editor, before)


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
