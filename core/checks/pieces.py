"""A level's solid objects cut into convex pieces, and the gaps between pieces that the player cannot pass.

The pair checks (narrow passages, the spawn's enclosure) work on pieces
rather than on whole outlines, so that their time and memory grow with the
level and not with its walls' lengths or the player's size:

- a wall is one piece per segment of its node chain (repeated nodes and
  nodes in the middle of a straight run dropped first), each the segment's
  points within the wall's half thickness (a capsule);
- a pillar is its centre within its radius;
- a box or an oriented box is its rectangle;
- a tile grid is its solid cells merged into rectangles.

Every piece is convex and exact (a skeleton, a point, segment or polygon, plus
a radius), so gaps are exact: a gap as wide as the player is found as such.

A *gap* between two pieces is the shortest line between them. It is a
passage only when it runs through free space: a gap that passes through some
other piece (the rest of the same wall between two of its segments, or a
third object) separates nothing. Gaps next to each other (between neighbouring
segments of the same two objects) form one passage, reported once at its
narrowest.

>>> from core.level.model import Level, Wall
>>> from core.checks.outlines import level_outlines
>>> o = level_outlines(Level(objects=[Wall("w", [(0, 0), (50, 0), (50, 0), (100, 0), (100, 30)], 4)]))
>>> p = cut_into_pieces(o)
>>> len(p), p.seq.tolist()      # the repeated node and the node in the straight run are gone
(2, [0, 1])
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from core.checks.outlines import BOX, ORIENTED_BOX, PILLAR, TILES, LevelOutlines

__all__ = ["Pieces", "Gaps", "cut_into_pieces", "find_gaps", "closest_points", "free_gaps", "passages", "neighbours",
           "connected_groups", "distances",
           "CHUNK"]

#: Pieces queried against the tree at a time: bounds the memory of the pair search.
CHUNK = 20_000


@dataclass(frozen=True, eq=False)
class Pieces:
    """Convex pieces of solid objects, each a skeleton (point, segment or polygon) within ``radius``.

    ``owner`` is the index of the piece's object in the outlines it was cut
    from; ``seq`` its place along its wall's chain (0 for other objects);
    ``ring`` the number of segments of its wall when the wall is closed (the
    last segment then neighbours the first), else 0.
    """

    skeletons: np.ndarray
    a: np.ndarray
    b: np.ndarray
    radius: np.ndarray
    owner: np.ndarray
    seq: np.ndarray
    ring: np.ndarray
    polygon: np.ndarray

    def __len__(self) -> int:
        return len(self.owner)


def cut_into_pieces(o: LevelOutlines) -> Pieces:
    """The pieces of every object of ``o`` (solid or not: pass ``o.solid_only()`` for the collision checks)."""
    parts = []
    if len(o.wall_index):
        parts.append(_wall_pieces(o))
    pillar = np.flatnonzero(o.kinds == PILLAR)
    if len(pillar):
        xy = shapely.get_coordinates(o.sites[pillar])
        parts.append(_round(shapely.points(xy), xy, xy, o.rounding[pillar], pillar))
    boxy = np.flatnonzero((o.kinds == BOX) | (o.kinds == ORIENTED_BOX))
    if len(boxy):
        parts.append(_flat(o.shapes[boxy], boxy))
    tiles = np.flatnonzero(o.kinds == TILES)
    if len(tiles):
        rects, owner = [], []
        for k in tiles.tolist():
            for r in o.objects[k].solid_rects():
                rects.append((r.origin.x, r.origin.y, r.origin.x + r.size.x, r.origin.y + r.size.y))
                owner.append(k)
        v = np.asarray(rects, dtype=float).reshape(-1, 4)
        parts.append(_flat(shapely.box(v[:, 0], v[:, 1], v[:, 2], v[:, 3]), np.asarray(owner, dtype=np.int64)))
    if not parts:
        return _round(np.empty(0, dtype=object), np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0),
                      np.zeros(0, dtype=np.int64))
    return Pieces(*(np.concatenate([getattr(p, f) for p in parts]) for f in (
        "skeletons", "a", "b", "radius", "owner", "seq", "ring", "polygon")))


def _round(skeletons, a, b, radius, owner, seq=None, ring=None) -> Pieces:
    n = len(owner)
    return Pieces(skeletons, a, b, np.asarray(radius, dtype=float), np.asarray(owner, dtype=np.int64),
                  np.zeros(n, dtype=np.int64) if seq is None else seq,
                  np.zeros(n, dtype=np.int64) if ring is None else ring, np.zeros(n, dtype=bool))


def _flat(polygons, owner) -> Pieces:
    n = len(owner)
    nan = np.full((n, 2), np.nan)
    return Pieces(np.asarray(polygons, dtype=object), nan, nan, np.zeros(n), np.asarray(owner, dtype=np.int64),
                  np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool))


def _wall_pieces(o: LevelOutlines) -> Pieces:
    """Each wall's segments, without zero-length ones and without nodes in the middle of a straight run."""
    xy, wall = shapely.get_coordinates(o.chains, return_index=True)
    keep = np.ones(len(xy), dtype=bool)
    keep[1:] = (wall[1:] != wall[:-1]) | np.any(xy[1:] != xy[:-1], axis=1)
    xy, wall = xy[keep], wall[keep]
    # A node between two segments of one wall going on in the same direction adds nothing.
    if len(xy) > 2:
        inner = np.zeros(len(xy), dtype=bool)
        inner[1:-1] = (wall[:-2] == wall[1:-1]) & (wall[1:-1] == wall[2:])
        k = np.flatnonzero(inner)
        d0, d1 = xy[k] - xy[k - 1], xy[k + 1] - xy[k]
        straight = (d0[:, 0] * d1[:, 1] - d0[:, 1] * d1[:, 0] == 0) & (np.sum(d0 * d1, axis=1) > 0)
        drop = np.zeros(len(xy), dtype=bool)
        drop[k[straight]] = True
        xy, wall = xy[~drop], wall[~drop]
    count = np.bincount(wall, minlength=len(o.chains))
    start = np.cumsum(count) - count
    # Segments join consecutive nodes of one wall; a wall left with one node is a disc.
    seg = np.flatnonzero(wall[1:] == wall[:-1])
    lone = np.flatnonzero(count == 1)
    a = np.concatenate([xy[seg], xy[start[lone]]])
    b = np.concatenate([xy[seg + 1], xy[start[lone]]])
    w = np.concatenate([wall[seg], lone])
    seq = np.concatenate([seg - start[wall[seg]], np.zeros(len(lone), dtype=np.int64)])
    closed = np.fromiter((o.objects[k].closed for k in o.wall_index.tolist()), dtype=bool, count=len(o.wall_index))
    segments = count - 1
    ring = np.where(closed & (segments >= 3), segments, 0)[w]
    is_point = np.all(a == b, axis=1)
    skeletons = np.empty(len(a), dtype=object)
    skeletons[~is_point] = shapely.linestrings(np.stack([a[~is_point], b[~is_point]], axis=1))
    skeletons[is_point] = shapely.points(a[is_point])
    order = np.lexsort((seq, w))
    return _round(skeletons[order], a[order], b[order], o.rounding[o.wall_index[w]][order],
                  o.wall_index[w][order], seq[order], ring[order])


def neighbours(p: Pieces, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Whether pieces ``i`` and ``j`` are consecutive segments of one wall (they always share a node)."""
    same = (p.owner[i] == p.owner[j]) & ~p.polygon[i]
    step = np.abs(p.seq[i] - p.seq[j])
    ring = p.ring[i]
    return same & ((step == 1) | ((ring > 0) & (step == ring - 1)))


@dataclass(frozen=True, eq=False)
class Gaps:
    """Pairs of pieces ``i < j`` of different objects or of one wall, at most ``reach`` apart.

    ``gap`` is the exact distance between the two pieces (0 or less when they
    touch or overlap). Consecutive segments of one wall are left out.
    """

    i: np.ndarray
    j: np.ndarray
    gap: np.ndarray


def find_gaps(p: Pieces, reach: float, wanted=None) -> Gaps:
    """Every pair of pieces whose gap is at most ``reach``, found with an STRtree in chunks.

    The tree is asked for boxes only (each piece's bounds grown by ``reach``
    and both radii), and the exact gaps of the pairs it returns are computed
    with numpy (segments and points) or shapely (boxes and cells). Time and
    memory grow with the number of pairs found, never with ``reach`` times the
    pieces' sizes: nothing is buffered by it. ``wanted(i, j, gap)``, when
    given, says which pairs of each chunk to keep, so that pairs of no
    interest never pile up (a dense wall has dozens per node).
    """
    empty = np.zeros(0, dtype=np.int64)
    if len(p) < 2:
        return Gaps(empty, empty, np.zeros(0))
    bounds = shapely.bounds(p.skeletons)
    tree = shapely.STRtree(shapely.box(*bounds.T))
    grow = reach + p.radius + float(p.radius.max())
    found_i, found_j, found_gap = [], [], []
    for lo in range(0, len(p), CHUNK):
        q = np.arange(lo, min(lo + CHUNK, len(p)))
        g = grow[q]
        boxes = shapely.box(bounds[q, 0] - g, bounds[q, 1] - g, bounds[q, 2] + g, bounds[q, 3] + g)
        k, j = tree.query(boxes)
        i = q[k]
        keep = (i < j) & ((p.owner[i] != p.owner[j]) | ~p.polygon[i])
        i, j = i[keep], j[keep]
        keep = ~neighbours(p, i, j)
        i, j = i[keep], j[keep]
        gap = distances(p, i, j) - p.radius[i] - p.radius[j]
        keep = gap <= reach
        if wanted is not None:
            keep[keep] = wanted(i[keep], j[keep], gap[keep])
        found_i.append(i[keep])
        found_j.append(j[keep])
        found_gap.append(gap[keep])
    return Gaps(np.concatenate(found_i), np.concatenate(found_j), np.concatenate(found_gap))


def distances(p: Pieces, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The distances between the skeletons of pieces ``i`` and ``j``."""
    d = np.empty(len(i))
    round_pair = ~p.polygon[i] & ~p.polygon[j]
    k = np.flatnonzero(round_pair)
    if len(k):
        ends = _segment_closest(p.a[i[k]], p.b[i[k]], p.a[j[k]], p.b[j[k]])
        d[k] = np.hypot(*(ends[:, 1] - ends[:, 0]).T)
    k = np.flatnonzero(~round_pair)
    if len(k):
        d[k] = shapely.distance(p.skeletons[i[k]], p.skeletons[j[k]])
    return d


def closest_points(p: Pieces, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The closest points of the skeletons of pieces ``i`` and ``j``, shape (k, 2, 2).

    Two segments side by side are joined at the middle of the stretch where
    they face each other (shapely would pick an end, where a neighbouring
    segment may stand in the way).
    """
    ends = np.empty((len(i), 2, 2))
    if not len(i):
        return ends
    round_pair = ~p.polygon[i] & ~p.polygon[j]
    k = np.flatnonzero(round_pair)
    if len(k):
        ends[k] = _segment_closest(p.a[i[k]], p.b[i[k]], p.a[j[k]], p.b[j[k]])
    k = np.flatnonzero(~round_pair)
    if len(k):
        lines = shapely.shortest_line(p.skeletons[i[k]], p.skeletons[j[k]])
        ends[k] = shapely.get_coordinates(lines).reshape(-1, 2, 2)
    return ends


def _segment_closest(a0, a1, b0, b1) -> np.ndarray:
    """Closest points between segments a0-a1 and b0-b1 (points are segments of length 0), vectorised.

    Works on x and y columns apart (no (k, 2) reductions), since it runs on every pair of nearby pieces.
    """
    ax, ay, bx, by = a0[:, 0], a0[:, 1], b0[:, 0], b0[:, 1]
    dax, day = a1[:, 0] - ax, a1[:, 1] - ay
    dbx, dby = b1[:, 0] - bx, b1[:, 1] - by
    rx, ry = ax - bx, ay - by
    aa = dax * dax + day * day
    bb = dbx * dbx + dby * dby
    ab = dax * dbx + day * dby
    ar = dax * rx + day * ry
    br = dbx * rx + dby * ry
    denom = aa * bb - ab * ab
    a_len = aa > 0
    b_len = bb > 0
    safe_a = np.where(a_len, aa, 1.0)
    safe_b = np.where(b_len, bb, 1.0)
    crossing = denom > 1e-12 * aa * bb
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        s = np.clip((ab * br - bb * ar) / np.where(crossing, denom, 1.0), 0.0, 1.0)
        # Parallel (or point) pairs: the middle of the stretch of a where b faces it.
        t0 = np.clip(-ar / safe_a, 0.0, 1.0)
        t1 = np.clip((dax * (bx + dbx - ax) + day * (by + dby - ay)) / safe_a, 0.0, 1.0)
        s = np.where(crossing, s, np.where(a_len, (t0 + t1) * 0.5, 0.0))
        px, py = ax + s * dax, ay + s * day
        t = np.where(b_len, np.clip((dbx * (px - bx) + dby * (py - by)) / safe_b, 0.0, 1.0), 0.0)
        qx, qy = bx + t * dbx, by + t * dby
        # Back onto a, at the point closest to b's (needed when t was clipped).
        s = np.where(a_len, np.clip((dax * (qx - ax) + day * (qy - ay)) / safe_a, 0.0, 1.0), 0.0)
        px, py = ax + s * dax, ay + s * day
    out = np.empty((len(ax), 2, 2))
    out[:, 0, 0], out[:, 0, 1], out[:, 1, 0], out[:, 1, 1] = px, py, qx, qy
    return out


def free_gaps(p: Pieces, i: np.ndarray, j: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Whether each gap line (between the surfaces of pieces ``i`` and ``j``) runs through free space.

    A gap passing through any other piece separates nothing: the rest of a
    straight wall between two of its segments, or a third object in between.
    """
    if not len(i):
        return np.zeros(0, dtype=bool)
    d = ends[:, 1] - ends[:, 0]
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / np.where(length > 0, length, 1.0)[:, None]
    scale = np.abs(ends).reshape(len(i), -1).max(axis=1)
    tol = 1e-9 * scale + 1e-7
    start = ends[:, 0] + u * (p.radius[i] + tol)[:, None]
    stop = ends[:, 1] - u * (p.radius[j] + tol)[:, None]
    usable = (length - p.radius[i] - p.radius[j]) > 2 * tol
    free = np.ones(len(i), dtype=bool)
    k = np.flatnonzero(usable)
    if not len(k):
        return free
    lo = np.minimum(start[k], stop[k]) - float(p.radius.max())
    hi = np.maximum(start[k], stop[k]) + float(p.radius.max())
    tree = shapely.STRtree(shapely.box(*shapely.bounds(p.skeletons).T))
    line, piece = tree.query(shapely.box(lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1]))
    other = (piece != i[k[line]]) & (piece != j[k[line]])
    line, piece = line[other], piece[other]
    round_piece = ~p.polygon[piece]
    blocked = np.zeros(len(line), dtype=bool)
    r = np.flatnonzero(round_piece)
    near = _segment_closest(start[k[line[r]]], stop[k[line[r]]], p.a[piece[r]], p.b[piece[r]])
    blocked[r] = np.hypot(*(near[:, 1] - near[:, 0]).T) < p.radius[piece[r]] - tol[k[line[r]]]
    f = np.flatnonzero(~round_piece)
    if len(f):
        # A gap passes through a box or cell when it meets its inside, not when it runs along a side:
        # each polygon is shrunk by the tolerance once, prepared, and asked whether the gap meets it.
        used, where = np.unique(piece[f], return_inverse=True)
        inside = shapely.buffer(p.skeletons[used], -float(tol.max()), join_style="mitre")
        shapely.prepare(inside)
        cores = shapely.linestrings(np.stack([start[k[line[f]]], stop[k[line[f]]]], axis=1))
        blocked[f] = shapely.intersects(inside[where], cores)
    free[k[np.unique(line[blocked])]] = False
    return free


def passages(p: Pieces, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """A passage number for each gap: gaps between neighbouring pieces of the same two objects share one.

    Neighbouring pieces are consecutive segments of one wall (also across a
    closed wall's closing node); all the pieces of a box or a tile grid count
    as one.
    """
    n = len(p)
    first = np.full(n, -1, dtype=np.int64)
    if n:
        owner_first = np.zeros(int(p.owner.max()) + 1, dtype=np.int64)
        owner_first[p.owner[::-1]] = np.arange(n - 1, -1, -1)
        first = owner_first[p.owner]
    canon = np.where(p.polygon, first, np.arange(n))
    key = canon[i] * n + canon[j]
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]

    def step(k: np.ndarray, by: int) -> np.ndarray:
        """The piece ``by`` places along from ``k`` on its wall (-1 where there is none)."""
        if by == 0:
            return canon[k]
        seq = p.seq[k] + by
        ring = p.ring[k]
        seq = np.where((ring > 0) & (seq < 0), seq + ring, np.where((ring > 0) & (seq >= ring), seq - ring, seq))
        other = k + (seq - p.seq[k])
        ok = ~p.polygon[k] & (other >= 0) & (other < n)
        other = np.where(ok, other, 0)
        ok &= (p.owner[other] == p.owner[k]) & (p.seq[other] == seq)
        return np.where(ok, other, -1)

    link_a, link_b = [], []
    for da in (-1, 0, 1):
        na = step(i, da)
        for db in (-1, 0, 1):
            if da == 0 and db == 0:
                continue
            nb = step(j, db)
            ok = (na >= 0) & (nb >= 0)
            wanted = na * n + nb
            at = np.clip(np.searchsorted(sorted_key, wanted), 0, max(len(sorted_key) - 1, 0))
            hit = ok & (len(sorted_key) > 0) & (sorted_key[at] == wanted)
            link_a.append(np.flatnonzero(hit))
            link_b.append(order[at[hit]])
    # Pairs with the very same key (two rectangles of one grid against one segment) are one passage too.
    same = np.flatnonzero(sorted_key[1:] == sorted_key[:-1])
    link_a.append(order[same])
    link_b.append(order[same + 1])
    return connected_groups(len(i), np.concatenate(link_a), np.concatenate(link_b))


def connected_groups(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Connected groups of ``n`` items linked by the pairs ``a[k]``-``b[k]``: a group number per item.

    >>> connected_groups(5, np.array([0, 3]), np.array([1, 4])).tolist()
    [0, 0, 1, 2, 2]
    """
    parent = np.arange(n)
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    while True:
        ra, rb = parent[a], parent[b]
        differ = ra != rb
        if not differ.any():
            break
        # Hook every larger root under the smaller one, then jump pointers until each item names its root.
        np.minimum.at(parent, np.maximum(ra[differ], rb[differ]), np.minimum(ra[differ], rb[differ]))
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up
    return np.unique(parent, return_inverse=True)[1]
