"""``python -m tests.benchmarks.bench_long_wall --quick``: the table is printed whole, and what it times really happened."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.benchmarks.bench_long_wall import CHECKS, KEYS, QUICK_SIZES, SHAPES, column_name, dense_points, format_table
from tests.benchmarks.bench_editor import table_row

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_prints_a_row_per_measure_and_a_column_per_wall():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_long_wall", "--quick"], cwd=str(ROOT),
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    columns = [column_name(shape, n) for shape in SHAPES for n in QUICK_SIZES]
    assert "| measure | " + " | ".join(columns) + " |" in lines
    for label in KEYS.values():
        cells = table_row(lines, label)
        assert len(cells) == len(columns) and all(c.endswith(("ms", " s")) for c in cells), (label, cells)
    # every step did what it is timed for: the wall was selected both ways, dragged, given back by undo,
    # edited with handles on its nodes (a few thousand nodes: at most one per node), deleted and given back
    n = len(columns)
    assert table_row(lines, CHECKS["nodes"]) == [str(q) for _ in SHAPES for q in QUICK_SIZES]
    for key in ("click_selected", "band_selected", "drag_moved", "undo_restored", "node_dragged", "delete_undone"):
        assert table_row(lines, CHECKS[key]) == ["1"] * n, key
    assert all(0 <= int(c) <= QUICK_SIZES[0] for c in table_row(lines, CHECKS["node_handles"]))


def test_the_walls_are_the_ones_the_issue_names():
    zig_zag = dense_points(5, "zz05")
    assert zig_zag == [[1000, 1000], [1000.5, 1040], [1001, 1000], [1001.5, 1040], [1002, 1000]]
    assert dense_points(3, "zz2") == [[1000, 1000], [1002, 1040], [1004, 1000]]
    walk = dense_points(1000, "walk")
    assert all(abs(b[0] - a[0]) <= 10.01 and abs(b[1] - a[1]) <= 10.01 for a, b in zip(walk, walk[1:]))


def test_repeated_runs_show_the_range():
    runs = {"walk 10": [{"open_s": 0.5, "nodes": 10.0}, {"open_s": 1.25, "nodes": 10.0}]}
    lines = format_table(runs).splitlines()
    assert lines[0] == "| measure | walk 10 |"
    assert table_row(lines, KEYS["open_s"]) == ["500 ms - 1.25 s"]
    assert table_row(lines, CHECKS["nodes"]) == ["10"]
    assert table_row(lines, KEYS["drag_step_s"]) == ["-"]
    assert len(lines) == 2 + len(KEYS) + len(CHECKS)
