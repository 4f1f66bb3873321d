"""The tool base: a tool knows when the document change it hears about is its own push."""
from __future__ import annotations

import pytest

from level_editor.core.level.model import Pillar
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.tool import Tool


def test_pushing_is_true_only_while_the_tools_own_push_runs(editor):
    tool = Tool(editor)
    heard = []
    editor.document.subscribe(lambda change: heard.append(tool.pushing))
    tool.push(AddObjectsCommand(editor.document, [Pillar("pillar-1", (0, 0), 5)]))
    editor.undo_stack.undo()  # someone else's change (Ctrl+Z)
    assert heard == [True, False]
    assert not tool.pushing


def test_pushing_ends_even_when_the_push_fails(editor, monkeypatch):
    def fail(command):
        raise RuntimeError("boom")

    monkeypatch.setattr(editor, "push", fail)
    tool = Tool(editor)
    with pytest.raises(RuntimeError):
        tool.push(AddObjectsCommand(editor.document, [Pillar("pillar-1", (0, 0), 5)]))
    assert not tool.pushing


def test_esc_cancels_the_gesture_of_any_tool_that_says_how(editor):
    """Esc lives in the base: a tool only says when it is in a gesture and how to cancel it."""
    from PySide6.QtCore import Qt

    class Holding(Tool):
        def __init__(self, editor):
            super().__init__(editor)
            self.holding = True
            self.hints = []
            self.hint_changed.connect(self.hints.append)

        def in_gesture(self):
            return self.holding

        def cancel_gesture(self):
            self.holding = False

    tool = Holding(editor)
    assert tool.key_pressed(Qt.Key_A, Qt.NoModifier) is False and tool.holding
    assert tool.key_pressed(Qt.Key_Escape, Qt.NoModifier) is True
    assert not tool.holding and tool.hints == [tool.hint]
    assert tool.key_pressed(Qt.Key_Escape, Qt.NoModifier) is False  # at rest, Esc is left to others


@pytest.mark.parametrize("name", ["SpawnTool", "MarkerTool", "TileBrushTool", "DragTool", "OrientedBoxTool"])
def test_the_tools_that_only_cancelled_on_esc_no_longer_say_it_themselves(name):
    from level_editor.editor.tools.registry import TOOL_CLASSES
    from level_editor.editor.tools.drag_tool import DragTool

    cls = DragTool if name == "DragTool" else next(c for c in TOOL_CLASSES if c.__name__ == name)
    assert "key_pressed" not in cls.__dict__


def test_a_drag_tool_that_does_not_say_what_it_makes_is_refused_when_written():
    import pytest

    from level_editor.editor.tools.drag_tool import DragTool

    with pytest.raises(TypeError, match="make_object"):
        type("ShapelessTool", (DragTool,), {})
