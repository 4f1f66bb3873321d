"""Cut, flip, rotate, raise, lower and frame through the keys a designer presses (editor/window/edit_actions.py)."""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import Box, Image, Layer, Level, OrientedBox, Pillar, Player, Point, Tiles, Wall
from level_editor.editor.documents.clipboard import objects_from_text
from tests.editor.helpers import click, key, make_window, sample_level, window  # noqa: F401 - the window fixture


def test_cut_copies_and_deletes_in_one_undo_step_named_cut(window):
    window.selection.set(["box-1", "pillar-1"])
    key(window, Qt.Key_X, Qt.ControlModifier)
    assert "box-1" not in window.document and "pillar-1" not in window.document
    pasted = objects_from_text(QApplication.clipboard().text())
    assert [o.id for o in pasted] == ["box-1", "pillar-1"]
    assert window.undo_stack.count() == 1 and window.undo_stack.undoText() == "Cut 2 objects"
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert [o.id for o in window.document.objects] == ["wall-1", "box-1", "obox-1", "pillar-1"]
    # and it pastes back where it was cut from (its place is free again)
    key(window, Qt.Key_Delete)
    key(window, Qt.Key_V, Qt.ControlModifier)
    assert window.document.get("box-1").origin == Vec2(240, 80)


def test_cut_that_is_cancelled_leaves_the_clipboard_and_the_level_alone(qtbot, tmp_path):
    level = Level(objects=(Point("lever", (0, 0)), Box("gate", (32, 0), (8, 48), properties={"opened_by": _ref("lever")})))
    window = make_window(qtbot, tmp_path, level)
    QApplication.clipboard().setText("before")
    window.ask_clear_references = lambda names: "cancel"
    window.selection.set(["lever"])
    key(window, Qt.Key_X, Qt.ControlModifier)
    assert "lever" in window.document and QApplication.clipboard().text() == "before"
    window.ask_clear_references = lambda names: "clear"
    key(window, Qt.Key_X, Qt.ControlModifier)
    assert "lever" not in window.document
    assert window.undo_stack.undoText() == "Cut marker and clear 1 reference to it"
    assert [o.id for o in objects_from_text(QApplication.clipboard().text())] == ["lever"]


def _ref(object_id):
    from level_editor.core.level.model import Ref
    return Ref(object_id)


def test_rotate_keys_turn_the_selection_about_its_centre_exactly(window):
    click(window, 270, 95)  # box-1, 64 x 32 at (240, 80)
    assert window.selection.ids() == ["box-1"]
    key(window, Qt.Key_Z)
    box = window.document.get("box-1")
    assert (box.origin, box.size) == (Vec2(256, 64), Vec2(32, 64))
    assert window.undo_stack.undoText() == "Rotate box clockwise"
    key(window, Qt.Key_Z, Qt.ShiftModifier)
    assert window.document.get("box-1") == sample_level().objects[1]
    for _ in range(4):
        key(window, Qt.Key_Z)
    assert window.document.get("box-1") == sample_level().objects[1]
    assert window.undo_stack.count() == 6


def test_flip_keys_mirror_the_selection_about_its_centre(qtbot, tmp_path):
    level = Level(objects=(Wall("wall-1", [(0, 0), (64, 0), (64, 32)], 8),
                           OrientedBox("obox-1", (200, 100), (40, 10), 0), OrientedBox("obox-2", (400, 400), (40, 10), 30)))
    window = make_window(qtbot, tmp_path, level)
    window.selection.set(["wall-1", "obox-1"])  # bounds -4..240 x -4..110: the centre is (118, 53)
    key(window, Qt.Key_X)
    assert window.document.get("wall-1").points == (Vec2(236, 0), Vec2(172, 0), Vec2(172, 32))
    assert window.document.get("obox-1").center == Vec2(36, 100)
    assert window.undo_stack.undoText() == "Flip 2 objects horizontally"
    key(window, Qt.Key_Y)
    assert window.document.get("wall-1").points == (Vec2(236, 106), Vec2(172, 106), Vec2(172, 74))
    assert window.document.get("obox-1").center == Vec2(36, 6)
    assert window.undo_stack.undoText() == "Flip 2 objects vertically"
    window.selection.set(["obox-2"])
    key(window, Qt.Key_X)
    turned = window.document.get("obox-2")
    assert (turned.center, turned.rotation) == (Vec2(400, 400), -30)  # in place, its rotation negated
    for _ in range(3):
        key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.level == level


def test_the_spawn_turns_with_the_selection_and_the_tiles_with_their_cells(qtbot, tmp_path):
    level = Level(player=Player(spawn=(48, 48), radius=12), objects=(Tiles("tiles-1", (0, 0), 16, ("##.", "#..")),))
    window = make_window(qtbot, tmp_path, level)
    window.selection.set(["tiles-1", "player"])
    key(window, Qt.Key_Z)
    # bounds: tiles 0..48 x 0..32, player 36..60 x 36..60 -> pivot (30, 30)
    assert window.document.player.spawn == Vec2(12, 48)
    assert window.document.get("tiles-1").cells == ("##", ".#", "..")
    assert window.undo_stack.undoText() == "Rotate tile grid and the spawn clockwise"


def test_reference_images_stay_and_the_designer_is_told(qtbot, tmp_path):
    level = Level(objects=(Image("img", "missing.png", (0, 0)), Pillar("pillar-1", (100, 100), 8),
                           Box("box-1", (200, 92), (16, 16))))
    window = make_window(qtbot, tmp_path, level)
    window.selection.set(["img"])
    key(window, Qt.Key_X)
    assert window.undo_stack.count() == 0
    assert "reference images stay" in window.statusBar().currentMessage()
    window.selection.set(["img", "pillar-1", "box-1"])
    key(window, Qt.Key_X)
    assert window.document.get("img") == level.objects[0]
    assert window.document.get("pillar-1").center == Vec2(208, 100)
    assert "1 reference image left as it is" in window.statusBar().currentMessage()


def test_a_turn_past_the_limits_is_refused_by_name(qtbot, tmp_path):
    level = Level(objects=(Wall("wall-1", [(0, 9_999_000), (9_000_000, 9_999_000)], 8),))
    window = make_window(qtbot, tmp_path, level)
    window.selection.set(["wall-1"])
    key(window, Qt.Key_Z)
    assert window.document.level == level and window.undo_stack.count() == 0
    message = window.statusBar().currentMessage()
    assert message.startswith("Cannot rotate clockwise: wall-1 would end up past the level's limit")


def test_flip_and_rotate_are_disabled_with_nothing_selected(window):
    window.selection.clear()
    assert not window.flip_horizontal_action.isEnabled() and not window.rotate_clockwise_action.isEnabled()
    key(window, Qt.Key_X)
    assert window.undo_stack.count() == 0


def _layered_level():
    return Level(layers=(Layer("below", "Below"), Layer("main", "Main")), objects=(
        Box("a", (0, 0), (32, 32)), Box("b", (16, 16), (32, 32)), Box("x", (0, 0), (8, 8), layer="below"),
        Box("c", (32, 32), (32, 32)),
    ))


def test_page_up_and_down_raise_and_lower_within_the_layer(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, _layered_level())
    window.selection.set(["a"])
    key(window, Qt.Key_PageUp)
    assert [o.id for o in window.document.objects] == ["b", "a", "x", "c"]
    assert window.undo_stack.undoText() == "Raise box"
    assert window.selection.ids() == ["a"]
    assert window.scene.item("a").zValue() > window.scene.item("b").zValue()
    key(window, Qt.Key_Home)
    assert [o.id for o in window.document.objects] == ["b", "c", "x", "a"]
    assert window.scene.item("a").zValue() > window.scene.item("c").zValue()
    key(window, Qt.Key_Home)  # already there: no step, a word
    assert window.undo_stack.count() == 2 and "Already at the top" in window.statusBar().currentMessage()
    key(window, Qt.Key_End)
    assert [o.id for o in window.document.objects] == ["a", "b", "x", "c"]
    key(window, Qt.Key_PageDown)
    assert window.undo_stack.count() == 3
    key(window, Qt.Key_Z, Qt.ControlModifier)
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert [o.id for o in window.document.objects] == ["b", "a", "x", "c"]
    assert window.selection.ids() == ["a"]  # undo keeps what was raised selected
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.level == _layered_level()
    key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert [o.id for o in window.document.objects] == ["b", "a", "x", "c"] and window.selection.ids() == ["a"]


def test_the_drawing_order_survives_a_save(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, _layered_level())
    window.selection.set(["a"])
    key(window, Qt.Key_PageUp)
    path = tmp_path / "ordered.json"
    window.ask_save_path = lambda: str(path)
    assert window.save_as()
    assert [o["id"] for o in json.loads(path.read_text())["objects"]] == ["b", "a", "x", "c"]


def test_page_up_in_the_object_list_is_left_to_the_list(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, _layered_level())
    window.selection.set(["a"])
    key(window, Qt.Key_PageUp, widget=window.object_list)
    assert [o.id for o in window.document.objects] == ["a", "b", "x", "c"]


def test_f_frames_the_selection_and_the_whole_level_without_one(window):
    canvas = window.canvas
    window.selection.set(["pillar-1"])  # 32 x 32 at (224, 304)
    key(window, Qt.Key_F)
    assert canvas.zoom() == pytest.approx(4.0)  # as close as framing goes
    centre = canvas.mapToScene(canvas.viewport().rect().center())
    assert abs(centre.x() - 240) < 1 and abs(centre.y() - 320) < 1
    window.selection.set(["wall-1", "obox-1"])
    key(window, Qt.Key_F)
    visible = canvas.visible_rect()
    for obj in (window.document.get("wall-1"), window.document.get("obox-1")):
        x0, y0, x1, y1 = obj.bounds()
        assert visible.contains(QPointF(x0, y0)) and visible.contains(QPointF(x1, y1))
    assert visible.width() < 1.5 * (440 - (-4)) or visible.height() < 1.5 * (324 - 196)  # zoomed to it, with a margin
    window.selection.clear()
    key(window, Qt.Key_F)
    level = window.scene.level_rect()
    assert canvas.visible_rect().contains(level)


def test_the_arranging_keys_are_locked_during_a_play_test(window):
    locked = set(window.play_mode.host.locked_actions)
    for a in (window.cut_action, window.frame_action, *window.arrange_actions(), *window.order_actions()):
        assert a in locked, a.text()


def test_reorder_command_undoes_exactly_whatever_the_new_order(qapp):
    import random

    from level_editor.core.level.document import LevelDocument
    from level_editor.editor.commands.order import ReorderObjectsCommand

    rng = random.Random(5)
    objects = [Point(f"p{i}", (i, 0)) for i in range(30)]
    doc = LevelDocument(Level(objects=objects))
    for _ in range(50):
        order = list(doc.objects)
        rng.shuffle(order)
        before = doc.objects
        command = ReorderObjectsCommand(doc, order, "Reorder")
        command.redo()
        assert list(doc.objects) == order
        command.undo()
        assert doc.objects == before
        command.redo()
    with pytest.raises(ValueError, match="same objects"):
        ReorderObjectsCommand(doc, list(doc.objects)[1:], "Reorder")


def test_the_toolbar_buttons_flip_and_rotate(window):
    from PySide6.QtTest import QTest

    window.selection.set(["box-1"])
    button = window.main_toolbar.widgetForAction(window.rotate_counterclockwise_action)
    assert button is not None and button.isEnabled()
    QTest.mouseClick(button, Qt.LeftButton)
    box = window.document.get("box-1")
    assert (box.origin, box.size) == (Vec2(256, 64), Vec2(32, 64))
    assert window.undo_stack.undoText() == "Rotate box counterclockwise"
    window.selection.clear()
    assert not button.isEnabled()


def test_no_flip_or_raise_in_the_middle_of_a_drag(window):
    from tests.editor.helpers import hover, move, press, release

    hover(window, 270, 95)
    press(window, 270, 95)
    move(window, 300, 95)
    assert window.tool.in_gesture()
    key(window, Qt.Key_Z)
    key(window, Qt.Key_PageUp)
    assert window.document.get("box-1").size == Vec2(64, 32)
    assert window.statusBar().currentMessage().startswith("Finish with the Select tool first")
    release(window, 300, 95)
    assert window.undo_stack.count() == 1 and window.undo_stack.undoText() == "Move box"
