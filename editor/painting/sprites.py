"""Painting a sprite: its picture stretched to its size, mirrored, then turned about its centre."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from level_editor.core.level.model import Sprite
from level_editor.editor.painting.pictures import full_path, load_picture, pictures_read, tile_source, tileset_picture

__all__ = ["paint_sprite", "sprite_picture", "sprite_mean_color"]


#: What :func:`sprite_picture` found, by what it looked for: a level of 100,000 sprites has a few pictures, and
#: asking for each sprite's anew was half the time of a frame. Each entry keeps the tileset it was found for (its
#: ``id()`` is in the key). Forgotten with the pictures (:func:`forget_pictures`), as the mean colours are.
_found: dict = {}
_means: dict = {}
_FOUND_AT_MOST = 4096
_generation = [-1]  # the pictures' generation the two were filled in


def sprite_picture(sprite: Sprite, base_folder: Optional[str]) -> tuple[Optional[QImage], object, str]:
    """``(picture, source rect or None for all of it, "")``, or ``(None, None, why not)``."""
    generation = pictures_read()
    if _generation[0] != generation:
        _found.clear()
        _means.clear()
        _generation[0] = generation
    key = (id(sprite.art), sprite.tileset, sprite.tile, sprite.picture, sprite.folder, base_folder)
    found = _found.get(key)
    if found is not None and found[0] is sprite.art:
        return found[1]
    if len(_found) >= _FOUND_AT_MOST:
        _found.clear()
    picture, source, problem = _look_up(sprite, base_folder)
    answer = (picture, None if source is None else QRectF(source), problem)  # QRectF: Qt's own overload, no copy
    _found[key] = (sprite.art, answer)
    return answer


def _look_up(sprite: Sprite, base_folder: Optional[str]) -> tuple[Optional[QImage], object, str]:
    if sprite.tileset:
        if sprite.art is None:
            return None, None, f"tileset {sprite.tileset!r} does not exist"
        picture, problem = tileset_picture(sprite.art, sprite.tile, base_folder)
        if picture is None:
            return None, None, problem
        return picture, tile_source(sprite.art, sprite.tile, picture), ""
    picture, problem = load_picture(full_path(sprite.picture, sprite.folder or base_folder))
    return picture, None, problem


def sprite_mean_color(sprite: Sprite, base_folder: Optional[str]) -> Optional[QColor]:
    """The colour its picture averages to (see-through as much as the picture is, times its opacity), or None when
    it has no picture: what a sprite a few screen pixels across looks like, drawn as one square."""
    picture, source, _ = sprite_picture(sprite, base_folder)
    if picture is None:
        return None
    key = (picture.cacheKey(), None if source is None else source.getRect())
    mean = _means.get(key)
    if mean is None:
        part = picture if source is None else picture.copy(source)
        if len(_means) >= _FOUND_AT_MOST:
            _means.clear()
        mean = _means[key] = part.scaled(1, 1, Qt.IgnoreAspectRatio, Qt.SmoothTransformation).pixelColor(0, 0)
    if sprite.opacity >= 1.0:
        return mean
    faded = QColor(mean)
    faded.setAlphaF(mean.alphaF() * max(0.0, sprite.opacity))
    return faded


def paint_sprite(painter: QPainter, sprite: Sprite, base_folder: Optional[str]) -> bool:
    """Draw ``sprite`` with its centre at the painter's ``(0, 0)`` (its rotation and flips applied here).

    False when its picture cannot be shown (nothing is drawn).
    """
    picture, source, _ = sprite_picture(sprite, base_folder)
    if picture is None:
        return False
    w, h = sprite.size.x, sprite.size.y
    target = QRectF(-w / 2, -h / 2, w, h)
    if not sprite.rotation and not sprite.flip_x and not sprite.flip_y and sprite.opacity >= 1.0:
        # most sprites: nothing to set up or undo (a far-out view of a level draws tens of thousands)
        if source is None:
            painter.drawImage(target, picture)
        else:
            painter.drawImage(target, picture, source)
        return True
    painter.save()
    if sprite.rotation:
        painter.rotate(sprite.rotation)
    if sprite.flip_x or sprite.flip_y:
        painter.scale(-1.0 if sprite.flip_x else 1.0, -1.0 if sprite.flip_y else 1.0)
    if sprite.opacity < 1.0:
        painter.setOpacity(painter.opacity() * max(0.0, sprite.opacity))
    if source is None:
        painter.drawImage(target, picture)
    else:
        painter.drawImage(target, picture, source)
    painter.restore()
    return True
