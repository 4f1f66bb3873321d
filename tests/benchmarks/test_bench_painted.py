"""``python -m tests.benchmarks.bench_painted`` on small sizes: a row per level with every phase timed, and the
check found what a check finds (the spawn's free space, one problem a level for the grids)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.benchmarks.bench_painted import COLUMNS, KINDS, painted_level, sprite_level

ROOT = Path(__file__).resolve().parents[2]


def test_a_quick_run_prints_a_row_per_level_with_every_phase():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_painted", "--sizes", "12", "--sprites", "40",
                           "--runs", "1"], cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    table = lines[lines.index("| level | grid | " + " | ".join(f"{c} s" for c in COLUMNS) + " | problems |"):]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table[2:]]
    assert [r[0] for r in rows] == list(KINDS) + ["sprites"]
    assert [r[1] for r in rows] == ["12 x 12"] * len(KINDS) + ["40 sprites"]
    for r in rows:
        assert all(float(x) >= 0 for x in r[2:2 + len(COLUMNS)]), r
    assert all(r[-1] == "1" for r in rows[:-1])  # the grids: the spawn's free space, nothing else


def test_the_levels_are_what_the_rows_say():
    grid = painted_level("mix", 20).objects[0]
    assert grid.painted and grid.columns == grid.rows == 20
    assert grid.tile_at(10, 10) == -1  # the spawn's cell is free
    assert {v & 0xFFFF for row in grid.tiles for v in row if v >= 0} == {1, 2, 3}
    solid = painted_level("solid", 5).objects[0]
    assert sum(v >= 0 for row in solid.tiles for v in row) == 24
    plain = painted_level("plain cells", 8).objects[0]
    assert not plain.painted and plain.cells == tuple("".join("." if v < 0 else "#" for v in row)
                                                      for row in painted_level("noise", 8).objects[0].tiles)
    sprites = sprite_level(30)
    assert len(sprites.objects) == 30 and all(s.solid for s in sprites.objects)
