"""The Object Types editor: add, rename (objects follow), colour, delete, default properties; one undo step each."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from level_editor.core.level.model import Ref
from level_editor.editor.panels.types_editor import DELETE_NOTE, type_name_problem
from tests.editor.helpers import click, make_window, undo_texts
from tests.editor.panels.helpers import retype
from tests.editor.panels.test_properties import GOBLIN_2, game_level, undo_all_and_redo


@pytest.fixture
def game(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, game_level())


@pytest.fixture
def editor(qtbot, game):
    ed = game.show_types_editor()
    qtbot.waitExposed(ed)
    ed.asked = []
    ed.answer = False

    def ask(name, ids):
        ed.asked.append((name, list(ids)))
        return ed.answer

    ed.ask_delete_used = ask
    return ed


def choose(qtbot, ed, name):
    item = ed.type_list.findItems(name, Qt.MatchExactly)[0]
    qtbot.mouseClick(ed.type_list.viewport(), Qt.LeftButton, pos=ed.type_list.visualItemRect(item).center())
    assert ed.current == name


def test_the_menu_opens_it_showing_the_levels_types(game):
    assert game.types_action.text() == "Object &Types…"
    game.types_action.trigger()
    ed = game.types_editor
    assert ed.isVisible() and ed.windowTitle() == "Object Types"
    assert [ed.type_list.item(i).text() for i in range(ed.type_list.count())] == ["enemy", "door"]
    assert ed.current == "enemy" and ed.name_field.text() == "enemy"
    assert ed.color_button.text() == "#e0503c"
    assert ed.uses.text() == "2 objects: goblin-1, goblin-2"
    assert [(r.name, r.value) for r in ed.properties.rows()] == [("health", 3), ("speed", 1.5)]
    assert DELETE_NOTE in ed.findChild(type(ed.uses), "deleteNote").text()


def test_add_then_name_a_type(qtbot, game, editor):
    before = game.document.level
    qtbot.mouseClick(editor.add_button, Qt.LeftButton)
    added = game.document.level
    assert [t.name for t in added.types] == ["enemy", "door", "type-1"]
    assert editor.current == "type-1" and editor.name_field.hasFocus()
    QTest.keyClicks(editor.name_field, "pickup")  # the name is selected: typing replaces it
    QTest.keyClick(editor.name_field, Qt.Key_Return)
    assert [t.name for t in game.document.level.types] == ["enemy", "door", "pickup"]
    assert undo_texts(game) == ["Add type type-1", "Rename type type-1 to pickup"]
    assert editor.current == "pickup"
    undo_all_and_redo(game, [before, added, game.document.level])
    game.undo_stack.undo()
    game.undo_stack.undo()
    assert editor.type_list.count() == 2 and editor.current in ("enemy", "door")


def test_renaming_a_type_renames_it_on_every_object_in_one_step(game, editor):
    before = game.document.level
    retype(editor.name_field, "monster")
    doc = game.document
    assert [t.name for t in doc.level.types] == ["monster", "door"]
    assert doc.get("goblin-1").type == doc.get("goblin-2").type == "monster"
    assert undo_texts(game) == ["Rename type enemy to monster"]
    # the inspector follows: goblin-2 still inherits the renamed type's defaults
    click(game, *GOBLIN_2)
    assert game.inspector.field("type").currentText() == "monster"
    assert game.inspector.properties.rows()[0].origin == "monster"
    undo_all_and_redo(game, [before, doc.level])
    game.undo_stack.undo()
    assert doc.get("goblin-2").type == "enemy" and editor.current == "enemy"


def test_a_type_name_must_be_new_and_not_empty(game, editor):
    for bad, message in (("door", "there is already a type called door"), ("", "a type needs a name")):
        retype(editor.name_field, bad)
        assert editor.problem.isVisible() and editor.problem.text() == message
        assert editor.name_field.is_invalid() and editor.name_field.toolTip() == f"Not applied: {message}"
    QTest.keyClick(editor.name_field, Qt.Key_Escape)
    assert editor.name_field.text() == "enemy" and editor.isVisible()  # Esc restores; the dialog stays open
    assert not editor.problem.isVisible()
    assert game.undo_stack.count() == 0
    assert type_name_problem(" boss", []) is not None


def test_colour(qtbot, game, editor):
    asked = []
    editor.choose_color = lambda initial, title: asked.append((initial.name(), title)) or QColor("#123456")
    before = game.document.level
    qtbot.mouseClick(editor.color_button, Qt.LeftButton)
    assert asked == [("#e0503c", "Colour of type enemy")]
    assert game.document.level.object_type("enemy").color == "#123456"
    assert editor.color_button.text() == "#123456"
    assert undo_texts(game) == ["Change colour of type enemy"]
    undo_all_and_redo(game, [before, game.document.level])
    # cancelling the colour dialog changes nothing
    editor.choose_color = lambda initial, title: QColor()
    qtbot.mouseClick(editor.color_button, Qt.LeftButton)
    assert game.undo_stack.count() == 1


def test_deleting_an_unused_type_asks_nothing(qtbot, game, editor):
    qtbot.mouseClick(editor.add_button, Qt.LeftButton)
    qtbot.mouseClick(editor.delete_button, Qt.LeftButton)
    assert editor.asked == [] and [t.name for t in game.document.level.types] == ["enemy", "door"]
    assert undo_texts(game) == ["Add type type-1", "Delete type type-1"]


def test_deleting_a_type_in_use_asks_and_leaves_the_objects_with_its_name(qtbot, game, editor):
    before = game.document.level
    qtbot.mouseClick(editor.delete_button, Qt.LeftButton)
    assert editor.asked == [("enemy", ["goblin-1", "goblin-2"])]
    assert game.document.level == before and game.undo_stack.count() == 0
    editor.answer = True
    qtbot.mouseClick(editor.delete_button, Qt.LeftButton)
    doc = game.document
    assert [t.name for t in doc.level.types] == ["door"]
    assert doc.get("goblin-1").type == "enemy" and doc.get("goblin-1").properties == {"health": 5}
    assert undo_texts(game) == ["Delete type enemy"]
    assert editor.current == "door"
    # goblin-2 keeps its type's name but has no defaults left to show
    click(game, *GOBLIN_2)
    assert game.inspector.field("type").currentText() == "enemy"
    assert game.inspector.properties.rows() == []
    undo_all_and_redo(game, [before, doc.level])


def test_default_properties_are_edited_with_the_same_table(qtbot, game, editor):
    before = game.document.level
    retype(editor.properties.editor("health"), "4")
    health = game.document.level.object_type("enemy").properties["health"]
    assert health == 4 and type(health) is int
    assert undo_texts(game) == ["Set health of type enemy to 4"]
    # goblin-2 has no health of its own: it shows the new default, goblin-1 keeps its own
    click(game, *GOBLIN_2)
    assert game.inspector.properties.editor("health").text() == "4"
    assert game.document.level.properties_of(game.document.get("goblin-1"))["health"] == 5
    # a bad default is refused in the editor's own table too
    field = retype(editor.properties.editor("speed"), "quick")
    assert editor.properties.problem_text() == "speed must be a number"
    QTest.keyClick(field, Qt.Key_Escape)
    assert editor.isVisible() and field.text() == "1.5"
    undo_all_and_redo(game, [before, game.document.level])


def test_a_default_reference_picked_on_the_canvas(qtbot, game, editor):
    choose(qtbot, editor, "door")
    qtbot.mouseClick(editor.properties.pick_button("opened_by"), Qt.LeftButton)
    click(game, *GOBLIN_2)
    assert game.document.level.object_type("door").properties["opened_by"] == Ref("goblin-2")
    assert undo_texts(game) == ["Set opened_by of type door to goblin-2"]
    assert game.selection.ids() == []


def test_adding_and_removing_a_default_property(qtbot, game, editor):
    t = editor.properties
    before = game.document.level
    t.new_name.setFocus()
    QTest.keyClicks(t.new_name, "armour")
    QTest.keyClick(t.new_name, Qt.Key_Return)
    assert game.document.level.object_type("enemy").properties == {"health": 3, "speed": 1.5, "armour": ""}
    added = game.document.level
    t.table.setCurrentCell(t.row_of("armour"), 0)
    qtbot.mouseClick(t.remove_button, Qt.LeftButton)
    assert list(game.document.level.object_type("enemy").properties) == ["health", "speed"]
    assert undo_texts(game) == ["Add property armour to type enemy", "Remove property armour from type enemy"]
    # every object of the type shows the new default while it exists
    undo_all_and_redo(game, [before, added, game.document.level])
    game.undo_stack.undo()
    click(game, *GOBLIN_2)
    assert [r.name for r in game.inspector.properties.rows()] == ["health", "speed", "armour"]
