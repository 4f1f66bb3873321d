"""Bounding hulls of a level's objects and of the whole level: what ``hulls`` holds in a saved file.

For each object id, and for the whole level under ``"level"``::

    {"aabb": [minx, miny, maxx, maxy],
     "circle": {"center": [x, y], "radius": r},
     "convex_hull": [[x, y], ...],
     "min_rect": [[x, y], [x, y], [x, y], [x, y]]}

all of the object's full collision outline: walls with their thickness and
round ends and joints, pillars round, tile grids the union of their solid
cells. Objects that are not solid have hulls like the others; markers
(points), reference images and tile grids without a solid cell have no
outline and so no entry, and the level's hulls cover every object that has
one. A level without such objects has no hulls (``{}``).

Every hull *contains* the exact shape, also after rounding to
:data:`DECIMALS` decimals:

- ``aabb`` is exact (computed from nodes, corners and radii, not from
  polygons), then rounded outwards.
- ``circle`` is the exact smallest circle for every object: the smallest
  circle around its nodes, corners (a tile grid's: of its convex hull) or
  centre, grown by its round radius. The level's circle is the smallest
  circle around the level's convex hull.
  Rounding moves the centre by at most half a unit of the last decimal; the
  radius grows by that shift and is rounded up.
- ``convex_hull`` of a wall or pillar is the convex hull of its nodes (or
  centre) grown by its radius, drawn just outside the real arcs (by at most :data:`HULL_TOLERANCE` plus a
  thousandth of a pixel, with as few vertices as that allows); a box's and an
  oriented box's hull is its four corners; a tile grid's is the exact convex
  hull of its solid cells.
- ``min_rect`` is exact for boxes, oriented boxes, pillars (the upright
  square) and one-segment walls (the segment grown by its half thickness all
  round); for longer walls and tile grids it is shapely's minimum rotated
  rectangle of the hull, and for the level that of the level's hull.
- Exact corners that rounding would cut into are first moved out by one unit
  of the last decimal.

Points go round the polygon in shapely's order, without repeating the first.
Everything is computed with shapely's vectorised functions for all objects at
once.

>>> from core.level.model import Level, Pillar
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

from core.level.model import Level
from core.checks.outlines import (
    BOX,
    ORIENTED_BOX,
    PILLAR,
    ROUND_MARGIN,
    TILES,
    WALL,
    LevelOutlines,
    collector_paused,
    level_outlines,
)

__all__ = ["level_hulls", "DECIMALS", "LEVEL_KEY"]

#: Decimals kept in ``hulls`` (a thousandth of a pixel).
DECIMALS = 3

#: The key of the whole level's hulls.
LEVEL_KEY = "level"

_UNIT = 10.0 ** -DECIMALS

#: How far (px) the hull of a round part may reach outside its real arc.
HULL_TOLERANCE = 0.05


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
    >>> from core.level.model import Level, Wall
    >>> h = level_hulls(Level(objects=[Wall("w", [(0, 0), (10, 0)], 4)]))
    >>> h["w"]["aabb"], h["w"]["circle"]["radius"]
    ([-2.0, -2.0, 12.0, 2.0], 7.0)
    """
    o = outlines if outlines is not None else level_outlines(level)
    if not len(o):
        return {}
    with collector_paused():
        return _hulls(o)


def _hulls(o: LevelOutlines) -> dict:
    n = len(o)
    kinds = o.kinds
    site_xy, site_owner = shapely.get_coordinates(o.sites, return_index=True)
    site_count = np.bincount(site_owner, minlength=n)
    site_start = np.cumsum(site_count) - site_count

    # Boxes and oriented boxes: their four corners are their hull and their smallest rectangle.
    boxy = np.flatnonzero((kinds == BOX) | (kinds == ORIENTED_BOX))
    corners = site_xy[site_start[boxy, None] + np.arange(4)]
    # Walls of one segment: a capsule, whose smallest rectangle runs along the segment.
    capsule = np.flatnonzero((kinds == WALL) & (site_count == 2))
    ends = site_xy[site_start[capsule, None] + np.arange(2)]
    # Pillars: any square around the disc is smallest; take the upright one.
    pillar = np.flatnonzero(kinds == PILLAR)
    # Longer walls: shapely's smallest circle around the nodes, and its rectangle around the hull.
    chain = np.flatnonzero((kinds == WALL) & (site_count != 2))
    curved = np.flatnonzero((kinds == WALL) | (kinds == PILLAR))  # round parts, also of thickness 0
    # Tile grids: straight edges, the corners of their convex hull are their sites.
    tiles = np.flatnonzero(kinds == TILES)
    # Shapely's smallest circle around the sites, for shapes whose circle is not known in closed form.
    around = np.concatenate([chain, tiles])

    centres = np.zeros((n, 2))
    radii = np.zeros(n)
    centres[boxy] = corners.mean(axis=1)
    radii[boxy] = np.hypot(*(corners[:, 0] - corners[:, 2]).T) / 2
    centres[capsule] = ends.mean(axis=1)
    radii[capsule] = np.hypot(*(ends[:, 1] - ends[:, 0]).T) / 2 + o.rounding[capsule]
    centres[pillar] = site_xy[site_start[pillar]]
    radii[pillar] = o.rounding[pillar]
    if len(around):
        # The smallest circle around the sites is the one around their convex hull, which has far fewer points.
        site_hulls = shapely.convex_hull(o.sites[around])
        centres[around] = _circle_centres(site_hulls)
        radii[around] = shapely.minimum_bounding_radius(site_hulls) + o.rounding[around]
    centres, radii = _round_circle(centres, radii)

    aabb = _round_box(o.aabb)
    hull_pts: list = [None] * n
    rect_pts: list = [None] * n
    hulls = _round_hulls(o, curved)
    _put(hull_pts, curved, _ring_points(hulls, grow=False))
    _put(hull_pts, boxy, _quad_points(corners))
    _put(rect_pts, boxy, hull_pts, boxy)
    _put(rect_pts, capsule, _quad_points(_capsule_rects(ends, o.rounding[capsule])))
    x0, y0, x1, y1 = aabb[pillar].T
    squares = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1), np.stack([x0, y1], 1)], 1)
    _put(rect_pts, pillar, _clean(squares).tolist())
    if len(chain):
        chain_hulls = hulls[np.searchsorted(curved, chain)]
        _put(rect_pts, chain, _ring_points(shapely.oriented_envelope(chain_hulls), grow=False))
    if len(tiles):
        # The cells' corners may lie off the grid of DECIMALS decimals: grown so rounding cannot cut in.
        tile_hulls = shapely.convex_hull(o.outlines[tiles])
        _put(hull_pts, tiles, _ring_points(tile_hulls, grow=True))
        _put(rect_pts, tiles, _ring_points(shapely.oriented_envelope(tile_hulls), grow=True))

    aabb_l, centres_l, radii_l = aabb.tolist(), centres.tolist(), radii.tolist()
    result = {
        oid: {
            "aabb": aabb_l[k],
            "circle": {"center": centres_l[k], "radius": radii_l[k]},
            "convex_hull": hull_pts[k],
            "min_rect": rect_pts[k],
        }
        for k, oid in enumerate(o.ids)
    }
    result[LEVEL_KEY] = _whole_level(o, site_xy, hulls, curved, corners, boxy)
    return result


def _round_hulls(o: LevelOutlines, curved: np.ndarray) -> np.ndarray:
    """Convex hulls of the objects with round parts (walls, pillars), as few vertices as containment allows.

    The hull of a wall is the hull of discs at its nodes, which is the convex
    hull of its nodes grown by the radius: so the nodes' hull (a few dozen
    points even for a wall of 300,000 nodes) is grown, never the nodes one by
    one. The growth is drawn as a polygon around the real arcs (radius grown by
    1 / cos of the largest half angle of a chord GEOS draws, plus ROUND_MARGIN
    so rounding to the grid cannot cut in) with just enough vertices to stay
    within :data:`HULL_TOLERANCE` of them, which keeps saved files small.
    """
    r = o.rounding[curved]
    # GEOS rounds each corner's arc to a whole number of steps (angle / step + 0.5), so one chord can span
    # up to 1.5 steps: its half angle is at most 3/4 of a step, 3 pi / (8 q) for q steps per quarter turn.
    steps = np.ceil((3 * np.pi / 8) / np.arccos(r / (r + HULL_TOLERANCE)))
    quad_segs = np.clip(steps, 2, 256).astype(int)
    out = np.empty(len(curved), dtype=object)
    # The hull of discs at the sites is the hull of the sites grown by the radius (a Minkowski sum with a
    # disc keeps convexity), so the sites' hull is grown, not each disc: linear in the nodes.
    site_hulls = shapely.convex_hull(o.sites[curved])
    for q in np.unique(quad_segs).tolist():
        pick = quad_segs == q
        grown = r[pick] / np.cos(3 * np.pi / (8 * q)) + ROUND_MARGIN
        out[pick] = shapely.convex_hull(shapely.buffer(site_hulls[pick], grown, quad_segs=q))
    return out


def _put(target: list, where: np.ndarray, values: list, source: Optional[np.ndarray] = None) -> None:
    if source is None:
        for k, v in zip(where.tolist(), values):
            target[k] = v
    else:
        for k in where.tolist():
            target[k] = values[k]


def _capsule_rects(ends: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The smallest rectangle around each one-segment wall: the segment grown by r all round."""
    d = ends[:, 1] - ends[:, 0]
    length = np.hypot(d[:, 0], d[:, 1])
    u = np.where(length[:, None] > 0, d / np.where(length > 0, length, 1.0)[:, None], [1.0, 0.0]) * r[:, None]
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    a, b = ends[:, 0], ends[:, 1]
    return np.stack([a - u - v, b + u - v, b + u + v, a - u + v], axis=1)


def _whole_level(o: LevelOutlines, site_xy, hulls, curved, corners, boxy) -> dict:
    box = np.concatenate([o.aabb[:, :2].min(axis=0), o.aabb[:, 2:].max(axis=0)])
    # The nodes, corners and centres belong to the objects, so their hull lies inside the
    # level's; an object whose box lies inside it cannot add a point to the level's hull.
    inner = shapely.convex_hull(shapely.linestrings(np.vstack([site_xy, site_xy[:1]])))
    shapely.prepare(inner)
    x0, y0, x1, y1 = o.aabb.T
    inside = (shapely.contains_xy(inner, x0, y0) & shapely.contains_xy(inner, x1, y0)
              & shapely.contains_xy(inner, x1, y1) & shapely.contains_xy(inner, x0, y1))
    outer_curved = ~inside[curved]
    outer_boxy = ~inside[boxy]
    points = np.vstack([
        shapely.get_coordinates(inner),
        shapely.get_coordinates(hulls[outer_curved]),
        corners[outer_boxy].reshape(-1, 2),
    ])
    hull = shapely.convex_hull(shapely.linestrings(np.vstack([points, points[:1]])))
    if len(o) == 1:
        # The exact circle of the only object.
        if o.kinds[0] == PILLAR:
            centre, radius = site_xy[:1], np.array([o.rounding[0]])
        else:
            site_hull = shapely.convex_hull(o.sites[:1])
            centre = _circle_centres(site_hull)
            radius = np.array([shapely.minimum_bounding_radius(site_hull[0]) + o.rounding[0]])
    else:
        centre = _circle_centres(np.array([hull], dtype=object))
        radius = np.array([shapely.minimum_bounding_radius(hull)])
    centre, radius = _round_circle(centre, radius)
    hull_pts, rect_pts = _ring_points(np.array([hull, shapely.oriented_envelope(hull)], dtype=object), grow=True)
    return {
        "aabb": _round_box(box[None, :])[0].tolist(),
        "circle": {"center": centre[0].tolist(), "radius": float(radius[0])},
        "convex_hull": hull_pts,
        "min_rect": rect_pts,
    }


def _circle_centres(shapes: np.ndarray) -> np.ndarray:
    """The centre of the smallest circle around each shape, shape (k, 2).

    shapely gives the circle of a single point (or of points all at one
    place) as that point, whose centroid is itself; any shape that yields
    no centre keeps the middle of its bounds.
    """
    circles = shapely.minimum_bounding_circle(shapes)
    centres = shapely.centroid(circles)
    bounds = shapely.bounds(shapes).reshape(-1, 4)
    middle = (bounds[:, :2] + bounds[:, 2:]) / 2
    xy = np.full((len(centres), 2), np.nan)
    found = ~shapely.is_empty(centres) & ~shapely.is_missing(centres)
    xy[found] = shapely.get_coordinates(centres[found])
    return np.where(np.isfinite(xy), xy, middle)


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


def _ring_points(polys: np.ndarray, grow: bool) -> list:
    """Each convex polygon's exterior as a list of [x, y] on the grid, the first point not repeated.

    With ``grow``, a polygon with a vertex off the grid is first grown by one
    grid unit (each edge moved out, corners mitred), so rounding its vertices
    by at most half a unit in x and y cannot cut into it.
    """
    coords, owner = shapely.get_coordinates(shapely.get_exterior_ring(polys), return_index=True)
    counts = np.bincount(owner, minlength=len(polys))
    ends = np.cumsum(counts)
    keep = np.ones(len(coords), dtype=bool)
    keep[ends[counts > 0] - 1] = False  # the closing point
    coords, owner = coords[keep], owner[keep]
    counts = np.maximum(counts - 1, 0)
    starts = np.cumsum(counts) - counts

    if grow:
        scaled = coords * (1.0 / _UNIT)
        off_grid = np.abs(scaled - np.round(scaled)) > 1e-6
        moved = np.bincount(owner, weights=off_grid.any(axis=1), minlength=len(polys)) > 0
        if moved.any():
            coords = coords + _UNIT * _mitre_offsets(coords, owner, starts, counts) * moved[owner, None]
    flat = _clean(coords).tolist()
    bounds = np.stack([starts, starts + counts], axis=1).tolist()
    return [flat[a:b] for a, b in bounds]


def _quad_points(quads: np.ndarray) -> list:
    """Four-cornered convex polygons (k, 4, 2) as lists of points on the grid, grown where rounding would cut."""
    if not len(quads):
        return []
    polys = shapely.polygons(quads)
    return _ring_points(polys, grow=True)


def _mitre_offsets(coords, owner, starts, counts) -> np.ndarray:
    """For each vertex of convex rings, where it moves when every edge moves out by 1."""
    idx = np.arange(len(coords))
    pos = idx - starts[owner]
    nxt = np.where(pos + 1 == counts[owner], starts[owner], idx + 1)
    prv = np.where(pos == 0, starts[owner] + counts[owner] - 1, idx - 1)
    cross = coords[:, 0] * coords[nxt, 1] - coords[nxt, 0] * coords[:, 1]
    turn = np.sign(np.bincount(owner, weights=cross, minlength=len(starts)))[owner]

    def outward(d):
        length = np.hypot(d[:, 0], d[:, 1])
        length[length == 0] = 1.0
        return turn[:, None] * np.stack([d[:, 1], -d[:, 0]], axis=1) / length[:, None]

    n_in = outward(coords - coords[prv])
    n_out = outward(coords[nxt] - coords)
    denom = 1.0 + np.sum(n_in * n_out, axis=1)
    denom[denom < 1e-9] = 1e-9
    return (n_in + n_out) / denom[:, None]


def _clean(a: np.ndarray) -> np.ndarray:
    """Turns -0.0 into 0.0 so files never show a negative zero."""
    a = np.round(a, DECIMALS)
    a[a == 0] = 0.0
    return a
