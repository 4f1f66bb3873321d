"""DragPreview: a drag of many objects shown on the canvas before it is done, the document left as it is.

The select tool shows the drag on each mouse move and changes the document once, on release
(:class:`~level_editor.editor.commands.move.MoveObjectsCommand`). A mouse move then costs no new objects and
no document change; and when every object moves while the overview picture stands in for the items, it moves
the picture and touches no item at all.
"""
from __future__ import annotations

from typing import Optional

from level_editor.editor.canvas.boxes import rect_of, shifted, union
from level_editor.editor.items.object_item import show_offset
from level_editor.editor.items.player_item import PlayerItem


class DragPreview:
    """The drag shown on ``scene`` (a :class:`~level_editor.editor.canvas.scene.LevelScene`), if any."""

    def __init__(self, scene):
        self._scene = scene
        self._items: list = []  # the items shown moved, the spawn's too
        self._offset = (0.0, 0.0)  # the drag's offset
        self._shown = (0.0, 0.0)  # the offset the items show
        self._everything = False  # every object is dragged
        self._player = False  # the spawn is dragged
        self._placed = False  # items were shown moved (not only the picture)
        self._box: Optional[tuple] = None  # around the dragged items, where they are (worked out when needed)

    @property
    def active(self) -> bool:
        return bool(self._items)

    def show(self, ids, dx: float, dy: float) -> None:
        """Show the objects ``ids`` (``"player"`` too) moved by ``(dx, dy)``."""
        scene = self._scene
        if not self._items:
            items = [it for it in map(scene.item, ids) if it is not None and it is not scene.player_item]
            self._player = PlayerItem.PLAYER_ID in ids
            self._everything = len(items) == len(scene)
            if self._player:
                items.append(scene.player_item)
            if not items:
                return
            self._items = items
            self._box = None
            self._shown = (0.0, 0.0)
        self._offset = (dx, dy)
        self.place()

    def place(self) -> None:
        """Show the drag as the scene draws now (the items, or the overview picture standing in for them)."""
        scene, overview = self._scene, self._scene.overview
        dx, dy = self._offset
        if scene.overview_active and self._everything:
            overview.set_offset(dx, dy)
            if self._player:
                # the spawn is an item drawn over the picture
                show_offset([scene.player_item], dx, dy)
            scene.update()
            return
        overview.set_offset(0.0, 0.0)
        if scene.overview_active:
            if self._box is None:
                self._box = union(it.scene_box() for it in self._items)
            # the picture shows the items where they are: the area they leave and the one they reach change
            for sx, sy in (self._shown, (dx, dy)):
                scene.repaint_area(rect_of(shifted(self._box, sx, sy)))
        show_offset(self._items, dx, dy)
        self._shown = (dx, dy)
        self._placed = True
        overview.exact_positions = True
        # items coming into view may not have drawn yet: they ask for no repaint of their own
        scene.update()

    def end(self, restore: bool = True) -> None:
        """End the show; ``restore``: put the items back where their objects are.

        After the drag's own change of the document (``restore`` false) the items already show the objects
        where they went.
        """
        if not self._items:
            return
        scene, overview = self._scene, self._scene.overview
        items, self._items = self._items, []
        if overview.offset != (0.0, 0.0):
            overview.set_offset(0.0, 0.0)
            scene.update()
        if restore and self._everything and self._player and not self._placed:
            show_offset([scene.player_item], 0.0, 0.0)
        if restore and self._placed and self._shown != (0.0, 0.0):
            if scene.overview_active and self._box is not None:
                scene.repaint_area(rect_of(self._box))
                scene.repaint_area(rect_of(shifted(self._box, *self._shown)))
            show_offset(items, 0.0, 0.0)
            scene.update()
        self._placed = overview.exact_positions = False
        self._offset = self._shown = (0.0, 0.0)
        self._box = None
