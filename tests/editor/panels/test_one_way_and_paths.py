"""One-way floors and moving objects made in the Properties dock: a checkbox each, the path's speed and mode, one
undo step per change."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from level_editor.core.level.motion import MovePath
from tests.editor.helpers import click, undo_texts, window  # noqa: F401
from tests.editor.panels.helpers import tick, type_in


def test_a_box_made_one_way_and_back_with_the_checkbox(window):
    click(window, 270, 90)  # box-1
    ins = window.inspector
    box = ins.field("one_way")
    tick(ins, box)
    assert window.document.get("box-1").one_way
    assert window.canvas.scene().item("box-1")._one_way  # drawn with its marked top edge
    tick(ins, box)
    assert not window.document.get("box-1").one_way
    assert undo_texts(window) == ["Make box-1 one-way", "Unmake box-1 one-way"]


def test_a_pillar_cannot_be_one_way_but_can_move(window):
    click(window, 240, 320)  # pillar-1
    ins = window.inspector
    assert "one_way" not in ins.fields and "moves" in ins.fields


def test_a_box_given_a_path_then_its_speed_and_mode_each_one_undo_step(window):
    click(window, 270, 90)
    ins = window.inspector
    assert not ins.field("path.speed").isEnabled()
    tick(ins, ins.field("moves"))
    path = window.document.get("box-1").path
    assert isinstance(path, MovePath) and len(path.points) == 2 and ins.field("path.points").text() == "2"
    type_in(ins, "path.speed", "90")
    ins.field("path.mode").setCurrentIndex(1)
    assert window.document.get("box-1").path == MovePath(path.points, 90, "loop")
    type_in(ins, "path.speed", "0")
    assert "Path speed: must be greater than 0" in ins.problem_text()
    assert undo_texts(window) == ["Give box-1 a path", "Change path speed of box-1", "Change path mode of box-1"]
    window.canvas.setFocus()
    for _ in range(3):
        QTest.keyClick(window.canvas, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.get("box-1").path is None and not ins.field("moves").isChecked()
