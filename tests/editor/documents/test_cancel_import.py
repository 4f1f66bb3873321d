"""Issue 23, item 8: a hostile Tiled map's import can be cancelled (the progress's Cancel, Esc), and closing the
window or Ctrl+Q while it reads cancels it and then closes the window. The open level stays exactly as it was."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from level_editor.core.interop import tiled_import
from level_editor.editor.work import long_task
from tests.core.interop.helpers import hostile_map
from tests.editor.helpers import make_window

SAMPLES = Path(__file__).resolve().parents[3] / "levels"
LAYERS = 20


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """A 1.7 MB map of 20 zlib layers of 4096 x 4096 cells, every one of which is looked at (empty cells of a
    tileset whose tile collides; the cap raised to let all 20 be read: over a minute of work), and the layers whose
    reading began."""
    monkeypatch.setattr(tiled_import, "MAX_MAP_TILES", LAYERS * 4096 * 4096)
    begun = []
    read = tiled_import.layer_tiles

    def layer_tiles(layer, where, stop=None):
        begun.append(where)
        return read(layer, where, stop)

    monkeypatch.setattr(tiled_import, "layer_tiles", layer_tiles)
    return hostile_map(tmp_path, layers=LAYERS, side=4096, gid=0, collides=True), begun


def _cancel_button(window) -> QPushButton | None:
    return window.statusBar().findChild(QPushButton, long_task.CANCEL_NAME)


def _once_reading(window, act) -> list:
    """Do ``act()`` once the import's progress shows its Cancel (it shows after a quarter of a second)."""
    done = []
    poll = QTimer(window)

    def look():
        button = _cancel_button(window)
        if button is not None and button.isVisible() and not done:
            done.append(button)
            poll.stop()
            act()

    poll.timeout.connect(look)
    poll.start(20)
    return done


def _opened(qtbot, tmp_path):
    folder = tmp_path / "levels"
    shutil.copytree(SAMPLES, folder)
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(folder / "game_content.json"))
    return window


@pytest.mark.parametrize("how", ["Cancel", "Esc"])
def test_cancelling_an_import_leaves_the_open_level_exactly_as_it_was(qtbot, tmp_path, hostile, how):
    path, begun = hostile
    window = _opened(qtbot, tmp_path)
    level, file, undo, title = window.document.level, window.path, window.undo_stack.index(), window.windowTitle()

    if how == "Cancel":
        acted = _once_reading(window, lambda: QTest.mouseClick(_cancel_button(window), Qt.LeftButton))
    else:
        acted = _once_reading(window, lambda: QTest.keyClick(window.canvas, Qt.Key_Escape))
    assert window.import_map(path, ask=False) is False

    assert acted and 1 <= len(begun) < LAYERS  # it stopped in the middle of the map, not at its end
    assert window.document.level is level and window.path == file and window.undo_stack.index() == undo
    assert not window.is_modified() and window.windowTitle() == title and window.errors == []
    assert window.statusBar().currentMessage() == (
        "Import of hostile.tmj cancelled: the open level is as it was")
    assert window.isVisible() and not long_task.busy and not _cancel_button(window).isVisible()


@pytest.mark.parametrize("how", ["close", "Ctrl+Q"])
def test_closing_the_window_during_an_import_cancels_it_and_then_closes(qtbot, tmp_path, hostile, how):
    path, begun = hostile
    window = _opened(qtbot, tmp_path)
    level = window.document.level

    if how == "close":
        acted = _once_reading(window, window.close)  # as the window's close button does
    else:
        acted = _once_reading(window, lambda: QTest.keyClick(window.canvas, Qt.Key_Q, Qt.ControlModifier))
    assert window.import_map(path, ask=False) is False

    assert acted and 1 <= len(begun) < LAYERS
    assert window.document.level is level and window.errors == []
    qtbot.waitUntil(lambda: not window.isVisible())
    assert window.questions == []  # nothing was unsaved: it closed without asking
