"""Jump arcs: where a platformer player's jumps go from a spot, flown by the controller itself.

A designer asks "can this gap be jumped?". :func:`jump_arcs` answers by playing the level's own
:class:`~level_editor.core.playtest.platformer.Platformer` from a floor: a standing jump, and a running jump to
the left and to the right (already at full run speed when leaving the floor), each with jump held to its full
height. Each arc is the player's centre tick by tick, swept by its shape through the level as the play-test
would move it, and ends where the player lands, or where it first hits something (a wall, a ceiling), or after
:data:`MAX_SECONDS`.

>>> from level_editor.core.level.model import Box, Level, Player
>>> level = Level(player=Player(spawn=(0, 0), shape="box", size=(20, 30), controller="platformer"),
...               objects=(Box("floor", (-500, 100), (1000, 20)),))
>>> arcs = jump_arcs(level, (0, 50))
>>> [a.name for a in arcs]
['standing', 'running left', 'running right']
>>> standing = arcs[0]
>>> round(standing.start.y - min(p.y for p in standing.points), 3), standing.ending
(80.0, 'landed')
>>> round(arcs[2].points[-1].x - arcs[2].start.x)  # a running jump: run speed 240 px/s for 0.8 s
192
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from level_editor.core.collision.mover import cast_point
from level_editor.core.collision.shapes import Vec2, as_vec2
from level_editor.core.playtest.platformer import DEFAULT_DT, Platformer

__all__ = ["Arc", "jump_arcs", "floor_below", "MAX_SECONDS", "LANDED", "HIT", "TIMED_OUT"]

#: The longest arc flown (s).
MAX_SECONDS = 4.0
#: How far below a spot a floor is looked for (px).
FLOOR_SEARCH = 2000.0

LANDED, HIT, TIMED_OUT = "landed", "hit", "timed out"


@dataclass(frozen=True)
class Arc:
    """One jump: its name, where it left the floor, the centre after each tick, and how it ended.

    ``ending`` is :data:`LANDED` (on a floor), :data:`HIT` (it met a wall or a ceiling: ``points[-1]`` is where)
    or :data:`TIMED_OUT`.
    """

    name: str
    start: Vec2
    points: tuple[Vec2, ...]
    ending: str


def floor_below(level, spot, body: Optional[Platformer] = None) -> Optional[Vec2]:
    """Where the player's centre stands on the first floor straight below ``spot`` (None: no floor there).

    A spot inside geometry has no floor below it.
    """
    if body is None:
        body = Platformer(level, start=spot)
    x, y = as_vec2(spot)
    world = body.world
    for i in world.near_indices(x, y, x, y):
        if world.obstacle(i).gap(x, y)[0] <= 0.0:
            return None
    hit = cast_point(world, x, y, 0.0, FLOOR_SEARCH)
    if hit is None or -hit[3] < body.floor_cos:
        return None
    return Vec2(x, y + FLOOR_SEARCH * hit[0])


def jump_arcs(level, spot, dt: float = DEFAULT_DT, prepared=None) -> list[Arc]:
    """The standing jump and the running jumps to the left and to the right from the floor below ``spot``.

    Empty when there is no floor below the spot (or the spot is inside geometry). Moving objects stand where
    the file places them. ``prepared`` is :meth:`Platformer.prepare` of the level when the caller keeps it
    (the editor asks again on every move of the mouse).
    """
    if prepared is None:
        prepared = Platformer.prepare(level)
    probe = Platformer(level, start=spot, dt=dt, prepared=prepared)
    start = floor_below(level, spot, probe)
    if start is None:
        return []
    arcs = []
    for name, direction in (("standing", 0), ("running left", -1), ("running right", 1)):
        body = Platformer(level, start=start, dt=dt, prepared=prepared)
        body.vx = direction * body.speed  # already running when it leaves the floor
        points = []
        ending = TIMED_OUT
        left_floor = False
        for _ in range(int(MAX_SECONDS / dt)):
            before = (body.x, body.y, body.vx, body.vy)
            body.step(direction, 0, True)
            points.append(Vec2(body.x, body.y))
            if not body.on_floor:
                left_floor = True
            elif left_floor:
                ending = LANDED
                break
            if left_floor and _blocked(before, body, dt):
                ending = HIT
                break
        arcs.append(Arc(name, start, tuple(points), ending))
    return arcs


def _blocked(before, body: Platformer, dt: float) -> bool:
    """Whether the last tick was stopped short by a wall or a ceiling (in the air it moved less than asked)."""
    x0, y0, vx, vy0 = before
    asked_x = vx * dt
    if abs(body.x - x0) < abs(asked_x) * 0.5 - 1e-9:
        return True
    return vy0 < 0.0 and body.vy == 0.0 and not body.on_floor
