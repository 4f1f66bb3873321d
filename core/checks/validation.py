"""Validation of a level: its geometry (shapely is the authority here, never in the per-tick loop) and what
its objects refer to.

What the file format itself forbids (unknown layers, duplicate ids, layer ids
or type names, bad tile rows, bad property values) is the loader's to report;
here is what a well-formed level can still get wrong.

:func:`validate_level` returns every problem it finds, errors first, then
warnings, then one piece of information. Each problem names its object (its
id, ``"player"`` for the player, ``"-"`` for the level) and carries a point to
show on the canvas (problems of the level's own data carry none); messages
that point at a spot also give its coordinates, for readers of the command
line.

Only solid objects take part in the checks about colliding (the spawn, narrow
passages, walls crossing walls, the spawn's free space): an area the player
walks through (``solid: false``) blocks nothing. Markers and reference images
have no outline and take part in none of the geometry checks.

Errors (the level is wrong; ``check`` exits 1 and ``export`` writes nothing):

- **zero-length segment**: two consecutive nodes of a wall (or, for a closed
  wall, its last and first node) are at the same place.
- **closed wall crossing itself**: the node ring of a closed wall crosses,
  touches or runs back over itself (consecutive duplicate nodes are ignored
  here; they are reported as zero-length segments).
- **player overlapping geometry at its spawn**: the player's real body (circle
  or box) at the spawn shares a point with any solid object's exact collision
  shape; touching counts. Decided by the collision core's exact ``overlaps``,
  so the validator and the play-test agree.
- **reference to an object that does not exist**: a custom property (an
  object's own, the level's, or a type's default) holds ``{"ref": ID}`` and no
  object has that id. Named on the object that holds it (``"-"`` for the
  level's properties and for a type's defaults, whose message names the type).

Warnings (worth a look; the level still exports):

- **unknown type**: an object's ``type`` is not one of the level's ``types``
  (allowed by the format, but often a typo; the object gets no defaults).
- **missing picture**: a reference image's file is not there, is not
  readable, or does not start like a PNG or JPEG file. Checked only when the
  caller says where the level file lives (``base_dir``), since the picture's
  path is relative to it.
- **tile grid without solid cells**: it collides nowhere and has nothing to
  show or to pick on the canvas, so it is most likely left over from erasing
  every cell and is best deleted. Not an error: the file is sound and the game
  loses nothing by it.

- **closed wall with fewer than 3 nodes**: there is nothing to close, it
  collides as an open wall.
- **open wall crossing itself**: its chain crosses or runs back over itself
  (ending on itself, like a "P", is allowed).
- **walls crossing walls**: the node chains of two walls cross (one passes
  from one side of the other to the other), or run along each other. Walls
  that only touch are fine: one ending on another (a T or an L), or two
  meeting at a node where each stays on its own side (rooms sharing a corner).
- **narrow passage**: two objects leave a gap wider than 0 that the player
  cannot pass, because its body could touch both at once: a gap of at most
  the diameter for a circle player; for a box player, some point of each
  object at most its width apart in x and its height apart in y (so a slot
  between left and right must beat its width, one between above and below
  its height, and a diagonal one something in between). Touching counts, as
  everywhere in the collision core. Gaps are measured exactly between the
  objects' convex pieces (wall segments, pillars, boxes, cell rectangles; see
  :mod:`level_editor.core.checks.pieces`), also between two parts of one wall that are
  not next to each other (the two ends of an open chain forming a door, the
  sides of a hairpin). A gap that passes through some other piece (the rest
  of the wall, a third object) is no passage, and neither is a gap between
  two parts of one wall so close along it that the player could not be
  anywhere inside the loop they make (see :func:`level_editor.core.checks.pieces.find_gaps`).
  Each passage (the gaps between neighbouring pieces of the same two objects)
  is reported once, at the middle of its narrowest spot; two objects may
  leave several passages. A wall's passages with itself are reported one by
  one up to :data:`PASSAGES_SHOWN`, and the rest counted in one more warning.
- **far object**: the level's middle is the median of the objects' centres,
  its core radius ``s`` the median distance of the centres from it (half of
  the objects lie within ``s``), and its typical extent ``D = 2 s`` (at least
  :data:`FAR_MIN_PLAYERS` player widths). An object is far when its nearest
  point is more than :data:`FAR_FACTOR` times ``D`` from the middle: a slip of
  the mouse or a paste that landed off screen. The spawn is checked the same way.

Information:

- **spawn area enclosed or open**: the spawn is enclosed when the player
  cannot get from it to infinity: when the solid objects, with every gap
  too narrow for the player bridged, close it in (touching objects close a
  gap, and so does a door narrower than the player), else it is open.

Objects whose numbers the geometry code cannot take (not finite, beyond
:mod:`level_editor.core.level.limits`, negative sizes) are errors of their own and left out
of every other check; so is a player that cannot be placed.

Every check is vectorised with shapely 2 and numpy (``STRtree`` queries over
all pieces at once, in chunks), so time and memory grow with the number of
objects, nodes and near pairs, never with the player's size.
"""
from __future__ import annotations

import math
import os
from typing import Optional

import numpy as np
import shapely

from level_editor.core.level.collector import paused_collector
from level_editor.core.level.model import Image, Level, Ref, Sprite, Tiles, Wall
from level_editor.core.level.number_text import rounded_text
from level_editor.core.checks.outlines import (
    QUAD_SEGS,
    ROUND_GROWTH,
    ROUND_MARGIN,
    TILES,
    LevelOutlines,
    has_solid_cells,
    level_outlines,
    node_array,
)
from level_editor.core.checks.pieces import (Pieces, connected_groups, cut_into_pieces, find_gaps, free_gaps,
                                passages)
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Rect
from level_editor.core.level.limits import MAX_COORDINATE, MAX_SIZE
from level_editor.core.level.loader_names import ELEMENTS, loader_reserved, tiled_names
from level_editor.core.level.problems import ERROR, INFO, LEVEL_ID, PLAYER_ID, WARNING, Problem
from level_editor.core.level.reading import LevelFileError, read_file_bytes
from level_editor.core.collision.shapes import Vec2

__all__ = ["validate_level", "picture_problem", "picture_warning", "player_outline", "player_extent", "FAR_FACTOR",
           "FAR_MIN_PLAYERS"]

#: An object is far when it is more than this many times the level's typical extent from its middle.
FAR_FACTOR = 3.0

#: Zero-length segments reported one by one per wall; the rest of them are counted in one more problem.
ZERO_SEGMENTS_SHOWN = 10

#: The typical extent of a level is taken to be at least this many player widths.
FAR_MIN_PLAYERS = 16.0

_SEVERITY_ORDER = {ERROR: 0, WARNING: 1, INFO: 2}

#: How a PNG file starts: its signature; the first chunk, IHDR, follows its 4-byte length.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

#: How a JPEG file starts: the start-of-image marker and the first byte of the next marker.
JPEG_START = b"\xff\xd8\xff"


def validate_level(level: Level, outlines: Optional[LevelOutlines] = None,
                   base_dir: Optional[str] = None) -> list[Problem]:
    """Every semantic problem of ``level``: errors, then warnings, then the spawn area's info.

    Parameters
    ----------
    level : Level
        A level that loaded (structure, types and ranges are the loader's job).
    outlines : LevelOutlines, optional
        The level's outlines, when the caller already built them.
    base_dir : str, optional
        The folder of the level file, which reference images' paths are
        relative to. Without it, the pictures are not looked at.

    Returns
    -------
    list of Problem
        Sorted by severity; within one severity, in the order found (objects
        in level order).

    Examples
    --------
    >>> from level_editor.core.level.model import Level, Player, Box
    >>> level = Level(player=Player(spawn=(0, 0)), objects=[Box("crate", (5, -5), (10, 10))])
    >>> [str(p) for p in validate_level(level) if p.is_error]
    ['player: the player overlaps crate at its spawn; move the spawn or the object']
    """
    with paused_collector():
        return _validate(level, outlines if outlines is not None else level_outlines(level), base_dir)


def _validate(level: Level, o: LevelOutlines, base_dir: Optional[str]) -> list[Problem]:
    problems: list[Problem] = [Problem(u.id, u.message, ERROR, _vec(u.location) if u.location else None)
                               for u in o.unfit]
    problems += _wall_problems(o)
    problems += _object_data(level, base_dir)
    player_trouble = _player_problem(level)
    if player_trouble is not None:
        # Nothing about the spawn or the player's size can be measured; the objects' own checks still run.
        problems.append(player_trouble)
        problems += _wall_crossings(o.solid_only())
        problems.append(Problem(LEVEL_ID, "the free space around the spawn was not looked at, since the player "
                                          "cannot be placed; fix the player first", INFO))
        return sorted(problems, key=lambda p: _SEVERITY_ORDER[p.severity])
    solid = o.solid_only()
    pieces = cut_into_pieces(solid)
    problems += _spawn_overlap(level, solid, pieces)
    blocking = _blocking_gaps(level, pieces)
    problems += _narrow_passages(level, solid, pieces, blocking)
    problems += _wall_crossings(solid)
    problems += _far_objects(level, o)
    problems.append(_spawn_area(level, solid, pieces, blocking))
    return sorted(problems, key=lambda p: _SEVERITY_ORDER[p.severity])


def _player_problem(level: Level) -> Optional[Problem]:
    """What makes the player impossible to place: a spawn or a size that is not a finite number within the limits."""
    p = level.player
    s = p.spawn
    if not (math.isfinite(s.x) and math.isfinite(s.y)) or max(abs(s.x), abs(s.y)) > MAX_COORDINATE:
        return Problem(PLAYER_ID, f"the spawn ({s.x:g}, {s.y:g}) is not a place in the level (coordinates must be "
                                  f"finite and within ±{MAX_COORDINATE:,.0f} px); move the spawn", ERROR)
    sizes = (("radius", p.radius),) if p.shape != "box" else (("width", p.size.x), ("height", p.size.y))
    for name, v in sizes:
        if not (math.isfinite(v) and 0 < v <= MAX_SIZE):
            return Problem(PLAYER_ID, f"the player's {name} ({v:g}) must be more than 0 and at most "
                                      f"{MAX_SIZE:,.0f} px", ERROR, s)
    return None


# ---------------------------------------------------------------------------
# The player


def player_outline(level: Level):
    """The player's body at its spawn as a shapely polygon (a circle's outline contains the disc)."""
    p = level.player
    s = p.spawn
    if p.shape == "box":
        h = p.half_size
        return shapely.box(s.x - h.x, s.y - h.y, s.x + h.x, s.y + h.y)
    return shapely.Point(s.x, s.y).buffer(p.radius * ROUND_GROWTH + ROUND_MARGIN, quad_segs=QUAD_SEGS)


def player_extent(level: Level, ux: float = 1.0, uy: float = 0.0) -> float:
    """How wide the player is across the unit direction ``(ux, uy)``: a gap must be at least this wide."""
    p = level.player
    if p.shape == "box":
        return p.size.x * abs(ux) + p.size.y * abs(uy)
    return 2.0 * p.radius


def _player_reach(level: Level) -> float:
    """The largest width of the player in any direction."""
    p = level.player
    if p.shape == "box":
        return math.hypot(p.size.x, p.size.y)
    return 2.0 * p.radius


# ---------------------------------------------------------------------------
# Walls on their own


def _wall_problems(o: LevelOutlines) -> list[Problem]:
    """Zero-length segments, too few nodes to close, and walls crossing themselves."""
    problems: list[Problem] = []
    if not len(o.wall_index):
        return problems
    coords, owner = shapely.get_coordinates(o.chains, return_index=True)
    same = owner[1:] == owner[:-1]
    zero = same & np.all(coords[1:] == coords[:-1], axis=1)
    zero_at = np.flatnonzero(zero)
    starts = np.searchsorted(owner, np.arange(len(o.chains)))
    zero_by_wall: dict[int, list[int]] = {}
    for k in zero_at:
        w = int(owner[k])
        zero_by_wall.setdefault(w, []).append(int(k - starts[w]))

    # GEOS says quickly whether a short chain is simple; a long one is searched at once, which stops at the
    # first place it meets itself (is_simple takes seconds on a 300,000-node wall that folds on itself).
    long_chain = shapely.get_num_coordinates(o.chains) > _LONG_CHAIN
    simple = np.zeros(len(o.chains), dtype=bool)
    simple[~long_chain] = shapely.is_simple(o.chains[~long_chain])
    for w, obj_index in enumerate(o.wall_index):
        wall: Wall = o.objects[obj_index]
        n = len(wall.points)
        zero = zero_by_wall.get(w, ())
        for seg in zero[:ZERO_SEGMENTS_SHOWN]:
            where = wall.points[seg % n]
            if seg == n - 1 and wall.closed:
                message = (f"the closing segment (from the last node back to node 1) has zero length: "
                           f"the last node is on top of the first, near {_at(where)}")
            else:
                message = (f"segment {seg + 1} has zero length: nodes {seg + 1} and {seg + 2} are at the "
                           f"same place, near {_at(where)}")
            problems.append(Problem(wall.id, message, ERROR, where))
        if len(zero) > ZERO_SEGMENTS_SHOWN:
            where = wall.points[zero[ZERO_SEGMENTS_SHOWN] % n]
            problems.append(Problem(
                wall.id, f"{len(zero) - ZERO_SEGMENTS_SHOWN:,} more segments have zero length (nodes on top of "
                         f"the node before them), the next near {_at(where)}", ERROR, where))
        if wall.closed and n < 3:
            problems.append(Problem(
                wall.id,
                f"is marked closed but has only {n} nodes, so there is nothing to close: "
                f"it collides as an open wall; add a node or untick 'closed'",
                WARNING, wall.points[0]))
        if not simple[w]:
            closes = wall.closed and n >= 3
            hit = _self_crossing(wall.points, closes)
            if hit is not None:
                where, folds = hit
                how = "runs back over itself" if folds else "crosses itself"
                if closes:
                    problems.append(Problem(wall.id, f"this closed wall's outline {how} near {_at(where)}",
                                            ERROR, where))
                else:
                    problems.append(Problem(wall.id, f"this wall {how} near {_at(where)}", WARNING, where))
    return problems


def _self_crossing(points, closed: bool) -> Optional[tuple[Vec2, bool]]:
    """Where a node chain first crosses, touches or runs back over itself, and whether it folds back.

    An open chain may end on itself (a "P" or a chain whose last node is its
    first); a closed ring may not touch itself anywhere. The segments that
    meet are found with an STRtree and looked at in order, a chunk at a time,
    so a wall of 300,000 nodes costs about as much as its segments.
    """
    pts = node_array(points)
    if len(pts):
        pts = pts[np.r_[True, np.any(pts[1:] != pts[:-1], axis=1)]]
    if closed:
        while len(pts) > 1 and np.all(pts[-1] == pts[0]):
            pts = pts[:-1]
        if len(pts) < 2:
            return None
        ring = np.vstack([pts, pts[:1]])
    else:
        ring = pts
    n = len(ring) - 1
    if n < 2:
        return None
    segs = shapely.linestrings(np.stack([ring[:-1], ring[1:]], axis=1))
    tree = shapely.STRtree(segs)
    step = ring[1:] - ring[:-1]
    # The segments are asked about in order, in growing batches, so the search ends soon after the first
    # place where the chain meets itself (a chain running back and forth has millions of such pairs).
    start, batch = 0, 16
    while start < n:
        stop = min(n, start + batch)
        hit = _first_meeting(ring, segs, step, tree, start, stop, closed, n)
        if hit is not None:
            return hit
        start, batch = stop, min(batch * 2, 65536)
    return None


def _first_meeting(ring, segs, step, tree, start: int, stop: int, closed: bool, n: int):
    """Where segments ``start`` to ``stop`` of a chain first meet a later segment wrongly (see _self_crossing)."""
    first, second = tree.query(segs[start:stop], predicate="intersects")
    first = first + start
    keep = first < second
    first, second = first[keep], second[keep]
    order = np.lexsort((second, first))
    first, second = first[order], second[order]
    for lo in range(0, len(first), _CROSSING_CHUNK):
        a, b = first[lo:lo + _CROSSING_CHUNK], second[lo:lo + _CROSSING_CHUNK]
        wrap = closed & (a == 0) & (b == n - 1)
        adjacent = (b == a + 1) | wrap
        # Neighbours always share their node; they are wrong only when they fold back on each other.
        da, db = step[a], step[b]
        folds_back = adjacent & (da[:, 0] * db[:, 1] - da[:, 1] * db[:, 0] == 0) & (np.sum(da * db, axis=1) < 0)
        hit = folds_back.copy()
        inner_at: dict[int, tuple[float, float]] = {}
        others = np.flatnonzero(~adjacent)
        if len(others):
            inter = shapely.intersection(segs[a[others]], segs[b[others]])
            xy, which = shapely.get_coordinates(inter, return_index=True)
            if not closed:
                at_end = np.all(xy == ring[0], axis=1) | np.all(xy == ring[-1], axis=1)
                xy, which = xy[~at_end], which[~at_end]
            firsts = np.unique(which, return_index=True)
            for w, k in zip(firsts[0].tolist(), firsts[1].tolist()):
                inner_at[int(others[w])] = (float(xy[k, 0]), float(xy[k, 1]))
            hit[others[np.unique(which)]] = True
        found = np.flatnonzero(hit)
        if len(found):
            k = int(found[0])
            if adjacent[k]:
                node = ring[b[k]] if not wrap[k] else ring[0]
                return Vec2(float(node[0]), float(node[1])), True
            folds = bool(shapely.get_dimensions(shapely.intersection(segs[a[k]], segs[b[k]])) >= 1)
            return Vec2(*inner_at[k]), folds
    return None


#: Pairs of a wall's segments looked at together when searching where it crosses itself.
_CROSSING_CHUNK = 4096

#: Walls of more nodes than this are searched for where they meet themselves without asking GEOS first.
_LONG_CHAIN = 2000


# ---------------------------------------------------------------------------
# The spawn


def _spawn_overlap(level: Level, o: LevelOutlines, pieces: Pieces) -> list[Problem]:
    """The player's body at the spawn against the exact collision shapes of the objects in ``o``."""
    body = level.player.body_at(level.player.spawn)
    hits = [o.objects[k].id for k in _objects_at(level, o, pieces, body)]
    if not hits:
        return []
    names = ", ".join(hits[:3]) + (f" and {len(hits) - 3} more" if len(hits) > 3 else "")
    return [Problem(PLAYER_ID, f"the player overlaps {names} at its spawn; move the spawn or the object",
                    ERROR, level.player.spawn)]


def _objects_at(level: Level, o: LevelOutlines, pieces: Pieces, shape) -> list[int]:
    """The objects of ``o`` whose exact collision shape shares a point with ``shape`` (a body or a point), in order.

    Decided by the collision core's exact ``overlaps`` on the pieces near the
    spawn only, so a wall of 100,000 nodes costs no more than its nearby segments.
    """
    if not len(pieces):
        return []
    s = level.player.spawn
    h = level.player.half_size
    around = shapely.box(s.x - h.x, s.y - h.y, s.x + h.x, s.y + h.y) if isinstance(shape, (Circle, Rect)) \
        else shapely.Point(s.x, s.y)
    near = shapely.STRtree(pieces.skeletons).query(around, predicate="dwithin", distance=float(pieces.radius.max()))
    found = set()
    for k in sorted(near.tolist()):
        owner = int(pieces.owner[k])
        if owner in found:
            continue
        if pieces.polygon[k]:
            obj = o.objects[owner]
            if isinstance(obj, Tiles) and not obj.tileset:
                x0, y0, x1, y1 = shapely.bounds(pieces.skeletons[k])
                shapes = (Rect(Vec2(x0, y0), Vec2(x1 - x0, y1 - y0)),)
            else:
                shapes = obj.collision_shapes()
        else:
            a, b = _vec(pieces.a[k]), _vec(pieces.b[k])
            shapes = (Capsule(a, b, float(pieces.radius[k])),)
        if any(overlaps(shape, part) for part in shapes):
            found.add(owner)
    return sorted(found)


# ---------------------------------------------------------------------------
# Gaps the player cannot pass


class _Blocking:
    """The gaps between pieces that the player cannot pass, and the pieces that touch (see :func:`_blocking_gaps`).

    ``touch_i, touch_j``: pieces that touch or overlap (of different objects, or of one wall and not
    consecutive), ``touch_ends`` the closest points of their skeletons.
    ``i, j, gap, ends, free``: pieces apart by a gap the player's body would
    touch both sides of; ``ends`` the closest points of their skeletons;
    ``free`` whether the gap runs through free space (a passage); ``group`` its passage number.
    """

    def __init__(self, touch_i, touch_j, touch_ends, i, j, gap, ends, free, group):
        self.touch_i, self.touch_j, self.touch_ends = touch_i, touch_j, touch_ends
        self.i, self.j, self.gap, self.ends, self.free = i, j, gap, ends, free
        self.group = group


def _touch_tolerance(pieces: Pieces) -> float:
    """Gaps up to this are touching: float rounding of turned boxes' corners and of large coordinates."""
    if not len(pieces):
        return 1e-7
    scale = max(float(np.nanmax(np.abs(pieces.a), initial=0.0)), 1.0)
    return 1e-9 * scale + 1e-7


def _blocking_gaps(level: Level, pieces: Pieces) -> _Blocking:
    """Every gap between pieces that the player's body could touch both sides of, and the touching pairs.

    Found per pair of pieces within the player's reach (an STRtree query, in
    chunks, each chunk sifted at once), so time and memory grow with the
    pairs, not with the player's size.
    """
    tol = _touch_tolerance(pieces)
    player = level.player

    def blocks(i, j, gap):
        """Whether the player's body would touch both sides of each gap (the gaps are apart)."""
        if player.shape == "box":
            w, h = player.size
            blocked = gap <= min(w, h)
            unsure = np.flatnonzero(~blocked)
            blocked[unsure] = _box_touches_both(pieces, i[unsure], j[unsure], w, h, tol)
            return blocked
        return gap <= 2.0 * player.radius

    def wanted(i, j, gap, ends):
        keep = gap <= tol  # touching: they link objects and close rings
        apart = np.flatnonzero(~keep)
        if len(apart):
            ia, ja = i[apart], j[apart]
            narrow = blocks(ia, ja, gap[apart])
            k = np.flatnonzero(narrow)
            narrow[k] = ~_through_the_middle(pieces, ia[k], ja[k], ends[apart[k]], tol)
            keep[apart] = narrow
        return keep

    gaps = find_gaps(pieces, _player_reach(level), wanted, _room(level, pieces))
    i, j, gap, ends = gaps.i, gaps.j, gaps.gap, gaps.ends
    touching = gap <= tol
    touch = np.flatnonzero(touching)
    apart = np.flatnonzero(~touching)
    i, j, gap, ends = i[apart], j[apart], gap[apart], ends[apart]
    # The object first in the level comes first (its problem names the other).
    swap = (pieces.owner[i] > pieces.owner[j]) | ((pieces.owner[i] == pieces.owner[j]) & (pieces.seq[i] > pieces.seq[j]))
    i, j = np.where(swap, j, i), np.where(swap, i, j)
    ends[swap] = ends[swap][:, ::-1]
    group = passages(pieces, i, j)
    free = _free_in_passages(pieces, i, j, ends, gap, group)
    return _Blocking(gaps.i[touch], gaps.j[touch], gaps.ends[touch], i, j, gap, ends, free, group)


def _room(level: Level, pieces: Pieces) -> np.ndarray:
    """For each piece, how far the player's middle stays from its skeleton wherever the player can be: the
    player's smallest half width plus the piece's radius (see :func:`~level_editor.core.checks.pieces.find_gaps`).

    Where the player already overlaps a wall at its spawn, no more than the spawn's distance from that
    wall's skeleton, so that no link that could close the spawn in is left out.
    """
    player = level.player
    half = min(player.size.x, player.size.y) / 2.0 if player.shape == "box" else player.radius
    room = half + pieces.radius
    if len(pieces):
        spawn = shapely.Point(player.spawn.x, player.spawn.y)
        s, r = player.spawn, half + float(pieces.radius.max())
        near = pieces.tree.query(shapely.box(s.x - r, s.y - r, s.x + r, s.y + r))
        if len(near):
            # Every piece of a wall that the player overlaps at its spawn gets that wall's distance from it.
            distance = np.full(int(pieces.owner.max()) + 1, np.inf)
            np.minimum.at(distance, pieces.owner[near], shapely.distance(spawn, pieces.skeletons[near]))
            room = np.minimum(room, distance[pieces.owner])
    return room


def _through_the_middle(pieces: Pieces, i, j, ends, tol: float) -> np.ndarray:
    """For gaps between two segments of one wall: whether the middle of the gap lies inside a segment half-way
    between them along the wall (so the gap runs through the wall itself)."""
    same = np.flatnonzero((pieces.owner[i] == pieces.owner[j]) & ~pieces.polygon[i])
    through = np.zeros(len(i), dtype=bool)
    if not len(same):
        return through
    mid = ends[same].mean(axis=1)
    half = (i[same] + j[same]) // 2
    for shift in (-1, 0, 1):
        m = half + shift
        ok = (m > i[same]) & (m < j[same])
        m = np.where(ok, m, i[same])
        near = _segment_closest_points(mid, pieces.a[m], pieces.b[m])
        inside = np.hypot(*(near - mid).T) < pieces.radius[m] - tol
        through[same[ok & inside]] = True
    return through


def _segment_closest_points(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The point of each segment a-b closest to p (all shape (k, 2))."""
    d = b - a
    length2 = np.einsum("ij,ij->i", d, d)
    t = np.clip(np.einsum("ij,ij->i", p - a, d) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    return a + t[:, None] * d


#: Narrow passages of a wall with itself reported one by one; the rest of them are counted in one more problem.
PASSAGES_SHOWN = 10

#: How many gaps of one passage, narrowest first, are looked at for one that runs through free space.
PASSAGE_TRIES = 4


def _free_in_passages(pieces: Pieces, i, j, ends, gap, group) -> np.ndarray:
    """Whether each gap runs through free space, looked at for a few gaps per passage only.

    Each passage's gaps are tried narrowest first, up to :data:`PASSAGE_TRIES`:
    the first free one makes the passage; a passage whose narrowest gaps all
    pass through other pieces (the rest of a dense wall) separates nothing.
    This keeps the work per passage small however many gaps it has.
    """
    free = np.zeros(len(i), dtype=bool)
    if not len(i):
        return free
    order = np.lexsort((gap, group))
    rank = np.arange(len(order)) - np.searchsorted(group[order], group[order])
    done = np.zeros(int(group.max()) + 1, dtype=bool)
    for attempt in range(PASSAGE_TRIES):
        k = order[(rank == attempt)]
        k = k[~done[group[k]]]
        if not len(k):
            break
        ok = free_gaps(pieces, i[k], j[k], ends[k])
        free[k[ok]] = True
        done[group[k[ok]]] = True
    return free


def _box_touches_both(pieces: Pieces, i: np.ndarray, j: np.ndarray, w: float, h: float, tol: float) -> np.ndarray:
    """For each pair of pieces, whether a ``w`` x ``h`` box can touch both at once.

    That is the case when some point of each is at most ``w`` apart in x and
    ``h`` apart in y: when piece ``j``'s skeleton comes within both radii of
    piece ``i``'s skeleton swept over the rectangle ``[-w, w] x [-h, h]``
    (the convex hull of its corners moved to the rectangle's four corners; the
    pieces are convex). Exact, and its work does not grow with the player's size.
    """
    if not len(i):
        return np.zeros(0, dtype=bool)
    coords, owner = shapely.get_coordinates(pieces.skeletons[i], return_index=True)
    corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]])
    swept = (coords[:, None, :] + corners).reshape(-1, 2)
    hulls = shapely.convex_hull(shapely.multipoints(swept, indices=np.repeat(owner, 4)))
    d = shapely.distance(hulls, pieces.skeletons[j])
    return d <= pieces.radius[i] + pieces.radius[j] + tol


def _narrow_passages(level: Level, o: LevelOutlines, pieces: Pieces, b: _Blocking) -> list[Problem]:
    """Passages the player cannot pass: free gaps its body would touch both sides of, once per passage."""
    keep = np.flatnonzero(b.free)
    if not len(keep):
        return []
    i, j, gap, ends, group = b.i[keep], b.j[keep], b.gap[keep], b.ends[keep], b.group[keep]
    # The narrowest gap of each passage, in the order of the objects.
    order = np.lexsort((gap, group))
    first = order[np.r_[True, group[order][1:] != group[order][:-1]]]
    oi, oj = pieces.owner[i[first]], pieces.owner[j[first]]
    first = first[np.lexsort((ends[first, 0, 1], ends[first, 0, 0], oj, oi))]
    ends = ends.copy()
    ends[first] = _middle_of_narrowest(pieces, i[first], j[first], ends[first])
    player = level.player
    size = (f"{rounded_text(player.size.x)} x {rounded_text(player.size.y)} px" if player.shape == "box"
            else f"{rounded_text(2.0 * player.radius)} px across")
    problems = []
    seen = set()
    shown_by_wall: dict[int, int] = {}
    more: dict[int, list] = {}  # a wall's passages with itself beyond PASSAGES_SHOWN: [place, count, first spot]
    for k in first.tolist():
        a, c = int(pieces.owner[i[k]]), int(pieces.owner[j[k]])
        line = ends[k]
        d = line[1] - line[0]
        length = math.hypot(d[0], d[1]) or 1.0
        u = d / length
        surface_a = line[0] + u * pieces.radius[i[k]]
        surface_b = line[1] - u * pieces.radius[j[k]]
        where = _vec((surface_a + surface_b) / 2)
        spot = (round(where.x, 1), round(where.y, 1), round(float(gap[k]), 1))
        if spot in seen:
            continue  # the same gap between a third object's end and these (a corridor on a door's jamb)
        seen.add(spot)
        if a == c:
            shown = shown_by_wall[a] = shown_by_wall.get(a, 0) + 1
            if shown > PASSAGES_SHOWN:
                if a not in more:
                    more[a] = [len(problems), 0, where]
                    problems.append(None)
                more[a][1] += 1
                continue
            message = (f"comes within {rounded_text(gap[k])} px of itself near {_at(where)}, too narrow for the "
                       f"player ({size}) to pass")
        else:
            message = (f"leaves a gap of {rounded_text(gap[k])} px to {o.ids[c]} near {_at(where)}, too narrow for the "
                       f"player ({size}) to pass between them")
        problems.append(Problem(o.ids[a], message, WARNING, where))
    for a, (place, count, where) in more.items():
        problems[place] = Problem(o.ids[a], f"{count:,} more narrow passages within this wall, the next near "
                                            f"{_at(where)}", WARNING, where)
    return problems


def _middle_of_narrowest(pieces: Pieces, i: np.ndarray, j: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The shortest lines ``ends`` between pieces ``i`` and ``j``, moved to the middle of where they are that close.

    Where two sides run parallel (a box beside a wall) every point along them
    is as close as any other, and shapely's closest points sit at one end of
    that stretch, on a corner. The middle of the stretch is the spot to show:
    the middle of the part of ``i`` within the gap's reach of ``j`` (its
    buffer's sides are exact along straight sides), and the point of ``j``
    nearest to it. A line that would come out longer than the gap (a round
    side, where the closest point is one point anyway) is kept as it was.
    """
    if not len(i):
        return ends
    reach = np.hypot(*(ends[:, 1] - ends[:, 0]).T)
    tol = 1e-9 * np.abs(ends).reshape(len(i), -1).max(axis=1) + 1e-7
    a, b = pieces.skeletons[i], pieces.skeletons[j]
    a = np.where(pieces.polygon[i], shapely.boundary(a), a)
    near = shapely.intersection(a, shapely.buffer(b, reach + tol))
    middle = shapely.centroid(near)
    usable = ~shapely.is_empty(middle)
    out = ends.copy()
    k = np.flatnonzero(usable)
    if not len(k):
        return out
    lines = shapely.shortest_line(middle[k], b[k])
    moved = shapely.get_coordinates(lines).reshape(-1, 2, 2)
    length = np.hypot(*(moved[:, 1] - moved[:, 0]).T)
    good = length <= reach[k] + 2 * tol[k]
    out[k[good]] = moved[good]
    return out


def _wall_crossings(o: LevelOutlines) -> list[Problem]:
    """Walls whose node chains pass through or run along another wall's chain."""
    if len(o.chains) < 2:
        return []
    chains = o.chains
    a, b = shapely.STRtree(chains).query(chains, predicate="intersects")
    keep = a < b
    a, b = a[keep], b[keep]
    # shapely's ``crosses`` also holds where the chains only touch at an inner node; each such
    # point is then looked at closely (_passes_through).
    crosses = shapely.crosses(chains[a], chains[b])
    # Sharing a stretch of line (also when one wall lies wholly on the other, which ``overlaps`` misses).
    along = shapely.relate_pattern(chains[a], chains[b], "1********")
    hit = np.flatnonzero(crosses | along)
    problems = []
    for k in hit[np.lexsort((b[hit], a[hit]))]:
        wa, wb = int(a[k]), int(b[k])
        first = o.objects[o.wall_index[wa]]
        second = o.objects[o.wall_index[wb]]
        if along[k]:
            where = _crossing_point(chains[wa], chains[wb], first, second)
            message = (f"runs along wall {second.id} near {_at(where)}: the two walls lie on top of each other")
        else:
            where = _passes_through(chains[wa], chains[wb], first, second)
            if where is None:
                continue
            message = (f"crosses wall {second.id} near {_at(where)}; if the walls should meet, "
                       f"end one on the other instead")
        problems.append(Problem(first.id, message, WARNING, where))
    return problems


def _crossing_point(chain_a, chain_b, wall_a: Wall, wall_b: Wall) -> Vec2:
    """A point where two chains meet, preferring one that is not the end of either open wall."""
    inter = shapely.intersection(chain_a, chain_b)
    pts = [Vec2(float(x), float(y)) for x, y in shapely.get_coordinates(inter)]
    ends = set()
    for w in (wall_a, wall_b):
        if not w.closed:
            ends.update((w.points[0], w.points[-1]))
    inner = [p for p in pts if p not in ends]
    if inner:
        return inner[0]
    if pts:
        return pts[0]
    p = shapely.point_on_surface(inter)
    return Vec2(float(p.x), float(p.y))


def _passes_through(chain_a, chain_b, wall_a: Wall, wall_b: Wall) -> Optional[Vec2]:
    """The first point along ``wall_a`` where one chain passes from one side of the other to the other.

    None when the chains only touch: one ends on the other (a T or an L), or
    they meet at a node and each stays on its own side (a V on a caret, two
    rooms sharing a corner).
    """
    inter = shapely.intersection(chain_a, chain_b)
    pts = shapely.points(shapely.get_coordinates(inter))
    for p in pts[np.argsort(shapely.line_locate_point(chain_a, pts), kind="stable")]:
        at = Vec2(float(p.x), float(p.y))
        if at not in wall_a.points and at not in wall_b.points:
            return at  # two segments meeting inside both: a plain crossing
        arms_a, arms_b = _arms(wall_a, at), _arms(wall_b, at)
        if len(arms_a) == 2 and len(arms_b) == 2 and _alternate(arms_a, arms_b):
            return at
    return None


def _arms(wall: Wall, at: Vec2) -> list[float]:
    """The directions (angles) in which ``wall``'s chain leaves the point ``at`` on it: two, or one at an end."""
    pts = [p for k, p in enumerate(wall.points) if k == 0 or p != wall.points[k - 1]]
    closed = wall.closed and len(pts) > 2
    if closed and pts[-1] == pts[0]:
        pts.pop()
    n = len(pts)
    ends: list[Vec2] = []
    if at in pts:
        i = pts.index(at)
        if i > 0 or closed:
            ends.append(pts[i - 1])
        if i < n - 1 or closed:
            ends.append(pts[(i + 1) % n])
    else:  # inside a segment: its two nodes, of the segment nearest the point
        segs = [(pts[i], pts[(i + 1) % n]) for i in range(n if closed else n - 1)]
        near_seg = min(segs, key=lambda s: shapely.distance(shapely.LineString(s), shapely.Point(at)))
        ends.extend(near_seg)
    return [math.atan2(e.y - at.y, e.x - at.x) for e in ends]


def _alternate(arms_a: list[float], arms_b: list[float]) -> bool:
    """Whether ``b``'s two arms lie strictly on either side of the corner ``a``'s two arms make."""
    a0, a1 = arms_a
    span = (a1 - a0) % (2 * math.pi)
    sides = []
    for t in arms_b:
        d = (t - a0) % (2 * math.pi)
        if d == 0 or d == span:
            return False  # running along an arm: reported as lying on top, not as crossing
        sides.append(d < span)
    return sides[0] != sides[1]


# ---------------------------------------------------------------------------
# What the objects say besides their shapes: references, types, pictures, empty grids


def _object_data(level: Level, base_dir: Optional[str]) -> list[Problem]:
    """References to objects that do not exist, unknown types, missing pictures and grids without solid cells.

    One plain pass over the objects: most have no properties and no type, so a
    level of 100,000 objects costs a few hundredths of a second here.
    """
    problems: list[Problem] = []
    ids: Optional[set] = None
    type_names = {t.name for t in level.types}
    pictures: dict[str, Optional[str]] = {}

    def dangling(properties) -> list[tuple[str, str]]:
        nonlocal ids
        refs = [(key, value.id) for key, value in properties.items() if isinstance(value, Ref) and value.id]
        if not refs:
            return []
        if ids is None:
            ids = level.ids()
        return [(key, target) for key, target in refs if target not in ids]

    for key, target in dangling(level.properties):
        problems.append(Problem(LEVEL_ID, f"the level's property {key!r} refers to {target!r}, which does not exist",
                                ERROR))
    for t in level.types:
        for key, target in dangling(t.properties):
            problems.append(Problem(
                LEVEL_ID, f"type {t.name!r}: default property {key!r} refers to {target!r}, which does not exist",
                ERROR))
    for key, new in tiled_names("level", level.properties).items():
        problems.append(Problem(LEVEL_ID, f"the level's {_loader_name(key, new)}", WARNING))
    problems += _type_loader_names(level)
    for obj in level.objects:
        if obj.properties:
            for key, target in dangling(obj.properties):
                problems.append(Problem(obj.id, f"property {key!r} refers to {target!r}, which does not exist",
                                        ERROR, _middle(obj)))
            for key, new in tiled_names(obj.kind, level.properties_of(obj)).items():
                if key in obj.properties:
                    problems.append(Problem(obj.id, _loader_name(key, new), WARNING, _middle(obj)))
        if obj.type and obj.type not in type_names:
            problems.append(Problem(obj.id, f"type {obj.type!r} is not one of the level's types",
                                    WARNING, _middle(obj)))
        if isinstance(obj, Tiles) and obj.painted and not any(v >= 0 for row in obj.tiles for v in row):
            problems.append(Problem(
                obj.id, "this tile grid paints no tiles: it has nothing to show; paint some tiles or delete it",
                WARNING, _middle(obj)))
        elif isinstance(obj, Tiles) and not obj.painted and not has_solid_cells(obj):
            problems.append(Problem(
                obj.id, "this tile grid has no solid cells: it collides nowhere and has nothing to show; "
                        "paint some cells or delete it", WARNING, _middle(obj)))
    if base_dir is not None:
        problems += picture_warnings(level, base_dir, pictures)
    return problems


def picture_warnings(level: Level, base_dir: str, seen: Optional[dict] = None) -> list[Problem]:
    """The warnings about every picture ``level`` names, looked for from ``base_dir``: its reference images',
    its sprites' own pictures and its tilesets' (a collection's: each tile's). A missing picture loses no
    data and stops no play-test, so it is a warning, never an error."""
    seen = {} if seen is None else seen
    problems = [w for w in (picture_warning(o, base_dir, seen) for o in level.objects
                            if type(o) is Image or (type(o) is Sprite and not o.tileset)) if w is not None]
    for ts in level.tilesets:
        paths = [(ts.image, "")] if ts.image else [(info.image, f" (tile {tile})")
                                                   for tile, info in sorted(ts.tiles.items()) if info.image]
        for path, which in paths:
            if path not in seen:
                seen[path] = picture_problem(base_dir, path)
            if seen[path] is not None:
                problems.append(Problem(LEVEL_ID, f"tileset {ts.id!r}{which}: {seen[path]}", WARNING))
    return problems


def _loader_name(key: str, new: str) -> str:
    return (f"property {key!r} has a name Tiled's loaders keep for themselves (pytmx refuses such a map): the Tiled "
            f"export writes it as {new!r}, and importing the map brings it back as {key!r}")


def _type_loader_names(level: Level) -> list[Problem]:
    """A type's default property with a name Tiled's loaders keep for the objects of that type (it is written on
    each of them): one warning per type and name."""
    problems: list[Problem] = []
    kinds: Optional[dict] = None
    for t in level.types:
        if not t.properties or not any(loader_reserved(k, key) for key in t.properties for k in ELEMENTS):
            continue
        if kinds is None:
            kinds = {}
            for obj in level.objects:
                if obj.type:
                    kinds.setdefault(obj.type, set()).add(obj.kind)
        renamed: dict = {}
        for kind in sorted(kinds.get(t.name, ())):
            for key, new in tiled_names(kind, t.properties).items():
                renamed.setdefault(key, new)
        for key, new in renamed.items():
            problems.append(Problem(LEVEL_ID, f"type {t.name!r}: default {_loader_name(key, new)} on its objects",
                                    WARNING))
    return problems


def picture_warning(image, base_dir: str, seen: Optional[dict] = None) -> Optional[Problem]:
    """The warning about the picture of ``image`` (an image, or a sprite of a picture file) looked for from
    ``base_dir``, or None when it is fine; ``seen`` keeps what each path gave (a level may show one picture
    many times)."""
    seen = {} if seen is None else seen
    path = image.picture if type(image) is Sprite else image.path
    if path not in seen:
        seen[path] = picture_problem(base_dir, path)
    trouble = seen[path]
    return None if trouble is None else Problem(image.id, trouble, WARNING, _middle(image))


def picture_problem(base_dir: str, path: str) -> Optional[str]:
    """What is wrong with the reference picture at ``path`` (relative to ``base_dir``), or None when it is fine.

    Fine means a file that can be opened and starts like a PNG (its signature
    and then the IHDR chunk) or a JPEG (its start-of-image marker); the picture
    itself is not decoded.

    >>> picture_problem(".", "no/such/picture.png")
    "the picture 'no/such/picture.png' is not there (looked for no/such/picture.png)"
    """
    if not path:
        return "this image has no picture: its path is empty"
    full = os.path.normpath(os.path.join(base_dir, path))
    if os.path.isdir(full):
        return f"the picture {path!r} is a folder, not a file"
    try:  # a regular file only, never blocking (a named pipe there would hang the check)
        head = read_file_bytes(full, "picture", head=16)
    except LevelFileError as e:
        if e.reason == "no such file":
            return f"the picture {path!r} is not there (looked for {full})"
        return f"the picture {path!r} cannot be read: {e.reason}"
    if head[:8] == PNG_SIGNATURE and head[12:16] == b"IHDR":
        return None
    if head[:3] == JPEG_START:
        return None
    return f"the picture {path!r} is not a PNG or JPEG file"


def _middle(obj) -> Vec2:
    x0, y0, x1, y1 = obj.bounds()
    return Vec2((x0 + x1) / 2, (y0 + y1) / 2)


# ---------------------------------------------------------------------------
# Objects far from the rest


def _far_objects(level: Level, o: LevelOutlines) -> list[Problem]:
    if not len(o):
        return []
    centres = (o.aabb[:, :2] + o.aabb[:, 2:]) / 2
    middle = np.median(centres, axis=0)
    core_radius = float(np.median(np.hypot(*(centres - middle).T)))
    extent = max(2.0 * core_radius, FAR_MIN_PLAYERS * _player_reach(level))
    limit = FAR_FACTOR * extent
    # Distance from the middle to the nearest point of each object's box.
    dx = np.maximum.reduce([o.aabb[:, 0] - middle[0], np.zeros(len(o)), middle[0] - o.aabb[:, 2]])
    dy = np.maximum.reduce([o.aabb[:, 1] - middle[1], np.zeros(len(o)), middle[1] - o.aabb[:, 3]])
    far = np.hypot(dx, dy) > limit
    problems = []
    if far.any():
        near = np.flatnonzero(~far)
        far_idx = np.flatnonzero(far)
        if len(near):
            boxes = shapely.box(*o.aabb[near].T)
            k_far, k_near = shapely.STRtree(boxes).query_nearest(shapely.box(*o.aabb[far_idx].T), all_matches=False)
            gaps = np.full(len(far_idx), np.nan)
            gaps[k_far] = shapely.distance(o.outlines_of(far_idx[k_far]), o.outlines_of(near[k_near]))
            nearest = np.full(len(far_idx), -1)
            nearest[k_far] = near[k_near]
        else:
            gaps = np.full(len(far_idx), np.nan)
            nearest = np.full(len(far_idx), -1)
        for n, k in enumerate(far_idx):
            where = _vec(centres[k])
            if nearest[n] >= 0:
                gap = f"{rounded_text(gaps[n], 0)} px from the nearest object ({o.ids[nearest[n]]})"
            else:
                gap = f"{rounded_text(float(np.hypot(*(centres[k] - middle))), 0)} px from the middle of the level"
            problems.append(Problem(
                o.ids[k],
                f"is far from the rest of the level, {gap}, while most of the level fits in about "
                f"{rounded_text(extent, 0)} px; was it moved or pasted there by mistake? (it is near {_at(where)})",
                WARNING, where))
    spawn = level.player.spawn
    spawn_distance = math.hypot(spawn.x - middle[0], spawn.y - middle[1])
    if len(o) >= 2 and spawn_distance > limit:
        problems.append(Problem(
            PLAYER_ID,
            f"the spawn is far from the level: {rounded_text(spawn_distance, 0)} px from its middle near "
            f"{_at(middle)}, while most of the level fits in about {rounded_text(extent, 0)} px",
            WARNING, spawn))
    return problems


# ---------------------------------------------------------------------------
# The spawn's free space


def _spawn_area(level: Level, o: LevelOutlines, pieces: Pieces, b: _Blocking) -> Problem:
    """Whether the player, starting at the spawn, can get out to infinity (open) or not (enclosed).

    The solid objects' outlines are united with a thin bridge across every
    gap the player cannot pass, so a room whose only doors are too narrow
    is closed; the spawn is enclosed when it lies in a hole of that union.
    Only a group of objects linked by touching or by such gaps, whose bounds
    hold the spawn, can enclose it.
    """
    spawn = level.player.spawn
    point = shapely.Point(spawn.x, spawn.y)
    open_message = ("the spawn is in open space: the free space around it is not closed off, "
                    "it reaches outside the level")
    if not len(o):
        return Problem(LEVEL_ID, open_message, INFO, spawn)
    inside = _objects_at(level, o, pieces, spawn)
    if inside:
        return Problem(LEVEL_ID, f"the spawn point is inside {o.ids[inside[0]]}, so it has no free space around it",
                       INFO, spawn)

    enclosed = ("the spawn is in an enclosed area: the free space around it is closed off on all sides, or its only "
                "ways out are too narrow for the player")
    if _inside_a_closed_wall(o, spawn):
        return Problem(LEVEL_ID, enclosed, INFO, spawn)
    bridge = _bridges(level, pieces, b)
    link_a = np.concatenate([pieces.owner[b.touch_i], pieces.owner[b.i]])
    link_b = np.concatenate([pieces.owner[b.touch_j], pieces.owner[b.j]])
    label = connected_groups(len(o), link_a, link_b)
    lo = np.full((label.max() + 1, 2), np.inf)
    hi = np.full((label.max() + 1, 2), -np.inf)
    np.minimum.at(lo, label, o.aabb[:, :2])
    np.maximum.at(hi, label, o.aabb[:, 2:])
    holds = np.flatnonzero((lo[:, 0] < spawn.x) & (spawn.x < hi[:, 0]) & (lo[:, 1] < spawn.y) & (spawn.y < hi[:, 1]))
    sizes = np.bincount(label)
    # The skeleton of the blocked ground: segments, boxes' sides, and a line across every touch and every
    # gap the player cannot pass. The pieces' union holds it, and each piece holds the part of it
    # joining its skeleton to its neighbours', so the spawn (outside every piece) is enclosed by the
    # pieces and bridges exactly when it is in a bounded face of this network of lines.
    segment = ~pieces.polygon & np.any(pieces.a != pieces.b, axis=1)
    links = np.concatenate([b.touch_ends, b.ends[bridge]])
    link_owner = np.concatenate([pieces.owner[b.touch_i], pieces.owner[b.i[bridge]]])
    long_enough = np.any(links[:, 0] != links[:, 1], axis=1)
    links, link_owner = links[long_enough], link_owner[long_enough]
    # A tile grid's pieces (a painted grid has one per cell) are many rings lying on each other; what bounds the
    # free space is their union, the grid's outline, whose rings never cross: its rings stand for theirs.
    # The spawn is outside every piece, so its face is the same with either (a face never enters the union).
    grid = o.kinds[pieces.owner] == TILES
    for g in holds[np.argsort(sizes[holds], kind="stable")]:
        ours = label[pieces.owner] == g
        ours_links = links[label[link_owner] == g]
        grids = np.unique(pieces.owner[ours & grid])
        if len(grids):
            # a link ends on a piece's side, which the outline draws from the cells' numbers: reaching a hair
            # into the pieces at both ends, it meets the outline's side whatever its last bit
            ours_links = _reaching_in(ours_links)
        shells = _outline_shells(o.outlines_of(grids))
        if shapely.covers(shells, point).any():
            # in a hole of a grid's outline (the spawn is outside every piece): closed off by that grid alone
            return Problem(LEVEL_ID, enclosed, INFO, spawn)
        # Else the spawn's face lies outside every grid's shells, and their holes' rings play no part in it.
        ends = [np.stack([pieces.a[ours & segment], pieces.b[ours & segment]], axis=1), ours_links]
        rings = np.concatenate([shapely.get_exterior_ring(pieces.skeletons[ours & pieces.polygon & ~grid]),
                                shapely.get_exterior_ring(shells)])
        if _encloses(point, np.concatenate(ends), rings, lo[g], hi[g], _player_reach(level)):
            return Problem(LEVEL_ID, enclosed, INFO, spawn)
    return Problem(LEVEL_ID, open_message, INFO, spawn)


def _outline_shells(outlines: np.ndarray) -> np.ndarray:
    """The outlines' polygons without their holes."""
    if not len(outlines):
        return np.empty(0, dtype=object)
    return shapely.polygons(shapely.get_exterior_ring(shapely.get_parts(outlines)))


def _reaching_in(links: np.ndarray) -> np.ndarray:
    """The links (k, 2, 2) grown at both ends by a hair (a millionth of a pixel, more far from the origin)."""
    if not len(links):
        return links
    d = links[:, 1] - links[:, 0]
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / np.where(length > 0, length, 1.0)[:, None]
    hair = 1e-6 * np.maximum(1.0, np.abs(links).max(axis=(1, 2)) * 1e-6)
    grown = links.copy()
    grown[:, 0] -= u * hair[:, None]
    grown[:, 1] += u * hair[:, None]
    return grown


def _inside_a_closed_wall(o: LevelOutlines, spawn: Vec2) -> bool:
    """Whether a wall's chain that ends where it starts goes round the spawn (a point on no wall) an odd number
    of times.

    Then every way from the spawn to infinity crosses that chain, so the spawn is enclosed, and this is
    found by counting crossings along one ray (linear in nodes), without building the network of lines:
    a closed wall of 300,000 nodes round the spawn is decided in milliseconds instead of seconds.
    """
    if not len(o.chains):
        return False
    closed = shapely.is_closed(o.chains) & (shapely.get_num_coordinates(o.chains) > 3)
    if not closed.any():
        return False
    xy, wall = shapely.get_coordinates(o.chains[closed], return_index=True)
    same = wall[1:] == wall[:-1]
    x0, y0, x1, y1 = xy[:-1, 0][same], xy[:-1, 1][same], xy[1:, 0][same], xy[1:, 1][same]
    straddles = (y0 > spawn.y) != (y1 > spawn.y)
    with np.errstate(divide="ignore", invalid="ignore"):
        at_x = x0 + (spawn.y - y0) * (x1 - x0) / np.where(straddles, y1 - y0, 1.0)
    crossings = np.bincount(wall[:-1][same][straddles & (spawn.x < at_x)], minlength=int(closed.sum()))
    return bool((crossings % 2 == 1).any())


def _encloses(point, segments: np.ndarray, rings: np.ndarray, lo, hi, reach: float) -> bool:
    """Whether the lines (``segments`` (k, 2, 2) and ``rings``) enclose ``point``: it is in a bounded face.

    Looked at first with the lines near the point only (any lines that
    enclose it are enough), in windows growing fourfold until they hold the
    whole group: a spawn in a room of a large level costs the room only.
    """
    seg_lo, seg_hi = segments.min(axis=1), segments.max(axis=1)
    ring_box = shapely.bounds(rings).reshape(-1, 4)
    half = max(16.0 * reach, 512.0)
    whole = max(point.x - lo[0], hi[0] - point.x, point.y - lo[1], hi[1] - point.y)
    while True:
        box_lo, box_hi = np.array([point.x - half, point.y - half]), np.array([point.x + half, point.y + half])
        near = np.all((seg_hi >= box_lo) & (seg_lo <= box_hi), axis=1)
        near_rings = np.all((ring_box[:, 2:] >= box_lo) & (ring_box[:, :2] <= box_hi), axis=1)
        lines = np.concatenate([shapely.linestrings(segments[near]) if near.any() else np.empty(0, dtype=object),
                                rings[near_rings]])
        if len(lines):
            network = shapely.union_all(lines)
            if shapely.covers(shapely.get_parts(shapely.polygonize(shapely.get_parts(network))), point).any():
                return True
        if half >= whole:
            return False
        half *= 4.0


def _bridges(level: Level, pieces: Pieces, b: _Blocking) -> np.ndarray:
    """The gaps (indices into ``b``) that a bridge may close: the free gap found for each passage, when the
    player's body reaches both of its sides. A gap through some other piece needs no bridge: the pieces in
    its way touch its sides or leave narrower gaps of their own.

    A bridge is the line between the two skeletons' closest points. Its part
    in free space is a segment whose ends are on the two objects; a circle
    player crossing it would touch an end when the segment is at most its
    diameter long, a box player when the ends are at most its width apart in x
    and its height in y. So no bridge closes a way the player could take.
    """
    k = np.flatnonzero(b.free)
    if level.player.shape != "box" or not len(k):
        return k
    ends = b.ends[k]
    d = ends[:, 1] - ends[:, 0]
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / np.where(length > 0, length, 1.0)[:, None]
    span = np.abs(d - u * (pieces.radius[b.i[k]] + pieces.radius[b.j[k]])[:, None])
    w, h = level.player.size
    return k[(span[:, 0] <= w) & (span[:, 1] <= h)]


# ---------------------------------------------------------------------------
# Formatting


def _vec(p) -> Vec2:
    return Vec2(float(p[0]), float(p[1]))


def _at(p) -> str:
    return f"({rounded_text(p[0])}, {rounded_text(p[1])})"
