"""P pauses the ticks; the period key then advances exactly one tick."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.editor.playtest.conftest import DT, SPAWN, SPEED, play, press, release, tap


def test_pause_stops_ticking_and_period_steps_exactly_one_tick(qtbot, play_window):
    w = play_window
    pm = w.play_mode
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Right)
    pt.advance(10 * DT)
    assert pt.tick_count == 10
    assert not pm.step_action.isEnabled()
    tap(qtbot, w, Qt.Key_Period)  # not paused: the period key does nothing
    assert pt.tick_count == 10

    tap(qtbot, w, Qt.Key_P)
    assert pt.paused and pm.pause_action.isChecked() and pm.step_action.isEnabled()
    assert pt.hud.text().startswith("PAUSED")
    assert w.statusBar().currentMessage().startswith("Paused")
    here = pt.position
    assert pt.advance(2.0) == 0
    assert pt.tick_count == 10 and pt.position == here
    assert pt.player_item.pos().x() == here.x  # drawn where the last tick left it

    tap(qtbot, w, Qt.Key_Period)
    assert pt.tick_count == 11
    assert pt.position.x == pytest.approx(here.x + SPEED * DT)
    assert pt.player_item.pos().x() == pt.position.x
    tap(qtbot, w, Qt.Key_Period)
    tap(qtbot, w, Qt.Key_Period)
    assert pt.tick_count == 13
    assert pt.advance(0.5) == 0

    tap(qtbot, w, Qt.Key_P)
    assert not pt.paused and not pm.step_action.isEnabled()
    assert pt.advance(5 * DT) == 5
    release(qtbot, w, Qt.Key_Right)
    assert pt.position.x == pytest.approx(SPAWN[0] + 18 * SPEED * DT, abs=1e-9)
    assert len(pt.shown_positions) == len(pt.velocities) == 18


def test_pause_menu_entries_follow_the_state(qtbot, play_window):
    w = play_window
    pm = w.play_mode
    pt = play(qtbot, w)
    pm.pause_action.trigger()
    assert pt.paused
    pm.step_action.trigger()
    assert pt.tick_count == 1
    tap(qtbot, w, Qt.Key_Escape)
    assert not pm.pause_action.isEnabled() and not pm.pause_action.isChecked()
    assert not pm.step_action.isEnabled()
