"""``python -m tests.benchmarks.bench_platformer --quick``: the table has its shape, and the counts mean something."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.benchmarks.bench_platformer import (
    QUICK_COUNTS, SHAPES, platformer_level, platformer_replay, run_ours, run_rapier,
)

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_prints_a_row_per_size_and_shape():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_platformer", "--quick", "--ticks", "60"],
                          cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("| objects | player | ours µs/tick | ours inside | ours caught | rapier3d µs/tick |")
    rows = [line for line in lines[2:] if line.startswith("|")]
    assert [tuple(c.strip() for c in r.split("|")[1:3]) for r in rows] == [
        (f"{n:,}", s) for n in QUICK_COUNTS for s in SHAPES]


def test_both_controllers_run_the_same_level_and_end_near_each_other():
    level = platformer_level(300, "box")
    replay = platformer_replay(400)
    ours = run_ours(level, replay)
    assert ours.ticks == 400 and ours.inside == 0 and ours.caught == 0
    assert ours.end[0] > level.player.spawn.x + 300  # it ran along the floor of boxes
    rapier = run_rapier(level, replay)
    if rapier is not None:
        assert abs(rapier.end[0] - ours.end[0]) < 200
