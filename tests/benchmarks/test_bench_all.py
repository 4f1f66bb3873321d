"""``python -m tests.benchmarks.bench_all``: the table, the memory figures and the plot are produced (not timing values)."""
from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmarks.bench_all import MEASURES, SizeResult, _sizes, format_table, plot

ROOT = Path(__file__).resolve().parents[2]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_quick_run_end_to_end(tmp_path):
    out = tmp_path / "plots" / "scaling.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_all", "--quick", "--ticks", "30", "-o", str(out)],
                          cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "| measure | 100 objects | 1,000 objects |" in lines
    for _, label in MEASURES:
        row = next(line for line in lines if line.startswith(f"| {label} |"))
        assert len(row.split("|")) == 5  # a figure for each size
    assert "| peak memory, 1,000-object level | MB |" in lines
    check = next(line for line in lines if line.startswith("| `level-editor check`"))
    editor = next(line for line in lines if line.startswith("| editor with the level open"))
    assert float(check.split("|")[2]) > 0 and float(editor.split("|")[2]) > float(check.split("|")[2])
    assert f"plot: {out}" in lines
    width, height = png_size(out)
    assert width > 400 and height > 300


def results():
    return [SizeResult(n, {key: n * 1e-5 for key, _ in MEASURES}, n / 1000, 0) for n in (10, 100, 1000)]


def test_the_table_has_a_row_per_measure_and_a_column_per_size():
    table = format_table(results()).splitlines()
    assert table[0] == "| measure | 10 objects | 100 objects | 1,000 objects |"
    assert table[2] == "| load the file | 100 µs | 1.0 ms | 10.0 ms |"
    assert len(table) == 2 + len(MEASURES) + 2


def test_without_matplotlib_there_is_no_plot_and_no_crash(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert plot(results(), str(tmp_path / "p.png")) is False
    assert not (tmp_path / "p.png").exists()


def test_sizes_are_checked():
    assert _sizes("1000,100 100") == [100, 1000]
    assert _sizes("10_000") == [10000]
    for bad in ("", "ten", "0", "-5"):
        with pytest.raises(Exception):
            _sizes(bad)
