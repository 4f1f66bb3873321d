"""The custom properties table: name, type and value of each property, with add, remove and reset.

One widget shows the properties of whatever a :class:`PropertySource` stands for:
selected objects (:class:`ObjectProperties`), the level (:class:`LevelProperties`)
or an object type's defaults (:class:`TypeProperties`, in the Types editor). The
source turns every edit into one undo command with a readable label ("Set
health of goblin-1 to 5"); the table only shows and asks.

Values keep their type: typing ``3`` into an integer property stores the int
``3``, into a float property ``3.0``. A value that is not of the property's type
is refused with a message in red under the table; Esc puts back the value that
was there. A property an object takes from its type is shown greyed and in
italics, marked with the type's name, until the object gets its own value; the
reset button (or the context menu) removes that own value again.

An object reference is chosen from the list of the level's objects, or by
clicking the object on the canvas (:class:`CanvasPicker`: the next click picks,
Esc cancels, the active tool never sees that click).

>>> parse_value("integer", "3", "health"), parse_value("float", "3", "speed")
(3, 3.0)
>>> parse_value("integer", "1.5", "health")
Traceback (most recent call last):
ValueError: health must be a whole number
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Optional

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QKeySequence, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QMenu,
    QSizePolicy, QTableWidget, QTableWidgetItem, QToolButton, QVBoxLayout, QWidget,
)

from core.level.model import Ref
from editor.commands import ChangeLevelPropertiesCommand, ChangeObjectsCommand
from editor.property_commands import ChangeTypesCommand, same_values
from editor.selection import Selection

__all__ = [
    "PROPERTY_KINDS", "KIND_NAMES", "kind_of", "default_for", "value_text", "parse_value", "name_problem",
    "PropertyRow", "PropertySource", "ObjectProperties", "LevelProperties", "TypeProperties",
    "PropertiesTable", "CanvasPicker", "INVALID_STYLE", "PROBLEM_STYLE", "swatch",
]

#: The kinds of value a custom property holds, in the order the "add" list offers them.
PROPERTY_KINDS = ("string", "integer", "float", "boolean", "object")
#: Their names as a designer reads them.
KIND_NAMES = {"string": "string", "integer": "integer", "float": "float", "boolean": "boolean",
              "object": "object reference"}
#: The short names the table's Type column shows (the column is narrow in a docked inspector).
_KIND_SHORT = {"string": "string", "integer": "integer", "float": "float", "boolean": "boolean", "object": "object"}

INVALID_STYLE = "QLineEdit { border: 2px solid #d03030; background: #fff0f0; }"
PROBLEM_STYLE = "color: #c02020; font-weight: bold;"
_INHERITED_COLOR = "#8a8a8a"
NONE_TEXT = "(none)"


# -- values ------------------------------------------------------------------------------------------------
def kind_of(value) -> str:
    """The kind of a property value (``bool`` before ``int``: ``True`` is a boolean, not the number 1).

    >>> [kind_of(v) for v in ("a", 3, 3.0, True, Ref("x"))]
    ['string', 'integer', 'float', 'boolean', 'object']
    """
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, Ref):
        return "object"
    return "string"


def default_for(kind: str):
    """The value a new property of ``kind`` starts with."""
    return {"string": "", "integer": 0, "float": 0.0, "boolean": False, "object": Ref("")}[kind]


def value_text(value) -> str:
    """A value as the table and the undo labels show it; a float always looks like one.

    >>> value_text(3), value_text(3.0), value_text(0.1 + 0.2), value_text(True), value_text(Ref(""))
    ('3', '3.0', '0.3', 'true', '(none)')
    """
    kind = kind_of(value)
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "object":
        return value.id or NONE_TEXT
    if kind == "float":
        text = f"{value:.10g}"
        return text if any(c in text for c in ".enai") else text + ".0"
    return str(value)


def parse_value(kind: str, text: str, name: str):
    """The value typed as ``text`` into a property ``name`` of ``kind``; ValueError says why it is refused.

    >>> parse_value("float", "1e999", "speed")
    Traceback (most recent call last):
    ValueError: speed must be a finite number
    >>> parse_value("boolean", "yes", "night")
    Traceback (most recent call last):
    ValueError: night must be true or false
    """
    t = text.strip()
    if kind == "string":
        return text
    if kind == "integer":
        if not re.fullmatch(r"[+-]?\d+", t):
            raise ValueError(f"{name} must be a whole number")
        return int(t)
    if kind == "float":
        try:
            v = float(t)
        except ValueError:
            raise ValueError(f"{name} must be a number") from None
        if not math.isfinite(v):
            raise ValueError(f"{name} must be a finite number")
        return v
    if kind == "boolean":
        if t.lower() in ("true", "false"):
            return t.lower() == "true"
        raise ValueError(f"{name} must be true or false")
    if kind == "object":
        return Ref("" if t == NONE_TEXT else t)
    raise ValueError(f"unknown kind of property: {kind}")


def name_problem(name: str, taken, subject: str) -> Optional[str]:
    """Why ``name`` cannot be a new property's name, or None.

    >>> name_problem(" ", [], "gate"), name_problem("hp", ["hp"], "gate"), name_problem("hp", [], "gate")
    ('a property needs a name', 'gate already has a property called hp', None)
    """
    if not name.strip():
        return "a property needs a name"
    if name != name.strip():
        return "a property's name cannot start or end with a space"
    if name in taken:
        return f"{subject} already has a property called {name}"
    return None


def swatch(color: str, size: int = 14) -> QIcon:
    """A small square of ``color`` (``#rrggbb``) with a dark edge: a type's colour in lists of types."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.transparent)
    p = QPainter(pixmap)
    p.setPen(QColor("#202020"))
    p.setBrush(QColor(color))
    p.drawRect(0, 0, size - 1, size - 1)
    p.end()
    return QIcon(pixmap)


def _natural_key(text: str):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


# -- what the table shows --------------------------------------------------------------------------------
@dataclass(frozen=True)
class PropertyRow:
    """One line of the table.

    own
        Some object shown has its own value (not only its type's default).
    has_default / default / origin
        A type gives this property a default (``origin`` names the type).
    mixed
        The objects shown hold different values (several selected).
    """

    name: str
    value: object
    own: bool = True
    has_default: bool = False
    default: object = None
    origin: str = ""
    mixed: bool = False

    @property
    def kind(self) -> str:
        return kind_of(self.value)

    @property
    def inherited(self) -> bool:
        """Shown from the type: no object has its own value yet."""
        return self.has_default and not self.own

    @property
    def overridden(self) -> bool:
        return self.has_default and self.own

    @property
    def removable(self) -> bool:
        """Only a property of the object itself can be removed; a type's property is reset instead."""
        return not self.has_default


class PropertySource:
    """What a properties table edits; every edit is one undo command pushed on ``context``."""

    #: The subject of the undo labels: "goblin-1", "level", "type enemy", "3 objects".
    subject = ""

    def __init__(self, context):
        self.context = context
        self.document = context.document

    def rows(self) -> list[PropertyRow]:
        raise NotImplementedError

    def names(self) -> list[str]:
        return [r.name for r in self.rows()]

    def set_value(self, name: str, value) -> None:
        raise NotImplementedError

    def add(self, name: str, value) -> None:
        raise NotImplementedError

    def remove(self, name: str) -> None:
        raise NotImplementedError

    def rename(self, old: str, new: str) -> None:
        raise NotImplementedError

    def reset(self, name: str) -> None:
        """Back to the type's default (only objects have one)."""

    # labels shared by every source
    def _set_label(self, name: str, value) -> str:
        return f"Set {name} of {self.subject} to {value_text(value)}"

    def _add_label(self, name: str) -> str:
        return f"Add property {name} to {self.subject}"

    def _remove_label(self, name: str) -> str:
        return f"Remove property {name} from {self.subject}"

    def _rename_label(self, old: str, new: str) -> str:
        return f"Rename property {old} of {self.subject} to {new}"


def _renamed_key(properties: Mapping, old: str, new: str) -> dict:
    """``properties`` with the key ``old`` called ``new``, in the same place."""
    return {(new if k == old else k): v for k, v in properties.items()}


class _DictSource(PropertySource):
    """A source backed by one dict of properties (the level's, a type's defaults)."""

    def _read(self) -> Mapping:
        raise NotImplementedError

    def _write(self, properties: dict, label: str) -> None:
        raise NotImplementedError

    def rows(self) -> list[PropertyRow]:
        return [PropertyRow(k, v) for k, v in self._read().items()]

    def set_value(self, name: str, value) -> None:
        old = self._read()
        if name not in old or same_values({name: old[name]}, {name: value}):
            return
        self._write({**old, name: value}, self._set_label(name, value))

    def add(self, name: str, value) -> None:
        old = self._read()
        if name not in old:
            self._write({**old, name: value}, self._add_label(name))

    def remove(self, name: str) -> None:
        old = self._read()
        if name in old:
            self._write({k: v for k, v in old.items() if k != name}, self._remove_label(name))

    def rename(self, old_name: str, new_name: str) -> None:
        old = self._read()
        if old_name in old and new_name not in old:
            self._write(_renamed_key(old, old_name, new_name), self._rename_label(old_name, new_name))


class LevelProperties(_DictSource):
    """The level's own custom properties."""

    subject = "level"

    def _read(self) -> Mapping:
        return self.document.level.properties

    def _write(self, properties: dict, label: str) -> None:
        self.context.push(ChangeLevelPropertiesCommand(self.document, label, properties=properties))


class TypeProperties(_DictSource):
    """An object type's default properties; ``name()`` says which type (the Types editor's current one)."""

    def __init__(self, context, name: Callable[[], str]):
        super().__init__(context)
        self._name = name

    @property
    def subject(self) -> str:
        return f"type {self._name()}"

    def _read(self) -> Mapping:
        t = self.document.level.object_type(self._name())
        return t.properties if t is not None else {}

    def _write(self, properties: dict, label: str) -> None:
        name = self._name()
        types = [replace(t, properties=properties) if t.name == name else t for t in self.document.level.types]
        self.context.push(ChangeTypesCommand(self.document, types, label))


class ObjectProperties(PropertySource):
    """The custom properties of one or several objects: their types' defaults overlaid with their own.

    With several objects the table shows the properties they all have, and an
    edit sets it on all of them in one undo step.
    """

    def __init__(self, context, ids):
        super().__init__(context)
        self.ids = list(ids)

    @property
    def subject(self) -> str:
        return self.ids[0] if len(self.ids) == 1 else f"{len(self.ids)} objects"

    def objects(self) -> list:
        return [o for o in (self.document.get(i) for i in self.ids) if o is not None]

    def rows(self) -> list[PropertyRow]:
        objs = self.objects()
        if not objs:
            return []
        level = self.document.level
        merged = [level.properties_of(o) for o in objs]
        types = [level.object_type(o.type) for o in objs]
        rows = []
        for name in merged[0]:
            if not all(name in m for m in merged[1:]):
                continue
            values = [m[name] for m in merged]
            origins = list(dict.fromkeys(t.name for t in types if t is not None and name in t.properties))
            default = next((t.properties[name] for t in types if t is not None and name in t.properties), None)
            rows.append(PropertyRow(
                name, values[0], own=any(name in o.properties for o in objs), has_default=bool(origins),
                default=default, origin=", ".join(origins),
                mixed=any(not same_values({name: v}, {name: values[0]}) for v in values[1:])))
        return rows

    def _change(self, edit: Callable, label: str) -> None:
        """``edit(object, merged properties) -> new own properties or None`` for each object; one command."""
        level = self.document.level
        old, new = [], []
        for obj in self.objects():
            own = edit(obj, level.properties_of(obj))
            if own is not None and not same_values(own, obj.properties):
                old.append(obj)
                new.append(replace(obj, properties=own))
        if new:
            self.context.push(ChangeObjectsCommand(self.document, old, new, label))

    def set_value(self, name: str, value) -> None:
        def edit(obj, merged):
            if name in merged and same_values({name: merged[name]}, {name: value}):
                return None
            return {**obj.properties, name: value}

        self._change(edit, self._set_label(name, value))

    def add(self, name: str, value) -> None:
        self._change(lambda obj, merged: None if name in merged else {**obj.properties, name: value},
                     self._add_label(name))

    def remove(self, name: str) -> None:
        self._change(lambda obj, merged: {k: v for k, v in obj.properties.items() if k != name},
                     self._remove_label(name))

    def rename(self, old_name: str, new_name: str) -> None:
        self._change(lambda obj, merged: _renamed_key(obj.properties, old_name, new_name)
                     if old_name in obj.properties and new_name not in merged else None,
                     self._rename_label(old_name, new_name))

    def reset(self, name: str) -> None:
        level = self.document.level
        origins = list(dict.fromkeys(o.type for o in self.objects()))
        whose = f"type {origins[0]}" if len(origins) == 1 else "their types"

        def edit(obj, merged):
            t = level.object_type(obj.type)
            if t is None or name not in t.properties or name not in obj.properties:
                return None
            return {k: v for k, v in obj.properties.items() if k != name}

        self._change(edit, f"Reset {name} of {self.subject} to the default of {whose}")


# -- picking an object on the canvas -----------------------------------------------------------------------
class CanvasPicker(QObject):
    """Makes the next left click on the canvas choose an object, once; Esc (anywhere) or a right click cancels.

    It filters the scene's mouse events for that one click, so the active tool
    never sees it and stays the active tool. ``finished`` is emitted when
    picking ends, picked or not.
    """

    finished = Signal()

    #: How near (screen pixels) a click must be to an object to pick it.
    PICK_PIXELS = 4

    def __init__(self, context, parent=None):
        super().__init__(parent)
        self._ctx = context
        self._on_pick: Optional[Callable[[str], None]] = None
        self._swallow_release = False
        self._cursors: list = []

    @property
    def active(self) -> bool:
        return self._on_pick is not None

    def can_pick(self) -> bool:
        """Whether there is a canvas to click on (a bare scene in a test has no ``object_at``)."""
        return hasattr(self._ctx.scene, "object_at")

    #: The picker waiting for a click, if any: one at a time (the inspector's and the Types editor's).
    _waiting: Optional["CanvasPicker"] = None

    def start(self, on_pick: Callable[[str], None], hint: str = "") -> None:
        """Wait for a click on an object; ``on_pick(id)`` is called with it."""
        self.cancel()
        other = CanvasPicker._waiting
        if other is not None:
            try:
                other.cancel()
            except RuntimeError:  # its widget is gone
                CanvasPicker._waiting = None
        CanvasPicker._waiting = self
        self._on_pick = on_pick
        scene = self._ctx.scene
        scene.installEventFilter(self)
        QApplication.instance().installEventFilter(self)
        for view in scene.views():
            self._cursors.append((view.viewport(), view.viewport().cursor()))
            view.viewport().setCursor(Qt.PointingHandCursor)
        self._ctx.message.emit(hint or "Click an object on the canvas to choose it (Esc cancels)")

    def cancel(self) -> None:
        if self._on_pick is not None:
            self._stop()
            self._ctx.message.emit("Picking cancelled")

    def _stop(self) -> None:
        self._on_pick = None
        if CanvasPicker._waiting is self:
            CanvasPicker._waiting = None
        QApplication.instance().removeEventFilter(self)
        if not self._swallow_release:
            self._ctx.scene.removeEventFilter(self)
        for viewport, cursor in self._cursors:
            viewport.setCursor(cursor)
        self._cursors = []
        self.finished.emit()

    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if kind == QEvent.KeyPress and event.key() == Qt.Key_Escape and self.active:
            self.cancel()
            return True
        if watched is not self._ctx.scene:
            return False
        if kind == QEvent.GraphicsSceneMouseRelease and self._swallow_release:
            self._swallow_release = False
            if not self.active:
                self._ctx.scene.removeEventFilter(self)
            return True
        if not self.active:
            return False
        if kind == QEvent.GraphicsSceneMousePress:
            self._swallow_release = True
            if event.button() != Qt.LeftButton:
                self.cancel()
                return True
            found = self._ctx.scene.object_at(event.scenePos(), self.PICK_PIXELS * self._ctx.scale())
            if found is None or found == Selection.PLAYER:
                self._ctx.message.emit("No object there: click an object, or press Esc to cancel")
                return True
            on_pick = self._on_pick
            self._stop()
            on_pick(found)
            return True
        if kind == QEvent.GraphicsSceneMouseDoubleClick:
            return True
        return False


# -- the widgets in the Value column -------------------------------------------------------------------------
class PropertyField(QLineEdit):
    """A typed value (string, integer, float): checked as it is typed, applied on Enter or when left.

    Esc puts back the value that was shown. ``problem_changed(text)`` reports why
    the text is refused (``""`` when it is fine).
    """

    committed = Signal(object)
    problem_changed = Signal(str)

    def __init__(self, name: str, kind: str, parent=None):
        super().__init__(parent)
        self.name = name
        self.kind = kind
        self.setObjectName(f"value:{name}")
        self.setFrame(False)  # a cell of the table, as in Tiled's property browser
        self._shown = ""
        self._base_style = ""
        self.problem: Optional[str] = None
        self.textEdited.connect(self._check)
        self.editingFinished.connect(self._finished)

    def show_value(self, text: str, placeholder: str = "") -> None:
        """Show the model's value, unless the user is typing into this field."""
        if self.hasFocus() and self.isModified():
            return
        self._shown = text
        self.setPlaceholderText(placeholder)
        if self.text() != text:
            self.setText(text)
        self.setModified(False)
        self._set_problem(None)

    def set_base_style(self, style: str) -> None:
        """The look while the text is fine (greyed and italic for a type's default)."""
        self._base_style = style
        if self.problem is None:
            self.setStyleSheet(style)

    def _parse(self):
        return parse_value(self.kind, self.text(), self.name)

    def _set_problem(self, problem: Optional[str]) -> None:
        if problem == self.problem:
            return
        self.problem = problem
        self.setStyleSheet(INVALID_STYLE if problem else self._base_style)
        self.problem_changed.emit(problem or "")

    def _check(self, *_):
        try:
            self._parse()
        except ValueError as e:
            self._set_problem(str(e))
        else:
            self._set_problem(None)

    def _finished(self):
        if not self.isModified():
            return
        try:
            value = self._parse()
        except ValueError as e:
            if not self.hasFocus():
                # left with a refused value: the shown value comes back, the message stays to say why
                message = str(e) + " (not applied)"
                self.setText(self._shown)
                self.setModified(False)
                self.setStyleSheet(self._base_style)
                self.problem = None
                self.problem_changed.emit(message)
            return
        self.setModified(False)
        self.committed.emit(value)

    def restore(self) -> None:
        """Put back the value that was shown (Esc)."""
        self.setText(self._shown)
        self.setModified(False)
        self._set_problem(None)
        self.problem_changed.emit("")

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Escape:
            self.restore()
            event.accept()
            return
        super().keyPressEvent(event)


class RefCombo(QComboBox):
    """An object reference: "(none)" or one of the level's objects; the list is filled when it opens."""

    def __init__(self, name: str, document, parent=None):
        super().__init__(parent)
        self.setObjectName(f"value:{name}")
        self.name = name
        self._doc = document
        self._ref = ""
        self._mixed = False
        self.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(4)
        self.setFocusPolicy(Qt.StrongFocus)
        self.show_ref("")

    def show_ref(self, ref: str, mixed: bool = False) -> None:
        """Show ``ref`` as the only entry besides "(none)" (cheap: no list of every object until it opens)."""
        if (ref, mixed) == (self._ref, self._mixed) and self.count():
            return
        self._ref, self._mixed = ref, mixed
        self.blockSignals(True)
        self.clear()
        self.addItem(NONE_TEXT, "")
        if mixed:
            self.insertItem(0, "(different)", None)
            self.setCurrentIndex(0)
        elif ref:
            missing = ref not in self._doc
            self.addItem(f"{ref} (missing)" if missing else ref, ref)
            self.setCurrentIndex(1)
        self.blockSignals(False)

    def fill(self) -> None:
        """Every object of the level in the list (natural order: goblin-2 before goblin-10)."""
        current = self.currentData()
        ids = sorted((o.id for o in self._doc.objects), key=_natural_key)
        self.blockSignals(True)
        self.clear()
        self.addItem(NONE_TEXT, "")
        for oid in ids:
            self.addItem(oid, oid)
        if current and current not in ids:
            self.addItem(f"{current} (missing)", current)
        index = self.findData(current) if current is not None else -1
        self.setCurrentIndex(max(index, 0) if current is not None else -1)
        self.blockSignals(False)

    def showPopup(self) -> None:
        self.fill()
        super().showPopup()

    def focusInEvent(self, event) -> None:
        if self.count() <= 2:
            self.fill()
        super().focusInEvent(event)

    def wheelEvent(self, event) -> None:
        # scrolling the inspector past a reference must not change it
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class _Table(QTableWidget):
    """The table itself: Delete removes the current property instead of the selected objects."""

    delete_pressed = Signal()

    def event(self, event) -> bool:
        if event.type() == QEvent.ShortcutOverride and event.key() in (Qt.Key_Delete, Qt.Key_Backspace):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Delete, Qt.Key_Backspace) and self.state() != QAbstractItemView.EditingState:
            self.delete_pressed.emit()
            event.accept()
            return
        super().keyPressEvent(event)


NAME, KIND, VALUE, FROM = range(4)

_pick_icon_made: Optional[QIcon] = None


def _pick_icon() -> QIcon:
    """A small crosshair: "click the object on the canvas" (drawn once; no font has one everywhere)."""
    global _pick_icon_made
    if _pick_icon_made is None:
        pixmap = QPixmap(32, 32)
        pixmap.fill(Qt.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.Antialiasing)
        p.setPen(QPen(QColor("#303030"), 3))
        p.drawEllipse(QRectF(7, 7, 18, 18))
        for a, b in (((16, 1), (16, 11)), ((16, 21), (16, 31)), ((1, 16), (11, 16)), ((21, 16), (31, 16))):
            p.drawLine(QPointF(*a), QPointF(*b))
        p.end()
        _pick_icon_made = QIcon(pixmap)
    return _pick_icon_made


class PropertiesTable(QWidget):
    """Name, type and value of each custom property of a :class:`PropertySource`, with add, remove and reset.

    ``pick`` (optional) is a :class:`CanvasPicker`: each reference then has a
    "Pick" button that chooses the object by clicking it on the canvas.
    """

    def __init__(self, document, picker: Optional[CanvasPicker] = None, parent=None):
        super().__init__(parent)
        self.setObjectName("propertiesTable")
        self._doc = document
        self._picker = picker
        self._source: Optional[PropertySource] = None
        self._rows: list[PropertyRow] = []
        self._shape: tuple = ()
        self._editors: dict[str, QWidget] = {}
        self._pick_buttons: dict[str, QToolButton] = {}
        self._filling = False

        self.table = _Table(0, 4, self)
        self.table.setObjectName("properties")
        self.table.setHorizontalHeaderLabels(["Name", "Type", "Value", "From"])
        self.table.horizontalHeaderItem(FROM).setToolTip(
            "The type a default comes from: greyed values are the type's until the object gets its own; "
            "↺ puts the type's default back")
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.table.setWordWrap(False)
        self.table.setContextMenuPolicy(Qt.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.itemChanged.connect(self._name_edited)
        self.table.currentCellChanged.connect(lambda *_: self._update_buttons())
        self.table.delete_pressed.connect(self.remove_current)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.Interactive)
        header.setSectionResizeMode(KIND, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(VALUE, QHeaderView.Stretch)
        header.setSectionResizeMode(FROM, QHeaderView.ResizeToContents)
        header.setMinimumSectionSize(24)
        header.setHighlightSections(False)
        self.table.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)

        self.problem = QLabel()
        self.problem.setObjectName("propertyProblem")
        self.problem.setStyleSheet(PROBLEM_STYLE)
        self.problem.setWordWrap(True)
        self.problem.hide()

        self.new_name = QLineEdit()
        self.new_name.setObjectName("newPropertyName")
        self.new_name.setPlaceholderText("new property")
        self.new_name.returnPressed.connect(self.add_typed)
        self.new_name.textEdited.connect(lambda *_: self.show_problem(""))
        self.new_kind = QComboBox()
        self.new_kind.setObjectName("newPropertyKind")
        for kind in PROPERTY_KINDS:
            self.new_kind.addItem(KIND_NAMES[kind], kind)
        self.add_button = QToolButton()
        self.add_button.setObjectName("addProperty")
        self.add_button.setText("+")
        self.add_button.setToolTip("Add a property of this name and type")
        self.add_button.clicked.connect(self.add_typed)
        self.remove_button = QToolButton()
        self.remove_button.setObjectName("removeProperty")
        self.remove_button.setText("−")
        self.remove_button.setToolTip("Remove the selected property")
        self.remove_button.clicked.connect(self.remove_current)
        add_row = QHBoxLayout()
        add_row.setContentsMargins(0, 0, 0, 0)
        add_row.addWidget(self.new_name, 3)
        add_row.addWidget(self.new_kind, 2)
        add_row.addWidget(self.add_button)
        add_row.addWidget(self.remove_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.table)
        layout.addWidget(self.problem)
        layout.addLayout(add_row)
        if picker is not None:
            picker.finished.connect(self._pick_finished)
        self._fit_height()

    # -- reading ----------------------------------------------------------------------------------------
    @property
    def source(self) -> Optional[PropertySource]:
        return self._source

    def set_source(self, source: Optional[PropertySource]) -> None:
        self._source = source
        self._shape = None
        self.show_problem("")
        self.refresh()

    def rows(self) -> list[PropertyRow]:
        """What the table shows, top to bottom."""
        return list(self._rows)

    def row_of(self, name: str) -> int:
        return next(i for i, r in enumerate(self._rows) if r.name == name)

    def editor(self, name: str) -> QWidget:
        """The value widget of property ``name`` (a line edit, a check box or a reference list)."""
        return self._editors[name]

    def pick_button(self, name: str) -> QToolButton:
        return self._pick_buttons[name]

    def reset_button(self, name: str) -> QToolButton:
        return self.table.cellWidget(self.row_of(name), FROM)

    def problem_text(self) -> str:
        return "" if self.problem.isHidden() else self.problem.text()

    def show_problem(self, text: str) -> None:
        """Say in red, under the table, why an edit was refused (``""`` hides it)."""
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    # -- showing -------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the source's properties; widgets being typed into keep their text."""
        rows = self._source.rows() if self._source is not None else []
        shape = tuple((r.name, r.kind) for r in rows)
        if shape != self._shape:
            self._rebuild(rows)
            self._shape = shape
        else:
            for i, row in enumerate(rows):
                if row != self._rows[i]:
                    self._show_row(i, row, self._rows[i])
            self._rows = rows
        self._update_buttons()

    def _rebuild(self, rows: list[PropertyRow]) -> None:
        current = self._rows[self.table.currentRow()].name if 0 <= self.table.currentRow() < len(self._rows) else None
        self._filling = True
        self.table.setRowCount(0)  # the row widgets go with deleteLater: a rebuild may start in their signal
        self._editors = {}
        self._pick_buttons = {}
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            name_item = QTableWidgetItem(row.name)
            kind_item = QTableWidgetItem(_KIND_SHORT[row.kind])
            kind_item.setFlags(Qt.ItemIsEnabled | Qt.ItemIsSelectable)
            kind_item.setToolTip(KIND_NAMES[row.kind])
            self.table.setItem(i, NAME, name_item)
            self.table.setItem(i, KIND, kind_item)
            self.table.setCellWidget(i, VALUE, self._make_editor(row))
            self._show_row(i, row, None)
        self._filling = False
        self._rows = rows
        self._size_columns()
        self._fit_height()
        if current is not None and any(r.name == current for r in rows):
            self.table.setCurrentCell(self.row_of(current), NAME)

    def _make_editor(self, row: PropertyRow) -> QWidget:
        name, kind = row.name, row.kind
        if kind == "boolean":
            box = QCheckBox()
            box.setObjectName(f"value:{name}")
            box.clicked.connect(lambda on, n=name: self._commit(n, bool(on)))
            editor = box
        elif kind == "object":
            combo = RefCombo(name, self._doc)
            combo.activated.connect(lambda index, c=combo, n=name: self._commit_ref(n, c.itemData(index)))
            editor = combo
            if self._picker is not None and self._picker.can_pick():
                host = QWidget()
                h = QHBoxLayout(host)
                h.setContentsMargins(0, 0, 0, 0)
                h.setSpacing(2)
                h.addWidget(combo, 1)
                pick = QToolButton()
                pick.setObjectName(f"pick:{name}")
                pick.setIcon(_pick_icon())
                pick.setAutoRaise(True)
                pick.setCheckable(True)
                pick.setToolTip("Click an object on the canvas to choose it (Esc cancels)")
                pick.clicked.connect(lambda on, n=name: self._pick(n, on))
                h.addWidget(pick)
                self._pick_buttons[name] = pick
                self._editors[name] = combo
                return host
        else:
            field = PropertyField(name, kind)
            field.committed.connect(lambda value, n=name: self._commit(n, value))
            field.problem_changed.connect(self.show_problem)
            editor = field
        self._editors[name] = editor
        return editor

    def _show_row(self, i: int, row: PropertyRow, before: Optional[PropertyRow]) -> None:
        filling, self._filling = self._filling, True
        name_item = self.table.item(i, NAME)
        name_item.setText(row.name)
        font = QFont(self.table.font())
        font.setItalic(row.inherited)
        name_item.setFont(font)
        name_item.setForeground(self.palette().placeholderText() if row.inherited else self.palette().text())
        flags = Qt.ItemIsEnabled | Qt.ItemIsSelectable
        if row.removable and not row.mixed:
            flags |= Qt.ItemIsEditable
        name_item.setFlags(flags)
        tip = self._origin_tip(row)
        name_item.setToolTip(tip or "Double-click to rename")
        editor = self._editors[row.name]
        style = f"font-style: italic; color: {_INHERITED_COLOR};" if row.inherited else ""
        if isinstance(editor, PropertyField):
            editor.show_value("" if row.mixed else value_text(row.value), "(different)" if row.mixed else "")
            editor.set_base_style(f"QLineEdit {{ {style} }}" if style else "")
        elif isinstance(editor, QCheckBox):
            editor.setTristate(row.mixed)
            editor.setCheckState(Qt.PartiallyChecked if row.mixed else
                                 (Qt.Checked if row.value else Qt.Unchecked))
            editor.setText(value_text(row.value) if not row.mixed else "")
            editor.setStyleSheet(f"QCheckBox {{ {style} }}" if style else "")
        else:
            editor.show_ref(row.value.id, row.mixed)
            editor.setStyleSheet(f"QComboBox {{ {style} }}" if style else "")
        editor.setToolTip(tip)
        if before is None or (before.inherited, before.overridden, before.origin) != \
                (row.inherited, row.overridden, row.origin):
            self._show_origin(i, row)
        self._filling = filling

    @staticmethod
    def _origin_tip(row: PropertyRow) -> str:
        if row.inherited:
            return f"From type {row.origin}: type a value to give this object its own"
        if row.overridden:
            return f"Changed from the default of type {row.origin} ({value_text(row.default)})"
        return ""

    def _show_origin(self, i: int, row: PropertyRow) -> None:
        """The last column: the type a default comes from (greyed), or ↺ to go back to it."""
        self.table.removeCellWidget(i, FROM)
        self.table.setItem(i, FROM, None)
        if row.overridden:
            button = QToolButton()
            button.setObjectName(f"reset:{row.name}")
            button.setText(f"↺ {row.origin}")
            button.setAutoRaise(True)
            button.setToolTip(f"Reset {row.name} to the default of type {row.origin} ({value_text(row.default)})")
            button.clicked.connect(lambda *_, n=row.name: self.reset(n))
            self.table.setCellWidget(i, FROM, button)
        elif row.inherited:
            item = QTableWidgetItem(row.origin)
            item.setFlags(Qt.ItemIsEnabled | Qt.ItemIsSelectable)
            font = QFont(self.table.font())
            font.setItalic(True)
            item.setFont(font)
            item.setForeground(self.palette().placeholderText())
            item.setToolTip(self._origin_tip(row))
            self.table.setItem(i, FROM, item)
        self._size_columns()

    def _size_columns(self) -> None:
        header = self.table.horizontalHeader()
        has_origin = any(r.has_default for r in self._rows)
        self.table.setColumnHidden(FROM, not has_origin)
        metrics = self.table.fontMetrics()
        widest = max([metrics.horizontalAdvance(r.name) for r in self._rows] + [metrics.horizontalAdvance("Name")])
        header.resizeSection(NAME, min(widest + 16, 120))

    def _fit_height(self) -> None:
        """As tall as its rows: the inspector scrolls, not the table."""
        t = self.table
        height = t.horizontalHeader().sizeHint().height() + 2 * t.frameWidth()
        height += sum(t.rowHeight(i) for i in range(t.rowCount()))
        if t.rowCount() == 0:
            height += t.verticalHeader().defaultSectionSize()
        t.setFixedHeight(height)

    def _update_buttons(self) -> None:
        row = self._current_row()
        self.remove_button.setEnabled(row is not None and row.removable)
        if row is not None and not row.removable:
            self.remove_button.setToolTip(f"{row.name} comes from type {row.origin}: remove it there "
                                          "(Object Types…); ↺ resets this object's value")
        else:
            self.remove_button.setToolTip("Remove the selected property")
        enabled = self._source is not None
        for w in (self.new_name, self.new_kind, self.add_button):
            w.setEnabled(enabled)

    def _current_row(self) -> Optional[PropertyRow]:
        i = self.table.currentRow()
        return self._rows[i] if 0 <= i < len(self._rows) else None

    # -- editing -------------------------------------------------------------------------------------------
    def _commit(self, name: str, value) -> None:
        if self._source is not None and not self._filling:
            self.show_problem("")
            self._source.set_value(name, value)
            self.refresh()

    def _commit_ref(self, name: str, target) -> None:
        if target is None:  # "(different)": nothing chosen
            return
        self._commit(name, Ref(target))

    def add_typed(self) -> None:
        """Add the property named in the "new property" field, of the kind chosen beside it."""
        if self._source is None:
            return
        name = self.new_name.text()
        problem = name_problem(name, [r.name for r in self._rows], self._source.subject)
        if problem is None and name in self._source.names():
            problem = f"{self._source.subject} already has a property called {name}"
        if problem:
            self.show_problem(problem)
            return
        kind = self.new_kind.currentData()
        self.show_problem("")
        self._source.add(name, default_for(kind))
        self.new_name.clear()
        self.refresh()
        if name in self._editors:
            self.table.setCurrentCell(self.row_of(name), NAME)
            self._editors[name].setFocus(Qt.OtherFocusReason)

    def remove_current(self) -> None:
        row = self._current_row()
        if row is None or self._source is None:
            return
        if not row.removable:
            self.show_problem(f"{row.name} comes from type {row.origin}: remove it from the type")
            return
        self.show_problem("")
        self._source.remove(row.name)
        self.refresh()

    def reset(self, name: str) -> None:
        if self._source is not None:
            self._source.reset(name)
            self.refresh()

    def _name_edited(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != NAME or self._source is None or item.row() >= len(self._rows):
            return
        old = self._rows[item.row()].name
        new = item.text()
        if new == old:
            return
        problem = name_problem(new, [r.name for r in self._rows if r.name != old], self._source.subject)
        if problem:
            self._filling = True
            item.setText(old)
            self._filling = False
            self.show_problem(problem)
            return
        self.show_problem("")
        self._source.rename(old, new)
        self.refresh()

    def _context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            return
        self.table.setCurrentCell(index.row(), NAME)
        menu = self.context_menu_for(self._rows[index.row()])
        menu.exec(self.table.viewport().mapToGlobal(pos))

    def context_menu_for(self, row: PropertyRow) -> QMenu:
        """The row's menu: reset to the type's default, rename, remove (what applies)."""
        menu = QMenu(self)
        reset = menu.addAction(f"Reset to Default (from type {row.origin})" if row.has_default else
                               "Reset to Default")
        reset.setEnabled(row.overridden)
        reset.triggered.connect(lambda *_: self.reset(row.name))
        rename = menu.addAction("Rename")
        rename.setEnabled(row.removable and not row.mixed)
        rename.triggered.connect(lambda *_: self.table.editItem(self.table.item(self.row_of(row.name), NAME)))
        remove = menu.addAction("Remove")
        remove.setShortcut(QKeySequence(Qt.Key_Delete))
        remove.setEnabled(row.removable)
        remove.triggered.connect(self.remove_current)
        return menu

    # -- picking on the canvas --------------------------------------------------------------------------------
    def _pick(self, name: str, on: bool) -> None:
        if self._picker is None or self._source is None:
            return
        if not on:
            self._picker.cancel()
            return
        source = self._source

        def picked(object_id: str) -> None:
            if self._source is source:
                self._commit(name, Ref(object_id))

        self._picker.start(picked, f"Click the object that {source.subject}'s {name} refers to (Esc cancels)")
        button = self._pick_buttons.get(name)
        if button is not None:
            button.setChecked(True)

    def _pick_finished(self) -> None:
        for button in self._pick_buttons.values():
            button.setChecked(False)
