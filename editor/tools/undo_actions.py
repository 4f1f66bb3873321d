"""Undo and Redo that act on the gesture under way before they reach the level's history.

Ctrl+Z while a wall is half drawn takes back its last node, not the wall
finished before it; Ctrl+Z during a drag cancels the drag. The Edit menu's
entries, the toolbar buttons and the shortcuts are the same two actions, so
they all go through :func:`undo` and :func:`redo`, which ask the active tool
(:meth:`~level_editor.editor.tools.tool.Tool.undo_in_gesture`) first.

Redo never reaches past a gesture under way either: the wall tool puts back a
node its Undo took; any other gesture refuses Redo with a word in the status bar
(finish or cancel it first). The steps Redo would bring back come from before
the gesture began, so redoing them under it would rewrite the level beneath
what the designer is holding.
"""
from __future__ import annotations

import contextlib
from typing import Callable, Iterable, Optional

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QUndoStack

from level_editor.editor.support.guard import guarded
from level_editor.editor.support.typed_edits import finish_typing
from level_editor.editor.tools.tool import Tool

ActiveTool = Callable[[], Optional[Tool]]


def undo(stack: QUndoStack, tool: Optional[Tool]) -> None:
    """Undo the last step of the gesture under way, else the level's last step.

    A value still being typed into a panel is applied first, as its own step (editor/support/typed_edits.py):
    Undo then takes back that value, and nothing is lost.
    """
    finish_typing()
    if tool is not None and tool.undo_in_gesture():
        return
    with _changing(tool, f"Undo {stack.undoText()}"):
        stack.undo()


def redo(stack: QUndoStack, tool: Optional[Tool]) -> None:
    """Redo, unless a gesture is under way (then the tool decides, and the level's history is left alone).

    A value still being typed into a panel is applied first, as its own step; it leaves nothing to redo.
    """
    finish_typing()
    if tool is not None and tool.redo_in_gesture():
        return
    with _changing(tool, f"Redo {stack.redoText()}"):
        stack.redo()


def _changing(tool: Optional[Tool], text: str):
    """While Undo or Redo runs, a command pushed by something reacting to it waits until it is done
    (:meth:`level_editor.editor.canvas.context.EditorContext.changing`)."""
    return tool.editor.changing(text) if tool is not None else contextlib.nullcontext()


class GestureUndo(QObject):
    """Routes ``undo_action`` and ``redo_action`` (made by ``stack.createUndoAction``/``createRedoAction``).

    The actions stay the stack's (their text names the level's last step), but their
    ``triggered`` goes through the active tool, and Undo stays enabled while a
    gesture is under way even with an empty history (the first wall of a level
    can lose its last node too). ``locked`` says when the window is read-only
    (a play-test): then the actions are left as the play-test set them.
    A tool says its state changed by updating its hint; for one that does not,
    the actions are brought up to date after every press and release on ``scene``.
    """

    _BUTTONS = (QEvent.GraphicsSceneMousePress, QEvent.GraphicsSceneMouseRelease)

    def __init__(self, undo_action: QAction, redo_action: QAction, stack: QUndoStack, active_tool: ActiveTool,
                 tools: Iterable[Tool], locked: Callable[[], bool] = lambda: False, scene: QObject | None = None):
        super().__init__(undo_action)
        self.undo_action = undo_action
        self.redo_action = redo_action
        self.stack = stack
        self.active_tool = active_tool
        self.locked = locked
        undo_action.triggered.disconnect()
        redo_action.triggered.disconnect()
        undo_action.triggered.connect(self.undo)
        redo_action.triggered.connect(self.redo)
        # after the stack's own connections, so the state here is the last word
        stack.canUndoChanged.connect(self.refresh)
        stack.canRedoChanged.connect(self.refresh)
        for tool in tools:
            tool.hint_changed.connect(self.refresh)  # a tool says its state changed by updating its hint
        if scene is not None:
            scene.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() in self._BUTTONS:
            QTimer.singleShot(0, self, self.refresh)  # after the tool has had the event
        return False

    @guarded("undoing", default=None, explicit=True)
    def undo(self, checked: bool = False) -> None:
        undo(self.stack, self.active_tool())
        self.refresh()

    @guarded("redoing", default=None, explicit=True)
    def redo(self, checked: bool = False) -> None:
        redo(self.stack, self.active_tool())
        self.refresh()

    @guarded("updating Undo", default=None)
    def refresh(self, *_args) -> None:
        """Undo and Redo are enabled while a gesture is under way, even with nothing in the history."""
        if self.locked() or not all(map(shiboken6.isValid, (self.stack, self.undo_action, self.redo_action))):
            return  # a play-test holds the actions, or the window is being taken down
        tool = self.active_tool()
        self.undo_action.setEnabled(self.stack.canUndo() or (tool is not None and tool.in_gesture()))
        self.redo_action.setEnabled(self.stack.canRedo() or (tool is not None and tool.can_redo_in_gesture()))
