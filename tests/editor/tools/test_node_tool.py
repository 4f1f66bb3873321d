"""The node tool: drag, insert, select and delete the nodes of the selected wall."""
from __future__ import annotations

from PySide6.QtCore import Qt

from level_editor.core.level.model import Box, Wall
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.node_tool import NodeTool
from tests.editor.helpers import click, hover, make_window, move, press, release, sample_level
from tests.editor.helpers import key as window_key
from tests.editor.tools.conftest import Mouse, key, points, round_trip


def setup(editor, wall=None, *others):
    wall = wall or Wall("wall-1", [(0, 0), (64, 0), (64, 64)], 8)
    editor.push(AddObjectsCommand(editor.document, [wall, *others]))
    editor.undo_stack.clear()
    editor.selection.set([wall.id])
    tool = NodeTool(editor)
    tool.activate()
    return tool, Mouse(tool)


def wall(editor, wall_id="wall-1"):
    return editor.document.get(wall_id)


def test_handles_show_the_nodes_of_the_selected_wall(editor):
    tool, _ = setup(editor)
    shown = {k: (p.x(), p.y()) for k, p in tool.handle_positions().items()}
    assert shown == {("wall-1", 0): (0, 0), ("wall-1", 1): (64, 0), ("wall-1", 2): (64, 64)}
    tool.deactivate()
    assert tool.handle_positions() == {}


def test_dragging_a_node_moves_it_snapped_in_one_undo_step(editor):
    tool, mouse = setup(editor)
    before = editor.document.level
    mouse.drag((63, 1), (99, 35))
    assert points(wall(editor)) == [(0, 0), (96, 32), (64, 64)]
    # The handle followed the node.
    assert tool.handle_positions()[("wall-1", 1)].x() == 96
    round_trip(editor, before, "Move node")


def test_ctrl_drag_moves_a_node_without_snapping(editor):
    tool, mouse = setup(editor)
    mouse.drag((64, 64), (70, 75), Qt.ControlModifier)
    assert points(wall(editor))[2] == (70, 75)


def test_a_click_on_a_node_selects_it_without_moving_it(editor):
    tool, mouse = setup(editor, Wall("wall-1", [(0, 0), (61, 3), (64, 64)], 8))
    mouse.press(61, 3)
    mouse.move(62, 4)  # a hand's tremble, under the drag threshold
    mouse.release(62, 4)
    assert points(wall(editor)) == [(0, 0), (61, 3), (64, 64)]
    assert tool.selected_node == ("wall-1", 1)
    assert editor.undo_stack.count() == 0


def test_a_node_does_not_snap_to_its_own_wall(editor):
    tool, mouse = setup(editor)
    # (67, 5) is 5 px from the wall's own node (64, 0): the dragged wall is excluded, so the grid wins.
    mouse.drag((64, 64), (67, 9), Qt.NoModifier)
    assert points(wall(editor))[2] == (64, 16)
    assert editor.snapper.last.kind == "grid"


def test_a_node_snaps_to_another_objects_corner(editor):
    tool, mouse = setup(editor, None, Box("box-1", (101, 37), (20, 20)))
    mouse.drag((64, 64), (104, 40))
    assert points(wall(editor))[2] == (101, 37)
    assert editor.snapper.last.kind == "object" and editor.snapper.last.object_id == "box-1"
    assert not editor.snapper.marker_visible()  # hidden once the drag ends


def test_double_click_on_a_segment_inserts_a_node(editor):
    tool, mouse = setup(editor)
    mouse.double_click(30, 2)
    assert points(wall(editor)) == [(0, 0), (30, 0), (64, 0), (64, 64)]
    assert tool.selected_node == ("wall-1", 1)
    assert editor.undo_stack.undoText() == "Insert node"
    editor.undo_stack.undo()
    assert points(wall(editor)) == [(0, 0), (64, 0), (64, 64)]


def test_double_click_on_the_closing_segment_of_a_closed_wall(editor):
    tool, mouse = setup(editor, Wall("wall-1", [(0, 0), (64, 0), (64, 64)], 8, closed=True))
    mouse.double_click(32, 33)
    assert points(wall(editor)) == [(0, 0), (64, 0), (64, 64), (32.5, 32.5)]


def test_double_click_away_from_the_wall_changes_nothing(editor):
    tool, mouse = setup(editor)
    mouse.double_click(20, 40)
    assert points(wall(editor)) == [(0, 0), (64, 0), (64, 64)]
    assert editor.undo_stack.count() == 0


def test_delete_removes_the_selected_node(editor):
    tool, mouse = setup(editor, Wall("wall-1", [(0, 0), (64, 0), (64, 64), (0, 64)], 8))
    mouse.click(64, 0)
    assert key(tool, Qt.Key_Delete) is True
    assert points(wall(editor)) == [(0, 0), (64, 64), (0, 64)]
    assert editor.undo_stack.undoText() == "Delete node"
    assert tool.selected_node is None
    editor.undo_stack.undo()
    assert points(wall(editor)) == [(0, 0), (64, 0), (64, 64), (0, 64)]


def test_delete_refuses_to_leave_fewer_than_two_nodes(editor):
    tool, mouse = setup(editor, Wall("wall-1", [(0, 0), (64, 0)], 8))
    mouse.click(64, 0)
    assert key(tool, Qt.Key_Backspace) is True
    assert points(wall(editor)) == [(0, 0), (64, 0)]
    assert "at least 2 nodes" in editor.messages[-1]
    assert editor.undo_stack.count() == 0


def test_delete_refuses_to_leave_a_closed_wall_with_fewer_than_three(editor):
    tool, mouse = setup(editor, Wall("wall-1", [(0, 0), (64, 0), (64, 64)], 8, closed=True))
    mouse.click(0, 0)
    key(tool, Qt.Key_Delete)
    assert len(wall(editor).points) == 3
    assert "closed wall needs at least 3" in editor.messages[-1]


def test_delete_without_a_selected_node_keeps_the_wall(editor):
    tool, _ = setup(editor)
    assert key(tool, Qt.Key_Delete) is True
    assert len(wall(editor).points) == 3
    assert "Click a node" in editor.messages[-1]
    editor.selection.clear()
    assert key(tool, Qt.Key_Delete) is False  # nothing to edit: the window's Delete applies


def test_clicking_another_wall_edits_that_one(editor):
    other = Wall("wall-2", [(0, 128), (128, 128)], 8)
    tool, mouse = setup(editor, None, other)
    mouse.click(50, 130)
    assert editor.selection.ids() == ["wall-2"]
    assert set(tool.handle_positions()) == {("wall-2", 0), ("wall-2", 1)}


def test_handles_follow_undo(editor):
    tool, mouse = setup(editor)
    mouse.drag((64, 64), (128, 64))
    editor.undo_stack.undo()
    assert tool.handle_positions()[("wall-1", 2)].x() == 64


def test_a_press_on_a_node_of_another_wall_edits_it_and_drags_the_node(editor):
    other = Wall("wall-2", [(0, 128), (128, 128)], 8)
    tool, mouse = setup(editor, None, other)
    mouse.drag((128, 128), (160, 160))
    assert editor.selection.ids() == ["wall-2"]
    assert points(wall(editor, "wall-2")) == [(0, 128), (160, 160)]
    assert editor.undo_stack.undoText() == "Move node"


def test_undo_in_the_middle_of_a_node_drag_cancels_the_drag_and_reaches_no_further(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, sample_level())
    click(window, 80, 200)
    window_key(window, Qt.Key_E)
    hover(window, 160, 320)
    press(window, 160, 320)
    move(window, 208, 368)
    assert points(window.document.get("wall-1"))[2] == (208, 368)
    window_key(window, Qt.Key_Z, Qt.ControlModifier)
    assert points(window.document.get("wall-1"))[2] == (160, 320)
    move(window, 240, 400)
    release(window, 240, 400)
    assert points(window.document.get("wall-1"))[2] == (160, 320), "the cancelled drag does not carry on"
    # the drag never happened: no step to redo, nothing changed
    assert window.undo_stack.count() == 0 and not window.is_modified()
