"""How long the check of a level with a big painted tile grid takes: ``python -m tests.benchmarks.bench_painted``.

Save, ``export`` and ``render`` all run the check (:func:`~level_editor.core.checks.check.check_level`), so a
designer waits for it on every save. Each row is one level of one painted grid (16 px cells, a 16 px tileset),
the player's spawn in a free cell in its middle:

- ``noise``: every cell painted or not at random, half and half, with a tile whose collision is the full cell;
- ``noise, halves``: the same, a painted cell a full-cell tile or a half-cell one (the bottom half), with flips
  and quarter turns at random (so half cells lie along any side of their cell);
- ``solid``: every cell painted with the full-cell tile;
- ``mix``: half the cells painted, with full, half-cell and slope (polygon) tiles, flipped and turned at random;
- ``plain cells``: the ``noise`` grid as plain ``#``/``.`` cells, for comparison;
- ``sprites``: ``--sprites`` solid sprites of a tile with a collision rectangle, scattered, a quarter of them
  turned by a random angle.

Each phase is timed on its own, so the cost is visible: **shapes** (the grid's collision shapes, the first ask:
:meth:`Tiles.art_shapes`, computed once per edit of the grid), **outlines** (:func:`level_outlines`),
**pieces/gaps** (the convex pieces and the gaps between them the player cannot pass), **validation** (all of
:func:`validate_level`, pieces and gaps again included), **hulls**, and **check** (``check_level(level,
with_hulls=True)`` from scratch: what a save waits for). Times are the best of ``--runs`` runs.

    python -m tests.benchmarks.bench_painted                      # 100x100, 300x300, 500x500 and the sprites
    python -m tests.benchmarks.bench_painted --sizes 100 --sprites 1000 --runs 1   # a quick look
"""
from __future__ import annotations

import argparse
import gc
import random
import time
from typing import Callable, Sequence

from level_editor.core.checks.check import check_level
from level_editor.core.checks.hulls import level_hulls
from level_editor.core.checks.outlines import level_outlines
from level_editor.core.checks.pieces import cut_into_pieces
from level_editor.core.checks.validation import _blocking_gaps, validate_level
from level_editor.core.level import model
from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y, TileInfo, TileShape, Tileset
from level_editor.core.level.model import Level, Player, Sprite, Tiles

SIZES = (100, 300, 500)
SPRITES = (10_000, 50_000)
KINDS = ("noise", "noise, halves", "solid", "mix", "plain cells")

CELL = 16
FULL, HALF, SLOPE = 1, 2, 3
TILESET = Tileset("ts", "Tiles", (CELL, CELL), image="art/ts.png", image_size=(64, 16), columns=4, count=4, tiles={
    FULL: TileInfo(collision=(TileShape("rect", ((0, 0), (CELL, CELL))),)),
    HALF: TileInfo(collision=(TileShape("rect", ((0, CELL / 2), (CELL, CELL / 2))),)),
    SLOPE: TileInfo(collision=(TileShape("polygon", ((0, CELL), (CELL, 0), (CELL, CELL))),)),
})
FLIPS = (0, FLIP_X, FLIP_Y, FLIP_D, FLIP_X | FLIP_Y, FLIP_X | FLIP_D, FLIP_Y | FLIP_D, FLIP_X | FLIP_Y | FLIP_D)


def painted_rows(kind: str, n: int, seed: int = 0) -> tuple:
    """The painted cells of an ``n`` x ``n`` grid of ``kind`` (see the module notes), its middle cell empty."""
    rng = random.Random(seed)
    if kind == "solid":
        rows = [[FULL] * n for _ in range(n)]
    else:
        tiles = {"noise": (FULL,), "plain cells": (FULL,), "noise, halves": (FULL, HALF),
                 "mix": (FULL, HALF, SLOPE)}[kind]
        turned = kind in ("noise, halves", "mix")
        rows = [[(rng.choice(tiles) | (rng.choice(FLIPS) if turned else 0)) if rng.random() < 0.5 else -1
                 for _ in range(n)] for _ in range(n)]
    rows[n // 2][n // 2] = -1
    return tuple(tuple(row) for row in rows)


def painted_level(kind: str, n: int, seed: int = 0) -> Level:
    rows = painted_rows(kind, n, seed)
    spawn = Player(spawn=((n // 2 + 0.5) * CELL, (n // 2 + 0.5) * CELL), radius=6.0)
    if kind == "plain cells":
        cells = tuple("".join("." if v < 0 else "#" for v in row) for row in rows)
        grid = Tiles("grid", (0, 0), CELL, cells)
    else:
        grid = Tiles("grid", (0, 0), CELL, (), tileset="ts", tiles=rows)
    return Level(player=spawn, objects=(grid,), tilesets=(TILESET,))


def sprite_level(count: int, seed: int = 0) -> Level:
    """``count`` solid sprites of the full-cell tile, 32 x 24 px, on a field of about 80 x 80 px each."""
    rng = random.Random(seed)
    side = (count ** 0.5) * 80.0
    sprites = tuple(Sprite(f"sprite-{k}", (rng.uniform(0, side), rng.uniform(0, side)), (32, 24),
                           rotation=rng.uniform(0, 360) if k % 4 == 0 else 0.0, tileset="ts", tile=FULL, solid=True)
                    for k in range(count))
    return Level(player=Player(spawn=(-100, -100), radius=6.0), objects=sprites, tilesets=(TILESET,))


def _best(runs: int, make: Callable[[], Level], work: Callable[[Level], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        level = make()
        model._ART_SHAPES_CACHE.clear()
        gc.collect()
        start = time.perf_counter()
        work(level)
        best = min(best, time.perf_counter() - start)
    return best


def measure(name: str, make: Callable[[], Level], runs: int) -> dict:
    """The phases' times (seconds) of the level ``make()`` gives, each the best of ``runs``."""
    def shapes(level):
        for obj in level.objects:
            obj.collision_shapes()

    def warm(level):  # the shapes are worked out once per grid; the phases after the first find them made
        shapes(level)
        return level

    level = warm(make())
    outlines = level_outlines(level)
    solid = outlines.solid_only()
    row = {"level": name, "cells": _cells(level)}
    row["shapes"] = _best(runs, make, shapes)
    row["outlines"] = _best(runs, lambda: warm(make()), level_outlines)
    row["pieces/gaps"] = _best(runs, lambda: level, lambda lv: _blocking_gaps(lv, cut_into_pieces(solid)))
    row["validation"] = _best(runs, lambda: level, lambda lv: validate_level(lv, outlines))
    row["hulls"] = _best(runs, lambda: level, lambda lv: level_hulls(lv, outlines))
    row["check"] = _best(runs, make, lambda lv: check_level(lv, with_hulls=True))
    result = check_level(make(), with_hulls=True)
    row["problems"] = len(result.problems)
    return row


def _cells(level: Level) -> str:
    grid = level.objects[0]
    if isinstance(grid, Tiles):
        return f"{grid.columns} x {grid.rows}"
    return f"{len(level.objects):,} sprites"


COLUMNS = ("shapes", "outlines", "pieces/gaps", "validation", "hulls", "check")


def format_table(rows: Sequence[dict]) -> str:
    head = "| level | grid | " + " | ".join(f"{c} s" for c in COLUMNS) + " | problems |"
    lines = [head, "|---|---|" + "--:|" * (len(COLUMNS) + 1)]
    for row in rows:
        lines.append(f"| {row['level']} | {row['cells']} | " + " | ".join(f"{row[c]:.2f}" for c in COLUMNS)
                     + f" | {row['problems']} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES), help="grid sides (cells)")
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS, help="which painted grids")
    parser.add_argument("--sprites", type=int, nargs="*", default=list(SPRITES), help="solid sprites per level")
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs")
    args = parser.parse_args(argv)
    rows = []
    for n in args.sizes:
        for kind in args.kinds:
            rows.append(measure(kind, lambda kind=kind, n=n: painted_level(kind, n), args.runs))
            print(format_table(rows[-1:]).splitlines()[-1], flush=True)
    for count in args.sprites:
        rows.append(measure("sprites", lambda count=count: sprite_level(count), args.runs))
        print(format_table(rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
