"""The play-test simulation: fixed ticks of the character controller in a static world.

One code path for ``level-editor simulate`` and the editor's play-test: build
the :class:`~level_editor.core.collision.world.World` once from a level, then each tick turn the
wished velocity into a displacement (``velocity * dt``) and let
:func:`level_editor.core.collision.mover.move` move and slide the player. Nothing else carries
over between ticks (no hidden velocity), so a replay is a complete record and
:func:`run_replay` is bit-for-bit deterministic.

Each tick also yields a :class:`TickDebug`, plain data for a debug overlay:
broad-phase candidates, contact points and normals, the slide direction and
the swept body, and the areas entered and left.

Areas are the objects that are not solid (a trigger box, a zone, a non-solid
wall, pillar or tile grid; markers and images are not areas). The rule for
their events, the same here as in the trace that ``simulate`` writes:

- After every tick the player's body (circle or box, at its centre at the
  *end* of the tick) is tested against every area near it with
  :func:`level_editor.core.collision.overlaps`; touching counts.
- An area it overlaps now and did not after the previous tick is entered,
  one it no longer overlaps is left. Before tick 0 it is in no area, so an
  area the player starts in is entered at tick 0 (a player that starts in
  one and is out of it by the end of tick 0 never entered it). What happens
  in the middle of a tick is not looked at: one very fast tick straight
  through a small area reports nothing.
- Events are ``(tick, "enter" | "leave", object id)``: ticks in order, and
  within a tick the leaves before the enters, each in level object order.

>>> from level_editor.core.level.model import Level, Player, Box
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

from level_editor.core.collision.mover import Move, move, move_xy
from level_editor.core.playtest.replay import ENTER, LEAVE, Replay, Trace
from level_editor.core.collision.rounded import convex_hull
from level_editor.core.collision.shapes import Capsule, Circle, Vec2, as_vec2
from level_editor.core.collision.world import World
from level_editor.core.collision.kinematic import KinematicWorld
from level_editor.core.playtest.moving_objects import MovingObjects, split_level
from level_editor.core.playtest.platformer import Platformer, PlatformerDebug

__all__ = ["DEFAULT_DT", "ContactInfo", "TickDebug", "Simulation", "step", "area_changes", "wished_velocity",
           "run_replay"]

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
    left, entered : tuple of str
        Areas (object ids) the player stopped or started overlapping this
        tick, in level object order (see the module's rule for events).
    inside : tuple of str
        Every area the player overlaps at the end of the tick.
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
    left: tuple = ()
    entered: tuple = ()
    inside: tuple = ()
    #: The platformer's state after the tick (velocity, floor, snap probe, jump timers); None when top-down.
    platformer: Optional[PlatformerDebug] = None

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


def area_changes(before: tuple, after: tuple) -> tuple[tuple, tuple]:
    """The areas ``(left, entered)`` between two tuples of area ids in level object order.

    >>> area_changes(("a", "b"), ("b", "c"))
    (('a',), ('c',))
    """
    if before == after:
        return (), ()
    return tuple(i for i in before if i not in after), tuple(i for i in after if i not in before)


def _record(events: list, tick: int, left: tuple, entered: tuple) -> None:
    events.extend((tick, LEAVE, i) for i in left)
    events.extend((tick, ENTER, i) for i in entered)


def wished_velocity(speed: float, move_x: float, move_y: float) -> Vec2:
    """The top-down player's wished velocity (px/s) for one tick of input: ``speed * (move_x, move_y)``.

    The one expression for a version 2 replay's ticks (:func:`run_replay`) and
    a game's (:meth:`level_editor.core.runtime.Player.step`), so that both move
    the player alike, bit for bit. The inputs are checked by the caller
    (:func:`level_editor.core.playtest.replay.input_problem`).

    >>> wished_velocity(240.0, 1, -0.5)
    Vec2(x=240.0, y=-120.0)
    """
    return Vec2(speed * float(move_x), speed * float(move_y))


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
    level : level_editor.core.level.model.Level
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
        self.start = as_vec2(level.player.spawn if start is None else start)
        #: The platformer player, for a level whose player's controller is "platformer"; None when top-down.
        self.platformer: Optional[Platformer] = None
        #: The objects that move along paths in a top-down level (None: nothing moves).
        self.moving: Optional[MovingObjects] = None
        if level.player.controller == "platformer":
            self.platformer = Platformer(level, self.start, self.dt)
            self.world = self.platformer.world.static  # its areas, and the colliders that stay put
        else:
            self.world, self.moving = top_down_world(level)
        self.position = self.start
        self.tick = 0
        self.last: Optional[TickDebug] = None
        #: The areas the player overlapped at the end of the last tick (none before the first).
        self.inside: tuple = ()
        #: Every ``(tick, "enter" | "leave", object id)`` so far, in order.
        self.events: list[tuple[int, str, str]] = []

    def reset(self, start=None) -> None:
        """Back to the start (or to ``start``), tick 0, in no area and with no events."""
        self.start = as_vec2(self.start if start is None else start)
        self.position = self.start
        if self.platformer is not None:
            self.platformer.x, self.platformer.y = self.start
            self.platformer.reset_state()
        if self.moving is not None:
            self.moving.reset()
        self.tick = 0
        self.last = None
        self.inside = ()
        self.events = []

    @property
    def on_floor(self) -> bool:
        """Whether the player stands on a floor after the last tick (never for a top-down player)."""
        return self.platformer is not None and self.platformer.on_floor

    def step_inputs(self, move_x: float, move_y: float, jump) -> Vec2:
        """Advance one tick with what the player presses (a version 2 replay's tick), for either controller."""
        if self.platformer is None:
            return self.step(wished_velocity(self.level.player.speed, move_x, move_y))
        before = self.position
        body = self.platformer
        end = body.step(move_x, move_y, jump)
        inside, left, entered = self._areas(end)
        self.last = TickDebug(tick=self.tick, start=before, end=end, wished=Vec2(body.vx, body.vy), candidates=(),
                              candidate_ids=(), contacts=(), slide=None, path=(before, end), swept=(),
                              pushed_out=Vec2(0.0, 0.0), left=left, entered=entered, inside=inside,
                              platformer=body.debug())
        self._finish(end, inside, left, entered)
        return end

    def _areas(self, end: Vec2) -> tuple[tuple, tuple, tuple]:
        """``(inside, left, entered)``: the areas the player overlaps at ``end`` and the changes since the last tick."""
        if not self.world.areas:
            return (), (), ()
        inside = self.world.areas_at(end.x, end.y)
        left, entered = area_changes(self.inside, inside)
        return inside, left, entered

    def _finish(self, end: Vec2, inside: tuple, left: tuple, entered: tuple) -> None:
        if left or entered:
            _record(self.events, self.tick, left, entered)
        self.inside = inside
        self.position = end
        self.tick += 1

    def step(self, wished_velocity) -> Vec2:
        """Advance one tick of the top-down player with the wished velocity (px/s); returns the new centre."""
        if self.platformer is not None:
            raise ValueError("a platformer player is moved by what is pressed (step_inputs), not by a velocity")
        v = as_vec2(wished_velocity)  # checked once, by step()
        before = self.position
        if self.moving is not None:
            before = Vec2(*self.moving.advance(self.tick, self.dt, before.x, before.y))  # pushed by what moves
        m = step(self.world, before, v, self.dt)
        object_ids = self.world.object_ids
        body = self.world.body
        ids = tuple(dict.fromkeys(object_ids[i] for i in m.candidates))
        inside, left, entered = self._areas(m.position)
        self.last = TickDebug(
            tick=self.tick,
            start=before,
            end=m.position,
            wished=v,
            candidates=m.candidates,
            candidate_ids=ids,
            contacts=tuple(ContactInfo(c.point, c.normal, c.collider, object_ids[c.collider])
                           for c in m.contacts),
            slide=m.slide,
            path=m.path,
            swept=tuple(_swept(body, a, b) for a, b in zip(m.path, m.path[1:])),
            pushed_out=m.pushed_out,
            left=left,
            entered=entered,
            inside=inside,
        )
        self._finish(m.position, inside, left, entered)
        return m.position


def run_replay(level, replay: Replay, world: Optional[World] = None) -> Trace:
    """Play a replay on a level; the same inputs always give the same trace, bit for bit.

    The player starts at the replay's ``start`` when it has one, else at the
    spawn. A version 2 replay's inputs become velocities with
    :func:`wished_velocity` and the level's player speed (``jump`` is ignored:
    the player is top-down). A platformer level plays a version 2 replay's inputs
    through :class:`~level_editor.core.playtest.platformer.Platformer` and its trace
    also says, per tick, whether the player stands on a floor (a version 1 replay
    of such a level is a ValueError). The trace's ``events`` are the areas entered and left, by the
    module's rule (the same as :attr:`Simulation.events`). ``world`` is the
    level's :class:`World` when the caller built it already (a benchmark
    times the build apart; for a platformer level,
    :meth:`~level_editor.core.playtest.platformer.Platformer.prepare`);
    by default it is built here.

    Examples
    --------
    >>> from level_editor.core.level.model import Box, Level, Player
    >>> level = Level(player=Player(spawn=(0, 0), radius=1), objects=(Box("zone", (2, -5), (10, 10), solid=False),))
    >>> trace = run_replay(level, Replay(0.5, [(2, 0), (0, 4), (0, 20)]))
    >>> trace.positions
    (Vec2(x=1.0, y=0.0), Vec2(x=1.0, y=2.0), Vec2(x=1.0, y=12.0))
    >>> trace.events
    ((0, 'enter', 'zone'), (2, 'leave', 'zone'))
    >>> run_replay(level, Replay(0.5, inputs=[(1, 0, 0), (0, -0.5, 1)])).positions  # the player's speed is 240
    (Vec2(x=120.0, y=0.0), Vec2(x=120.0, y=-60.0))
    """
    if level.player.controller == "platformer":
        return _run_platformer(level, replay, world)
    moving = None
    if world is None:
        world, moving = top_down_world(level)
    start = as_vec2(level.player.spawn if replay.start is None else replay.start)
    positions = []
    events: list = []
    inside: tuple = ()
    areas_at = world.areas_at if world.areas else None
    dt = replay.dt
    if not (math.isfinite(dt) and dt > 0.0):
        raise ValueError(f"dt must be a finite number > 0, not {dt!r}")
    if replay.inputs is None:
        velocities = replay.velocities
    else:
        speed = level.player.speed
        velocities = [wished_velocity(speed, move_x, move_y) for move_x, move_y, _jump in replay.inputs]
    x, y = start.x, start.y
    # The tick of step() and Simulation.step(), headless: move_xy finds the same
    # position as move() without recording what a debug view draws.
    for tick, v in enumerate(velocities):
        vx, vy = v
        if not (math.isfinite(vx) and math.isfinite(vy)):
            raise ValueError(f"wished velocity must be finite, got ({vx}, {vy})")
        if moving is not None:
            x, y = moving.advance(tick, dt, x, y)
        x, y = move_xy(world, x, y, vx * dt, vy * dt)
        positions.append(Vec2(x, y))
        if areas_at is not None:
            now = areas_at(x, y)
            if now != inside:
                _record(events, tick, *area_changes(inside, now))
                inside = now
    return Trace(start, tuple(positions), tuple(events))


def top_down_world(level):
    """The world a top-down player moves in, and its moving objects (None when nothing moves).

    A level without moving objects is the static :class:`World` of its solid objects, as it always was (one-way
    floors are plain solids for a top-down player: it has no "above"). One with moving objects puts them beside
    the static world (:class:`~level_editor.core.collision.kinematic.KinematicWorld`); they push the player.
    """
    static, specials, paths = split_level(level)
    if not any(path is not None for path in paths):
        return World.from_level(level), None
    world = KinematicWorld(World(*static), specials)
    return world, MovingObjects(world, paths)


#: Why a platformer level cannot play a version 1 replay.
VELOCITIES_ON_A_PLATFORMER = ("a version 1 replay (a velocity per tick) cannot play a platformer level: it needs "
                              "what was pressed, a version 2 replay's inputs")


def _run_platformer(level, replay: Replay, world=None) -> Trace:
    """:func:`run_replay` for a platformer level: its inputs through :class:`Platformer`, floors recorded.

    ``world`` is :meth:`Platformer.prepare` of the level when the caller made it already.
    """
    if replay.inputs is None:
        raise ValueError(VELOCITIES_ON_A_PLATFORMER)
    start = as_vec2(level.player.spawn if replay.start is None else replay.start)
    body = Platformer(level, start, replay.dt, prepared=world)
    world = body.world.static
    areas_at = world.areas_at if world.areas else None
    positions, floors, events = [], [], []
    inside: tuple = ()
    step = body.step
    for tick, (move_x, move_y, jump) in enumerate(replay.inputs):
        p = step(move_x, move_y, jump)
        positions.append(p)
        floors.append(body.on_floor)
        if areas_at is not None:
            now = areas_at(p.x, p.y)
            if now != inside:
                _record(events, tick, *area_changes(inside, now))
                inside = now
    return Trace(start, tuple(positions), tuple(events), tuple(floors))
