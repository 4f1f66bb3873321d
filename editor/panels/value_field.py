"""A typed value in a panel: checked as it is typed, applied on Enter or when the field is left.

One widget for every line a designer types a value into: the inspector's numbers, an object's id, the level's
name, a type's name in the Object Types editor, and each custom property's value
(:class:`~level_editor.editor.panels.properties_table.PropertyField`).
While the text is refused the field is red, its tooltip says why, and so does ``problem_changed`` for the
panel to show under its fields. Only a valid value is applied (``committed``); Esc puts back the value the
field showed, and so does leaving it with a refused value, the message staying to say it was not applied.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QLineEdit

from level_editor.editor.support.guard import guarded

__all__ = ["ValueField", "NumberCharacters", "checked_text", "INVALID_STYLE", "MIXED_TEXT"]

#: What a value shows when the objects shown hold different ones, until something is typed.
MIXED_TEXT = "—"
_MIXED_TIP = "The selected objects differ here: type a value to give it to all of them"

#: A field whose text is refused.
INVALID_STYLE = "QLineEdit { border: 2px solid #d03030; background: #fff0f0; }"

#: What can be part of a typed number.
_NUMBER_CHARS = frozenset("0123456789+-.eE ")


class NumberCharacters(QValidator):
    """Takes only what can be part of a number: a number field never holds letters (whether the number is
    a valid one is the field's reader's to say)."""

    def validate(self, text: str, pos: int):
        return (QValidator.Acceptable if set(text) <= _NUMBER_CHARS else QValidator.Invalid), text, pos


def checked_text(problem: Callable[[str], Optional[str]]) -> Callable[[str], str]:
    """A reader for a :class:`ValueField` of text: the text itself, refused when ``problem(text)`` says why.

    >>> read = checked_text(lambda text: None if text.strip() else "a level needs a name")
    >>> read("Cave")
    'Cave'
    >>> read(" ")
    Traceback (most recent call last):
    ValueError: a level needs a name
    """
    def read(text: str) -> str:
        why = problem(text)
        if why is not None:
            raise ValueError(why)
        return text

    return read


class ValueField(QLineEdit):
    """A line edit for one value: ``read(text)`` is the value typed, or raises ValueError saying why not.

    ``committed(value)`` is emitted when the user finishes a valid edit (Enter, leaving the field, or
    :meth:`finish_typing`). ``problem_changed(message)`` says why the text is refused (``""`` when it is
    fine), prefixed with ``label`` when there is one ("Width: must be from ..."). A field of several objects
    whose values differ shows "—" and commits nothing until something is typed.
    """

    committed = Signal(object)
    problem_changed = Signal(str)

    def __init__(self, name: str, read: Callable[[str], Any], label: str = "", parent=None):
        super().__init__(parent)
        self.setObjectName(name)
        self.label = label
        self._read = read
        self._shown = ""
        self._tip = ""
        self._base_style = ""
        self._said = ""
        self.textChanged.connect(self._check)
        self.editingFinished.connect(self._finished)

    @property
    def problem(self) -> Optional[str]:
        """Why the typed text is refused; None when it is fine or nothing has been typed."""
        if not self.isModified() or self._untouched_mix():
            return None
        try:
            self._read(self.text())
        except ValueError as why:
            return str(why)
        return None

    def is_invalid(self) -> bool:
        return self.problem is not None

    def show_value(self, text: str, tip: str = "", mixed: bool = False) -> None:
        """Show the model's value and ``tip`` as the tooltip, unless the user is typing here.

        ``mixed``: the objects shown differ here; the field stays blank, with "—" greyed in it.
        """
        if self.hasFocus() and self.isModified():
            return
        self.setPlaceholderText(MIXED_TEXT if mixed else "")
        text = "" if mixed else text
        self._shown = text
        self._tip = "\n".join(t for t in (_MIXED_TIP if mixed else "", tip) if t)
        if self.text() != text or self.isUndoAvailable() or self.isRedoAvailable():
            # setText also forgets the field's own undo steps: its Ctrl+Z then takes back only typing not yet
            # applied, never text already applied (that is the level's Undo, editor/support/typed_edits.py)
            self.setText(text)
        self.setModified(False)
        self._check()

    def set_base_style(self, style: str) -> None:
        """The look while the text is fine (greyed and italic for a type's default)."""
        self._base_style = style
        self._check()

    def restore(self) -> None:
        """Put back the value the field showed (Esc), and take back what was said about the typed one."""
        self.setText(self._shown)
        self.setModified(False)
        self._check()
        self._said = ""
        self.problem_changed.emit("")

    def finish_typing(self) -> None:
        """Apply what is typed, as Enter would (editor/support/typed_edits.py)."""
        self._finished()

    def drop_typing(self) -> None:
        """Drop what is typed, as Esc would (the level it was typed for is being replaced)."""
        if self.isModified():
            self.restore()

    @guarded("typing a value")
    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Escape:
            self.restore()
            event.accept()
            return
        super().keyPressEvent(event)

    @guarded("leaving a field")
    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)  # a valid value is applied here (editingFinished)
        problem = self.problem
        if problem is not None and event.reason() != Qt.PopupFocusReason:  # not for the field's context menu
            # left with a refused value: the shown value comes back, the message stays to say why
            self.restore()
            self._say(self._message(f"{problem} (not applied)"))

    def _untouched_mix(self) -> bool:
        return self.text() == "" and self._shown == "" and self.placeholderText() == MIXED_TEXT

    def _message(self, problem: str) -> str:
        return f"{self.label}: {problem}" if self.label else problem

    def _say(self, text: str) -> None:
        if text != self._said:
            self._said = text
            self.problem_changed.emit(text)

    def _check(self, *_) -> None:
        problem = self.problem
        style = self._base_style if problem is None else INVALID_STYLE
        if self.styleSheet() != style:  # a new style sheet polishes the field again, even the same one
            self.setStyleSheet(style)
        if problem is None:
            self.setToolTip(self._tip)
            if self.isModified():
                self._say("")
        else:
            self.setToolTip(f"Not applied: {problem}")
            self._say(self._message(problem))

    @guarded("applying a typed value")
    def _finished(self) -> None:
        if not self.isModified() or self._untouched_mix():
            return
        try:
            value = self._read(self.text())
        except ValueError:
            return  # still red, saying why; Esc or leaving the field puts back the value shown
        self.setModified(False)
        self._say("")
        self.committed.emit(value)
