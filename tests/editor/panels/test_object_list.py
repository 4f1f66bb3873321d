"""Issue 16.13: the Objects list filters (by id, kind, type, layer), sorts by a click on a header, renames in
place (references follow; a taken or empty id is refused with a message), and selects objects on locked layers."""
from __future__ import annotations


import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Layer, Level, Pillar, Player, Point, Ref, Wall
from level_editor.editor.panels.object_list import KIND, LAYER, NAME, ObjectListModel
from tests.editor.helpers import click, make_window, undo_texts


def level() -> Level:
    return Level(
        layers=(Layer("walls", "Walls"), Layer("things", "Things")),
        player=Player(spawn=(48, 48), radius=12),
        objects=(
            Wall("wall-1", [(0, 200), (160, 200)], 8, False, layer="walls"),
            Box("box-10", (240, 80), (64, 32), layer="walls"),
            Point("goblin-2", (400, 120), type="enemy", layer="things"),
            Box("box-2", (400, 300), (32, 32), layer="walls", type="door",
                properties={"opened_by": Ref("lever")}),
            Point("lever", (40, 300), layer="things"),
            Pillar("pillar-1", (240, 320), 16, layer="things"),
        ),
    )


@pytest.fixture
def window(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, level())


def shown(window, column=NAME):
    model = window.object_list.model
    return [model.index(r, column).data() for r in range(model.rowCount())]


def type_filter(window, text):
    box = window.object_list.filter
    box.setFocus()
    box.selectAll()
    QTest.keyClick(box, Qt.Key_Backspace)
    QTest.keyClicks(box, text)
    QApplication.processEvents()


def click_header(window, column):
    header = window.object_list.view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(header.viewport(), Qt.LeftButton, Qt.NoModifier, header.rect().center().__class__(x, 5))


def click_row(window, object_id, modifiers=Qt.NoModifier):
    view = window.object_list.view
    row = window.object_list.model.row_of(object_id)
    rect = view.visualRect(view.model().index(row, 0))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, modifiers, rect.center())


def test_the_list_shows_kind_type_and_layer(window):
    assert shown(window) == ["player", "wall-1", "box-10", "goblin-2", "box-2", "lever", "pillar-1"]
    assert shown(window, LAYER)[1:] == ["Walls", "Walls", "Things", "Walls", "Things", "Things"]
    assert window.object_list.model.index(3, 2).data() == "enemy"


def test_the_filter_keeps_rows_by_id_kind_type_or_layer(window):
    type_filter(window, "box")
    assert shown(window) == ["box-10", "box-2"]
    type_filter(window, "THINGS")  # a layer's name, any case
    assert shown(window) == ["goblin-2", "lever", "pillar-1"]
    type_filter(window, "door")  # a type
    assert shown(window) == ["box-2"]
    type_filter(window, "marker")  # a kind, as the designer calls it
    assert shown(window) == ["goblin-2", "lever"]
    type_filter(window, "nothing like it")
    assert shown(window) == []
    type_filter(window, "")
    assert len(shown(window)) == 7


def test_a_click_on_a_header_sorts_then_reverses_then_goes_back_to_drawing_order(window):
    click_header(window, NAME)
    assert shown(window) == ["player", "box-2", "box-10", "goblin-2", "lever", "pillar-1", "wall-1"]
    click_header(window, NAME)
    assert shown(window) == ["player", "wall-1", "pillar-1", "lever", "goblin-2", "box-10", "box-2"]
    click_header(window, NAME)
    assert shown(window) == ["player", "wall-1", "box-10", "goblin-2", "box-2", "lever", "pillar-1"]
    click_header(window, KIND)
    kinds = shown(window, KIND)[1:]
    assert kinds == sorted(kinds, key=str.lower)


def test_selection_follows_through_filter_and_sort(window):
    click(window, 270, 95)  # box-10 on the canvas
    click_header(window, NAME)
    view = window.object_list.view
    assert [window.object_list.model.id_at(i.row()) for i in view.selectionModel().selectedRows()] == ["box-10"]
    type_filter(window, "box-2")
    click_row(window, "box-2", Qt.ControlModifier)
    # box-10 is filtered out of sight but stays selected
    assert window.selection.ids() == ["box-10", "box-2"]


def test_f2_renames_in_place_and_references_follow_in_one_step(window):
    click_row(window, "lever")
    view = window.object_list.view
    QTest.keyClick(view, Qt.Key_F2)
    editor = window.object_list.rename_editor
    assert editor is not None and editor.text() == "lever" and editor.isVisible()
    editor.selectAll()
    QTest.keyClicks(editor, "switch")
    QTest.keyClick(editor, Qt.Key_Return)
    QApplication.processEvents()
    doc = window.document
    assert doc.get("switch") is not None and doc.get("lever") is None
    assert doc.get("box-2").properties["opened_by"] == Ref("switch")
    assert undo_texts(window) == ["Rename lever to switch"]
    assert window.selection.ids() == ["switch"]
    window.undo_stack.undo()
    assert doc.get("box-2").properties["opened_by"] == Ref("lever") and doc.get("lever") is not None


@pytest.mark.parametrize("typed,why", [("box-2", "already called 'box-2'"), ("", "cannot be empty"),
                                       ("player", "player's name")])
def test_a_taken_or_empty_id_is_refused_with_a_message(window, typed, why):
    click_row(window, "lever")
    view = window.object_list.view
    QTest.keyClick(view, Qt.Key_F2)
    editor = window.object_list.rename_editor
    editor.selectAll()
    QTest.keyClick(editor, Qt.Key_Backspace)
    QTest.keyClicks(editor, typed)
    QTest.keyClick(editor, Qt.Key_Return)
    QApplication.processEvents()
    assert window.undo_stack.count() == 0 and window.document.get("lever") is not None
    assert why in window.object_list.problem_text()
    assert window.object_list.problem.isVisible()


def test_the_player_row_is_not_renamed_and_esc_leaves_an_id_as_it_was(window):
    click_row(window, "player")
    view = window.object_list.view
    QTest.keyClick(view, Qt.Key_F2)
    assert window.object_list.rename_editor is None
    click_row(window, "lever")
    QTest.keyClick(view, Qt.Key_F2)
    editor = window.object_list.rename_editor
    QTest.keyClicks(editor, "xyz")
    QTest.keyClick(editor, Qt.Key_Escape)
    QApplication.processEvents()
    assert window.object_list.rename_editor is None and window.undo_stack.count() == 0
    assert window.document.get("lever") is not None


def test_objects_on_a_locked_layer_are_selected_from_the_list(window):
    window.layers_panel.model.toggle(window.layers_panel.model.row_of("walls"), 2)  # lock Walls
    assert window.document.level.layer("walls").locked
    click(window, 270, 95)  # the canvas does not pick a locked object
    assert window.selection.ids() == []
    click_row(window, "box-10")
    assert window.selection.ids() == ["box-10"]
    assert window.inspector.title.text() == "Box box-10"
    click_row(window, "wall-1", Qt.ControlModifier)
    assert sorted(window.selection.ids()) == ["box-10", "wall-1"]
    # a selection made on the canvas again leaves out what is locked
    click(window, 400, 120)
    assert window.selection.ids() == ["goblin-2"]


def test_a_locked_object_selected_from_the_list_is_not_moved_by_the_canvas_keys(window):
    window.layers_panel.model.toggle(window.layers_panel.model.row_of("walls"), 2)  # lock Walls
    click_row(window, "box-10")
    before, steps = window.document.level, window.undo_stack.count()  # locking is a step of its own
    window.canvas.setFocus()
    for k in (Qt.Key_Right, Qt.Key_Down, Qt.Key_X, Qt.Key_Z, Qt.Key_PageUp):  # nudge, flip, turn, raise
        QTest.keyClick(window.canvas.viewport(), k)
    assert window.document.level == before and window.undo_stack.count() == steps
    assert window.selection.ids() == ["box-10"]  # still selected, to read and type its properties


def test_filtering_and_sorting_100000_objects():
    # how long it takes: tests/benchmarks/bench_parts.py
    objects = tuple(Box(f"box-{i}", (i * 20.0, 0.0), (10.0, 10.0), type="crate" if i % 10 else "")
                    for i in range(100_000))
    model = ObjectListModel(LevelDocument(Level(objects=objects)))
    model.set_filter("box-9999")
    assert [model.id_at(r) for r in range(model.rowCount())] == ["box-9999", "box-99990", "box-99991", "box-99992",
                                                                 "box-99993", "box-99994", "box-99995",
                                                                 "box-99996", "box-99997", "box-99998",
                                                                 "box-99999"]
    model.set_filter("")
    model.sort(NAME, Qt.DescendingOrder)
    assert model.id_at(1) == "box-99999" and model.id_at(100_000) == "box-0"
    assert model.row_of("box-0") == 100_000


def test_an_id_with_a_line_break_is_refused():
    from level_editor.editor.commands.properties import id_problem

    document = LevelDocument(level())
    assert "control character" in id_problem(document, "two\nlines", "lever")
    assert "control character" in id_problem(document, "tab\there", "lever")
    assert id_problem(document, "fine-id", "lever") is None


def test_a_row_on_a_hidden_layer_says_why_it_is_not_selected(window):
    model = window.layers_panel.model
    model.toggle(model.row_of("things"), 1)  # hide Things
    click_row(window, "lever")
    assert window.selection.ids() == []
    assert window.object_list.view.selectionModel().selectedRows() == []
    assert "hidden layer 'Things'" in window.object_list.problem_text()


@pytest.mark.parametrize("order", ["drawing", "sorted", "filtered"])
def test_the_rows_of_many_ids_are_the_rows_of_each(window, order):
    model = window.object_list.model
    if order != "drawing":
        click_header(window, NAME)
    if order == "filtered":
        type_filter(window, "box")
    ids = ["pillar-1", "player", "box-2", "no-such-object", "wall-1", "box-10"]
    assert model.rows_of(ids) == sorted(r for r in map(model.row_of, ids) if r is not None)
    every = [o.id for o in window.document.objects]
    for ids in (every, ["player"] + every, every[::-1], every[:-1]):
        assert model.rows_of(ids) == sorted(r for r in map(model.row_of, ids) if r is not None), ids
    player = model.row_of("player")  # None when the filter leaves it out
    assert model.rows_of([]) == [] and model.rows_of(["player"]) == ([] if player is None else [player])


def test_select_all_selects_every_row_in_the_list(window):
    window.select_all()
    view = window.object_list.view
    rows = {i.row() for i in view.selectionModel().selectedRows()}
    assert rows == set(range(1, 7)) and len(window.selection) == 6


def test_the_whole_level_is_every_object_in_drawing_order(window):
    from level_editor.editor.canvas.selection import whole_level

    doc = window.document
    every = [o.id for o in doc.objects]
    assert whole_level(doc, every) and whole_level(doc, tuple(every))
    assert not whole_level(doc, every[::-1]) and not whole_level(doc, every[:-1])
    assert not whole_level(doc, every[:-1] + ["player"])
