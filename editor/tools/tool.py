"""The base of every editor tool (Tiled's AbstractTool).

The scene forwards mouse and key events to the active tool in scene
coordinates with the keyboard modifiers, so tests can drive a tool directly.
A tool changes the level only by pushing undo commands through its
:class:`~editor.context.EditorContext`; previews it draws are its own
scene items, removed on :meth:`deactivate`.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QUndoCommand

from editor.context import EditorContext


class Tool(QObject):
    """One way of working with the mouse on the canvas.

    Subclasses set ``name`` (designer's word, shown in menus), ``shortcut``
    (the key from the contract), ``icon_name`` (file in resources/icons) and
    ``hint`` (status bar text while the tool is active).
    """

    name = "Tool"
    shortcut = ""
    icon_name = ""
    hint = ""
    cursor = Qt.ArrowCursor

    #: Emitted when the tool's status bar hint changes mid-gesture.
    hint_changed = Signal(str)

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(parent)
        self.editor = editor
        self._pushing = False

    # Changing the level
    def push(self, command: QUndoCommand) -> None:
        """Push ``command`` on the undo stack; :attr:`pushing` is True while it runs."""
        self._pushing = True
        try:
            self.editor.push(command)
        finally:
            self._pushing = False

    @property
    def pushing(self) -> bool:
        """The document change being announced is this tool's own push.

        A tool that ends its gesture when the level changes under it (undo,
        redo, a panel) checks this so its own edits do not end the gesture.
        """
        return self._pushing

    # Lifecycle
    def activate(self) -> None:
        """The tool becomes the active one."""

    def deactivate(self) -> None:
        """Another tool takes over: finish or cancel any gesture and remove previews."""

    # Events, in scene coordinates
    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        """A mouse button went down at ``pos``."""

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        """The mouse moved (with ``buttons`` held, possibly none)."""

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        """A mouse button went up."""

    def mouse_double_clicked(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        """A double click (after the press/release pair of the first click)."""

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        """A key the canvas did not use; return True when the tool handled it."""
        return False
