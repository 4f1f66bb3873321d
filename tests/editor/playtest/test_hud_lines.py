"""The HUD's counts agree with each other, and its long lines wrap instead of being cut (issue 16.4)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Box, Level, Player, Wall
from tests.editor.playtest.conftest import DT, RADIUS, SPAWN, WALL_X, open_window, play, press, release, tap


def hud_line(session, start: str) -> str:
    return next(line for line in session.hud.lines if line.startswith(start))


def test_resting_against_a_wall_the_hud_counts_one_contact_among_its_candidates(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    tap(qtbot, w, Qt.Key_F3)
    press(qtbot, w, Qt.Key_Right)
    pt.advance(1.5)  # long enough to reach the wall and push against it
    assert pt.position.x == WALL_X - RADIUS - 0.001 or abs(pt.position.x - (WALL_X - RADIUS)) < 0.01
    pt.advance(3 * DT)
    assert hud_line(pt, "contacts") == "contacts 1: wall"
    assert hud_line(pt, "candidates") == "candidates 1: wall"
    release(qtbot, w, Qt.Key_Right)
    pt.advance(0.5)  # standing still against it: still touching, as the picture shows
    assert hud_line(pt, "contacts") == "contacts 1: wall"
    assert hud_line(pt, "candidates") == "candidates 1: wall"
    tap(qtbot, w, Qt.Key_Escape)


def test_sliding_into_a_corner_contacts_never_outnumber_candidates(qtbot, tmp_path):
    # a wall of two segments meeting in a corner, the player driven into the corner: every tick
    level = Level(grid=16, player=Player(spawn=(300, 300), radius=RADIUS, speed=240),
                  objects=(Wall("corner", [(200, 400), (400, 400), (400, 200)], 8),
                           Box("crate", (330, 330), (16, 16))))
    w = open_window(qtbot, tmp_path, level)
    pt = play(qtbot, w)
    tap(qtbot, w, Qt.Key_F3)
    press(qtbot, w, Qt.Key_Right)
    press(qtbot, w, Qt.Key_Down)
    seen = set()
    for _ in range(90):
        pt.tick()
        touching = pt.contact_colliders()
        candidates = pt.sim.last.candidates
        assert set(touching) <= set(candidates)
        assert len(set(c.collider for c in pt.sim.last.contacts)) <= len(candidates)
        count = int(hud_line(pt, "contacts").split()[1].rstrip(":"))
        assert count == len(touching) <= int(hud_line(pt, "candidates").split()[1].rstrip(":"))
        seen.add(count)
    assert max(seen) >= 1
    release(qtbot, w, Qt.Key_Right)
    release(qtbot, w, Qt.Key_Down)
    tap(qtbot, w, Qt.Key_Escape)


def test_a_long_error_line_wraps_in_the_hud_and_elides_in_the_status_bar_with_the_whole_text_in_its_tooltip(
        qtbot, tmp_path):
    long_id = "the-wall-along-the-northern-edge-of-the-courtyard-by-the-old-well"
    level = Level(grid=16, player=Player(spawn=SPAWN, radius=RADIUS),
                  objects=(Wall(long_id, [(0, 0), (0, 0), (64, 0)], 8),))
    w = open_window(qtbot, tmp_path, level)
    w.resize(1024, 700)
    QApplication.processEvents()
    pt = play(qtbot, w)
    pt.advance(0.2)
    hud = pt.hud
    note = next(line for line in hud.lines if line.startswith("! "))
    assert long_id in note and not note.endswith("…")
    rows = hud.rows()
    assert len(rows) > len(hud.lines), "the long line is wrapped onto more rows"
    # the rows together are the whole line, and every row fits inside the panel
    wrapped = " ".join(r.strip() for r, i in rows if hud.lines[i] == note)
    assert wrapped.split() == note.split()
    fm = QFontMetrics(hud.font())
    assert all(fm.horizontalAdvance(r) <= hud.width() for r, _ in rows)
    assert hud.geometry().right() <= w.canvas.viewport().geometry().right()
    bar = w.statusBar()
    assert long_id in bar.currentMessage()
    assert bar.message_label.is_elided() and bar.message_label.toolTip() == bar.currentMessage()
    assert bar.message_label.geometry().right() < w.position_label.geometry().left()
    assert not w.hint_label.isVisible(), "no tool hint while the tools are asleep"
    tap(qtbot, w, Qt.Key_Escape)
    assert w.hint_label.isVisible() and w.hint_label.text() == w.tool.current_hint()
