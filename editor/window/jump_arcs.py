"""View > Jump Arcs (J): a platformer's jumps from the floor under the mouse, or from the selected marker.

What no peer has: a designer sees at a glance whether a gap can be jumped. The arcs are the play-test's own
jumps (:func:`level_editor.core.playtest.jump_arcs.jump_arcs`) and follow the level as it is edited and the
mouse as it moves.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QObject, QPointF, QTimer
from PySide6.QtGui import QAction, QKeySequence

from level_editor.core.level.model import Point
from level_editor.core.playtest.jump_arcs import jump_arcs
from level_editor.core.playtest.platformer import Platformer
from level_editor.editor.items.jump_arcs_item import JumpArcsItem
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.support.guard import guarded
from level_editor.editor.support.subscriptions import subscribe_while_alive

__all__ = ["JumpArcs"]

#: The arcs are worked out this long (ms) after the mouse or the level last changed: once per burst of moves.
SETTLE_MS = 15


class JumpArcs(QObject):
    """The Jump Arcs toggle, its item on the canvas and what it draws from.

    ``context`` is the window's editing context (document, selection); ``show_status`` says why nothing is drawn.
    """

    def __init__(self, canvas, scene, context, show_status, parent: Optional[QObject] = None):
        super().__init__(parent)
        self.canvas = canvas
        self.context = context
        self.show_status = show_status
        self.item = mark_editor_only(JumpArcsItem())  # hidden while playing
        self.item.setVisible(False)
        scene.addItem(self.item)
        self.action = QAction("Jump &Arcs", self)
        self.action.setShortcut(QKeySequence("J"))
        self.action.setCheckable(True)
        self.action.setStatusTip("Draw a platformer's standing and running jumps from the floor under the mouse "
                                 "(or from the selected marker)")
        self.action.toggled.connect(self._toggled)
        self.spot: Optional[QPointF] = None
        self._world = None
        self._world_of = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self.update_arcs)
        canvas.cursor_moved.connect(self._cursor_moved)
        context.selection.changed.connect(self._later)
        subscribe_while_alive(context.document, self, lambda _change: self._later())

    @property
    def shown(self) -> bool:
        return self.action.isChecked()

    def _toggled(self, on: bool) -> None:
        self.item.setVisible(on)
        if on:
            self.update_arcs()
        else:
            self.item.set_arcs([], (0, 0), True)

    def _cursor_moved(self, pos: QPointF) -> None:
        self.spot = QPointF(pos)
        self._later()

    def _later(self, *_args) -> None:
        if self.shown:
            self._timer.start()

    def _from(self):
        """Where the arcs start from: the one selected marker, else the mouse (None: neither)."""
        objects = self.context.selection.objects()
        if len(objects) == 1 and isinstance(objects[0], Point):
            p = objects[0].position
            return (p.x, p.y)
        return None if self.spot is None else (self.spot.x(), self.spot.y())

    @guarded("drawing the jump arcs")
    def update_arcs(self) -> None:
        """Work the arcs out again for the level as it is now."""
        if not self.shown:
            return
        level = self.context.document.level
        player = level.player
        if player.controller != "platformer":
            self.item.set_arcs([], (0, 0), True)
            self.show_status("Jump arcs need a platformer player: select the player and set Controller to "
                             "Platformer in Properties")
            return
        spot = self._from()
        if spot is None:
            self.item.set_arcs([], (0, 0), True)
            return
        if self._world_of is not level:
            self._world = Platformer.prepare(level)
            self._world_of = level
        arcs = jump_arcs(level, spot, prepared=self._world)
        half = player.half_size
        self.item.set_arcs(arcs, (half.x, half.y), player.shape == "circle")
