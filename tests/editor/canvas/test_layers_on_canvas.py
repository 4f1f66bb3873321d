"""Layers on the canvas: stacking by layer then file order, hidden layers not drawn, locked ones not picked."""
from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Layer, Level, ObjectType
from level_editor.editor.canvas.canvas import BACKGROUND
from level_editor.editor.canvas.scene import LevelScene
from level_editor.editor.items.layer_item import LayerItem
from level_editor.editor.commands.layers import lock_layer_command, move_layer_command, show_layer_command
from tests.editor.helpers import at, click, drag, drawn_in_order, hover, key, make_window
from tests.editor.items.content import content_level, near

RED, GREEN = "#d02020", "#20d020"


@pytest.fixture
def window(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, content_level())


def grab(window):
    window.canvas.viewport().repaint()
    return window.canvas.viewport().grab().toImage()


def seen(window, x, y):
    return grab(window).pixelColor(at(window, x, y))


def set_layer(window, layer_id, **state):
    """Show, hide, lock or unlock a layer as the Layers dock does: an undo command."""
    if "visible" in state:
        window.context.push(show_layer_command(window.document, layer_id, state["visible"]))
    if "locked" in state:
        window.context.push(lock_layer_command(window.document, layer_id, state["locked"]))


def overlapping_level() -> Level:
    """Two boxes over each other: the red one first in the file but on the upper layer."""
    return Level(
        layers=(Layer("low", "Low"), Layer("high", "High")),
        types=(ObjectType("red", RED), ObjectType("green", GREEN)),
        objects=(Box("red-box", (100, 100), (80, 80), layer="high", type="red"),
                 Box("green-box", (120, 120), (80, 80), layer="low", type="green")),
    )


# -- stacking ----------------------------------------------------------------------------------


def test_objects_stack_by_layer_then_file_order(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, overlapping_level())
    assert near(seen(window, 150, 150), RED)
    assert window.scene.object_at(window.canvas.mapToScene(at(window, 150, 150))) == "red-box"


def test_moving_a_layer_restacks_its_objects_and_undo_puts_them_back(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, overlapping_level())
    window.context.push(move_layer_command(window.document, "high", 0))
    assert near(seen(window, 150, 150), GREEN)
    window.undo_stack.undo()
    assert near(seen(window, 150, 150), RED)


def test_an_object_moved_to_another_layer_stacks_with_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, overlapping_level())
    green = window.document.get("green-box")
    window.document.replace_objects(["green-box"], [replace(green, layer="high")])
    # same layer now: file order decides, and the green box comes later
    assert near(seen(window, 150, 150), GREEN)


def test_new_objects_go_on_top_of_their_layer_only(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, overlapping_level())
    window.document.append_objects([Box("late", (140, 140), (20, 20), layer="low", type="green")])
    scene = window.scene
    assert drawn_in_order(scene, "green-box", "late", "red-box")


# -- hidden layers -----------------------------------------------------------------------------


def test_a_hidden_layers_objects_are_not_drawn_and_come_back_when_shown(window):
    assert not near(seen(window, 270, 95), BACKGROUND, 10)
    set_layer(window, "walls", visible=False)
    assert near(seen(window, 270, 95), BACKGROUND, 10)
    assert not window.scene.item("box-1").isVisible() and window.scene.item("goblin-1").isVisible()
    window.undo_stack.undo()
    assert not near(seen(window, 270, 95), BACKGROUND, 10)
    assert window.scene.item("box-1").isVisible()


def test_a_hidden_layers_objects_cannot_be_clicked_or_caught_in_a_rubber_band(window):
    set_layer(window, "walls", visible=False)
    click(window, 270, 95)
    assert window.selection.ids() == []
    drag(window, (220, 60), (620, 140))
    assert window.selection.ids() == ["goblin-1", "lever"]


def test_hiding_a_layer_drops_its_objects_from_the_selection(window):
    window.selection.set(["box-1", "goblin-1"])
    set_layer(window, "walls", visible=False)
    assert window.selection.ids() == ["goblin-1"]


def test_the_far_out_overview_leaves_hidden_layers_out(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, content_level())
    scene = window.scene
    scene.overview.min_objects = 1
    scene.set_overview_active(True)
    scene.overview.refresh()
    drawn = {it.object_id for it in scene._overview_items(scene.level_rect())}
    assert "box-1" in drawn
    set_layer(window, "walls", visible=False)
    assert not scene.overview.is_current()
    drawn = {it.object_id for it in scene._overview_items(scene.level_rect())}
    assert "box-1" not in drawn and "goblin-1" in drawn


# -- locked layers -----------------------------------------------------------------------------


def test_a_locked_layers_objects_are_drawn_but_cannot_be_clicked(window):
    set_layer(window, "walls", locked=True)
    assert not near(seen(window, 270, 95), BACKGROUND, 10)
    click(window, 270, 95)
    assert window.selection.ids() == []
    click(window, 480, 110)
    assert window.selection.ids() == ["goblin-1"]


def test_a_click_on_a_locked_object_reaches_the_one_under_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, overlapping_level())
    set_layer(window, "high", locked=True)
    click(window, 150, 150)
    assert window.selection.ids() == ["green-box"]


def test_a_rubber_band_leaves_a_locked_layers_objects_out(window):
    set_layer(window, "walls", locked=True)
    drag(window, (220, 60), (620, 140))
    assert window.selection.ids() == ["goblin-1", "lever"]


def test_a_locked_object_cannot_be_dragged(window):
    set_layer(window, "walls", locked=True)
    before = window.document.level
    drag(window, (270, 95), (330, 95))
    assert window.document.get("box-1") == before.object_by_id("box-1")
    assert window.undo_stack.count() == 1  # the lock, nothing else


def test_the_node_tool_cannot_edit_a_locked_wall(window):
    set_layer(window, "walls", locked=True)
    key(window, Qt.Key_E)
    drag(window, (160, 200), (200, 180))
    assert window.selection.ids() == []
    assert window.document.get("wall-1").points[1] == (160, 200)


def test_select_all_and_the_selection_skip_locked_layers(window):
    window.selection.set(["box-1", "goblin-1"])
    set_layer(window, "walls", locked=True)
    assert window.selection.ids() == ["goblin-1"]
    key(window, Qt.Key_A, Qt.ControlModifier)
    assert set(window.selection.ids()) == {"goblin-1", "lever", "exit"}
    window.selection.set(["box-1"])
    assert window.selection.ids() == []


def test_hover_does_not_light_up_a_locked_object(window):
    set_layer(window, "walls", locked=True)
    hover(window, 270, 95)
    assert window.scene.hovered_id is None


# -- what a layer change touches (how long it takes at 100,000 objects: tests/benchmarks/bench_parts.py) --------


def test_layer_changes_touch_only_the_items_of_the_layers_that_changed(qtbot, monkeypatch):
    n = 2_000
    objects = [Box(f"b{i}", ((i % 400) * 20, (i // 400) * 20), (10, 10), layer="big" if i else "small")
               for i in range(n)]
    doc = LevelDocument(Level(layers=(Layer("small", "Small"), Layer("big", "Big")), objects=objects))
    scene = LevelScene(doc)
    big = scene.item("b5")
    small = scene.item("b0")
    touched = []  # the items shown, hidden or restacked: an object's id, or "layer:" and a layer's id
    for cls in (type(big), LayerItem):
        for name in ("setVisible", "setZValue"):
            real = getattr(cls, name)
            monkeypatch.setattr(cls, name, lambda item, value, real=real: touched.append(
                getattr(item, "object_id", None) or f"layer:{item.layer_id}") or real(item, value))

    def touched_by(change):
        touched.clear()
        change()
        return set(touched)

    # a lock changes nothing on screen: no item is touched
    assert touched_by(lambda: doc.set_layers([doc.level.layers[0], replace(doc.level.layers[1], locked=True)])) == set()
    assert big.isVisible() and not scene.pickable(big)
    # hiding the small layer hides its layer item, and no object's item is touched
    z_before = big.zValue()
    hide_small = [replace(doc.level.layers[0], visible=False), doc.level.layers[1]]
    assert touched_by(lambda: doc.set_layers(hide_small)) == {"layer:small"}
    assert not small.isVisible() and big.isVisible() and big.zValue() == z_before
    # renaming touches nothing
    assert touched_by(lambda: doc.set_layers([replace(doc.level.layers[0], name="Tiny"), doc.level.layers[1]])) == set()
    # moving the small layer on top restacks the layers' items, none of their objects'
    restacked = touched_by(lambda: doc.set_layers(list(reversed(doc.level.layers))))
    assert restacked and all(name.startswith("layer:") for name in restacked), restacked
    assert drawn_in_order(scene, "b5", "b0")
