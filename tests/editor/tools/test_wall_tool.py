"""The wall tool, driven with scene coordinates as the scene forwards them."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from level_editor.core.level.model import Wall
from level_editor.editor.tools.wall_tool import WallTool
from tests.editor.tools.conftest import key, points, round_trip, use_tool


def make(editor):
    return use_tool(editor, WallTool)


def walls(editor):
    return [o for o in editor.document.objects if isinstance(o, Wall)]


def test_clicks_add_snapped_nodes_and_enter_ends_the_wall(editor):
    tool, mouse = make(editor)
    mouse.click(3, 2)
    mouse.click(95, 4)
    mouse.click(97, 62)
    assert [(p.x(), p.y()) for p in tool.nodes] == [(0, 0), (96, 0), (96, 64)]
    assert key(tool, Qt.Key_Return) is True
    [wall] = walls(editor)
    assert wall.id == "wall-1"
    assert points(wall) == [(0, 0), (96, 0), (96, 64)]
    assert wall.closed is False
    assert wall.thickness == 8  # half the grid of 16
    assert editor.selection.ids() == ["wall-1"]
    assert editor.undo_stack.count() == 1
    assert editor.undo_stack.undoText() == "Add wall"
    assert tool.nodes == []


def test_double_click_ends_without_a_duplicate_node(editor):
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    mouse.double_click(64, 48)
    [wall] = walls(editor)
    assert points(wall) == [(0, 0), (64, 0), (64, 48)]
    assert editor.undo_stack.count() == 1


def test_an_extra_press_of_a_double_click_adds_no_node(editor):
    # Some platforms deliver press, release, press, double-click: the second press is the same place.
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    mouse.click(65, 1)
    tool.mouse_double_clicked(QPointF(65, 1), Qt.LeftButton, Qt.NoModifier)
    [wall] = walls(editor)
    assert points(wall) == [(0, 0), (64, 0)]


def test_a_lone_double_click_event_still_places_its_node(editor):
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    tool.mouse_double_clicked(QPointF(95, 1), Qt.LeftButton, Qt.NoModifier)
    assert points(walls(editor)[0]) == [(0, 0), (64, 0), (96, 0)]


def test_two_distinct_nodes_are_needed(editor):
    tool, mouse = make(editor)
    mouse.double_click(32, 32)
    assert walls(editor) == []
    assert editor.undo_stack.count() == 0
    assert "at least 2 nodes" in editor.messages[-1]
    mouse.click(32, 32)
    assert key(tool, Qt.Key_Enter) is True
    assert walls(editor) == []


def test_backspace_removes_the_last_node(editor):
    tool, mouse = make(editor)
    for x, y in [(0, 0), (64, 0), (64, 64)]:
        mouse.click(x, y)
    assert key(tool, Qt.Key_Backspace) is True
    assert [(p.x(), p.y()) for p in tool.nodes] == [(0, 0), (64, 0)]
    mouse.click(128, 0)
    key(tool, Qt.Key_Return)
    assert points(walls(editor)[0]) == [(0, 0), (64, 0), (128, 0)]
    # With nothing being drawn, Backspace is left to the window.
    assert key(tool, Qt.Key_Backspace) is False


def test_escape_cancels_the_chain(editor):
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    assert key(tool, Qt.Key_Escape) is True
    assert tool.nodes == []
    assert walls(editor) == []
    assert editor.undo_stack.count() == 0
    assert key(tool, Qt.Key_Escape) is False


def test_clicking_the_first_node_closes_the_wall(editor):
    tool, mouse = make(editor)
    for x, y in [(0, 0), (64, 0), (64, 64)]:
        mouse.click(x, y)
    mouse.hover(3, -2)
    assert tool.node_handles()[0].active  # the first node lights up: a click here closes
    mouse.click(3, -2)
    [wall] = walls(editor)
    assert wall.closed is True
    assert points(wall) == [(0, 0), (64, 0), (64, 64)]
    assert tool.nodes == []


def test_closing_needs_three_nodes(editor):
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    mouse.click(1, 1)
    assert walls(editor) == []
    assert "at least 3 nodes" in editor.messages[-1]
    assert len(tool.nodes) == 2


def test_ctrl_places_a_node_off_the_grid(editor):
    tool, mouse = make(editor)
    mouse.click(3, 5, Qt.ControlModifier)
    mouse.click(41, 7)
    key(tool, Qt.Key_Return)
    assert points(walls(editor)[0]) == [(3, 5), (48, 0)]


def test_preview_follows_the_mouse_with_the_real_thickness(editor):
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.hover(81, 30)
    placed, rubber, centre, label = tool.preview_items()
    assert rubber.isVisible()
    assert rubber.pen().widthF() == 8
    line = rubber.path()
    assert line.elementAt(0).x == 0 and line.elementAt(1).x == 80 and line.elementAt(1).y == 32
    assert label.text().startswith("86")  # the segment's length, about 86.2
    key(tool, Qt.Key_Escape)
    assert not rubber.isVisible()


def test_thickness_is_remembered_and_brackets_change_it(editor):
    tool, mouse = make(editor)
    assert tool.thickness == 8
    assert key(tool, Qt.Key_BracketRight) is True
    assert tool.thickness == 12
    mouse.click(0, 0)
    mouse.click(64, 0)
    key(tool, Qt.Key_Return)
    assert walls(editor)[0].thickness == 12
    # A new tool (another window session) starts from the grid; this one remembers.
    mouse.click(0, 64)
    mouse.click(64, 64)
    key(tool, Qt.Key_Return)
    assert walls(editor)[1].thickness == 12


def test_thickness_set_in_the_inspector_is_the_next_default(editor):
    from dataclasses import replace
    from level_editor.editor.commands.objects import ChangeObjectsCommand

    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    key(tool, Qt.Key_Return)
    wall = walls(editor)[0]
    editor.push(ChangeObjectsCommand(editor.document, [wall], [replace(wall, thickness=20)], "Change thickness"))
    assert tool.thickness == 20


def test_switching_tools_keeps_a_chain_of_two_nodes(editor):
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    tool.deactivate()
    assert points(walls(editor)[0]) == [(0, 0), (64, 0)]
    assert all(not i.scene() for i in tool.preview_items())


def test_undo_and_redo_restore_the_level_exactly(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    for x, y in [(0, 0), (64, 0), (64, 64)]:
        mouse.click(x, y)
    mouse.click(0, 0)
    round_trip(editor, before, "Add wall")


def test_right_click_ends_the_wall(editor):
    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(32, 0)
    mouse.press(50, 50, button=Qt.RightButton)
    assert points(walls(editor)[0]) == [(0, 0), (32, 0)]


def test_opening_another_level_drops_the_nodes_placed_so_far(editor):
    from level_editor.core.level.model import Level

    tool, mouse = make(editor)
    mouse.click(0, 0)
    mouse.click(64, 0)
    editor.document.reset(Level(name="Other"))
    assert tool.nodes == []
    assert key(tool, Qt.Key_Return) is False
    assert editor.document.objects == ()
