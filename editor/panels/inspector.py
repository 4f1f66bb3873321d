"""The property inspector: the numbers of the selected objects, the player or the level.

Typed values are checked where they are typed, against the level's limits
(:mod:`level_editor.editor.panels.field_limits`: a grid from 1 to 9999, coordinates within
ten million, sizes, rotation, speed, scale, opacity; an object that would reach
past the largest coordinate is refused whole). A field refuses characters that
can never be a number and turns red while its text is not a valid value; why
is said in red under the fields, and in the status bar when a value is not
applied. Only a valid value is applied, as one undo step with a readable label
("Change radius of pillar-1"); nothing else ever pushes a command. Esc puts back
the value the field showed, and so does leaving it with a refused value.

Numbers show in their shortest form with at most three decimals (``12.346``);
the full value is in the tooltip and stays as it is unless the field is retyped.

With several objects selected, the fields they all have (type, layer, solid,
origin, size, thickness...) edit all of them in one undo step; a field whose
values differ shows "—" until something is typed. A wall's nodes are a small
table (:mod:`level_editor.editor.panels.wall_nodes`). Below the numbers, the custom
properties (:mod:`level_editor.editor.panels.properties_table`); with nothing selected, the
level's name, grid and custom properties.
"""
from __future__ import annotations

import functools
from dataclasses import fields, replace
from typing import Callable, Optional

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QScrollArea, QVBoxLayout, QWidget,
)

from level_editor.core.level.document import Change, ChangeKind
from level_editor.core.level.model import Box, Image, OrientedBox, Pillar, Player, Point, Sprite, Tiles, Wall
from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.kinds import kind_name
from level_editor.core.level.motion import MODES, MovePath
from level_editor.editor.commands.objects import ChangeLevelPropertiesCommand, ChangeObjectsCommand, ChangePlayerCommand
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.guard import guarded
from level_editor.editor.commands.layers import MoveObjectsToLayerCommand
from level_editor.core.level.format.fields import PLAYER_SETTINGS, Setting
from level_editor.core.level.limits import MAX_NAME_LENGTH
from level_editor.editor.panels.field_limits import (
    COORDINATE, GRID, OPACITY, ROTATION, SCALE, SIZE, SPEED, Bound, object_problem, shown_number, typed_number,
)
from level_editor.editor.panels.properties_table import PROBLEM_STYLE, CanvasPicker, PropertiesTable, swatch
from level_editor.editor.panels.value_field import MIXED_TEXT, NumberCharacters, ValueField, checked_text
from level_editor.editor.panels.wall_nodes import NodesModel, NodesTable
from level_editor.editor.commands.properties import NONE_TEXT, LevelProperties, ObjectProperties, id_problem, rename_command
from level_editor.editor.canvas.selection import Selection, whole_level
from level_editor.editor.support.subscriptions import subscribe_while_alive

#: A selection of more objects than this shows its shared numbers a moment after a change, not at once.
BIG_SELECTION = 2000
LATE_MS = 150


# (row label, [(field key, attribute, index in a point or None, the numbers it takes, what the undo label calls it)])
_OBJECT_ROWS = {
    Box: [("Origin", [("origin.x", "origin", 0, COORDINATE, "origin"), ("origin.y", "origin", 1, COORDINATE, "origin")]),
          ("Size", [("size.x", "size", 0, SIZE, "width"), ("size.y", "size", 1, SIZE, "height")])],
    OrientedBox: [("Center", [("center.x", "center", 0, COORDINATE, "center"),
                              ("center.y", "center", 1, COORDINATE, "center")]),
                  ("Half extents", [("half_extents.x", "half_extents", 0, SIZE, "half width"),
                                    ("half_extents.y", "half_extents", 1, SIZE, "half height")]),
                  ("Rotation °", [("rotation", "rotation", None, ROTATION, "rotation")])],
    Pillar: [("Center", [("center.x", "center", 0, COORDINATE, "center"),
                         ("center.y", "center", 1, COORDINATE, "center")]),
             ("Radius", [("radius", "radius", None, SIZE, "radius")])],
    Wall: [("Thickness", [("thickness", "thickness", None, SIZE, "thickness")])],
    Tiles: [("Origin", [("origin.x", "origin", 0, COORDINATE, "origin"), ("origin.y", "origin", 1, COORDINATE, "origin")]),
            ("Cell size", [("cell", "cell", None, SIZE, "cell size")])],
    Point: [("Position", [("position.x", "position", 0, COORDINATE, "position"),
                          ("position.y", "position", 1, COORDINATE, "position")])],
    Image: [("Origin", [("origin.x", "origin", 0, COORDINATE, "origin"), ("origin.y", "origin", 1, COORDINATE, "origin")]),
            ("Scale", [("scale", "scale", None, SCALE, "scale")]),
            ("Opacity", [("opacity", "opacity", None, OPACITY, "opacity")])],
    Sprite: [("Center", [("center.x", "center", 0, COORDINATE, "center"),
                         ("center.y", "center", 1, COORDINATE, "center")]),
             ("Size", [("size.x", "size", 0, SIZE, "width"), ("size.y", "size", 1, SIZE, "height")]),
             ("Rotation °", [("rotation", "rotation", None, ROTATION, "rotation")]),
             ("Opacity", [("opacity", "opacity", None, OPACITY, "opacity")])],
}

#: How a field's key reads in a message ("Width: must be ...").
#: The kinds that can move along a path, and a new path's rise (px, upwards) and speed (px/s).
_MOVING_KINDS = (Box, OrientedBox, Wall, Pillar, Tiles)
NEW_PATH_RISE = 64.0
NEW_PATH_SPEED = 60.0
#: A path's modes as the Properties dock names them.
_MODE_NAMES = {"ping_pong": "There and back", "loop": "Loop"}
#: The controllers as the Properties dock names them.
_CONTROLLER_NAMES = {"top_down": "Top-down", "platformer": "Platformer"}
#: Each platformer setting's label in the Properties dock, and its unit.
_SETTING_NAMES = {
    "jump_height": ("Jump height", "px"), "jump_time": ("Time to top", "s"),
    "fall_gravity_scale": ("Fall gravity ×", ""), "max_fall_speed": ("Max fall speed", "px/s"),
    "acceleration": ("Acceleration", "px/s²"), "deceleration": ("Deceleration", "px/s²"),
    "air_control": ("Air control", "0 to 1"), "coyote_time": ("Coyote time", "s"), "jump_buffer": ("Jump buffer", "s"),
    "jump_cut": ("Jump cut", "0 to 1"), "floor_max_angle": ("Floor max angle", "degrees"),
    "snap_length": ("Snap length", "px"),
}
_FIELD_NAMES = {"origin.x": "Origin x", "origin.y": "Origin y", "size.x": "Width", "size.y": "Height",
                "path.speed": "Path speed",
                "center.x": "Center x", "center.y": "Center y", "half_extents.x": "Half width",
                "half_extents.y": "Half height", "rotation": "Rotation", "radius": "Radius", "thickness": "Thickness",
                "cell": "Cell size", "position.x": "Position x", "position.y": "Position y", "scale": "Scale",
                "opacity": "Opacity", "speed": "Speed", "spawn.x": "Spawn x", "spawn.y": "Spawn y", "grid": "Grid",
                "id": "Id", "name": "Name", "tile": "Tile"}


def _shared_rows(classes) -> list:
    """The rows of numbers every one of ``classes`` has, in the first one's order (several selected objects)."""
    keys = [{key for _, specs in _OBJECT_ROWS[c] for key, *_ in specs} for c in classes]
    rows = []
    for label, specs in _OBJECT_ROWS[classes[0]]:
        shared = [spec for spec in specs if all(spec[0] in k for k in keys[1:])]
        if shared:
            rows.append((label, shared))
    return rows


def _has_solid(obj) -> bool:
    """Walls, boxes, oriented boxes, pillars and tile grids can be made areas; markers and pictures never collide."""
    return _class_has_solid(type(obj))


@functools.cache
def _class_has_solid(cls) -> bool:
    return any(f.name == "solid" for f in fields(cls))


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
    """Edits what is selected: one object, several (what they share), the player, or the level."""

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
        self._problem_from: Optional[QWidget] = None
        self.nodes: Optional[NodesTable] = None
        self._objects_cache = None
        self._late = QTimer(self)
        self._late.setSingleShot(True)
        self._late.setInterval(LATE_MS)
        self._late.timeout.connect(lambda: self._show_numbers())
        self.title = QLabel()
        self.title.setObjectName("inspectorTitle")
        self.title.setStyleSheet("font-weight: bold; padding: 2px 0 6px 0;")
        self.title.setWordWrap(True)
        self._form_host = QWidget()
        self._form = QFormLayout(self._form_host)
        self._form.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        self._form.setContentsMargins(0, 0, 0, 0)
        #: Why the last typed value was refused, in red under the fields ("Width: must be from ...").
        self.problem = QLabel()
        self.problem.setObjectName("inspectorProblem")
        self.problem.setStyleSheet(PROBLEM_STYLE)
        self.problem.setWordWrap(True)
        self.problem.hide()
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
        box.addWidget(self.problem)
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

    def problem_text(self) -> str:
        """The refusal shown under the fields (``""`` when there is none)."""
        return "" if self.problem.isHidden() else self.problem.text()

    def show_problem(self, text: str, source: Optional[QWidget] = None) -> None:
        """Say in red under the fields (and in the status bar) why a value was refused; ``""`` clears it.

        A field clearing its own message leaves another field's message alone.
        """
        if not text:
            if source is None or source is self._problem_from:
                self.problem.hide()
                self.problem.setText("")
                self._problem_from = None
            return
        self._problem_from = source
        self.problem.setText(text)
        self.problem.show()
        if text.endswith("(not applied)"):
            self._ctx.message.emit(text)

    def _target(self):
        ids = self._ctx.selection.ids()
        if not ids:
            return ("level",), None
        if len(ids) > 1:
            return ("many", tuple(ids)), None
        if ids[0] == Selection.PLAYER:
            return ("player", self._doc.player.shape, self._doc.player.controller), self._doc.player
        obj = self._doc.get(ids[0])
        if obj is None:
            return ("level",), None
        return ("object", type(obj), obj.id), obj

    @guarded("showing the selection in the inspector")
    def _on_document_changed(self, change: Change) -> None:
        # a pure move (a drag of many objects) changes nothing the data fields show: no need to look
        if change.kind is not ChangeKind.CHANGED or change.moved_by is None and any(
                o.properties is not n.properties or o.type != n.type or o.solid != n.solid or o.id != n.id
                or o.layer != n.layer for o, n in zip(change.old, change.objects)):
            self._data_stale = True
        self.refresh()

    @guarded("showing the selection in the inspector")
    def refresh(self, *_) -> None:
        key, value = self._target()
        rebuilt = key != self._shown_key
        if rebuilt:
            self._rebuild(key, value)
            self._shown_key = key
        if key[0] == "many" and len(key[1]) > BIG_SELECTION:
            # every object of a big selection changes on every step of a drag: its shared numbers are
            # read once the drag pauses, not on each step (nor while Ctrl+A is still being drawn)
            self._late.start()
        else:
            self._late.stop()
            self._show_numbers()
        if self._data_stale:
            # a drag of many selected objects only moves them: their types and properties stay as shown
            self._data_stale = False
            for refresh in self._data_refreshers:
                refresh()
            if not rebuilt:  # a rebuild has just shown them (set_source)
                self.properties.refresh()

    @guarded("showing the selection in the inspector")
    def _show_numbers(self) -> None:
        for refresh in self._refreshers:
            refresh()

    def _clear(self) -> None:
        # taken out and deleted later: a rebuild can start inside a signal of one of these widgets
        while self._form.rowCount():
            row = self._form.takeRow(0)
            for item in (row.labelItem, row.fieldItem):
                if item is not None and item.widget() is not None:
                    item.widget().hide()
                    item.widget().deleteLater()
        self.fields = {}
        self.nodes = None
        self._refreshers = []
        self._data_refreshers = []
        self._data_stale = True
        self.show_problem("")

    def _rebuild(self, key, value) -> None:
        self._clear()
        self.picker.cancel()
        source = None
        if key[0] == "level":
            self.title.setText("Level")
            self._build_level()
            source = LevelProperties(self._ctx)
        elif key[0] == "many":
            ids = [i for i in key[1] if i != Selection.PLAYER]
            self.title.setText(self._many_title(ids, Selection.PLAYER in key[1]))
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

    @staticmethod
    def _many_title(ids: list[str], player: bool) -> str:
        return f"{len(ids) + player} objects selected"

    # -- builders ------------------------------------------------------------------
    def _value_field(self, key: str, read: Callable[[str], object]) -> ValueField:
        f = ValueField(key, read, _FIELD_NAMES.get(key, key))
        f.setMaxLength(MAX_NAME_LENGTH)
        f.problem_changed.connect(lambda text, f=f: self.show_problem(text, f))
        self.fields[key] = f
        return f

    def _number_field(self, key: str, bound: Bound, read: Callable[[], Optional[float]],
                      apply: Callable[[float], Optional[str]]) -> ValueField:
        """A field for one number: ``read()`` is its value (None: the objects differ), ``apply(v)`` pushes the
        change and returns why it was refused, if it was."""
        f = self._value_field(key, functools.partial(typed_number, bound=bound))
        f.setValidator(NumberCharacters(f))

        @guarded(f"changing {f.label.lower()}")
        def committed(number: float) -> None:
            problem = apply(number)
            if problem:
                f.restore()
                self.show_problem(f"{f.label}: {problem} (not applied)", f)
            self.refresh()

        def show() -> None:
            v = read()
            if v is None:
                f.show_value("", mixed=True)
            else:
                text, full = shown_number(v), repr(float(v)).removesuffix(".0")
                f.show_value(text, f"{f.label}: {full}" if full != text else "")

        f.committed.connect(lambda number: committed(number))
        self._refreshers.append(show)
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

        id_field = self._value_field("id", checked_text(lambda text: id_problem(self._doc, text, state["id"])))
        rename = guarded("renaming an object")(lambda text: self._rename(state["id"], text))
        id_field.committed.connect(lambda text: rename(text))
        self._refreshers.append(lambda: id_field.show_value(state["id"]))
        self._row("Id", [id_field])
        self._row("Type", [self._type_field(lambda: [state["id"]])])
        self._row("Layer", [self._layer_field(lambda: [state["id"]])])
        if _has_solid(obj):
            self._row("Solid", [self._solid_field(lambda: [state["id"]])])
        if hasattr(obj, "one_way"):
            self._row("One-way", [self._one_way_field(current)])
        if type(obj) in _MOVING_KINDS:
            self._build_path(current)
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
                f"position.{axis}", COORDINATE,
                read=lambda i=i: current().points[0][i] if current() else 0.0,
                apply=lambda v, i=i: self._move_wall(current(), i, v)) for i, axis in enumerate("xy")])
        for label, specs in _OBJECT_ROWS[type(obj)]:
            widgets = []
            for key, attribute, index, bound, noun in specs:
                widgets.append(self._number_field(
                    key, bound,
                    read=lambda a=attribute, i=index: _current(current(), a, i) if current() else 0.0,
                    apply=lambda v, a=attribute, i=index, n=noun: self._change_objects([current()], a, i, v, n)))
            self._row(label, widgets)
        if isinstance(obj, Wall):
            self._build_wall(current)
        if isinstance(obj, Sprite):
            self._build_sprite(current)
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

        self._refreshers.insert(0, follow_rename)

    def _build_sprite(self, current) -> None:
        """A sprite's flips, and what it shows: a tileset's tile (its number editable) or a picture file."""
        flips = []
        for attribute, text, what in (("flip_x", "mirrored", "horizontally"), ("flip_y", "upside down", "vertically")):
            box = QCheckBox(text)
            box.setObjectName(attribute)
            self.fields[attribute] = box

            @guarded("flipping a sprite")
            def clicked(on: bool, a=attribute, w=what):
                obj = current()
                if obj is not None and getattr(obj, a) != on:
                    verb = "Flip" if on else "Unflip"
                    self._ctx.push(ChangeObjectsCommand(self._doc, [obj], [replace(obj, **{a: on})],
                                                        f"{verb} {obj.id} {w}"))

            def show(box=box, a=attribute):
                obj = current()
                if obj is not None:
                    _show_quietly(box, box.isChecked, box.setChecked, getattr(obj, a))

            box.clicked.connect(lambda on, c=clicked: c(on))
            self._refreshers.append(show)
            flips.append(box)
        self._row("Flip", flips)
        obj = current()
        if obj.tileset:
            tileset = QLabel()
            tileset.setObjectName("tileset")
            self.fields["tileset"] = tileset
            self._refreshers.append(lambda: tileset.setText(current().tileset if current() else ""))
            self._row("Tileset", [tileset])
            self._row("Tile", [self._number_field(
                "tile", Bound(0.0, float(2 ** 29 - 1)),
                read=lambda: float(current().tile) if current() else 0.0,
                apply=lambda v: self._change_tile(current(), v))])
        else:
            path = QLineEdit()
            path.setObjectName("picture")
            path.setReadOnly(True)
            path.setToolTip("The picture's file, relative to the level file")
            self.fields["picture"] = path
            self._refreshers.append(lambda: path.setText(current().picture if current() else ""))
            self._row("Picture", [path])

    def _change_tile(self, sprite, number: float) -> Optional[str]:
        """Show tile ``number`` of the sprite's tileset; refused, in the file reader's words, when it has none."""
        if sprite is None:
            return None
        if number != int(number):
            return "must be a whole number (a tile's number)"
        tile = int(number)
        tileset = self._doc.level.tileset(sprite.tileset)
        if tileset is None:
            return f"tileset {sprite.tileset!r} does not exist"
        if not tileset.has_tile(tile):
            count = tileset.tile_count()
            return f"tile {tile} is not in tileset {sprite.tileset!r} (it has {count} tiles)"
        if tile != sprite.tile:
            self._ctx.push(ChangeObjectsCommand(self._doc, [sprite], [replace(sprite, tile=tile)],
                                                f"Change tile of {sprite.id}"))
        return None

    def _one_way_field(self, current) -> QCheckBox:
        box = QCheckBox("a floor from above")
        box.setObjectName("one_way")
        box.setToolTip("A platformer's one-way floor: stood on from above, passed through from below and the sides "
                       "(Down + jump drops through it)")
        self.fields["one_way"] = box

        @guarded("making an object one-way")
        def clicked(on: bool):
            obj = current()
            if obj is not None and obj.one_way != on:
                verb = "Make" if on else "Unmake"
                self._ctx.push(ChangeObjectsCommand(self._doc, [obj], [replace(obj, one_way=on)],
                                                    f"{verb} {obj.id} one-way"))

        def show():
            obj = current()
            if obj is not None:
                _show_quietly(box, box.isChecked, box.setChecked, obj.one_way)

        box.clicked.connect(lambda on: clicked(on))
        self._refreshers.append(show)
        return box

    def _build_path(self, current) -> None:
        """Whether the object moves, and its path's speed, mode and points (their handles are on the canvas)."""
        moves = QCheckBox("along a path")
        moves.setObjectName("moves")
        moves.setToolTip("Drag the path's points on the canvas; double-click the path to add one, click one and "
                         "press Delete to remove it")
        self.fields["moves"] = moves
        mode = QComboBox()
        mode.setObjectName("path.mode")
        for name in MODES:
            mode.addItem(_MODE_NAMES[name], name)
        self.fields["path.mode"] = mode
        points = QLabel()
        points.setObjectName("path.points")
        self.fields["path.points"] = points

        def change_path(obj, path, label: str) -> None:
            self._ctx.push(ChangeObjectsCommand(self._doc, [obj], [replace(obj, path=path)], label))

        @guarded("making an object move")
        def clicked(on: bool):
            obj = current()
            if obj is None or (obj.path is not None) == on:
                return
            change_path(obj, MovePath(((0.0, 0.0), (0.0, -NEW_PATH_RISE)), NEW_PATH_SPEED) if on else None,
                        f"{'Give' if on else 'Take'} {obj.id} {'a' if on else 'its'} path")

        def apply_speed(v: float) -> Optional[str]:
            obj = current()
            if obj is None or obj.path is None or obj.path.speed == v:
                return None
            change_path(obj, replace(obj.path, speed=v), f"Change path speed of {obj.id}")
            return None

        @guarded("changing a path's mode")
        def chosen(index: int):
            obj = current()
            if obj is not None and obj.path is not None and obj.path.mode != MODES[index]:
                change_path(obj, replace(obj.path, mode=MODES[index]), f"Change path mode of {obj.id}")

        speed = self._number_field("path.speed", SPEED,
                                   lambda: current().path.speed if current() and current().path else 0.0, apply_speed)

        def show():
            obj = current()
            path = obj.path if obj is not None else None
            _show_quietly(moves, moves.isChecked, moves.setChecked, path is not None)
            speed.setEnabled(path is not None)
            mode.setEnabled(path is not None)
            if path is not None:
                _show_quietly(mode, mode.currentIndex, mode.setCurrentIndex, MODES.index(path.mode))
            points.setText(str(len(path.points)) if path is not None else "—")

        moves.clicked.connect(lambda on: clicked(on))
        mode.currentIndexChanged.connect(lambda index: chosen(index))
        self._refreshers.append(show)
        self._row("Moves", [moves])
        self._row("Speed px/s", [speed])
        self._row("Mode", [mode])
        self._row("Points", [points])

    def _build_wall(self, current) -> None:
        closed = QCheckBox("joins the last node to the first")
        closed.setObjectName("closed")
        self.fields["closed"] = closed

        @guarded("closing a wall")
        def toggled(on):
            wall = current()
            if wall is not None and wall.closed != on:
                verb = "Close" if on else "Open"
                self._ctx.push(ChangeObjectsCommand(self._doc, [wall], [replace(wall, closed=on)],
                                                    f"{verb} {wall.id}"))

        closed.toggled.connect(lambda on: toggled(on))

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
        model = NodesModel(self._doc, lambda: current().id if current() else "", self._ctx.push)
        table = NodesTable(model)
        model.setParent(table)
        model.refused.connect(lambda text: self.show_problem(text, table))
        self.nodes = table
        self.fields["nodeTable"] = table
        shown = {"wall": None}

        def show_nodes():
            wall = current()
            if wall is not shown["wall"]:
                shown["wall"] = wall
                model.sync()

        self._refreshers.append(show_nodes)
        self._form.addRow(table)

    def _build_shared(self, ids: list[str]) -> None:
        """Several objects: what they share (type, layer, solid, numbers); one undo step changes all of them."""
        objs = self._objects(ids)
        classes = list(dict.fromkeys(map(type, objs)))
        self._row("Type", [self._type_field(lambda: ids)])
        self._row("Layer", [self._layer_field(lambda: ids)])
        if classes and all(_class_has_solid(c) for c in classes):
            self._row("Solid", [self._solid_field(lambda: ids)])
        if not objs:
            return
        def selected():
            return self._objects(ids)  # read once per change, however many fields ask

        for label, specs in _shared_rows(classes):
            widgets = []
            for key, attribute, index, bound, noun in specs:
                def read(a=attribute, i=index):
                    every = selected()
                    if not every:
                        return 0.0
                    first = _current(every[0], a, i)
                    return first if all(_current(o, a, i) == first for o in every) else None

                widgets.append(self._number_field(
                    key, bound, read=read,
                    apply=lambda v, a=attribute, i=index, n=noun: self._change_objects(selected(), a, i, v, n)))
            self._row(label, widgets)

    def _objects(self, ids: list[str]) -> list:
        """The objects ``ids`` name, as they are now (read once per change for a big selection)."""
        if len(ids) < 64:
            return [o for o in (self._doc.get(i) for i in ids) if o is not None]
        cached = self._objects_cache
        if cached is not None and cached[0] is self._doc.level and cached[1] is ids:
            return cached[2]
        if whole_level(self._doc, ids):
            objs = list(self._doc.objects)
        else:
            objs = [o for o in map(self._doc.get, ids) if o is not None]
        self._objects_cache = (self._doc.level, ids, objs)
        return objs

    @staticmethod
    def _subject(objs) -> str:
        return objs[0].id if len(objs) == 1 else f"{len(objs)} objects"

    def _layer_field(self, ids: Callable[[], list[str]]) -> QComboBox:
        """The layer of the object(s): choosing another moves them there, as one undo step."""
        combo = QComboBox()
        combo.setObjectName("layer")
        combo.setToolTip("The layer the object is on (Layers dock); choose another to move it there")
        combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(6)
        self.fields["layer"] = combo

        def show():
            layers = self._doc.level.layers
            on = {o.layer for o in self._objects(ids())}
            combo.blockSignals(True)
            combo.clear()
            if len(on) != 1:
                combo.addItem(MIXED_TEXT, None)
            for layer in reversed(layers):
                combo.addItem(layer.name, layer.id)
            combo.setCurrentIndex(0 if len(on) != 1 else max(combo.findData(next(iter(on))), 0))
            combo.blockSignals(False)

        @guarded("moving objects to a layer")
        def chosen(index: int):
            layer_id = combo.itemData(index)
            if layer_id is None or self._doc.level.layer(layer_id) is None:
                return
            moving = [o.id for o in self._objects(ids()) if o.layer != layer_id]
            if moving:
                self._ctx.push(MoveObjectsToLayerCommand(self._doc, moving, layer_id))
            layer = self._doc.level.layer(layer_id)
            if layer is not None and (layer.locked or not layer.visible):
                self._ctx.message.emit(f"Moved to '{layer.name}', which is {'locked' if layer.locked else 'hidden'}")

        combo.activated.connect(lambda index: chosen(index))
        self._data_refreshers.append(show)
        return combo

    def _type_field(self, ids: Callable[[], list[str]]) -> QComboBox:
        """The object's type: one of the level's types, "(none)", or a new name typed in (Check then warns)."""
        combo = QComboBox()
        combo.setObjectName("type")
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.NoInsert)
        combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(6)
        combo.lineEdit().setPlaceholderText(MIXED_TEXT)
        combo.lineEdit().setMaxLength(MAX_NAME_LENGTH)
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

        @guarded("changing the type")
        def chosen(text: str):
            every = self._objects(ids())
            name = "" if text.strip() in ("", NONE_TEXT) else text.strip()
            changed = [o for o in every if o.type != name]
            if not changed or (not text.strip() and len({o.type for o in every}) > 1):
                show()  # nothing chosen over "—", or nothing changes
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

        @guarded("making objects solid")
        def clicked(on: bool):
            objs = [o for o in self._objects(ids()) if o.solid != on]
            if objs:
                subject = self._subject(self._objects(ids()))
                label = f"Make {subject} solid" if on else f"Make {subject} not solid"
                self._ctx.push(ChangeObjectsCommand(self._doc, objs, [replace(o, solid=on) for o in objs], label))
            show()

        box.clicked.connect(lambda on: clicked(on))
        self._data_refreshers.append(show)
        return box

    def _build_player(self) -> None:
        doc = self._doc
        shape = QComboBox()
        shape.setObjectName("shape")
        shape.addItems(list(Player.SHAPES))
        self.fields["shape"] = shape
        shape.setCurrentText(doc.player.shape)
        reshape = guarded("changing the player's shape")(lambda text: self._change_player("shape", None, text, "shape"))
        shape.currentTextChanged.connect(lambda text: reshape(text))
        self._row("Shape", [shape])
        if doc.player.shape == "box":
            self._row("Size", [
                self._number_field("size.x", SIZE, lambda: doc.player.size.x,
                                   lambda v: self._change_player("size", 0, v, "width")),
                self._number_field("size.y", SIZE, lambda: doc.player.size.y,
                                   lambda v: self._change_player("size", 1, v, "height")),
            ])
        else:
            self._row("Radius", [self._number_field("radius", SIZE, lambda: doc.player.radius,
                                                    lambda v: self._change_player("radius", None, v, "radius"))])
        self._row("Speed px/s", [self._number_field("speed", SPEED, lambda: doc.player.speed,
                                                    lambda v: self._change_player("speed", None, v, "speed"))])
        self._row("Spawn", [
            self._number_field("spawn.x", COORDINATE, lambda: doc.player.spawn.x,
                               lambda v: self._change_player("spawn", 0, v, "spawn")),
            self._number_field("spawn.y", COORDINATE, lambda: doc.player.spawn.y,
                               lambda v: self._change_player("spawn", 1, v, "spawn")),
        ])

        def show_shape():
            if shape.currentText() != doc.player.shape:
                shape.blockSignals(True)
                shape.setCurrentText(doc.player.shape)
                shape.blockSignals(False)

        self._refreshers.append(show_shape)
        self._build_controller()

    def _build_controller(self) -> None:
        """The controller (top-down or platformer) and, for a platformer, every setting of its feel."""
        doc = self._doc
        controller = QComboBox()
        controller.setObjectName("controller")
        for name in Player.CONTROLLERS:
            controller.addItem(_CONTROLLER_NAMES[name], name)
        self.fields["controller"] = controller
        controller.setCurrentIndex(Player.CONTROLLERS.index(doc.player.controller))
        change = guarded("changing the player's controller")(
            lambda index: self._change_player("controller", None, Player.CONTROLLERS[index], "controller"))
        controller.currentIndexChanged.connect(lambda index: change(index))
        self._row("Controller", [controller])

        def show_controller():
            _show_quietly(controller, controller.currentIndex, controller.setCurrentIndex,
                          Player.CONTROLLERS.index(doc.player.controller))

        self._refreshers.append(show_controller)
        if doc.player.controller != "platformer":
            return
        for setting in PLAYER_SETTINGS:
            label, _ = _SETTING_NAMES[setting.name]
            self._row(label, [self._setting_field(setting)])

    def _setting_field(self, setting: Setting) -> ValueField:
        """A field for one platformer setting, refused as ``check`` refuses it; an optional one may be emptied."""
        doc = self._doc
        name = setting.name
        label, unit = _SETTING_NAMES[name]

        def read(text: str):
            if setting.optional and not text.strip():
                return None  # not used (the run speed changes at once)
            return typed_number(text, setting)

        f = self._value_field(name, read)
        f.label = label
        f.setValidator(NumberCharacters(f))
        if setting.optional:
            f.setPlaceholderText("at once")
        f.setToolTip(f"{label} ({unit})" if unit else label)

        @guarded(f"changing the player's {label.lower()}")
        def committed(value) -> None:
            problem = self._change_player(name, None, None if value is None else float(value), label.lower())
            if problem:
                f.restore()
                self.show_problem(f"{label}: {problem} (not applied)", f)
            self.refresh()

        def show() -> None:
            v = getattr(doc.player, name)
            f.show_value("" if v is None else shown_number(v))

        f.committed.connect(lambda value: committed(value))
        self._refreshers.append(show)
        return f

    def _build_level(self) -> None:
        doc = self._doc
        name = self._value_field("name", checked_text(_level_name_problem))
        rename = guarded("renaming the level")(lambda text: self._ctx.push(
            ChangeLevelPropertiesCommand(doc, "Change name of level", name=text)))
        name.committed.connect(lambda text: rename(text))
        self._refreshers.append(lambda: name.show_value(doc.level.name))
        self._row("Name", [name])

        def set_grid(v: float) -> Optional[str]:
            if v != doc.level.grid:
                self._ctx.push(ChangeLevelPropertiesCommand(doc, "Change grid of level", grid=v))
            return None

        self._row("Grid", [self._number_field("grid", GRID, lambda: doc.level.grid, set_grid)])
        count = QLabel()
        count.setObjectName("objectCount")
        self.fields["objectCount"] = count
        self._refreshers.append(lambda: count.setText(str(len(doc))))
        self._row("Objects", [count])

    # -- edits (one undo step each); each returns why it was refused, if it was --------------
    def _change_objects(self, objs, attribute: str, index: Optional[int], number: float, noun: str) -> Optional[str]:
        old = [o for o in objs if o is not None and _current(o, attribute, index) != number]
        if not old:
            return None
        new = [_with_value(o, attribute, index, number) for o in old]
        for o in new:
            problem = object_problem(o)
            if problem is not None:
                return f"{o.id} {problem}"
        subject = self._subject([o for o in objs if o is not None])
        self._ctx.push(ChangeObjectsCommand(self._doc, old, new, f"Change {noun} of {subject}"))
        return None

    def _move_wall(self, wall, axis: int, number: float) -> Optional[str]:
        if wall is None or wall.points[0][axis] == number:
            return None
        delta = number - wall.points[0][axis]
        moved = wall.moved(delta, 0.0) if axis == 0 else wall.moved(0.0, delta)
        problem = object_problem(moved)
        if problem is not None:
            return f"{wall.id} {problem}"
        self._ctx.push(ChangeObjectsCommand(self._doc, [wall], [moved], f"Move {wall.id}"))
        return None

    def _rename(self, old_id: str, new_id: str) -> None:
        """A new id; properties that referred to the object follow it (in the same undo step)."""
        try:
            command = rename_command(self._doc, old_id, new_id)
        except ValueError as refused:
            self.show_problem(f"Id: {refused} (not applied)", self.fields.get("id"))
            return
        if command is not None:
            self._ctx.push(command)

    def _change_player(self, attribute: str, index: Optional[int], value, noun: str) -> Optional[str]:
        old = self._doc.player
        if index is None:
            if getattr(old, attribute) == value:
                return None
            new = replace(old, **{attribute: value})
        else:
            if _current(old, attribute, index) == value:
                return None
            new = _with_value(old, attribute, index, value)
        problem = object_problem(new)
        if problem is not None:
            return f"the player {problem}"
        self._ctx.push(ChangePlayerCommand(self._doc, old, new, f"Change {noun} of player"))
        return None


def _show_quietly(widget, read, show, value) -> None:
    """Show the document's ``value`` in ``widget`` (``read()``/``show(value)``) without it taking that for an edit."""
    if read() != value:
        with QSignalBlocker(widget):
            show(value)


def _level_name_problem(text: str) -> Optional[str]:
    if not text.strip():
        return "a level needs a name"
    if len(text) > MAX_NAME_LENGTH:
        return f"a name is at most {MAX_NAME_LENGTH} characters"
    return None
