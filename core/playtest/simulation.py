"""The play-test simulation: fixed ticks of the character controller in a static world.

One code path for ``level-editor simulate`` and the editor's play-test: build
the :class:`~core.collision.world.World` once from a level, then each tick turn the
wished velocity into a displacement (``velocity * dt``) and let
:func:`core.collision.mover.move` move and slide the player. Nothing else carries
over between ticks (no hidden velocity), so a replay is a complete record and
:func:`run_replay` is bit-for-bit deterministic.

Each tick also yields a :class:`TickDebug`, plain data for a debug overlay:
broad-phase candidates, contact points and normals, the slide direction and
the swept body.

>>> from core.level.model import Level, Player, Box
>>> level = Level(player=Player(spawn=(0, 0), radius=5), objects=(Box("b", (20, -50), (10, 100)),))
>>> sim = Simulation(level, dt=0.5)
>>> sim.step((10, 0))
Vec2(x=5.0, y=0.0)
>>> round(sim.step((100, 0)).x, 6)  # stops a skin's width short of the box
14.999
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from core.collision.mover import Move, move
from core.playtest.replay import Replay, Trace
from core.collision.rounded import convex_hull
from core.collision.shapes import Capsule, Circle, Vec2, as_vec2
from core.collision.world import World

__all__ = ["DEFAULT_DT", "ContactInfo", "TickDebug", "Simulation", "step", "run_replay"]

#: The editor's play-test tick (s).
DEFAULT_DT = 1.0 / 60.0


@dataclass(frozen=True)
class ContactInfo:
    """A contact for drawing: where, which way the surface pushes, and which object."""

    point: Vec2
    normal: Vec2
    collider: int
    object_id: str


@dataclass(frozen=True)
class TickDebug:
    """What happened during one tick, as plain values a view can draw.

    Attributes
    ----------
    tick : int
        Number of the tick (0 for the first).
    start, end : Vec2
        The player's centre before and after the tick.
    wished : Vec2
        The wished velocity (px/s).
    candidates : tuple of int
        Colliders the broad phase returned (indices into ``World.colliders``).
    candidate_ids : tuple of str
        The level objects those colliders belong to, without repeats.
    contacts : tuple of ContactInfo
        Surfaces met, with contact points and normals.
    slide : Vec2 or None
        Unit direction of the last piece of motion.
    path : tuple of Vec2
        The centre's path: start (after any push-out) and every stop.
    swept : tuple
        The body swept along each piece of the path: a ``Capsule`` for a
        circle player, the outline (a tuple of ``Vec2``) for a box player.
    pushed_out : Vec2
        Push-out applied because the tick started overlapping.
    """

    tick: int
    start: Vec2
    end: Vec2
    wished: Vec2
    candidates: tuple
    candidate_ids: tuple
    contacts: tuple
    slide: Optional[Vec2]
    path: tuple
    swept: tuple
    pushed_out: Vec2

    @property
    def contact_count(self) -> int:
        return len(self.contacts)


def _swept(body, a: Vec2, b: Vec2):
    if isinstance(body, Circle):
        return Capsule(a, b, body.radius)
    hx, hy = body.size.x / 2, body.size.y / 2
    corners = [(sx * hx, sy * hy) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    pts = convex_hull([(p.x + cx, p.y + cy) for p in (a, b) for cx, cy in corners])
    return tuple(Vec2(x, y) for x, y in pts)


def _check_velocity(v) -> Vec2:
    w = as_vec2(v)
    if not (math.isfinite(w.x) and math.isfinite(w.y)):
        raise ValueError(f"wished velocity must be finite, got ({w.x}, {w.y})")
    return w


def step(world: World, position, wished_velocity, dt: float) -> Move:
    """One tick: move the player's centre with the wished velocity for ``dt`` seconds.

    A pure function of its arguments; :class:`Simulation` keeps the position.
    """
    if not (math.isfinite(dt) and dt > 0.0):
        raise ValueError(f"dt must be a finite number > 0, not {dt!r}")
    v = _check_velocity(wished_velocity)
    return move(world, position, Vec2(v.x * dt, v.y * dt))


class Simulation:
    """A running play-test: the static world, the player's position and the tick count.

    Parameters
    ----------
    level : core.level.model.Level
        The level; its geometry is read once.
    start : Vec2, optional
        Where the player starts (the editor's Shift+F5 uses the mouse
        position); the spawn by default.
    dt : float
        The fixed tick (s).
    """

    def __init__(self, level, start=None, dt: float = DEFAULT_DT):
        if not (isinstance(dt, (int, float)) and math.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be a finite number > 0, not {dt!r}")
        self.level = level
        self.dt = float(dt)
        self.world = World.from_level(level)
        self.start = as_vec2(level.player.spawn if start is None else start)
        self.position = self.start
        self.tick = 0
        self.last: Optional[TickDebug] = None

    def reset(self, start=None) -> None:
        """Back to the start (or to ``start``), tick 0."""
        self.start = as_vec2(self.start if start is None else start)
        self.position = self.start
        self.tick = 0
        self.last = None

    def step(self, wished_velocity) -> Vec2:
        """Advance one tick with the wished velocity (px/s); returns the new centre."""
        v = _check_velocity(wished_velocity)
        before = self.position
        m = step(self.world, before, v, self.dt)
        colliders = self.world.colliders
        body = self.world.body
        ids = tuple(dict.fromkeys(colliders[i].object_id for i in m.candidates))
        self.last = TickDebug(
            tick=self.tick,
            start=before,
            end=m.position,
            wished=v,
            candidates=m.candidates,
            candidate_ids=ids,
            contacts=tuple(ContactInfo(c.point, c.normal, c.collider, colliders[c.collider].object_id)
                           for c in m.contacts),
            slide=m.slide,
            path=m.path,
            swept=tuple(_swept(body, a, b) for a, b in zip(m.path, m.path[1:])),
            pushed_out=m.pushed_out,
        )
        self.position = m.position
        self.tick += 1
        return m.position


def run_replay(level, replay: Replay) -> Trace:
    """Play a replay on a level; the same inputs always give the same trace, bit for bit.

    The player starts at the replay's ``start`` when it has one, else at the spawn.

    Examples
    --------
    >>> from core.level.model import Level, Player
    >>> run_replay(Level(player=Player(spawn=(0, 0))), Replay(0.5, [(2, 0), (0, 4)])).positions
    (Vec2(x=1.0, y=0.0), Vec2(x=1.0, y=2.0))
    """
    world = World.from_level(level)
    start = as_vec2(level.player.spawn if replay.start is None else replay.start)
    position = start
    positions = []
    for v in replay.velocities:
        position = step(world, position, v, replay.dt).position
        positions.append(position)
    return Trace(start, tuple(positions))
