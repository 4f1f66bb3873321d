"""The scene gives its tool one event at a time (editor/canvas/tool_events.py).

Found by a random GUI session: dragging a pillar or a reference image past the edge of a zoomed-out level grew the
scene's rectangle inside the drag's push; Qt's view then moved its scroll bars and replayed the last mouse move,
which reached the tool inside its own push, and a second "Move pillar" was pushed while the first was being made.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Image, Level, Pillar, Player
from level_editor.editor.canvas.context import EditorContext
from tests.editor.helpers import drag, key, make_window, undo_texts


@pytest.fixture
def pushed_inside(monkeypatch):
    """(pushed, being made) for every push made while another change was being made."""
    found = []
    push = EditorContext.push

    def watched(self, command):
        if self.pushing:
            found.append((command.text(), self._pushing_text))
        push(self, command)

    monkeypatch.setattr(EditorContext, "push", watched)
    return found


def level_with_a_pillar_and_a_picture(tmp_path) -> Level:
    picture = QImage(64, 48, QImage.Format_ARGB32)
    picture.fill(QColor("#6080a0"))
    assert picture.save(str(tmp_path / "sketch.png"))
    return Level(player=Player(spawn=(48, 48)), objects=(
        Pillar("pillar-1", (240, 320), 16),
        Image("sketch", "sketch.png", (400, 80)),
    ))


@pytest.mark.parametrize("start, label", [((240, 320), "Move pillar"), ((432, 104), "Move reference image")])
@pytest.mark.parametrize("end", [(4000, 320), (-4000, 320), (240, 4000), (240, -4000)])
def test_a_drag_past_the_edge_of_a_zoomed_out_level_pushes_one_command(qtbot, tmp_path, pushed_inside, start, label,
                                                                       end):
    window = make_window(qtbot, tmp_path)
    window.set_level(level_with_a_pillar_and_a_picture(tmp_path), str(tmp_path / "level.json"))
    window.canvas.set_zoom(0.25)
    window.canvas.centerOn(*start)
    QApplication.processEvents()
    key(window, Qt.Key_S)
    before = {o.id: o for o in window.document.objects}
    rect = window.scene.sceneRect()
    drag(window, start, end, steps=10)
    QApplication.processEvents()
    assert window.scene.sceneRect() != rect  # the scene grew under the drag
    assert pushed_inside == []
    assert undo_texts(window) == [label]
    moved = [o.id for o in window.document.objects if o != before[o.id]]
    assert moved == (["pillar-1"] if label == "Move pillar" else ["sketch"])
    window.undo_stack.undo()
    assert {o.id: o for o in window.document.objects} == before
