"""The marker tool: a click places a point of the type chosen in its options, one undo step, on the current layer."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QComboBox

from level_editor.core.level.model import Layer, Level, ObjectType, Point
from level_editor.editor.tools.marker_tool import NO_TYPE_LABEL, MarkerTool
from tests.editor.helpers import click, make_window, undo_texts
from tests.editor.helpers import key as press_key
from tests.editor.tools.conftest import context_for, key, round_trip, use_tool

TYPES = (ObjectType("enemy", "#e0503c", {"health": 3}), ObjectType("pickup", "#40c060"))


@pytest.fixture
def editor(qtbot):
    """A level with object types and two layers: art (locked, at the bottom) and things (current)."""
    ctx = context_for(Level(name="Test", grid=16, types=TYPES,
                            layers=(Layer("art", "Art", locked=True), Layer("things", "Things"))))
    yield ctx
    ctx.undo_stack.clear()


def make(editor):
    return use_tool(editor, MarkerTool)


def choose(tool, label: str) -> None:
    """Pick ``label`` in the tool's type box, as the designer does."""
    box = tool.type_box
    index = box.findText(label)
    assert index >= 0, f"{label!r} is not offered"
    box.setCurrentIndex(index)


def markers(editor) -> list[Point]:
    return [o for o in editor.document.objects if isinstance(o, Point)]


def test_a_click_places_a_marker_of_the_chosen_type_on_the_grid(editor):
    tool, mouse = make(editor)
    tool.options_widget()
    choose(tool, "enemy")
    before = editor.document.level
    mouse.click(203, 95)
    [marker] = markers(editor)
    assert (marker.id, marker.type, tuple(marker.position)) == ("enemy-1", "enemy", (208, 96))
    assert marker.layer == "things" and marker.properties == {}
    assert editor.selection.ids() == ["enemy-1"]
    round_trip(editor, before, "Add enemy")


def test_without_a_type_it_is_a_plain_marker(editor):
    tool, mouse = make(editor)
    assert tool.marker_type == ""
    mouse.click(40, 40)
    mouse.click(80, 40)
    assert [(m.id, m.type) for m in markers(editor)] == [("point-1", ""), ("point-2", "")]
    assert editor.undo_stack.undoText() == "Add marker"
    assert editor.undo_stack.count() == 2  # one step per click


def test_ids_follow_the_type_and_skip_taken_ones(editor):
    tool, mouse = make(editor)
    tool.set_marker_type("enemy")
    mouse.click(16, 16)
    mouse.click(32, 16)
    tool.set_marker_type("pickup")
    mouse.click(48, 16)
    assert [m.id for m in markers(editor)] == ["enemy-1", "enemy-2", "pickup-1"]


def test_ctrl_places_it_exactly(editor):
    tool, mouse = make(editor)
    mouse.click(203.5, 95.25, Qt.ControlModifier)
    assert tuple(markers(editor)[0].position) == (203.5, 95.25)


def test_dragging_before_letting_go_moves_where_it_lands(editor):
    tool, mouse = make(editor)
    mouse.drag((20, 20), (100, 60))
    assert [tuple(m.position) for m in markers(editor)] == [(96, 64)]
    assert editor.undo_stack.count() == 1


def test_the_press_shows_where_it_will_go(editor):
    tool, mouse = make(editor)
    tool.set_marker_type("enemy")
    mouse.press(100, 100)
    shape = tool.preview.shape_item
    assert shape is not None and shape.isVisible()
    assert shape.path().boundingRect().center() == QPointF(96, 96)
    assert tool.preview.label_item.text() == "enemy"
    mouse.release(100, 100)
    assert not shape.isVisible()


def test_the_type_box_offers_none_and_the_level_types_and_follows_them(editor):
    tool, _ = make(editor)
    tool.options_widget()
    box = tool.type_box
    assert [box.itemText(i) for i in range(box.count())] == [NO_TYPE_LABEL, "enemy", "pickup"]
    choose(tool, "pickup")
    editor.document.set_types([TYPES[1], ObjectType("door", "#3c8ce0")])
    assert [box.itemText(i) for i in range(box.count())] == [NO_TYPE_LABEL, "pickup", "door"]
    assert box.currentText() == "pickup" and tool.marker_type == "pickup"
    editor.document.set_types([TYPES[0]])  # the chosen type is gone: back to none
    assert box.currentText() == NO_TYPE_LABEL and tool.marker_type == ""


def test_a_type_the_level_does_not_have_is_none(editor):
    tool, mouse = make(editor)
    tool.set_marker_type("dragon")
    mouse.click(16, 16)
    assert markers(editor)[0].type == "" and markers(editor)[0].id == "point-1"


def test_esc_while_the_button_is_down_places_nothing(editor):
    tool, mouse = make(editor)
    mouse.press(50, 50)
    assert key(tool, Qt.Key_Escape)
    mouse.release(50, 50)
    assert markers(editor) == [] and editor.undo_stack.count() == 0
    assert not key(tool, Qt.Key_Escape)  # nothing to cancel: the key goes on


def test_other_buttons_place_nothing(editor):
    tool, mouse = make(editor)
    mouse.click(50, 50, button=Qt.RightButton)
    assert markers(editor) == []


def test_a_locked_layer_refuses_and_says_so(editor):
    tool, mouse = make(editor)
    editor.set_current_layer("art")
    mouse.click(50, 50)
    assert markers(editor) == [] and editor.undo_stack.count() == 0
    assert "locked" in editor.messages[-1]
    assert tool.preview.shape_item is None


def test_markers_go_on_the_current_layer(editor):
    editor.document.set_layers([Layer("art", "Art"), Layer("things", "Things")])
    tool, mouse = make(editor)
    editor.set_current_layer("art")
    mouse.click(50, 50)
    assert markers(editor)[0].layer == "art"


# -- in the editor window, with real mouse and key events ---------------------------------------------------
def test_m_shows_the_type_box_and_a_click_on_the_canvas_places_the_marker(qtbot, tmp_path):
    level = Level(name="Typed", grid=16, types=TYPES)
    window = make_window(qtbot, tmp_path, level)
    before = window.document.level
    press_key(window, Qt.Key_M)
    tool = window.tool
    assert isinstance(tool, MarkerTool)
    box = window.findChild(QComboBox, "markerType")
    assert box is not None
    qtbot.waitUntil(box.isVisible)  # the toolbar lays itself out when the events are next handled
    box.setCurrentIndex(box.findText("enemy"))
    click(window, 203, 95)
    [marker] = [o for o in window.document.objects if isinstance(o, Point)]
    assert (marker.id, marker.type, tuple(marker.position)) == ("enemy-1", "enemy", (208, 96))
    assert window.scene.item("enemy-1") is not None
    assert undo_texts(window) == ["Add enemy"]
    press_key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.level == before
    press_key(window, Qt.Key_S)  # another tool: its options go away
    qtbot.waitUntil(lambda: not box.isVisible())
