"""The property inspector: the numbers of the selected object, the player or the level.

Typed values are checked where they are typed: a field refuses characters that
can never be a number, and marks in red (with a tooltip saying why) anything
that is not yet a valid value; only a valid value is applied, as one undo step
with a readable label ("Change radius of pillar-1"). Esc in a field puts back
the value it showed.

Below the numbers, an object's type ("enemy", "door"), whether it is solid, and
its custom properties (:mod:`editor.panels.properties_table`); with several
objects selected, the type and the properties they share; with nothing selected,
the level's name, grid and custom properties.
"""
from __future__ import annotations

import math
from dataclasses import fields, replace
from typing import Callable, Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QScrollArea, QVBoxLayout, QWidget,
)

from core.level.document import Change, ChangeKind, LevelDocument
from core.level.model import Box, Image, OrientedBox, Pillar, Player, Point, Tiles, Wall
from core.collision.shapes import Vec2
from editor.commands import ChangeLevelPropertiesCommand, ChangeObjectsCommand, ChangePlayerCommand
from editor.context import EditorContext
from core.level.kinds import kind_name
from editor.panels.properties_table import INVALID_STYLE, CanvasPicker, PropertiesTable, swatch
from editor.property_commands import (
    NONE_TEXT, LevelProperties, ObjectProperties, StepsCommand, find_references, retarget_steps, retargeted,
)
from editor.selection import Selection
from editor.subscriptions import subscribe_while_alive

_NUMBER_CHARS = set("0123456789+-.eE")

#: A number field's rule: any finite number, greater than 0, or from 0 to 1 (an opacity).
ANY, POSITIVE, FRACTION = False, True, "fraction"


def format_number(v: float) -> str:
    """A number as the inspector shows it: no trailing ``.0``, up to 10 significant digits."""
    return f"{v:.10g}"


def parse_number(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ValueError("not finite")
    return v


class NumberValidator(QValidator):
    """Accepts finite numbers (``positive``: greater than 0, or ``FRACTION``: 0 to 1); a field never holds letters."""

    def __init__(self, positive, parent=None):
        super().__init__(parent)
        self.positive = positive

    def problem(self, text: str) -> Optional[str]:
        """Why ``text`` is not a valid value, or None when it is."""
        t = text.strip()
        if not t:
            return "type a number"
        try:
            v = parse_number(t)
        except ValueError:
            return f"{t!r} is not a number"
        if self.positive == FRACTION:
            return None if 0 <= v <= 1 else "must be from 0 to 1"
        if self.positive and v <= 0:
            return "must be greater than 0"
        return None

    def validate(self, text: str, pos: int):
        if not set(text.strip()) <= _NUMBER_CHARS:
            return QValidator.Invalid, text, pos
        return (QValidator.Acceptable if self.problem(text) is None else QValidator.Intermediate), text, pos


class IdValidator(QValidator):
    """Accepts a non-empty id that no other object has."""

    def __init__(self, document: LevelDocument, current: str, parent=None):
        super().__init__(parent)
        self._doc = document
        self.current = current

    def problem(self, text: str) -> Optional[str]:
        if not text.strip():
            return "an id cannot be empty"
        if text != text.strip():
            return "an id cannot start or end with a space"
        if text == Selection.PLAYER:
            return "'player' is the player's name"
        if text != self.current and text in self._doc:
            return f"another object is already called {text!r}"
        return None

    def validate(self, text: str, pos: int):
        return (QValidator.Acceptable if self.problem(text) is None else QValidator.Intermediate), text, pos


class ValueField(QLineEdit):
    """A line edit that shows a red mark and the reason while its text is not a valid value.

    ``committed(text)`` is emitted when the user finishes a valid edit (Enter or leaving the field);
    Esc puts back the value the field showed.
    """

    committed = Signal(str)

    def __init__(self, key: str, validator, parent=None):
        super().__init__(parent)
        self.setObjectName(key)
        self.key = key
        self.setValidator(validator)
        self._tooltip = ""
        self._shown = ""
        self.textChanged.connect(self._check)
        self.editingFinished.connect(self._finished)

    @property
    def problem(self) -> Optional[str]:
        return self.validator().problem(self.text())

    def is_invalid(self) -> bool:
        return self.problem is not None

    def show_value(self, text: str) -> None:
        """Show the model's value, unless the user is typing into this field."""
        if self.hasFocus() and self.isModified():
            return
        self._shown = text
        if self.text() != text:
            self.setText(text)
        self.setModified(False)
        self._check()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Escape:
            self.setText(self._shown)
            self.setModified(False)
            event.accept()
            return
        super().keyPressEvent(event)

    def _check(self, *_):
        problem = self.problem
        if problem is None:
            self.setStyleSheet("")
            self.setToolTip(self._tooltip)
        else:
            self.setStyleSheet(INVALID_STYLE)
            self.setToolTip(f"Not applied: {problem}")

    def _finished(self):
        if self.isModified() and self.problem is None:
            self.setModified(False)
            self.committed.emit(self.text())


# (row label, [(field key, attribute, index in a point or None, positive, what the undo label calls it)])
_OBJECT_ROWS = {
    Box: [("Origin", [("origin.x", "origin", 0, False, "origin"), ("origin.y", "origin", 1, False, "origin")]),
          ("Size", [("size.x", "size", 0, True, "width"), ("size.y", "size", 1, True, "height")])],
    OrientedBox: [("Center", [("center.x", "center", 0, False, "center"), ("center.y", "center", 1, False, "center")]),
                  ("Half extents", [("half_extents.x", "half_extents", 0, True, "half width"),
                                    ("half_extents.y", "half_extents", 1, True, "half height")]),
                  ("Rotation °", [("rotation", "rotation", None, False, "rotation")])],
    Pillar: [("Center", [("center.x", "center", 0, False, "center"), ("center.y", "center", 1, False, "center")]),
             ("Radius", [("radius", "radius", None, True, "radius")])],
    Wall: [("Thickness", [("thickness", "thickness", None, True, "thickness")])],
    Tiles: [("Origin", [("origin.x", "origin", 0, False, "origin"), ("origin.y", "origin", 1, False, "origin")]),
            ("Cell size", [("cell", "cell", None, True, "cell size")])],
    Point: [("Position", [("position.x", "position", 0, False, "position"),
                          ("position.y", "position", 1, False, "position")])],
    Image: [("Origin", [("origin.x", "origin", 0, False, "origin"), ("origin.y", "origin", 1, False, "origin")]),
            ("Scale", [("scale", "scale", None, True, "scale")]),
            ("Opacity", [("opacity", "opacity", None, FRACTION, "opacity")])],
}


def _has_solid(obj) -> bool:
    """Walls, boxes, oriented boxes, pillars and tile grids can be made areas; markers and pictures never collide."""
    return any(f.name == "solid" for f in fields(obj))


def _title(kind: str) -> str:
    name = kind_name(kind)
    return name[:1].upper() + name[1:]


def _with_value(value, attribute: str, index: Optional[int], number: float):
    if index is None:
        return replace(value, **{attribute: number})
    old = getattr(value, attribute)
    new = Vec2(number, old.y) if index == 0 else Vec2(old.x, number)
    return replace(value, **{attribute: new})


def _current(value, attribute: str, index: Optional[int]) -> float:
    v = getattr(value, attribute)
    return v if index is None else v[index]


class Inspector(QWidget):
    """Edits what is selected: one object, the player, or (with nothing selected) the level."""

    def __init__(self, context: EditorContext, parent=None):
        super().__init__(parent)
        self._ctx = context
        self._doc = context.document
        self.fields: dict[str, QWidget] = {}
        self._refreshers: list[Callable[[], None]] = []
        # type, solid and custom properties: refreshed only when they may have changed (not on every move of a drag)
        self._data_refreshers: list[Callable[[], None]] = []
        self._data_stale = True
        self._shown_key = None
        self.title = QLabel()
        self.title.setObjectName("inspectorTitle")
        self.title.setStyleSheet("font-weight: bold; padding: 2px 0 6px 0;")
        self._form_host = QWidget()
        self._form = QFormLayout(self._form_host)
        self._form.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        self._form.setContentsMargins(0, 0, 0, 0)
        #: The next canvas click chooses an object for a reference (the "Pick" buttons).
        self.picker = CanvasPicker(context, self)
        self.properties_title = QLabel("Custom properties")
        self.properties_title.setObjectName("customPropertiesTitle")
        self.properties_title.setStyleSheet("font-weight: bold; padding: 10px 0 2px 0;")
        #: The custom properties of what is shown (objects or the level).
        self.properties = PropertiesTable(self._doc, self.picker)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        # the fields shrink with the dock; a sideways scrollbar would hide the values' ends
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        inner = QWidget()
        box = QVBoxLayout(inner)
        box.addWidget(self.title)
        box.addWidget(self._form_host)
        box.addWidget(self.properties_title)
        box.addWidget(self.properties)
        box.addStretch(1)
        scroll.setWidget(inner)
        self.scroll_area = scroll
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        context.selection.changed.connect(self.refresh)
        subscribe_while_alive(self._doc, self, self._on_document_changed)
        self.refresh()

    # -- what is shown -------------------------------------------------------------
    def field(self, key: str) -> QWidget:
        """The editor widget for ``key`` (``"radius"``, ``"origin.x"``, ``"id"``, ``"name"``...)."""
        return self.fields[key]

    def _target(self):
        ids = self._ctx.selection.ids()
        if not ids:
            return ("level",), None
        if len(ids) > 1:
            return ("many", tuple(ids)), None
        if ids[0] == Selection.PLAYER:
            return ("player", self._doc.player.shape), self._doc.player
        obj = self._doc.get(ids[0])
        if obj is None:
            return ("level",), None
        return ("object", type(obj), obj.id), obj

    def _on_document_changed(self, change: Change) -> None:
        if change.kind is not ChangeKind.CHANGED or any(
                o.properties is not n.properties or o.type != n.type or o.solid != n.solid or o.id != n.id
                for o, n in zip(change.old, change.objects)):
            self._data_stale = True
        self.refresh()

    def refresh(self) -> None:
        key, value = self._target()
        if key != self._shown_key:
            self._rebuild(key, value)
            self._shown_key = key
        for refresh in self._refreshers:
            refresh()
        if self._data_stale:
            # a drag of many selected objects only moves them: their types and properties stay as shown
            self._data_stale = False
            for refresh in self._data_refreshers:
                refresh()
            self.properties.refresh()

    def _clear(self) -> None:
        # taken out and deleted later: a rebuild can start inside a signal of one of these widgets
        while self._form.rowCount():
            row = self._form.takeRow(0)
            for item in (row.labelItem, row.fieldItem):
                if item is not None and item.widget() is not None:
                    item.widget().hide()
                    item.widget().deleteLater()
        self.fields = {}
        self._refreshers = []
        self._data_refreshers = []
        self._data_stale = True

    def _rebuild(self, key, value) -> None:
        self._clear()
        self.picker.cancel()
        source = None
        if key[0] == "level":
            self.title.setText("Level")
            self._build_level()
            source = LevelProperties(self._ctx)
        elif key[0] == "many":
            self.title.setText(f"{len(key[1])} objects selected")
            ids = [i for i in key[1] if i != Selection.PLAYER]
            if ids:
                self._build_shared(ids)
                source = ObjectProperties(self._ctx, ids)
        elif key[0] == "player":
            self.title.setText("Player")
            self._build_player()
        else:
            self.title.setText(f"{_title(value.kind)} {value.id}")
            self._build_object(value)
            source = ObjectProperties(self._ctx, [value.id])
        self.properties.set_source(source)
        self.properties.setVisible(source is not None)
        self.properties_title.setVisible(source is not None)
        self.properties_title.setText("Custom properties of the level" if key[0] == "level" else
                                      "Shared custom properties" if key[0] == "many" else "Custom properties")

    # -- builders ------------------------------------------------------------------
    def _number_field(self, key: str, positive: bool, read: Callable[[], float],
                      apply: Callable[[float], None]) -> ValueField:
        f = ValueField(key, NumberValidator(positive))
        f.committed.connect(lambda text: apply(parse_number(text)))
        self.fields[key] = f
        self._refreshers.append(lambda: f.show_value(format_number(read())))
        return f

    def _row(self, label: str, widgets: list[QWidget]) -> None:
        if len(widgets) == 1:
            self._form.addRow(label, widgets[0])
            return
        host = QWidget()
        h = QHBoxLayout(host)
        h.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            h.addWidget(w)
        self._form.addRow(label, host)

    def _build_object(self, obj) -> None:
        oid = obj.id
        state = {"id": oid}

        def current():
            return self._doc.get(state["id"])

        id_field = ValueField("id", IdValidator(self._doc, oid))
        id_field.committed.connect(lambda text: self._rename(state["id"], text))
        self.fields["id"] = id_field
        self._refreshers.append(lambda: id_field.show_value(state["id"]))
        self._row("Id", [id_field])
        self._row("Type", [self._type_field(lambda: [state["id"]])])
        if _has_solid(obj):
            self._row("Solid", [self._solid_field(lambda: [state["id"]])])
        if isinstance(obj, Image):
            path = QLineEdit()
            path.setObjectName("path")
            path.setReadOnly(True)
            path.setToolTip("The picture's file, relative to the level file")
            self.fields["path"] = path
            self._refreshers.append(lambda: path.setText(current().path if current() else ""))
            self._row("Picture", [path])
        if isinstance(obj, Wall):
            # A wall's position is its first node; typing a new one moves the whole chain.
            self._row("Position", [self._number_field(
                f"position.{axis}", False,
                read=lambda i=i: current().points[0][i],
                apply=lambda v, i=i: self._move_wall(current(), i, v)) for i, axis in enumerate("xy")])
        for label, specs in _OBJECT_ROWS[type(obj)]:
            widgets = []
            for key, attribute, index, positive, noun in specs:
                widgets.append(self._number_field(
                    key, positive,
                    read=lambda a=attribute, i=index: _current(current(), a, i),
                    apply=lambda v, a=attribute, i=index, n=noun: self._change_object(current(), a, i, v, n)))
            self._row(label, widgets)
        if isinstance(obj, Wall):
            closed = QCheckBox("joins the last node to the first")
            closed.setObjectName("closed")
            self.fields["closed"] = closed

            def toggled(on):
                wall = current()
                if wall is not None and wall.closed != on:
                    verb = "Close" if on else "Open"
                    self._ctx.push(ChangeObjectsCommand(self._doc, [wall], [replace(wall, closed=on)],
                                                        f"{verb} {wall.id}"))

            closed.toggled.connect(toggled)

            def show_closed():
                wall = current()
                if wall is not None and closed.isChecked() != wall.closed:
                    closed.blockSignals(True)
                    closed.setChecked(wall.closed)
                    closed.blockSignals(False)

            self._refreshers.append(show_closed)
            self._row("Closed", [closed])
            nodes = QLabel()
            nodes.setObjectName("nodes")
            self.fields["nodes"] = nodes
            self._refreshers.append(lambda: nodes.setText(str(len(current().points)) if current() else ""))
            self._row("Nodes", [nodes])
        if isinstance(obj, Tiles):
            cells = QLabel()
            cells.setObjectName("cells")
            self.fields["cells"] = cells
            self._refreshers.append(
                lambda: cells.setText(f"{current().columns} × {current().rows}" if current() else ""))
            self._row("Cells", [cells])

        def follow_rename():
            ids = self._ctx.selection.ids()
            if len(ids) == 1 and ids[0] != state["id"] and self._doc.get(ids[0]) is not None:
                state["id"] = ids[0]
                id_field.validator().current = ids[0]

        self._refreshers.insert(0, follow_rename)

    def _build_shared(self, ids: list[str]) -> None:
        """Several objects: what they share (type, solid); the table below shows their shared properties."""
        self._row("Type", [self._type_field(lambda: ids)])
        objs = [self._doc.get(i) for i in ids]
        if all(o is not None and _has_solid(o) for o in objs):
            self._row("Solid", [self._solid_field(lambda: ids)])

    def _objects(self, ids: list[str]) -> list:
        return [o for o in (self._doc.get(i) for i in ids) if o is not None]

    @staticmethod
    def _subject(objs) -> str:
        return objs[0].id if len(objs) == 1 else f"{len(objs)} objects"

    def _type_field(self, ids: Callable[[], list[str]]) -> QComboBox:
        """The object's type: one of the level's types, "(none)", or a new name typed in (Check then warns)."""
        combo = QComboBox()
        combo.setObjectName("type")
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.NoInsert)
        combo.lineEdit().setPlaceholderText("(different)")
        combo.setToolTip("What the object is in the game; the types and their defaults are in Object Types…")
        self.fields["type"] = combo
        shown = {"names": None}

        def show():
            names = tuple((t.name, t.color) for t in self._doc.level.types)
            in_use = {o.type for o in self._objects(ids())}
            text = "" if len(in_use) != 1 else (next(iter(in_use)) or NONE_TEXT)
            if combo.lineEdit().hasFocus() and combo.lineEdit().isModified():
                return
            combo.blockSignals(True)
            if names != shown["names"]:
                combo.clear()
                combo.addItem(NONE_TEXT)
                for name, color in names:
                    combo.addItem(swatch(color), name)
                shown["names"] = names
            index = combo.findText(text, Qt.MatchExactly) if text else -1
            combo.setCurrentIndex(index)
            combo.setEditText(text)
            combo.lineEdit().setModified(False)
            combo.blockSignals(False)

        def chosen(text: str):
            every = self._objects(ids())
            name = "" if text.strip() in ("", NONE_TEXT) else text.strip()
            changed = [o for o in every if o.type != name]
            if not changed or (not text.strip() and len({o.type for o in every}) > 1):
                show()  # nothing chosen over "(different)", or nothing changes
                return
            subject = self._subject(every)
            label = f"Set type of {subject} to {name}" if name else f"Clear type of {subject}"
            self._ctx.push(ChangeObjectsCommand(self._doc, changed, [replace(o, type=name) for o in changed], label))

        combo.activated.connect(lambda index: chosen(combo.itemText(index)))
        combo.lineEdit().editingFinished.connect(lambda: chosen(combo.currentText())
                                                 if combo.lineEdit().isModified() else None)
        self._data_refreshers.append(show)
        return combo

    def _solid_field(self, ids: Callable[[], list[str]]) -> QCheckBox:
        """Solid blocks the player; not solid makes an area it passes through (a trigger, a zone, a route)."""
        box = QCheckBox("blocks the player")
        box.setObjectName("solid")
        box.setToolTip("Off: an area the player passes through (a trigger, a zone, a patrol route)")
        self.fields["solid"] = box

        def show():
            values = {o.solid for o in self._objects(ids())}
            box.blockSignals(True)
            box.setTristate(len(values) > 1)
            box.setCheckState(Qt.PartiallyChecked if len(values) > 1 else
                              Qt.Checked if values == {True} else Qt.Unchecked)
            box.blockSignals(False)

        def clicked(on: bool):
            objs = [o for o in self._objects(ids()) if o.solid != on]
            if objs:
                subject = self._subject(self._objects(ids()))
                label = f"Make {subject} solid" if on else f"Make {subject} not solid"
                self._ctx.push(ChangeObjectsCommand(self._doc, objs, [replace(o, solid=on) for o in objs], label))
            show()

        box.clicked.connect(clicked)
        self._data_refreshers.append(show)
        return box

    def _build_player(self) -> None:
        doc = self._doc
        shape = QComboBox()
        shape.setObjectName("shape")
        shape.addItems(list(Player.SHAPES))
        self.fields["shape"] = shape
        shape.setCurrentText(doc.player.shape)
        shape.currentTextChanged.connect(lambda text: self._change_player("shape", None, text, "shape"))
        self._row("Shape", [shape])
        if doc.player.shape == "box":
            self._row("Size", [
                self._number_field("size.x", True, lambda: doc.player.size.x,
                                   lambda v: self._change_player("size", 0, v, "width")),
                self._number_field("size.y", True, lambda: doc.player.size.y,
                                   lambda v: self._change_player("size", 1, v, "height")),
            ])
        else:
            self._row("Radius", [self._number_field("radius", True, lambda: doc.player.radius,
                                                    lambda v: self._change_player("radius", None, v, "radius"))])
        self._row("Speed px/s", [self._number_field("speed", True, lambda: doc.player.speed,
                                                    lambda v: self._change_player("speed", None, v, "speed"))])
        self._row("Spawn", [
            self._number_field("spawn.x", False, lambda: doc.player.spawn.x,
                               lambda v: self._change_player("spawn", 0, v, "spawn")),
            self._number_field("spawn.y", False, lambda: doc.player.spawn.y,
                               lambda v: self._change_player("spawn", 1, v, "spawn")),
        ])

        def show_shape():
            if shape.currentText() != doc.player.shape:
                shape.blockSignals(True)
                shape.setCurrentText(doc.player.shape)
                shape.blockSignals(False)

        self._refreshers.append(show_shape)

    def _build_level(self) -> None:
        doc = self._doc
        name = ValueField("name", _NameValidator())
        self.fields["name"] = name
        name.committed.connect(lambda text: self._ctx.push(
            ChangeLevelPropertiesCommand(doc, "Change name of level", name=text)))
        self._refreshers.append(lambda: name.show_value(doc.level.name))
        self._row("Name", [name])
        self._row("Grid", [self._number_field(
            "grid", True, lambda: doc.level.grid,
            lambda v: self._ctx.push(ChangeLevelPropertiesCommand(doc, "Change grid of level", grid=v))
            if v != doc.level.grid else None)])
        count = QLabel()
        count.setObjectName("objectCount")
        self.fields["objectCount"] = count
        self._refreshers.append(lambda: count.setText(str(len(doc))))
        self._row("Objects", [count])

    # -- edits (one undo step each) -------------------------------------------------
    def _change_object(self, obj, attribute: str, index: Optional[int], number: float, noun: str) -> None:
        if obj is None or _current(obj, attribute, index) == number:
            return
        new = _with_value(obj, attribute, index, number)
        self._ctx.push(ChangeObjectsCommand(self._doc, [obj], [new], f"Change {noun} of {obj.id}"))

    def _move_wall(self, wall, axis: int, number: float) -> None:
        if wall is None or wall.points[0][axis] == number:
            return
        delta = number - wall.points[0][axis]
        moved = wall.moved(delta, 0.0) if axis == 0 else wall.moved(0.0, delta)
        self._ctx.push(ChangeObjectsCommand(self._doc, [wall], [moved], f"Move {wall.id}"))

    def _rename(self, old_id: str, new_id: str) -> None:
        """A new id; properties that referred to the object follow it (in the same undo step)."""
        obj = self._doc.get(old_id)
        if obj is None or new_id == old_id:
            return
        label = f"Rename {old_id} to {new_id}"
        renamed = obj.with_id(new_id)
        renamed = replace(renamed, properties=retargeted(renamed.properties, {old_id: new_id}))
        rename = ChangeObjectsCommand(self._doc, [obj], [renamed], label)
        if not find_references(self._doc.level, {old_id}, skip_objects={old_id}):
            self._ctx.push(rename)
            return
        self._ctx.push(StepsCommand(label, [rename, *retarget_steps(self._doc, {old_id: new_id}, {old_id})]))

    def _change_player(self, attribute: str, index: Optional[int], value, noun: str) -> None:
        old = self._doc.player
        if index is None:
            if getattr(old, attribute) == value:
                return
            new = replace(old, **{attribute: value})
        else:
            if _current(old, attribute, index) == value:
                return
            new = _with_value(old, attribute, index, value)
        self._ctx.push(ChangePlayerCommand(self._doc, old, new, f"Change {noun} of player"))


class _NameValidator(QValidator):
    def problem(self, text: str) -> Optional[str]:
        return None if text.strip() else "a level needs a name"

    def validate(self, text: str, pos: int):
        return (QValidator.Acceptable if self.problem(text) is None else QValidator.Intermediate), text, pos
