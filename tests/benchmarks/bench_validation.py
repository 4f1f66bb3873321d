"""How long validation and hull generation take on big levels: ``python -m tests.benchmarks.bench_validation``.

Two kinds of generated level, each at 1,000, 10,000 and 100,000 objects
(walls, boxes, oriented boxes and pillars):

- ``rooms``: :func:`level_editor.core.level.generate.generate_level`, rooms joined by corridors
  with furniture inside, a level that validates clean;
- ``scatter``: objects thrown at random onto a field just big enough to hold
  them, so they overlap, cross and leave narrow gaps everywhere: the worst
  case for the checks that look at pairs of objects.

Each row gives the time to build the outlines once, to validate them, to
build the hulls from those outlines, their total, the total per object and
its ratio to the smallest size's (1.0 is linear), and the problems found.

``--walls N``: single walls of N nodes (a random walk, a zig-zag, all nodes at
one point; open and closed), the check and the hulls of each, and the
play-test's collision world built from it (what a play-test's start waits
for: near linear in the nodes).

``--dense N``: single dense walls of N nodes, 2 px thick, around the default
24 px player (:data:`DENSE_SHAPES`: zig-zags 0.5 and 2 px apart, a random walk,
a spiral, a chain running back and forth along one line, a closed circle, a
comb, every node twice, all nodes at one point), each written to a file and
put through ``level-editor check`` and ``level-editor export`` in a process of
its own: seconds (wall clock and CPU), peak memory, and the CPU seconds per
million nodes (flat: linear).

A second table does the same for one tile grid of 1,000, 10,000 and 100,000
cells (``--cells``): ``rooms``, rooms of solid cells with doorways, sprinkled
with single cells at random, so the grid has long runs and ragged bits alike;
and ``random``, every cell solid or not at random, half and half: no long runs
at all, the worst case.

    python -m tests.benchmarks.bench_validation                 # the full tables
    python -m tests.benchmarks.bench_validation --sizes 1000 --cells 1000    # a quick look
    python -m tests.benchmarks.bench_validation --sizes 10000 100000 --cells --walls 300000
    python -m tests.benchmarks.bench_validation --sizes --cells --dense 30000 100000 300000
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from typing import Optional, Sequence

from level_editor.core.level.generate import generate_level
from level_editor.core.checks.hulls import level_hulls
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Tiles, Wall
from level_editor.core.checks.outlines import level_outlines
from level_editor.core.checks.validation import validate_level
from level_editor.core.collision.world import World

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


def random_tile_level(cells: int, seed: int = 5) -> Level:
    """One square tile grid of about ``cells`` cells, each solid at random, half of them: no long runs of cells."""
    rng = random.Random(seed)
    side = max(2, round(math.sqrt(cells)))
    rows = ["".join("#" if rng.random() < 0.5 else "." for _ in range(side)) for _ in range(side)]
    return Level(name=f"random tiles {side * side}", player=Player(spawn=(-100, -100)),
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


#: The dense walls of ``--dense``, by name (see :func:`dense_wall`).
DENSE_SHAPES = ("zig-zag 0.5 px", "zig-zag 2 px", "random walk", "spiral", "back and forth", "closed circle", "comb",
                "every node twice", "one point")


def dense_wall(shape: str, nodes: int) -> tuple[list, bool]:
    """The nodes of one dense wall of ``shape`` (one of :data:`DENSE_SHAPES`) and whether it is closed.

    >>> points, closed = dense_wall("comb", 8)
    >>> points[:4], closed
    ([[1000, 1000], [1000, 1060], [1004, 1060], [1004, 1000]], False)
    """
    if shape == "zig-zag 0.5 px":  # every segment overlaps the next ones: no room anywhere
        return [[1000 + i * 0.5, 1000 + (i % 2) * 40] for i in range(nodes)], False
    if shape == "zig-zag 2 px":
        return [[1000 + i * 2, 1000 + (i % 2) * 40] for i in range(nodes)], False
    if shape == "random walk":  # steps uniform in +-10 px: the chain crosses itself everywhere
        rng = random.Random(1)
        x = y = 5000.0
        points = []
        for _ in range(nodes):
            x, y = x + rng.uniform(-10, 10), y + rng.uniform(-10, 10)
            points.append([round(x, 2), round(y, 2)])
        return points, False
    if shape == "spiral":  # turns 3 px apart, nodes about 1 px apart: a 1 px corridor winding in
        points, t = [], 0.0
        for _ in range(nodes):
            r = 20 + 3 * t / (2 * math.pi)
            points.append([round(5000 + r * math.cos(t), 3), round(5000 + r * math.sin(t), 3)])
            t += 1.0 / r
        return points, False
    if shape == "back and forth":  # along one line, 99 segments of 5 px each way, every run on the last
        return [[1000 + 5 * (i % 198 if i % 198 < 99 else 198 - i % 198), 1000] for i in range(nodes)], False
    if shape == "closed circle":  # 1 px segments, round the spawn
        radius = nodes / (2 * math.pi)
        return [[round(5000 + radius * math.cos(2 * math.pi * i / nodes), 3),
                 round(5000 + radius * math.sin(2 * math.pi * i / nodes), 3)] for i in range(nodes)], True
    if shape == "comb":  # teeth 60 px long, 4 px wide, 4 px apart
        points = []
        for k in range(nodes // 4):
            x = 1000 + k * 8
            points += [[x, 1000], [x, 1060], [x + 4, 1060], [x + 4, 1000]]
        return points, False
    if shape == "every node twice":  # a zig-zag 2 px apart whose every node is repeated
        return [[1000 + (i // 2) * 2, 1000 + ((i // 2) % 2) * 40] for i in range(nodes)], False
    if shape == "one point":
        return [[1000, 1000]] * nodes, False
    raise ValueError(f"no dense wall called {shape!r}")


def dense_level_file(shape: str, nodes: int, path: str) -> None:
    """Write a level whose one wall is the dense wall ``shape`` of ``nodes`` nodes, 2 px thick, to ``path``."""
    points, closed = dense_wall(shape, nodes)
    doc = {"format": "level-editor.level", "version": 2, "name": f"{shape} {nodes}", "grid": 32,
           "layers": [{"id": "main", "name": "Main", "visible": True, "locked": False}],
           "player": {"spawn": [48, 48], "shape": "circle", "radius": 12},
           "objects": [{"id": "dense-wall", "kind": "wall", "layer": "main", "points": points, "thickness": 2,
                        "closed": closed}]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def _command(argv: list[str]) -> tuple[float, float, float, int]:
    """``level-editor ARGV`` in a process of its own: (wall seconds, CPU seconds, peak MB, exit code)."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", "import sys; from level_editor.core.cli import main; sys.exit(main())", *argv],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return (time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0,
            child.returncode)


def run_dense(sizes: Sequence[int], out=sys.stdout) -> list[dict]:
    """Check and export each dense wall at each size in processes of their own; print the table, return the rows."""
    rows = []
    header = (f"{'dense wall':<17} {'nodes':>8} {'check s':>8} {'cpu s':>6} {'export s':>9} {'cpu s':>6} "
              f"{'peak MB':>8} {'cpu s/M nodes':>14}  exit")
    print(header, file=out)
    print("-" * len(header), file=out)
    with tempfile.TemporaryDirectory() as folder:
        for shape in DENSE_SHAPES:
            for n in sizes:
                path = os.path.join(folder, "dense.json")
                dense_level_file(shape, n, path)
                check = _command(["check", path])
                export = _command(["export", path, "-o", os.path.join(folder, "out.json")])
                peak = max(check[2], export[2])
                row = dict(level="dense", shape=shape, nodes=n, check=check[0], check_cpu=check[1],
                           export=export[0], export_cpu=export[1], peak_mb=peak, exit=check[3])
                rows.append(row)
                print(f"{shape:<17} {n:>8,} {check[0]:>8.2f} {check[1]:>6.2f} {export[0]:>9.2f} {export[1]:>6.2f} "
                      f"{peak:>8.0f} {check[1] / n * 1e6:>14.1f}  {check[3]}", file=out, flush=True)
    return rows


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
        header = f"{'wall':<20} {'nodes':>8} {'check s':>8} {'hulls s':>8} {'world s':>8}  problems"
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
                _, t_world = _timed(World.from_level, level)
                counts = Counter(p.severity for p in problems)
                summary = ", ".join(f"{counts[s]} {s}" for s in ("error", "warning", "info") if counts[s])
                label = f"{shape}{' (closed)' if closed else ''}"
                row = dict(level="wall", shape=label, nodes=n, check=t_outlines + t_validate, hulls=t_hulls,
                           world=t_world, problems=summary)
                rows.append(row)
                print(f"{label:<20} {n:>8,} {row['check']:>8.2f} {t_hulls:>8.2f} {t_world:>8.2f}  {summary}", file=out,
                      flush=True)
    if cells:
        header = f"{'grid':<8} {'cells':>8} {'solid':>8} {'outlines s':>11} {'validate s':>11} {'hulls s':>8}"
        print("", file=out)
        print(header, file=out)
        print("-" * len(header), file=out)
    for kind, make in (("rooms", tile_level), ("random", random_tile_level)):
        for n in cells:
            level = make(n)
            grid = level.objects[0]
            solid = sum(row.count("#") for row in grid.cells)
            outlines, t_outlines = _timed(level_outlines, level)
            problems, t_validate = _timed(validate_level, level)
            hulls, t_hulls = _timed(level_hulls, level, outlines)
            row = dict(level="tiles", grid=kind, cells=grid.rows * grid.columns, solid=solid, outlines=t_outlines,
                       validate=t_validate, hulls=t_hulls, hull_entries=len(hulls))
            rows.append(row)
            print(f"{kind:<8} {row['cells']:>8,} {solid:>8,} {t_outlines:>11.2f} {t_validate:>11.2f} "
                  f"{t_hulls:>8.2f}", file=out, flush=True)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_validation", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES), metavar="N",
                        help="object counts to measure (default: 1000 10000 100000; none: skip them)")
    parser.add_argument("--walls", type=int, nargs="*", default=[], metavar="N",
                        help="nodes of single long walls to measure (random walk, zig-zag, all at one point)")
    parser.add_argument("--cells", type=int, nargs="*", default=list(CELLS), metavar="N",
                        help="cells of the tile grids to measure (default: 1000 10000 100000; none: skip them)")
    parser.add_argument("--dense", type=int, nargs="*", default=[], metavar="N",
                        help="nodes of the dense walls to check and export in processes of their own "
                             "(e.g. 30000 100000 300000)")
    args = parser.parse_args(argv)
    if args.sizes or args.cells or args.walls:
        run(args.sizes, cells=args.cells, walls=args.walls)
    if args.dense:
        print("", flush=True)
        run_dense(args.dense)
    return 0


if __name__ == "__main__":
    sys.exit(main())
