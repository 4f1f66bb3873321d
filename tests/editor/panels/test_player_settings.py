"""The player's controller and the platformer's settings in the Properties dock: one undo step each, refused values
explained in the words `check` uses."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from level_editor.core.level.format.fields import PLAYER_SETTINGS
from tests.editor.helpers import click, undo_texts, window  # noqa: F401
from tests.editor.panels.helpers import type_in


def choose_platformer(window):
    click(window, 48, 48)  # the spawn
    ins = window.inspector
    assert ins.title.text() == "Player"
    assert "jump_height" not in ins.fields  # a top-down player has no platformer settings
    ins.field("controller").setCurrentIndex(1)
    assert window.document.player.controller == "platformer"
    return ins


def test_choosing_the_platformer_shows_every_setting_with_its_value(window):
    ins = choose_platformer(window)
    for setting in PLAYER_SETTINGS:
        shown = ins.field(setting.name).text()
        assert shown == ("" if setting.default is None else f"{setting.default:g}"), setting.name
    assert undo_texts(window) == ["Change controller of player"]


def test_a_setting_typed_is_one_undo_step_and_ctrl_z_takes_it_back(window):
    ins = choose_platformer(window)
    type_in(ins, "jump_height", "120")
    type_in(ins, "acceleration", "1800")
    assert (window.document.player.jump_height, window.document.player.acceleration) == (120, 1800)
    assert undo_texts(window)[-2:] == ["Change jump height of player", "Change acceleration of player"]
    window.canvas.setFocus()
    QTest.keyClick(window.canvas, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.player.acceleration is None
    assert ins.field("acceleration").text() == ""
    type_in(ins, "acceleration", "900")
    type_in(ins, "acceleration", "")  # emptied: the run speed changes at once again
    assert window.document.player.acceleration is None


def test_refused_values_are_explained_as_check_words_them_and_change_nothing(window):
    ins = choose_platformer(window)
    before = window.document.player
    type_in(ins, "jump_time", "0")
    assert "must be more than 0 (it is 0)" in ins.problem_text()
    type_in(ins, "floor_max_angle", "90")
    assert "must be more than 0 and less than 90 (it is 90)" in ins.problem_text()
    type_in(ins, "air_control", "2")
    assert "must be between 0 and 1 (it is 2)" in ins.problem_text()
    assert window.document.player == before


def test_back_to_top_down_hides_the_settings_but_keeps_them(window):
    ins = choose_platformer(window)
    type_in(ins, "jump_height", "150")
    ins.field("controller").setCurrentIndex(0)
    assert window.document.player.controller == "top_down" and "jump_height" not in ins.fields
    ins.field("controller").setCurrentIndex(1)
    assert ins.field("jump_height").text() == "150"
