"""MoveObjectsCommand: many objects (and the spawn) moved by one offset, in one undo step.

A drag of many objects changes the level once, on release (the select tool
shows the drag on the canvas until then); the arrow keys nudge with it too.
Undo and redo put back the very objects they took out: nothing is built again.
"""
from __future__ import annotations

import gc
from dataclasses import fields
from typing import Callable, Optional, Sequence

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import TRUSTED_MAKERS, Box, LevelObject, OrientedBox, Pillar, Player, Point, Wall
from level_editor.core.level.collector import paused_collector
from level_editor.editor.work.bulk import moving_by, settle
from level_editor.editor.commands.objects import ChangeObjectsCommand

#: The field that holds where an object is, for the kinds the model builds fast from checked values.
_PLACE = {Wall: "points", Box: "origin", OrientedBox: "center", Pillar: "center", Point: "position"}

#: A move that makes at least this many new objects (objects and their nodes) sets them aside from the cycle
#: collector (level_editor.editor.work.bulk.settle): its next pass would walk them all, ~80 ms for 100,000 objects and ~25 ms for
#: a 300,000-node wall, and they hold no cycles (they go with their undo step, by reference counting).
SETTLE_AT = 50_000

_movers: dict = {}

_vec = tuple.__new__


def _mover(cls) -> Callable[[LevelObject, float, float], LevelObject]:
    """A function giving an object of ``cls`` moved by ``(dx, dy)``: equal to ``obj.moved(dx, dy)``.

    An object already in the level is checked, and so is its move: it is built with
    the model's maker for checked values (:data:`level_editor.core.level.model.TRUSTED_MAKERS`),
    a third of the cost of ``dataclasses.replace``, which counts at 100,000 objects.
    """
    mover = _movers.get(cls)
    if mover is None:
        make, place = TRUSTED_MAKERS.get(cls), _PLACE.get(cls)
        if make is None or place is None:
            mover = cls.moved
        else:
            # unrolled, as the model's maker is: no tuple of values, list or argument unpacking per object
            moved = ("tuple([vec(Vec2, (x + dx, y + dy)) for x, y in p])" if place == "points"
                     else "vec(Vec2, (p[0] + dx, p[1] + dy))")
            args = ", ".join(moved if f.name == place else f"o.{f.name}" for f in fields(cls))
            # a Vec2 made as the tuple it is, without its Python-level __new__: a wall has many nodes
            scope = {"make": make, "vec": _vec, "Vec2": Vec2}
            exec(f"def mover(o, dx, dy):\n    p = o.{place}\n    return make({args})", scope)
            mover = scope["mover"]
        _movers[cls] = mover
    return mover


def moved_objects(objects: Sequence[LevelObject], dx: float, dy: float) -> list[LevelObject]:
    """``[o.moved(dx, dy) for o in objects]``, built faster (see :func:`_mover`).

    >>> moved_objects([Box("b", (1, 2), (3, 4))], 10, 20) == [Box("b", (11, 22), (3, 4))]
    True
    """
    movers = _movers
    with paused_collector():
        moved = [(movers.get(type(o)) or _mover(type(o)))(o, dx, dy) for o in objects]
        # what the collector's youngest generation has gained meanwhile: the new objects and nodes
        if gc.get_count()[0] >= SETTLE_AT:
            settle()
    return moved


class MoveObjectsCommand(ChangeObjectsCommand):
    """Move ``objects`` (as they are in ``document`` now) and ``player`` (when given) by ``(dx, dy)``.

    An offset of zero changes nothing: the command is then obsolete and the
    editor drops it instead of pushing it.
    """

    def __init__(self, document: LevelDocument, objects: Sequence[LevelObject], dx: float, dy: float, text: str,
                 player: Optional[Player] = None):
        self.offset = (dx, dy)
        moved = moved_objects(objects, dx, dy)
        players = (player, player.moved(dx, dy)) if player is not None else None
        super().__init__(document, objects, moved, text, player=players)

    def _changes_nothing(self) -> bool:
        # comparing 100,000 objects with their moved copies would cost what moving them did
        return self.offset == (0.0, 0.0) or (not self._old and self._player is None)

    # the document's listeners are told that the change is a pure move: they skip looking for anything else
    def redo(self):
        dx, dy = self.offset
        with paused_collector(), moving_by(self._new, dx, dy):
            super().redo()

    def undo(self):
        dx, dy = self.offset
        with paused_collector(), moving_by(self._old, -dx, -dy):
            super().undo()
