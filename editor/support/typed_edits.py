"""A value typed into a panel is applied before anything else happens, as an undo step of its own.

A field (the inspector's numbers, a custom property, a cell of a wall's nodes or of the object types) applies
what was typed on Enter or when it is left. Left alone, "when it is left" comes whenever Qt moves the focus:
a click on a toolbar button or a menu entry does not take the focus, so the field was still being typed into
while Undo, a flip or a play-test ran, and it applied its value in the middle of that change when the panel
was rebuilt under it (the player's fields when Undo gave the player back its other shape). Its command then
recorded as "before" a state half-way through another change, and undo gave back a level that never existed,
or the typed value was lost from the history.

:func:`install` puts one event filter on the application: a mouse press anywhere but in the field being
typed into, or a shortcut (Ctrl+Z, F5, Delete in the menu...), first finishes the typing with
:func:`finish_typing`, so the typed value is pushed as its own step before the press or the shortcut does
anything. Undo and Redo call :func:`finish_typing` themselves too (editor/tools/undo_actions.py).

A widget that holds typed text in its own way has a ``finish_typing()`` method (found on the focused widget
or the nearest of its parents that has one); otherwise an item view's open cell editor is committed as Enter
would commit it, and a modified line edit is finished as leaving it would finish it.

Undo and Redo (Ctrl+Z, Ctrl+Shift+Z) act on the level whenever the focused field shows the level's value, as in
Tiled and Godot: a line edit takes those keys for its own text by default, so after Enter in a field Ctrl+Z only
put the old text back and the next click applied it as a new step. Only a field holding typing not yet applied
undoes its own text (:func:`holds_typing`); once that text is back to the level's value, the next Ctrl+Z goes to
the level.
"""
from __future__ import annotations

from typing import Optional

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemDelegate, QAbstractItemView, QApplication, QComboBox, QLineEdit, QWidget

from level_editor.editor.support.guard import guarded

#: Presses that start something: a click, a double click (the wheel only scrolls and zooms).
_PRESSES = (QEvent.MouseButtonPress, QEvent.MouseButtonDblClick)
#: The keys that apply a cell's typing.
_ENTER_KEYS = (Qt.Key_Return, Qt.Key_Enter)


def _item_view_of(editor: QWidget) -> Optional[QAbstractItemView]:
    """The item view whose open cell editor ``editor`` is, if it is one."""
    parent = editor.parentWidget()
    view = parent.parentWidget() if parent is not None else None
    if isinstance(view, QAbstractItemView) and parent is view.viewport() and \
            view.state() == QAbstractItemView.EditingState:
        return view
    return None


def finish_typing(widget: Optional[QWidget] = None) -> None:
    """Apply what is being typed into ``widget`` (default: the focused widget), as Enter or leaving it would.

    Nothing happens when nothing is being typed.
    """
    widget = widget if widget is not None else QApplication.focusWidget()
    if widget is None or not shiboken6.isValid(widget):
        return
    holder = widget
    while holder is not None:
        finish = getattr(holder, "finish_typing", None)
        if callable(finish):
            finish()
            return
        holder = holder.parentWidget()
    view = _item_view_of(widget)
    if view is not None:
        delegate = view.itemDelegateForIndex(view.currentIndex()) or view.itemDelegate()
        delegate.commitData.emit(widget)
        delegate.closeEditor.emit(widget, QAbstractItemDelegate.NoHint)
        # A change that rebuilds the view's rows lets the editor go while it is being applied, and Qt's commit
        # then gives the editor back its delegate's ear: the focus leaving it later applied it again, to a view
        # that no longer knew it ("commitData called with an editor that does not belong to this view").
        if shiboken6.isValid(widget):
            widget.removeEventFilter(delegate)
        return
    if isinstance(widget, QLineEdit) and widget.isModified() and not widget.isReadOnly():
        widget.editingFinished.emit()


def drop_typing(widget: Optional[QWidget] = None) -> None:
    """Drop what is being typed into ``widget`` (default: the focused widget), as Esc would: nothing is applied.

    For when the level it was typed for is about to be replaced: applied later, it would land on the next one.
    """
    widget = widget if widget is not None else QApplication.focusWidget()
    if widget is None or not shiboken6.isValid(widget):
        return
    holder = widget
    while holder is not None:
        drop = getattr(holder, "drop_typing", None)
        if callable(drop):
            drop()
            return
        holder = holder.parentWidget()
    view = _item_view_of(widget)
    if view is not None:
        delegate = view.itemDelegateForIndex(view.currentIndex()) or view.itemDelegate()
        delegate.closeEditor.emit(widget, QAbstractItemDelegate.RevertModelCache)
        return
    if isinstance(widget, QLineEdit) and widget.isModified():
        widget.setModified(False)  # not applied when left: the panel shows the next level's value over it


def typing_in(window: QWidget) -> list[QWidget]:
    """The widgets that may hold typing for ``window``'s level: the application's focus and the window's own
    (a layer's name being typed in the main window while a dialog of it has the focus)."""
    return [w for w in dict.fromkeys((QApplication.focusWidget(), window.focusWidget()))
            if w is not None and shiboken6.isValid(w)]


def holds_typing(widget: Optional[QWidget] = None) -> bool:
    """``widget`` (default: the focused widget) holds typed text not yet applied to the level.

    A line edit's own undo history outlives Enter; what counts is whether its text differs from the value
    it was given (Qt's "modified", which its own Undo clears again on reaching that value).
    """
    widget = widget if widget is not None else QApplication.focusWidget()
    if widget is None or not shiboken6.isValid(widget):
        return False
    return isinstance(widget, QLineEdit) and not widget.isReadOnly() and widget.isModified()


def _field_would_take(event) -> bool:
    """A key the focused line edit would take as its own Undo or Redo instead of the window's."""
    focused = QApplication.focusWidget()
    return isinstance(focused, QLineEdit) and (event.matches(QKeySequence.Undo) or event.matches(QKeySequence.Redo))


def _inside(widget: QWidget, holder: QWidget) -> bool:
    return widget is holder or holder.isAncestorOf(widget)


class _FinishTypingFirst(QObject):
    """The application's event filter of :func:`install`."""

    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if kind in _PRESSES and isinstance(watched, QWidget):
            self._pressed(watched)
        elif kind == QEvent.KeyPress and event.key() in _ENTER_KEYS and isinstance(watched, QWidget) \
                and _item_view_of(watched) is not None:
            # Qt's item delegate applies a cell's typing a moment after Enter (a queued call): a click or a new
            # level in that moment applied it first, or replaced the view's rows, and Qt then applied an editor
            # its view no longer knew ("commitData called with an editor that does not belong to this view").
            # Applied here and now, as every other way of finishing the typing does.
            self._finish_cell(watched)
            return True
        elif kind == QEvent.Shortcut:
            self._finish()
        elif kind == QEvent.ShortcutOverride and _field_would_take(event) and not holds_typing():
            # the field shows the level's value: its Undo would only bring back text already applied, so the key
            # is left to the window's Undo and Redo, which act on the level
            event.ignore()
            return True
        return False  # the event goes on as it came

    @guarded("applying a typed value")
    def _pressed(self, target: QWidget) -> None:
        window = target.window()
        if window.windowFlags() & Qt.Popup == Qt.Popup:
            return  # a menu or a list that drops from the field (a combo box's): part of the typing
        # the application's focus, and the clicked window's own (a layer's name being typed in the main window
        # while the Object Types dialog had the focus)
        for focused in dict.fromkeys((QApplication.focusWidget(), window.focusWidget())):
            if focused is None or _inside(target, focused):
                continue  # a click inside the field being typed into (placing the cursor)
            combo = focused.parentWidget()
            if isinstance(combo, QComboBox) and combo.lineEdit() is focused and _inside(target, combo):
                continue  # the arrow of the combo box whose text is being typed
            finish_typing(focused)

    @guarded("applying a typed value")
    def _finish(self) -> None:
        finish_typing()

    @guarded("applying a typed value")
    def _finish_cell(self, editor: QWidget) -> None:
        finish_typing(editor)


_filter: Optional[_FinishTypingFirst] = None


def install(app: Optional[QApplication] = None) -> None:
    """Make every press and shortcut of ``app`` (default: the running application) finish the typing first.

    Installing again does nothing.
    """
    global _filter
    app = app if app is not None else QApplication.instance()
    if app is None or (_filter is not None and shiboken6.isValid(_filter) and _filter.parent() is app):
        return
    _filter = _FinishTypingFirst(app)
    app.installEventFilter(_filter)
