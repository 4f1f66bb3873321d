"""Bounding hulls of a level's objects and of the whole level: what ``hulls`` holds in a saved file.

For each object id, and for the whole level under ``"level"``::

    {"aabb": [minx, miny, maxx, maxy],
     "circle": {"center": [x, y], "radius": r},
     "convex_hull": [[x, y], ...],
     "min_rect": [[x, y], [x, y], [x, y], [x, y]]}

all of the object's full collision outline: walls with their thickness and
round ends and joints, pillars round. A level without objects has no hulls
(``{}``).

Every hull *contains* the exact shape, also after rounding to
:data:`DECIMALS` decimals:

- ``aabb`` is exact (computed from nodes, corners and radii, not from
  polygons), then rounded outwards.
- ``circle`` is the exact smallest circle for every object: the smallest
  circle around its nodes, corners or centre, grown by its round radius. The
  level's circle is the smallest circle around the level's convex hull.
  Rounding moves the centre by at most half a unit of the last decimal; the
  radius grows by that shift and is rounded up.
- ``convex_hull`` and ``min_rect`` are shapely's convex hull and minimum
  rotated rectangle of the outlines of :mod:`core.outlines`, whose round parts
  lie just outside the real arcs (at most 0.12 % of the radius). A polygon
  that rounding would cut into is first grown by one unit of the last decimal.

Points go round the polygon in shapely's order, without repeating the first.
Everything is computed with shapely's vectorised functions for all objects at
once.

>>> from core.level import Level, Pillar
>>> hulls = level_hulls(Level(objects=[Pillar("p", (10, 20), 5)]))
>>> hulls["p"]["aabb"], hulls["p"]["circle"]
([5.0, 15.0, 15.0, 25.0], {'center': [10.0, 20.0], 'radius': 5.0})
>>> sorted(hulls)
['level', 'p']
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import shapely

from core.level import Level
from core.outlines import LevelOutlines, level_outlines

__all__ = ["level_hulls", "DECIMALS", "LEVEL_KEY"]

#: Decimals kept in ``hulls`` (a thousandth of a pixel).
DECIMALS = 3

#: The key of the whole level's hulls.
LEVEL_KEY = "level"

_UNIT = 10.0 ** -DECIMALS


def level_hulls(level: Level, outlines: Optional[LevelOutlines] = None) -> dict:
    """The ``hulls`` object of a level file: four hulls per object id and for the whole level.

    Parameters
    ----------
    level : Level
        The level (its player is not part of any hull).
    outlines : LevelOutlines, optional
        The level's outlines, when the caller already built them.

    Returns
    -------
    dict
        JSON-ready: plain floats rounded to :data:`DECIMALS` decimals, keyed by
        object id, plus ``"level"`` when the level has objects.

    Examples
    --------
    >>> from core.level import Level, Wall
    >>> h = level_hulls(Level(objects=[Wall("w", [(0, 0), (10, 0)], 4)]))
    >>> h["w"]["aabb"], h["w"]["circle"]["radius"]
    ([-2.0, -2.0, 12.0, 2.0], 7.0)
    """
    o = outlines if outlines is not None else level_outlines(level)
    n = len(o)
    if not n:
        return {}

    aabb = _round_box(o.aabb)

    disc = shapely.minimum_bounding_circle(o.sites)
    centres = shapely.get_coordinates(shapely.centroid(disc))
    radii = shapely.minimum_bounding_radius(o.sites) + o.rounding
    centres, radii = _round_circle(centres, radii)

    hulls = shapely.convex_hull(o.outlines)
    rects = shapely.oriented_envelope(o.outlines)
    hull_pts = _ring_points(_round_polygons(hulls))
    rect_pts = _ring_points(_round_polygons(rects))

    aabb_l, centres_l, radii_l = aabb.tolist(), centres.tolist(), radii.tolist()
    result = {}
    for k, oid in enumerate(o.ids):
        result[oid] = {
            "aabb": aabb_l[k],
            "circle": {"center": centres_l[k], "radius": radii_l[k]},
            "convex_hull": hull_pts[k],
            "min_rect": rect_pts[k],
        }
    result[LEVEL_KEY] = _whole_level(o, hulls)
    return result


def _whole_level(o: LevelOutlines, hulls: np.ndarray) -> dict:
    box = np.concatenate([o.aabb[:, :2].min(axis=0), o.aabb[:, 2:].max(axis=0)])
    hull = shapely.convex_hull(shapely.multipoints(shapely.get_coordinates(hulls)))
    # Smallest circle of the hull, or the exact one when a single object makes the level.
    if len(o) == 1:
        centre = shapely.get_coordinates(shapely.centroid(shapely.minimum_bounding_circle(o.sites[0])))
        radius = np.array([shapely.minimum_bounding_radius(o.sites[0]) + o.rounding[0]])
    else:
        centre = shapely.get_coordinates(shapely.centroid(shapely.minimum_bounding_circle(hull)))
        radius = np.array([shapely.minimum_bounding_radius(hull)])
    centre, radius = _round_circle(centre, radius)
    polys = _round_polygons(np.array([hull, shapely.oriented_envelope(hull)], dtype=object))
    hull_pts, rect_pts = _ring_points(polys)
    return {
        "aabb": _round_box(box[None, :])[0].tolist(),
        "circle": {"center": centre[0].tolist(), "radius": float(radius[0])},
        "convex_hull": hull_pts,
        "min_rect": rect_pts,
    }


def _round_box(boxes: np.ndarray) -> np.ndarray:
    """Boxes rounded outwards: minimums down, maximums up (exact values stay as they are)."""
    scaled = boxes * (1.0 / _UNIT)
    near = np.round(scaled)
    # Values already on the grid (up to float noise) keep their exact rounding.
    on_grid = np.abs(scaled - near) < 1e-6
    low = np.where(on_grid[:, :2], near[:, :2], np.floor(scaled[:, :2]))
    high = np.where(on_grid[:, 2:], near[:, 2:], np.ceil(scaled[:, 2:]))
    return _clean(np.concatenate([low, high], axis=1) / (1.0 / _UNIT))


def _round_circle(centres: np.ndarray, radii: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centres rounded to the grid; radii grown by the centre's shift and rounded up."""
    rounded = np.round(centres, DECIMALS)
    grown = np.asarray(radii) + np.hypot(*(rounded - centres).T)
    scaled = grown * (1.0 / _UNIT)
    near = np.round(scaled)
    up = np.where(np.abs(scaled - near) < 1e-6, near, np.ceil(scaled))
    return _clean(rounded), _clean(up / (1.0 / _UNIT))


def _round_polygons(polys: np.ndarray) -> np.ndarray:
    """Polygons with vertices on the grid that still cover the originals."""
    rounded = shapely.transform(polys, lambda c: np.round(c, DECIMALS))
    cut = ~shapely.covers(rounded, polys)
    if cut.any():
        grown = shapely.buffer(polys[cut], _UNIT, join_style="mitre")
        rounded[cut] = shapely.transform(grown, lambda c: np.round(c, DECIMALS))
    return rounded


def _ring_points(polys: np.ndarray) -> list:
    """Each polygon's exterior as a list of [x, y], without repeating the first point."""
    coords, owner = shapely.get_coordinates(shapely.get_exterior_ring(polys), return_index=True)
    coords = _clean(coords)
    counts = np.bincount(owner, minlength=len(polys))
    out = []
    start = 0
    flat = coords.tolist()
    for c in counts.tolist():
        out.append(flat[start:start + c - 1])
        start += c
    return out


def _clean(a: np.ndarray) -> np.ndarray:
    """Turns -0.0 into 0.0 so files never show a negative zero."""
    a = np.round(a, DECIMALS)
    a[a == 0] = 0.0
    return a
