"""Moving objects in a play-test: where they are after each tick, and what they do to the player.

The level's objects with a ``path`` (format version 3) are special colliders of a
:class:`~level_editor.core.collision.kinematic.KinematicWorld`. Before the player moves in a tick,
:meth:`MovingObjects.advance` puts each where its path has it after the tick
(:meth:`~level_editor.core.level.motion.MovePath.offset_after`), and

- **carries** its rider (the player standing on it, for a platformer) by the whole of its motion, exactly:
  the player moves first with the object out of the way, then the object arrives under it;
- **pushes** the player it runs into by the part of its motion after they meet (seed 001's relative motion of
  two moving boxes: in the object's frame the player moves towards it, and the cast says when they meet), so
  the player never ends a tick inside it; a player wedged between it and something else goes to the nearest
  free spot.

Both controllers use it: the platformer (with riders) and the top-down player (pushed only).
"""
from __future__ import annotations

from level_editor.core.collision.kinematic import KinematicWorld, Special
from level_editor.core.collision.mover import cast_point, move_xy
from level_editor.core.collision.planes import SKIN
from level_editor.core.level.model import moving_path

__all__ = ["split_level", "MovingObjects"]


def split_level(level):
    """``(static world's arguments, specials, paths)``: the level's solid shapes that neither move nor are one-way
    (``(shapes, body, object ids, areas)`` for :class:`~level_editor.core.collision.world.World`), and the others
    as special colliders with their paths (None for a one-way object that stays put)."""
    shapes, ids, areas = [], [], []
    specials, paths = [], []
    for obj in level.objects:
        path = moving_path(obj)
        one_way = getattr(obj, "one_way", False)
        if not obj.solid:
            areas.extend((obj.id, s) for s in obj.collision_shapes())
        elif path is not None or one_way:
            for s in obj.collision_shapes():
                specials.append(Special(obj.id, s, one_way=one_way, moving=path is not None))
                paths.append(path)
        else:
            for s in obj.collision_shapes():
                shapes.append(s)
                ids.append(obj.id)
    body = level.player.body_at((0.0, 0.0))
    return (shapes, body, ids, areas), specials, paths


class MovingObjects:
    """The moving colliders of ``world`` (special collider ``first_special + k`` moves along ``paths[k]``)."""

    def __init__(self, world: KinematicWorld, paths):
        self.world = world
        first = world.first_special
        #: ``(collider index, path)`` of each collider that moves.
        self.moving = [(first + k, path) for k, path in enumerate(paths) if path is not None]
        self.reset()

    def __bool__(self) -> bool:
        return bool(self.moving)

    def reset(self) -> None:
        """Every moving collider where its path starts."""
        for i, path in self.moving:
            o = path.offset_at(0.0)
            self.world.place(i, o.x, o.y)

    def advance(self, tick: int, dt: float, x: float, y: float, rider: int = -1) -> tuple[float, float]:
        """Put the moving colliders where they are after ``tick``; returns the player's centre, carried or pushed.

        ``rider`` is the collider the player stands on (-1: none).
        """
        world = self.world
        for i, path in self.moving:
            ox, oy = world.offsets[i - world.first_special]
            o = path.offset_after(tick, dt)
            dx, dy = o.x - ox, o.y - oy
            if dx == 0.0 and dy == 0.0:
                continue
            was_active = i in world.active
            if i == rider:
                # Carried: move with it, it out of the way (it moves as much).
                world.set_active(i, False)
                world.place(i, o.x, o.y)
                x, y = move_xy(world, x, y, dx, dy)
                world.set_active(i, was_active)
                continue
            if not was_active:
                world.place(i, o.x, o.y)
                continue
            # Pushed: the part of its motion after it meets the player.
            hit = cast_point(_Alone(world, i), x, y, -dx, -dy)
            world.place(i, o.x, o.y)
            if hit is None:
                continue
            world.set_active(i, False)
            t = hit[0]
            x, y = move_xy(world, x, y, dx * (1.0 - t), dy * (1.0 - t))
            world.set_active(i, True)
            if world.obstacle(i).gap(x, y)[0] < SKIN * 0.5:
                # Wedged between it and something else: the mover finds the nearest free spot.
                x, y = move_xy(world, x, y, 0.0, 0.0)
        return x, y


class _Alone:
    """The world of one special collider, for casting the player against it alone (a push).

    It is its own grid: one cell, read at once (``area``), holding the collider.
    """

    area = 1

    def __init__(self, world: KinematicWorld, i: int):
        self.body = world.body
        self.half_extents = world.half_extents
        self.obstacle_list = {i: world.obstacle_list[i]}
        self.memo = None
        self._i = i
        self.grid = self

    def obstacle(self, i):
        return self.obstacle_list[i]

    def at(self, x, y, margin):
        return [self._i]

    def box(self, x0, y0, x1, y1):
        return [self._i]

    def near_indices(self, minx, miny, maxx, maxy):
        return [self._i]
