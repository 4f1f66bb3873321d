"""View > Jump Arcs (J): the platformer's jumps from the floor under the mouse or from the selected marker, kept up
to date as the level is edited."""
from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.file_format import load_level
from level_editor.core.playtest.jump_arcs import LANDED, jump_arcs
from level_editor.editor.commands.objects import ChangeObjectsCommand
from tests.core.runtime.helpers import ROOT
from tests.editor.helpers import click, hover, make_window, window  # noqa: F401


@pytest.fixture
def platformer(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, load_level(ROOT / "levels" / "platformer.json"))


def press_j(w):
    w.canvas.setFocus()
    QTest.keyClick(w.canvas, Qt.Key_J)


def test_j_draws_the_controller_s_arcs_from_the_floor_under_the_mouse(qtbot, platformer):
    w = platformer
    hover(w, 600, 300)  # above ledge-1
    press_j(w)
    arcs = w.jump_arcs
    assert arcs.action.isChecked() and arcs.item.isVisible()
    qtbot.waitUntil(lambda: len(arcs.item.arcs) == 3)
    expected = jump_arcs(w.document.level, (600, 300))
    assert [(a.name, a.points, a.ending) for a in arcs.item.arcs] == [(a.name, a.points, a.ending) for a in expected]
    assert arcs.item.arcs[1].ending == LANDED and not arcs.item.boundingRect().isEmpty()
    press_j(w)
    assert not arcs.item.isVisible()


def test_the_arcs_follow_the_mouse_and_the_level_as_it_is_edited(qtbot, platformer):
    w = platformer
    hover(w, 600, 300)
    press_j(w)
    arcs = w.jump_arcs
    qtbot.waitUntil(lambda: len(arcs.item.arcs) == 3)
    before = arcs.item.arcs[0].start
    hover(w, 440, 200)  # above ledge-2
    qtbot.waitUntil(lambda: arcs.item.arcs and arcs.item.arcs[0].start != before)
    assert arcs.item.arcs[0].start.y < before.y
    ledge = w.document.get("ledge-2")
    raised = replace(ledge, origin=Vec2(ledge.origin.x, ledge.origin.y - 40))
    w.context.push(ChangeObjectsCommand(w.document, [ledge], [raised], "Move ledge-2"))
    qtbot.waitUntil(lambda: arcs.item.arcs and arcs.item.arcs[0].start.y < before.y - 40 - 20)


def test_from_the_selected_marker(qtbot, platformer):
    w = platformer
    press_j(w)
    click(w, 476, 230)  # coin-2, above ledge-2
    arcs = w.jump_arcs
    qtbot.waitUntil(lambda: len(arcs.item.arcs) == 3)
    assert arcs.item.arcs[0].start.x == 476


def test_a_top_down_level_says_why_there_are_no_arcs(qtbot, window):
    hover(window, 100, 100)
    press_j(window)
    qtbot.waitUntil(lambda: "platformer player" in window.statusBar().currentMessage())
    assert window.jump_arcs.item.arcs == []
