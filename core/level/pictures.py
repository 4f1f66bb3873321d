"""How a level's pictures follow it when it moves to another folder (no Qt).

A picture's path (an image's ``path``, a sprite's ``picture``, a tileset's ``image`` and a collection tile's
``image``) is relative to the level file's folder. A level written somewhere else (Save As, Save a
Copy, ``level-editor export``, a Tiled map beside it, a recovery copy) must name the same pictures from there:
this is the one place that decides how. An absolute path stays as it is; a level with no folder yet (never
saved) names its pictures by absolute paths.

>>> from level_editor.core.level.model import Image, Level
>>> level = Level(objects=(Image("backdrop", "art/courtyard.png", (0, 0)),))
>>> pictures_moved(level, "/game/levels", "/game/other").objects[0].path
'../levels/art/courtyard.png'
>>> pictures_moved(level, "/game/levels", None).objects[0].path
'/game/levels/art/courtyard.png'
>>> from level_editor.core.level.art import Tileset
>>> with_art = Level(tilesets=(Tileset("ground", "Ground", (16, 16), image="art/ground.png", count=1),))
>>> pictures_moved(with_art, "/game/levels", "/game").tilesets[0].image
'levels/art/ground.png'
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Optional

from level_editor.core.level.art import Tileset
from level_editor.core.level.model import Image, Level, Sprite

__all__ = ["relocate_path", "picture_moved", "pictures_moved", "moves_with_level", "tileset_moved"]


def relocate_path(path: str, from_dir: Optional[str], to_dir: Optional[str]) -> str:
    """A picture's path relative to ``from_dir``, made relative to ``to_dir`` (forward slashes).

    Unchanged when either folder is not given, they are the same, or the path is absolute.

    >>> relocate_path("art/a.png", "/game/levels", "/game/maps")
    '../levels/art/a.png'
    """
    if not from_dir or not to_dir or os.path.isabs(path):
        return path
    from_dir, to_dir = os.path.abspath(from_dir), os.path.abspath(to_dir)
    if from_dir == to_dir:
        return path
    target = os.path.normpath(os.path.join(from_dir, path))
    try:
        moved = os.path.relpath(target, to_dir)
    except ValueError:  # another drive (Windows): no relative path exists
        moved = target
    return moved.replace(os.sep, "/")


def _moved_path(path: str, source: Optional[str], to_dir: Optional[str]) -> str:
    if not source or not path or os.path.isabs(path):
        return path
    if to_dir is None:
        return os.path.normpath(os.path.join(os.path.abspath(source), path)).replace(os.sep, "/")
    return relocate_path(path, source, to_dir)


def moves_with_level(obj) -> bool:
    """Whether ``obj`` names a picture file of its own (an image; a sprite not of a tileset's tile)."""
    return type(obj) is Image or (type(obj) is Sprite and not obj.tileset and bool(obj.picture))


def tileset_moved(tileset: Tileset, from_dir: Optional[str], to_dir: Optional[str]) -> Tileset:
    """``tileset`` naming its picture (a collection: each tile's) from ``to_dir``, as :func:`picture_moved`.

    >>> tileset_moved(Tileset("t", "T", (8, 8), image="a.png", count=1), "/x", "/y").image
    '../x/a.png'
    """
    source = tileset.folder or (os.path.abspath(from_dir) if from_dir else None)
    folder = os.path.abspath(to_dir) if to_dir else None
    if source == folder:
        return tileset
    image = _moved_path(tileset.image, source, to_dir)
    tiles = {tile: (replace(info, image=_moved_path(info.image, source, to_dir)) if info.image else info)
             for tile, info in tileset.tiles.items()}
    if image == tileset.image and folder == tileset.folder and all(
            tiles[t].image == info.image for t, info in tileset.tiles.items()):
        return tileset
    return replace(tileset, image=image, tiles=tiles, folder=folder)


def picture_moved(image, from_dir: Optional[str], to_dir: Optional[str]):
    """``image`` (an image, or a sprite of a picture file) naming its picture from ``to_dir`` (absolute when
    ``to_dir`` is None), its ``folder`` set to it.

    The image's own ``folder``, when it has one, is where its path is relative to; otherwise ``from_dir``.
    Without either the path cannot be placed and stays as it is. The image itself when it is named from
    ``to_dir`` already.

    >>> picture_moved(Image("i", "a.png", (0, 0), folder="/x"), "/ignored", "/y").path
    '../x/a.png'
    """
    source = image.folder or (os.path.abspath(from_dir) if from_dir else None)
    if source == (os.path.abspath(to_dir) if to_dir else None):
        return image
    field_ = "picture" if type(image) is Sprite else "path"
    old_path = getattr(image, field_)
    path = _moved_path(old_path, source, to_dir)
    folder = os.path.abspath(to_dir) if to_dir else None
    if path == old_path and folder == image.folder:
        return image
    return replace(image, **{field_: path, "folder": folder})


def pictures_moved(level: Level, from_dir: Optional[str], to_dir: Optional[str]) -> Level:
    """``level`` as a file in ``to_dir`` holds it: its pictures' paths (images', sprites', tilesets'), relative to ``from_dir`` (or to each
    image's own ``folder``), made relative to ``to_dir`` (absolute when ``to_dir`` is None: a level without a
    file). The level itself when no picture changes."""
    tilesets = tuple(tileset_moved(t, from_dir, to_dir) for t in level.tilesets)
    if all(a is b for a, b in zip(tilesets, level.tilesets)):
        tilesets = level.tilesets
    kinds = set(map(type, level.objects))
    if Image in kinds or Sprite in kinds:
        objects = [picture_moved(o, from_dir, to_dir) if moves_with_level(o) else o for o in level.objects]
        if all(a is b for a, b in zip(objects, level.objects)):
            objects = level.objects
    else:
        objects = level.objects
    if objects is level.objects and tilesets is level.tilesets:
        return level
    return replace(level, objects=tuple(objects), tilesets=tilesets)
