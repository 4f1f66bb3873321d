"""Place a sprite of the tile picked in the Tilesets dock (R)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainterPath, QPolygonF

from level_editor.core.level.art import NO_TILE, cell_flags, tile_number
from level_editor.core.level.kinds import objects_label
from level_editor.core.level.model import Sprite
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.preview import ShapePreview
from level_editor.editor.tools.tool import Tool

__all__ = ["SpriteTool", "sprite_turn"]


def sprite_turn(value: int) -> tuple[float, bool, bool]:
    """``(rotation, flip_x, flip_y)`` of a sprite drawn as the painted cell ``value`` draws its tile.

    A cell's diagonal flip is a quarter turn of a picture mirrored top to bottom (a sprite is mirrored, then
    turned), so every cell a brush can make has a sprite that looks the same.

    >>> from level_editor.core.level.art import FLIP_X, turned
    >>> sprite_turn(3), sprite_turn(3 | FLIP_X), sprite_turn(turned(3))
    ((0.0, False, False), (0.0, True, False), (90.0, False, False))
    """
    fx, fy, fd = cell_flags(value)
    if not fd:
        return 0.0, fx, fy
    # cell: mirror x / y after swapping x and y; the swap is a clockwise quarter turn of the picture upside down
    return 90.0, fy, not fx


class SpriteTool(Tool):
    """Click to place the tile picked in the Tilesets dock as a sprite, at the tile's picture size.

    Keep the button down to drag its outline where it should go; it is added on release. The picture is centred
    on the pointer and its top-left corner snaps as other tools snap (Ctrl: no
    snapping), so tiles placed on a grid of their size line up. The pick's flips and turns become the
    sprite's. One click is one undo step; the new sprite is selected.
    """

    name = "Sprite"
    shortcut = "R"
    icon_name = "tool-sprite"
    hint = "Sprite: click to place the tile picked in the Tilesets dock (Ctrl: no snapping)."
    cursor = Qt.CrossCursor

    def __init__(self, editor, parent=None):
        super().__init__(editor, parent)
        self.preview = ShapePreview(editor.scene)
        self._placing: Optional[Sprite] = None  # the sprite the press-drag under way adds on release

    def in_gesture(self) -> bool:
        return self._placing is not None

    def cancel_gesture(self) -> None:
        self._placing = None
        self.preview.hide()

    def current_hint(self) -> str:
        if self._placing is not None:
            return "Sprite: drag to where it goes and release to place it (Ctrl: no snapping); Esc cancels."
        if self._pick() is None:
            return "Sprite: pick a tile in the Tilesets dock first, then click to place it."
        return self.hint

    def activate(self) -> None:
        self.editor.tile_pick_changed.connect(self.update_hint)

    def deactivate(self) -> None:
        self.cancel_gesture()
        self.preview.remove()
        try:
            self.editor.tile_pick_changed.disconnect(self.update_hint)
        except (RuntimeError, TypeError):  # never connected (activate failed): nothing to undo
            pass

    def _pick(self):
        pick = self.editor.tile_pick
        if pick is None or pick.first == NO_TILE:
            return None
        return pick

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._placing is not None:
            return
        sprite = self.sprite_at(pos, modifiers)
        if sprite is None or self.editor.current_layer_locked():
            return
        self._placing = sprite
        self._show(sprite)
        self.update_hint()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self._placing is None or not (buttons & Qt.LeftButton):
            return
        moved = self.sprite_at(pos, modifiers)
        if moved is not None:
            self._placing = moved
            self._show(moved)

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._placing is None:
            return
        sprite = self.sprite_at(pos, modifiers) or self._placing
        self.cancel_gesture()
        self.update_hint()
        self.push(AddObjectsCommand(self.editor.document, [sprite], objects_label("Add", [sprite])))
        if sprite.id in self.editor.document:
            self.editor.selection.set([sprite.id])

    def _show(self, sprite: Sprite) -> None:
        path = QPainterPath()
        path.addPolygon(QPolygonF([QPointF(p.x, p.y) for p in sprite.corners()]))
        path.closeSubpath()
        c = sprite.center
        self.preview.show(path, QPointF(c.x + sprite.size.x / 2, c.y + sprite.size.y / 2),
                          f"{sprite.tileset} tile {sprite.tile}")

    def sprite_at(self, pos: QPointF, modifiers=Qt.NoModifier) -> Optional[Sprite]:
        """The sprite a click at ``pos`` places, or None (the status bar says why)."""
        pick = self._pick()
        if pick is None:
            self.editor.message.emit("No tile picked: pick one in the Tilesets dock, then click to place it.")
            return None
        document = self.editor.document
        tileset = document.level.tileset(pick.tileset)
        tile = tile_number(pick.first)
        if tileset is None:
            self.editor.message.emit(f"The picked tileset {pick.tileset!r} is not in this level: pick a tile again.")
            return None
        if not tileset.has_tile(tile):
            self.editor.message.emit(f"Tileset {tileset.name!r} has no tile {tile}: pick another tile.")
            return None
        size = tileset.tile_picture_size(tile)
        corner = self.editor.snapper.snap_detail(QPointF(pos.x() - size.x / 2, pos.y() - size.y / 2), modifiers,
                                                 objects=False).point
        rotation, flip_x, flip_y = sprite_turn(pick.first)
        return self.editor.on_current_layer(Sprite(
            document.new_id("sprite"), (corner.x() + size.x / 2, corner.y() + size.y / 2), size,
            rotation=rotation, flip_x=flip_x, flip_y=flip_y, tileset=tileset.id, tile=tile))
