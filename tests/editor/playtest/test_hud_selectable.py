"""The play-test's HUD text can be selected with the mouse and copied, without taking the keyboard."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.editor.playtest.conftest import DT, play, press, release, tap


def test_the_paused_hud_text_is_selected_by_a_mouse_drag_and_the_arrows_stay_the_players(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    pt.advance(3 * DT)
    tap(qtbot, w, Qt.Key_P)
    assert pt.paused
    label = pt.hud.label
    assert label.isVisible() and pt.hud.geometry().contains(pt.hud.mapToParent(label.geometry().center()))
    assert w.canvas.childAt(pt.hud.mapToParent(label.geometry().center())) is label  # the mouse reaches it
    first_row = label.fontMetrics().height() // 2
    QTest.mousePress(label, Qt.LeftButton, Qt.NoModifier, QPoint(1, first_row))
    QTest.mouseMove(label, QPoint(label.width() - 2, first_row))
    QTest.mouseRelease(label, Qt.LeftButton, Qt.NoModifier, QPoint(label.width() - 2, first_row))
    selected = pt.hud.selected_text()
    assert selected and pt.hud.lines[0].startswith(selected.strip()[:6])
    assert QApplication.focusWidget() is w.canvas  # the label never takes the keyboard
    tap(qtbot, w, Qt.Key_P)
    here = pt.position
    press(qtbot, w, Qt.Key_Right)
    pt.advance(5 * DT)
    release(qtbot, w, Qt.Key_Right)
    assert pt.position.x > here.x


def test_the_hud_shows_its_rows_in_their_colours_and_holds_them(qtbot, play_window):
    w = play_window
    pt = play(qtbot, w)
    pt.advance(DT)
    hud = pt.hud
    text = hud.label.text()
    assert hud.TITLE.name() in text and hud.TEXT.name() in text
    assert hud.label.geometry().bottom() <= hud.rect().bottom()
    assert hud.label.sizeHint().height() <= hud.label.height()
