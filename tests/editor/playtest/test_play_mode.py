"""F5 enters play mode, Esc leaves it: editing locked while playing, everything as it was afterwards."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QDockWidget

from level_editor.core.collision.shapes import Vec2
from level_editor.editor.playtest.play_player_item import PlayPlayerItem
from tests.editor.helpers import drag, hover
from tests.editor.helpers import press as mouse_press
from tests.editor.helpers import release as mouse_release
from tests.editor.playtest.conftest import (
    SPAWN,
    field_level,
    open_window,
    play,
    press,
    release,
    tap,
)


def editor_state(window):
    canvas = window.canvas
    return {
        "level": window.document.level,
        "undo_index": window.undo_stack.index(),
        "undo_count": window.undo_stack.count(),
        "clean": window.undo_stack.isClean(),
        "modified": window.isWindowModified(),
        "transform": canvas.transform(),
        "scroll": (canvas.horizontalScrollBar().value(), canvas.verticalScrollBar().value()),
        "selection": window.selection.ids(),
        "tool": window.tool,
        "scene_tool": window.scene.tool,
        "enabled": {a.text(): a.isEnabled() for a in window.actions() if a not in window.play_mode.actions},
        "docks": {d.objectName(): d.isEnabled() for d in window.findChildren(QDockWidget)},
        "spawn_marker": window.scene.player_item.isVisible(),
        "items": len(window.scene.items()),
    }


def test_f5_plays_and_esc_returns_with_everything_as_it_was(qtbot, play_window):
    w = play_window
    # an edit (so there is something to undo and unsaved changes), a selection, another tool, a zoom
    drag(w, (410, 0), (442, 0))
    assert w.document.get("wall").origin == Vec2(432, -400)
    w.selection.set(["wall", "pillar"])
    tap(qtbot, w, Qt.Key_B)
    w.canvas.set_zoom(1.5)
    w.canvas.pan_by(37, -21)
    before = editor_state(w)
    assert before["undo_index"] == 1 and not before["clean"]

    pt = play(qtbot, w)
    assert pt.start_position == Vec2(*SPAWN)
    assert w.scene.tool is None
    assert not w.scene.player_item.isVisible()
    assert any(isinstance(i, PlayPlayerItem) for i in w.scene.items())
    assert not w.undo_action.isEnabled() and not w.delete_action.isEnabled()
    assert not any(a.isEnabled() for a in w.tool_actions.values())
    assert not any(d.isEnabled() for d in w.findChildren(QDockWidget))
    assert "Esc returns to editing" in w.statusBar().currentMessage()
    assert pt.hud.isVisible()

    press(qtbot, w, Qt.Key_Right)
    pt.advance(0.5)
    release(qtbot, w, Qt.Key_Right)
    assert pt.position.x > SPAWN[0]

    tap(qtbot, w, Qt.Key_Escape)
    assert not w.play_mode.is_playing
    after = editor_state(w)
    assert after == before
    assert w.document.level is before["level"]
    assert not any(isinstance(i, PlayPlayerItem) for i in w.scene.items())
    assert not pt.hud.isVisible()
    assert "Back to editing" in w.statusBar().currentMessage()
    assert w.play_mode.save_replay_action.isEnabled() and not w.play_mode.stop_action.isEnabled()


def test_edit_keys_and_mouse_change_nothing_while_playing(qtbot, play_window):
    w = play_window
    w.selection.set(["wall"])
    level = w.document.level
    pt = play(qtbot, w)
    for key, mods in [(Qt.Key_Delete, Qt.NoModifier), (Qt.Key_Z, Qt.ControlModifier), (Qt.Key_A, Qt.ControlModifier),
                      (Qt.Key_D, Qt.ControlModifier), (Qt.Key_V, Qt.ControlModifier), (Qt.Key_W, Qt.NoModifier),
                      (Qt.Key_S, Qt.NoModifier), (Qt.Key_B, Qt.NoModifier), (Qt.Key_G, Qt.NoModifier)]:
        tap(qtbot, w, key, mods)
    hover(w, 410, 0)
    mouse_press(w, 410, 0)
    mouse_release(w, 410, 0)
    drag(w, (410, 0), (500, 100))
    pt.advance(0.2)
    assert w.document.level is level
    assert w.undo_stack.count() == 0 and w.undo_stack.isClean()
    assert w.selection.ids() == [], "no selection is drawn while playing"
    assert type(w.tool).__name__ == "SelectTool"
    assert w.context.snapper.enabled
    tap(qtbot, w, Qt.Key_Escape)
    assert not w.play_mode.is_playing
    assert w.selection.ids() == ["wall"], "the selection is given back"


def test_a_wall_being_drawn_survives_a_play_test(qtbot, play_window):
    w = play_window
    tap(qtbot, w, Qt.Key_W)
    from tests.editor.helpers import click
    click(w, 0, 640)
    click(w, 160, 640)
    tool = w.tool
    pending = tool.nodes
    assert len(pending) == 2
    play(qtbot, w)
    tap(qtbot, w, Qt.Key_Escape)
    assert w.tool is tool and w.scene.tool is tool
    assert tool.nodes == pending
    assert w.undo_stack.count() == 0


def test_every_action_of_the_window_but_play_zoom_and_quit_is_locked_while_playing(qtbot, play_window):
    """The host names the actions to lock one by one: an action added to the window must be named there too."""
    w = play_window
    kept = {w.zoom_in_action, w.zoom_out_action, w.actual_size_action, w.quit_action, *w.play_mode.actions}
    locked = set(w.play_mode.host.locked_actions)
    assert locked == set(w.actions()) - kept
    assert set(w.play_mode.host.docks) == set(w.findChildren(QDockWidget))
    play(qtbot, w)
    assert not any(a.isEnabled() for a in locked)
    assert all(a.isEnabled() for a in kept - {w.play_mode.step_action})  # Step waits for a pause
    tap(qtbot, w, Qt.Key_Escape)
    assert w.zoom_in_action.isEnabled() and w.new_action.isEnabled() and w.play_mode.play_action.isEnabled()


def test_play_menu_and_toolbar(play_window):
    w = play_window
    pm = w.play_mode
    menu = pm.menu
    assert menu.title() == "&Play"
    entries = {a.text(): a.shortcut().toString() for a in menu.actions() if not a.isSeparator()}
    assert entries == {
        "&Play from Spawn": "F5", "Play from &Cursor": "Shift+F5", "&Stop": "Esc", "P&ause": "P",
        "S&tep One Tick": ".", "&Debug Overlay": "F3", "Save Play-test &Replay…": "Ctrl+R",
    }
    assert pm.play_action in pm.toolbar.actions() and pm.stop_action in pm.toolbar.actions()
    assert pm.toolbar.objectName() == "mainToolBar"
    assert not pm.stop_action.isEnabled() and not pm.pause_action.isEnabled()
    assert not pm.save_replay_action.isEnabled()
    pm.play_action.trigger()
    assert pm.is_playing and pm.stop_action.isEnabled() and pm.pause_action.isEnabled()
    pm.stop_action.trigger()
    assert not pm.is_playing and pm.save_replay_action.isEnabled()


def test_f5_while_playing_restarts_from_the_spawn(qtbot, play_window):
    w = play_window
    first = play(qtbot, w)
    press(qtbot, w, Qt.Key_Down)
    first.advance(0.25)
    release(qtbot, w, Qt.Key_Down)
    assert first.position != Vec2(*SPAWN)
    second = play(qtbot, w)
    assert second is not first and not first.running
    assert second.position == Vec2(*SPAWN) and second.tick_count == 0
    assert sum(isinstance(i, PlayPlayerItem) for i in w.scene.items()) == 1
    tap(qtbot, w, Qt.Key_Escape)
    assert w.scene.player_item.isVisible() and w.scene.tool is w.tool


def test_opening_another_level_ends_the_play_test(qtbot, play_window):
    w = play_window
    play(qtbot, w)
    w.set_level(field_level(speed=100))
    assert not w.play_mode.is_playing
    assert w.scene.tool is w.tool and w.tool_actions[w.tool].isEnabled()


def test_closing_the_window_while_playing_stops_first(qtbot, tmp_path):
    w = open_window(qtbot, tmp_path, field_level())
    play(qtbot, w)
    w.close()
    assert not w.play_mode.is_playing
    assert w.play_mode.session.player_item.scene() is None


def test_canvas_position_is_kept_when_the_camera_moved(qtbot, play_window):
    w = play_window
    centre = w.canvas.mapToScene(w.canvas.viewport().rect().center())
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Left)
    pt.advance(3.0)
    release(qtbot, w, Qt.Key_Left)
    moved = w.canvas.mapToScene(w.canvas.viewport().rect().center())
    assert abs(moved.x() - centre.x()) > 100
    tap(qtbot, w, Qt.Key_Escape)
    assert w.canvas.mapToScene(w.canvas.viewport().rect().center()) == centre
    assert w.canvas.sceneRect() == w.scene.sceneRect()
    assert isinstance(centre, QPointF)


def test_the_editor_context_refuses_commands_while_playing(qtbot, play_window):
    from level_editor.editor.commands.objects import RemoveObjectsCommand

    w = play_window
    play(qtbot, w)
    assert w.context.read_only
    w.context.push(RemoveObjectsCommand(w.document, ["wall"]))  # what any edit would do
    assert "wall" in w.document and w.undo_stack.count() == 0
    tap(qtbot, w, Qt.Key_Escape)
    assert not w.context.read_only
    w.context.push(RemoveObjectsCommand(w.document, ["wall"]))
    assert "wall" not in w.document and w.undo_stack.count() == 1


def test_play_uses_the_background_check_when_it_is_up_to_date(qtbot, tmp_path, monkeypatch):
    """F5 on a big level does not validate it again when the Problems dock already checked this very level."""
    import level_editor.editor.playtest.play_mode as play_mode_module
    from level_editor.core.level.model import Box, Level, Player
    from tests.editor.helpers import make_window

    level = Level(player=Player(spawn=(20, 20), radius=8), objects=(Box("crate", (10, 10), (20, 20)),))
    window = make_window(qtbot, tmp_path, level)
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None, timeout=10000)
    monkeypatch.setattr(play_mode_module, "check_level",
                        lambda level: pytest.fail("validated again on the GUI thread"))
    qtbot.keyClick(window.canvas.viewport(), Qt.Key_F5)
    assert window.play_mode.is_playing
    assert "crate" in window.statusBar().currentMessage()
    qtbot.keyClick(window.canvas.viewport(), Qt.Key_Escape)
    assert not window.play_mode.is_playing


def test_each_play_test_lets_go_of_the_one_before(qtbot, play_window):
    from PySide6.QtCore import QCoreApplication, QEvent

    from level_editor.editor.playtest.session import PlaySession

    w = play_window
    for _ in range(3):
        play(qtbot, w)
        tap(qtbot, w, Qt.Key_Escape)
    last = play(qtbot, w)
    QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    # a play-test holds the whole level's collision world: only the latest is kept (for its replay)
    assert w.play_mode.findChildren(PlaySession) == [last]
    tap(qtbot, w, Qt.Key_Escape)
    assert w.play_mode.replay() == last.replay()


def test_f5_in_the_middle_of_a_drag_ends_the_drag_where_the_mouse_was(qtbot, tmp_path):
    """Pressing F5 mid-drag: the drag so far is one undo step, and editing resumes with no button 'stuck'."""
    from tests.editor.helpers import make_window, move, sample_level
    from tests.editor.helpers import press as press_mouse
    from tests.editor.helpers import release as release_mouse

    window = make_window(qtbot, tmp_path, sample_level())
    box = window.document.get("box-1")
    press_mouse(window, 270, 95)
    move(window, 290, 95)
    move(window, 302, 111)
    qtbot.keyClick(window.canvas.viewport(), Qt.Key_F5)
    assert window.play_mode.is_playing
    release_mouse(window, 302, 111)
    qtbot.keyClick(window.canvas.viewport(), Qt.Key_Escape)
    assert not window.play_mode.is_playing
    moved = window.document.get("box-1")
    assert moved.origin == box.origin + Vec2(32, 16)
    assert window.undo_stack.count() == 1
    # A new drag from empty space is a rubber band, not a move of the box.
    press_mouse(window, 600, 560)
    move(window, 620, 580)
    move(window, 640, 600)
    release_mouse(window, 640, 600)
    assert window.document.get("box-1") == moved
    assert window.undo_stack.count() == 1


def test_play_checks_a_level_the_background_check_has_not_seen_off_the_gui_thread(qtbot, tmp_path, monkeypatch):
    """F5 right after an edit of a big level: its check runs beside the window (progress shown), not in it."""
    import threading

    import level_editor.editor.playtest.play_mode as play_mode_module
    from level_editor.core.level.model import Box, Level, Player
    from tests.editor.helpers import make_window

    level = Level(player=Player(spawn=(20, 20), radius=8), objects=(Box("crate", (10, 10), (20, 20)),))
    window = make_window(qtbot, tmp_path, level)
    real, threads = play_mode_module.check_level, []
    monkeypatch.setattr(play_mode_module, "check_level",
                        lambda lv: threads.append(threading.current_thread()) or real(lv))
    window.checks.current = None  # the background check has not got to this level yet
    qtbot.keyClick(window.canvas.viewport(), Qt.Key_F5)
    assert window.play_mode.is_playing
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert "crate" in window.statusBar().currentMessage()  # the error it found is told
    qtbot.keyClick(window.canvas.viewport(), Qt.Key_Escape)
