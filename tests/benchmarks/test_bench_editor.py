"""``python -m tests.benchmarks.bench_editor --quick``: the table is printed whole, and the drag it times really moved everything."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.benchmarks.bench_editor import CHECKS, KEYS, QUICK_SIZES, column_name, format_table, table_row

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_prints_a_row_per_measure_and_a_column_per_size():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_editor", "--quick"], cwd=str(ROOT), env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "| measure | " + " | ".join(column_name(n) for n in QUICK_SIZES) + " |" in lines
    for key, label in KEYS.items():
        if key == "check_rss_mb":  # small levels' edits and saves come faster than a background check starts
            continue
        cells = table_row(lines, label)
        assert len(cells) == len(QUICK_SIZES) and all(c != "-" for c in cells), label
        assert all(c.endswith(("ms", " s", "MB")) for c in cells), cells
    # the drag of everything moved every object, as one undo step, and undo gave the level back
    assert table_row(lines, CHECKS["objects"]) == [str(n) for n in QUICK_SIZES]
    assert table_row(lines, CHECKS["moved_objects"]) == [str(n) for n in QUICK_SIZES]
    assert table_row(lines, CHECKS["move_undo_steps"]) == ["1", "1"]
    assert table_row(lines, CHECKS["undo_restored"]) == ["1", "1"]


def test_repeated_runs_show_the_range():
    runs = {"10 objects": [{"open_s": 0.5, "peak_rss_mb": 100.0}, {"open_s": 1.25, "peak_rss_mb": 100.2}]}
    lines = format_table(runs).splitlines()
    assert lines[0] == "| measure | 10 objects |"
    assert table_row(lines, KEYS["open_s"]) == ["500 ms - 1.25 s"]
    assert table_row(lines, KEYS["peak_rss_mb"]) == ["100 MB"]
    assert table_row(lines, KEYS["save_s"]) == ["-"]
    assert len(lines) == 2 + len(KEYS) + len(CHECKS)


def test_the_freeze_watch_sees_a_block_that_keeps_the_event_loop_waiting():
    from PySide6.QtWidgets import QApplication

    from tests.benchmarks.bench_editor import FreezeWatch

    app = QApplication.instance() or QApplication([])
    with FreezeWatch() as frozen:
        time.sleep(0.3)
    assert len(frozen.gaps) == 1 and frozen.longest == frozen.gaps[0] >= 0.3  # one gap: the whole block
    # short pieces of work with events answered between them, until the watch's timer has ticked ten times: the
    # block is many gaps, and the longest of them is what the watch reports
    with FreezeWatch() as answering:
        while len(answering.gaps) < 10:
            time.sleep(0.002)
            app.processEvents()
    assert len(answering.gaps) >= 11 and answering.longest == max(answering.gaps)


def test_the_sprite_level_is_a_valid_level_of_turned_and_mirrored_sprites_that_draw(tmp_path):
    """``--sprites`` measures a level of art: every sprite shows a tile of the sample tileset, whose picture is
    copied beside the level, and the level checks without errors."""
    from level_editor.core.checks.check import check_level
    from level_editor.core.level.file_format import load_level, save_level
    from tests.benchmarks.bench_editor import sprite_level

    level = sprite_level(300, str(tmp_path))
    save_level(level, tmp_path / "sprites.json")
    loaded = load_level(tmp_path / "sprites.json")
    assert len(loaded.objects) == 300 and all(o.kind == "sprite" and o.art is not None for o in loaded.objects)
    assert sum(o.rotation != 0 for o in loaded.objects) == 100 and sum(o.flip_x for o in loaded.objects) == 60
    assert (tmp_path / "art" / "meadow.png").is_file()
    assert not [p for p in check_level(loaded, base_dir=str(tmp_path)).problems if p.is_error]
