"""The platformer player: gravity, jumps, floors and slopes, one-way floors and moving objects, one tick at a time.

The top-down player moves where it is told and slides (:mod:`level_editor.core.collision.mover`). A
platformer player keeps a velocity: gravity pulls it towards +y, it runs at the player's ``speed`` and jumps
from floors. Every motion still goes through the same exact sweep and slide (seeds 001, 003, 004), so it
never tunnels and never catches on the seams of a run of boxes; this module only decides *what* motion to ask
for, tick by tick, as Godot's ``CharacterBody2D`` and Box2D's character mover do:

1. **Moving objects** go to where their path puts them after this tick
   (:meth:`~level_editor.core.level.motion.MovePath.offset_after`). A player standing on one is **carried**
   by its motion first, exactly (no lag, no jitter); one that a moving object runs into is **pushed** by the
   part of its motion after they meet (seed 001's relative motion of two moving boxes), and never ends the
   tick overlapping it.
2. **One-way floors** count only while the player is above them (the surface nearest its centre faces up),
   so it jumps through them from below and walks through them from the side, at any speed. Jumping while
   holding down on one drops through it.
3. **Input**: the run speed (``acceleration``, ``deceleration``, ``air_control``), the jump (on a press only;
   ``coyote_time`` after walking off a floor, ``jump_buffer`` before landing; releasing early multiplies the
   rise by ``jump_cut``) and gravity (``2 * jump_height / jump_time**2``, times ``fall_gravity_scale`` while
   falling, up to ``max_fall_speed``). Positions follow the exact arc of constant gravity within a tick, so a
   held jump rises ``jump_height`` (to rounding when ``jump_time`` is a whole number of ticks).
4. **Walking** on a floor goes along it at the run speed across (a slope does not slow the player), from
   surface to surface, and stops at a wall or a slope steeper than ``floor_max_angle``: those are walls, never
   climbed. In the air the motion slides along whatever it meets, so a steep slope is slid down and pressing
   into a wall never slows a fall.
5. **Snapping**: after walking, a floor at most ``snap_length`` below (plus the drop a floor slope makes over
   the step) pulls the player down onto it, so it runs down slopes and over crests without leaving them.
6. **Contacts**: a surface under the player no steeper than ``floor_max_angle`` is a floor (landing stops the
   fall), one above it stops the rise at once.

Nothing but plain floats is carried from tick to tick, so the same inputs give the same positions, bit for bit.

>>> from level_editor.core.level.model import Box, Level, Player
>>> level = Level(player=Player(spawn=(50, 84.999), shape="box", size=(20, 30), controller="platformer"),
...               objects=(Box("floor", (0, 100), (400, 20)),))
>>> body = Platformer(level)  # placed a skin's width above the floor: it stands on it
>>> body.on_floor
True
>>> heights = [84.999 - body.step(0, 0, True).y for _ in range(30)]  # jump held
>>> round(max(heights), 6), heights.index(max(heights)) + 1  # jump_height, after jump_time (24 ticks of 1/60 s)
(80.0, 24)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Optional

from level_editor.core.collision.kinematic import KinematicWorld
from level_editor.core.collision.mover import cast_point, contacts_at, move_xy
from level_editor.core.collision.planes import CONTACT, SKIN
from level_editor.core.collision.shapes import Vec2
from level_editor.core.collision.world import World
from level_editor.core.playtest.moving_objects import MovingObjects, split_level

__all__ = ["Platformer", "PlatformerDebug", "Prepared", "DEFAULT_DT"]

DEFAULT_DT = 1.0 / 60.0

#: Walking passes per tick: each meets a new surface (a slope's foot, a crest) or ends the walk.
_WALK_PASSES = 8


class Prepared(NamedTuple):
    """:meth:`Platformer.prepare` of a level: its static world, and its moving and one-way colliders."""

    world: World
    specials: tuple
    paths: tuple


@dataclass(frozen=True)
class PlatformerDebug:
    """What the F3 overlay and the HUD show of the last tick, as plain values."""

    velocity: Vec2
    on_floor: bool
    floor_normal: Optional[Vec2]
    floor_id: Optional[str]
    #: The snap probe of the last walk: from the centre down as far as a floor was looked for (None: in the air).
    snap_from: Optional[Vec2]
    snap_to: Optional[Vec2]
    coyote_left: float
    buffer_left: float
    jumping: bool


class Platformer:
    """A platformer player in a level: :meth:`step` it with the inputs of each tick.

    Parameters
    ----------
    level : level_editor.core.level.model.Level
        The level; its player's settings give the feel, its objects the world.
    start : (x, y), optional
        Where the player's centre starts (the spawn by default).
    dt : float
        The tick (s).
    prepared : Prepared, optional
        :meth:`prepare` of the level, when the caller keeps it (a benchmark times it apart, the editor's jump
        arcs fly many players in the same level).
    """

    def __init__(self, level, start=None, dt: float = DEFAULT_DT, prepared: Optional["Prepared"] = None):
        if not (isinstance(dt, (int, float)) and math.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be a finite number > 0, not {dt!r}")
        p = level.player
        self.dt = dt = float(dt)
        self.speed = p.speed
        self.gravity = 2.0 * p.jump_height / (p.jump_time * p.jump_time)
        self.jump_speed = 2.0 * p.jump_height / p.jump_time
        self.fall_scale = p.fall_gravity_scale
        self.max_fall = p.max_fall_speed
        self.acceleration = p.acceleration
        self.deceleration = p.deceleration
        self.air_control = p.air_control
        self.coyote_time = p.coyote_time
        self.jump_buffer = p.jump_buffer
        self.jump_cut = p.jump_cut
        angle = math.radians(p.floor_max_angle)
        #: A surface is a floor when its normal's upward part is at least this (cos of floor_max_angle).
        self.floor_cos = math.cos(angle)
        self.slope_tan = math.tan(angle)
        self.snap_length = p.snap_length
        if prepared is None:
            prepared = Platformer.prepare(level)
        world, specials, paths = prepared
        self.world = KinematicWorld(world, specials)
        first = self.world.first_special
        #: The colliders that move along paths (they carry and push the player).
        self.moving = MovingObjects(self.world, paths)
        self.one_way = [first + k for k, s in enumerate(specials) if s.one_way]
        spawn = p.spawn if start is None else start
        self.x, self.y = float(spawn[0]), float(spawn[1])
        self.reset_state()

    def reset_state(self) -> None:
        """At rest, in the air, with no jump pressed and every moving object at its start."""
        self.vx = self.vy = 0.0
        self.on_floor = False
        self.floor = -1
        self.floor_nx, self.floor_ny = 0.0, -1.0
        self.coyote_left = 0.0
        self.buffer_left = 0.0
        self.jump_held = False
        self.jumping = False
        self.dropped: set[int] = set()
        self.tick = 0
        self.snap = None
        self.moving.reset()
        self._update_one_way()
        self._touch()  # a player placed on a floor starts on it (and rides a moving one from the first tick)

    @staticmethod
    def prepare(level) -> "Prepared":
        """What a player of ``level`` moves among, made once for any number of players: the static world of the
        solid objects that neither move nor are one-way, and those that do (with their paths)."""
        static, specials, paths = split_level(level)
        return Prepared(World(*static), tuple(specials), tuple(paths))

    @property
    def position(self) -> Vec2:
        return Vec2(self.x, self.y)

    def debug(self) -> PlatformerDebug:
        """The last tick's state for the overlay: velocity, floor, snap probe, jump timers."""
        floor_id = self.world.object_ids[self.floor] if self.on_floor and self.floor >= 0 else None
        snap_from = snap_to = None
        if self.snap is not None:
            snap_from, snap_to = Vec2(*self.snap[0]), Vec2(*self.snap[1])
        return PlatformerDebug(Vec2(self.vx, self.vy), self.on_floor,
                               Vec2(self.floor_nx, self.floor_ny) if self.on_floor else None, floor_id,
                               snap_from, snap_to, self.coyote_left, self.buffer_left, self.jumping)

    # -- one tick -----------------------------------------------------------------------------------------

    def step(self, move_x: float, move_y: float, jump) -> Vec2:
        """One tick with a stick's ``move_x``, ``move_y`` in [-1, 1] (down is ``move_y > 0.5``) and jump held or not.

        Returns the player's new centre.
        """
        dt = self.dt
        world = self.world
        pressed = bool(jump) and not self.jump_held
        self.jump_held = bool(jump)
        down = move_y > 0.5

        if self.moving:
            self.x, self.y = self.moving.advance(self.tick, dt, self.x, self.y, self.floor if self.on_floor else -1)
        self._update_one_way()

        # The jump: on a press (or one pressed within jump_buffer), from a floor (or within coyote_time).
        wants = pressed or self.buffer_left > 0.0
        can = self.on_floor or self.coyote_left > 0.0
        if wants and can:
            floor = self.floor if self.on_floor else -1
            if down and floor >= 0 and floor in self.one_way:
                self.dropped.add(floor)  # drop through it
                world.set_active(floor, False)
            else:
                self.vy = -self.jump_speed
                self.jumping = True
            self.on_floor = False
            self.floor = -1
            self.coyote_left = 0.0
            self.buffer_left = 0.0
        elif pressed:
            self.buffer_left = self.jump_buffer
        else:
            self.buffer_left = max(self.buffer_left - dt, 0.0)
        if self.jumping and not jump and self.vy < 0.0:
            self.vy *= self.jump_cut
            self.jumping = False

        self._run(move_x * self.speed)

        self.snap = None
        contacts = None
        if self.on_floor:
            self.vy = 0.0
            contacts = self._walk(self.vx * dt)
        else:
            self._fall()
        self._touch(contacts)
        if self.on_floor:
            self.coyote_left = self.coyote_time
        elif self.coyote_left > 0.0:
            self.coyote_left = max(self.coyote_left - dt, 0.0)
        self.tick += 1
        return Vec2(self.x, self.y)

    def _run(self, target: float) -> None:
        """The run speed towards ``target`` (at once, or by acceleration and deceleration)."""
        speeding_up = target != 0.0 and (self.vx == 0.0 or (target > 0.0) == (self.vx > 0.0)) \
            and abs(target) > abs(self.vx)
        rate = self.acceleration if speeding_up else self.deceleration
        if rate is None:
            self.vx = target
            return
        if not self.on_floor:
            rate *= self.air_control
        change = rate * self.dt
        if self.vx < target:
            self.vx = min(self.vx + change, target)
        else:
            self.vx = max(self.vx - change, target)

    def _fall(self) -> None:
        """In the air: gravity, then slide along what the motion meets."""
        dt = self.dt
        g = self.gravity * (self.fall_scale if self.vy > 0.0 else 1.0)
        vy0 = self.vy
        vy1 = min(vy0 + g * dt, self.max_fall)
        self.vy = vy1
        dy = 0.5 * (vy0 + vy1) * dt
        dx = self.vx * dt
        if dy > 0.0:
            # Landing stops where the floor is met: sliding the rest of the fall along a floor would carry the
            # player off a ledge's rounded edge (godot #9399) or down a slope it can stand on.
            hit = cast_point(self.world, self.x, self.y, dx, dy)
            if hit is not None and -hit[3] >= self.floor_cos:
                self.x += dx * hit[0]
                self.y += dy * hit[0]
                return
        self.x, self.y = move_xy(self.world, self.x, self.y, dx, dy)

    def _walk(self, dx: float):
        """On a floor: along it by ``dx`` across, surface after surface; stop at a wall; then snap down.

        Returns the contacts where it ended when it looked them up already (it ended on a floor), else None.
        """
        world = self.world
        x, y = self.x, self.y
        nx, ny = self.floor_nx, self.floor_ny
        left = dx
        for _ in range(_WALK_PASSES):
            if left == 0.0:
                break
            # Along the floor: the tangent (-ny, nx) has x > 0 when ny < 0; scaled so its x is ``left``.
            sx, sy = left, left * nx / -ny
            hit = cast_point(world, x, y, sx, sy)
            if hit is None:
                x, y = x + sx, y + sy
                left = 0.0
                break
            t, i, hx, hy = hit
            x, y = x + sx * t, y + sy * t
            left *= 1.0 - t
            if -hy >= self.floor_cos:
                nx, ny = hx, hy  # a new floor (the foot of a slope, a crest): go on along it
            else:
                left = 0.0  # a wall, or a slope too steep to walk up: stop
                break
        if not (math.isfinite(x) and math.isfinite(y)):
            x, y = self.x, self.y
        # Snap down onto a floor below, as far as a floor slope can drop over this step, plus snap_length
        # (not when a floor is under the player already: the common case, a walk along one surface).
        reach = self.snap_length + abs(dx) * self.slope_tan + CONTACT
        floor_cos = self.floor_cos
        contacts = contacts_at(world, x, y)
        for _i, _gap, _nx, ny in contacts:
            if -ny >= floor_cos:
                self.snap = ((x, y), (x, y + reach))
                self.x, self.y = x, y
                return contacts
        hit = cast_point(world, x, y, 0.0, reach)
        if hit is not None and -hit[3] >= self.floor_cos:
            to = y + reach * hit[0]
            self.snap = ((x, y), (x, to))
            y = to
        else:
            self.snap = ((x, y), (x, y + reach))
        self.x, self.y = x, y
        return None

    def _touch(self, contacts=None) -> None:
        """Floors, ceilings and walls touching the player now: landing, bumping the head, no speed into walls.

        ``contacts`` are those at the player's position when the caller has them already.
        """
        floor, best = -1, -2.0
        fnx = fny = 0.0
        ceiling = False
        if contacts is None:
            contacts = contacts_at(self.world, self.x, self.y)
        for i, _gap, nx, ny in contacts:
            if -ny >= self.floor_cos:
                if -ny > best:
                    floor, best, fnx, fny = i, -ny, nx, ny
            elif ny >= self.floor_cos:
                ceiling = True
            elif nx * self.vx < 0.0 and self.acceleration is not None:
                self.vx = 0.0  # against a wall the run speed does not build up
        if floor >= 0 and self.vy >= 0.0:
            self.on_floor = True
            self.floor = floor
            self.floor_nx, self.floor_ny = fnx, fny
            self.vy = 0.0
            self.jumping = False
        else:
            self.on_floor = False
            self.floor = -1
        if ceiling and self.vy < 0.0:
            self.vy = 0.0  # the rise stops at once
            self.jumping = False

    # -- the special colliders ----------------------------------------------------------------------------

    def _update_one_way(self) -> None:
        """A one-way floor counts while the player is above it (its nearest surface faces up), and not while
        the player drops through it."""
        world = self.world
        for i in self.one_way:
            gap, nx, ny = world.obstacle(i).gap(self.x, self.y)
            above = gap > -SKIN and ny < 0.0 and -ny >= 1e-9
            if i in self.dropped:
                if above and gap <= CONTACT * 4.0:
                    continue  # still on the floor it drops through: falls through from the next tick on
                if not above:
                    self.dropped.discard(i)
                else:
                    continue
            world.set_active(i, above)
