"""levels/game_content.json, the format-2 sample with every feature: it opens in the editor, plays (a trigger
fires in the HUD) and saves byte for byte unchanged."""
from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from tests.editor.helpers import make_window
from tests.editor.playtest.conftest import press, release

SAMPLE = Path(__file__).resolve().parents[2] / "levels" / "game_content.json"


def test_the_sample_opens_plays_with_a_trigger_firing_and_saves_unchanged(qtbot, tmp_path):
    folder = tmp_path / "levels"
    shutil.copytree(SAMPLE.parent, folder)
    path = folder / SAMPLE.name
    w = make_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    w.play_mode.use_timer = False
    assert len(w.document) == 16 and [layer.name for layer in w.document.level.layers] == ["Art", "Walls", "Things"]
    w.canvas.setFocus()
    qtbot.keyClick(w.canvas, Qt.Key_F5)
    session = w.play_mode.session
    press(qtbot, w, Qt.Key_Right)
    session.advance(0.5)  # from the spawn (96, 96) into the healing pool (centre 200, 120, radius 28)
    release(qtbot, w, Qt.Key_Right)
    session.advance(0.2)
    assert "healing-pool" in session.sim.inside
    assert any(line.endswith("entered healing-pool") for line in session.hud.text().splitlines())
    qtbot.keyClick(w.canvas, Qt.Key_Escape)
    assert not w.play_mode.is_playing and not w.is_modified()
    w.save()
    assert path.read_text(encoding="utf-8") == SAMPLE.read_text(encoding="utf-8")
