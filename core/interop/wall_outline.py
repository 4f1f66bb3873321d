"""A wall as Tiled draws it: the polygon of its outline, so its thickness shows.

Tiled draws a polyline as a hairline whatever its ``thickness`` property says.
The export writes a wall as the outline of its thickened chain (the area the
player collides with: round ends and joints, as the play-test), one polygon,
its points relative to the wall's first node; the wall's own nodes go into the
bookkeeping, so the import gives back the chain exactly. A closed wall's
outline is a ring with a hole: Tiled's polygons have none, so the hole is
joined to the outside by a slit of no width (drawn as one line).

>>> ring = outline_points(((0.0, 0.0), (100.0, 0.0)), closed=False, thickness=8.0)
>>> min(x for x, _ in ring), max(x for x, _ in ring), min(y for _, y in ring), max(y for _, y in ring)
(-4.0, 104.0, -4.0, 4.0)
"""
from __future__ import annotations

import math

import numpy as np
import shapely

from level_editor.core.level.number_text import file_number

__all__ = ["outline_points", "wall_polygons", "outline_sums", "outline_changed", "QUAD_SEGS"]

#: Points per quarter turn on a wall's round ends and joints: smooth enough to look round in Tiled.
QUAD_SEGS = 4


def outline_points(points, closed: bool, thickness: float) -> list[tuple[float, float]]:
    """The outline of a wall of ``points`` (absolute) and ``thickness``, as one ring of points (not repeating the
    first at the end), each hole joined to the outside at its nearest point."""
    line = shapely.LinearRing(points) if closed and len(points) >= 3 else shapely.LineString(points)
    shape = shapely.buffer(line, thickness / 2, quad_segs=QUAD_SEGS)
    if shape.geom_type == "MultiPolygon":  # cannot happen for one chain; the largest part, to be safe
        shape = max(shape.geoms, key=lambda g: g.area)
    ring = [tuple(p) for p in shapely.get_coordinates(shape.exterior)[:-1].tolist()]
    for hole in shape.interiors:
        inner = [tuple(p) for p in shapely.get_coordinates(hole)[:-1].tolist()]
        # the slit: from the outside's point nearest the hole's first, round the hole and back again
        i = min(range(len(ring)), key=lambda i: _d2(ring[i], inner[0]))
        ring = ring[:i + 1] + inner + inner[:1] + ring[i:]
    return ring


def wall_polygons(walls) -> dict:
    """Each wall's outline as a TMJ polygon (points relative to its first node, to 0.01 px), by wall id.

    The outlines of all walls in one vectorised call (a level of 5,000 walls: a fifth of a second, against
    two seconds one by one); only a closed wall's hole is joined in Python.

    >>> from level_editor.core.level.model import Wall
    >>> polygon = wall_polygons([Wall("w", ((10, 10), (20, 10)), 2)])["w"]
    >>> polygon[:3]
    [{'x': 10, 'y': 1}, {'x': 10.38, 'y': 0.92}, {'x': 10.71, 'y': 0.71}]
    """
    walls = list(walls)
    if not walls:
        return {}
    counts = np.array([len(w.points) for w in walls])
    coords = np.array([(p.x, p.y) for w in walls for p in w.points], dtype=float).reshape(-1, 2)
    owner = np.repeat(np.arange(len(walls)), counts)
    rings = np.array([w.closed and len(w.points) >= 3 for w in walls])
    geoms = np.empty(len(walls), dtype=object)
    if (~rings).any():
        keep = ~rings[owner]
        geoms[~rings] = shapely.linestrings(coords[keep], indices=np.unique(owner[keep], return_inverse=True)[1])
    if rings.any():
        keep = rings[owner]
        geoms[rings] = shapely.linearrings(coords[keep], indices=np.unique(owner[keep], return_inverse=True)[1])
    shapes = shapely.buffer(geoms, np.array([w.thickness / 2 for w in walls]), quad_segs=QUAD_SEGS)
    first = coords[np.concatenate(([0], np.cumsum(counts)[:-1]))]
    out = {}
    simple = (shapely.get_num_interior_rings(shapes) == 0) & (shapely.get_type_id(shapes) == 3)
    points, index = shapely.get_coordinates(shapely.get_exterior_ring(shapes[simple]), return_index=True)
    which = np.flatnonzero(simple)
    points = np.round(points - first[which][index], 2)
    starts = np.searchsorted(index, np.arange(len(which)))
    ends = np.append(starts[1:], len(index))
    xs, ys = points[:, 0].tolist(), points[:, 1].tolist()
    for k, i in enumerate(which.tolist()):
        a, b = int(starts[k]), int(ends[k]) - 1  # the ring's last point repeats its first
        out[walls[i].id] = [{"x": file_number(x), "y": file_number(y)} for x, y in zip(xs[a:b], ys[a:b])]
    for i in np.flatnonzero(~simple).tolist():  # closed walls: their hole joined in by a slit
        w, (x0, y0) = walls[i], first[i]
        out[w.id] = [{"x": file_number(round(x - x0, 2)), "y": file_number(round(y - y0, 2))}
                     for x, y in outline_points(w.points, w.closed, w.thickness)]
    return out


def _d2(a, b) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def outline_sums(polygon: list) -> list:
    """What the import compares to tell an outline edited in Tiled: ``[points, sum of x, sum of y]`` of the
    polygon's points as written (relative to the wall's first node)."""
    return [len(polygon), round(sum(p["x"] for p in polygon), 2), round(sum(p["y"] for p in polygon), 2)]


def outline_changed(sums, polygon: list) -> bool:
    """Whether the ``polygon`` read back (points as dicts of numbers) is no longer the outline whose
    :func:`outline_sums` are ``sums``: another number of points, or a point moved by more than Tiled's rounding
    (it writes TMX numbers with 6 significant digits).

    >>> square = [{"x": 0, "y": 0}, {"x": 10, "y": 0}, {"x": 10, "y": 10}]
    >>> outline_changed(outline_sums(square), square), outline_changed(outline_sums(square), square[:2])
    (False, True)
    >>> outline_changed(outline_sums(square), [{"x": 0, "y": 0}, {"x": 13, "y": 0}, {"x": 10, "y": 10}])
    True
    """
    if not (isinstance(sums, list) and len(sums) == 3 and all(isinstance(v, (int, float)) for v in sums)):
        return False  # nothing to compare with
    try:
        xs = [float(p["x"]) for p in polygon]
        ys = [float(p["y"]) for p in polygon]
    except (TypeError, ValueError, KeyError):
        return True
    if len(xs) != sums[0]:
        return True
    slack = 0.011 + sum(_half_digit(v) for v in xs + ys)
    return abs(sum(xs) - sums[1]) > slack or abs(sum(ys) - sums[2]) > slack


def _half_digit(v: float) -> float:
    """Half the last of 6 significant digits of ``v``: how far Tiled's rounding may move it."""
    return 0.0 if v == 0 or not math.isfinite(v) else 0.5 * 10.0 ** (math.floor(math.log10(abs(v))) - 5)
