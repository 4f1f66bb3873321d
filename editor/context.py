"""What the tools and panels of one editor window share: document, undo stack, selection, scene, snapping."""
from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QGraphicsScene

from core.level.document import LevelDocument
from editor.selection import Selection
from editor.canvas.snapping import Snapper


class EditorContext(QObject):
    """The shared state of one editor window.

    Tools receive it on construction and never reach further (no main window
    lookups), so a test can build one around a bare ``QGraphicsScene`` and drive
    a tool directly with scene coordinates.
    """

    #: A short message for the status bar (tool hints, what just happened).
    message = Signal(str)

    def __init__(self, document: LevelDocument, scene: QGraphicsScene, undo_stack: QUndoStack | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.document = document
        self.scene = scene
        self.undo_stack = undo_stack if undo_stack is not None else QUndoStack(self)
        self.selection = Selection(document, self)
        self.snapper = Snapper(document, scene, self)

    #: Set while a play-test runs (editor/playtest): commands are dropped unrun, so the level cannot change.
    read_only = False

    def push(self, command: QUndoCommand) -> None:
        """Run ``command`` and record it for undo (unless :attr:`read_only`).

        A command that changes nothing is dropped here rather than pushed, which
        would throw away the steps the designer could still redo.
        """
        if self.read_only or command.isObsolete():
            return
        self.undo_stack.push(command)

    def snap(self, pos: QPointF, modifiers: Qt.KeyboardModifier = Qt.NoModifier, exclude=()) -> QPointF:
        """``pos`` snapped to the grid or a nearby node/corner (Ctrl suspends snapping)."""
        return self.snapper.snap(pos, modifiers, exclude)

    def scale(self) -> float:
        """Scene units per screen pixel of the first view (1.0 without a view): for pick radii."""
        return self.snapper.scale()
