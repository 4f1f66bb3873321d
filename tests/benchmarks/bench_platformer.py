"""The platformer tick beside rapier3d's character controller: ``python -m tests.benchmarks.bench_platformer``.

The same level and the same inputs go through two controllers:

- **ours**: :func:`level_editor.core.playtest.simulation.run_replay` on a platformer level (the path of
  ``level-editor simulate``): :mod:`level_editor.core.playtest.platformer`;
- **rapier3d**: ``KinematicCharacterController.move_shape`` with gravity, a slope limit of ``floor_max_angle``
  (climb and slide), snap-to-ground of ``snap_length`` and no autostep, among the level's shapes extruded into
  prisms (x right, y up, the prisms deep along z); the run speed, the jump (on a press, from the ground) and the
  same gravity (from ``jump_height`` and ``jump_time``) are applied by the loop around it, as a game does.

The level (:func:`platformer_level`) is a floor of boxes side by side, 32 px wide: a seam every 32 px, with
ramps up and down (oriented boxes at 20 to 40 degrees), steps and pillars on it; ``count`` objects in all. The
replay runs right, turns back now and then, and jumps every second or so.

Columns, for 1,000 and 100,000 objects and each player shape: mean µs per tick, and two counts of what goes
wrong, by the same measure for both: **inside**, the ticks that end with the player more than 0.01 px inside a
collider; **caught**, the ticks on the floor of boxes with the player asking to run, on the ground before and
after, that advance less than half the run (a seam caught; ramps, steps and pillars are not in that count:
their ticks are left out).

``--quick`` runs 100 and 1,000 objects and a short replay, in seconds. The machine's other work shows in the
figures: run it several times.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Optional, Sequence

from level_editor.core.collision.sweep import core_of
from level_editor.core.collision.world import World
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player
from level_editor.core.playtest.platformer import Platformer
from level_editor.core.playtest.replay import Replay
from level_editor.core.playtest.simulation import DEFAULT_DT, run_replay

__all__ = ["COUNTS", "QUICK_COUNTS", "SHAPES", "platformer_level", "platformer_replay", "Result", "run_ours",
           "run_rapier", "measure", "format_table", "main"]

COUNTS = (1_000, 100_000)
QUICK_COUNTS = (100, 1_000)
SHAPES = ("box", "circle")
TICKS = 3000
QUICK_TICKS = 300
FLOOR_Y = 0.0
CELL = 32.0
_PRISM = 50.0
#: A tick ends "inside" a collider when the player is deeper in it than this (px).
INSIDE = 0.01


def platformer_level(count: int, player_shape: str = "box", seed: int = 0) -> Level:
    """A floor of ``count`` objects: boxes side by side, with ramps, steps and pillars on it (seeded)."""
    rng = random.Random(seed)
    objects = []
    x = 0.0
    n = 0
    while len(objects) < count:
        objects.append(Box(f"floor-{n}", (x, FLOOR_Y), (CELL, CELL)))
        roll = rng.random()
        if roll < 0.03 and len(objects) < count:
            angle = rng.uniform(20, 40)
            length = rng.uniform(40, 120)
            a = math.radians(angle)
            h = 4.0
            side = rng.choice((-1, 1))
            cx = x + CELL / 2 + side * (length / 2 * math.cos(a))
            cy = FLOOR_Y - length / 2 * math.sin(a) + h * math.cos(a)
            objects.append(OrientedBox(f"ramp-{n}", (cx, cy), (length / 2, h), -side * angle))
        elif roll < 0.05 and len(objects) < count:
            objects.append(Box(f"step-{n}", (x, FLOOR_Y - 12), (CELL * 2, 12)))
        elif roll < 0.06 and len(objects) < count:
            objects.append(Pillar(f"pillar-{n}", (x + CELL / 2, FLOOR_Y - 6), 10))
        x += CELL
        n += 1
    half = 15.0 if player_shape == "box" else 12.0
    player = Player(spawn=(CELL * 2, FLOOR_Y - half - 40), shape=player_shape, size=(20, 30), radius=12,
                    speed=240, controller="platformer")
    return Level(player=player, objects=tuple(objects[:count]))


def platformer_replay(ticks: int, seed: int = 1) -> Replay:
    """Run right (now and then back), jumping every second or so, held for a varying time."""
    rng = random.Random(seed)
    inputs = []
    direction = 1
    for i in range(ticks):
        if i % 240 == 200:
            direction = -direction
        if i % 240 == 0:
            direction = 1
        jump = 1 if (i % 70) < rng.choice((3, 10, 20)) and i % 70 < 20 else 0
        inputs.append((direction, 0, jump))
    return Replay(DEFAULT_DT, inputs=inputs)


@dataclass(frozen=True)
class Result:
    """One controller on one level and replay."""

    tick_seconds: float
    ticks: int
    inside: int
    caught: int
    end: tuple[float, float]

    @property
    def us_per_tick(self) -> float:
        return self.tick_seconds / self.ticks * 1e6 if self.ticks else 0.0


def _judge(level: Level, positions, grounded, inputs) -> tuple[int, int]:
    """``(inside, caught)`` of a run, by the same measure for every controller (see the module)."""
    world = World.from_level(level)
    hx, _ = world.half_extents
    blocked = [(o.bounds()[0] - hx - 2, o.bounds()[2] + hx + 2) for o in level.objects
               if not o.id.startswith("floor-")]
    inside = caught = 0
    run = level.player.speed * DEFAULT_DT
    for i, (x, y) in enumerate(positions):
        for c in world.near_indices(x - 1, y - 1, x + 1, y + 1):
            if world.obstacle(c).gap(x, y)[0] < -INSIDE:
                inside += 1
                break
        if i == 0 or not (grounded[i] and grounded[i - 1]) or inputs[i][0] == 0:
            continue
        px = positions[i - 1][0]
        if any(a <= px <= b or a <= x <= b for a, b in blocked):
            continue
        if abs(x - px) < 0.5 * run:
            caught += 1
    return inside, caught


def run_ours(level: Level, replay: Replay) -> Result:
    world = Platformer.prepare(level)  # the build, timed apart as rapier3d's is
    t0 = time.perf_counter()
    trace = run_replay(level, replay, world=world)
    seconds = time.perf_counter() - t0
    positions = [(p.x, p.y) for p in trace.positions]
    inside, caught = _judge(level, positions, trace.on_floor, replay.inputs)
    return Result(seconds, len(positions), inside, caught, positions[-1])


def run_rapier(level: Level, replay: Replay) -> Optional[Result]:
    try:
        import rapier3d as r
    except ImportError:
        return None
    h = _PRISM
    colliders = r.ColliderSet()
    bodies = r.RigidBodySet()
    for shape in level.collision_shapes():
        pts, radius = core_of(shape)
        if len(pts) == 1:
            builder = r.Collider.cylinder(h, radius).rotation((math.pi / 2, 0.0, 0.0)) \
                .translation((pts[0][0], -pts[0][1], 0.0))
        else:
            prism = [(x, -y, z) for x, y in pts for z in (-h, h)]
            builder = r.Collider.round_convex_hull(prism, radius) if radius else r.Collider.convex_hull(prism)
        colliders.insert(builder.build())
    broad, narrow = r.BroadPhaseBvh(), r.NarrowPhase()
    r.CollisionPipeline().step(0.0, r.IslandManager(), broad, narrow, bodies, colliders)
    queries = r.QueryPipeline(broad, narrow, bodies, colliders)
    p = level.player
    if p.shape == "box":
        body = r.SharedShape.cuboid(p.size.x / 2, p.size.y / 2, h / 4)
    else:
        body = r.SharedShape.ball(p.radius)
    angle = math.radians(p.floor_max_angle)
    controller = r.KinematicCharacterController(
        up=(0.0, 1.0, 0.0), offset=r.CharacterLength.absolute(1e-3), slide=True, autostep=None,
        max_slope_climb_angle=angle, min_slope_slide_angle=angle,
        snap_to_ground=r.CharacterLength.absolute(p.snap_length))
    gravity = 2.0 * p.jump_height / p.jump_time ** 2
    jump_speed = 2.0 * p.jump_height / p.jump_time
    dt = replay.dt
    x, y = p.spawn  # ours: y down; rapier: up is -y
    vy = 0.0  # upward, px/s
    grounded = False
    held = False
    positions, floors = [], []
    move_shape = controller.move_shape
    at = r.Isometry3.from_translation
    t0 = time.perf_counter()
    for move_x, _move_y, jump in replay.inputs:
        pressed = jump and not held
        held = bool(jump)
        if grounded and pressed:
            vy = jump_speed
            grounded = False
        vy0 = vy
        if not grounded:
            vy = max(vy - gravity * dt, -p.max_fall_speed)
        else:
            vy = 0.0
        dy_up = 0.5 * (vy0 + vy) * dt
        mv = move_shape(dt, bodies, colliders, queries, body, at(x, -y, 0.0), (move_x * p.speed * dt, dy_up, 0.0))
        t = mv.translation
        x += t.x
        y -= t.y
        grounded = mv.grounded
        if grounded and vy < 0:
            vy = 0.0
        if vy > 0 and t.y < dy_up * 0.5:
            vy = 0.0  # a ceiling
        positions.append((x, y))
        floors.append(grounded)
    seconds = time.perf_counter() - t0
    inside, caught = _judge(level, positions, floors, replay.inputs)
    return Result(seconds, len(positions), inside, caught, (x, y))


ENGINES = (("ours", run_ours), ("rapier3d", run_rapier))


@dataclass(frozen=True)
class Row:
    objects: int
    shape: str
    results: dict


def measure(counts: Sequence[int] = COUNTS, ticks: int = TICKS, shapes: Sequence[str] = SHAPES,
            seed: int = 0) -> list[Row]:
    """Both controllers on every level size and player shape (each warmed up on a tiny level first)."""
    warm_level, warm_replay = platformer_level(20, "box", seed), platformer_replay(10, seed + 1)
    for _, run in ENGINES:
        run(warm_level, warm_replay)
    rows = []
    replay = platformer_replay(ticks, seed + 1)
    for n in counts:
        for shape in shapes:
            level = platformer_level(n, shape, seed)
            rows.append(Row(n, shape, {name: run(level, replay) for name, run in ENGINES}))
    return rows


def _cell(r: Optional[Result]) -> str:
    return "n/a | n/a | n/a" if r is None else f"{r.us_per_tick:.1f} | {r.inside} | {r.caught}"


def format_table(rows: Sequence[Row]) -> str:
    """A Markdown table: per controller µs per tick, ticks ending inside geometry, ticks caught on a seam."""
    names = [name for name, _ in ENGINES]
    head = "| objects | player | " + " | ".join(f"{n} µs/tick | {n} inside | {n} caught" for n in names) + \
        " | ours / rapier3d (tick) |"
    rule = "|--------:|:------|" + "------:|------:|------:|" * len(names) + "------:|"
    lines = [head, rule]
    for row in rows:
        ours, peer = row.results.get("ours"), row.results.get("rapier3d")
        ratio = "n/a" if ours is None or peer is None else f"{ours.tick_seconds / peer.tick_seconds:.2f}x"
        cells = " | ".join(_cell(row.results.get(n)) for n in names)
        lines.append(f"| {row.objects:,} | {row.shape} | {cells} | {ratio} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_platformer",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_COUNTS} objects, {QUICK_TICKS} ticks")
    parser.add_argument("--ticks", type=int, help=f"ticks per replay (default {TICKS}, {QUICK_TICKS} quick)")
    parser.add_argument("--counts", type=int, nargs="+", help="object counts (default 1000 100000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    counts = args.counts or (QUICK_COUNTS if args.quick else COUNTS)
    ticks = args.ticks if args.ticks is not None else (QUICK_TICKS if args.quick else TICKS)
    if ticks < 1 or any(n < 1 for n in counts):
        parser.error("ticks and counts must be at least 1")
    print(format_table(measure(counts, ticks, SHAPES, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
