"""A recorded play-test played back by `level-editor simulate` gives the positions the editor showed."""
from __future__ import annotations

import json
import subprocess
import sys

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from level_editor.core.cli import main as cli_main
from level_editor.core.level.file_format import save_level
from level_editor.core.playtest.replay import load_replay, load_trace
from level_editor.core.collision.shapes import Vec2
from tests.editor.helpers import at, hover
from tests.editor.playtest.conftest import DT, play, press, release, tap


def busy_session(qtbot, w, pt):
    """Keys, diagonals into the wall, the mouse, pauses and steps: a bit of everything."""
    press(qtbot, w, Qt.Key_Right)
    pt.advance(0.75)
    press(qtbot, w, Qt.Key_Up)
    pt.advance(1.25)  # into the wall and along it
    release(qtbot, w, Qt.Key_Right)
    pt.advance(0.2)
    release(qtbot, w, Qt.Key_Up)
    press(qtbot, w, Qt.Key_A)
    press(qtbot, w, Qt.Key_S)
    pt.advance(0.4)
    tap(qtbot, w, Qt.Key_P)
    tap(qtbot, w, Qt.Key_Period)
    tap(qtbot, w, Qt.Key_Period)
    tap(qtbot, w, Qt.Key_P)
    release(qtbot, w, Qt.Key_A)
    release(qtbot, w, Qt.Key_S)
    pt.advance(0.3)
    vp = w.canvas.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(w, pt.position.x + 90, pt.position.y + 250))
    pt.advance(0.5)
    pixel = at(w, pt.position.x + 400, pt.position.y - 30)
    QApplication.sendEvent(vp, QMouseEvent(QEvent.MouseMove, QPointF(pixel), QPointF(vp.mapToGlobal(pixel)),
                                           Qt.NoButton, Qt.LeftButton, Qt.NoModifier))
    pt.advance(0.9)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, pixel)
    pt.advance(0.1)


def simulate(tmp_path, w, replay_path):
    level_path = tmp_path / "level.json"
    save_level(w.document.level, str(level_path))
    trace_path = tmp_path / "trace.json"
    assert cli_main(["simulate", str(level_path), "--input", str(replay_path), "-o", str(trace_path)]) == 0
    return level_path, trace_path, load_trace(str(trace_path))


def test_recorded_session_replays_to_exactly_the_shown_positions(qtbot, play_window, tmp_path):
    w = play_window
    pt = play(qtbot, w)
    busy_session(qtbot, w, pt)
    tap(qtbot, w, Qt.Key_Escape)
    shown = list(pt.shown_positions)
    assert len(shown) > 250
    assert len({(round(p.x), round(p.y)) for p in shown}) > 100  # it really went places

    replay_path = tmp_path / "session.replay.json"
    w.play_mode.ask_replay_path = lambda: str(replay_path)
    tap(qtbot, w, Qt.Key_R, Qt.ControlModifier)
    data = json.loads(replay_path.read_text())
    assert data["format"] == "level-editor.replay" and data["version"] == 2 and data["dt"] == DT
    assert "start" not in data  # played from the spawn: the contract's format exactly
    assert len(data["inputs"]) == len(shown)  # what was pressed, tick by tick (the mouse as a stick)
    assert "Saved a replay of" in w.statusBar().currentMessage()

    _, _, trace = simulate(tmp_path, w, replay_path)
    assert trace.start == w.document.player.spawn
    assert list(trace.positions) == shown  # exact float equality, tick by tick


def test_the_installed_command_agrees_too(qtbot, play_window, tmp_path):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_D)
    press(qtbot, w, Qt.Key_S)
    pt.advance(2.5)
    release(qtbot, w, Qt.Key_D)
    release(qtbot, w, Qt.Key_S)
    replay_path = tmp_path / "r.json"
    assert w.play_mode.save_replay_to(str(replay_path))  # saved while still playing
    level_path = tmp_path / "level.json"
    save_level(w.document.level, str(level_path))
    out = subprocess.run([sys.executable, "-c", "import sys; from level_editor.editor.launcher import main; sys.exit(main())",
                          "simulate", str(level_path), "--input", str(replay_path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    positions = [Vec2(*p) for p in json.loads(out.stdout)["positions"]]
    assert positions == pt.shown_positions[:len(positions)] and len(positions) == 150


def test_a_session_from_the_cursor_records_its_start(qtbot, play_window, tmp_path):
    w = play_window
    hover(w, 120, 300)
    pt = play(qtbot, w, Qt.ShiftModifier)
    press(qtbot, w, Qt.Key_Up)
    pt.advance(1.0)
    release(qtbot, w, Qt.Key_Up)
    tap(qtbot, w, Qt.Key_Escape)
    replay_path = tmp_path / "cursor.replay.json"
    assert w.play_mode.save_replay_to(str(replay_path))
    assert load_replay(str(replay_path)).start == Vec2(120, 300)
    _, _, trace = simulate(tmp_path, w, replay_path)
    assert trace.start == Vec2(120, 300)
    assert list(trace.positions) == pt.shown_positions


def test_a_replay_that_cannot_be_written_is_reported(qtbot, play_window, tmp_path):
    w = play_window
    play(qtbot, w)
    tap(qtbot, w, Qt.Key_Escape)
    assert not w.play_mode.save_replay_to(str(tmp_path / "no" / "such" / "folder" / "r.json"))
    assert w.errors and w.errors[0][0] == "Could not save the replay"


def test_cancelling_the_save_dialog_writes_nothing_and_keeps_playing(qtbot, play_window, tmp_path):
    w = play_window
    pt = play(qtbot, w)
    w.play_mode.ask_replay_path = lambda: ""
    tap(qtbot, w, Qt.Key_R, Qt.ControlModifier)
    assert w.play_mode.is_playing and not pt.paused
    assert list(tmp_path.glob("*.replay.json")) == []
