"""Typing in progress never outlives its level, and no table is rebuilt under an open cell editor (issue 23 item 5).

Each table and field a designer types into (a layer's name, a wall's node, a custom property's name and value,
an object's id, the level's name) is typed into, without Enter, while the level changes underneath: another level
opened from the menu or dropped on the window (no click first), Undo, the background check finishing. The typing
lands on its own level or is dropped, never on the next level; nothing fails, and Qt never complains of a cell
editor its view does not know.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit, QTableView

from level_editor.core.level.format.write import save_level
from level_editor.editor.commands.objects import ChangeLevelPropertiesCommand
from level_editor.editor.documents.files import DISCARD
from level_editor.editor.panels.layers_panel import NAME
from tests.editor.documents.test_reference_images import drop
from tests.editor.helpers import click, make_window, undo_texts
from tests.editor.panels.test_properties import game_level

#: What Qt says when a cell editor is applied after its view let it go (the random session logged it 126 times).
STRAY_EDITOR = "does not belong to this view"


@dataclass
class Typing:
    """A place typed into: how to open it, what to type, and how the level shows the typing applied."""

    name: str
    open_editor: Callable  # (window, qtbot) -> the line edit with the focus, its old text selected
    text: str
    applied: Callable  # (level) -> the typing is in ``level``
    cell: bool = True  # an item view's cell editor (False: a field of its own)


def _double_click_cell(qtbot, view, index) -> QLineEdit:
    view.scrollTo(index)
    pixel = view.visualRect(index).center()
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, pixel)
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, pixel)
    qtbot.waitUntil(lambda: view.state() == QAbstractItemView.EditingState
                    and isinstance(QApplication.focusWidget(), QLineEdit)
                    and QApplication.focusWidget().parentWidget() is view.viewport())
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit) and editor.parentWidget() is view.viewport()
    editor.selectAll()
    return editor


def _layer_name(window, qtbot) -> QLineEdit:
    window.layers_dock.show()
    view = window.layers_panel.view
    return _double_click_cell(qtbot, view, view.model().index(0, NAME))


def _node(window, qtbot) -> QLineEdit:
    click(window, 80, 200)  # wall-1
    view = window.findChild(QTableView, "nodesTable")
    return _double_click_cell(qtbot, view, view.model().index(0, 0))


def _property_name(window, qtbot) -> QLineEdit:
    click(window, 600, 600)  # nothing selected: the level's own properties
    properties = window.inspector.properties
    return _double_click_cell(qtbot, properties.table, properties.table.model().index(properties.row_of("music"), 0))


def _property_value(window, qtbot) -> QLineEdit:
    click(window, 256, 96)
    field = window.inspector.properties.editor("health")
    field.setFocus()
    field.selectAll()
    return field


def _object_id(window, qtbot) -> QLineEdit:
    window.objects_dock.show()
    object_list = window.object_list
    object_list.view.setFocus()
    object_list.view.setCurrentIndex(object_list.model.index(object_list.model.row_of("goblin-1"), 0))
    assert object_list.start_rename()
    return object_list.rename_editor


def _level_name(window, qtbot) -> QLineEdit:
    click(window, 600, 600)  # nothing selected: the level's fields
    field = window.inspector.field("name")
    field.setFocus()
    field.selectAll()
    return field


def _type_name(window, qtbot) -> QLineEdit:
    dialog = window.show_types_editor()  # Edit > Object Types…: a window of its own, beside the level's
    qtbot.waitExposed(dialog)
    dialog.type_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: dialog.name_field.text() == "enemy")
    dialog.activateWindow()
    dialog.name_field.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.name_field)
    dialog.name_field.selectAll()
    return dialog.name_field


TYPINGS = [
    Typing("layer name", _layer_name, "Renamed", lambda level: level.layers[-1].name == "Renamed"),
    Typing("wall node", _node, "12", lambda level: level.object_by_id("wall-1").points[0].x == 12),
    Typing("property name", _property_name, "tune", lambda level: "tune" in level.properties),
    Typing("property value", _property_value, "9", lambda level: level.object_by_id("goblin-1").properties["health"] == 9,
           cell=False),
    Typing("object id", _object_id, "orc-1", lambda level: level.object_by_id("orc-1") is not None, cell=False),
    Typing("level name", _level_name, "Typed", lambda level: level.name == "Typed", cell=False),
    Typing("object type name", _type_name, "monster", lambda level: level.object_type("monster") is not None,
           cell=False),
]


@pytest.fixture
def window(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path, game_level())
    w.asked_with = []
    w.ask_unsaved_changes = lambda: (w.asked_with.append(undo_texts(w)), DISCARD)[1]
    w.activateWindow()
    return w


@pytest.fixture
def next_level(tmp_path):
    """A level of the same ids and layer as the open one (what a stray typing would land on), saved."""
    level = replace(game_level(), name="Next")
    path = tmp_path / "next.json"
    save_level(level, str(path))
    return path


def stray_editors(qtlog) -> list[str]:
    return [r.message for r in qtlog.records if STRAY_EDITOR in r.message]


def type_without_enter(qtbot, window, typing: Typing) -> QLineEdit:
    editor = typing.open_editor(window, qtbot)
    QTest.keyClicks(editor, typing.text)
    assert QApplication.focusWidget() is editor
    assert not typing.applied(window.document.level)
    return editor


@pytest.mark.parametrize("typing", TYPINGS, ids=lambda t: t.name)
@pytest.mark.parametrize("how", ["open", "drop"])
def test_typing_is_applied_to_its_own_level_never_to_the_next_one(qtbot, window, next_level, qtlog, typing, how):
    type_without_enter(qtbot, window, typing)
    if how == "open":
        assert window.open_file(str(next_level))  # File > Open's last step, after its dialog: no click first
    else:
        assert drop(window, [next_level], 300, 300)
    QApplication.processEvents()
    assert window.document.level.name == "Next", window.errors
    assert not typing.applied(window.document.level)
    assert window.undo_stack.count() == 0 and not window.isWindowModified()
    # the typing was applied to its own level first: the unsaved-changes question was asked with it as a step
    assert len(window.asked_with) == 1 and len(window.asked_with[0]) == 1
    QApplication.processEvents()
    assert not typing.applied(window.document.level) and window.undo_stack.count() == 0
    assert stray_editors(qtlog) == []
    assert "failed" not in window.statusBar().currentMessage()


@pytest.mark.parametrize("typing", TYPINGS, ids=lambda t: t.name)
def test_a_level_set_without_asking_drops_the_typing(qtbot, window, tmp_path, qtlog, typing):
    """A level shown without a question (a recovered copy, a new level at a path): the typing is dropped."""
    type_without_enter(qtbot, window, typing)
    window.set_level(replace(game_level(), name="Next"))
    QApplication.processEvents()
    window.canvas.setFocus()  # leaving the field or cell afterwards applies nothing
    QApplication.processEvents()
    assert not typing.applied(window.document.level) and window.undo_stack.count() == 0
    assert stray_editors(qtlog) == []


@pytest.mark.parametrize("typing", TYPINGS, ids=lambda t: t.name)
def test_undo_applies_the_typing_then_takes_it_back(qtbot, window, qtlog, typing):
    window.context.push(ChangeLevelPropertiesCommand(window.document, "Change grid of level", grid=32))
    before = window.document.level
    type_without_enter(qtbot, window, typing)
    assert window.undo_action.isEnabled()
    window.undo_action.trigger()  # as the Edit menu would, without a key in the field
    QApplication.processEvents()
    assert window.document.level == before
    assert window.undo_stack.count() == 2 and window.undo_stack.index() == 1
    window.undo_stack.redo()
    assert typing.applied(window.document.level)
    assert stray_editors(qtlog) == []


@pytest.mark.parametrize("typing", TYPINGS, ids=lambda t: t.name)
def test_the_background_check_finishing_leaves_the_typing_where_it_is(qtbot, window, qtlog, typing):
    editor = type_without_enter(qtbot, window, typing)
    with qtbot.waitSignal(window.checks.problems_ready, timeout=20000):
        window.checks.run_now()
    qtbot.waitUntil(lambda: not window.checks.busy)
    assert QApplication.focusWidget() is editor and editor.text() == typing.text
    QTest.keyClick(editor, Qt.Key_Return)
    QApplication.processEvents()
    assert typing.applied(window.document.level) and window.undo_stack.count() == 1
    assert stray_editors(qtlog) == []


@pytest.mark.parametrize("typing", [t for t in TYPINGS if t.cell], ids=lambda t: t.name)
def test_enter_then_the_focus_elsewhere_applies_a_cell_once(qtbot, window, qtlog, typing):
    """Qt's delegate applied a cell a moment after Enter: the focus leaving in that moment applied it first, and
    Qt's own apply then came for an editor its view had let go."""
    editor = type_without_enter(qtbot, window, typing)
    QTest.keyClick(editor, Qt.Key_Return)
    window.canvas.setFocus()  # before the event loop runs again
    QApplication.processEvents()
    assert typing.applied(window.document.level) and window.undo_stack.count() == 1
    assert stray_editors(qtlog) == []
