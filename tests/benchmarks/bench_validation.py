"""How long validation and hull generation take on big levels: ``python -m tests.benchmarks.bench_validation``.

Two kinds of generated level, each at 1,000, 10,000 and 100,000 objects
(walls, boxes, oriented boxes and pillars):

- ``rooms``: :func:`core.level.generate.generate_level`, rooms joined by corridors
  with furniture inside, a level that validates clean;
- ``scatter``: objects thrown at random onto a field just big enough to hold
  them, so they overlap, cross and leave narrow gaps everywhere: the worst
  case for the checks that look at pairs of objects.

Each row gives the time to build the outlines once, to validate them, to
build the hulls from those outlines, their total, the total per object and
its ratio to the smallest size's (1.0 is linear), and the problems found.

``--walls N``: single walls of N nodes (a random walk, a zig-zag, all nodes at
one point; open and closed), the check and the hulls of each.

A second table does the same for one tile grid of 1,000, 10,000 and 100,000
cells (``--cells``): rooms of solid cells with doorways, sprinkled with
single cells at random, so the grid has long runs and ragged bits alike.

    python -m tests.benchmarks.bench_validation                 # the full tables
    python -m tests.benchmarks.bench_validation --sizes 1000 --cells 1000    # a quick look
    python -m tests.benchmarks.bench_validation --sizes 10000 100000 --cells --walls 300000
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


def long_wall_level(nodes: int, shape: str, closed: bool = False, seed: int = 0) -> Level:
    """One wall of ``nodes`` nodes: a ``"random walk"`` (steps of about 50 px), a ``"zig-zag"`` (2 px apart in x,
    100 px up and down) or ``"one point"`` (every node at one place)."""
    rng = random.Random(seed)
    pts = []
    x = y = 0.0
    for k in range(nodes):
        if shape == "random walk":
            x, y = x + rng.gauss(0, 40), y + rng.gauss(0, 40)
        elif shape == "zig-zag":
            x, y = 2.0 * k, 100.0 * (k % 2)
        pts.append((x, y))
    return Level(name=f"{shape} {nodes}", player=Player(spawn=(-1e5, -1e5)),
                 objects=[Wall("wall", pts, 8.0, closed=closed)])


def _timed(func, *args):
    gc.collect()
    start = time.perf_counter()
    result = func(*args)
    return result, time.perf_counter() - start


def run(sizes: Sequence[int] = SIZES, out=sys.stdout, cells: Sequence[int] = CELLS,
        walls: Sequence[int] = ()) -> list[dict]:
    """Measure every kind of level at every size, then tile grids and long walls; print the tables, return the rows.

    ``validate`` is timed on outlines already built (as check_level does), ``total`` is the three together,
    ``us/obj`` the total per object, and ``ratio`` that per-object time over the smallest size's of the same
    kind of level (1.0: linear).
    """
    rows = []
    header = (f"{'level':<8} {'objects':>8} {'outlines s':>11} {'validate s':>11} {'hulls s':>8} {'total s':>8} "
              f"{'us/obj':>7} {'ratio':>6}  problems")
    print(header, file=out)
    print("-" * len(header), file=out)
    for name, make in (("rooms", lambda n: generate_level(n, seed=1)), ("scatter", scatter_level)):
        first_per_object = None
        for n in sizes:
            level = make(n)
            outlines, t_outlines = _timed(level_outlines, level)
            problems, t_validate = _timed(validate_level, level, outlines)
            hulls, t_hulls = _timed(level_hulls, level, outlines)
            total = t_outlines + t_validate + t_hulls
            per_object = total / max(len(level.objects), 1)
            first_per_object = first_per_object or per_object
            counts = Counter(p.severity for p in problems)
            summary = ", ".join(f"{counts[s]} {s}" for s in ("error", "warning", "info") if counts[s])
            row = dict(level=name, objects=len(level.objects), outlines=t_outlines, validate=t_validate,
                       hulls=t_hulls, total=total, per_object=per_object, ratio=per_object / first_per_object,
                       problems=summary, hull_entries=len(hulls))
            rows.append(row)
            print(f"{name:<8} {row['objects']:>8,} {t_outlines:>11.2f} {t_validate:>11.2f} {t_hulls:>8.2f} "
                  f"{total:>8.2f} {per_object * 1e6:>7.1f} {row['ratio']:>6.2f}  {summary}", file=out, flush=True)
    if walls:
        header = f"{'wall':<20} {'nodes':>8} {'check s':>8} {'hulls s':>8}  problems"
        print("", file=out)
        print(header, file=out)
        print("-" * len(header), file=out)
    for n in walls:
        for shape in ("random walk", "zig-zag", "one point"):
            for closed in (False, True):
                level = long_wall_level(n, shape, closed)
                outlines, t_outlines = _timed(level_outlines, level)
                problems, t_validate = _timed(validate_level, level, outlines)
                hulls, t_hulls = _timed(level_hulls, level, outlines)
                counts = Counter(p.severity for p in problems)
                summary = ", ".join(f"{counts[s]} {s}" for s in ("error", "warning", "info") if counts[s])
                label = f"{shape}{' (closed)' if closed else ''}"
                row = dict(level="wall", shape=label, nodes=n, check=t_outlines + t_validate, hulls=t_hulls,
                           problems=summary)
                rows.append(row)
                print(f"{label:<20} {n:>8,} {row['check']:>8.2f} {t_hulls:>8.2f}  {summary}", file=out, flush=True)
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
    parser.add_argument("--walls", type=int, nargs="*", default=[], metavar="N",
                        help="nodes of single long walls to measure (random walk, zig-zag, all at one point)")
    parser.add_argument("--cells", type=int, nargs="*", default=list(CELLS), metavar="N",
                        help="cells of the tile grids to measure (default: 1000 10000 100000; none: skip them)")
    args = parser.parse_args(argv)
    run(args.sizes, cells=args.cells, walls=args.walls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
