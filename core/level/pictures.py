"""How a level's reference pictures follow it when it moves to another folder (no Qt).

A picture's ``path`` is relative to the level file's folder. A level written somewhere else (Save As, Save a
Copy, ``level-editor export``, a Tiled map beside it, a recovery copy) must name the same pictures from there:
this is the one place that decides how. An absolute path stays as it is; a level with no folder yet (never
saved) names its pictures by absolute paths.

>>> from level_editor.core.level.model import Image, Level
>>> level = Level(objects=(Image("backdrop", "art/courtyard.png", (0, 0)),))
>>> pictures_moved(level, "/game/levels", "/game/other").objects[0].path
'../levels/art/courtyard.png'
>>> pictures_moved(level, "/game/levels", None).objects[0].path
'/game/levels/art/courtyard.png'
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Optional

from level_editor.core.level.model import Image, Level

__all__ = ["relocate_path", "picture_moved", "pictures_moved"]


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


def picture_moved(image: Image, from_dir: Optional[str], to_dir: Optional[str]) -> Image:
    """``image`` naming its picture from ``to_dir`` (absolute when ``to_dir`` is None), its ``folder`` set to it.

    The image's own ``folder``, when it has one, is where its path is relative to; otherwise ``from_dir``.
    Without either the path cannot be placed and stays as it is. The image itself when it is named from
    ``to_dir`` already.

    >>> picture_moved(Image("i", "a.png", (0, 0), folder="/x"), "/ignored", "/y").path
    '../x/a.png'
    """
    source = image.folder or (os.path.abspath(from_dir) if from_dir else None)
    if source == (os.path.abspath(to_dir) if to_dir else None):
        return image
    if not source or not image.path or os.path.isabs(image.path):
        path = image.path
    elif to_dir is None:
        path = os.path.normpath(os.path.join(os.path.abspath(source), image.path)).replace(os.sep, "/")
    else:
        path = relocate_path(image.path, source, to_dir)
    folder = os.path.abspath(to_dir) if to_dir else None
    if path == image.path and folder == image.folder:
        return image
    return replace(image, path=path, folder=folder)


def pictures_moved(level: Level, from_dir: Optional[str], to_dir: Optional[str]) -> Level:
    """``level`` as a file in ``to_dir`` holds it: its pictures' paths, relative to ``from_dir`` (or to each
    image's own ``folder``), made relative to ``to_dir`` (absolute when ``to_dir`` is None: a level without a
    file). The level itself when no picture changes."""
    if not any(type(o) is Image for o in level.objects):
        return level
    objects = [picture_moved(o, from_dir, to_dir) if type(o) is Image else o for o in level.objects]
    if all(a is b for a, b in zip(objects, level.objects)):
        return level
    return level.with_objects(objects)
