"""Custom properties in the inspector: typed values, type defaults, references, the level's own, shared edits.

Driven with real clicks and keys on the widgets; every edit is checked in the
document (an integer stays an ``int``) and undone and redone exactly.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit, QStyle, QStyleOptionButton

from level_editor.core.level.model import Box, Level, ObjectType, Pillar, Player, Ref, Wall
from level_editor.editor.panels.properties_table import PropertyField
from level_editor.editor.commands.properties import kind_of, parse_value, value_text
from tests.editor.helpers import click, drag, key, make_window, undo_texts
from tests.editor.panels.helpers import retype


def game_level() -> Level:
    """Two enemies (one with its own health), a lever, a gate that the lever opens, a wall; all well apart."""
    return Level(
        name="Game",
        grid=16,
        player=Player(spawn=(48, 48), radius=12),
        properties={"music": "theme.ogg", "time_limit": 90},
        types=(ObjectType("enemy", "#e0503c", {"health": 3, "speed": 1.5}),
               ObjectType("door", "#3c8ce0", {"opened_by": Ref("")})),
        objects=(
            Box("goblin-1", (240, 80), (32, 32), type="enemy", properties={"health": 5}),
            Box("goblin-2", (320, 80), (32, 32), type="enemy"),
            Pillar("lever", (240, 320), 16),
            Box("gate", (400, 200), (16, 64), type="door", properties={"opened_by": Ref("lever")}),
            Wall("wall-1", [(0, 200), (160, 200)], 8),
        ),
    )


GOBLIN_1, GOBLIN_2, LEVER, GATE, EMPTY = (256, 96), (336, 96), (240, 320), (408, 232), (600, 600)


@pytest.fixture
def game(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, game_level())


def table(window):
    return window.inspector.properties


def type_value(window, name, text, enter=True) -> PropertyField:
    return retype(table(window).editor(name), text, enter)


KIND_ORDER = ("string", "integer", "float", "boolean", "object")


def add_property(qtbot, window, name, kind):
    """Type a name, choose the kind with the arrow keys and click +."""
    t = table(window)
    t.new_name.setFocus()
    QTest.keyClicks(t.new_name, name)
    t.new_kind.setFocus()
    QTest.keyClick(t.new_kind, Qt.Key_Home)
    for _ in range(KIND_ORDER.index(kind)):
        QTest.keyClick(t.new_kind, Qt.Key_Down)
    assert t.new_kind.currentData() == kind
    qtbot.mouseClick(t.add_button, Qt.LeftButton)


def click_checkbox(qtbot, box):
    """Click on the box itself (a click beside its text does nothing, as for a user)."""
    option = QStyleOptionButton()
    option.initFrom(box)
    indicator = box.style().subElementRect(QStyle.SE_CheckBoxIndicator, option, box)
    qtbot.mouseClick(box, Qt.LeftButton, pos=indicator.center())


def edit_name_cell(qtbot, t, name, new_name):
    """Double-click a property's name, type a new one, press Enter."""
    rect = t.table.visualItemRect(t.table.item(t.row_of(name), 0))
    qtbot.mouseClick(t.table.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.mouseDClick(t.table.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: t.table.state() == QAbstractItemView.EditingState
                    and isinstance(QApplication.focusWidget(), QLineEdit)
                    and not isinstance(QApplication.focusWidget(), PropertyField))
    editor = QApplication.focusWidget()
    editor.selectAll()
    QTest.keyClicks(editor, new_name)
    QTest.keyClick(editor, Qt.Key_Return)
    qtbot.waitUntil(lambda: t.table.state() != QAbstractItemView.EditingState)  # the view commits a moment later


def shown(window) -> dict:
    return {r.name: r for r in table(window).rows()}


def undo_all_and_redo(window, states):
    """Undo every step back to ``states[0]``, checking each state on the way, then redo to the end."""
    stack = window.undo_stack
    for i in range(len(states) - 1, 0, -1):
        assert window.document.level == states[i]
        stack.undo()
    assert window.document.level == states[0]
    for i in range(1, len(states)):
        stack.redo()
        assert window.document.level == states[i]


# -- values keep their type ------------------------------------------------------------------------------------
def test_values_parse_to_their_kind_and_refuse_the_wrong_one():
    assert type(parse_value("integer", "3", "health")) is int
    assert type(parse_value("float", "3", "speed")) is float
    assert parse_value("integer", "-12", "x") == -12
    for bad in ("1.5", "abc", "", "1e3", "3 apples"):
        with pytest.raises(ValueError, match="health must be a whole number"):
            parse_value("integer", bad, "health")
    for bad in ("fast", "", "nan?"):
        with pytest.raises(ValueError, match="speed must be a"):
            parse_value("float", bad, "speed")
    with pytest.raises(ValueError, match="finite"):
        parse_value("float", "inf", "speed")
    with pytest.raises(ValueError, match="true or false"):
        parse_value("boolean", "yes", "night")
    assert [kind_of(v) for v in (True, 1, 1.0)] == ["boolean", "integer", "float"]
    assert value_text(2.0) == "2.0" and value_text(1 / 3) == "0.3333333333"


def test_typing_a_whole_number_into_an_integer_stores_an_int(game):
    click(game, *GOBLIN_1)
    before = game.document.level
    type_value(game, "health", "7")
    health = game.document.get("goblin-1").properties["health"]
    assert health == 7 and type(health) is int
    assert undo_texts(game) == ["Set health of goblin-1 to 7"]
    assert table(game).editor("health").text() == "7"
    undo_all_and_redo(game, [before, game.document.level])


def test_typing_a_whole_number_into_a_float_stores_a_float_and_overrides_the_default(game):
    click(game, *GOBLIN_2)
    before = game.document.level
    assert shown(game)["speed"].inherited
    type_value(game, "speed", "3")
    speed = game.document.get("goblin-2").properties["speed"]
    assert speed == 3.0 and type(speed) is float
    assert undo_texts(game) == ["Set speed of goblin-2 to 3.0"]
    assert table(game).editor("speed").text() == "3.0"
    assert shown(game)["speed"].overridden
    undo_all_and_redo(game, [before, game.document.level])
    game.undo_stack.undo()
    assert "speed" not in game.document.get("goblin-2").properties
    assert shown(game)["speed"].inherited and table(game).editor("speed").text() == "1.5"


def test_enter_without_a_change_is_no_step(game):
    click(game, *GOBLIN_1)
    field = table(game).editor("health")
    field.setFocus()
    QTest.keyClick(field, Qt.Key_Return)
    type_value(game, "health", "5")
    assert game.undo_stack.count() == 0


# -- bad input ----------------------------------------------------------------------------------------------------
def test_wrong_values_are_refused_with_a_visible_message_and_esc_restores(game):
    click(game, *GOBLIN_1)
    t = table(game)
    for bad in ("abc", "1.5"):
        field = type_value(game, "health", bad)
        assert t.problem.isVisible() and t.problem_text() == "health must be a whole number"
        assert field.problem and "border" in field.styleSheet()
        assert game.document.get("goblin-1").properties["health"] == 5
    QTest.keyClick(field, Qt.Key_Escape)
    assert field.text() == "5" and not t.problem.isVisible() and field.problem is None
    field = type_value(game, "speed", "fast")
    assert t.problem_text() == "speed must be a number"
    # leaving the field puts the value back and keeps saying why
    click(game, *EMPTY)
    click(game, *GOBLIN_1)
    assert table(game).editor("speed").text() == "1.5"
    assert game.undo_stack.count() == 0
    assert game.isVisible() and game.document.level == game_level()


def test_leaving_a_field_with_a_refused_value_restores_it_and_says_it_was_not_applied(qtbot, game):
    click(game, *GOBLIN_1)
    field = type_value(game, "health", "lots", enter=False)
    assert table(game).problem_text() == "health must be a whole number"
    game.inspector.field("id").setFocus()
    qtbot.waitUntil(lambda: not field.hasFocus())
    assert field.text() == "5"
    assert table(game).problem_text() == "health must be a whole number (not applied)"
    assert game.undo_stack.count() == 0


def test_property_names_must_be_new_and_not_empty(qtbot, game):
    click(game, *GOBLIN_1)
    t = table(game)
    add_property(qtbot, game, "health", "string")
    assert t.problem.isVisible() and t.problem_text() == "goblin-1 already has a property called health"
    t.new_name.clear()
    qtbot.mouseClick(t.add_button, Qt.LeftButton)
    assert t.problem_text() == "a property needs a name"
    add_property(qtbot, game, " ", "string")
    assert t.problem.isVisible()
    assert game.undo_stack.count() == 0


def test_renaming_a_property_in_its_cell_refuses_a_name_in_use(qtbot, game):
    click(game, *EMPTY)
    t = table(game)
    edit_name_cell(qtbot, t, "music", "time_limit")
    assert t.problem_text() == "level already has a property called time_limit"
    assert list(game.document.level.properties) == ["music", "time_limit"]
    assert t.table.item(t.row_of("music"), 0).text() == "music"
    edit_name_cell(qtbot, t, "music", "song")
    assert game.document.level.properties == {"song": "theme.ogg", "time_limit": 90}
    assert list(game.document.level.properties) == ["song", "time_limit"]
    assert undo_texts(game) == ["Rename property music of level to song"]
    game.undo_stack.undo()
    assert list(game.document.level.properties) == ["music", "time_limit"]


# -- adding and removing ----------------------------------------------------------------------------------------
def test_a_property_of_each_kind_is_added_with_its_own_empty_value(qtbot, game):
    click(game, *LEVER)
    states = [game.document.level]
    for name, kind in zip(("label", "count", "ratio", "open", "target"), KIND_ORDER):
        add_property(qtbot, game, name, kind)
        states.append(game.document.level)
    own = game.document.get("lever").properties
    assert own == {"label": "", "count": 0, "ratio": 0.0, "open": False, "target": Ref("")}
    assert [type(v) for v in own.values()] == [str, int, float, bool, Ref]
    assert [r.kind for r in table(game).rows()] == ["string", "integer", "float", "boolean", "object"]
    assert undo_texts(game) == [f"Add property {n} to lever" for n in ("label", "count", "ratio", "open", "target")]
    # the new property's value is ready to type into
    assert table(game).editor("target").hasFocus() or table(game).editor("target").isVisible()
    undo_all_and_redo(game, states)


def test_a_boolean_is_a_checkbox(qtbot, game):
    click(game, *LEVER)
    add_property(qtbot, game, "open", "boolean")
    box = table(game).editor("open")
    click_checkbox(qtbot, box)
    assert game.document.get("lever").properties["open"] is True
    assert undo_texts(game)[-1] == "Set open of lever to true"
    click_checkbox(qtbot, box)
    assert game.document.get("lever").properties["open"] is False
    game.undo_stack.undo()
    assert game.document.get("lever").properties["open"] is True and box.isChecked()


def test_removing_a_property_of_the_object(qtbot, game):
    click(game, *LEVER)
    add_property(qtbot, game, "label", "string")
    type_value(game, "label", "left lever")
    before = game.document.level
    t = table(game)
    qtbot.mouseClick(t.table.viewport(), Qt.LeftButton, pos=t.table.visualItemRect(t.table.item(0, 0)).center())
    qtbot.mouseClick(t.remove_button, Qt.LeftButton)
    assert game.document.get("lever").properties == {}
    assert undo_texts(game)[-1] == "Remove property label from lever"
    assert t.rows() == []
    undo_all_and_redo(game, [before, game.document.level])


def test_a_property_from_the_type_cannot_be_removed_only_reset(qtbot, game):
    click(game, *GOBLIN_2)
    t = table(game)
    t.table.setCurrentCell(t.row_of("health"), 0)
    assert not t.remove_button.isEnabled()
    t.table.setFocus()
    QTest.keyClick(t.table, Qt.Key_Delete)
    assert "comes from type enemy" in t.problem_text()
    assert game.document.get("goblin-2") is not None and game.undo_stack.count() == 0


# -- type defaults -----------------------------------------------------------------------------------------------
def test_a_default_from_the_type_is_greyed_and_marked_until_overridden_then_reset(qtbot, game):
    click(game, *GOBLIN_1)
    t = table(game)
    rows = shown(game)
    assert list(rows) == ["health", "speed"]
    assert rows["health"].overridden and rows["health"].value == 5 and rows["health"].default == 3
    assert rows["speed"].inherited and rows["speed"].origin == "enemy"
    speed_row = t.row_of("speed")
    assert t.table.item(speed_row, 3).text() == "enemy" and t.table.item(speed_row, 3).font().italic()
    assert t.table.item(speed_row, 0).font().italic()
    assert "italic" in t.editor("speed").styleSheet() and t.editor("speed").text() == "1.5"
    assert "From type enemy" in t.editor("speed").toolTip()
    assert not t.table.isColumnHidden(3) and t.table.horizontalHeaderItem(3).text() == "From"
    before = game.document.level
    reset = t.reset_button("health")
    assert "default of type enemy (3)" in reset.toolTip()
    qtbot.mouseClick(reset, Qt.LeftButton)
    assert game.document.get("goblin-1").properties == {}
    assert undo_texts(game) == ["Reset health of goblin-1 to the default of type enemy"]
    assert shown(game)["health"].inherited and t.editor("health").text() == "3"
    assert "italic" in t.editor("health").styleSheet()
    undo_all_and_redo(game, [before, game.document.level])


def test_reset_from_the_context_menu(game):
    click(game, *GOBLIN_1)
    t = table(game)
    menu = t.context_menu_for(shown(game)["health"])
    names = [a.text() for a in menu.actions()]
    assert names[0] == "Reset to Default (from type enemy)"
    assert not next(a for a in menu.actions() if a.text() == "Remove").isEnabled()
    menu.actions()[0].trigger()
    assert game.document.get("goblin-1").properties == {}


def test_an_object_without_a_type_shows_no_from_column(game):
    click(game, *LEVER)
    assert table(game).table.isColumnHidden(3)


# -- references --------------------------------------------------------------------------------------------------
def test_a_reference_is_picked_from_the_list_of_objects(qtbot, game):
    click(game, *GATE)
    combo = table(game).editor("opened_by")
    assert combo.currentText() == "lever"
    before = game.document.level
    qtbot.mouseClick(combo, Qt.LeftButton)
    qtbot.waitUntil(lambda: combo.view().isVisible())
    items = [combo.itemText(i) for i in range(combo.count())]
    assert items == ["(none)", "gate", "goblin-1", "goblin-2", "lever", "wall-1"]
    view = combo.view()
    rect = view.visualRect(view.model().index(combo.findData("goblin-2"), 0))
    # a release this soon after the popup opened is taken for the opening click's: at least that long passes
    # (a slower machine only waits longer)
    qtbot.wait(QApplication.doubleClickInterval() + 50)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=rect.center())
    assert game.document.get("gate").properties["opened_by"] == Ref("goblin-2")
    assert undo_texts(game) == ["Set opened_by of gate to goblin-2"]
    after = game.document.level
    # and back to none with the keyboard
    combo = table(game).editor("opened_by")
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key_Home)
    assert game.document.get("gate").properties["opened_by"] == Ref("")
    assert undo_texts(game)[-1] == "Set opened_by of gate to (none)"
    undo_all_and_redo(game, [before, after, game.document.level])


def test_a_reference_is_picked_by_clicking_the_object_on_the_canvas(qtbot, game):
    click(game, *GATE)
    tool = game.tool
    before = game.document.level
    pick = table(game).pick_button("opened_by")
    qtbot.mouseClick(pick, Qt.LeftButton)
    assert game.inspector.picker.active and pick.isChecked()
    click(game, *EMPTY)  # nothing there: still picking, nothing selected
    assert game.inspector.picker.active and game.selection.ids() == ["gate"]
    click(game, *GOBLIN_1)
    assert game.document.get("gate").properties["opened_by"] == Ref("goblin-1")
    assert undo_texts(game) == ["Set opened_by of gate to goblin-1"]
    # the click chose, it did not select or move anything, and the tool is the one it was
    assert game.selection.ids() == ["gate"] and game.tool is tool
    assert not game.inspector.picker.active and not table(game).pick_button("opened_by").isChecked()
    assert table(game).editor("opened_by").currentText() == "goblin-1"
    undo_all_and_redo(game, [before, game.document.level])
    # the next click is the tool's again
    click(game, *GOBLIN_2)
    assert game.selection.ids() == ["goblin-2"]


def test_esc_cancels_picking(qtbot, game):
    click(game, *GATE)
    qtbot.mouseClick(table(game).pick_button("opened_by"), Qt.LeftButton)
    key(game, Qt.Key_Escape)
    assert not game.inspector.picker.active
    assert not table(game).pick_button("opened_by").isChecked()
    click(game, *GOBLIN_1)
    assert game.selection.ids() == ["goblin-1"]
    assert game.document.get("gate").properties["opened_by"] == Ref("lever")
    assert game.undo_stack.count() == 0


def test_a_reference_to_a_missing_object_says_so(qtbot, tmp_path):
    level = game_level()
    gate = level.object_by_id("gate")
    level = level.with_objects([o if o.id != "gate" else
                                Box("gate", gate.origin, gate.size, type="door", properties={"opened_by": Ref("gone")})
                                for o in level.objects])
    window = make_window(qtbot, tmp_path, level)
    click(window, *GATE)
    assert table(window).editor("opened_by").currentText() == "gone (missing)"


# -- the level's own properties ---------------------------------------------------------------------------------
def test_the_level_shows_and_edits_its_own_properties_when_nothing_is_selected(qtbot, game):
    click(game, *EMPTY)
    ins = game.inspector
    assert ins.title.text() == "Level" and ins.properties_title.text() == "Custom properties of the level"
    assert [(r.name, r.kind) for r in table(game).rows()] == [("music", "string"), ("time_limit", "integer")]
    states = [game.document.level]
    type_value(game, "time_limit", "120")
    states.append(game.document.level)
    assert game.document.level.properties["time_limit"] == 120
    assert type(game.document.level.properties["time_limit"]) is int
    type_value(game, "music", "night theme.ogg")
    states.append(game.document.level)
    add_property(qtbot, game, "night", "boolean")
    states.append(game.document.level)
    click_checkbox(qtbot, table(game).editor("night"))
    states.append(game.document.level)
    assert game.document.level.properties == {"music": "night theme.ogg", "time_limit": 120, "night": True}
    assert undo_texts(game) == ["Set time_limit of level to 120", "Set music of level to night theme.ogg",
                                "Add property night to level", "Set night of level to true"]
    undo_all_and_redo(game, states)


def test_the_player_has_no_custom_properties(game):
    click(game, 48, 48)
    assert game.inspector.title.text() == "Player"
    assert not game.inspector.properties.isVisible()


# -- several objects ----------------------------------------------------------------------------------------------
def test_several_objects_of_one_type_show_their_shared_properties_and_an_edit_sets_all(game):
    click(game, *GOBLIN_1)
    click(game, *GOBLIN_2, Qt.ShiftModifier)
    assert game.inspector.title.text() == "2 objects selected"
    rows = shown(game)
    assert list(rows) == ["health", "speed"]
    assert rows["health"].mixed and table(game).editor("health").text() == ""
    assert table(game).editor("health").placeholderText() == "—"
    assert not rows["speed"].mixed and rows["speed"].inherited
    before = game.document.level
    type_value(game, "health", "9")
    assert [game.document.get(i).properties["health"] for i in ("goblin-1", "goblin-2")] == [9, 9]
    assert undo_texts(game) == ["Set health of 2 objects to 9"]
    assert not shown(game)["health"].mixed and table(game).editor("health").text() == "9"
    undo_all_and_redo(game, [before, game.document.level])
    game.undo_stack.undo()
    assert game.document.get("goblin-1").properties == {"health": 5}
    assert game.document.get("goblin-2").properties == {}


def test_several_objects_of_different_kinds_share_only_what_all_have(qtbot, game):
    click(game, *GOBLIN_1)
    click(game, *GATE, Qt.ShiftModifier)
    assert table(game).rows() == []
    add_property(qtbot, game, "tag", "string")
    assert game.document.get("goblin-1").properties == {"health": 5, "tag": ""}
    assert game.document.get("gate").properties == {"opened_by": Ref("lever"), "tag": ""}
    assert undo_texts(game) == ["Add property tag to 2 objects"]
    type_value(game, "tag", "boss room")
    assert {game.document.get(i).properties["tag"] for i in ("goblin-1", "gate")} == {"boss room"}
    assert len(undo_texts(game)) == 2


def test_moving_selected_objects_does_not_reread_their_properties(game):
    click(game, *GOBLIN_1)
    click(game, *GOBLIN_2, Qt.ShiftModifier)
    reads = []
    table(game).refresh = lambda: reads.append(1)
    drag(game, GOBLIN_1, (GOBLIN_1[0] + 64, GOBLIN_1[1] + 32))
    assert game.document.get("goblin-1").origin.x == 304
    assert reads == []  # a drag only moves: the types and properties shown stay right
    type_value(game, "speed", "2")
    assert reads  # an edit of a property does


# -- type and solid ---------------------------------------------------------------------------------------------
def test_choosing_a_type_brings_its_defaults(game):
    click(game, *LEVER)
    combo = game.inspector.field("type")
    assert combo.currentText() == "(none)"
    before = game.document.level
    combo.setFocus()
    combo.lineEdit().selectAll()
    QTest.keyClicks(combo.lineEdit(), "enemy")
    QTest.keyClick(combo.lineEdit(), Qt.Key_Return)
    assert game.document.get("lever").type == "enemy"
    assert undo_texts(game) == ["Set type of lever to enemy"]
    assert [(r.name, r.inherited) for r in table(game).rows()] == [("health", True), ("speed", True)]
    undo_all_and_redo(game, [before, game.document.level])


def test_a_type_name_not_in_the_list_is_kept_and_none_clears_it(game):
    click(game, *GATE)
    combo = game.inspector.field("type")
    combo.setFocus()
    combo.lineEdit().selectAll()
    QTest.keyClicks(combo.lineEdit(), "portcullis")
    QTest.keyClick(combo.lineEdit(), Qt.Key_Return)
    assert game.document.get("gate").type == "portcullis"
    # its own property stays; the door's default no longer applies
    assert [(r.name, r.has_default) for r in table(game).rows()] == [("opened_by", False)]
    combo.setCurrentIndex(-1)
    combo.activated.emit(combo.findText("(none)"))
    assert game.document.get("gate").type == ""
    assert undo_texts(game) == ["Set type of gate to portcullis", "Clear type of gate"]


def test_solid_is_a_checkbox_for_the_kinds_that_collide(qtbot, game):
    click(game, *GATE)
    solid = game.inspector.field("solid")
    assert solid.isChecked()
    click_checkbox(qtbot, solid)
    assert game.document.get("gate").solid is False
    assert undo_texts(game) == ["Make gate not solid"]
    game.undo_stack.undo()
    assert game.document.get("gate").solid is True and solid.isChecked()
    game.undo_stack.redo()
    assert not solid.isChecked()


# -- renaming an object keeps what refers to it -----------------------------------------------------------------
def test_renaming_an_object_renames_the_references_to_it_in_one_step(game):
    click(game, *LEVER)
    before = game.document.level
    retype(game.inspector.field("id"), "switch")
    assert game.document.get("switch") is not None
    assert game.document.get("gate").properties["opened_by"] == Ref("switch")
    assert undo_texts(game) == ["Rename lever to switch"]
    undo_all_and_redo(game, [before, game.document.level])


# -- deleting an object that others refer to --------------------------------------------------------------------
def referred_level() -> Level:
    """The lever is referred to by the gate, by the level and by the door type's default."""
    level = game_level()
    door = ObjectType("door", "#3c8ce0", {"opened_by": Ref("lever")})
    return Level(name=level.name, grid=level.grid, player=level.player, objects=level.objects,
                 properties={**level.properties, "exit_switch": Ref("lever")},
                 types=(level.types[0], door))


@pytest.fixture
def referred(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, referred_level())
    window.asked = []
    window.answer = "cancel"

    def ask(names):
        window.asked.append(list(names))
        return window.answer

    window.ask_clear_references = ask
    return window


def test_deleting_a_referred_object_asks_and_cancel_deletes_nothing(referred):
    click(referred, *LEVER)
    key(referred, Qt.Key_Delete)
    assert referred.asked == [["gate's opened_by", "the level's exit_switch", "type door's default opened_by"]]
    assert referred.document.level == referred_level()
    assert referred.undo_stack.count() == 0


def test_keep_deletes_and_leaves_the_references(referred):
    referred.answer = "keep"
    click(referred, *LEVER)
    key(referred, Qt.Key_Delete)
    assert referred.document.get("lever") is None
    assert referred.document.get("gate").properties["opened_by"] == Ref("lever")
    assert referred.document.level.properties["exit_switch"] == Ref("lever")
    assert undo_texts(referred) == ["Delete pillar"]
    undo_all_and_redo(referred, [referred_level(), referred.document.level])


def test_clear_deletes_and_clears_every_reference_in_one_step(referred):
    referred.answer = "clear"
    click(referred, *LEVER)
    key(referred, Qt.Key_Delete)
    doc = referred.document
    assert doc.get("lever") is None
    assert doc.get("gate").properties["opened_by"] == Ref("")
    assert doc.level.properties["exit_switch"] == Ref("")
    assert doc.level.object_type("door").properties["opened_by"] == Ref("")
    assert undo_texts(referred) == ["Delete pillar and clear 3 references to it"]
    after = doc.level
    undo_all_and_redo(referred, [referred_level(), after])
    # undo puts the lever back where it was in the drawing order
    referred.undo_stack.undo()
    assert [o.id for o in doc.objects] == [o.id for o in referred_level().objects]


def test_deleting_an_object_nothing_refers_to_asks_nothing(referred):
    click(referred, *GOBLIN_2)
    key(referred, Qt.Key_Delete)
    assert referred.asked == [] and referred.document.get("goblin-2") is None


def test_references_among_the_deleted_objects_are_not_asked_about(referred):
    referred.answer = "clear"
    click(referred, *LEVER)
    click(referred, *GATE, Qt.ShiftModifier)
    key(referred, Qt.Key_Delete)
    # the gate goes too: only the level's and the type's references are left to clear
    assert referred.asked == [["the level's exit_switch", "type door's default opened_by"]]
    assert undo_texts(referred) == ["Delete 2 objects and clear 2 references to them"]
    referred.undo_stack.undo()
    assert referred.document.level == referred_level()


def test_a_float_property_shows_three_decimals_its_every_digit_in_the_tooltip_and_keeps_them(qtbot, tmp_path):
    third = 1 / 3
    level = Level(player=Player(spawn=(48, 48), radius=12),
                  objects=(Box("crate", (240, 80), (32, 32), properties={"drag": third, "mass": 1e-320,
                                                                         "scale": 2.0, "far": 12345678.98765}),))
    window = make_window(qtbot, tmp_path, level)
    click(window, 256, 96)
    t = table(window)
    assert {n: t.editor(n).text() for n in ("drag", "mass", "scale", "far")} == \
        {"drag": "0.333", "mass": "1e-320", "scale": "2.0", "far": "12345678.988"}
    assert "drag: 0.3333333333333333" in t.editor("drag").toolTip()
    assert "12345678.98765" in t.editor("far").toolTip() and "scale:" not in t.editor("scale").toolTip()
    # visited, Enter pressed, left: the value is kept to its last digit
    field = t.editor("drag")
    field.setFocus()
    QTest.keyClick(field, Qt.Key_Return)
    window.canvas.setFocus()
    QApplication.processEvents()
    assert window.document.get("crate").properties["drag"] == third and undo_texts(window) == []
    type_value(window, "drag", "0.25")
    assert window.document.get("crate").properties["drag"] == 0.25
    assert table(window).editor("drag").text() == "0.25" and "drag:" not in table(window).editor("drag").toolTip()
