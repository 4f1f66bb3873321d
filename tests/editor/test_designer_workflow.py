"""A designer makes the CONTRACT's level format version 2 example with the mouse and the keyboard alone.

One long test, from a new empty level in a real main window to the saved file:
every object, layer, type and property of the example (CONTRACT.md section 1) is
made through real mouse clicks and key presses on the canvas, the Layers dock,
the toolbars and Tool Options, the Object Types editor and the inspector's
fields, drop-down lists and properties tables. What is not an input event: the
answers to the file dialogs (the window's ``ask_save_path`` and
``ask_image_path``, as every other test answers them); Edit > Object Types…, a
menu entry without a shortcut, triggered as the menu would trigger it; the
view's zoom and scroll, set once by :func:`make_window`; scrolling the
inspector to a field before clicking it; and giving a window the focus, which a
desktop's window manager does.

The editor names new layers itself (``layer-2``, ``layer-3``) and a layer's id
cannot be changed in the editor, only its name: the saved layers are compared by
name ("Art", "Walls", "Things"), each object's layer through its layer's name.
The objects get the example's ids exactly: wall-1, box-1 and tiles-1 are the
names the editor gives them, the others are typed into the inspector's Id field.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QComboBox, QDialogButtonBox, QLineEdit, QStyle, QStyleOptionButton,
)

from level_editor.core.checks.check import check_level
from level_editor.core.level.file_format import load_level
from level_editor.editor.panels.layers_panel import LOCKED, NAME
from tests.core.level.test_format_v2 import CONTRACT_EXAMPLE
from tests.editor.helpers import click, drag, key, make_window

COURTYARD = Path(__file__).resolve().parents[2] / "levels" / "art" / "courtyard.png"

NO_SNAP = Qt.ControlModifier  # held while clicking or dragging: no snapping, the example's numbers are off-grid


# -- small helpers: what a hand does ---------------------------------------------------------------------------
def activate(qtbot, top) -> None:
    """Bring a window to the front with the keyboard focus in it (as clicking its title bar would)."""
    top.activateWindow()
    qtbot.waitUntil(top.isActiveWindow)


def reveal(window, widget) -> None:
    """Scroll the inspector to ``widget`` when it is in there (a designer scrolls to what they want to click)."""
    area = window.inspector.scroll_area
    if area.widget().isAncestorOf(widget):
        area.ensureWidgetVisible(widget)
    QApplication.processEvents()


def type_into(window, field: QLineEdit, text: str, enter: bool = True) -> None:
    """Click the field, select what it holds with the keys, type ``text`` over it and press Enter."""
    reveal(window, field)
    QTest.mouseClick(field, Qt.LeftButton)
    assert field.hasFocus()
    QTest.keyClick(field, Qt.Key_End)
    QTest.keyClick(field, Qt.Key_Home, Qt.ShiftModifier)
    QTest.keyClicks(field, text)
    if enter:
        QTest.keyClick(field, Qt.Key_Return)


def choose(qtbot, window, combo: QComboBox, index: int) -> None:
    """Click a drop-down list and, in the list that opens, the entry at ``index``."""
    reveal(window, combo)
    QTest.mouseClick(combo, Qt.LeftButton)
    view = combo.view()
    assert view.isVisible()
    pixel = view.visualRect(combo.model().index(index, 0)).center()
    # the list follows the mouse: the entry under it becomes the current one
    QApplication.sendEvent(view.viewport(), QMouseEvent(QEvent.MouseMove, QPointF(pixel),
                                                        QPointF(view.viewport().mapToGlobal(pixel)),
                                                        Qt.NoButton, Qt.NoButton, Qt.NoModifier))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, pixel)
    assert combo.currentIndex() == index and not view.isVisible()
    # Qt's offscreen platform leaves the closed list as the active window; a desktop gives the window back
    activate(qtbot, combo.window())


def click_widget(window, widget) -> None:
    reveal(window, widget)
    QTest.mouseClick(widget, Qt.LeftButton)


def click_checkbox(window, box) -> None:
    """Click on the box itself (a click beside its text does nothing)."""
    reveal(window, box)
    option = QStyleOptionButton()
    option.initFrom(box)
    indicator = box.style().subElementRect(QStyle.SE_CheckBoxIndicator, option, box)
    QTest.mouseClick(box, Qt.LeftButton, Qt.NoModifier, indicator.center())


def add_property(qtbot, window, table, name: str, kind: str) -> None:
    """Under a properties table: type the new property's name, choose its type from the list, click +."""
    type_into(window, table.new_name, name, enter=False)
    choose(qtbot, window, table.new_kind, table.new_kind.findData(kind))
    click_widget(window, table.add_button)
    assert name in [r.name for r in table.rows()], table.problem_text()


def set_value(window, table, name: str, text: str) -> None:
    """Type a property's value into its cell and press Enter."""
    type_into(window, table.editor(name), text)
    assert table.problem_text() == ""


# the Layers dock
def layer_cell(window, name: str, column: int) -> QPoint:
    model = window.layers_panel.model
    row = next(r for r in range(model.rowCount()) if model.index(r, NAME).data() == name)
    return window.layers_panel.view.visualRect(model.index(row, column)).center()


def click_layer(window, name: str, column: int = NAME) -> None:
    QTest.mouseClick(window.layers_panel.view.viewport(), Qt.LeftButton, Qt.NoModifier,
                     layer_cell(window, name, column))


def rename_layer(window, name: str, new_name: str) -> None:
    """Double-click the layer's name, type the new one, press Enter."""
    view = window.layers_panel.view
    pixel = layer_cell(window, name, NAME)
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, pixel)
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, pixel)
    QTest.mouseRelease(view.viewport(), Qt.LeftButton, Qt.NoModifier, pixel)
    assert view.state() == QAbstractItemView.EditingState
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit) and editor.text() == name
    QTest.keyClick(editor, Qt.Key_End)
    QTest.keyClick(editor, Qt.Key_Home, Qt.ShiftModifier)
    QTest.keyClicks(editor, new_name)
    QTest.keyClick(editor, Qt.Key_Return)
    QApplication.processEvents()  # the view commits the edit a moment later


def click_toolbar_button(toolbar, action) -> None:
    QTest.mouseClick(toolbar.widgetForAction(action), Qt.LeftButton)


def tool(window, key_code, class_name):
    """Press a tool's key on the canvas."""
    key(window, key_code)
    assert type(window.tool).__name__ == class_name
    return window.tool


def selected(window):
    [oid] = window.selection.ids()
    return window.document.get(oid)


def name_selected(window, new_id: str) -> None:
    """Type the selected object's id into the inspector's Id field."""
    type_into(window, window.inspector.field("id"), new_id)
    assert window.selection.ids() == [new_id]


def set_type(window, name: str) -> None:
    """Type the selected object's type into the inspector's Type field (one of the level's, or a new name)."""
    type_into(window, window.inspector.field("type").lineEdit(), name)


# -- the test --------------------------------------------------------------------------------------------------
def test_a_designer_makes_the_contract_example_with_mouse_and_keyboard(qtbot, tmp_path):
    (tmp_path / "art").mkdir()
    shutil.copy(COURTYARD, tmp_path / "art" / "demo.png")
    level_path = tmp_path / "demo.json"

    window = make_window(qtbot, tmp_path)  # a new, empty level
    activate(qtbot, window)
    asked_save = []
    window.ask_save_path = lambda: asked_save.append(True) or str(level_path)
    window.ask_image_path = lambda: str(tmp_path / "art" / "demo.png")
    doc = window.document
    assert len(doc) == 0 and [layer.name for layer in doc.level.layers] == ["Main"]

    # Save it first, in the game's folder, so pictures are stored relative to it (Ctrl+S asks where).
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert asked_save == [True] and level_path.exists()

    # -- the level: its name and custom properties (nothing selected: the inspector shows the level) --------
    assert window.inspector.title.text() == "Level"
    type_into(window, window.inspector.field("name"), "Demo")
    level_table = window.inspector.properties
    add_property(qtbot, window, level_table, "music", "string")
    set_value(window, level_table, "music", "theme.ogg")
    add_property(qtbot, window, level_table, "time_limit", "integer")
    set_value(window, level_table, "time_limit", "90")
    add_property(qtbot, window, level_table, "night", "boolean")  # a new boolean is false
    assert doc.level.name == "Demo"
    assert doc.level.properties == {"music": "theme.ogg", "time_limit": 90, "night": False}

    # -- object types: Edit > Object Types… (a menu entry without a shortcut) ----------------------------------
    window.types_action.trigger()
    types = window.types_editor
    activate(qtbot, types)
    for name, props in (("enemy", [("health", "integer", "3"), ("speed", "float", "1.5")]),
                        ("door", [("opened_by", "object", None)])):
        QTest.mouseClick(types.add_button, Qt.LeftButton)
        assert types.name_field.hasFocus()  # the new type's name is selected: typing replaces it
        QTest.keyClicks(types.name_field, name)
        QTest.keyClick(types.name_field, Qt.Key_Return)
        assert types.current == name
        for prop, kind, value in props:
            add_property(qtbot, window, types.properties, prop, kind)
            if value is not None:
                set_value(window, types.properties, prop, value)
    # new types take the next colour in turn: the example's enemy red and door blue, no colour dialog needed
    assert [(t.name, t.color) for t in doc.level.types] == [("enemy", "#e0503c"), ("door", "#3c8ce0")]
    QTest.mouseClick(types.findChild(QDialogButtonBox).button(QDialogButtonBox.Close), Qt.LeftButton)
    assert not types.isVisible()
    activate(qtbot, window)

    # -- layers: Main becomes Art; + adds Walls above it, + again Things above that ---------------------------
    rename_layer(window, "Main", "Art")
    panel_bar = window.layers_panel.findChild(type(window.main_toolbar))
    click_toolbar_button(panel_bar, window.layers_panel.add_action)
    rename_layer(window, "Layer 2", "Walls")
    click_toolbar_button(panel_bar, window.layers_panel.add_action)
    rename_layer(window, "Layer 3", "Things")
    assert [(layer.name, layer.locked) for layer in doc.level.layers] == [
        ("Art", False), ("Walls", False), ("Things", False)]
    layer_id = {layer.name: layer.id for layer in doc.level.layers}

    # -- the backdrop on Art: the toolbar's Add Reference Image button, then its numbers in the inspector ------
    click_layer(window, "Art")
    assert window.context.current_layer == layer_id["Art"]
    click_toolbar_button(window.main_toolbar, window.add_image_action)
    image = selected(window)
    assert image.kind == "image" and image.path == "art/demo.png"
    name_selected(window, "backdrop")
    type_into(window, window.inspector.field("origin.x"), "0")
    type_into(window, window.inspector.field("origin.y"), "0")
    type_into(window, window.inspector.field("opacity"), "0.35")  # fainter, to trace over...
    assert selected(window).opacity == 0.35
    type_into(window, window.inspector.field("opacity"), "0.5")  # ...no: as the example has it
    assert (tuple(selected(window).origin), selected(window).opacity) == ((0, 0), 0.5)
    click_layer(window, "Art", LOCKED)  # locked: nothing on it can be picked any more
    assert doc.level.layer(layer_id["Art"]).locked

    # -- on Walls: a wall (W), a box (B) and a tile grid painted with the brush (T) ------------------------------
    click_layer(window, "Walls")
    tool(window, Qt.Key_W, "WallTool")
    for x, y in ((0, 0), (320, 0), (320, 240)):
        click(window, x, y)
    key(window, Qt.Key_Return)
    wall = selected(window)
    assert (wall.id, wall.thickness, len(wall.points)) == ("wall-1", 8, 3)

    tool(window, Qt.Key_B, "BoxTool")
    drag(window, (100, 100), (164, 132), NO_SNAP)
    assert selected(window).id == "box-1"

    tool(window, Qt.Key_T, "TileBrushTool")
    drag(window, (8, 280), (120, 280), steps=8)  # the bottom row, eight cells
    drag(window, (8, 264), (24, 264), steps=2)  # two cells on the left of the row above
    drag(window, (104, 264), (120, 264), steps=2)  # and two on the right
    [tiles] = [o for o in doc.objects if o.kind == "tiles"]
    assert tiles.cells == ("##....##", "########")

    # -- on Things: goblin-1, a marker of type enemy (M, its type under Tool Options), and the lever --------------
    click_layer(window, "Things")
    tool(window, Qt.Key_M, "MarkerTool")
    marker_type = window.findChild(QComboBox, "markerType")
    qtbot.waitUntil(marker_type.isVisible)
    choose(qtbot, window, marker_type, marker_type.findText("enemy"))
    click(window, 200, 80, NO_SNAP)
    goblin = selected(window)
    assert (goblin.kind, goblin.type) == ("point", "enemy")
    name_selected(window, "goblin-1")
    props = window.inspector.properties
    assert [(r.name, r.value, r.inherited) for r in props.rows()] == [("health", 3, True), ("speed", 1.5, True)]
    set_value(window, props, "health", "5")  # the goblin's own health; speed stays the type's

    key(window, Qt.Key_M)  # back on the canvas
    choose(qtbot, window, marker_type, marker_type.findText("(none)"))
    click(window, 40, 200, NO_SNAP)
    assert (selected(window).kind, selected(window).type) == ("point", "")
    name_selected(window, "lever")

    # -- gate: a door on Walls whose opened_by is the lever, picked by clicking the lever on the canvas ---------
    click_layer(window, "Walls")
    tool(window, Qt.Key_B, "BoxTool")
    drag(window, (240, 96), (248, 144), NO_SNAP)
    name_selected(window, "gate")
    set_type(window, "door")
    props = window.inspector.properties
    assert [(r.name, r.inherited) for r in props.rows()] == [("opened_by", True)]
    click_widget(window, props.pick_button("opened_by"))
    assert window.inspector.picker.active
    click(window, 40, 200)
    assert not window.inspector.picker.active
    assert window.selection.ids() == ["gate"]  # the pick selected nothing, and the box tool drew nothing

    # -- exit: an area of type exit_zone (a type the level does not list) on Things, not solid ------------------
    click_layer(window, "Things")
    key(window, Qt.Key_B)
    drag(window, (280, 200), (312, 232), NO_SNAP)
    name_selected(window, "exit")
    set_type(window, "exit_zone")
    click_checkbox(window, window.inspector.field("solid"))

    # -- the spawn (I) where the example has it (a new level's spawn is there already: no undo step) ----------
    tool(window, Qt.Key_I, "SpawnTool")
    click(window, 64, 64)
    assert tuple(doc.player.spawn) == (64, 64)

    # -- save (Ctrl+S: the level has its file, nothing is asked) ------------------------------------------------
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert asked_save == [True] and not window.is_modified() and window.errors == []

    # -- the file is the example ----------------------------------------------------------------------------------
    data = json.loads(level_path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"], data["name"], data["grid"]) == ("level-editor.level", 3, "Demo", 16)
    assert data["properties"] == CONTRACT_EXAMPLE["properties"]
    assert type(data["properties"]["time_limit"]) is int and data["properties"]["night"] is False
    assert data["types"] == CONTRACT_EXAMPLE["types"]
    health, speed = data["types"][0]["properties"]["health"], data["types"][0]["properties"]["speed"]
    assert type(health) is int and type(speed) is float
    # layers bottom to top, compared by name (the editor made their ids; the example's are its names, lowercased)
    assert [(layer["name"], layer["visible"], layer["locked"]) for layer in data["layers"]] == [
        ("Art", True, True), ("Walls", True, False), ("Things", True, False)]
    layer_names = {layer["id"]: layer["name"].lower() for layer in data["layers"]}
    assert data["player"] == CONTRACT_EXAMPLE["player"]
    saved = [{**o, "layer": layer_names[o["layer"]]} for o in data["objects"]]
    assert saved == CONTRACT_EXAMPLE["objects"]
    by_id = {o["id"]: o for o in saved}
    assert type(by_id["goblin-1"]["properties"]["health"]) is int
    assert by_id["exit"]["solid"] is False
    assert set(data["hulls"]) >= {"wall-1", "box-1", "tiles-1", "gate", "exit", "level"}

    # -- and it loads and checks without errors (the exit_zone type is not listed: a warning, as the example) ----
    level = load_level(level_path)
    problems = check_level(level, base_dir=str(tmp_path)).problems
    assert [str(p) for p in problems if p.is_error] == []
