"""One rotation rule: the select tool's and the oriented box tool's rotation handles turn a box alike."""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt

from level_editor.editor.tools.rotation import handle_rotation, normalized_angle
from tests.editor.helpers import click, drag, key, window  # noqa: F401


@pytest.mark.parametrize("a,b", [(0, 0), (180, 180), (-180, 180), (190, -170), (360, 0), (-190, 170), (-360, 0),
                                 (540, 180), (-0.0, 0)])
def test_normalized_angle(a, b):
    assert normalized_angle(a) == b
    assert math.copysign(1, normalized_angle(a)) == math.copysign(1, b)  # never -0.0


@pytest.mark.parametrize("point,snap,rotation", [
    ((0, -10), False, 0), ((10, 0), False, 90), ((-10, 0), False, -90), ((0, 10), False, 180),
    ((0.1, 10), False, 179.4), ((-0.1, 10), False, -179.4),
    # Shift rounds to 15 degrees; half a turn is 180 from either side, never -180.
    ((1, 10), True, 180), ((-1, 10), True, 180), ((10, 3), True, 105), ((-10, 3), True, -105),
    ((10, 3), False, 106.7),
])
def test_handle_rotation(point, snap, rotation):
    assert handle_rotation((0, 0), point, snap) == rotation


def test_the_rule_is_about_the_centre_and_at_the_centre_there_is_none():
    assert handle_rotation((400, 240), (480, 240)) == 90
    assert handle_rotation((400, 240), (400, 240)) is None


def _towards(rotation: float, reach: float = 80.0) -> tuple[float, float]:
    """Where the handle of the sample level's obox-1 (centre 400, 240) points at ``rotation``."""
    r = math.radians(rotation - 90)
    return 400 + reach * math.cos(r), 240 + reach * math.sin(r)


def _turn_with_select_tool(window, target, modifiers):
    key(window, Qt.Key_S)
    click(window, 400, 240)
    knob = next(h for h in window.tool.handles if h.role == "rotate").knob_pos(window.context.scale())
    drag(window, (knob.x(), knob.y()), target, modifiers)
    return window.document.get("obox-1").rotation


def _turn_with_oriented_box_tool(window, target, modifiers):
    key(window, Qt.Key_S)
    click(window, 400, 240)
    key(window, Qt.Key_O)
    tool = window.tool
    assert type(tool).__name__ == "OrientedBoxTool"
    h = tool.handle_position(window.document.get("obox-1"))
    drag(window, (h.x(), h.y()), target, modifiers)
    return window.document.get("obox-1").rotation


@pytest.mark.parametrize("rotation,modifiers,expected", [
    (37, Qt.NoModifier, 37), (-120, Qt.NoModifier, -120), (180, Qt.NoModifier, 180),
    (179, Qt.NoModifier, 179), (-179, Qt.NoModifier, -179),
    (37, Qt.ShiftModifier, 30), (173, Qt.ShiftModifier, 180), (-173, Qt.ShiftModifier, 180),
    (-172, Qt.ShiftModifier, -165),
])
def test_both_tools_turn_the_box_the_same_for_the_same_drag(window, rotation, modifiers, expected):
    target = _towards(rotation)
    by_select = _turn_with_select_tool(window, target, modifiers)
    window.undo_stack.undo()
    assert window.document.get("obox-1").rotation == 0
    by_oriented_box = _turn_with_oriented_box_tool(window, target, modifiers)
    assert by_select == by_oriented_box
    # The mouse lands on whole pixels: within half a degree of the angle asked for, exact with Shift.
    if modifiers & Qt.ShiftModifier:
        assert by_select == expected
    else:
        assert by_select == pytest.approx(expected, abs=0.5)
    assert -180 < by_select <= 180
