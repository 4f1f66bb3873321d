"""Flip and quarter-turn undo commands: the selection about its centre, in one step.

The geometry is :mod:`level_editor.core.level.transform`'s (pure, exact); this module turns
it into one undo step with a label in the designer's words ("Flip 2 boxes
horizontally", "Rotate wall clockwise"), and refuses, naming the object, a turn
that would carry an object past the level's limits.
"""
from __future__ import annotations

from typing import Optional, Sequence

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.kinds import objects_label
from level_editor.core.level.limits import MAX_COORDINATE
from level_editor.core.level.transform import Symmetry, selection_pivot, transform_object, transform_player, transformable
from level_editor.editor.commands.objects import ChangeObjectsCommand


class TransformCommand(ChangeObjectsCommand):
    """Flip or turn the objects ``ids`` (and the player's spawn when ``with_spawn``) about their common centre.

    Reference images in ``ids`` are left out (:func:`~level_editor.core.level.transform.transformable`).

    Raises
    ------
    ValueError
        When there is nothing to flip or turn, or when an object would end up past the
        level's limits (the message names it).
    """

    def __init__(self, document: LevelDocument, ids: Sequence[str], symmetry: Symmetry, with_spawn: bool = False):
        old = [o for o in (document.get(i) for i in ids) if o is not None and transformable(o)]
        player = document.player if with_spawn else None
        pivot = selection_pivot(old, player)
        new = [transform_object(o, symmetry, pivot) for o in old]
        for obj in new:
            _check_limits(obj.id, _coordinates(obj))
        players: Optional[tuple] = None
        if player is not None:
            moved = transform_player(player, symmetry, pivot)
            _check_limits("the player's spawn", moved.spawn)
            players = (player, moved)
        what = objects_label(symmetry.verb, old).split(" ", 1)[1] if old else "the spawn"
        if old and player is not None:
            what += " and the spawn"
        super().__init__(document, old, new, f"{symmetry.verb} {what} {symmetry.ending}", player=players)
        self.pivot = pivot


def _coordinates(obj) -> list[float]:
    """The numbers of ``obj`` that the level's coordinate limit applies to (nodes, corners, centres)."""
    if obj.kind == "wall":
        return [c for p in obj.points for c in p]
    if obj.kind in ("box", "tiles"):
        return list(obj.bounds())
    return list(getattr(obj, "center", None) or getattr(obj, "position", None) or getattr(obj, "origin"))


def _check_limits(name: str, coordinates) -> None:
    if any(abs(v) > MAX_COORDINATE for v in coordinates):
        raise ValueError(f"{name} would end up past the level's limit of {MAX_COORDINATE:,.0f} px from the origin")
