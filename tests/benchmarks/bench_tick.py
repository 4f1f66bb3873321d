"""The play-test tick side by side with rapier3d and pymunk: ``python -m tests.benchmarks.bench_tick``.

The same generated level (:func:`level_editor.core.level.generate.generate_level`, closed
by a border wall so that no run leaves it through an outer door) and the same
replay go through three engines:

- **ours**: :func:`level_editor.core.playtest.simulation.run_replay`, the path of
  ``level-editor simulate`` (the world built apart so that it is timed apart);
- **rapier3d** (Rust, through its Python bindings): the kinematic character
  controller (``KinematicCharacterController.move_shape``) among the level's
  shapes extruded into prisms, the player a cylinder (or a cuboid) moving in
  the x-z plane;
- **pymunk** (Chipmunk2D, C): a dynamic body whose velocity is set to the
  wished one every tick, among static shapes, one ``Space.step`` per tick.

Columns: the world build (ms: every collider made and the broad phase ready)
and the mean µs per tick, for 1,000 and 100,000 objects at 240 px/s (a
walk) and 20,000 px/s (333 px per tick, a stress of the sweeps). ``--quick``
runs 100 and 1,000 objects with a short replay, in a few seconds, for CI.
The machine's other work shows up in the figures: run it several times.

``--wild`` times ours alone on issue 23's replay instead: 1,000,000 ticks alternating
between +1e300 and -1e300 px/s (along x, then along the diagonal) on an open level,
on ``levels/showcase.json`` and on a generated 10,000-object level (no border: the
player may fly out through a door). Such a tick walks the cells along its motion and
stops at the first contact, so it costs what its motion up to that contact costs, not
the level (a tick wedged in a corner still slides up to 12 times).

:func:`tick_level`, :func:`tick_replay`, :func:`measure` and
:func:`format_table` are plain functions other code can call.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from level_editor.core.collision.sweep import core_of
from level_editor.core.collision.world import World
from level_editor.core.level.format.read import load_level
from level_editor.core.level.generate import generate_level
from level_editor.core.level.model import Box, Level, Player, Wall
from level_editor.core.playtest.replay import Replay
from level_editor.core.playtest.simulation import DEFAULT_DT, run_replay

__all__ = ["COUNTS", "QUICK_COUNTS", "SPEEDS", "ENGINES", "Timing", "Row", "tick_level", "tick_replay",
           "measure", "format_table", "WILD_TICKS", "WILD_SPEED", "wild_replay", "wild_levels", "measure_wild",
           "main"]

COUNTS = (1_000, 100_000)
QUICK_COUNTS = (100, 1_000)
SPEEDS = (240.0, 20_000.0)
TICKS = 3000
QUICK_TICKS = 200

#: Height (3D units) of the prisms the level's shapes become in rapier3d.
_PRISM = 50.0


def tick_level(count: int, player_shape: str = "circle", seed: int = 0) -> Level:
    """The generated level of ``count`` objects, plus a closed border wall 64 px outside it."""
    level = generate_level(count, seed=seed, player_shape=player_shape)
    x0, y0, x1, y1 = level.bounds()
    m = 64.0
    border = Wall("border", [(x0 - m, y0 - m), (x1 + m, y0 - m), (x1 + m, y1 + m), (x0 - m, y1 + m)], 8.0, True)
    return level.with_objects(level.objects + (border,))


def tick_replay(speed: float, ticks: int, seed: int = 1) -> Replay:
    """A run at ``speed`` px/s that turns to a random direction every half second."""
    rng = random.Random(seed)
    velocities = []
    a = 0.0
    for i in range(ticks):
        if i % 30 == 0:
            a = rng.uniform(0.0, math.tau)
        velocities.append((speed * math.cos(a), speed * math.sin(a)))
    return Replay(DEFAULT_DT, velocities)


@dataclass(frozen=True)
class Timing:
    """One engine on one level and replay: build (s), ticks (s), and where the player ended."""

    build_seconds: float
    tick_seconds: float
    ticks: int
    end: tuple[float, float]

    @property
    def build_ms(self) -> float:
        return self.build_seconds * 1e3

    @property
    def us_per_tick(self) -> float:
        return self.tick_seconds / max(1, self.ticks) * 1e6


@dataclass(frozen=True)
class Row:
    """Every engine's :class:`Timing` (None when the engine is not installed) for one level and speed."""

    objects: int
    speed: float
    timings: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------
# The engines: each builds its world from the level, then plays the replay.


def _ours(level: Level, replay: Replay) -> Timing:
    t0 = time.perf_counter()
    world = World.from_level(level)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    trace = run_replay(level, replay, world=world)
    ticks = time.perf_counter() - t0
    end = trace.positions[-1] if trace.positions else trace.start
    return Timing(build, ticks, len(replay.velocities), (end.x, end.y))


def _rapier(level: Level, replay: Replay) -> Optional[Timing]:
    try:
        import rapier3d as r
    except ImportError:
        return None
    h = _PRISM
    t0 = time.perf_counter()
    colliders = r.ColliderSet()
    bodies = r.RigidBodySet()
    for shape in level.collision_shapes():
        pts, radius = core_of(shape)
        if len(pts) == 1:
            builder = r.Collider.cylinder(h, radius).translation((pts[0][0], 0.0, pts[0][1]))
        else:
            prism = [(x, y, z) for x, z in pts for y in (-h, h)]
            builder = r.Collider.round_convex_hull(prism, radius) if radius else r.Collider.convex_hull(prism)
        colliders.insert(builder.build())
    broad, narrow = r.BroadPhaseBvh(), r.NarrowPhase()
    r.CollisionPipeline().step(0.0, r.IslandManager(), broad, narrow, bodies, colliders)
    queries = r.QueryPipeline(broad, narrow, bodies, colliders)
    build = time.perf_counter() - t0
    player = level.player
    if player.shape == "box":
        body = r.SharedShape.cuboid(player.size.x / 2, h / 2, player.size.y / 2)
    else:
        body = r.SharedShape.cylinder(h / 2, player.radius)
    controller = r.KinematicCharacterController(up=(0.0, 1.0, 0.0), offset=1e-3, slide=True, autostep=None,
                                                snap_to_ground=None)
    x, z = player.spawn
    dt = replay.dt
    move_shape = controller.move_shape
    at = r.Isometry3.from_translation
    t0 = time.perf_counter()
    for v in replay.velocities:
        moved = move_shape(dt, bodies, colliders, queries, body, at(x, 0.0, z), (v.x * dt, 0.0, v.y * dt)).translation
        x += moved.x
        z += moved.z
    ticks = time.perf_counter() - t0
    return Timing(build, ticks, len(replay.velocities), (x, z))


def _pymunk(level: Level, replay: Replay) -> Optional[Timing]:
    try:
        import pymunk
    except ImportError:
        return None
    t0 = time.perf_counter()
    space = pymunk.Space()
    static = space.static_body
    shapes = []
    for shape in level.collision_shapes():
        pts, radius = core_of(shape)
        if len(pts) == 1:
            shapes.append(pymunk.Circle(static, radius, pts[0]))
        elif len(pts) == 2:
            shapes.append(pymunk.Segment(static, pts[0], pts[1], radius))
        else:
            shapes.append(pymunk.Poly(static, pts, radius=radius))
    for s in shapes:
        s.friction = 0.0
    space.add(*shapes)
    space.step(1e-9)  # the static shapes indexed before the first tick, as the others are
    build = time.perf_counter() - t0
    player = level.player
    body = pymunk.Body(1.0, math.inf)
    body.position = tuple(player.spawn)
    if player.shape == "box":
        me = pymunk.Poly.create_box(body, tuple(player.size))
    else:
        me = pymunk.Circle(body, player.radius)
    me.friction = 0.0
    space.add(body, me)
    dt = replay.dt
    step = space.step
    t0 = time.perf_counter()
    for v in replay.velocities:
        body.velocity = (v.x, v.y)
        step(dt)
    ticks = time.perf_counter() - t0
    end = body.position
    return Timing(build, ticks, len(replay.velocities), (end.x, end.y))


#: Column name and runner of every engine, ours first.
ENGINES: tuple[tuple[str, Callable[[Level, Replay], Optional[Timing]]], ...] = (
    ("ours", _ours),
    ("rapier3d", _rapier),
    ("pymunk", _pymunk),
)


def measure(counts: Sequence[int] = COUNTS, speeds: Sequence[float] = SPEEDS, ticks: int = TICKS,
            player_shape: str = "circle", seed: int = 0) -> list[Row]:
    """Every engine on every level size and speed: one :class:`Row` each.

    Each engine first plays a tiny level once, so that no column pays for a
    library's one-time start-up (rapier3d's first world takes ~100 ms more).
    """
    warm_up, warm_replay = tick_level(10, player_shape, seed), tick_replay(240.0, 5, seed + 1)
    for _, run in ENGINES:
        run(warm_up, warm_replay)
    rows = []
    for n in counts:
        level = tick_level(n, player_shape, seed)
        for speed in speeds:
            replay = tick_replay(speed, ticks, seed + 1)
            rows.append(Row(n, speed, {name: run(level, replay) for name, run in ENGINES}))
    return rows


def _cell(t: Optional[Timing]) -> str:
    return "n/a | n/a" if t is None else f"{t.build_ms:,.0f} | {t.us_per_tick:.1f}"


def format_table(rows: Sequence[Row]) -> str:
    """The measurements as a Markdown table: build (ms) and µs per tick per engine, and ours against rapier3d."""
    names = [name for name, _ in ENGINES]
    head = "| objects | px/s | " + " | ".join(f"{n} build (ms) | {n} µs/tick" for n in names) + \
        " | ours / rapier3d (build, tick) |"
    rule = "|--------:|-----:|" + "------:|------:|" * len(names) + "------:|"
    lines = [head, rule]
    for row in rows:
        cells = " | ".join(_cell(row.timings.get(n)) for n in names)
        ours, peer = row.timings.get("ours"), row.timings.get("rapier3d")
        if ours is None or peer is None:
            ratio = "n/a"
        else:
            ratio = f"{ours.build_seconds / peer.build_seconds:.2f}x, {ours.tick_seconds / peer.tick_seconds:.2f}x"
        lines.append(f"| {row.objects:,} | {row.speed:,.0f} | {cells} | {ratio} |")
    return "\n".join(lines)


#: The replay of issue 23, item 7: this many ticks alternating between +WILD_SPEED and -WILD_SPEED px/s.
WILD_TICKS = 1_000_000
WILD_SPEED = 1e300


def wild_replay(direction: tuple[float, float], ticks: int = WILD_TICKS) -> Replay:
    """``ticks`` ticks alternating between ``+WILD_SPEED`` and ``-WILD_SPEED`` px/s along ``direction``."""
    there = (direction[0] * WILD_SPEED, direction[1] * WILD_SPEED)
    back = (-there[0], -there[1])
    return Replay(DEFAULT_DT, [there if k % 2 == 0 else back for k in range(ticks)])


def wild_levels() -> list[tuple[str, Level]]:
    """The levels of the wild run: an open one, the showcase and a generated 10,000-object level."""
    showcase = Path(__file__).resolve().parents[2] / "levels" / "showcase.json"
    return [("open level (one box)", Level(player=Player(spawn=(0, 0), radius=12),
                                            objects=(Box("crate", (200, -20), (40, 40)),))),
            ("levels/showcase.json", load_level(showcase)),
            ("generated, 10,000 objects", generate_level(10_000, seed=0))]


def measure_wild(ticks: int = WILD_TICKS) -> str:
    """Ours on the wild replay, along x and along the diagonal: a Markdown table of seconds and µs per tick."""
    lines = ["| level | colliders | along | ticks | seconds | µs/tick |", "|---|--:|---|--:|--:|--:|"]
    for name, level in wild_levels():
        for along, direction in (("x", (1.0, 0.0)), ("diagonal", (1.0, 1.0))):
            t = _ours(level, wild_replay(direction, ticks))
            colliders = len(World.from_level(level))
            lines.append(f"| {name} | {colliders:,} | {along} | {ticks:,} | {t.tick_seconds:.1f} | "
                         f"{t.us_per_tick:.1f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_tick",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 objects, 200 ticks (a few seconds)")
    parser.add_argument("--ticks", type=int, help=f"ticks per replay (default {TICKS}, {QUICK_TICKS} quick)")
    parser.add_argument("--counts", type=int, nargs="+", help="object counts (default 1000 100000)")
    parser.add_argument("--player", choices=("circle", "box"), default="circle")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wild", action="store_true",
                        help=f"ours alone, {WILD_TICKS:,} ticks alternating +-{WILD_SPEED:g} px/s (--ticks to change)")
    args = parser.parse_args(argv)
    counts = args.counts or (QUICK_COUNTS if args.quick else COUNTS)
    ticks = args.ticks if args.ticks is not None else (QUICK_TICKS if args.quick else TICKS)
    if ticks < 1 or any(n < 0 for n in counts):
        parser.error("ticks must be at least 1 and counts 0 or more")
    if args.wild:
        print(measure_wild(args.ticks if args.ticks is not None else WILD_TICKS))
        return 0
    print(format_table(measure(counts, SPEEDS, ticks, args.player, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
