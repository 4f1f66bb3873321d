"""F3's debug overlay, the HUD in screen pixels, and levels with problems that still play."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from level_editor.core.playtest.debug_draw import CANDIDATE, CONTACT, NORMAL, SLIDE, SWEPT
from level_editor.core.level.model import Box, Level, Player, Wall
from level_editor.core.collision.shapes import Vec2
from tests.editor.playtest.conftest import (
    DT,
    RADIUS,
    SPAWN,
    WALL_X,
    open_window,
    play,
    press,
    release,
    tap,
)


def wheel(w, steps: int):
    vp = w.canvas.viewport()
    pixel = vp.rect().center()
    QApplication.sendEvent(vp, QWheelEvent(QPointF(pixel), QPointF(vp.mapToGlobal(pixel)), QPoint(0, 0),
                                           QPoint(0, 120 * steps), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase,
                                           False))


def test_f3_shows_candidates_contacts_normals_slide_and_swept_shape(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    assert not pt.overlay.isVisible()
    press(qtbot, w, Qt.Key_Right)
    press(qtbot, w, Qt.Key_Up)
    pt.advance(1.5)
    tap(qtbot, w, Qt.Key_F3)
    assert w.play_mode.debug_action.isChecked() and pt.overlay.isVisible()
    pt.advance(3 * DT)
    rec = pt.overlay.recorded
    assert pt.overlay.tick_number == pt.tick_count - 1
    wall_outline = ("polygon", ((Vec2(WALL_X, -400), Vec2(WALL_X + 32, -400), Vec2(WALL_X + 32, 800),
                                 Vec2(WALL_X, 800)),))
    assert wall_outline in rec.of_role(CANDIDATE)
    (contact,) = rec.of_role(CONTACT)
    assert contact[1][0].x == pytest.approx(WALL_X)
    (normal,) = rec.of_role(NORMAL)
    assert normal[1][1].x < normal[1][0].x  # points back out of the wall, towards the player
    (slide,) = rec.of_role(SLIDE)
    assert slide[1][1].y < slide[1][0].y and slide[1][1].x == pytest.approx(slide[1][0].x)
    assert rec.of_role(SWEPT) and rec.of_role(SWEPT)[0][1][2] == RADIUS
    bounds = pt.overlay.boundingRect()
    assert bounds.contains(QPointF(contact[1][0].x, contact[1][0].y))
    assert "candidates 1: wall" in pt.hud.text()
    # it is drawn: the canvas around the wall and the player looks different with and without it
    area = w.canvas.mapFromScene(pt.overlay.sceneBoundingRect()).boundingRect()
    area = area.intersected(w.canvas.viewport().rect().adjusted(0, 200, 0, 0))  # below the HUD
    shown = w.canvas.viewport().grab().toImage()
    tap(qtbot, w, Qt.Key_F3)
    assert not pt.overlay.isVisible()
    hidden = w.canvas.viewport().grab().toImage()
    changed = sum(shown.pixel(x, y) != hidden.pixel(x, y)
                  for x in range(area.left(), area.right(), 2) for y in range(area.top(), area.bottom(), 2))
    assert changed > 100
    release(qtbot, w, Qt.Key_Right)
    release(qtbot, w, Qt.Key_Up)


def test_the_debug_overlay_setting_carries_to_the_next_play_test(qtbot, play_window):
    w = play_window
    tap(qtbot, w, Qt.Key_F3)  # while editing: remembered
    pt = play(qtbot, w)
    assert pt.overlay.isVisible()
    pt.tick()
    assert pt.overlay.tick_number == 0


def test_hud_shows_fps_tick_time_position_speed_and_contacts(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    press(qtbot, w, Qt.Key_Down)
    pt.advance(0.5)
    release(qtbot, w, Qt.Key_Down)
    lines = pt.hud.lines
    assert lines[0].startswith("PLAY-TEST")
    assert "fps  60.0" in lines[1] and "tick " in lines[1] and "ms" in lines[1] and "#30" in lines[1]
    assert f"pos {SPAWN[0]:8.1f} {SPAWN[1] + 120:8.1f}" in lines[2]
    assert "speed  240.0 px/s" in lines[2]
    assert lines[3] == "contacts 0"
    assert 0 < pt.tick_ms() < 50


def test_hud_stays_in_the_corner_at_its_size_while_zooming(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    pt.advance(0.2)
    geometry = pt.hud.geometry()
    vp = w.canvas.viewport().geometry()
    assert pt.hud.parent() is w.canvas and vp.contains(geometry.topLeft())
    assert geometry.left() - vp.left() < 20 and geometry.top() - vp.top() < 20
    zoom = w.canvas.zoom()
    wheel(w, 3)
    pt.advance(0.2)
    assert w.canvas.zoom() == pytest.approx(zoom * 1.25 ** 3)
    assert pt.hud.geometry() == geometry
    wheel(w, -3)
    tap(qtbot, w, Qt.Key_Escape)
    assert w.canvas.zoom() == pytest.approx(zoom)


def broken_level() -> Level:
    return Level(
        name="Broken",
        grid=16,
        player=Player(spawn=(100, 100), radius=10, speed=240),
        objects=(
            Wall("zero", [(300, 300), (300, 300), (400, 340)], 6, False),
            Box("crate", (90, 60), (40, 80)),
        ),
    )


def test_a_spawn_exactly_touching_a_wall_says_touching_not_inside(qtbot, tmp_path):
    level = Level(player=Player(spawn=(100, 100), radius=10, speed=240),
                  objects=(Box("crate", (110, 60), (40, 80)),))  # the player's right edge on the crate's left side
    w = open_window(qtbot, tmp_path, level)
    pt = play(qtbot, w)
    pt.tick()
    assert pt.push_out is not None
    note = next(ln for ln in pt.hud.lines if "crate" in ln and "started" in ln)
    assert note.startswith("! started touching crate: moved 0.00") and note.endswith("px clear")
    assert 109.99 < pt.position.x + 10 < 110.0


def test_a_level_with_problems_plays_and_says_what_is_wrong(qtbot, tmp_path):
    w = open_window(qtbot, tmp_path, broken_level())
    pt = play(qtbot, w)
    assert pt.problems and all(p.is_error for p in pt.problems)
    assert any("2 errors in the level; first: zero: segment 1 has zero length" in ln for ln in pt.hud.lines)
    pt.tick()
    # the spawn is inside the crate: the core pushed the player out and the HUD and status bar say so
    assert pt.push_out is not None
    note = next(ln for ln in pt.hud.lines if "pushed out" in ln)
    assert note.startswith("! started inside crate: pushed out by")
    assert "pushed out" in w.statusBar().currentMessage()
    assert "2 errors" in w.statusBar().currentMessage()
    out = pt.position
    assert not (90 - 10 < out.x < 130 + 10 and 60 - 10 < out.y < 140 + 10)
    press(qtbot, w, Qt.Key_Left)
    pt.advance(0.25)
    release(qtbot, w, Qt.Key_Left)
    assert pt.position.x < out.x
    tap(qtbot, w, Qt.Key_Escape)
    assert w.document.player.spawn == Vec2(100, 100)


def test_a_trigger_fires_in_the_hud_and_lights_up_in_the_overlay(qtbot, tmp_path):
    """Walk right through a non-solid box: the HUD says when the player entered and left it, and while the player
    is inside, F3's overlay fills the area (the INSIDE role)."""
    from level_editor.core.playtest.debug_draw import INSIDE

    level = Level(name="Trigger", grid=16, player=Player(spawn=SPAWN, radius=RADIUS, speed=240),
                  objects=(Box("door-zone", (260, 360), (40, 80), solid=False),
                           Box("wall", (WALL_X, -400), (32, 1200))))
    w = open_window(qtbot, tmp_path, level)
    pt = play(qtbot, w)
    tap(qtbot, w, Qt.Key_F3)
    press(qtbot, w, Qt.Key_Right)
    pt.advance(0.25)  # 60 px: the body (radius 12) reaches x 272 > 260
    pt.advance(0.1)
    assert pt.sim.inside == ("door-zone",)
    assert any(line.startswith("#") and line.endswith("entered door-zone") for line in pt.hud.text().splitlines())
    assert "inside door-zone" in pt.hud.text()
    (lit,) = pt.overlay.recorded.of_role(INSIDE)
    assert lit[0] == "polygon" and lit[1][0][0] == Vec2(260, 360)
    pt.advance(0.5)  # past x 312: out again
    release(qtbot, w, Qt.Key_Right)
    pt.advance(0.05)
    assert pt.sim.inside == () and not pt.overlay.recorded.of_role(INSIDE)
    assert pt.hud.text().splitlines()[-1].endswith("left door-zone")
    tick_in, tick_out = (t for t, _, _ in pt.sim.events)
    assert [kind for _, kind, _ in pt.sim.events] == ["enter", "leave"] and tick_in < tick_out
    tap(qtbot, w, Qt.Key_Escape)
    assert w.document.level is level
