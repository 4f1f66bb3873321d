"""A value typed into a panel lands as its own undo step before anything else acts (editor/support/typed_edits.py).

Real events in a real window: keys typed into the inspector, then a click on a toolbar button (which does not
take the focus), a menu shortcut, or a drag on the canvas. Before, the typed value was applied only when the
field lost the focus: in the middle of Undo when the inspector was rebuilt under it (a push inside Undo: the
history then held a state that never existed) or after the quarter turn it should have come before.
"""
from __future__ import annotations

import logging

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support import typed_edits
from tests.editor.helpers import click, drag, key, make_window, sample_level, undo_texts
from tests.editor.panels.helpers import retype


@pytest.fixture
def window(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path, sample_level())
    w.activateWindow()
    return w


@pytest.fixture
def nested(monkeypatch):
    """Every push made while another push, an Undo or a Redo was running (there must be none)."""
    found = []
    push = EditorContext.push

    def watched(self, command):
        if self.pushing:
            found.append((command.text(), self._pushing_text))
        push(self, command)

    monkeypatch.setattr(EditorContext, "push", watched)
    return found


def type_into(window, name: str, text: str):
    """Keys typed into the inspector's field ``name``; no Enter, the field keeps the focus."""
    field = window.inspector.fields[name]
    field.setFocus()
    QTest.keyClick(field, Qt.Key_A, Qt.ControlModifier)
    QTest.keyClicks(field, text)
    assert QApplication.focusWidget() is field and field.isModified()
    return field


def click_toolbar(window, action):
    button = window.main_toolbar.widgetForAction(action)
    assert button is not None and button.focusPolicy() in (Qt.NoFocus, Qt.TabFocus)  # a click leaves the focus
    QTest.mouseClick(button, Qt.LeftButton)
    QApplication.processEvents()


def levels_by_undo(window) -> list:
    """The level at each index of the undo stack, from the top down to 0 and back up."""
    stack = window.undo_stack
    top = stack.index()
    seen = {top: window.document.level}
    for i in range(top - 1, -1, -1):
        stack.setIndex(i)
        seen[i] = window.document.level
    for i in range(1, top + 1):
        stack.setIndex(i)
        assert window.document.level == seen[i], f"redo to {i} gave another level"
    return [seen[i] for i in range(top + 1)]


def select_player_as_box(window):
    key(window, Qt.Key_I)
    click(window, 48, 48)  # the spawn tool selects the player
    QApplication.processEvents()
    window.inspector.fields["shape"].setCurrentText("box")
    QApplication.processEvents()
    assert undo_texts(window) == ["Change shape of player"]


def test_undo_clicked_while_typing_undoes_the_typed_value_as_its_own_step(window, nested):
    select_player_as_box(window)
    type_into(window, "speed", "500")
    click_toolbar(window, window.undo_action)
    # the typed speed landed first, and Undo took it back; nothing was pushed inside Undo
    assert nested == []
    assert undo_texts(window) == ["Change shape of player", "Change speed of player"]
    assert window.undo_stack.index() == 1
    player = window.document.player
    assert (player.shape, player.speed) == ("box", 240)
    window.undo_stack.redo()
    assert (window.document.player.shape, window.document.player.speed) == ("box", 500)
    window.undo_stack.setIndex(0)
    assert (window.document.player.shape, window.document.player.speed) == ("circle", 240)


def test_a_toolbar_quarter_turn_comes_after_the_width_typed_before_it(window, nested):
    key(window, Qt.Key_S)
    click(window, 250, 90)
    QApplication.processEvents()
    assert window.selection.ids() == ["box-1"]
    type_into(window, "size.x", "100")
    click_toolbar(window, window.rotate_clockwise_action)
    window.canvas.setFocus()  # leaving the field afterwards changes nothing more
    QApplication.processEvents()
    assert nested == []
    texts = undo_texts(window)
    assert texts == ["Change width of box-1", "Rotate box clockwise"]
    levels = levels_by_undo(window)
    assert [lv.objects[1].size for lv in levels] == [(64, 32), (100, 32), (32, 100)]


def test_a_play_test_started_by_its_shortcut_keeps_the_value_typed_before(window, nested):
    key(window, Qt.Key_S)
    key(window, Qt.Key_Escape)  # nothing selected: the level's fields
    field = type_into(window, "grid", "32")
    QTest.keyClick(field, Qt.Key_F5)
    QApplication.processEvents()
    assert window.play_mode.is_playing
    key(window, Qt.Key_Escape)
    assert not window.play_mode.is_playing
    assert undo_texts(window) == ["Change grid of level"]
    assert window.document.level.grid == 32


def test_a_spawn_dragged_far_off_after_typing_records_each_state(window, nested):
    """The reported case: a value typed in the inspector, then a spawn drag that grows the scene rectangle."""
    select_player_as_box(window)
    type_into(window, "speed", "321")
    rect = window.scene.sceneRect()
    drag(window, (48, 48), (1100, 700), steps=10)
    QApplication.processEvents()
    assert window.scene.sceneRect() != rect
    assert nested == []
    assert undo_texts(window) == ["Change shape of player", "Change speed of player", "Move spawn"]
    levels = levels_by_undo(window)
    assert [(lv.player.shape, lv.player.speed) for lv in levels] == [("circle", 240), ("box", 240), ("box", 321),
                                                                   ("box", 321)]
    assert levels[2].player.spawn == levels[0].player.spawn != levels[3].player.spawn


@pytest.mark.nested_push_expected
def test_a_push_inside_another_change_waits_and_is_logged_for_developers_only(window, caplog):
    from dataclasses import replace

    from level_editor.editor.commands.objects import ChangePlayerCommand

    doc, ctx = window.document, window.context
    with caplog.at_level(logging.DEBUG, logger="level-editor"):
        with ctx.changing("Undo something"):
            old = doc.player
            ctx.push(ChangePlayerCommand(doc, old, replace(old, speed=99.0), "Change speed of player"))
            assert doc.player.speed == 240  # waits for the change under way
        assert doc.player.speed == 99.0
    assert [r.levelno for r in caplog.records if "was pushed while" in r.getMessage()] == [logging.DEBUG]


def test_installing_twice_puts_one_filter(window, monkeypatch):
    typed_edits.install()  # the window installed it once already
    typed_edits.install()
    finished = []
    monkeypatch.setattr(typed_edits, "finish_typing", lambda widget=None: finished.append(widget))
    field = type_into(window, "grid", "48")
    click_toolbar(window, window.fit_action)  # a press that leaves the focus in the field (Fit Level: harmless)
    assert QApplication.focusWidget() is field
    assert finished == [field]  # finished once: one filter saw the press


def test_a_click_inside_the_field_itself_keeps_the_typing(window):
    key(window, Qt.Key_S)
    key(window, Qt.Key_Escape)
    field = type_into(window, "grid", "48")
    QTest.mouseClick(field, Qt.LeftButton)
    assert field.isModified() and undo_texts(window) == []
    QTest.keyClick(field, Qt.Key_Return)
    assert undo_texts(window) == ["Change grid of level"]


def test_a_layer_name_typed_in_a_window_without_the_focus_is_applied_by_a_click_in_that_window(window, nested):
    """Found by the random session: the Object Types dialog had the application's focus while a layer's name was
    being typed in the main window (its own focus widget); the Delete Layer button then committed the name inside
    the delete (the view commits an open editor when its current row changes), onto another layer."""
    from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QToolBar

    from level_editor.editor.panels.layers_panel import NAME

    panel = window.layers_panel
    QTest.mouseClick(panel.findChild(QToolBar).widgetForAction(panel.add_action), Qt.LeftButton)
    window.types_action.trigger()
    dialog = window.types_editor
    dialog.activateWindow()
    QApplication.processEvents()
    assert dialog.isAncestorOf(QApplication.focusWidget())  # the dialog has the application's focus
    view, model = panel.view, panel.model
    rect = view.visualRect(model.index(0, NAME))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    editor = window.focusWidget()
    assert view.state() == QAbstractItemView.EditingState and isinstance(editor, QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, "Enemies")
    QTest.mouseClick(panel.findChild(QToolBar).widgetForAction(panel.delete_action), Qt.LeftButton)
    QApplication.processEvents()
    dialog.close()
    assert nested == []
    assert undo_texts(window) == ["Add layer", "Rename layer 'Layer 2' to 'Enemies'", "Delete layer 'Enemies'"]
    first = window.document.level.layers[0].name
    levels = levels_by_undo(window)
    assert [[layer.name for layer in lv.layers] for lv in levels] == \
        [[first], [first, "Layer 2"], [first, "Enemies"], [first]]


# -- Ctrl+Z and Ctrl+Shift+Z in a field (issue 23 item 2) -------------------------------------------------------------


@pytest.fixture
def game(qtbot, tmp_path):
    from tests.editor.panels.test_properties import game_level

    w = make_window(qtbot, tmp_path, game_level())
    click(w, 256, 96)  # goblin-1, health 5 of its own
    w.activateWindow()
    qtbot.waitUntil(lambda: "health" in [row.name for row in w.inspector.properties.rows()])
    return w


def health_field(window):
    return window.inspector.properties.editor("health")


def health(window):
    return window.document.get("goblin-1").properties["health"]


def test_ctrl_z_right_after_enter_in_a_field_undoes_the_level_and_redo_redoes_it(game):
    field = health_field(game)
    retype(field, "9")
    assert undo_texts(game) == ["Set health of goblin-1 to 9"] and health(game) == 9
    assert QApplication.focusWidget() is field
    QTest.keyClick(field, Qt.Key_Z, Qt.ControlModifier)
    assert game.undo_stack.index() == 0 and health(game) == 5
    assert field.text() == "5" and not field.isModified()
    click(game, 256, 96)  # a click on the canvas records nothing new: the field shows the level's value
    QApplication.processEvents()
    assert undo_texts(game) == ["Set health of goblin-1 to 9"] and game.undo_stack.index() == 0
    field = health_field(game)
    field.setFocus()
    QTest.keyClick(field, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert game.undo_stack.index() == 1 and health(game) == 9 and health_field(game).text() == "9"


def test_ctrl_z_undoes_the_level_step_by_step_with_the_focus_in_a_field_after_a_save(game, tmp_path):
    field = health_field(game)
    retype(field, "9")
    retype(health_field(game), "11")
    game.path = str(tmp_path / "saved.json")
    assert game.save() and game.undo_stack.isClean()
    field = health_field(game)
    field.setFocus()
    for expected_index, expected_health in ((1, 9), (0, 5)):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_Z, Qt.ControlModifier)
        assert game.undo_stack.index() == expected_index and health(game) == expected_health


def test_a_field_holding_typing_undoes_its_text_first_then_the_level(game):
    retype(health_field(game), "9")
    field = retype(health_field(game), "12", enter=False)
    assert field.isModified()
    QTest.keyClick(field, Qt.Key_Z, Qt.ControlModifier)  # the typing's own undo: the level is not touched
    assert undo_texts(game) == ["Set health of goblin-1 to 9"] and game.undo_stack.index() == 1
    assert health(game) == 9 and field.text() != "12"
    for _ in range(5):  # the field's own steps back to the level's value (the typing, the delete before it)
        if not field.isModified():
            break
        QTest.keyClick(field, Qt.Key_Z, Qt.ControlModifier)
        assert game.undo_stack.index() == 1
    assert field.text() == "9" and not field.isModified()
    QTest.keyClick(field, Qt.Key_Z, Qt.ControlModifier)  # now the field shows the level's value: the level
    assert game.undo_stack.index() == 0 and health(game) == 5
