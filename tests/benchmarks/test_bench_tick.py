"""``python -m tests.benchmarks.bench_tick --quick``: the side-by-side table has its shape (not timing values)."""
from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmarks.bench_tick import ENGINES, QUICK_COUNTS, SPEEDS, Row, Timing, format_table, measure, tick_level

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_prints_a_row_per_size_and_speed_with_every_engine():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_tick", "--quick", "--ticks", "40"],
                          cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("| objects | px/s | ours build (ms) | ours µs/tick | rapier3d build (ms) |")
    rows = [line for line in lines[2:] if line.startswith("|")]
    assert [tuple(r.split("|")[1:3]) for r in rows] == [
        (f" {n:,} ", f" {s:,.0f} ") for n in QUICK_COUNTS for s in SPEEDS]
    for r in rows:
        cells = [c.strip() for c in r.split("|")[1:-1]]
        assert len(cells) == 2 + 2 * len(ENGINES) + 1
        assert float(cells[2].replace(",", "")) >= 0 and float(cells[3]) > 0  # ours always runs


def test_every_engine_keeps_the_player_inside_the_bordered_level():
    level = tick_level(100)
    x0, y0, x1, y1 = level.bounds()
    (row,) = measure(counts=(100,), speeds=(240.0,), ticks=60)
    ours = row.timings["ours"]
    assert ours.ticks == 60 and ours.tick_seconds > 0
    for name, t in row.timings.items():
        if t is not None:
            x, y = t.end
            assert x0 < x < x1 and y0 < y < y1, name
    # Ours and rapier3d's controller walk the same replay: they end near each other.
    rapier = row.timings["rapier3d"]
    if rapier is not None:
        assert math.dist(ours.end, rapier.end) < 50


def test_an_engine_that_is_not_installed_shows_as_n_a():
    t = Timing(0.5, 0.003, 1000, (0.0, 0.0))
    table = format_table([Row(1000, 240.0, {"ours": t, "rapier3d": None, "pymunk": t})]).splitlines()
    assert table[2] == "| 1,000 | 240 | 500 | 3.0 | n/a | n/a | 500 | 3.0 | n/a |"


@pytest.mark.parametrize("bad", [["--ticks", "0"], ["--counts", "-5"]])
def test_bad_arguments_are_refused(bad):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_tick", "--quick", *bad],
                          cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "error" in done.stderr


def test_the_wild_run_times_the_1e300_replay_on_each_level_along_x_and_the_diagonal():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_tick", "--wild", "--ticks", "20"],
                          cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines()[2:]]
    assert [(r[0].strip(), r[2].strip(), r[3].strip()) for r in rows] == [
        (name, along, "20") for name in ("open level (one box)", "levels/showcase.json", "generated, 10,000 objects")
        for along in ("x", "diagonal")]
    assert all(float(r[5]) > 0 for r in rows)


def test_the_wild_replay_alternates_between_plus_and_minus_1e300_px_s():
    from tests.benchmarks.bench_tick import wild_replay
    replay = wild_replay((1.0, 1.0), 4)
    assert [tuple(v) for v in replay.velocities] == [(1e300, 1e300), (-1e300, -1e300)] * 2
