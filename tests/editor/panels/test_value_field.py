"""The one typed-value field of the panels (the inspector's numbers, ids and names; custom property values)."""
from __future__ import annotations

import functools

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QVBoxLayout, QWidget

from level_editor.editor.panels.field_limits import SIZE, typed_number
from level_editor.editor.panels.properties_table import PropertyField
from level_editor.editor.panels.value_field import INVALID_STYLE, NumberCharacters, ValueField
from level_editor.editor.support.typed_edits import finish_typing
from tests.editor.panels.helpers import retype


@pytest.fixture
def panel(qtbot):
    """A width field (a number of the SIZE range), a custom integer property and a field to move to."""
    host = QWidget()
    width = ValueField("size.x", functools.partial(typed_number, bound=SIZE), "Width")
    width.setValidator(NumberCharacters(width))
    health = PropertyField("health", "integer")
    elsewhere = ValueField("elsewhere", str)
    layout = QVBoxLayout(host)
    for field in (width, health, elsewhere):
        layout.addWidget(field)
    qtbot.addWidget(host)
    host.show()
    qtbot.waitExposed(host)
    host.activateWindow()
    width.show_value("64", "Width: 64.25")
    health.show_value("5")
    said, applied = [], []
    for field in (width, health):
        field.problem_changed.connect(said.append)
        field.committed.connect(applied.append)
    yield width, health, elsewhere, said, applied  # the host widget lives as long as the test


def test_a_valid_value_is_applied_on_enter_as_what_it_reads(panel):
    width, health, _, said, applied = panel
    retype(width, "72.5")
    retype(health, "7")
    assert applied == [72.5, 7] and type(applied[1]) is int
    # emptied on the way ("Width: type a number"), then fine: the last word takes the message back
    assert not width.isModified() and not health.is_invalid() and said[-1] == ""


def test_a_refused_value_is_red_says_why_and_enter_applies_nothing(panel):
    width, health, _, said, applied = panel
    retype(width, "-5")
    assert width.is_invalid() and width.styleSheet() == INVALID_STYLE
    assert width.toolTip() == "Not applied: must be from 0.000001 to 10,000,000"
    assert said[-1] == "Width: must be from 0.000001 to 10,000,000"
    retype(health, "lots")
    assert health.problem == "health must be a whole number" and said[-1] == "health must be a whole number"
    assert health.toolTip() == "Not applied: health must be a whole number"
    finish_typing(health)  # another action begins: the refused text stays, red
    assert applied == [] and health.text() == "lots" and health.is_invalid()


def test_letters_never_reach_a_number_field(panel):
    width, *_ = panel
    retype(width, "1e3x", enter=False)
    assert width.text() == "1e3"


def test_esc_puts_back_the_value_shown_and_takes_back_the_message(panel):
    width, _, _, said, applied = panel
    retype(width, "0", enter=False)
    QTest.keyClick(width, Qt.Key_Escape)
    assert width.text() == "64" and not width.is_invalid() and width.styleSheet() == ""
    assert width.toolTip() == "Width: 64.25" and said[-1] == "" and applied == []


def test_leaving_with_a_refused_value_puts_back_the_value_and_says_it_was_not_applied(qtbot, panel):
    width, health, elsewhere, said, applied = panel
    for field, message in ((width, "Width: '-' is not a number (not applied)"),
                           (health, "health must be a whole number (not applied)")):
        field.setFocus()
        qtbot.waitUntil(field.hasFocus)
        retype(field, "-", enter=False)
        elsewhere.setFocus()
        qtbot.waitUntil(lambda: not field.hasFocus())
        assert not field.is_invalid() and said[-1] == message
    assert (width.text(), health.text(), applied) == ("64", "5", [])


def test_leaving_with_a_valid_value_applies_it(qtbot, panel):
    width, _, elsewhere, _, applied = panel
    width.setFocus()
    qtbot.waitUntil(width.hasFocus)
    retype(width, "80", enter=False)
    elsewhere.setFocus()
    qtbot.waitUntil(lambda: not width.hasFocus())
    assert applied == [80.0]


def test_finish_typing_applies_what_is_typed_as_enter_would(panel):
    width, health, _, _, applied = panel
    retype(width, "3", enter=False)
    retype(health, "-2", enter=False)
    width.finish_typing()
    finish_typing(health)
    assert applied == [3.0, -2]


def test_a_field_whose_values_differ_stays_blank_and_applies_nothing_until_typed(panel):
    width, health, _, _, applied = panel
    health.show_value("", mixed=True)
    assert health.placeholderText() == "—" and "differ" in health.toolTip()
    retype(health, "")
    health.finish_typing()
    assert applied == [] and not health.is_invalid()
    retype(health, "4")
    assert applied == [4]


def test_a_base_style_is_kept_while_the_text_is_fine(panel):
    _, health, *_ = panel
    health.set_base_style("QLineEdit { font-style: italic; }")
    retype(health, "x", enter=False)
    assert health.styleSheet() == INVALID_STYLE
    QTest.keyClick(health, Qt.Key_Escape)
    assert health.styleSheet() == "QLineEdit { font-style: italic; }"
