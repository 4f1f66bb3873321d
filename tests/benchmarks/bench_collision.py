"""Benchmark of the collision core: ``python -m tests.benchmarks.bench_collision``.

Prints ticks per second and microseconds per tick of the play-test
simulation for a circle and a box player on generated levels of 100 to
100,000 objects, then raw ``overlaps`` and ``cast`` calls per second.

The levels keep the same density at every size (the area grows with the
object count), so a good broad phase makes a tick cost the same at 100,000
objects as at 100. The player runs around at its level speed, changing
direction every half second, sliding along whatever it meets.

:func:`benchmark_rows` and :func:`format_table` are plain functions other code
(CI, the README) can call.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Sequence

from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Vec2
from level_editor.core.playtest.simulation import DEFAULT_DT, step
from level_editor.core.collision.sweep import cast
from level_editor.core.collision.world import World

__all__ = ["BenchRow", "generated_level", "benchmark_rows", "call_rates", "format_table", "main"]

#: Average distance between neighbouring objects (px).
SPACING = 56.0


@dataclass(frozen=True)
class BenchRow:
    """One measurement: a player shape on a level of ``objects`` objects."""

    objects: int
    colliders: int
    player: str
    ticks: int
    build_seconds: float
    tick_seconds: float
    mean_candidates: float

    @property
    def ticks_per_second(self) -> float:
        return self.ticks / self.tick_seconds

    @property
    def us_per_tick(self) -> float:
        return self.tick_seconds / self.ticks * 1e6


def generated_level(count: int, player_shape: str = "circle", seed: int = 0) -> Level:
    """A level of ``count`` mixed objects at constant density, player in the middle.

    Walls (2 to 4 nodes), boxes, oriented boxes and pillars sit on a jittered
    grid ``SPACING`` px apart, so the area grows with the count; a closed
    border wall (one more object) keeps the player in.
    """
    rng = random.Random(seed)
    side = max(1, math.ceil(math.sqrt(count)))
    objects = []
    middle = (side // 2, side // 2)
    cells = [(i, j) for j in range(side) for i in range(side) if (i, j) != middle][:count]
    for n, (i, j) in enumerate(cells):
        cx = (i + 0.5) * SPACING + rng.uniform(-10, 10)
        cy = (j + 0.5) * SPACING + rng.uniform(-10, 10)
        kind = n % 4
        if kind == 0:
            pts = [(cx, cy)]
            for _ in range(rng.randint(1, 3)):
                a = rng.uniform(0, math.tau)
                pts.append((pts[-1][0] + 22 * math.cos(a), pts[-1][1] + 22 * math.sin(a)))
            objects.append(Wall(f"wall-{n}", pts, rng.uniform(3, 8)))
        elif kind == 1:
            w, h = rng.uniform(8, 40), rng.uniform(8, 40)
            objects.append(Box(f"box-{n}", (cx - w / 2, cy - h / 2), (w, h)))
        elif kind == 2:
            objects.append(OrientedBox(f"obox-{n}", (cx, cy), (rng.uniform(5, 22), rng.uniform(3, 12)),
                                       rng.uniform(-180, 180)))
        else:
            objects.append(Pillar(f"pillar-{n}", (cx, cy), rng.uniform(4, 16)))
    # A closed border keeps the player inside, however long the run.
    edge = side * SPACING
    objects.append(Wall("border", [(-8, -8), (edge + 8, -8), (edge + 8, edge + 8), (-8, edge + 8)], 8, True))
    spawn = ((middle[0] + 0.5) * SPACING, (middle[1] + 0.5) * SPACING)
    player = Player(spawn=spawn, shape=player_shape, radius=10.0, size=(20.0, 20.0), speed=240.0)
    return Level(name=f"bench-{count}", player=player, objects=tuple(objects))


def _wished(i: int, rng: random.Random, speed: float, state: list) -> Vec2:
    if i % 30 == 0:
        state[0] = rng.uniform(0, math.tau)
    a = state[0]
    return Vec2(speed * math.cos(a), speed * math.sin(a))


def _run(count: int, shape: str, ticks: int, seed: int) -> BenchRow:
    level = generated_level(count, shape, seed)
    t0 = time.perf_counter()
    world = World.from_level(level)
    build = time.perf_counter() - t0
    rng = random.Random(seed + 1)
    state = [0.0]
    velocities = [_wished(i, rng, level.player.speed, state) for i in range(ticks)]
    p = level.player.spawn
    candidates = 0
    t0 = time.perf_counter()
    for v in velocities:
        m = step(world, p, v, DEFAULT_DT)
        p = m.position
        candidates += len(m.candidates)
    elapsed = time.perf_counter() - t0
    return BenchRow(count, len(world), shape, ticks, build, elapsed, candidates / ticks)


def benchmark_rows(counts: Sequence[int] = (100, 1_000, 10_000, 100_000),
                   shapes: Sequence[str] = ("circle", "box"),
                   ticks: int = 3000, seed: int = 0) -> list[BenchRow]:
    """Measure the simulation for every object count and player shape."""
    return [_run(n, shape, ticks, seed) for n in counts for shape in shapes]


def call_rates(calls: int = 20000, seed: int = 0) -> dict[str, float]:
    """Calls per second of ``overlaps`` and ``cast`` on random pairs of shapes."""
    rng = random.Random(seed)

    def target():
        k = rng.randrange(4)
        c = Vec2(rng.uniform(0, 100), rng.uniform(0, 100))
        if k == 0:
            return Rect(c, Vec2(rng.uniform(5, 40), rng.uniform(5, 40)))
        if k == 1:
            return OrientedRect(c, Vec2(rng.uniform(5, 20), rng.uniform(5, 20)), rng.uniform(0, 360))
        if k == 2:
            return Circle(c, rng.uniform(5, 20))
        return Capsule(c, c + Vec2(rng.uniform(-40, 40), rng.uniform(-40, 40)), rng.uniform(1, 5))

    def mover():
        c = Vec2(rng.uniform(0, 100), rng.uniform(0, 100))
        return Circle(c, 10.0) if rng.random() < 0.5 else Rect(c, Vec2(20.0, 20.0))

    pairs = [(mover(), Vec2(rng.uniform(-80, 80), rng.uniform(-80, 80)), target()) for _ in range(calls)]
    t0 = time.perf_counter()
    for a, _, b in pairs:
        overlaps(a, b)
    t_overlap = time.perf_counter() - t0
    t0 = time.perf_counter()
    for a, d, b in pairs:
        cast(a, d, b)
    t_cast = time.perf_counter() - t0
    return {"overlaps": calls / t_overlap, "cast": calls / t_cast}


def format_table(rows: Sequence[BenchRow], rates: dict[str, float] | None = None) -> str:
    """The measurements as a Markdown table (plus the call rates, if given)."""
    lines = [
        "| objects | colliders | player | ticks/s | µs/tick | candidates/tick | world build (s) |",
        "|--------:|----------:|--------|--------:|--------:|----------------:|----------------:|",
    ]
    for r in rows:
        lines.append(f"| {r.objects:,} | {r.colliders:,} | {r.player} | {r.ticks_per_second:,.0f} | "
                     f"{r.us_per_tick:.1f} | {r.mean_candidates:.1f} | {r.build_seconds:.2f} |")
    if rates:
        lines.append("")
        lines.append("| call | calls/s |")
        lines.append("|------|--------:|")
        for name, rate in rates.items():
            lines.append(f"| `{name}` | {rate:,.0f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_collision", description=__doc__.split("\n\n")[0])
    parser.add_argument("--ticks", type=int, default=3000, help="ticks per measurement (default 3000)")
    parser.add_argument("--counts", type=int, nargs="+", default=[100, 1_000, 10_000, 100_000],
                        help="object counts (default 100 1000 10000 100000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rows = benchmark_rows(args.counts, ticks=args.ticks, seed=args.seed)
    print(format_table(rows, call_rates(seed=args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
