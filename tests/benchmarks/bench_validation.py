"""How long validation and hull generation take on big levels: ``python -m tests.benchmarks.bench_validation``.

Two kinds of generated level, each at 1,000, 10,000 and 100,000 objects
(walls, boxes, oriented boxes and pillars):

- ``rooms``: :func:`core.level.generate.generate_level`, rooms joined by corridors
  with furniture inside, a level that validates clean;
- ``scatter``: objects thrown at random onto a field just big enough to hold
  them, so they overlap, cross and leave narrow gaps everywhere: the worst
  case for the checks that look at pairs of objects.

Each row gives the time to build the outlines once, to validate (outlines
included), to build the hulls from those outlines, and the problems found.

A second table does the same for one tile grid of 1,000, 10,000 and 100,000
cells (``--cells``): rooms of solid cells with doorways, sprinkled with
single cells at random, so the grid has long runs and ragged bits alike.

    python -m tests.benchmarks.bench_validation                 # the full tables
    python -m tests.benchmarks.bench_validation --sizes 1000 --cells 1000    # a quick look
"""
from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from collections import Counter
from typing import Optional, Sequence

from core.level.generate import generate_level
from core.checks.hulls import level_hulls
from core.level.model import Box, Level, OrientedBox, Pillar, Player, Tiles, Wall
from core.checks.outlines import level_outlines
from core.checks.validation import validate_level

SIZES = (1_000, 10_000, 100_000)
CELLS = (1_000, 10_000, 100_000)


def scatter_level(count: int, seed: int = 0) -> Level:
    """``count`` random objects of all four kinds on a square field of about 60 x 60 px per object."""
    rng = random.Random(seed)
    side = math.sqrt(count) * 60.0
    objects = []
    for k in range(count):
        x, y = rng.uniform(0, side), rng.uniform(0, side)
        kind = k % 4
        if kind == 0:
            pts = [(x, y)]
            for _ in range(rng.randint(1, 3)):
                angle = rng.uniform(0, 2 * math.pi)
                step = rng.uniform(10, 60)
                pts.append((pts[-1][0] + step * math.cos(angle), pts[-1][1] + step * math.sin(angle)))
            objects.append(Wall(f"wall-{k}", pts, rng.choice((4.0, 6.0, 8.0))))
        elif kind == 1:
            objects.append(Box(f"box-{k}", (x, y), (rng.uniform(8, 40), rng.uniform(8, 40))))
        elif kind == 2:
            objects.append(OrientedBox(f"obox-{k}", (x, y), (rng.uniform(4, 20), rng.uniform(4, 20)),
                                       rng.uniform(-90, 90)))
        else:
            objects.append(Pillar(f"pillar-{k}", (x, y), rng.uniform(4, 20)))
    return Level(name=f"scatter {count}", player=Player(spawn=(side / 2, side / 2)), objects=objects)


def tile_level(cells: int, seed: int = 0) -> Level:
    """One square tile grid of about ``cells`` cells: rooms 8 cells wide walled in solid cells, with a
    doorway in every wall, and one empty cell in five turned solid at random."""
    rng = random.Random(seed)
    side = max(2, round(math.sqrt(cells)))
    rows = []
    for r in range(side):
        row = []
        for c in range(side):
            wall = (r % 8 == 0 and c % 8 not in (3, 4)) or (c % 8 == 0 and r % 8 not in (3, 4))
            row.append("#" if wall or rng.random() < 0.2 else ".")
        rows.append("".join(row))
    return Level(name=f"tiles {side * side}", player=Player(spawn=(-100, -100)),
                 objects=[Tiles("tiles", (0, 0), 16, rows)])


def _timed(func, *args):
    gc.collect()
    start = time.perf_counter()
    result = func(*args)
    return result, time.perf_counter() - start


def run(sizes: Sequence[int] = SIZES, out=sys.stdout, cells: Sequence[int] = CELLS) -> list[dict]:
    """Measure every kind of level at every size, then tile grids; print the tables and return their rows."""
    rows = []
    header = f"{'level':<8} {'objects':>8} {'outlines s':>11} {'validate s':>11} {'hulls s':>8}  problems"
    print(header, file=out)
    print("-" * len(header), file=out)
    for name, make in (("rooms", lambda n: generate_level(n, seed=1)), ("scatter", scatter_level)):
        for n in sizes:
            level = make(n)
            outlines, t_outlines = _timed(level_outlines, level)
            problems, t_validate = _timed(validate_level, level)
            hulls, t_hulls = _timed(level_hulls, level, outlines)
            counts = Counter(p.severity for p in problems)
            summary = ", ".join(f"{counts[s]} {s}" for s in ("error", "warning", "info") if counts[s])
            row = dict(level=name, objects=len(level.objects), outlines=t_outlines, validate=t_validate,
                       hulls=t_hulls, problems=summary, hull_entries=len(hulls))
            rows.append(row)
            print(f"{name:<8} {row['objects']:>8,} {t_outlines:>11.2f} {t_validate:>11.2f} {t_hulls:>8.2f}  {summary}",
                  file=out, flush=True)
    if cells:
        header = f"{'grid':<8} {'cells':>8} {'solid':>8} {'outlines s':>11} {'validate s':>11} {'hulls s':>8}"
        print("", file=out)
        print(header, file=out)
        print("-" * len(header), file=out)
    for n in cells:
        level = tile_level(n)
        grid = level.objects[0]
        solid = sum(row.count("#") for row in grid.cells)
        outlines, t_outlines = _timed(level_outlines, level)
        problems, t_validate = _timed(validate_level, level)
        hulls, t_hulls = _timed(level_hulls, level, outlines)
        row = dict(level="tiles", cells=grid.rows * grid.columns, solid=solid, outlines=t_outlines,
                   validate=t_validate, hulls=t_hulls, hull_entries=len(hulls))
        rows.append(row)
        print(f"{'tiles':<8} {row['cells']:>8,} {solid:>8,} {t_outlines:>11.2f} {t_validate:>11.2f} {t_hulls:>8.2f}",
              file=out, flush=True)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_validation", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), metavar="N",
                        help="object counts to measure (default: 1000 10000 100000)")
    parser.add_argument("--cells", type=int, nargs="*", default=list(CELLS), metavar="N",
                        help="cells of the tile grids to measure (default: 1000 10000 100000; none: skip them)")
    args = parser.parse_args(argv)
    run(args.sizes, cells=args.cells)
    return 0


if __name__ == "__main__":
    sys.exit(main())
