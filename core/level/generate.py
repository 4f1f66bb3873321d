"""Generated levels of any size: rooms joined by corridors, wall chains, scattered boxes and pillars.

Used by the benchmarks and by ``level-editor generate``. The same count and
seed always give the same level, and every generated level passes ``check``:
nothing overlaps the spawn, walls never cross, no segment has zero length.

Layout: a square-ish grid of rooms. Each room's outline is four L-shaped wall
chains (3 nodes each) leaving a door in the middle of every side; short
corridor walls join the doors of neighbouring rooms; the room's inside is cut
into cells, each holding at most one box, oriented box or pillar, so nothing
inside a room overlaps anything else.

>>> level = generate_level(100, seed=1)
>>> len(level.objects)
100
"""
from __future__ import annotations

import math
import random

from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall

__all__ = ["generate_level", "ROOM_W", "ROOM_H"]

ROOM_W = 640.0
ROOM_H = 480.0
GAP = 96.0  # corridor length between two rooms
DOOR = 96.0
THICKNESS = 8.0
CELL = 128.0
CELLS_X = 4
CELLS_Y = 3
MARGIN = 64.0  # keeps room furniture away from the room's walls


def _room_walls(rid: str, x0: float, y0: float) -> list[Wall]:
    """Four L-shaped chains around a room, leaving a door in the middle of each side."""
    x1, y1 = x0 + ROOM_W, y0 + ROOM_H
    cx, cy = x0 + ROOM_W / 2, y0 + ROOM_H / 2
    d = DOOR / 2
    return [
        Wall(f"{rid}-wall-nw", [(x0, cy - d), (x0, y0), (cx - d, y0)], THICKNESS),
        Wall(f"{rid}-wall-ne", [(cx + d, y0), (x1, y0), (x1, cy - d)], THICKNESS),
        Wall(f"{rid}-wall-se", [(x1, cy + d), (x1, y1), (cx + d, y1)], THICKNESS),
        Wall(f"{rid}-wall-sw", [(cx - d, y1), (x0, y1), (x0, cy + d)], THICKNESS),
    ]


def _corridor_walls(rid: str, x0: float, y0: float) -> list[Wall]:
    """Corridors from this room's east and south doors to the next rooms."""
    x1, y1 = x0 + ROOM_W, y0 + ROOM_H
    cx, cy = x0 + ROOM_W / 2, y0 + ROOM_H / 2
    d = DOOR / 2
    return [
        Wall(f"{rid}-corridor-east-n", [(x1, cy - d), (x1 + GAP, cy - d)], THICKNESS),
        Wall(f"{rid}-corridor-east-s", [(x1, cy + d), (x1 + GAP, cy + d)], THICKNESS),
        Wall(f"{rid}-corridor-south-w", [(cx - d, y1), (cx - d, y1 + GAP)], THICKNESS),
        Wall(f"{rid}-corridor-south-e", [(cx + d, y1), (cx + d, y1 + GAP)], THICKNESS),
    ]


def _furniture(rid: str, x0: float, y0: float, rng: random.Random, skip_cell) -> list:
    out = []
    for j in range(CELLS_Y):
        for i in range(CELLS_X):
            if (i, j) == skip_cell:
                continue
            # Leave some cells empty so rooms can be crossed.
            if rng.random() < 0.25:
                continue
            cx = x0 + MARGIN + (ROOM_W - 2 * MARGIN) * (i + 0.5) / CELLS_X
            cy = y0 + MARGIN + (ROOM_H - 2 * MARGIN) * (j + 0.5) / CELLS_Y
            oid = f"{rid}-{i}{j}"
            pick = rng.random()
            if pick < 0.4:
                w, h = rng.choice((16, 32, 48)), rng.choice((16, 32, 48))
                out.append(Box(f"{oid}-box", (cx - w / 2, cy - h / 2), (w, h)))
            elif pick < 0.7:
                rot = rng.choice((15.0, 30.0, 45.0, 60.0, -20.0))
                out.append(OrientedBox(f"{oid}-obox", (cx, cy), (rng.choice((12, 20, 28)), rng.choice((6, 10, 14))), rot))
            else:
                out.append(Pillar(f"{oid}-pillar", (cx, cy), rng.choice((8, 12, 18))))
    return out


def generate_level(count: int, seed: int = 0, player_shape: str = "circle") -> Level:
    """A level of exactly ``count`` objects (``count`` >= 0), the same for the same seed.

    Parameters
    ----------
    count : int
        How many objects the level holds.
    seed : int
        Picks the furniture; the room layout depends only on ``count``.
    player_shape : {"circle", "box"}
        The player's shape; it spawns in the middle of the first room.
    """
    if count < 0:
        raise ValueError(f"count must be 0 or more, not {count}")
    if player_shape not in Player.SHAPES:
        raise ValueError(f"the player's shape must be one of {', '.join(Player.SHAPES)}, not {player_shape!r}")
    rng = random.Random(seed)
    per_room = 8 + CELLS_X * CELLS_Y
    rooms = max(1, math.ceil(count / per_room))
    cols = max(1, math.ceil(math.sqrt(rooms)))
    objects: list = []
    spawn_cell = (CELLS_X // 2, CELLS_Y // 2)
    r = 0
    while len(objects) < count:
        row, col = divmod(r, cols)
        x0 = col * (ROOM_W + GAP)
        y0 = row * (ROOM_H + GAP)
        rid = f"r{r}"
        objects.extend(_room_walls(rid, x0, y0))
        objects.extend(_corridor_walls(rid, x0, y0))
        objects.extend(_furniture(rid, x0, y0, rng, spawn_cell if r == 0 else None))
        r += 1
    objects = objects[:count]
    spawn_x = MARGIN + (ROOM_W - 2 * MARGIN) * (spawn_cell[0] + 0.5) / CELLS_X
    spawn_y = MARGIN + (ROOM_H - 2 * MARGIN) * (spawn_cell[1] + 0.5) / CELLS_Y
    player = Player(spawn=(spawn_x, spawn_y), shape=player_shape, radius=12, size=(24, 24), speed=240)
    return Level(name=f"Generated {count}", grid=16, player=player, objects=tuple(objects))
