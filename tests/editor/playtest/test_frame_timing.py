"""The real timer: 60 ticks a second whatever the frame rate, drawn between ticks, camera gliding after."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.editor.helpers import timer_periods_pass
from tests.editor.playtest.conftest import DT, SPAWN, SPEED, play, press, release, tap


class Clock:
    """Stands in for the play-test's clock: time passes only when the test says so."""

    def __init__(self):
        self.seconds = 1000.0  # any start: only differences count

    def __call__(self) -> float:
        return self.seconds


@pytest.fixture
def clock(play_window):
    play_window.play_mode.clock = clock = Clock()
    return clock


def test_ticks_follow_real_time_at_sixty_hertz_whatever_the_frame_rate(qtbot, play_window, clock):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Right)
    frames_ms = [7, 23, 16, 33, 5, 16, 17]  # an uneven display: the ticks must not care
    shown = []
    while sum(shown) < 610:
        step = frames_ms[len(shown) % len(frames_ms)]
        shown.append(step)
        clock.seconds += step / 1000
        pt.frame()
    release(qtbot, w, Qt.Key_Right)
    assert pt.tick_count == int(sum(shown) / 1000 * 60)
    held = [v for v in pt.velocities if v.x]
    assert len(held) == pt.tick_count
    assert pt.shown_positions[-1].x == pytest.approx(SPAWN[0] + len(held) * SPEED * DT, abs=1e-6)
    assert pt.fps() == pytest.approx(1000 * 30 / sum(shown[-30:]))  # over the last 30 frames


def test_the_real_timer_drives_the_play_test_until_it_stops(qtbot, play_window):
    w = play_window
    w.play_mode.use_timer = True
    pt = play(qtbot, w)
    qtbot.waitUntil(lambda: pt.tick_count >= 10, timeout=5000)
    tap(qtbot, w, Qt.Key_Escape)
    n = pt.tick_count
    # ten display frames (the play-test's timer runs once a frame): had it gone on, it would have fired meanwhile
    timer_periods_pass(qtbot, round(DT * 1000), 10)
    assert pt.tick_count == n  # stopped means stopped


def test_the_player_is_drawn_between_the_last_two_ticks(qtbot, play_window, clock):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Right)
    clock.seconds += DT * 2.5  # one uneven display frame: two ticks and half of one
    pt.frame()
    assert pt.tick_count == 2
    assert pt.fixed_step.alpha == pytest.approx(0.5)
    prev, cur = pt.previous, pt.position
    assert cur.x - prev.x == pytest.approx(SPEED * DT)
    assert pt.player_item.pos().x() == pytest.approx(prev.x + 0.5 * (cur.x - prev.x))
    clock.seconds += DT * 0.25
    pt.frame()
    assert pt.tick_count == 2
    assert pt.player_item.pos().x() == pytest.approx(prev.x + 0.75 * (cur.x - prev.x))
    release(qtbot, w, Qt.Key_Right)


def test_a_long_stall_runs_at_most_a_few_ticks(qtbot, play_window, clock):
    w = play_window
    pt = play(qtbot, w)
    clock.seconds += 3.0
    pt.frame()
    assert pt.tick_count == 8


def test_the_camera_keeps_the_editing_view_while_the_player_is_in_it(qtbot, play_window):
    w = play_window
    canvas = w.canvas

    def centre():
        return canvas.mapToScene(canvas.viewport().rect().center())

    def on_screen(p):
        return canvas.mapFromScene(p.x, p.y)

    before = centre()
    pt = play(qtbot, w)
    start = on_screen(pt.position)
    assert canvas.viewport().rect().adjusted(100, 100, -100, -100).contains(start)  # well inside the view
    assert abs(pt.position.x - before.x()) + abs(pt.position.y - before.y()) > 50  # not in its middle
    pt.advance(2.0)
    assert centre() == before  # F5 keeps the picture the designer was looking at
    press(qtbot, w, Qt.Key_Left)
    pt.advance(0.2)
    assert centre() == before  # a few steps inside the view move nothing
    xs, pixels = [], []
    for _ in range(240):
        pt.advance(DT)
        xs.append(centre().x())
        pixels.append(on_screen(pt.position).x())
    release(qtbot, w, Qt.Key_Left)
    assert xs[-1] < before.x() - 300  # it followed the player out of the view
    steps = [a - b for a, b in zip(xs, xs[1:])]
    assert max(steps) <= SPEED * DT + 1 and min(steps) >= 0  # never faster than the player, never back
    assert min(pixels) > 0  # the player never left the screen
    pt.advance(2.0)
    settled = centre()
    edge = on_screen(pt.position).x()
    width = canvas.viewport().width()
    assert 0.1 * width < edge < 0.2 * width  # it stopped with the player just inside the view's edge
    pt.advance(1.0)
    assert centre() == settled
