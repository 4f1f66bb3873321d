"""Where the player can start: a free spot near a wanted one.

A map imported from Tiled may have no spawn, and the default one (64, 64)
may lie inside a box; a level whose player overlaps something at its spawn
cannot be exported or play-tested. :func:`free_spawn` looks for a spot where
the player's body touches nothing solid, with the collision core's exact
``overlaps`` (the test the level's check makes), on square rings of growing
size around the wanted spot, each ring nearest first: the same level always
gives the same spot.

>>> from level_editor.core.level.model import Box, Level
>>> level = Level(objects=(Box("crate", (0, 0), (100, 100)),))
>>> spot, hits = free_spawn(level, (64, 64))
>>> tuple(spot), hits
((112.0, 112.0), ['crate'])
"""
from __future__ import annotations

import math
from typing import Optional

from level_editor.core.collision.bounds import bounding_rect
from level_editor.core.collision.broadphase import BroadPhase
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import Level

__all__ = ["free_spawn", "MAX_TRIES"]

#: Spots tried before the player is put beside everything instead (left of the level's objects).
MAX_TRIES = 20_000


def free_spawn(level: Level, wanted, area: Optional[tuple] = None) -> tuple[Vec2, list[str]]:
    """A spot near ``wanted`` where the player's body overlaps no solid object, and the ids of the objects
    it would overlap at ``wanted`` (empty when ``wanted`` is free, and then the spot is ``wanted``).

    Spots lie on a grid of half the player's width around ``wanted``, ring by ring; within ``area``
    ``(minx, miny, maxx, maxy)`` (the map) when given and the player fits in it. When none of the first
    :data:`MAX_TRIES` spots is free, the player starts just left of every object, level with ``wanted``.
    """
    wanted = Vec2(float(wanted[0]), float(wanted[1]))
    player = level.player
    h = player.half_size
    body = player.body_at(wanted)
    x0, y0, x1, y1 = wanted.x - h.x, wanted.y - h.y, wanted.x + h.x, wanted.y + h.y
    near = [obj for obj in level.solid_objects() if _meet(obj.bounds(), x0, y0, x1, y1)]
    if not any(overlaps(body, s) for obj in near for s in obj.collision_shapes()):
        return wanted, []  # the usual case, without building the whole level's shapes
    shapes, owners, boxes = [], [], []
    for obj in level.solid_objects():
        for s in obj.collision_shapes():
            r = bounding_rect(s)
            shapes.append(s)
            owners.append(obj.id)
            boxes.append((r.min.x, r.min.y, r.min.x + r.size.x, r.min.y + r.size.y))
    grid = BroadPhase(boxes) if boxes else None

    def hits_at(p: Vec2) -> list[int]:
        if grid is None:
            return []
        body = player.body_at(p)
        return [i for i in grid.query(p.x - h.x, p.y - h.y, p.x + h.x, p.y + h.y) if overlaps(body, shapes[i])]

    first = hits_at(wanted)
    if not first:
        return wanted, []
    names = list(dict.fromkeys(owners[i] for i in first))
    step = max(h.x, h.y, 0.5)
    fits = area is not None and area[2] - area[0] >= 2 * h.x and area[3] - area[1] >= 2 * h.y
    tries, ring = 0, 1
    while tries < MAX_TRIES:
        spots = []
        for i in range(-ring, ring + 1):
            for j in range(-ring, ring + 1):
                if max(abs(i), abs(j)) == ring:
                    p = Vec2(wanted.x + i * step, wanted.y + j * step)
                    if not fits or (area[0] + h.x <= p.x <= area[2] - h.x and area[1] + h.y <= p.y <= area[3] - h.y):
                        spots.append((i * i + j * j, j, i, p))
        if not spots and fits and ring * step > max(area[2] - area[0], area[3] - area[1]) + abs(wanted.x) \
                + abs(wanted.y):
            break  # the whole map is looked at
        for _, _, _, p in sorted(spots, key=lambda s: s[:3]):
            tries += 1
            if not hits_at(p):
                return p, names
            if tries >= MAX_TRIES:
                break
        ring += 1
    left = min(b[0] for b in boxes)
    x = left - h.x - 1.0
    return Vec2(x if math.isfinite(x) else wanted.x, wanted.y), names


def _meet(b, x0: float, y0: float, x1: float, y1: float) -> bool:
    return b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3]
