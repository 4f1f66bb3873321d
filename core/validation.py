"""Geometry validation of a level (shapely is the authority here, never in the per-tick loop).

``validate_level`` returns every problem found: errors that make the level
wrong (a zero-length wall segment, a closed wall whose outline crosses itself,
a player that starts inside geometry) and warnings a designer should look at.
"""
from __future__ import annotations

import shapely
from shapely.geometry import LineString, Point, Polygon, box

from core.level import Box, Level, OrientedBox, Pillar, Wall
from core.problems import ERROR, PLAYER_ID, Problem
from core.shapes import Vec2


def object_outline(obj):
    """The exact collision outline of one object as a shapely geometry (walls with their thickness)."""
    if isinstance(obj, Wall):
        coords = [tuple(p) for p in obj.points]
        if obj.closed and len(coords) > 2:
            coords.append(coords[0])
        return LineString(coords).buffer(obj.thickness / 2, quad_segs=16)
    if isinstance(obj, Box):
        o, s = obj.origin, obj.size
        return box(o.x, o.y, o.x + s.x, o.y + s.y)
    if isinstance(obj, OrientedBox):
        return Polygon([tuple(c) for c in obj.corners()])
    if isinstance(obj, Pillar):
        return Point(tuple(obj.center)).buffer(obj.radius, quad_segs=16)
    raise TypeError(f"not a level object: {type(obj).__name__}")


def validate_level(level: Level) -> list[Problem]:
    """Every geometry problem of ``level``, errors first, in object order."""
    problems: list[Problem] = []
    for obj in level.objects:
        if isinstance(obj, Wall):
            problems.extend(_wall_problems(obj))
    problems.extend(_spawn_problems(level))
    return problems


def _wall_problems(wall: Wall) -> list[Problem]:
    out = []
    for i, (a, b) in enumerate(wall.segments()):
        if a == b:
            out.append(Problem(wall.id, f"segment {i + 1} has zero length (nodes {i + 1} and "
                                        f"{(i + 1) % len(wall.points) + 1} are at the same place)", ERROR, a))
    if wall.closed and len(wall.points) >= 3 and not out:
        ring = shapely.LinearRing([tuple(p) for p in wall.points])
        if not ring.is_simple:
            where = _crossing_point(wall)
            out.append(Problem(wall.id, "this closed wall's outline crosses itself", ERROR, where))
    return out


def _crossing_point(wall: Wall) -> Vec2:
    """Where the first two non-neighbouring segments of a closed wall meet."""
    segs = [LineString([tuple(a), tuple(b)]) for a, b in wall.segments()]
    n = len(segs)
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if segs[i].intersects(segs[j]):
                p = segs[i].intersection(segs[j]).representative_point()
                return Vec2(p.x, p.y)
    p = segs[0].representative_point()
    return Vec2(p.x, p.y)


def _spawn_problems(level: Level) -> list[Problem]:
    body = level.player.body_at(level.player.spawn)
    if level.player.shape == "box":
        h = level.player.half_size
        s = level.player.spawn
        geom = box(s.x - h.x, s.y - h.y, s.x + h.x, s.y + h.y)
    else:
        geom = Point(tuple(body.center)).buffer(body.radius, quad_segs=32)
    hits = [obj.id for obj in level.objects if object_outline(obj).intersects(geom)]
    if hits:
        return [Problem(PLAYER_ID, f"the player overlaps {', '.join(hits[:3])} at its spawn", ERROR,
                        level.player.spawn)]
    return []
