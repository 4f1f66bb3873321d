"""Snapping of the mouse position to the grid and to other objects' nodes and corners.

Two kinds of snap, tried in this order:

1. **Object points** within :data:`SNAP_PIXELS` screen pixels: wall nodes, box
   and oriented box corners, pillar centres and the player's spawn. A small
   diamond marker shows the point while the mouse is held there.
2. **The grid** of the level (``G`` toggles it).
3. **Whole pixels** when the grid is off (View > Snap to Pixels, as in Tiled;
   saved in the settings), so a drag writes 655, not 654.5626297577855.

Holding Ctrl suspends all three for that event.

Snapping is total: any grid the level holds (0, negative, NaN, 1e-320, 1e300)
and any position give a finite point within :data:`~level_editor.core.level.limits.MAX_COORDINATE`,
never an exception. A grid outside the editor's range is used as its nearest
end (:data:`~level_editor.core.level.limits.MIN_GRID`, :data:`~level_editor.core.level.limits.MAX_GRID`);
one that is not a positive number is no grid. The object points live in a grid
hash (cells of :data:`CELL_SIZE` scene units), so a lookup costs the same with
10 objects or 100,000: only the few cells around the mouse are visited.

The hash is brought up to date lazily: a change only notes which ids it
touched, and the next lookup re-reads those objects. A lookup that ignores
every noted id (a drag of the selection, which never snaps to itself) needs
no update at all, so moving 10,000 objects costs the hash nothing per step.

A wall of :data:`LONG_POINTS` nodes or more does not go into the hash node by
node (300,000 nodes took 0.25 to 1.5 s, a freeze at the first snap after every
change): its nodes are kept in arrays sorted by cell (:class:`_LongPoints`,
about 50 ms for 300,000), and a lookup reads only the runs of the cells around
the mouse.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain
from typing import Iterable, Optional

import numpy as np
import shiboken6
from PySide6.QtCore import QEvent, QObject, QPointF, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.core.level.limits import MAX_COORDINATE, MAX_GRID, MIN_GRID
from level_editor.core.level.model import Box, OrientedBox, Pillar, Wall
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.support.subscriptions import subscribe_while_alive

#: How close (in screen pixels) the mouse must come to an object point to snap to it.
SNAP_PIXELS = 8.0

#: Side of one grid-hash cell, in scene units.
CELL_SIZE = 64.0

#: From this many points on, an object's points are kept in sorted arrays instead of the hash's lists.
LONG_POINTS = 2000

#: The id under which the player's spawn is a snap point (the same as the selection's).
PLAYER_ID = "player"

#: Above every object, handle and preview.
MARKER_Z = 3e9

#: Where View > Snap to Pixels is kept in the settings.
PIXELS_SETTING = "snapping/pixels"


def usable_grid(grid) -> Optional[float]:
    """The spacing snapping uses for a level's ``grid``; None when it is no grid.

    Not a positive finite number (0, negative, NaN, infinite, not a number at
    all) is no grid; anything else is kept within ``[MIN_GRID, MAX_GRID]``.

    >>> usable_grid(16), usable_grid(1e-320), usable_grid(1e300), usable_grid(0), usable_grid(float("nan"))
    (16.0, 1.0, 9999.0, None, None)
    """
    try:
        g = float(grid)
    except (TypeError, ValueError, OverflowError):
        return None
    if not (math.isfinite(g) and g > 0.0):
        return None
    return min(max(g, MIN_GRID), MAX_GRID)


def clamp_coordinate(value: float) -> float:
    """``value`` within ``[-MAX_COORDINATE, MAX_COORDINATE]`` (NaN is 0).

    >>> clamp_coordinate(1e300), clamp_coordinate(float("-inf")), clamp_coordinate(float("nan")), clamp_coordinate(2.5)
    (10000000.0, -10000000.0, 0.0, 2.5)
    """
    if value != value:
        return 0.0
    return min(max(float(value), -MAX_COORDINATE), MAX_COORDINATE)


def snap_value(value: float, step: float) -> float:
    """``value`` rounded to the nearest multiple of ``step`` (a :func:`usable_grid`), within the limits.

    >>> snap_value(23.0, 16.0), snap_value(654.5626297577855, 1.0), snap_value(1e300, 16.0)
    (16.0, 655.0, 10000000.0)
    """
    v = clamp_coordinate(value)
    return clamp_coordinate(round(v / step) * step)


def clamped_point(pos: QPointF) -> QPointF:
    """``pos`` with both coordinates within the limits."""
    return QPointF(clamp_coordinate(pos.x()), clamp_coordinate(pos.y()))


def snap_points(obj) -> list[tuple[float, float]]:
    """The points other objects snap to on ``obj``: nodes, corners or centre."""
    if isinstance(obj, Wall):
        return [(p.x, p.y) for p in obj.points]
    if isinstance(obj, Box):
        x0, y0 = obj.origin
        x1, y1 = x0 + obj.size.x, y0 + obj.size.y
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if isinstance(obj, OrientedBox):
        return [(c.x, c.y) for c in obj.corners()]
    if isinstance(obj, Pillar):
        return [(obj.center.x, obj.center.y)]
    return []


def _points_of(obj):
    """:func:`snap_points` of ``obj``; a long wall's own node tuple (not copied: the hash reads it in bulk)."""
    if isinstance(obj, Wall) and len(obj.points) >= LONG_POINTS:
        return obj.points
    return snap_points(obj)


@dataclass(frozen=True)
class SnapResult:
    """Where a position snapped to.

    ``kind`` is ``"object"`` (``object_id`` names whose point it is, ``"player"``
    for the spawn), ``"grid"``, ``"pixel"`` (whole pixels, the grid not snapping)
    or ``"none"`` (snapping off, Ctrl held, or no grid).
    """

    point: QPointF
    kind: str = "none"
    object_id: Optional[str] = None


class SnapMarker(QGraphicsPathItem):
    """A small diamond at the point the mouse snapped to; the same size at every zoom."""

    SIZE = 6.0

    def __init__(self):
        s = self.SIZE
        path = QPainterPath()
        path.moveTo(0, -s)
        path.lineTo(s, 0)
        path.lineTo(0, s)
        path.lineTo(-s, 0)
        path.closeSubpath()
        super().__init__(path)
        pen = QPen(QColor(40, 20, 0), 1.5)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setBrush(QBrush(QColor(255, 170, 30)))
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(MARKER_Z)
        mark_editor_only(self)


#: Cell columns and rows are kept within this in :class:`_LongPoints` (a cell key packs both in 64 bits).
_KEY_LIMIT = 1 << 29

#: A lookup spanning more cell columns than this reads all of a long object's points (zoomed far out).
_MAX_COLUMNS = 64


class _LongPoints:
    """The points of one object with very many (a wall of 300,000 nodes), sorted by grid-hash cell.

    The cells of one column form one run of the sorted arrays, so a lookup costs
    a binary search per column it spans, however many points the object has.
    """

    __slots__ = ("cell", "keys", "xy", "source")

    def __init__(self, points, cell: float):
        #: the sequence the arrays were made from (a wall's node tuple never changes: the same one, the same arrays)
        self.source = points
        n = len(points)
        xy = np.fromiter(chain.from_iterable(points), dtype=float, count=2 * n).reshape(n, 2)
        xy = xy[np.isfinite(xy).all(axis=1)]
        self.cell = cell
        keys = self._keys(np.floor(xy[:, 0] / cell), np.floor(xy[:, 1] / cell))
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order]
        self.xy = xy[order]

    @staticmethod
    def _keys(kx, ky):
        kx = np.clip(kx, -_KEY_LIMIT, _KEY_LIMIT).astype(np.int64) + _KEY_LIMIT
        ky = np.clip(ky, -_KEY_LIMIT, _KEY_LIMIT).astype(np.int64) + _KEY_LIMIT
        return (kx << 31) | ky

    def __len__(self) -> int:
        return len(self.xy)

    def nearest(self, x: float, y: float, kx0: int, ky0: int, kx1: int, ky1: int, best_d2: float):
        """``(x, y, d2)`` of the point nearest ``(x, y)`` in the cells ``kx0..kx1 x ky0..ky1`` within ``best_d2``."""
        if kx1 - kx0 + 1 > _MAX_COLUMNS:
            parts = [self.xy]
        else:
            cols = np.arange(kx0, kx1 + 1, dtype=float)
            lo = np.searchsorted(self.keys, self._keys(cols, np.full_like(cols, ky0)), side="left")
            hi = np.searchsorted(self.keys, self._keys(cols, np.full_like(cols, ky1)), side="right")
            parts = [self.xy[a:b] for a, b in zip(lo.tolist(), hi.tolist()) if b > a]
        best = None
        for part in parts:
            d2 = (part[:, 0] - x) ** 2 + (part[:, 1] - y) ** 2
            i = int(np.argmin(d2))
            if d2[i] <= best_d2:
                best_d2 = float(d2[i])
                best = (float(part[i, 0]), float(part[i, 1]), best_d2)
        return best


class _PointHash:
    """Object snap points in a grid hash, updated per object; objects with very many points in sorted arrays."""

    def __init__(self, cell: float = CELL_SIZE):
        self.cell = cell
        self.cells: dict[tuple[int, int], list[tuple[float, float, str]]] = {}
        self.points_of: dict[str, list[tuple[float, float]]] = {}
        self.long: dict[str, _LongPoints] = {}
        # long objects taken out since the last :meth:`forget_retired`: put back as they were if their points are
        self._retired: dict[str, _LongPoints] = {}

    def forget_retired(self) -> None:
        self._retired.clear()

    def key(self, x: float, y: float) -> tuple[int, int]:
        return (math.floor(x / self.cell), math.floor(y / self.cell))

    def clear(self) -> None:
        self.cells.clear()
        self.points_of.clear()
        self._retired.update(self.long)
        self.long.clear()

    def add(self, object_id: str, points: Iterable[tuple[float, float]]) -> None:
        if isinstance(points, (list, tuple)) and len(points) >= LONG_POINTS:
            self.points_of[object_id] = []
            kept = self._retired.pop(object_id, None)
            self.long[object_id] = kept if kept is not None and kept.source is points else _LongPoints(points, self.cell)
            return
        pts = [(x, y) for x, y in points if math.isfinite(x) and math.isfinite(y)]
        self.points_of[object_id] = pts
        for x, y in pts:
            self.cells.setdefault(self.key(x, y), []).append((x, y, object_id))

    def remove(self, object_id: str) -> None:
        gone = self.long.pop(object_id, None)
        if gone is not None:
            self._retired[object_id] = gone
        pts = self.points_of.pop(object_id, None)
        if not pts:
            return
        for k in {self.key(x, y) for x, y in pts}:
            kept = [e for e in self.cells.get(k, ()) if e[2] != object_id]
            if kept:
                self.cells[k] = kept
            else:
                self.cells.pop(k, None)

    def nearest(self, x: float, y: float, radius: float, exclude: set) -> Optional[tuple[float, float, str]]:
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(radius) and radius >= 0.0):
            return None
        r2 = radius * radius
        best = None
        best_d2 = r2
        kx0, ky0 = self.key(x - radius, y - radius)
        kx1, ky1 = self.key(x + radius, y + radius)
        if (kx1 - kx0 + 1) * (ky1 - ky0 + 1) > max(64, len(self.cells)):
            # Zoomed far out: fewer points than cells to visit.
            candidates = (e for entries in self.cells.values() for e in entries)
        else:
            candidates = (
                e
                for kx in range(kx0, kx1 + 1)
                for ky in range(ky0, ky1 + 1)
                for e in self.cells.get((kx, ky), ())
            )
        for e in candidates:
            dx = e[0] - x
            dy = e[1] - y
            d2 = dx * dx + dy * dy
            if d2 <= best_d2 and e[2] not in exclude:
                best, best_d2 = e, d2
        for object_id, points in self.long.items():
            if object_id not in exclude:
                hit = points.nearest(x, y, kx0, ky0, kx1, ky1, best_d2)
                if hit is not None:
                    best, best_d2 = (hit[0], hit[1], object_id), hit[2]
        return best


class Snapper(QObject):
    """Snaps scene positions to nearby object points, else to the level's grid.

    ``enabled`` is grid snapping (``G`` toggles it); ``objects_enabled`` is
    snapping to other objects' nodes and corners; ``pixels_enabled`` rounds to
    whole pixels where the grid does not snap. Holding Ctrl suspends all of them
    for one event. ``enabled_changed``, ``objects_enabled_changed`` and
    ``pixels_enabled_changed`` let the toolbar and menu check boxes follow the state.
    """

    enabled_changed = Signal(bool)
    objects_enabled_changed = Signal(bool)
    pixels_enabled_changed = Signal(bool)

    def __init__(self, document: LevelDocument, scene: QGraphicsScene, parent: QObject | None = None):
        super().__init__(parent)
        self._doc = document
        self._scene = scene
        self._enabled = True
        self._objects_enabled = True
        self._pixels_enabled = False
        self._hash = _PointHash()
        self._stale = True
        # ids whose points in the hash may be out of date ("player" for the spawn)
        self._dirty: set[str] = set()
        self._marker: Optional[SnapMarker] = None
        self.last: SnapResult = SnapResult(QPointF())
        subscribe_while_alive(document, self, self._on_document_changed)
        # Whatever tool snapped, the marker goes when the button comes up or the mouse leaves the canvas.
        scene.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if watched is self._scene and event.type() in (QEvent.GraphicsSceneMouseRelease, QEvent.GraphicsSceneLeave):
            # After the release has reached the tool, which may snap once more on the way.
            QTimer.singleShot(0, self, self.hide_marker)
        return False

    # -- switches ----------------------------------------------------------
    @property
    def enabled(self) -> bool:
        """Grid snapping is on."""
        return self._enabled

    def set_enabled(self, on: bool) -> None:
        if on != self._enabled:
            self._enabled = on
            self.enabled_changed.emit(on)

    def toggle(self) -> None:
        """Grid snapping on/off (the ``G`` key)."""
        self.set_enabled(not self._enabled)

    @property
    def objects_enabled(self) -> bool:
        """Snapping to other objects' nodes, corners and centres is on."""
        return self._objects_enabled

    def set_objects_enabled(self, on: bool) -> None:
        if on != self._objects_enabled:
            self._objects_enabled = on
            if not on:
                self.hide_marker()
            self.objects_enabled_changed.emit(on)

    def toggle_objects(self) -> None:
        self.set_objects_enabled(not self._objects_enabled)

    @property
    def pixels_enabled(self) -> bool:
        """Where the grid does not snap (off, or no grid), positions are rounded to whole pixels."""
        return self._pixels_enabled

    def set_pixels_enabled(self, on: bool) -> None:
        on = bool(on)
        if on != self._pixels_enabled:
            self._pixels_enabled = on
            self.pixels_enabled_changed.emit(on)

    def grid(self) -> Optional[float]:
        """The spacing grid snapping uses (the level's grid kept within the limits), None without a grid."""
        return usable_grid(self._doc.level.grid)

    def grid_active(self, modifiers=Qt.NoModifier) -> bool:
        """Whether an event with ``modifiers`` would snap to the grid."""
        return self._enabled and not (modifiers & Qt.ControlModifier) and self.grid() is not None

    # -- snapping ----------------------------------------------------------
    def snap(self, pos: QPointF, modifiers=Qt.NoModifier, exclude=()) -> QPointF:
        """``pos`` snapped to a nearby object point or the grid (Ctrl suspends snapping).

        ``exclude`` holds ids (``"player"`` for the spawn) whose points are ignored,
        so a dragged object does not snap to itself.
        """
        return self.snap_detail(pos, modifiers, exclude).point

    def snap_detail(self, pos: QPointF, modifiers=Qt.NoModifier, exclude=(), *, objects: bool = True) -> SnapResult:
        """Like :meth:`snap`, and says what it snapped to (also kept in :attr:`last`).

        ``objects=False`` snaps to the grid only (the spawn: a player on a wall's node is stuck).
        """
        result = self._snap(QPointF(pos), modifiers, exclude, objects)
        self.last = result
        if result.kind == "object":
            self._show_marker(result.point)
        else:
            self.hide_marker()
        return result

    def _snap(self, pos: QPointF, modifiers, exclude, objects: bool = True) -> SnapResult:
        pos = clamped_point(pos)
        if modifiers & Qt.ControlModifier:
            return SnapResult(pos)
        if objects and self._objects_enabled:
            hit = self.nearest_point(pos, SNAP_PIXELS * self.scale(), exclude)
            if hit is not None:
                return SnapResult(clamped_point(QPointF(hit[0], hit[1])), "object", hit[2])
        g = self.grid() if self._enabled else None
        if g is not None:
            return SnapResult(QPointF(snap_value(pos.x(), g), snap_value(pos.y(), g)), "grid")
        if self._pixels_enabled:
            return SnapResult(QPointF(snap_value(pos.x(), 1.0), snap_value(pos.y(), 1.0)), "pixel")
        return SnapResult(pos)

    def nearest_point(self, pos: QPointF, radius: float, exclude=()) -> Optional[tuple[float, float, str]]:
        """The object point nearest to ``pos`` within ``radius`` scene units: ``(x, y, id)`` or None."""
        skip = {exclude} if isinstance(exclude, str) else set(exclude)
        self._refresh(skip)
        return self._hash.nearest(pos.x(), pos.y(), radius, skip)

    def scale(self) -> float:
        """Scene units per screen pixel of the first view (1.0 without a view)."""
        views = self._scene.views()
        if not views:
            return 1.0
        m = views[0].transform().m11()
        return 1.0 / m if m > 0 and math.isfinite(m) else 1.0

    # -- the marker --------------------------------------------------------
    @property
    def marker(self) -> SnapMarker:
        """The marker item (created on first use, re-created if the scene was cleared)."""
        if self._marker is None or not shiboken6.isValid(self._marker) or self._marker.scene() is not self._scene:
            self._marker = SnapMarker()
            self._marker.setVisible(False)
            self._scene.addItem(self._marker)
        return self._marker

    def marker_visible(self) -> bool:
        return (self._marker is not None and shiboken6.isValid(self._marker)
                and self._marker.scene() is self._scene and self._marker.isVisible())

    def _show_marker(self, point: QPointF) -> None:
        m = self.marker
        m.setPos(point)
        m.setVisible(True)

    def hide_marker(self) -> None:
        """Hide the marker (tools call this when a gesture ends or they deactivate)."""
        if self._marker is not None and shiboken6.isValid(self._marker):
            self._marker.setVisible(False)

    # -- keeping the point hash current ----------------------------------
    def _refresh(self, ignored: set = frozenset()) -> None:
        """Bring the hash up to date for a lookup that skips the ids in ``ignored``."""
        if self._stale:
            self._rebuild()
            return
        dirty = self._dirty
        if not dirty or dirty <= ignored:
            # whatever changed is skipped by this lookup anyway: where it is now does not matter
            return
        if len(dirty) * 4 > len(self._hash.points_of):
            self._rebuild()
            return
        doc = self._doc
        for oid in dirty:
            self._hash.remove(oid)
            if oid == PLAYER_ID:
                spawn = doc.player.spawn
                self._hash.add(PLAYER_ID, [(spawn.x, spawn.y)])
            else:
                obj = doc.get(oid)
                if obj is not None:
                    self._hash.add(oid, _points_of(obj))
        dirty.clear()
        self._hash.forget_retired()

    def _rebuild(self) -> None:
        self._hash.clear()
        for obj in self._doc.objects:
            self._hash.add(obj.id, _points_of(obj))
        spawn = self._doc.player.spawn
        self._hash.add(PLAYER_ID, [(spawn.x, spawn.y)])
        self._hash.forget_retired()
        self._dirty.clear()
        self._stale = False

    def _on_document_changed(self, change: Change) -> None:
        if self._stale:
            return
        kind = change.kind
        if kind is ChangeKind.RESET:
            self._stale = True
            self._dirty.clear()
        elif kind is ChangeKind.PLAYER:
            self._dirty.add(PLAYER_ID)
        elif kind in (ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.CHANGED):
            self._dirty.update(o.id for o in change.objects)
            self._dirty.update(o.id for o in change.old)


def snap_to_pixels_action(snapper: Snapper, settings: QSettings, parent: QObject) -> QAction:
    """View > Snap to Pixels: a checkable action kept in ``settings`` (as Tiled's View > Snapping > Snap to Pixels).

    With it on and the grid off (or no grid), every position a tool snaps is a
    whole number of pixels; object snapping still lands on exact object points.
    """
    action = QAction("Snap to &Pixels", parent)
    action.setCheckable(True)
    action.setStatusTip("With grid snapping off, place and drag in whole pixels")
    value = settings.value(PIXELS_SETTING, False)
    on = value if isinstance(value, bool) else str(value).lower() in ("true", "1")
    snapper.set_pixels_enabled(on)
    action.setChecked(on)

    def toggled(checked: bool) -> None:
        snapper.set_pixels_enabled(checked)
        settings.setValue(PIXELS_SETTING, bool(checked))

    action.toggled.connect(toggled)
    snapper.pixels_enabled_changed.connect(action.setChecked)
    return action
