"""F5 on a platformer level plays the platformer: Space, Up or W jump (held for height), Down + Space drops
through a one-way floor, the HUD says floor, velocity and jump state, F3 draws the floor normal and the snap
probe, and Ctrl+R writes a version 2 replay that `simulate` and the runtime play back bit for bit."""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from level_editor.core.cli import main as cli_main
from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.playtest.debug_draw import FLOOR, SNAP
from level_editor.core.runtime import Player as GamePlayer, load_level as load_game_level
from tests.core.runtime.helpers import ROOT
from tests.editor.playtest.conftest import open_window, play, press, release, tap

LEVEL = ROOT / "levels" / "platformer.json"


@pytest.fixture
def platformer_window(qtbot, tmp_path):
    return open_window(qtbot, tmp_path, load_level(LEVEL))


def settle(pt):
    pt.advance(0.5)
    assert pt.sim.on_floor


@pytest.mark.parametrize("jump_key", [Qt.Key_Space, Qt.Key_Up, Qt.Key_W])
def test_a_held_jump_key_jumps_to_full_height_and_a_tap_jumps_lower(qtbot, platformer_window, jump_key):
    w = platformer_window
    pt = play(qtbot, w)
    settle(pt)
    ground = pt.position.y
    press(qtbot, w, jump_key)
    tops = []
    for _ in range(40):
        pt.tick()
        tops.append(ground - pt.position.y)
    release(qtbot, w, jump_key)
    assert max(tops) == pytest.approx(88.0, rel=0.02)  # the level's jump_height
    pt.advance(1.5)
    press(qtbot, w, jump_key)
    pt.advance(2 / 60)
    release(qtbot, w, jump_key)
    low = []
    for _ in range(40):
        pt.tick()
        low.append(ground - pt.position.y)
    assert 0 < max(low) < 0.6 * 88.0


def test_the_hud_says_floor_velocity_and_jump_state(qtbot, platformer_window):
    w = platformer_window
    pt = play(qtbot, w)
    settle(pt)
    lines = "\n".join(pt.hud_lines())
    assert "on floor floor" in lines and "velocity" in lines and "coyote" in lines and "buffer" in lines
    press(qtbot, w, Qt.Key_Space)
    pt.advance(3 / 60)
    lines = "\n".join(pt.hud_lines())
    release(qtbot, w, Qt.Key_Space)
    assert "in the air" in lines and "jump rising" in lines


def test_f3_draws_the_floor_normal_and_the_snap_probe(qtbot, platformer_window):
    w = platformer_window
    pt = play(qtbot, w)
    settle(pt)
    press(qtbot, w, Qt.Key_Right)
    pt.advance(0.2)
    release(qtbot, w, Qt.Key_Right)
    tap(qtbot, w, Qt.Key_F3)
    roles = {role for _, role, _ in pt.overlay.recorded.calls}
    assert {FLOOR, SNAP} <= roles


def test_down_and_space_drop_through_a_one_way_ledge(qtbot, tmp_path):
    from level_editor.core.level.model import Box, Level, Player
    level = Level(player=Player(spawn=(100, 200), shape="box", size=(20, 30), controller="platformer"),
                  objects=(Box("ground", (0, 400), (400, 20)),
                           Box("ledge", (0, 240), (200, 8), one_way=True)))
    w = open_window(qtbot, tmp_path, level)
    pt = play(qtbot, w)
    settle(pt)
    assert pt.position.y < 240
    press(qtbot, w, Qt.Key_Down)
    tap(qtbot, w, Qt.Key_Space)
    pt.advance(1.0)
    release(qtbot, w, Qt.Key_Down)
    assert pt.sim.on_floor and pt.position.y > 360


def test_ctrl_r_writes_a_version_2_replay_that_simulate_and_the_runtime_play_bit_for_bit(qtbot, platformer_window,
                                                                                       tmp_path):
    w = platformer_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Right)
    pt.advance(1.0)
    press(qtbot, w, Qt.Key_Space)
    pt.advance(0.3)
    release(qtbot, w, Qt.Key_Space)
    pt.advance(0.6)
    release(qtbot, w, Qt.Key_Right)
    press(qtbot, w, Qt.Key_A)
    tap(qtbot, w, Qt.Key_W)
    pt.advance(0.7)
    release(qtbot, w, Qt.Key_A)
    shown = list(pt.shown_positions)
    tap(qtbot, w, Qt.Key_Escape)
    replay_path = tmp_path / "platformer.replay.json"
    w.play_mode.ask_replay_path = lambda: str(replay_path)
    tap(qtbot, w, Qt.Key_R, Qt.ControlModifier)
    data = json.loads(replay_path.read_text())
    assert data["version"] == 2 and len(data["inputs"]) == len(shown)
    assert any(tick[2] == 1 for tick in data["inputs"]) and any(tick[0] == -1 for tick in data["inputs"])

    level_path = tmp_path / "level.json"
    save_level(w.document.level, str(level_path))
    trace_path = tmp_path / "trace.json"
    assert cli_main(["simulate", str(level_path), "--input", str(replay_path), "-o", str(trace_path)]) == 0
    trace = json.loads(trace_path.read_text())
    assert [tuple(p) for p in trace["positions"]] == [tuple(p) for p in shown]
    assert False in trace["on_floor"] and True in trace["on_floor"]

    game = GamePlayer(load_game_level(level_path))
    for tick in data["inputs"]:
        game.step(*tick)
    assert tuple(game.position) == tuple(shown[-1])


def test_moving_objects_move_on_the_canvas_while_playing_and_go_back_after(qtbot, platformer_window):
    w = platformer_window
    lift = w.canvas.scene().item("lift")
    home = (lift.pos().x(), lift.pos().y())
    pt = play(qtbot, w)
    pt.advance(2.0)
    tap(qtbot, w, Qt.Key_P)  # paused: drawn exactly where the simulation has it after the last tick
    offset = w.document.get("lift").path.offset_after(pt.tick_count - 1, pt.dt)
    assert offset.y < -100
    assert (lift.pos().x(), lift.pos().y()) == pytest.approx((home[0] + offset.x, home[1] + offset.y))
    tap(qtbot, w, Qt.Key_Escape)
    assert (lift.pos().x(), lift.pos().y()) == home
    assert w.document.get("lift").origin.y == 464  # the document never moved


def test_the_status_bar_says_the_platformer_s_keys(qtbot, platformer_window):
    w = platformer_window
    play(qtbot, w)
    assert "Space/Up/W jump" in w.statusBar().currentMessage()
