"""Keys and the mouse move the player at the level's speed; walls stop it and it slides along them."""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from level_editor.core.collision.shapes import Vec2
from tests.editor.helpers import at, hover
from tests.editor.playtest.conftest import (
    DT,
    RADIUS,
    SPAWN,
    SPEED,
    WALL_X,
    field_level,
    open_window,
    play,
    press,
    release,
    tap,
)

SX, SY = SPAWN


@pytest.mark.parametrize("key,direction", [
    (Qt.Key_Right, (1, 0)), (Qt.Key_D, (1, 0)), (Qt.Key_Left, (-1, 0)), (Qt.Key_A, (-1, 0)),
    (Qt.Key_Up, (0, -1)), (Qt.Key_W, (0, -1)), (Qt.Key_Down, (0, 1)), (Qt.Key_S, (0, 1)),
])
def test_holding_a_key_moves_at_the_level_speed(qtbot, play_window, key, direction):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, key)
    n = 30
    assert pt.advance(n * DT) == n
    release(qtbot, w, key)
    dx, dy = direction
    assert pt.position.x == pytest.approx(SX + dx * n * SPEED * DT, abs=1e-9)
    assert pt.position.y == pytest.approx(SY + dy * n * SPEED * DT, abs=1e-9)
    for i, v in enumerate(pt.velocities):
        assert v == Vec2(dx * SPEED, dy * SPEED), i
    # released: it stands still
    pt.advance(10 * DT)
    assert pt.tick_count == n + 10
    assert pt.position.x == pytest.approx(SX + dx * n * SPEED * DT, abs=1e-9)
    assert pt.velocities[-1] == Vec2(0, 0)
    # the editor's own key for that letter (W = wall tool, S = select tool) did not fire
    assert type(w.tool).__name__ == "SelectTool"


def test_the_speed_comes_from_the_level(qtbot, tmp_path):
    w = open_window(qtbot, tmp_path, field_level(speed=90))
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Down)
    pt.advance(20 * DT)
    assert pt.position.y == pytest.approx(SY + 20 * 90 * DT, abs=1e-9)
    assert pt.speed_now() == pytest.approx(90)


def test_diagonals_are_normalised_and_opposite_keys_cancel(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_A)
    press(qtbot, w, Qt.Key_Up)
    pt.advance(24 * DT)
    step = 24 * SPEED * DT / math.sqrt(2)
    assert pt.position.x == pytest.approx(SX - step, abs=1e-9)
    assert pt.position.y == pytest.approx(SY - step, abs=1e-9)
    assert pt.velocities[-1].length() == pytest.approx(SPEED)
    press(qtbot, w, Qt.Key_D)  # left and right held: only up remains
    here = pt.position
    pt.advance(6 * DT)
    assert pt.position.x == pytest.approx(here.x, abs=1e-9)
    assert pt.position.y == pytest.approx(here.y - 6 * SPEED * DT, abs=1e-9)
    for k in (Qt.Key_A, Qt.Key_Up, Qt.Key_D):
        release(qtbot, w, k)
    assert pt.wished_velocity() == Vec2(0, 0)


def test_auto_repeat_does_not_release_a_held_key(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Right)
    QTest.keyRelease(w.canvas, Qt.Key_Right)  # QTest's plain release is a real release
    assert pt.wished_velocity() == Vec2(0, 0)
    press(qtbot, w, Qt.Key_Right)
    from PySide6.QtGui import QKeyEvent
    QApplication.sendEvent(w.canvas, QKeyEvent(QEvent.KeyRelease, Qt.Key_Right, Qt.NoModifier, "", True))
    assert pt.wished_velocity() == Vec2(SPEED, 0)


def test_the_player_stops_at_a_wall_and_slides_along_it(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_D)
    press(qtbot, w, Qt.Key_W)
    pt.advance(120 * DT)
    release(qtbot, w, Qt.Key_D)
    release(qtbot, w, Qt.Key_W)
    xs = [p.x for p in pt.shown_positions]
    ys = [p.y for p in pt.shown_positions]
    stop = WALL_X - RADIUS
    assert max(xs) <= stop
    assert xs[-1] == pytest.approx(stop, abs=0.01)
    hit = next(i for i, x in enumerate(xs) if x > stop - 0.01)
    assert 60 < hit < 70  # 188 px at 240/sqrt(2) px/s: tick 67
    # after the hit: no more x, and y keeps going up along the wall at the speed's vertical part
    for i in range(hit + 2, len(xs)):
        assert xs[i] == pytest.approx(stop, abs=0.01)
        assert ys[i] - ys[i - 1] == pytest.approx(-SPEED * DT / math.sqrt(2), abs=1e-6)
    assert pt.sim.last.contact_count == 1
    assert pt.sim.last.contacts[0].object_id == "wall"


def test_shift_f5_starts_at_the_cursor(qtbot, play_window):
    w = play_window
    hover(w, 96, 160)
    spawn = w.document.player.spawn
    pt = play(qtbot, w, Qt.ShiftModifier)
    assert pt.start_position == Vec2(96, 160)
    assert pt.position == Vec2(96, 160)
    assert "from the cursor (96, 160)" in w.statusBar().currentMessage()
    press(qtbot, w, Qt.Key_Right)
    pt.advance(10 * DT)
    assert pt.position.x == pytest.approx(96 + 10 * SPEED * DT)
    release(qtbot, w, Qt.Key_Right)
    tap(qtbot, w, Qt.Key_Escape)
    assert w.document.player.spawn == spawn


def test_shift_f5_without_the_mouse_on_the_canvas_starts_at_the_spawn(qtbot, play_window):
    w = play_window
    hover(w, 96, 160)
    QApplication.sendEvent(w.canvas.viewport(), QEvent(QEvent.Leave))
    pt = play(qtbot, w, Qt.ShiftModifier)
    assert pt.start_position == Vec2(*SPAWN)
    assert "mouse is not over the canvas" in w.statusBar().currentMessage()


def mouse_move(w, pixel: QPoint, buttons=Qt.LeftButton):
    vp = w.canvas.viewport()
    QApplication.sendEvent(vp, QMouseEvent(QEvent.MouseMove, QPointF(pixel), QPointF(vp.mapToGlobal(pixel)),
                                           Qt.NoButton, buttons, Qt.NoModifier))


def test_holding_the_left_button_steers_towards_the_cursor(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    pt.advance(1.0)  # let the camera settle on the player
    here = pt.position
    target = at(w, here.x + 300, here.y - 150)
    QTest.mousePress(w.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, target)
    start = pt.position
    pt.advance(15 * DT)
    d = pt.position - start
    assert d.length() == pytest.approx(15 * SPEED * DT, rel=1e-6)
    assert d.y / d.x == pytest.approx(-0.5, abs=0.02)
    # moving the held mouse to below the player turns it downwards
    mouse_move(w, at(w, pt.position.x, pt.position.y + 200))
    before = pt.position
    pt.advance(10 * DT)
    d = pt.position - before
    assert d.y > 0 and abs(d.x) < 0.3 * d.y
    QTest.mouseRelease(w.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, pt.position.x, pt.position.y + 200))
    stopped = pt.position
    pt.advance(10 * DT)
    assert pt.position == stopped
    assert w.undo_stack.count() == 0


def test_steering_onto_the_cursor_lands_on_it_without_jitter(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    pt.set_paused(True)  # keep the camera where it is while aiming
    pt.advance(1.0)
    pt.set_paused(False)
    pt.camera.rate = 0.0  # a still camera: the level point under the mouse stays put
    target_px = at(w, SX + 37, SY + 21)
    QTest.mousePress(w.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, target_px)
    target = pt.cursor_target()
    pt.advance(30 * DT)
    assert pt.position.x == pytest.approx(target.x(), abs=1e-9)
    assert pt.position.y == pytest.approx(target.y(), abs=1e-9)
    settled = pt.position
    pt.advance(10 * DT)
    assert pt.position == settled
    assert pt.velocities[-1] == Vec2(0, 0)


def test_a_box_player_stops_at_its_half_width(qtbot, tmp_path):
    from dataclasses import replace

    level = field_level()
    level = level.with_player(replace(level.player, shape="box", size=Vec2(30, 20)))
    w = open_window(qtbot, tmp_path, level)
    pt = play(qtbot, w)
    assert pt.player_item.boundingRect().width() >= 30
    press(qtbot, w, Qt.Key_Right)
    pt.advance(1.5)
    release(qtbot, w, Qt.Key_Right)
    assert pt.position.x == pytest.approx(WALL_X - 15, abs=0.01)
    assert pt.position.y == SY
    press(qtbot, w, Qt.Key_Left)
    pt.tick()
    release(qtbot, w, Qt.Key_Left)
    (swept,) = pt.sim.last.swept
    assert isinstance(swept, tuple) and len(swept) >= 4  # a box sweeps a polygon


def test_the_sample_levels_play(qtbot, tmp_path):
    from level_editor.core.level.file_format import load_level

    for name in ("showcase.json", "showcase_box_player.json", "maze.json", "room_with_door.json"):
        w = open_window(qtbot, tmp_path, load_level(f"levels/{name}"))
        pt = play(qtbot, w)
        press(qtbot, w, Qt.Key_Down)
        pt.advance(0.5)
        release(qtbot, w, Qt.Key_Down)
        assert pt.tick_count == 30 and pt.position.y > pt.start_position.y, name
        tap(qtbot, w, Qt.Key_Escape)
        assert not w.play_mode.is_playing and not w.isWindowModified()
        w.close()
