"""The custom properties table: name, type and value of each property, with add, remove and reset.

One widget shows the properties of whatever a
:class:`~level_editor.editor.commands.properties.PropertySource` stands for: selected objects,
the level, or an object type's defaults (in the Types editor). The source turns
every edit into one undo command with a readable label ("Set health of goblin-1
to 5"); the table only shows and asks.

Values keep their type (:func:`~level_editor.editor.commands.properties.parse_value`): typing
``3`` into an integer property stores the int ``3``, into a float property
``3.0``. A value that is not of the property's type is refused with a message in
red under the table; Esc puts back the value that was there. A property an object
takes from its type is shown greyed and in italics, marked with the type's name,
until the object gets its own value; the reset button (or the context menu)
removes that own value again.

An object reference is chosen from the list of the level's objects, or by
clicking the object on the canvas (:class:`CanvasPicker`: the next click picks,
Esc cancels, the active tool never sees that click).
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QKeySequence, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QMenu,
    QSizePolicy, QTableWidget, QTableWidgetItem, QToolButton, QVBoxLayout, QWidget,
)

from level_editor.core.level.kinds import natural_key
from level_editor.core.level.model import Ref
from level_editor.editor.support.guard import guarded
from level_editor.core.level.limits import MAX_NAME_LENGTH
from level_editor.editor.panels.field_limits import shown_number
from level_editor.editor.panels.value_field import MIXED_TEXT, ValueField
from level_editor.editor.commands.properties import (
    KIND_NAMES, NONE_TEXT, PROPERTY_KINDS, PropertyRow, PropertySource, default_for, name_problem, parse_value,
    value_text,
)
from level_editor.editor.canvas.selection import Selection

__all__ = ["PropertiesTable", "PropertyField", "RefCombo", "CanvasPicker", "PROBLEM_STYLE", "swatch"]

#: The short names the table's Type column shows (the column is narrow in a docked inspector).
_KIND_SHORT = {"string": "string", "integer": "integer", "float": "float", "boolean": "boolean", "object": "object"}

#: A panel's message saying why a value was refused, in red under its fields.
PROBLEM_STYLE = "color: #c02020; font-weight: bold;"
_INHERITED_COLOR = "#8a8a8a"


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

    @guarded("picking an object on the canvas", default=False)
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
def shown_value(row: PropertyRow) -> tuple[str, str]:
    """``(text, full)``: a property's value as its cell shows it, and every digit of it for the tooltip.

    A float shows as the inspector's numbers do, in its shortest form with at most three decimals, and
    still looks like a float (``0.333``, ``3.0``, ``1e-320``); ``full`` is then its exact value
    (``0.3333333333333333``), else ``""``. The value itself stays as it is unless the cell is retyped.

    >>> shown_value(PropertyRow("speed", 1 / 3)), shown_value(PropertyRow("speed", 3.0))
    (('0.333', '0.3333333333333333'), ('3.0', ''))
    """
    if row.mixed:
        return "", ""
    if row.kind != "float":
        return value_text(row.value), ""
    text = shown_number(row.value)
    if not any(c in text for c in ".enai"):
        text += ".0"
    full = repr(float(row.value))
    return text, (full if full != text else "")


class PropertyField(ValueField):
    """A typed value (string, integer, float) in the table's Value column: a :class:`ValueField` that reads
    the text as the property's kind (:func:`~level_editor.editor.commands.properties.parse_value`)."""

    def __init__(self, name: str, kind: str, parent=None):
        super().__init__(f"value:{name}", lambda text: parse_value(kind, text, name), parent=parent)
        self.name = name
        self.kind = kind
        self.setFrame(False)  # a cell of the table, as in Tiled's property browser


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
            self.insertItem(0, MIXED_TEXT, None)
            self.setCurrentIndex(0)
        elif ref:
            missing = ref not in self._doc
            self.addItem(f"{ref} (missing)" if missing else ref, ref)
            self.setCurrentIndex(1)
        self.blockSignals(False)

    def fill(self) -> None:
        """Every object of the level in the list (natural order: goblin-2 before goblin-10)."""
        current = self.currentData()
        ids = sorted((o.id for o in self._doc.objects), key=natural_key)
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

    @guarded("listing the objects to refer to")
    def showPopup(self) -> None:
        self.fill()
        super().showPopup()

    @guarded("listing the objects to refer to")
    def focusInEvent(self, event) -> None:
        if self.count() <= 2:
            self.fill()
        super().focusInEvent(event)

    @guarded("scrolling the properties")
    def wheelEvent(self, event) -> None:
        # scrolling the inspector past a reference must not change it
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class _Table(QTableWidget):
    """The table itself: Delete removes the current property instead of the selected objects."""

    delete_pressed = Signal()

    @guarded("handling a key in the properties", default=False)
    def event(self, event) -> bool:
        if event.type() == QEvent.ShortcutOverride and event.key() in (Qt.Key_Delete, Qt.Key_Backspace):
            event.accept()
            return True
        return super().event(event)

    @guarded("removing a property")
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
        self.table.customContextMenuRequested.connect(lambda pos: self._context_menu(pos))
        self.table.itemChanged.connect(lambda item: self._name_edited(item))
        self.table.currentCellChanged.connect(lambda *_: self._update_buttons())
        self.table.delete_pressed.connect(lambda: self.remove_current())
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
        self.new_name.returnPressed.connect(lambda: self.add_typed())
        self.new_name.setMaxLength(MAX_NAME_LENGTH)
        self.new_name.textEdited.connect(lambda *_: self.show_problem(""))
        self.new_kind = QComboBox()
        self.new_kind.setObjectName("newPropertyKind")
        for kind in PROPERTY_KINDS:
            self.new_kind.addItem(KIND_NAMES[kind], kind)
        self.add_button = QToolButton()
        self.add_button.setObjectName("addProperty")
        self.add_button.setText("+")
        self.add_button.setToolTip("Add a property of this name and type")
        self.add_button.clicked.connect(lambda checked=False: self.add_typed())
        self.remove_button = QToolButton()
        self.remove_button.setObjectName("removeProperty")
        self.remove_button.setText("−")
        self.remove_button.setToolTip("Remove the selected property")
        self.remove_button.clicked.connect(lambda checked=False: self.remove_current())
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
            text, full = shown_value(row)
            if full:
                tip = f"{row.name}: {full}" + (f"\n{tip}" if tip else "")
            editor.show_value(text, tip, row.mixed)  # the field shows the tip, or why a typed value is refused
            editor.set_base_style(f"QLineEdit {{ {style} }}" if style else "")
        elif isinstance(editor, QCheckBox):
            editor.setTristate(row.mixed)
            editor.setCheckState(Qt.PartiallyChecked if row.mixed else
                                 (Qt.Checked if row.value else Qt.Unchecked))
            editor.setText(value_text(row.value) if not row.mixed else "")
            editor.setStyleSheet(f"QCheckBox {{ {style} }}" if style else "")
            editor.setToolTip(tip)
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
    @guarded("changing a property")
    def _commit(self, name: str, value) -> None:
        if self._source is not None and not self._filling:
            self.show_problem("")
            self._source.set_value(name, value)
            self.refresh()

    def _commit_ref(self, name: str, target) -> None:
        if target is None:  # "—": the objects differ and nothing was chosen
            return
        self._commit(name, Ref(target))

    @guarded("adding a property")
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

    @guarded("removing a property")
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

    @guarded("resetting a property")
    def reset(self, name: str) -> None:
        if self._source is not None:
            self._source.reset(name)
            self.refresh()

    @guarded("renaming a property")
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

    @guarded("opening the property menu")
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
    @guarded("picking an object on the canvas")
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
