"""The select tool driven with real mouse and key events on a real main window."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from level_editor.core.level.model import Player, Point, Tiles
from level_editor.core.collision.shapes import Vec2
from tests.editor.helpers import at, click, drag, hover, key, move, press, release, undo_texts, window  # noqa: F401


def selected(window):
    return window.selection.ids()


def test_select_tool_is_active_and_checked(window):
    assert type(window.tool).__name__ == "SelectTool"
    assert window.tool_actions[window.tool].isChecked()
    assert "Click to select" in window.hint_label.text()


def test_click_selects_topmost_object_and_empty_click_clears(window):
    click(window, 270, 95)
    assert selected(window) == ["box-1"]
    assert window.scene.item("box-1").is_selected_look
    click(window, 600, 600)
    assert selected(window) == []
    assert not window.scene.item("box-1").is_selected_look


def test_click_near_a_thin_wall_picks_it_within_a_few_pixels(window):
    # the wall's centre line is y=200 and it is 8 thick: 4 units + 3 pixels of pick tolerance
    click(window, 80, 207)
    assert selected(window) == ["wall-1"]
    click(window, 80, 215)
    assert selected(window) == []


def test_pick_tolerance_is_in_screen_pixels(window):
    window.canvas.set_zoom(4.0)
    window.canvas.centerOn(240, 320)
    # 20 units right of the pillar's centre: 4 units past its edge = 16 pixels at 400%: too far
    click(window, 260, 320)
    assert selected(window) == []
    click(window, 256.5, 320)
    assert selected(window) == ["pillar-1"]


def test_shift_click_adds_and_toggles(window):
    click(window, 270, 95)
    click(window, 240, 320, Qt.ShiftModifier)
    assert selected(window) == ["box-1", "pillar-1"]
    click(window, 270, 95, Qt.ShiftModifier)
    assert selected(window) == ["pillar-1"]


def test_player_spawn_can_be_clicked(window):
    click(window, 48, 48)
    assert selected(window) == ["player"]


def test_rubber_band_selects_what_it_touches(window):
    drag(window, (200, 60), (450, 260))
    assert set(selected(window)) == {"box-1", "obox-1"}
    assert all(type(i).__name__ != "QGraphicsRectItem" for i in window.scene.items())


def test_rubber_band_with_shift_adds(window):
    click(window, 240, 320)
    drag(window, (200, 60), (320, 130), Qt.ShiftModifier)
    assert set(selected(window)) == {"pillar-1", "box-1"}


def test_drag_moves_the_selection_as_one_undo_step(window):
    click(window, 240, 320, Qt.NoModifier)
    click(window, 270, 95, Qt.ShiftModifier)
    drag(window, (270, 95), (302, 127), steps=8)
    doc = window.document
    assert doc.get("box-1").origin == Vec2(272, 112)
    assert doc.get("pillar-1").center == Vec2(272, 352)
    assert undo_texts(window) == ["Move 2 objects"]
    window.undo_stack.undo()
    assert doc.get("box-1").origin == Vec2(240, 80)
    assert doc.get("pillar-1").center == Vec2(240, 320)


def test_drag_snaps_to_the_grid_and_ctrl_suspends_it(window):
    drag(window, (270, 95), (275, 105))  # an unselected object: press selects it, drag moves it
    assert window.document.get("box-1").origin == Vec2(240, 96)
    drag(window, (270, 105), (275, 112), Qt.ControlModifier)
    assert window.document.get("box-1").origin == Vec2(245, 103)
    assert undo_texts(window) == ["Move box", "Move box"]


def test_drag_moves_player_with_objects(window):
    click(window, 48, 48)
    click(window, 240, 320, Qt.ShiftModifier)
    drag(window, (48, 48), (80, 64))
    assert window.document.player.spawn == Vec2(80, 64)
    assert window.document.get("pillar-1").center == Vec2(272, 336)
    assert undo_texts(window) == ["Move 2 objects"]
    window.undo_stack.undo()
    assert window.document.player.spawn == Vec2(48, 48)
    assert window.document.get("pillar-1").center == Vec2(240, 320)


def test_a_drag_back_to_the_start_leaves_no_undo_step(window):
    hover(window, 270, 95)
    press(window, 270, 95)
    move(window, 300, 130)
    move(window, 270, 95)
    release(window, 270, 95)
    assert undo_texts(window) == []
    assert not window.is_modified()
    assert window.document.get("box-1").origin == Vec2(240, 80)


def _handle(window, role):
    return next(h for h in window.tool.handles if h.role == role)


def _knob(window, role):
    h = _handle(window, role)
    k = h.knob_pos(window.context.scale())
    return k.x(), k.y()


def test_box_shows_eight_handles_and_corner_resizes(window):
    click(window, 270, 95)
    assert sorted(h.role for h in window.tool.handles) == sorted(["nw", "n", "ne", "e", "se", "s", "sw", "w"])
    drag(window, _knob(window, "se"), (338, 130))
    box = window.document.get("box-1")
    assert box.origin == Vec2(240, 80)
    assert box.size == Vec2(96, 48)
    assert undo_texts(window) == ["Resize box-1"]
    # the handles follow the object
    assert _knob(window, "se") == (336, 128)


def test_box_edge_handle_resizes_one_side_and_cannot_turn_inside_out(window):
    click(window, 270, 95)
    drag(window, _knob(window, "w"), (400, 90))
    box = window.document.get("box-1")
    # dragged past the right edge: the box flips to the other side instead of getting a negative width
    assert box.origin == Vec2(304, 80) and box.size == Vec2(96, 32)


def test_oriented_box_handles_change_half_extents_along_its_own_axes(window):
    click(window, 400, 240)
    drag(window, _knob(window, "e"), (464, 240))
    ob = window.document.get("obox-1")
    assert ob.half_extents == Vec2(64, 10) and ob.center == Vec2(400, 240)
    drag(window, _knob(window, "s"), (400, 272))
    assert window.document.get("obox-1").half_extents == Vec2(64, 32)
    assert undo_texts(window) == ["Resize obox-1", "Resize obox-1"]


def test_rotation_handle_turns_and_shift_snaps_to_15_degrees(window):
    click(window, 400, 240)
    assert _handle(window, "rotate").style == "round"
    # the handle stands above the top edge; dragging it to the right of the centre turns by 90 degrees
    drag(window, _knob(window, "rotate"), (480, 247), Qt.NoModifier)
    ob = window.document.get("obox-1")
    assert ob.rotation == pytest.approx(95.0, abs=0.1)
    assert undo_texts(window) == ["Rotate obox-1"]
    drag(window, _knob(window, "rotate"), (400 + 80, 240 + 21), Qt.ShiftModifier)
    assert window.document.get("obox-1").rotation == 105.0
    window.undo_stack.undo()
    assert window.document.get("obox-1").rotation == pytest.approx(95.0, abs=0.1)


def test_pillar_radius_handle(window):
    click(window, 240, 320)
    drag(window, _knob(window, "radius"), (272, 320))
    assert window.document.get("pillar-1").radius == 32
    assert undo_texts(window) == ["Resize pillar-1"]


def test_escape_clears_the_selection_and_cancels_a_drag(window):
    click(window, 270, 95)
    hover(window, 270, 95)
    press(window, 270, 95)
    move(window, 340, 160)
    assert window.document.get("box-1").origin != Vec2(240, 80)
    key(window, Qt.Key_Escape)
    release(window, 340, 160)
    assert window.document.get("box-1").origin == Vec2(240, 80)
    assert undo_texts(window) == [] and not window.is_modified()
    key(window, Qt.Key_Escape)
    assert selected(window) == []


def test_arrow_keys_nudge_by_one_grid_step(window):
    click(window, 270, 95)
    key(window, Qt.Key_Right)
    key(window, Qt.Key_Down)
    assert window.document.get("box-1").origin == Vec2(256, 96)
    key(window, Qt.Key_Left, Qt.ControlModifier)
    assert window.document.get("box-1").origin == Vec2(255, 96)
    assert undo_texts(window) == ["Move box"] * 3


def test_hover_highlights_the_object_under_the_mouse(window):
    hover(window, 270, 95)
    assert window.scene.item("box-1").is_hovered
    hover(window, 600, 600)
    assert not window.scene.item("box-1").is_hovered


def test_player_box_shape_is_drawn_with_its_size(window):
    window.document.set_player(Player(spawn=(48, 48), shape="box", size=(30, 20)))
    r = window.scene.player_item.sceneBoundingRect()
    assert r.width() >= 30 and r.height() >= 20
    click(window, 62, 56)
    assert selected(window) == ["player"]


def test_a_drag_that_snaps_back_to_where_it_started_leaves_no_undo_step(window):
    # 5 units is past the drag threshold but snaps to the same grid point: nothing moved
    hover(window, 270, 95)
    press(window, 270, 95)
    move(window, 275, 95)
    release(window, 275, 95)
    assert window.document.get("box-1").origin == Vec2(240, 80)
    assert undo_texts(window) == []
    assert not window.is_modified()


def test_pressing_a_handle_without_changing_anything_leaves_no_undo_step(window):
    click(window, 270, 95)
    key(window, Qt.Key_Right)
    window.undo_stack.undo()
    x, y = _knob(window, "se")
    hover(window, x, y)
    press(window, x, y)
    move(window, x + 3, y + 2)  # still snaps to the same corner
    release(window, x + 3, y + 2)
    press(window, x, y)
    key(window, Qt.Key_Escape)
    release(window, x, y)
    assert window.document.get("box-1").size == Vec2(64, 32)
    # nothing was added, and the nudge that was undone can still be redone
    assert undo_texts(window) == ["Move box"] and window.undo_stack.index() == 0
    assert not window.is_modified()
    window.undo_stack.redo()
    assert window.document.get("box-1").origin == Vec2(256, 80)


def test_undo_in_the_middle_of_a_drag_cancels_the_drag_and_the_mouse_no_longer_moves_anything(window):
    hover(window, 270, 95)
    press(window, 270, 95)
    move(window, 340, 160)
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.get("box-1").origin == Vec2(240, 80)
    move(window, 400, 200)
    release(window, 400, 200)
    assert window.document.get("box-1").origin == Vec2(240, 80)
    # Ctrl+Z cancelled the drag under way (editor/tools/undo_actions.py): it never became a step
    assert window.undo_stack.count() == 0 and not window.is_modified()


def test_undoing_the_drawing_of_the_object_being_dragged_ends_the_drag(window):
    key(window, Qt.Key_B)
    drag(window, (400, 400), (464, 448))
    key(window, Qt.Key_S)
    assert selected(window) == ["box-2"]
    hover(window, 430, 420)
    press(window, 430, 420)
    move(window, 470, 460)
    key(window, Qt.Key_Z, Qt.ControlModifier)  # cancels the drag
    assert window.document.get("box-2").origin == Vec2(400, 400)
    key(window, Qt.Key_Z, Qt.ControlModifier)  # undoes the drawing
    assert window.document.get("box-2") is None
    move(window, 500, 480)
    release(window, 500, 480)
    assert window.document.get("box-2") is None
    assert window.undo_stack.index() == 0 and undo_texts(window) == ["Add box"]


@pytest.mark.parametrize("obj, anchor", [
    (Point("lever", (208, 208), layer="main"), "position"),
    (Tiles("floor", (192, 192), 16, ("###",), layer="main"), "origin"),
])
def test_markers_and_tile_grids_move_with_the_select_tool(qtbot, tmp_path, obj, anchor):
    from level_editor.core.level.model import Level, Player
    from tests.editor.helpers import drag, key, make_window

    w = make_window(qtbot, tmp_path, Level(player=Player(spawn=(40, 40), radius=8), objects=(obj,)))
    key(w, Qt.Key_S)
    x0, y0 = getattr(obj, anchor)
    grab = (x0 + 1, y0 + 1) if anchor == "position" else (x0 + 8, y0 + 8)
    drag(w, grab, (grab[0] + 32, grab[1] + 16))
    moved = w.document.get(obj.id)
    assert tuple(getattr(moved, anchor)) == (x0 + 32, y0 + 16)
    assert w.undo_stack.count() == 1
