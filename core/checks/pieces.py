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

>>> from level_editor.core.level.model import Level, Wall
>>> from level_editor.core.checks.outlines import level_outlines
>>> o = level_outlines(Level(objects=[Wall("w", [(0, 0), (50, 0), (50, 0), (100, 0), (100, 30)], 4)]))
>>> p = cut_into_pieces(o)
>>> len(p), p.seq.tolist()      # the repeated node and the node in the straight run are gone
(2, [0, 1])
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

from level_editor.core.checks.outlines import BOX, ORIENTED_BOX, PILLAR, TILES, LevelOutlines
from level_editor.core.level.model import Tiles

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
    last segment then neighbours the first), else 0. ``arc`` is how far along
    its wall's chain the piece starts (at ``a``), ``chain`` the length of that
    whole chain (with a closed wall's closing segment); both 0 for other objects.
    """

    skeletons: np.ndarray
    a: np.ndarray
    b: np.ndarray
    radius: np.ndarray
    owner: np.ndarray
    seq: np.ndarray
    ring: np.ndarray
    polygon: np.ndarray
    arc: np.ndarray
    chain: np.ndarray

    def __len__(self) -> int:
        return len(self.owner)

    @cached_property
    def bounds(self) -> np.ndarray:
        """Each skeleton's bounds (x0, y0, x1, y1)."""
        return shapely.bounds(self.skeletons).reshape(-1, 4)

    @cached_property
    def tree(self) -> shapely.STRtree:
        """An STRtree of the skeletons' bounds (boxes: queries with boxes need no exact test)."""
        return shapely.STRtree(shapely.box(*self.bounds.T))


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
        art, art_owner = [], []
        for k in tiles.tolist():
            obj = o.objects[k]
            if obj.__class__ is not Tiles or obj.painted:
                # art: the parts of its outline (its tiles' or its own collision shapes joined)
                parts_of = shapely.get_parts(o.shapes[k])
                art.extend(parts_of)
                art_owner.extend([k] * len(parts_of))
                continue
            for r in obj.solid_rects():
                rects.append((r.origin.x, r.origin.y, r.origin.x + r.size.x, r.origin.y + r.size.y))
                owner.append(k)
        v = np.asarray(rects, dtype=float).reshape(-1, 4)
        parts.append(_flat(shapely.box(v[:, 0], v[:, 1], v[:, 2], v[:, 3]), np.asarray(owner, dtype=np.int64)))
        if art:
            parts.append(_flat(np.asarray(art, dtype=object), np.asarray(art_owner, dtype=np.int64)))
    if not parts:
        return _round(np.empty(0, dtype=object), np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0),
                      np.zeros(0, dtype=np.int64))
    return Pieces(*(np.concatenate([getattr(p, f) for p in parts]) for f in (
        "skeletons", "a", "b", "radius", "owner", "seq", "ring", "polygon", "arc", "chain")))


def _round(skeletons, a, b, radius, owner, seq=None, ring=None, arc=None, chain=None) -> Pieces:
    n = len(owner)
    return Pieces(skeletons, a, b, np.asarray(radius, dtype=float), np.asarray(owner, dtype=np.int64),
                  np.zeros(n, dtype=np.int64) if seq is None else seq,
                  np.zeros(n, dtype=np.int64) if ring is None else ring, np.zeros(n, dtype=bool),
                  np.zeros(n) if arc is None else arc, np.zeros(n) if chain is None else chain)


def _flat(polygons, owner) -> Pieces:
    n = len(owner)
    nan = np.full((n, 2), np.nan)
    return Pieces(np.asarray(polygons, dtype=object), nan, nan, np.zeros(n), np.asarray(owner, dtype=np.int64),
                  np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool),
                  np.zeros(n), np.zeros(n))


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
    # How far along its chain each segment starts, and each chain's length (a closed chain ends on its first node).
    length = np.hypot(*(xy[seg + 1] - xy[seg]).T)
    before = np.cumsum(length) - length
    first = np.searchsorted(wall[seg], np.arange(len(o.chains)))
    arc = np.concatenate([before - before[first[wall[seg]]], np.zeros(len(lone))])
    chain = np.bincount(wall[seg], weights=length, minlength=len(o.chains))[w]
    # A segment lying exactly on an earlier one of its wall (a chain running back and forth along a line)
    # adds nothing to any gap: only the first is kept (the others keep their place along the chain).
    kept = ~_repeated_segments(a, b, w, seq)
    a, b, w, seq, ring, arc, chain = a[kept], b[kept], w[kept], seq[kept], ring[kept], arc[kept], chain[kept]
    is_point = np.all(a == b, axis=1)
    skeletons = np.empty(len(a), dtype=object)
    skeletons[~is_point] = shapely.linestrings(np.stack([a[~is_point], b[~is_point]], axis=1))
    skeletons[is_point] = shapely.points(a[is_point])
    order = np.lexsort((seq, w))
    return _round(skeletons[order], a[order], b[order], o.rounding[o.wall_index[w]][order],
                  o.wall_index[w][order], seq[order], ring[order], arc[order], chain[order])


def _repeated_segments(a: np.ndarray, b: np.ndarray, wall: np.ndarray, seq: np.ndarray) -> np.ndarray:
    """Whether each segment joins the same two nodes (either way) as one earlier along the same wall."""
    if len(a) < 2:
        return np.zeros(len(a), dtype=bool)
    swap = (a[:, 0] > b[:, 0]) | ((a[:, 0] == b[:, 0]) & (a[:, 1] > b[:, 1]))
    lo = np.where(swap[:, None], b, a)
    hi = np.where(swap[:, None], a, b)
    order = np.lexsort((seq, hi[:, 1], hi[:, 0], lo[:, 1], lo[:, 0], wall))
    same = ((wall[order[1:]] == wall[order[:-1]]) & np.all(lo[order[1:]] == lo[order[:-1]], axis=1)
            & np.all(hi[order[1:]] == hi[order[:-1]], axis=1))
    repeated = np.zeros(len(a), dtype=bool)
    repeated[order[1:][same]] = True
    return repeated


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
    touch or overlap), ``ends`` the closest points of their skeletons (see
    :func:`closest_points`), shape (k, 2, 2). Consecutive segments of one wall are left out, and so
    are two segments of one wall too close along it for the player to fit in
    the loop they make with the gap (see :func:`find_gaps`).
    """

    i: np.ndarray
    j: np.ndarray
    gap: np.ndarray
    ends: np.ndarray


#: A piece whose grid cell and the eight around it hold more pieces than this is *crowded* (see find_gaps).
CROWDED = 24

#: A piece whose grid cell and the eight around it hold more pieces than this is crowded too, however few runs
#: of wall they make (so that the pairs a piece not crowded looks at stay bounded).
MANY = 512

#: A piece longer than this many cells is never crowded.
LONG = 4

#: A crowded piece looks no further once it has this many other pieces within a reach; it keeps the nearest.
ENOUGH = 4

#: The reaches a crowded piece looks within in turn, as parts of the full reach.
STEPS = (0.0, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1.0)


def find_gaps(p: Pieces, reach: float, wanted=None, room=None) -> Gaps:
    """Every pair of pieces whose gap is at most ``reach``, found with an STRtree in chunks.

    The tree is asked for boxes only (each piece's bounds grown by ``reach``
    and both radii), and the exact gaps of the pairs it returns are computed
    with numpy (segments and points) or shapely (boxes and cells). Time and
    memory grow with the number of pairs found, never with ``reach`` times the
    pieces' sizes: nothing is buffered by it. ``wanted(i, j, gap)``, when
    given, says which pairs of each chunk to keep, so that pairs of no
    interest never pile up (it is also given the closest points, as
    ``wanted(i, j, gap, ends)``).

    ``room``, when given, is for each piece how far the player's middle stays
    from its wall's chain wherever it can be (its smallest half width plus the
    wall's half thickness). Two segments of one wall whose closest points are
    less than ``pi * room`` apart along the chain are left out: the player
    cannot be anywhere inside the loop that stretch of chain makes with the
    line between them (to hold a point that far from it, a loop must turn half
    round it, the line between them turning less than that), so they leave no
    passage, and a link between them encloses nothing the chain does not.

    So that a dense wall (nodes a pixel apart, folded on itself) costs about
    as much as its nodes, a *crowded* piece (more than :data:`CROWDED` pieces
    in its grid cell, a reach wide, and the eight around it) looks within the
    reaches of :data:`STEPS` in turn and stops at the first where it has
    :data:`ENOUGH` others, keeping the nearest of them. (A wall's run of
    segments in one cell counts once there: a smooth wall of short segments
    is not crowded, the zig-zags and spirals of a wall folded on itself are;
    a piece longer than :data:`LONG` cells never is.) A pair is still found
    in full from a piece that is not crowded; only a gap between two crowded
    pieces, each with that many nearer neighbours, can go unseen.
    """
    empty = np.zeros(0, dtype=np.int64)
    if len(p) < 2:
        return Gaps(empty, empty, np.zeros(0), np.zeros((0, 2, 2)))
    bounds, tree = p.bounds, p.tree
    widest = float(p.radius.max())
    crowded = _crowded(p, bounds, reach + 2.0 * widest)
    found = []
    sparse = np.flatnonzero(~crowded)
    for lo in range(0, len(sparse), CHUNK):
        q = sparse[lo:lo + CHUNK]
        i, j, _ = _near(tree, bounds, q, reach + p.radius[q] + widest)
        keep = (i < j) | crowded[j]  # a pair of two pieces that are not crowded is found from both
        i, j = np.minimum(i[keep], j[keep]), np.maximum(i[keep], j[keep])
        found.append(_wanted(p, *_measure(p, i, j, room, reach), wanted))
    found.append(_wanted(p, *_crowded_gaps(p, tree, bounds, np.flatnonzero(crowded), crowded, reach, widest, room),
                         wanted))
    return Gaps(*(np.concatenate([f[k] for f in found]) for k in range(4)))


def _wanted(p: Pieces, i, j, gap, ends, wanted):
    """The pairs ``wanted`` keeps (all without it), with the closest points of their skeletons."""
    if wanted is not None and len(i):
        keep = wanted(i, j, gap, ends)
        i, j, gap, ends = i[keep], j[keep], gap[keep], ends[keep]
    return i, j, gap, ends


def _crowded(p: Pieces, bounds: np.ndarray, cell: float) -> np.ndarray:
    """Whether each piece has more than :data:`CROWDED` others in a grid cell ``cell`` wide and the eight around
    it, a wall's run of segments in one cell counting once (a smooth wall of short segments is not crowded),
    or more than :data:`MANY` pieces however they run; never when it is longer than :data:`LONG` cells."""
    if len(p) <= CROWDED:
        return np.zeros(len(p), dtype=bool)
    cell = max(cell, 1.0)
    where = np.where(p.polygon[:, None], (bounds[:, :2] + bounds[:, 2:]) / 2.0, p.a)
    middle = np.floor(where / cell).astype(np.int64) + (1 << 30)
    key = (middle[:, 0] << 32) + middle[:, 1]
    enters = np.ones(len(p), dtype=bool)
    enters[1:] = (key[1:] != key[:-1]) | (p.owner[1:] != p.owner[:-1]) | p.polygon[1:]
    cells, at, pieces = np.unique(key, return_inverse=True, return_counts=True)
    runs = np.bincount(at, weights=enters, minlength=len(cells))
    runs_around = np.zeros(len(cells))
    pieces_around = np.zeros(len(cells), dtype=np.int64)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            other = cells + (dx << 32) + dy
            k = np.minimum(np.searchsorted(cells, other), len(cells) - 1)
            there = cells[k] == other
            runs_around += np.where(there, runs[k], 0)
            pieces_around += np.where(there, pieces[k], 0)
    # A piece longer than a few cells is never crowded: the many small pieces along it may each leave it a gap,
    # all of which are found from its side (a straight wall along a dense one: one passage, not a few short ones).
    long = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1]) > LONG * cell
    return ((runs_around[at] > CROWDED + 1) | (pieces_around[at] > MANY + 1)) & ~long


def _near(tree, bounds: np.ndarray, q: np.ndarray, grow: np.ndarray):
    """The pairs (piece of ``q``, piece) whose bounds, the first's grown by ``grow``, meet; and the place in ``q``."""
    boxes = shapely.box(bounds[q, 0] - grow, bounds[q, 1] - grow, bounds[q, 2] + grow, bounds[q, 3] + grow)
    k, j = tree.query(boxes)
    return q[k], j, k


def _crowded_gaps(p: Pieces, tree, bounds, crowd: np.ndarray, crowded: np.ndarray, reach: float, widest: float,
                  room):
    """The gaps of crowded pieces to crowded pieces, each looking within the reaches of :data:`STEPS` in turn."""
    found = []
    active = crowd
    for step in STEPS:
        if not len(active):
            break
        within = reach * step
        last = step == STEPS[-1]
        going_on = []
        for lo in range(0, len(active), CHUNK):
            q = active[lo:lo + CHUNK]
            i, j, k = _near(tree, bounds, q, within + p.radius[q] + widest)
            keep = i != j
            i, j, k = i[keep], j[keep], k[keep]
            i, j, gap, ends, kept = _measure(p, i, j, room, within, with_index=True)
            k = k[kept]
            count = np.bincount(k, minlength=len(q))
            done = np.ones(len(q), dtype=bool) if last else count >= ENOUGH
            going_on.append(q[~done])
            # The nearest ENOUGH of each piece that stops here (those of pieces not crowded find it themselves).
            keep = np.flatnonzero(done[k])
            order = keep[np.lexsort((gap[keep], k[keep]))]
            rank = np.arange(len(order)) - np.searchsorted(k[order], k[order])
            keep = order[(rank < ENOUGH) & crowded[j[order]]]
            found.append((i[keep], j[keep], gap[keep], ends[keep]))
        active = np.concatenate(going_on)
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0), np.zeros((0, 2, 2))
    i, j, gap, ends = (np.concatenate([f[k] for f in found]) for k in range(4))
    swap = i > j
    ends[swap] = ends[swap][:, ::-1]
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    _, first = np.unique(lo * len(p) + hi, return_index=True)
    return lo[first], hi[first], gap[first], ends[first]


def _measure(p: Pieces, i: np.ndarray, j: np.ndarray, room, within: float, with_index: bool = False):
    """The pairs that may leave a gap of at most ``within``, their gaps and closest points (and which were kept).

    Left out: two pieces of one box or grid, consecutive segments of one
    wall, and (with ``room``) two segments of one wall too close along it for
    the player to fit in between (see :func:`find_gaps`).
    """
    kept = np.flatnonzero(((p.owner[i] != p.owner[j]) | ~p.polygon[i]) & ~neighbours(p, i, j))
    i, j = i[kept], j[kept]
    same = np.flatnonzero((p.owner[i] == p.owner[j]) & ~p.polygon[i])
    unsure = np.zeros(0, dtype=np.int64)
    if room is not None and len(same):
        a, b = i[same], j[same]
        need = np.pi * room[a]
        # How far apart along the chain the two segments' points can be, at least and at most.
        start_a, start_b = p.arc[a], p.arc[b]
        end_a = start_a + np.hypot(*(p.b[a] - p.a[a]).T)
        end_b = start_b + np.hypot(*(p.b[b] - p.a[b]).T)
        most = np.maximum(end_a, end_b) - np.minimum(start_a, start_b)
        least = np.maximum(np.maximum(start_a, start_b) - np.minimum(end_a, end_b), 0.0)
        ring = p.ring[a] > 0
        most, least = (np.where(ring, np.minimum(most, p.chain[a] - least), most),
                       np.where(ring, np.minimum(least, p.chain[a] - most), least))
        keep = np.ones(len(i), dtype=bool)
        keep[same[most * _SLACK < need]] = False
        unsure = np.flatnonzero(~keep)  # placeholder, recomputed below on the kept pairs
        flag = np.zeros(len(i), dtype=bool)
        flag[same[(most * _SLACK >= need) & (least * _SLACK < need)]] = True
        kept, i, j, flag = kept[keep], i[keep], j[keep], flag[keep]
        unsure = np.flatnonzero(flag)
    gap, ends = _gaps_and_ends(p, i, j)
    keep = gap <= within
    if len(unsure):
        a, b, e = i[unsure], j[unsure], ends[unsure]
        along = np.abs(p.arc[b] + np.hypot(*(e[:, 1] - p.a[b]).T) - p.arc[a] - np.hypot(*(e[:, 0] - p.a[a]).T))
        along = np.where(p.ring[a] > 0, np.minimum(along, p.chain[a] - along), along)
        keep[unsure[along * _SLACK < np.pi * room[a]]] = False
    i, j, gap, ends, kept = i[keep], j[keep], gap[keep], ends[keep], kept[keep]
    polygon = np.flatnonzero(p.polygon[i] | p.polygon[j])
    if len(polygon):
        lines = shapely.shortest_line(p.skeletons[i[polygon]], p.skeletons[j[polygon]])
        ends[polygon] = shapely.get_coordinates(lines).reshape(-1, 2, 2)
    if with_index:
        return i, j, gap, ends, kept
    return i, j, gap, ends


#: Lengths along a chain are sums of many segments' lengths: a relative slack for their rounding.
_SLACK = 1.0 + 1e-9


def _gaps_and_ends(p: Pieces, i: np.ndarray, j: np.ndarray):
    """The gaps between pieces ``i`` and ``j`` and, for two round pieces, the closest points of their
    skeletons (NaN for a box or cell: :func:`_measure` fills them in for the pairs it keeps)."""
    d = np.empty(len(i))
    ends = np.full((len(i), 2, 2), np.nan)
    round_pair = ~p.polygon[i] & ~p.polygon[j]
    k = np.flatnonzero(round_pair)
    if len(k):
        ends[k] = _segment_closest(p.a[i[k]], p.b[i[k]], p.a[j[k]], p.b[j[k]])
        d[k] = np.hypot(*(ends[k, 1] - ends[k, 0]).T)
    k = np.flatnonzero(~round_pair)
    if len(k):
        d[k] = shapely.distance(p.skeletons[i[k]], p.skeletons[j[k]])
    return d - p.radius[i] - p.radius[j], ends


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
    line, piece = p.tree.query(shapely.box(lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1]))
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
    # Half of the eight ways along is enough: a link found one way round is the same link the other way.
    for da, dbs in ((0, (1,)), (1, (-1, 0, 1))):
        na = step(i, da)
        for db in dbs:
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
    while len(a):
        ra, rb = parent[a], parent[b]
        differ = ra != rb
        if not differ.any():
            break
        # Links already inside one group are dropped; every larger root is hooked under the smaller one,
        # then pointers jump until each item names its root.
        a, b, ra, rb = a[differ], b[differ], ra[differ], rb[differ]
        np.minimum.at(parent, np.maximum(ra, rb), np.minimum(ra, rb))
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up
    return np.unique(parent, return_inverse=True)[1]
