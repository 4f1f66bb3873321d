"""View > Play Paths: moving objects run along their paths while editing; the document never changes."""
from __future__ import annotations

import pytest

from level_editor.core.level.file_format import load_level
from tests.core.runtime.helpers import ROOT
from tests.editor.helpers import make_window


@pytest.fixture
def platformer(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, load_level(ROOT / "levels" / "platformer.json"))


def test_play_paths_moves_the_items_by_their_paths_and_puts_them_back(qtbot, platformer):
    w = platformer
    now = [100.0]
    w.play_paths.clock = lambda: now[0]
    lift = w.canvas.scene().item("lift")
    home = (lift.pos().x(), lift.pos().y())
    before = w.document.level
    w.play_paths.action.trigger()
    now[0] += 2.0  # two seconds at 60 px/s: 120 px up
    w.play_paths.frame()
    assert (lift.pos().x(), lift.pos().y()) == (home[0], home[1] - 120)
    now[0] += 5.0  # 420 px along a 560 px round: 140 px on the way back down
    w.play_paths.frame()
    assert lift.pos().y() == home[1] - 140
    w.play_paths.action.trigger()
    assert (lift.pos().x(), lift.pos().y()) == home
    assert w.document.level is before


def test_a_play_test_takes_over_the_paths(qtbot, platformer):
    w = platformer
    w.play_mode.use_timer = False
    w.play_paths.action.trigger()
    assert w.play_paths.playing
    w.play_mode.play()
    assert not w.play_paths.playing
    w.play_mode.stop()
