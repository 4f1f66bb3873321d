"""The Object Types editor (Tiled's Custom Types Editor): the level's types, their colours and defaults.

A type is what an object is in the game ("enemy", "door"): a name, a colour the
canvas shows it in and default properties every object of the type has until it
gets its own value. Each change here is one undo command on the level's types:
adding, renaming (every object of the type follows, in the same step),
recolouring, deleting, and each edit of a default property.

Deleting a type that objects use asks first, and leaves those objects with the
type's name: nothing about them is lost, and Check warns about the missing type
until it is added back (or undone) or the objects get another type.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QColorDialog, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QListWidget,
    QListWidgetItem, QMessageBox, QPushButton, QSizePolicy, QSplitter, QVBoxLayout, QWidget,
)

from level_editor.core.level.document import Change, ChangeKind
from level_editor.core.level.kinds import plural
from level_editor.core.level.model import ObjectType, unique_id
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.guard import guarded
from level_editor.core.level.limits import MAX_NAME_LENGTH, name_shape_problem
from level_editor.editor.panels.properties_table import PROBLEM_STYLE, CanvasPicker, PropertiesTable, swatch
from level_editor.editor.panels.value_field import ValueField, checked_text
from level_editor.editor.commands.properties import ChangeTypesCommand, TypeProperties
from level_editor.editor.support.subscriptions import subscribe_while_alive

__all__ = ["TypesEditor", "type_name_problem", "NEW_TYPE_COLORS", "DELETE_NOTE"]

#: Colours new types get in turn: distinct on the dark canvas and from each other.
NEW_TYPE_COLORS = ("#e0503c", "#3c8ce0", "#40c070", "#e0b030", "#a060e0", "#30c0c0", "#e070b0", "#90a040")

DELETE_NOTE = ("Deleting a type leaves its objects with the type's name: nothing is lost, and Check warns "
               "about them until the type is back or they get another one.")


def type_name_problem(name: str, taken) -> Optional[str]:
    """Why ``name`` cannot be a type's name, or None.

    >>> type_name_problem("", []), type_name_problem("enemy", ["enemy"]), type_name_problem("boss", ["enemy"])
    ('a type needs a name', 'there is already a type called enemy', None)
    """
    if (problem := name_shape_problem(name, "type")) is not None:
        return problem
    return f"there is already a type called {name}" if name in taken else None


class TypesEditor(QDialog):
    """The level's object types: a list on the left, the chosen type's name, colour and defaults on the right.

    ``choose_color(initial, title) -> QColor`` (invalid when cancelled) and
    ``ask_delete_used(name, ids) -> bool`` are the questions it asks; tests
    replace them.
    """

    def __init__(self, context: EditorContext, parent=None):
        super().__init__(parent)
        self.setObjectName("typesEditor")
        self.setWindowTitle("Object Types")
        self._ctx = context
        self._doc = context.document
        self._current = ""
        self._stale = False
        self.choose_color: Callable[[QColor, str], QColor] = \
            lambda initial, title: QColorDialog.getColor(initial, self, title)
        self.ask_delete_used: Callable[[str, list], bool] = self._ask_delete_used

        self.type_list = QListWidget()
        self.type_list.setObjectName("typeList")
        self.type_list.currentRowChanged.connect(lambda row: self._row_chosen(row))
        self.add_button = QPushButton("Add Type")
        self.add_button.setObjectName("addType")
        self.add_button.clicked.connect(lambda checked=False: self.add_type())
        self.delete_button = QPushButton("Delete Type")
        self.delete_button.setObjectName("deleteType")
        self.delete_button.setToolTip(DELETE_NOTE)
        self.delete_button.clicked.connect(lambda checked=False: self.delete_type())
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.type_list)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.delete_button)
        lv.addLayout(buttons)

        self.name_field = ValueField("typeName", checked_text(self._name_problem))
        self.name_field.setMaxLength(MAX_NAME_LENGTH)
        self.name_field.committed.connect(lambda name: self._renamed(name))
        self.name_field.problem_changed.connect(lambda text: self._show_problem(text))
        self.color_button = QPushButton()
        self.color_button.setObjectName("typeColor")
        self.color_button.setToolTip("The colour objects of this type are drawn in")
        self.color_button.clicked.connect(lambda checked=False: self.change_color())
        self.color_button.setSizePolicy(QSizePolicy.Maximum, QSizePolicy.Fixed)
        self.color_button.setMinimumWidth(110)
        self.problem = QLabel()
        self.problem.setObjectName("typeProblem")
        self.problem.setStyleSheet(PROBLEM_STYLE)
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.picker = CanvasPicker(context, self)
        self.properties = PropertiesTable(self._doc, self.picker)
        self.properties.setObjectName("typeProperties")
        self._source = TypeProperties(context, lambda: self._current)
        self.uses = QLabel()
        self.uses.setObjectName("typeUses")
        self.uses.setWordWrap(True)
        self.uses.setStyleSheet("color: #707070;")
        right = QWidget()
        form = QFormLayout(right)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Name", self.name_field)
        form.addRow("", self.problem)
        form.addRow("Colour", self.color_button)
        form.addRow("Used by", self.uses)
        defaults = QLabel("Default properties")
        defaults.setStyleSheet("font-weight: bold; padding-top: 8px;")
        form.addRow(defaults)
        form.addRow(self.properties)
        self._right = right

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([180, 420])
        note = QLabel(DELETE_NOTE)
        note.setObjectName("deleteNote")
        note.setWordWrap(True)
        note.setStyleSheet("color: #707070;")
        close = QDialogButtonBox(QDialogButtonBox.Close)
        close.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(note)
        layout.addWidget(close)
        # Enter in a field applies it; it must not also press a button (a dialog's default would add a type or close)
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)
            button.setDefault(False)
        self.resize(640, 420)

        subscribe_while_alive(self._doc, self, self._on_document_changed)
        self.refresh()

    # -- reading ----------------------------------------------------------------------------------------
    @property
    def current(self) -> str:
        """The name of the type shown on the right (``""`` when the level has none)."""
        return self._current

    def names(self) -> list[str]:
        return [t.name for t in self._doc.level.types]

    def select(self, name: str) -> None:
        """Show type ``name``."""
        self._current = name
        self.refresh()

    @guarded("showing the object types")
    def _on_document_changed(self, change: Change) -> None:
        if change.kind is ChangeKind.CHANGED and all(o.type == n.type and o.id == n.id
                                                     for o, n in zip(change.old, change.objects)):
            return  # a move: who uses which type is as shown
        if change.kind in (ChangeKind.TYPES, ChangeKind.RESET, ChangeKind.CHANGED, ChangeKind.ADDED,
                           ChangeKind.REMOVED):
            if self.isVisible():
                self.refresh()
            else:
                self._stale = True  # a drag with the editor closed costs nothing here

    @guarded("showing the object types")
    def showEvent(self, event) -> None:
        if self._stale:
            self._stale = False
            self.refresh()
        super().showEvent(event)

    def refresh(self) -> None:
        types = self._doc.level.types
        names = [t.name for t in types]
        if self._current not in names:
            # the current type went (undo of an add, a rename undone): keep the same place in the list
            row = min(max(self.type_list.currentRow(), 0), len(names) - 1)
            self._current = names[row] if names else ""
        self.type_list.blockSignals(True)
        self.type_list.clear()
        for t in types:
            item = QListWidgetItem(swatch(t.color), t.name)
            item.setData(Qt.UserRole, t.name)
            self.type_list.addItem(item)
        self.type_list.setCurrentRow(names.index(self._current) if self._current else -1)
        self.type_list.blockSignals(False)
        current = self._doc.level.object_type(self._current)
        self._right.setEnabled(current is not None)
        self.delete_button.setEnabled(current is not None)
        self.name_field.show_value(current.name if current else "")
        color = current.color if current else "#a0a0a0"
        self.color_button.setIcon(swatch(color, 16))
        self.color_button.setText(color)
        users = self._users(self._current)
        self.uses.setText(plural(len(users), "object") + (": " + ", ".join(users[:6]) if users else "")
                          + ("…" if len(users) > 6 else ""))
        wanted = self._source if current is not None else None
        if self.properties.source is not wanted:
            self.properties.set_source(wanted)
        else:
            self.properties.refresh()

    def _users(self, name: str) -> list[str]:
        return [o.id for o in self._doc.objects if o.type == name] if name else []

    @guarded("choosing a type")
    def _row_chosen(self, row: int) -> None:
        names = self.names()
        if 0 <= row < len(names) and names[row] != self._current:
            self.picker.cancel()
            self._current = names[row]
            self.properties.show_problem("")
            self._show_problem("")
            self.refresh()

    def _show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    # -- editing (one undo step each) ----------------------------------------------------------------------
    def _push(self, types, label: str, objects=None) -> None:
        self._ctx.push(ChangeTypesCommand(self._doc, types, label, objects))

    @guarded("adding a type")
    def add_type(self) -> None:
        """A new type, ``type-1`` (or the next free number), in the next colour; its name is ready to type over."""
        types = self._doc.level.types
        name = unique_id("type", {t.name for t in types})
        color = NEW_TYPE_COLORS[len(types) % len(NEW_TYPE_COLORS)]
        self._current = name
        self._push([*types, ObjectType(name, color, {})], f"Add type {name}")
        self.refresh()
        self.name_field.setFocus(Qt.OtherFocusReason)
        self.name_field.selectAll()

    def _name_problem(self, name: str) -> Optional[str]:
        return None if name == self._current else type_name_problem(name, self.names())

    @guarded("renaming a type")
    def _renamed(self, name: str) -> None:
        self.rename_type(self._current, name)

    def rename_type(self, old: str, new: str) -> None:
        """Rename a type and every object that has it, in one undo step."""
        if old == new or self._doc.level.object_type(old) is None:
            return
        problem = type_name_problem(new, self.names())
        if problem is not None:
            self._show_problem(problem)
            return
        types = [replace(t, name=new) if t.name == old else t for t in self._doc.level.types]
        users = [o for o in self._doc.objects if o.type == old]
        self._current = new
        self._push(types, f"Rename type {old} to {new}", (users, [replace(o, type=new) for o in users]))
        self.refresh()

    @guarded("changing a type's colour")
    def change_color(self) -> None:
        current = self._doc.level.object_type(self._current)
        if current is None:
            return
        chosen = self.choose_color(QColor(current.color), f"Colour of type {current.name}")
        if chosen is None or not chosen.isValid():
            return
        color = chosen.name()  # #rrggbb
        if color == current.color:
            return
        types = [replace(t, color=color) if t.name == current.name else t for t in self._doc.level.types]
        self._push(types, f"Change colour of type {current.name}")
        self.refresh()

    @guarded("deleting a type")
    def delete_type(self) -> None:
        """Delete the current type; objects that use it keep its name (asked first)."""
        name = self._current
        if self._doc.level.object_type(name) is None:
            return
        users = self._users(name)
        if users and not self.ask_delete_used(name, users):
            return
        self.picker.cancel()
        self._push([t for t in self._doc.level.types if t.name != name], f"Delete type {name}")
        self.refresh()

    def _ask_delete_used(self, name: str, ids: list) -> bool:
        listed = ", ".join(ids[:8]) + ("…" if len(ids) > 8 else "")
        answer = QMessageBox.question(
            self, "Delete Type",
            f"{plural(len(ids), 'object')} use type {name} ({listed}).\n\n"
            f"Delete the type anyway? They keep the name {name}, and Check warns about them until the type "
            "is back or they get another one.",
            QMessageBox.Yes | QMessageBox.Cancel, QMessageBox.Cancel)
        return answer == QMessageBox.Yes

    @guarded("closing the object types")
    def closeEvent(self, event) -> None:
        self.picker.cancel()
        super().closeEvent(event)
