"""Fixtures for driving the drawing tools directly, with scene coordinates.

``editor`` is an :class:`EditorContext` around a bare ``QGraphicsScene`` (no
window, no view: one scene unit per screen pixel). ``Mouse`` sends a tool the
same calls the scene would, so a test reads like what a designer does;
``round_trip`` checks that what it did is one undo step that undoes exactly.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsScene

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Level
from level_editor.editor.canvas.context import EditorContext


def context_for(level: Level) -> EditorContext:
    """An editor context around ``level`` on a bare scene; what it says goes into its ``messages`` list."""
    scene = QGraphicsScene()
    ctx = EditorContext(LevelDocument(level), scene)
    ctx._test_scene = scene  # keep the scene alive as long as the context
    messages: list[str] = []
    ctx.message.connect(messages.append)
    ctx.messages = messages
    return ctx


@pytest.fixture
def editor(qtbot):
    ctx = context_for(Level(name="Test", grid=16))
    yield ctx
    ctx.undo_stack.clear()


class Mouse:
    """Presses, moves and releases as the scene forwards them to ``tool``."""

    def __init__(self, tool):
        self.tool = tool

    def press(self, x, y, modifiers=Qt.NoModifier, button=Qt.LeftButton):
        self.tool.mouse_pressed(QPointF(x, y), button, modifiers)

    def move(self, x, y, modifiers=Qt.NoModifier, buttons=Qt.LeftButton):
        self.tool.mouse_moved(QPointF(x, y), buttons, modifiers)

    def hover(self, x, y, modifiers=Qt.NoModifier):
        self.tool.mouse_moved(QPointF(x, y), Qt.NoButton, modifiers)

    def release(self, x, y, modifiers=Qt.NoModifier, button=Qt.LeftButton):
        self.tool.mouse_released(QPointF(x, y), button, modifiers)

    def click(self, x, y, modifiers=Qt.NoModifier, button=Qt.LeftButton):
        self.hover(x, y, modifiers)
        self.press(x, y, modifiers, button)
        self.release(x, y, modifiers, button)

    def double_click(self, x, y, modifiers=Qt.NoModifier):
        """Qt's order: press, release, double-click, release."""
        self.click(x, y, modifiers)
        self.tool.mouse_double_clicked(QPointF(x, y), Qt.LeftButton, modifiers)
        self.tool.mouse_released(QPointF(x, y), Qt.LeftButton, modifiers)

    def drag(self, start, end, modifiers=Qt.NoModifier, steps=5):
        (x0, y0), (x1, y1) = start, end
        self.press(x0, y0, modifiers)
        for i in range(1, steps + 1):
            t = i / steps
            self.move(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, modifiers)
        self.release(x1, y1, modifiers)


def use_tool(editor, cls):
    """A ``cls`` tool, activated on ``editor``, and a :class:`Mouse` to drive it."""
    tool = cls(editor)
    tool.activate()
    return tool, Mouse(tool)


def round_trip(editor, before, label: str = "") -> None:
    """What was just done is one undo step (called ``label``, when given), and undo and redo restore exactly."""
    after = editor.document.level
    assert editor.undo_stack.count() == 1
    if label:
        assert editor.undo_stack.undoText() == label
    editor.undo_stack.undo()
    assert editor.document.level == before
    editor.undo_stack.redo()
    assert editor.document.level == after


def key(tool, k, modifiers=Qt.NoModifier) -> bool:
    return tool.key_pressed(k, modifiers)


def points(obj):
    return [(p.x, p.y) for p in obj.points]
