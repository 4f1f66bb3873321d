"""The base of every editor tool (Tiled's AbstractTool).

The scene forwards mouse and key events to the active tool in scene
coordinates with the keyboard modifiers, so tests can drive a tool directly.
A tool changes the level only by pushing undo commands through its
:class:`~level_editor.editor.canvas.context.EditorContext`; previews it draws are its own
scene items, removed on :meth:`deactivate`.

Three promises every tool keeps, enforced here for every subclass:

* **Esc cancels the gesture under way** (:meth:`Tool.key_pressed`), through the
  same :meth:`Tool.cancel_gesture` that Undo and an error use.

* **Undo acts on the gesture under way.** The main window's Undo asks
  :meth:`Tool.undo_in_gesture` first: while a wall is half drawn it removes the
  last node, while a drag is under way it cancels the drag. Only a tool at rest
  lets Undo reach the level's history (and Redo likewise, :meth:`redo_in_gesture`).
* **An event handler never raises.** An error inside one is reported (in words,
  through :func:`level_editor.editor.support.guard.report_error`) and the gesture it broke is
  cancelled with :meth:`cancel_gesture`, so the tool is back at rest and the
  level is as the last finished step left it.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QUndoCommand

from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.guard import report_error

#: The handlers a tool's caller (the scene, the Undo action) calls, with what a failed call returns.
_GUARDED = {
    "mouse_pressed": None,
    "mouse_moved": None,
    "mouse_released": None,
    "mouse_double_clicked": None,
    "key_pressed": True,  # the key was dealt with (the gesture it was for is cancelled): nobody else acts on it
    "undo_in_gesture": True,  # the gesture was cancelled, which is what Undo was asked to do
    "redo_in_gesture": True,
    "activate": None,
    "deactivate": None,
}


def _guard_handler(name: str, function: Callable[..., Any], default: Any) -> Callable[..., Any]:
    """``function`` (a tool's handler) that reports an error and cancels the gesture instead of raising.

    Only the outermost handler call guards: a subclass calling ``super()`` lets the
    error travel up to it, so the whole handler stops, not just its inner half.
    """
    where = f"{name.replace('_', ' ')} ({{tool}})"

    @functools.wraps(function)
    def safe(self: "Tool", *args: Any, **kwargs: Any) -> Any:
        if self._handling:
            return function(self, *args, **kwargs)
        self._handling = True
        try:
            return function(self, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - the boundary of a tool: report, then leave a clean state
            report_error(where.format(tool=f"{self.name} tool"), error)
            self._cancel_after_error()
            return default
        finally:
            self._handling = False
    safe._tool_guarded = True
    return safe


class Tool(QObject):
    """One way of working with the mouse on the canvas.

    Subclasses set ``name`` (designer's word, shown in menus), ``shortcut``
    (the key from the contract), ``icon_name`` (file in resources/icons) and
    ``hint`` (status bar text while the tool is active and at rest); a tool whose
    next step depends on its state says so in :meth:`current_hint`, and calls
    :meth:`update_hint` when that state changes.
    """

    name = "Tool"
    shortcut = ""
    icon_name = ""
    hint = ""
    cursor = Qt.ArrowCursor

    #: Emitted with :meth:`current_hint` whenever what the designer can do next changes.
    hint_changed = Signal(str)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, default in _GUARDED.items():
            function = cls.__dict__.get(name)
            if function is not None and not getattr(function, "_tool_guarded", False):
                setattr(cls, name, _guard_handler(name, function, default))

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(parent)
        self.editor = editor
        self._pushing = False
        self._handling = False

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

    # What to do next
    def current_hint(self) -> str:
        """The status bar's hint for the tool's state now: what the designer can do next."""
        return self.hint

    def update_hint(self) -> None:
        """Tell the status bar what :meth:`current_hint` says now (call it when the tool's state changed)."""
        self.hint_changed.emit(self.current_hint())

    # The gesture under way
    def in_gesture(self) -> bool:
        """A gesture is under way (a wall being drawn, a drag): Undo and Redo act on it, not on the level."""
        return False

    def cancel_gesture(self) -> None:
        """Drop the gesture under way, leaving the level as the last finished step left it."""

    def undo_in_gesture(self) -> bool:
        """Undo asked while this tool is active: True when the tool took it (the level's history is left alone).

        By default a gesture under way is cancelled; a tool whose gesture has
        steps of its own (the wall's nodes) takes one step back instead.
        """
        if not self.in_gesture():
            return False
        self.cancel_gesture()
        self.update_hint()
        return True

    def redo_in_gesture(self) -> bool:
        """Redo asked while this tool is active: True when the tool took it.

        Redo never reaches past a gesture under way (the steps it would bring
        back belong before it): it is refused with a word in the status bar.
        """
        if not self.in_gesture():
            return False
        self.editor.message.emit(f"Finish or cancel what the {self.name} tool is doing first (Esc cancels).")
        return True

    def can_redo_in_gesture(self) -> bool:
        """Redo has something to say to the gesture under way (at least a refusal)."""
        return self.in_gesture()

    def _cancel_after_error(self) -> None:
        """After an error in a handler: cancel the gesture; an error in that too is reported, never raised."""
        try:
            self.cancel_gesture()
            self.update_hint()
        except Exception as error:  # noqa: BLE001 - reporting, the tool's state is reset below anyway
            report_error(f"cancelling what the {self.name} tool was doing", error)

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
        """A key the canvas did not use; return True when the tool handled it.

        Esc cancels the gesture under way, for every tool: a tool says how in :meth:`cancel_gesture`
        (and when it has one in :meth:`in_gesture`), not which key does it. A tool that reads other keys
        lets the ones it does not use reach this one with ``super().key_pressed(key, modifiers)``.
        """
        if key == Qt.Key_Escape and self.in_gesture():
            self.cancel_gesture()
            self.update_hint()
            return True
        return False
