"""The drawing tools in a real editor window, driven with real mouse and key events on the canvas.

The window shows the sample level (tests/editor/helpers.py) at one level unit
per screen pixel on a 16 unit grid: a wall from (0, 200) over (160, 200) to
(160, 320), box-1 at (240, 80) 64×32, obox-1 centred on (400, 240), pillar-1
at (240, 320) and the spawn at (48, 48).
"""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from level_editor.core.level.model import Box, OrientedBox, Pillar, Wall
from level_editor.core.collision.shapes import Vec2
from tests.editor.helpers import at, click, drag, hover, key, move, press, release, undo_texts, window  # noqa: F401


def use(window, key_code, class_name):
    key(window, key_code)
    assert type(window.tool).__name__ == class_name
    return window.tool


def double_click(window, x, y):
    """What Qt 6 delivers for a double-click: press, release, press, double-click, release."""
    click(window, x, y)
    press(window, x, y)
    QTest.mouseDClick(window.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, at(window, x, y))
    release(window, x, y)


def new_objects(window, before):
    return [o for o in window.document.objects if o.id not in before.ids()]


def status(window) -> str:
    return window.statusBar().currentMessage()


def undo_redo_round_trip(window, before, label):
    """Undo goes back to exactly ``before``, redo to exactly what there is now; the step reads ``label``."""
    after = window.document.level
    assert window.undo_stack.undoText() == label
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.level == before
    key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.document.level == after


# -- wall -------------------------------------------------------------------------------------------------
def test_draw_a_wall_click_by_click_and_end_it_with_a_double_click(window):
    before = window.document.level
    tool = use(window, Qt.Key_W, "WallTool")
    click(window, 18, 402)
    click(window, 158, 398)
    hover(window, 250, 470)
    rubber = tool.preview_items()[1]
    assert rubber.isVisible() and rubber.pen().widthF() == 8  # the next segment, as thick as the wall
    click(window, 250, 470)
    key(window, Qt.Key_Backspace)
    assert len(tool.nodes) == 2
    click(window, 160, 480)
    double_click(window, 300, 480)
    [wall] = new_objects(window, before)
    assert isinstance(wall, Wall)
    assert [tuple(p) for p in wall.points] == [(16, 400), (160, 400), (160, 480), (304, 480)]
    assert not wall.closed and wall.thickness == 8
    assert window.selection.ids() == [wall.id]
    assert undo_texts(window) == ["Add wall"]
    undo_redo_round_trip(window, before, "Add wall")


def test_enter_ends_a_wall_and_escape_cancels_one(window):
    before = window.document.level
    use(window, Qt.Key_W, "WallTool")
    click(window, 16, 400)
    click(window, 96, 400)
    key(window, Qt.Key_Escape)
    assert window.document.level == before
    assert window.undo_stack.count() == 0
    click(window, 16, 400)
    click(window, 96, 400)
    key(window, Qt.Key_Return)
    [wall] = new_objects(window, before)
    assert [tuple(p) for p in wall.points] == [(16, 400), (96, 400)]


def test_clicking_the_first_node_closes_the_wall(window):
    before = window.document.level
    use(window, Qt.Key_W, "WallTool")
    for x, y in [(320, 400), (448, 400), (448, 512)]:
        click(window, x, y)
    click(window, 322, 403)
    [wall] = new_objects(window, before)
    assert wall.closed
    assert [tuple(p) for p in wall.points] == [(320, 400), (448, 400), (448, 512)]
    undo_redo_round_trip(window, before, "Add wall")


# -- nodes ------------------------------------------------------------------------------------------------
def edit_nodes_of(window, wall_id):
    window.selection.set([wall_id])
    return use(window, Qt.Key_E, "NodeTool")


def test_drag_a_node(window):
    before = window.document.level
    edit_nodes_of(window, "wall-1")
    drag(window, (160, 320), (195, 350))
    assert [tuple(p) for p in window.document.get("wall-1").points] == [(0, 200), (160, 200), (192, 352)]
    assert undo_texts(window) == ["Move node"]
    undo_redo_round_trip(window, before, "Move node")


def test_double_click_a_segment_inserts_a_node_and_delete_removes_it(window):
    before = window.document.level
    tool = edit_nodes_of(window, "wall-1")
    double_click(window, 80, 202)
    assert [tuple(p) for p in window.document.get("wall-1").points] == [(0, 200), (80, 200), (160, 200),
                                                                       (160, 320)]
    assert tool.selected_node == ("wall-1", 1)
    undo_redo_round_trip(window, before, "Insert node")
    inserted = window.document.level
    click(window, 160, 200)
    key(window, Qt.Key_Delete)
    assert [tuple(p) for p in window.document.get("wall-1").points] == [(0, 200), (80, 200), (160, 320)]
    assert window.selection.ids() == ["wall-1"]  # Delete removed a node, not the wall
    undo_redo_round_trip(window, inserted, "Delete node")


def test_deleting_a_node_is_refused_when_the_wall_would_be_too_short(window):
    tool = edit_nodes_of(window, "wall-1")
    click(window, 0, 200)
    key(window, Qt.Key_Delete)
    assert [tuple(p) for p in window.document.get("wall-1").points] == [(160, 200), (160, 320)]
    level = window.document.level
    click(window, 160, 200)
    assert tool.selected_node == ("wall-1", 0)
    key(window, Qt.Key_Delete)
    assert window.document.level == level
    assert "at least 2 nodes" in status(window)
    assert undo_texts(window) == ["Delete node"]
    # With no node selected, Delete keeps the wall too.
    click(window, 80, 600)
    key(window, Qt.Key_Delete)
    assert window.document.level == level


# -- box, oriented box, pillar ----------------------------------------------------------------------------
def test_draw_a_box(window):
    before = window.document.level
    use(window, Qt.Key_B, "BoxTool")
    drag(window, (350, 470), (290, 410))
    [box] = new_objects(window, before)
    assert isinstance(box, Box) and box.origin == Vec2(288, 416) and box.size == Vec2(64, 48)
    undo_redo_round_trip(window, before, "Add box")


def test_draw_an_oriented_box_and_turn_it_with_shift(window):
    before = window.document.level
    tool = use(window, Qt.Key_O, "OrientedBoxTool")
    drag(window, (480, 400), (560, 432))
    [box] = new_objects(window, before)
    assert isinstance(box, OrientedBox)
    assert box.center == Vec2(520, 416) and box.half_extents == Vec2(40, 16) and box.rotation == 0
    assert tool.handle_visible(box.id)
    drawn = window.document.level
    h = tool.handle_position(box)
    hover(window, h.x(), h.y())
    press(window, h.x(), h.y())
    for deg in (10, 20, 33):
        r = math.radians(deg - 90)
        move(window, 520 + 60 * math.cos(r), 416 + 60 * math.sin(r), modifiers=Qt.ShiftModifier)
    release(window, 520 + 60 * math.cos(r), 416 + 60 * math.sin(r), modifiers=Qt.ShiftModifier)
    turned = window.document.get(box.id)
    assert turned.rotation == pytest.approx(30)
    assert turned.center == box.center and turned.half_extents == box.half_extents
    assert undo_texts(window) == ["Add oriented box", "Rotate oriented box"]
    undo_redo_round_trip(window, drawn, "Rotate oriented box")


def test_draw_a_pillar(window):
    before = window.document.level
    use(window, Qt.Key_C, "PillarTool")
    drag(window, (480, 560), (480, 590))
    [pillar] = new_objects(window, before)
    assert isinstance(pillar, Pillar) and pillar.center == Vec2(480, 560) and pillar.radius == 32
    undo_redo_round_trip(window, before, "Add pillar")


# -- spawn ------------------------------------------------------------------------------------------------
def test_place_and_drag_the_spawn(window):
    before = window.document.level
    use(window, Qt.Key_I, "SpawnTool")
    click(window, 500, 100)
    assert window.document.player.spawn == Vec2(496, 96)
    undo_redo_round_trip(window, before, "Move spawn")
    placed = window.document.level
    drag(window, (496, 96), (597, 130), steps=8)
    assert window.document.player.spawn == Vec2(592, 128)
    assert undo_texts(window) == ["Move spawn", "Move spawn"]
    undo_redo_round_trip(window, placed, "Move spawn")


# -- snapping ---------------------------------------------------------------------------------------------
def test_grid_snapping_off_with_g_and_for_one_drag_with_ctrl(window):
    before = window.document.level
    use(window, Qt.Key_B, "BoxTool")
    drag(window, (301, 405), (347, 437), modifiers=Qt.ControlModifier)
    assert new_objects(window, before)[0].origin == Vec2(301, 405)
    assert new_objects(window, before)[0].size == Vec2(46, 32)
    key(window, Qt.Key_G)
    assert not window.context.snapper.enabled
    drag(window, (401, 405), (447, 437))
    assert new_objects(window, before)[1].origin == Vec2(401, 405)
    key(window, Qt.Key_G)
    drag(window, (501, 405), (547, 437))
    third = new_objects(window, before)[2]
    assert third.origin == Vec2(496, 400) and third.size == Vec2(48, 32)


def test_snapping_to_another_objects_corner_shows_the_marker(window):
    before = window.document.level
    use(window, Qt.Key_B, "BoxTool")
    snapper = window.context.snapper
    # box-1's corner (304, 112) and obox-1's corner (440, 250), off the grid, pull the mouse from a few pixels.
    hover(window, 306, 115)
    assert snapper.marker_visible() and snapper.marker.pos() == QPointF(304, 112)
    press(window, 306, 115)
    move(window, 350, 150)
    assert not snapper.marker_visible()
    move(window, 443, 253)
    assert snapper.marker_visible() and snapper.marker.pos() == QPointF(440, 250)
    release(window, 443, 253)
    assert not snapper.marker_visible()
    [box] = new_objects(window, before)
    assert box.origin == Vec2(304, 112) and box.size == Vec2(136, 138)
    undo_redo_round_trip(window, before, "Add box")


def test_the_marker_goes_when_a_select_tool_drag_ends(window, qtbot):
    snapper = window.context.snapper
    use(window, Qt.Key_S, "SelectTool")
    # Drag pillar-1 by its centre onto box-1's corner (304, 112).
    hover(window, 240, 320)
    press(window, 240, 320)
    move(window, 280, 200)
    move(window, 302, 114)
    assert snapper.marker_visible() and snapper.marker.pos() == QPointF(304, 112)
    release(window, 302, 114)
    qtbot.waitUntil(lambda: not snapper.marker_visible(), timeout=1000)
    assert window.document.get("pillar-1").center == Vec2(304, 112)
