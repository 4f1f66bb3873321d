"""ProblemBadges: a sign on every object that has an error or a warning, kept on the canvas.

The background check's results arrive in the Problems dock, which hands them
here: each object (or the player) with at least one error or warning gets a
:class:`~level_editor.editor.items.problem_badge_item.ProblemBadgeItem`, red when any of its
problems is an error, amber otherwise, its tooltip listing them. The sign sits
at the spot its worst problem is about (the middle of a narrow passage, where
two walls cross), or at the object's top-right corner when that problem is
about the whole object (no spot, or the spot is the object's middle, which the
sign would hide) or is the player's (its spot is the spawn). Only objects
with problems have a badge, so a level of 100,000 objects with three problems
costs three items; a level where nearly everything is wrong shows the first
:data:`MAX_BADGES` (errors first) and the dock lists the rest.

Between checks the badges follow their objects (a move, a rename, a hidden
layer, a deletion) at the cost of the objects that changed; the next results
replace them. While the level is played they are hidden (:meth:`set_suspended`).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, Optional

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QGraphicsScene

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.core.level.model import Point
from level_editor.core.level.problems import ERROR, LEVEL_ID, PLAYER_ID, WARNING, Problem
from level_editor.editor.support.guard import guarded
from level_editor.editor.items.problem_badge_item import ProblemBadgeItem
from level_editor.editor.support.subscriptions import subscribe_while_alive

#: The most badges on the canvas at once (the Problems dock lists every problem).
MAX_BADGES = 2000

#: The most problems one badge's tooltip lists.
MAX_TOOLTIP_LINES = 8

_NAMES = {ERROR: "Error", WARNING: "Warning"}


class ProblemBadges(QObject):
    """The badges of one scene, keyed by object id (``"player"`` for the player)."""

    def __init__(self, document: LevelDocument, scene: QGraphicsScene, parent: Optional[QObject] = None,
                 zoom: Callable[[], float] = lambda: 1.0):
        super().__init__(parent)
        self._doc = document
        self._scene = scene
        #: The view's zoom, which the badges' scale undoes (they keep their size on screen).
        self._zoom = zoom
        self._badges: dict[str, ProblemBadgeItem] = {}
        #: Where each badge sits from its object's top-left corner (its bounds' minimum), None for the corner.
        self._spots: dict[str, Optional[tuple[float, float]]] = {}
        self._suspended = False
        subscribe_while_alive(document, self, self._on_document_changed)

    # -- reading -----------------------------------------------------------------------------------------
    def badge(self, object_id: str) -> Optional[ProblemBadgeItem]:
        """The badge on ``object_id``, if it has one."""
        return self._badges.get(object_id)

    def ids(self) -> list[str]:
        return list(self._badges)

    def __len__(self) -> int:
        return len(self._badges)

    # -- results in ------------------------------------------------------------------------------------------
    def show_problems(self, problems: Sequence[Problem] | None) -> None:
        """Badges for exactly the objects with an error or a warning among ``problems`` (None: none)."""
        found: dict[str, list[Problem]] = {}
        for p in problems or ():
            if p.severity in _NAMES and p.object_id != LEVEL_ID:
                found.setdefault(p.object_id, []).append(p)
        wanted = sorted(found, key=lambda oid: not any(p.severity == ERROR for p in found[oid]))[:MAX_BADGES]
        keep = set(wanted)
        for oid in [oid for oid in self._badges if oid not in keep]:
            self._drop(oid)
        for oid in wanted:
            own = found[oid]
            severity = ERROR if any(p.severity == ERROR for p in own) else WARNING
            lines = [f"{_NAMES[p.severity]}: {p.message}" for p in sorted(own, key=lambda p: p.severity != ERROR)]
            if len(lines) > MAX_TOOLTIP_LINES:
                lines = lines[:MAX_TOOLTIP_LINES - 1] + [f"… and {len(lines) - MAX_TOOLTIP_LINES + 1} more"]
            badge = self._badges.get(oid)
            if badge is None:
                badge = self._badges[oid] = ProblemBadgeItem(oid)
                badge.set_zoom(self._zoom())
                self._scene.addItem(badge)
            badge.show_problems(severity, lines)
            self._spots[oid] = self._spot_of(oid, sorted(own, key=lambda p: p.severity != ERROR))
            self._place(badge)

    def clear(self) -> None:
        for oid in list(self._badges):
            self._drop(oid)

    def rescale(self, *_) -> None:
        """The view zoomed: every badge takes the scale that keeps it the same size on screen."""
        zoom = self._zoom()
        for badge in self._badges.values():
            badge.set_zoom(zoom)

    def set_suspended(self, suspended: bool) -> None:
        """Hide every badge (a play-test runs) or show them again."""
        if suspended != self._suspended:
            self._suspended = suspended
            for badge in self._badges.values():
                self._place(badge)

    # -- following the objects -----------------------------------------------------------------------------
    def _spot_of(self, object_id: str, problems: list[Problem]) -> Optional[tuple[float, float]]:
        """The first of ``problems`` that has a spot of its own, from the object's top-left corner; None: none."""
        obj = self._doc.get(object_id) if object_id != PLAYER_ID else None
        if obj is None:
            return None
        x0, y0, x1, y1 = obj.bounds()
        for p in problems:
            spot = p.location
            if spot is not None and (spot.x, spot.y) != ((x0 + x1) / 2, (y0 + y1) / 2):
                return (spot.x - x0, spot.y - y0)
        return None

    def _drop(self, object_id: str) -> None:
        self._spots.pop(object_id, None)
        badge = self._badges.pop(object_id)
        if badge.scene() is not None:
            badge.scene().removeItem(badge)

    def _place(self, badge: ProblemBadgeItem) -> None:
        """Put ``badge`` at its problem's spot or its object's top-right corner, shown when the object is.

        A spot is kept as an offset from the object's top-left corner, so the
        sign moves with its object until the next check says where it is.
        """
        spot = None
        if badge.object_id == PLAYER_ID:
            bounds, visible = self._doc.player.bounds(), True
        else:
            obj = self._doc.get(badge.object_id)
            if obj is None:
                badge.setVisible(False)
                return
            layer = self._doc.level.layer(obj.layer)
            bounds, visible = obj.bounds(), layer is None or layer.visible
            spot = self._spots.get(badge.object_id)
            badge.set_offset(ProblemBadgeItem.OVER_PIN if isinstance(obj, Point)
                             else ProblemBadgeItem.CORNER if spot is None else ProblemBadgeItem.AT_SPOT)
        if spot is None:
            badge.setPos(bounds[2], bounds[1])
        else:
            badge.setPos(bounds[0] + spot[0], bounds[1] + spot[1])
        badge.setVisible(visible and not self._suspended)

    @guarded("moving the problem signs")
    def _on_document_changed(self, change: Change) -> None:
        if not self._badges:
            return
        kind = change.kind
        if kind is ChangeKind.RESET:
            self.clear()
        elif kind is ChangeKind.REMOVED:
            for obj in change.objects:
                if obj.id in self._badges:
                    self._drop(obj.id)
        elif kind is ChangeKind.CHANGED:
            for old, new in zip(change.old, change.objects):
                badge = self._badges.get(old.id)
                if badge is None:
                    continue
                if new.id != old.id:
                    del self._badges[old.id]
                    spot = self._spots.pop(old.id, None)
                    if new.id in self._badges:
                        self._drop(new.id)
                    badge.object_id = new.id
                    self._badges[new.id] = badge
                    self._spots[new.id] = spot
                self._place(badge)
        elif kind is ChangeKind.PLAYER:
            badge = self._badges.get(PLAYER_ID)
            if badge is not None:
                self._place(badge)
        elif kind is ChangeKind.LAYERS:
            for badge in self._badges.values():
                self._place(badge)
