"""``python -m tests.benchmarks.bench_parts --quick``: the table is printed whole, and what it times really happened."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from level_editor.editor.panels.problem_badges import MAX_BADGES
from tests.benchmarks.bench_parts import CHECKS, KEYS, QUICK_SIZES, column_name, format_table

ROOT = Path(__file__).resolve().parents[2]


def _row(lines: list[str], label: str) -> list[str]:
    row = next(line for line in lines if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in row.strip("|").split("|")[1:]]


def test_quick_run_prints_a_row_per_measure_and_a_column_per_size():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_parts", "--quick"], cwd=str(ROOT), env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "| measure | " + " | ".join(column_name(n) for n in QUICK_SIZES) + " |" in lines
    for label in KEYS.values():
        cells = _row(lines, label)
        assert len(cells) == len(QUICK_SIZES) and all(c.endswith(("ms", " s")) for c in cells), (label, cells)
    # what was timed did what it is for: a lock or a rename touched no item, hiding a layer of one object one,
    # the filter found box-N/10-1 and the ten names that go on from it, every wrong object got a badge up to the cap
    assert _row(lines, CHECKS["objects"]) == [str(n) for n in QUICK_SIZES]
    assert _row(lines, CHECKS["layer_lock_touched"]) == ["0"] * len(QUICK_SIZES)
    assert _row(lines, CHECKS["layer_rename_touched"]) == ["0"] * len(QUICK_SIZES)
    assert _row(lines, CHECKS["layer_hide_touched"]) == ["1"] * len(QUICK_SIZES)
    assert _row(lines, CHECKS["list_filter_rows"]) == ["11"] * len(QUICK_SIZES)
    assert _row(lines, CHECKS["badges_all_shown"]) == [str(min(n, MAX_BADGES)) for n in QUICK_SIZES]


def test_repeated_runs_show_the_range():
    runs = {"10 objects": [{"snap_s": 0.0005, "objects": 10.0}, {"snap_s": 0.002, "objects": 10.0}]}
    lines = format_table(runs).splitlines()
    assert lines[0] == "| measure | 10 objects |"
    assert _row(lines, KEYS["snap_s"]) == ["0.50 ms - 2.00 ms"]
    assert _row(lines, CHECKS["objects"]) == ["10"]
    assert _row(lines, KEYS["ring_item_s"]) == ["-"]
    assert len(lines) == 2 + len(KEYS) + len(CHECKS)
