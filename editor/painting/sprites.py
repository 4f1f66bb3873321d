"""Painting a sprite: its picture stretched to its size, mirrored, then turned about its centre."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from level_editor.core.level.model import Sprite
from level_editor.editor.painting.pictures import full_path, load_picture, tile_source, tileset_picture

__all__ = ["paint_sprite", "sprite_picture"]


def sprite_picture(sprite: Sprite, base_folder: Optional[str]) -> tuple[Optional[QImage], object, str]:
    """``(picture, source rect or None for all of it, "")``, or ``(None, None, why not)``."""
    if sprite.tileset:
        if sprite.art is None:
            return None, None, f"tileset {sprite.tileset!r} does not exist"
        picture, problem = tileset_picture(sprite.art, sprite.tile, base_folder)
        if picture is None:
            return None, None, problem
        return picture, tile_source(sprite.art, sprite.tile, picture), ""
    picture, problem = load_picture(full_path(sprite.picture, sprite.folder or base_folder))
    return picture, None, problem


def paint_sprite(painter: QPainter, sprite: Sprite, base_folder: Optional[str]) -> bool:
    """Draw ``sprite`` with its centre at the painter's ``(0, 0)`` (its rotation and flips applied here).

    False when its picture cannot be shown (nothing is drawn).
    """
    picture, source, _ = sprite_picture(sprite, base_folder)
    if picture is None:
        return False
    w, h = sprite.size.x, sprite.size.y
    painter.save()
    if sprite.rotation:
        painter.rotate(sprite.rotation)
    if sprite.flip_x or sprite.flip_y:
        painter.scale(-1.0 if sprite.flip_x else 1.0, -1.0 if sprite.flip_y else 1.0)
    if sprite.opacity < 1.0:
        painter.setOpacity(painter.opacity() * max(0.0, sprite.opacity))
    target = QRectF(-w / 2, -h / 2, w, h)
    if source is None:
        painter.drawImage(target, picture)
    else:
        painter.drawImage(target, picture, source)
    painter.restore()
    return True
