"""The Layers dock, driven with the mouse and keys as a Tiled user would: every change one exact undo step."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu

from level_editor.core.level.model import Layer
from level_editor.editor.commands.layers import DeleteLayerCommand, MoveObjectsToLayerCommand, add_layer_command, new_layer
from level_editor.editor.panels.layers_panel import LOCKED, NAME, VISIBLE
from tests.editor.helpers import drag, make_window, undo_texts
from tests.editor.items.content import content_level


@pytest.fixture
def window(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path, content_level())
    w.layers_dock.show()
    w.layers_dock.raise_()
    w.asked = []

    def ask(name, count):
        w.asked.append((name, count))
        return w.answer

    w.answer = True
    w.layers_panel.ask_delete_layer = ask
    QApplication.processEvents()
    return w


def names(window) -> list[str]:
    """The rows of the list, top first, as the user reads them."""
    model = window.layers_panel.model
    return [model.index(r, NAME).data() for r in range(model.rowCount())]


def cell(window, row: int, column: int) -> QPoint:
    view = window.layers_panel.view
    return view.visualRect(view.model().index(row, column)).center()


def click_cell(window, row: int, column: int) -> None:
    QTest.mouseClick(window.layers_panel.view.viewport(), Qt.LeftButton, Qt.NoModifier, cell(window, row, column))


def click_button(window, action) -> None:
    button = window.layers_panel.findChild(type(window.main_toolbar)).widgetForAction(action)
    QTest.mouseClick(button, Qt.LeftButton)


def double_click(widget, pixel: QPoint) -> None:
    """As a mouse sends it: press, release, then the double click and its release (QTest sends the third only)."""
    QTest.mouseClick(widget, Qt.LeftButton, Qt.NoModifier, pixel)
    QTest.mouseDClick(widget, Qt.LeftButton, Qt.NoModifier, pixel)
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, pixel)


def row_of(window, name: str) -> int:
    return names(window).index(name)


def assert_undo_redo_exact(window, before, after) -> None:
    window.undo_stack.undo()
    assert window.document.level == before
    window.undo_stack.redo()
    assert window.document.level == after


# -- what it shows -----------------------------------------------------------------------------


def test_layers_are_listed_top_first_with_the_current_one_highlighted(window):
    assert names(window) == ["Things", "Walls", "Art"]
    view = window.layers_panel.view
    assert window.context.current_layer == "things"
    assert view.selectionModel().isRowSelected(0, view.rootIndex())
    model = window.layers_panel.model
    assert model.index(0, VISIBLE).data(Qt.AccessibleTextRole) == "shown"
    assert model.index(0, LOCKED).data(Qt.AccessibleTextRole) == "unlocked"


def test_clicking_a_row_makes_its_layer_the_current_one(window):
    click_cell(window, row_of(window, "Walls"), NAME)
    assert window.context.current_layer == "walls"
    window.context.set_current_layer("art")
    assert window.layers_panel.view.selectionModel().currentIndex().row() == row_of(window, "Art")


def test_a_box_drawn_after_picking_a_layer_goes_on_that_layer(window):
    click_cell(window, row_of(window, "Art"), NAME)
    window.set_tool(window.tool_named("BoxTool"))
    before = window.document.level.ids()
    drag(window, (592, 400), (656, 448))
    added = [o for o in window.document.objects if o.id not in before]
    assert [(o.kind, o.origin, o.layer) for o in added] == [("box", (592, 400), "art")]


# -- add, rename, delete -----------------------------------------------------------------------


def test_add_layer_puts_a_new_layer_above_the_current_one_and_makes_it_current(window):
    click_cell(window, row_of(window, "Walls"), NAME)
    before = window.document.level
    click_button(window, window.layers_panel.add_action)
    assert names(window) == ["Things", "Layer 4", "Walls", "Art"]
    assert window.context.current_layer == "layer-4"
    assert undo_texts(window) == ["Add layer"]
    after = window.document.level
    assert_undo_redo_exact(window, before, after)
    window.undo_stack.undo()
    assert names(window) == ["Things", "Walls", "Art"] and window.context.current_layer != "layer-4"


def test_new_layers_are_named_as_tiled_names_them():
    assert new_layer([Layer("main", "Main")]).name == "Layer 2"
    taken = [Layer("main", "Main"), Layer("x", "Layer 3"), Layer("layer-4", "Other")]
    assert (new_layer(taken).id, new_layer(taken).name) == ("layer-5", "Layer 5")


def test_double_click_renames_a_layer_in_place(window):
    before = window.document.level
    view = window.layers_panel.view
    double_click(view.viewport(), cell(window, row_of(window, "Walls"), NAME))
    editor = view.findChild(QLineEdit)
    assert editor is not None and editor.text() == "Walls"
    editor.selectAll()
    QTest.keyClicks(editor, "Solid")
    QTest.keyClick(editor, Qt.Key_Return)
    QApplication.processEvents()  # the item delegate commits the edit a moment later
    assert names(window) == ["Things", "Solid", "Art"]
    assert undo_texts(window) == ["Rename layer 'Walls' to 'Solid'"]
    assert window.document.level.layer("walls").name == "Solid"
    assert_undo_redo_exact(window, before, window.document.level)


def test_an_empty_or_unchanged_name_is_no_rename(window):
    model = window.layers_panel.model
    assert not model.setData(model.index(1, NAME), "  ")
    assert not model.setData(model.index(1, NAME), "Walls")
    assert window.undo_stack.count() == 0


def test_delete_a_layer_with_objects_asks_and_undo_brings_back_layer_and_objects(window):
    click_cell(window, row_of(window, "Things"), NAME)
    before = window.document.level
    click_button(window, window.layers_panel.delete_action)
    assert window.asked == [("Things", 3)]
    assert names(window) == ["Walls", "Art"]
    assert not any(o.layer == "things" for o in window.document.objects)
    assert window.scene.item("goblin-1") is None
    assert undo_texts(window) == ["Delete layer 'Things' and 3 objects"]
    after = window.document.level
    window.undo_stack.undo()
    assert window.document.level == before  # the same layers, and every object back in its place in the file
    assert window.scene.item("goblin-1") is not None
    window.undo_stack.redo()
    assert window.document.level == after


def test_declining_the_question_deletes_nothing(window):
    window.answer = False
    click_cell(window, row_of(window, "Walls"), NAME)
    assert not window.layers_panel.delete_layer()
    assert window.asked == [("Walls", 6)] and names(window) == ["Things", "Walls", "Art"]
    assert window.undo_stack.count() == 0


def test_an_empty_layer_is_deleted_without_asking(window):
    click_cell(window, row_of(window, "Art"), NAME)
    click_button(window, window.layers_panel.delete_action)
    assert window.asked == [] and names(window) == ["Things", "Walls"]
    assert undo_texts(window) == ["Delete layer 'Art'"]


def test_the_last_layer_cannot_be_deleted(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    assert not w.layers_panel.delete_action.isEnabled()
    assert not w.layers_panel.delete_layer()


# -- order -------------------------------------------------------------------------------------


def test_raise_and_lower_buttons_move_the_current_layer(window):
    click_cell(window, row_of(window, "Art"), NAME)
    before = window.document.level
    click_button(window, window.layers_panel.raise_action)
    assert names(window) == ["Things", "Art", "Walls"]
    click_button(window, window.layers_panel.raise_action)
    assert names(window) == ["Art", "Things", "Walls"]
    assert not window.layers_panel.raise_action.isEnabled()
    click_button(window, window.layers_panel.lower_action)
    assert names(window) == ["Things", "Art", "Walls"]
    assert undo_texts(window) == ["Raise layer 'Art'", "Raise layer 'Art'", "Lower layer 'Art'"]
    for _ in range(3):
        window.undo_stack.undo()
    assert window.document.level == before


def test_dragging_a_row_reorders_the_layers(window):
    view = window.layers_panel.view
    viewport = view.viewport()
    before = window.document.level
    start = cell(window, row_of(window, "Art"), NAME)
    top = view.visualRect(view.model().index(0, NAME)).top() + 2
    QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, start)
    for y in range(start.y(), top - 1, -4):
        move_to_pixel_in(viewport, QPoint(start.x(), y))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, QPoint(start.x(), top))
    assert names(window) == ["Art", "Things", "Walls"]
    assert [layer.id for layer in window.document.level.layers] == ["walls", "things", "art"]
    assert undo_texts(window) == ["Move layer 'Art'"]
    assert window.context.current_layer == "art"
    assert_undo_redo_exact(window, before, window.document.level)


def test_a_drag_that_ends_where_it_started_changes_nothing(window):
    view = window.layers_panel.view
    start = cell(window, 1, NAME)
    QTest.mousePress(view.viewport(), Qt.LeftButton, Qt.NoModifier, start)
    move_to_pixel_in(view.viewport(), start + QPoint(0, 30))
    move_to_pixel_in(view.viewport(), start + QPoint(0, 2))
    QTest.mouseRelease(view.viewport(), Qt.LeftButton, Qt.NoModifier, start + QPoint(0, 2))
    assert window.undo_stack.count() == 0


def move_to_pixel_in(widget, pixel: QPoint) -> None:
    """A mouse move with the left button held (QTest's moves do not carry buttons)."""
    event = QMouseEvent(QEvent.MouseMove, QPointF(pixel), QPointF(widget.mapToGlobal(pixel)), Qt.NoButton,
                        Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(widget, event)


# -- show, hide, lock --------------------------------------------------------------------------


def test_the_eye_hides_and_shows_a_layer_as_undo_steps(window):
    before = window.document.level
    current = window.context.current_layer
    click_cell(window, row_of(window, "Walls"), VISIBLE)
    assert not window.document.level.layer("walls").visible
    assert not window.scene.item("box-1").isVisible()
    assert window.context.current_layer == current  # the eye does not change the current layer
    click_cell(window, row_of(window, "Walls"), VISIBLE)
    assert window.scene.item("box-1").isVisible()
    assert undo_texts(window) == ["Hide layer 'Walls'", "Show layer 'Walls'"]
    window.undo_stack.undo()
    assert not window.scene.item("box-1").isVisible()
    window.undo_stack.undo()
    assert window.document.level == before


def test_the_lock_locks_and_unlocks_a_layer_as_undo_steps(window):
    before = window.document.level
    click_cell(window, row_of(window, "Walls"), LOCKED)
    assert window.document.level.layer("walls").locked
    assert window.layers_panel.model.index(row_of(window, "Walls"), LOCKED).data(Qt.AccessibleTextRole) == "locked"
    assert not window.scene.pickable(window.scene.item("box-1"))
    click_cell(window, row_of(window, "Walls"), LOCKED)
    assert undo_texts(window) == ["Lock layer 'Walls'", "Unlock layer 'Walls'"]
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.document.level == before
    window.undo_stack.redo()
    assert window.document.level.layer("walls").locked


def test_drawing_on_a_locked_current_layer_is_refused(window):
    click_cell(window, row_of(window, "Walls"), NAME)
    click_cell(window, row_of(window, "Walls"), LOCKED)
    assert window.context.current_layer_locked()


# -- moving objects between layers -------------------------------------------------------------


def test_move_selection_to_layer_from_the_edit_menu(window):
    window.selection.set(["box-1", "gate"])
    before = window.document.level
    menu: QMenu = window.move_to_layer_menu
    menu.aboutToShow.emit()
    entries = {a.text(): a for a in menu.actions()}
    assert list(entries) == ["Things", "Walls", "Art"]
    entries["Things"].trigger()
    assert [window.document.get(i).layer for i in ("box-1", "gate")] == ["things", "things"]
    assert undo_texts(window) == ["Move 2 objects to layer 'Things'"]
    # their place in the file is kept: only the layer changed
    assert [o.id for o in window.document.objects] == [o.id for o in before.objects]
    assert_undo_redo_exact(window, before, window.document.level)


def test_move_selection_here_moves_to_the_current_layer(window):
    window.selection.set(["goblin-1"])
    click_cell(window, row_of(window, "Art"), NAME)
    window.layers_panel.move_selection_action.trigger()
    assert window.document.get("goblin-1").layer == "art"
    assert undo_texts(window) == ["Move 1 object to layer 'Art'"]


def test_moving_objects_to_their_own_layer_is_no_step(window):
    command = MoveObjectsToLayerCommand(window.document, ["goblin-1"], "things")
    assert command.isObsolete()
    window.context.push(command)
    assert window.undo_stack.count() == 0


def test_layer_commands_undo_exactly_with_objects_in_between(window):
    doc = window.document
    before = doc.level
    command, layer = add_layer_command(doc, "art")
    window.context.push(command)
    window.context.push(MoveObjectsToLayerCommand(doc, ["box-1", "exit"], layer.id))
    window.context.push(DeleteLayerCommand(doc, layer.id))
    assert doc.get("box-1") is None and doc.level.layer(layer.id) is None
    states = []
    for _ in range(3):
        window.undo_stack.undo()
        states.append(doc.level)
    assert states[0].layer(layer.id) is not None and states[0].object_by_id("box-1").layer == layer.id
    assert [o.id for o in states[0].objects] == [o.id for o in before.objects]
    assert doc.level == before


# -- while playing, and bad input ------------------------------------------------------------------------
def test_the_layer_actions_are_disabled_while_playing_and_back_after(window):
    panel = window.layers_panel
    actions = (panel.add_action, panel.delete_action, panel.rename_action, panel.raise_action, panel.lower_action)
    before = [a.isEnabled() for a in actions]
    assert panel.add_action.isEnabled()
    window.selection.set(["goblin-1"] if "goblin-1" in window.document else [])
    QTest.keyClick(window.canvas, Qt.Key_F5)
    assert window.play_mode.is_playing
    assert not any(a.isEnabled() for a in (*actions, panel.move_selection_action))
    layers = window.document.level.layers
    for a in actions:
        a.trigger()  # a shortcut or a menu entry cannot reach it; even a direct trigger changes nothing
    assert window.document.level.layers == layers
    window.selection.changed.emit()  # a selection change while playing does not wake them up
    assert not panel.delete_action.isEnabled()
    QTest.keyClick(window.canvas, Qt.Key_Escape)
    assert not window.play_mode.is_playing
    assert [a.isEnabled() for a in actions] == before


def test_a_layer_name_too_long_is_refused(window):
    model = window.layers_panel.model
    before = window.document.level.layers
    assert not model.setData(model.index(0, NAME), "x" * 5000)
    assert window.document.level.layers == before and window.undo_stack.count() == 0


def test_a_name_box_left_open_is_not_committed_onto_another_layer_while_a_layer_is_deleted(window):
    """Found by the random GUI session: the view commits an open name box when its current row moves, which
    happens inside the delete; the box's row then named another layer, which took the deleted one's name."""
    panel, ctx = window.layers_panel, window.context
    before = [layer.name for layer in window.document.level.layers]
    stack_before = undo_texts(window)
    with ctx.changing("Delete layer"):
        assert panel.model.setData(panel.model.index(0, NAME), "Renamed inside", Qt.EditRole) is False
    assert [layer.name for layer in window.document.level.layers] == before and undo_texts(window) == stack_before
    assert panel.model.setData(panel.model.index(0, NAME), "Renamed", Qt.EditRole) is True  # outside: renamed
    assert names(window)[0] == "Renamed"
