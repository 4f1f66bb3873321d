"""A wall's chain of nodes as one NumPy array: what a wall of hundreds of thousands of nodes is drawn and picked from.

A Python loop over 200,000 nodes costs a fifth of a second each time it runs, and a
QPolygonF made point by point half a second; Qt strokes one polyline of that many
nodes in seconds. Here the work is done on arrays: the segments in view are found
at once, nodes closer together than half a screen pixel are dropped, and what is
left is handed to Qt in short runs, each made into a QPolygonF in one call.
"""
from __future__ import annotations

from itertools import chain
from typing import Optional

import numpy as np
import shiboken6
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPolygonF

#: Nodes per polyline handed to Qt: its stroker and rasteriser slow down far faster than the node count,
#: worst where the polyline overlaps itself. Measured on a 1200x800 antialiased frame: a 200,000-node random walk
#: all in view took 8 s as one polyline, 0.25 s in runs of 16 (0.27 s of 400); a zig-zag of 400-unit teeth 2 units
#: apart at 100% 2.6 s in runs of 400, 0.63 s of 16, 0.46 s of 8 (but the random walk slower again).
RUN_NODES = 16

#: Nodes closer together than this many screen pixels are drawn as one.
NODE_PIXELS = 0.5


#: Arrays of the last few chains of nodes, kept by the identity of their (immutable) tuple: a move's undo gives
#: the wall back its old tuple, and its array is then not made again (0.2 s for 300,000 nodes).
KEPT_ARRAYS = 4
_kept: list = []


def array_of(points) -> np.ndarray:
    """The nodes as an ``(n, 2)`` float array, read without a Python loop per node (not to be written to).

    A tuple of nodes (a wall's ``points``) is kept by identity among the last
    :data:`KEPT_ARRAYS`; ``np.array`` of 300,000 pairs took 0.2 to 0.9 s, this 0.04 s.
    """
    if isinstance(points, tuple):
        for kept, array in _kept:
            if kept is points:
                return array
    array = np.fromiter(chain.from_iterable(points), np.float64, 2 * len(points)).reshape(-1, 2)
    array.flags.writeable = False
    if isinstance(points, tuple):
        _kept.insert(0, (points, array))
        del _kept[KEPT_ARRAYS:]
    return array


def nodes_of(points, closed: bool = False) -> np.ndarray:
    """The nodes as an ``(n, 2)`` float array relative to the first (the item's anchor); a closed chain repeats it."""
    nodes = array_of(points)
    nodes = nodes - nodes[0]
    if closed and len(nodes) > 2:
        nodes = np.vstack((nodes, nodes[:1]))
    return nodes


def polygon_of(nodes: np.ndarray) -> QPolygonF:
    """A QPolygonF of ``nodes`` made in one call: the array is copied into the polygon's own memory.

    (Read from Qt's stream format instead, 300,000 nodes took 0.1 s; a point at a time, half a second.)
    """
    polygon = QPolygonF()
    n = len(nodes)
    if n == 0:
        return polygon
    polygon.resize(n)
    # data() is the first QPointF, two doubles each, one after the other
    memory = shiboken6.VoidPtr(polygon.data(), 16 * n, True)
    np.frombuffer(memory, np.float64, 2 * n).reshape(n, 2)[:] = nodes
    return polygon


#: Segments per block of the index a long chain's segments are found by (:func:`segments_meeting`).
BLOCK_SEGMENTS = 64
_kept_blocks: list = []


def _blocks_of(nodes: np.ndarray) -> np.ndarray:
    """The boxes ``(x0, y0, x1, y1)`` of the chain's blocks of :data:`BLOCK_SEGMENTS` segments (kept per array)."""
    for kept, boxes in _kept_blocks:
        if kept is nodes:
            return boxes
    starts = np.arange(0, len(nodes) - 1, BLOCK_SEGMENTS)
    low = np.minimum.reduceat(nodes, starts, axis=0)
    high = np.maximum.reduceat(nodes, starts, axis=0)
    # a block's last segment ends on the next block's first node
    after = np.minimum(starts + BLOCK_SEGMENTS, len(nodes) - 1)
    low = np.minimum(low, nodes[after])
    high = np.maximum(high, nodes[after])
    boxes = np.hstack((low, high))
    _kept_blocks.insert(0, (nodes, boxes))
    del _kept_blocks[KEPT_ARRAYS:]
    return boxes


def segments_meeting(nodes: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Which segments (``i`` joins nodes ``i`` and ``i + 1``) have a box meeting ``[x0, x1] x [y0, y1]``.

    The blocks of segments whose box misses it are skipped as a whole: a view
    or a click on a small part of 300,000 nodes looks at that part only.
    """
    count = len(nodes) - 1
    boxes = _blocks_of(nodes)
    near = np.flatnonzero((boxes[:, 0] <= x1) & (boxes[:, 2] >= x0) & (boxes[:, 1] <= y1) & (boxes[:, 3] >= y0))
    seen = np.zeros(count, dtype=bool)
    if len(near) == 0:
        return seen
    if len(near) * 2 > len(boxes):
        index = slice(None)
    else:
        index = (near[:, None] * BLOCK_SEGMENTS + np.arange(BLOCK_SEGMENTS)).ravel()
        index = index[index < count]
    a, b = nodes[:-1][index], nodes[1:][index]
    seen[index] = ((np.minimum(a[:, 0], b[:, 0]) <= x1) & (np.maximum(a[:, 0], b[:, 0]) >= x0)
                   & (np.minimum(a[:, 1], b[:, 1]) <= y1) & (np.maximum(a[:, 1], b[:, 1]) >= y0))
    return seen


def bounds_of(nodes: np.ndarray, pad: float) -> QRectF:
    """The nodes' bounding rectangle grown by ``pad`` on every side."""
    x0, y0 = nodes.min(axis=0)
    x1, y1 = nodes.max(axis=0)
    return QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)


def runs_in_view(nodes: np.ndarray, view: QRectF, reach: float, zoom: float,
                 run_nodes: int = RUN_NODES) -> list[QPolygonF]:
    """The parts of the chain that can show inside ``view``, as polylines of at most ``run_nodes`` nodes.

    ``reach`` is how far from its centre line the chain draws (half its thickness and
    the edge): a segment whose box grown by it misses ``view`` is left out, and the
    chain is cut there (the joint at the cut is out of view too). Nodes that land
    within :data:`NODE_PIXELS` of the one before at ``zoom`` are dropped.
    """
    if len(nodes) < 2:
        return [polygon_of(nodes)] if len(nodes) else []
    seen = segments_meeting(nodes, view.left() - reach, view.top() - reach, view.right() + reach,
                            view.bottom() + reach)
    if not seen.any():
        return []
    # runs of segments in view: segment i joins nodes i and i + 1
    edges = np.diff(np.concatenate(([0], seen.view(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    step = NODE_PIXELS / zoom if zoom > 0 else 0.0
    runs = []
    for s, e in zip(starts.tolist(), ends.tolist()):
        run = nodes[s:e + 1]
        if step > 0 and len(run) > 2:
            cells = np.floor(run / step)
            keep = np.empty(len(run), dtype=bool)
            keep[0] = keep[-1] = True
            keep[1:-1] = (cells[1:-1] != cells[:-2]).any(axis=1)
            run = run[keep]
        for i in range(0, len(run) - 1, run_nodes - 1):
            runs.append(polygon_of(run[i:i + run_nodes]))
    return runs


def nodes_in_view(nodes: np.ndarray, view: QRectF, zoom: float) -> QPolygonF:
    """The nodes inside ``view``, at most one per :data:`NODE_PIXELS` cell (a selected wall's node dots)."""
    inside = nodes[(nodes[:, 0] >= view.left()) & (nodes[:, 0] <= view.right())
                   & (nodes[:, 1] >= view.top()) & (nodes[:, 1] <= view.bottom())]
    if zoom > 0 and len(inside) > 1:
        # one node per cell: the last one written to each cell of a grid over the view (no sort of 300,000 nodes)
        step = NODE_PIXELS / zoom
        cells = np.floor((inside - (view.left(), view.top())) / step).astype(np.int64)
        columns = int(cells[:, 0].max()) + 1
        key = cells[:, 1] * columns + cells[:, 0]
        if columns * (int(cells[:, 1].max()) + 1) <= 2 * len(inside):
            last = np.full(columns * (int(cells[:, 1].max()) + 1), -1, np.int64)
            last[key] = np.arange(len(inside))
            inside = inside[np.sort(last[last >= 0])]
        else:
            inside = inside[np.sort(np.unique(key, return_index=True)[1])]
    return polygon_of(inside)


def nearest_node(nodes: np.ndarray, x: float, y: float) -> tuple[int, float]:
    """The index of the node nearest ``(x, y)`` and its squared distance."""
    d = ((nodes[:, 0] - x) ** 2 + (nodes[:, 1] - y) ** 2)
    i = int(np.argmin(d))
    return i, float(d[i])


def nodes_inside(nodes: np.ndarray, rect: QRectF) -> np.ndarray:
    """The indices of the nodes inside ``rect``."""
    return np.flatnonzero((nodes[:, 0] >= rect.left()) & (nodes[:, 0] <= rect.right())
                          & (nodes[:, 1] >= rect.top()) & (nodes[:, 1] <= rect.bottom()))


def _segment_distances_sq(nodes: np.ndarray, x: float, y: float) -> np.ndarray:
    return _distances_sq(nodes[:-1], np.diff(nodes, axis=0), x, y)


def _distances_sq(a: np.ndarray, d: np.ndarray, x: float, y: float) -> np.ndarray:
    """Squared distances from ``(x, y)`` to the segments from ``a`` to ``a + d``."""
    p = np.array((x, y)) - a
    length_sq = (d * d).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(length_sq > 0, (p * d).sum(axis=1) / length_sq, 0.0)
    t = np.clip(t, 0.0, 1.0)
    off = p - d * t[:, None]
    return (off * off).sum(axis=1)


def nearest_segment(nodes: np.ndarray, x: float, y: float) -> tuple[int, float]:
    """The index of the segment (nodes ``i``, ``i + 1``) nearest ``(x, y)`` and its squared distance."""
    d = _segment_distances_sq(nodes, x, y)
    i = int(np.argmin(d))
    return i, float(d[i])


def chain_meets_rect(nodes: np.ndarray, rect: QRectF, radius: float) -> bool:
    """Whether the chain widened by ``radius`` on each side (its capsules) meets ``rect``.

    A capsule meets the rectangle when its segment crosses the rectangle, or
    else when the segment's nearest approach to it (from an end of the
    segment to the rectangle, or from a corner of the rectangle to the
    segment) is within ``radius``.
    """
    x0, y0, x1, y1 = rect.left(), rect.top(), rect.right(), rect.bottom()
    if len(nodes) == 1:
        dx = max(x0 - nodes[0, 0], 0.0, nodes[0, 0] - x1)
        dy = max(y0 - nodes[0, 1], 0.0, nodes[0, 1] - y1)
        return dx * dx + dy * dy <= radius * radius
    # only segments whose box grown by radius meets the rectangle can
    near = segments_meeting(nodes, x0 - radius, y0 - radius, x1 + radius, y1 + radius)
    if not near.any():
        return False
    a, b = nodes[:-1][near], nodes[1:][near]
    # an end inside the rectangle grown by radius, nearer than radius to it
    for p in (a, b):
        dx = np.maximum(np.maximum(x0 - p[:, 0], 0.0), p[:, 0] - x1)
        dy = np.maximum(np.maximum(y0 - p[:, 1], 0.0), p[:, 1] - y1)
        if (dx * dx + dy * dy <= radius * radius).any():
            return True
    # a segment crossing the rectangle: clipped to it (Liang-Barsky), something is left
    d = b - a
    t0 = np.zeros(len(a))
    t1 = np.ones(len(a))
    with np.errstate(invalid="ignore", divide="ignore"):
        for q, lo, hi, k in ((d[:, 0], x0, x1, 0), (d[:, 1], y0, y1, 1)):
            flat = q == 0
            ta = (lo - a[:, k]) / q
            tb = (hi - a[:, k]) / q
            enter, leave = np.minimum(ta, tb), np.maximum(ta, tb)
            outside = flat & ((a[:, k] < lo) | (a[:, k] > hi))
            t0 = np.where(flat, t0, np.maximum(t0, enter))
            t1 = np.where(flat, t1, np.minimum(t1, leave))
            t1 = np.where(outside, -1.0, t1)
    if (t0 <= t1).any():
        return True
    # a corner of the rectangle within radius of a segment
    for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        if (_distances_sq(a, d, cx, cy) <= radius * radius).any():
            return True
    return False


def distance_sq_to_chain(nodes: np.ndarray, x: float, y: float, reach: Optional[float] = None) -> float:
    """The squared distance from ``(x, y)`` to the nearest segment of the chain (to the node, for one node).

    With ``reach``, only segments that can be within it are measured (infinity when none is).
    """
    if len(nodes) == 1:
        return float((nodes[0, 0] - x) ** 2 + (nodes[0, 1] - y) ** 2)
    if reach is None:
        return float(_segment_distances_sq(nodes, x, y).min())
    near = np.flatnonzero(segments_meeting(nodes, x - reach, y - reach, x + reach, y + reach))
    if len(near) == 0:
        return float("inf")
    return float(_distances_sq(nodes[near], nodes[near + 1] - nodes[near], x, y).min())


def longest_segment(nodes: np.ndarray) -> tuple[float, float, float, float]:
    """The longest segment's two nodes as ``(ax, ay, bx, by)``."""
    d = np.diff(nodes, axis=0)
    i = int(np.argmax((d * d).sum(axis=1)))
    return float(nodes[i, 0]), float(nodes[i, 1]), float(nodes[i + 1, 0]), float(nodes[i + 1, 1])


#: Pairs of (segment, pixel row) a chain is drawn from by :func:`draw_dense` at most (beyond that Qt draws it).
MAX_ROW_PAIRS = 3_000_000


def _rows(lo_y: np.ndarray, hi_y: np.ndarray, y0: int, y1: int):
    """For spans ``[lo_y, hi_y]`` (device y): ``(owner index, row)`` for every row whose centre lies inside."""
    first = np.maximum(np.ceil(lo_y - 0.5), y0).astype(np.int64)
    last = np.minimum(np.floor(hi_y - 0.5), y1 - 1).astype(np.int64)
    counts = np.maximum(last - first + 1, 0)
    total = int(counts.sum())
    owner = np.repeat(np.arange(len(counts)), counts)
    row = np.arange(total) - np.repeat(np.cumsum(counts) - counts - first, counts)
    return owner, row


def row_spans(nodes: np.ndarray, scale: float, dx: float, dy: float, box: tuple[int, int, int, int],
              radius: float) -> Optional[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The pixels the chain's capsules cover in ``box``, as spans: ``(row, first column, last column)`` arrays.

    The chain is put on the device by ``p * scale + (dx, dy)``; ``box`` is the
    device pixels ``(x0, y0, x1, y1)`` (``x1``, ``y1`` excluded); a pixel is
    covered when its centre is within ``radius`` device pixels of a segment.
    A capsule is the union of the discs at its nodes and its body (a
    rectangle): each cuts one interval from the line through a row of pixel
    centres, worked out for every (disc or body, row) pair at once. Spans may
    overlap. None when there would be more pairs than :data:`MAX_ROW_PAIRS`.
    """
    x0, y0, x1, y1 = box
    empty = np.empty(0, np.int64)
    if len(nodes) < 2:
        return empty, empty, empty
    # the segments that reach into the box, found on the chain as it is (its blocks out of view skipped)
    inward = radius / scale
    seen = np.flatnonzero(segments_meeting(nodes, (x0 - dx) / scale - inward, (y0 - dy) / scale - inward,
                                           (x1 - dx) / scale + inward, (y1 - dy) / scale + inward))
    a = nodes[seen] * scale + (dx, dy)
    b = nodes[seen + 1] * scale + (dx, dy)
    # the discs: one per node at an end of a segment in view
    ends = np.zeros(len(nodes), dtype=bool)
    ends[seen] = True
    ends[seen + 1] = True
    centres = nodes[ends] * scale + (dx, dy)
    disc, disc_row = _rows(centres[:, 1] - radius, centres[:, 1] + radius, y0, y1)
    # the bodies: rows the rectangle reaches, the corners being the ends moved by radius across the segment
    ux, uy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    length = np.hypot(ux, uy)
    has_body = length > 0
    a, b, ux, uy, length = a[has_body], b[has_body], ux[has_body], uy[has_body], length[has_body]
    ux, uy = ux / length, uy / length
    reach = radius * np.abs(ux)
    body, body_row = _rows(np.minimum(a[:, 1], b[:, 1]) - reach, np.maximum(a[:, 1], b[:, 1]) + reach, y0, y1)
    if len(disc) + len(body) > MAX_ROW_PAIRS:
        return None
    if len(disc) + len(body) == 0:
        return empty, empty, empty
    # disc: x = centre -+ sqrt(radius^2 - (yc - cy)^2)
    dy2 = (disc_row + 0.5 - centres[disc, 1]) ** 2
    half = np.sqrt(np.maximum(radius * radius - dy2, 0.0))
    disc_left = centres[disc, 0] - half
    disc_right = centres[disc, 0] + half
    # body: 0 <= (q - a).u <= length and |(q - a).n| <= radius for q = (x, yc): two intervals of x - ax,
    # each linear in ey = yc - ay (a constraint that does not involve x holds on the rows chosen above)
    big = 1e300
    with np.errstate(invalid="ignore", divide="ignore"):
        flat_x = ux == 0
        k1 = np.where(flat_x, 0.0, -uy / ux)
        c2 = np.where(flat_x, 0.0, length / ux)
        m1 = np.where(flat_x, -big, np.minimum(c2, 0.0))
        n1 = np.where(flat_x, big, np.maximum(c2, 0.0))
        flat_y = uy == 0
        k2 = np.where(flat_y, 0.0, ux / uy)
        c3 = np.where(flat_y, big, radius / np.abs(uy))
    ey = body_row + 0.5 - a[body, 1]
    t = ey * k1[body]
    s = ey * k2[body]
    c = c3[body]
    lo = np.maximum(t + m1[body], s - c)
    hi = np.minimum(t + n1[body], s + c)
    ax = a[body, 0]
    row = np.concatenate((disc_row, body_row))
    left = np.concatenate((disc_left, ax + lo))
    right = np.concatenate((disc_right, ax + hi))
    # pixels whose centre (column + 0.5) lies in [left, right]
    c0 = np.maximum(np.ceil(left - 0.5), x0)
    c1 = np.minimum(np.floor(right - 0.5), x1 - 1)
    keep = c0 <= c1
    return row[keep], c0[keep].astype(np.int64), c1[keep].astype(np.int64)


def coverage(spans: tuple[np.ndarray, np.ndarray, np.ndarray], box: tuple[int, int, int, int]) -> np.ndarray:
    """A boolean ``(height, width)`` array of ``box``: the pixels the spans cover (spans may overlap)."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    row, c0, c1 = spans
    stride = width + 1
    starts = (row - y0) * stride + (c0 - x0)
    ends = (row - y0) * stride + (c1 - x0 + 1)
    marks = np.bincount(starts, minlength=height * stride) - np.bincount(ends, minlength=height * stride)
    return (np.cumsum(marks.reshape(height, stride), axis=1)[:, :width] > 0)


def shrunk(mask: np.ndarray, pixels: int) -> np.ndarray:
    """``mask`` less ``pixels`` rings of its edge pixels (a pixel stays when its four neighbours are in)."""
    inner = mask.copy()
    for _ in range(pixels):
        core = inner.copy()
        core[1:, :] &= inner[:-1, :]
        core[:-1, :] &= inner[1:, :]
        core[:, 1:] &= inner[:, :-1]
        core[:, :-1] &= inner[:, 1:]
        inner = core
    return inner


def premultiplied(color) -> int:
    """A QColor as a premultiplied ARGB32 pixel."""
    r, g, b, alpha = color.red(), color.green(), color.blue(), color.alpha()
    if alpha < 255:
        r, g, b = (r * alpha + 127) // 255, (g * alpha + 127) // 255, (b * alpha + 127) // 255
    return (alpha << 24) | (r << 16) | (g << 8) | b


def dense_picture(nodes: np.ndarray, scale: float, dx: float, dy: float, box: tuple[int, int, int, int],
                  radius: float, color: int, edge_pixels: int = 0, edge_color: int = 0) -> Optional[tuple]:
    """The chain's capsules as a picture of ``box`` (device pixels): ``(QImage, x, y, pixels)``, drawn at ``(x, y)``.

    ``radius`` (device pixels) is how far the picture reaches from the centre
    line; the outermost ``edge_pixels`` of it are ``edge_color``, the rest
    ``color`` (premultiplied ARGB32 pixels). The picture is cut to what the
    chain covers (no QImage when nothing is) and reads the memory of
    ``pixels``, which must outlive it; None when the chain is too dense for
    :func:`row_spans` (the caller draws it another way).
    """
    spans = row_spans(nodes, scale, dx, dy, box, radius)
    if spans is None:
        return None
    row, c0, c1 = spans
    if len(row) == 0:
        return (None, 0, 0, None)
    # only what the chain covers, and room round it for the edge's rings to be taken from inside: at the sides
    # of ``box`` the chain goes on out of it, and what lies along them keeps its colour
    ring = edge_pixels
    cut = (max(int(c0.min()) - ring, box[0]), max(int(row.min()) - ring, box[1]),
           min(int(c1.max()) + 1 + ring, box[2]), min(int(row.max()) + 1 + ring, box[3]))
    mask = coverage(spans, cut)
    pixels = np.zeros(mask.shape, np.uint32)
    if edge_pixels > 0:
        pixels[mask] = edge_color
        pixels[shrunk(mask, edge_pixels)] = color
    else:
        pixels[mask] = color
    height, width = mask.shape
    image = QImage(pixels.data, width, height, 4 * width, QImage.Format_ARGB32_Premultiplied)
    # the QImage reads the array's memory: the array goes along with it
    return (image, cut[0], cut[1], pixels)
