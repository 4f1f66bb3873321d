"""The tool base: a tool knows when the document change it hears about is its own push."""
from __future__ import annotations

import pytest

from core.level.model import Pillar
from editor.commands import AddObjectsCommand
from editor.tools.tool import Tool


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
