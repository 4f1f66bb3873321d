"""Pictures read from disk once and shared: reference images, tilesets' pictures and sprites' picture files.

A level names its pictures by paths relative to its file; :func:`full_path` places them. A picture that
cannot be shown says why ("missing", "not a file", "too large", "unreadable"); reading never raises, never
waits on a named pipe and never unpacks a picture whose header claims more pixels than Qt decodes.
"""
from __future__ import annotations

import os
import stat
from typing import Optional

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QImageReader

from level_editor.core.level.art import Tileset

__all__ = ["full_path", "load_picture", "forget_pictures", "tileset_picture", "tile_source", "pictures_read"]

#: Pictures by (full path, transparent colour), shared by every item showing the same file.
_pictures: dict[tuple[str, str], tuple[Optional[QImage], str]] = {}


def full_path(path: str, base_folder: Optional[str]) -> Optional[str]:
    """A picture's full path: ``path`` is relative to the level file's folder (None when there is none yet).

    >>> full_path("art/a.png", "/levels").replace(os.sep, "/")
    '/levels/art/a.png'
    >>> full_path("art/a.png", None) is None
    True
    """
    if not path:
        return None
    if os.path.isabs(path):
        return os.path.normpath(path)
    if base_folder is None:
        return None
    return os.path.normpath(os.path.join(base_folder, *path.split("/")))


def load_picture(path: Optional[str], transparent: str = "") -> tuple[Optional[QImage], str]:
    """The picture at ``path`` and ``""``, or None and why not; ``transparent`` (``#rrggbb``) is made clear."""
    if path is None:
        return None, "missing"
    key = (path, transparent)
    found = _pictures.get(key)
    if found is None:
        found = _read_picture(path, transparent)
        _pictures[key] = found
    return found


def _read_picture(path: str, transparent: str) -> tuple[Optional[QImage], str]:
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return None, "missing"
    if not stat.S_ISREG(info.st_mode):  # a folder, a named pipe (opening it would wait for a writer), a device
        return None, "not a file"
    reader = QImageReader(path)
    size = reader.size()
    limit = QImageReader.allocationLimit() * 2**20
    if size.isValid() and limit and size.width() * size.height() * 4 > limit:
        return None, "too large"
    picture = reader.read()
    if picture.isNull():
        return None, "unreadable"
    if transparent:
        # as Tiled does: every pixel of exactly that colour becomes clear
        mask = picture.createMaskFromColor(QColor(transparent).rgb(), Qt.MaskOutColor)
        picture = picture.convertToFormat(QImage.Format_ARGB32)
        picture.setAlphaChannel(mask)
    return picture.convertToFormat(QImage.Format_ARGB32_Premultiplied), ""


_generation = [0]


def pictures_read() -> int:
    """How many times the pictures were forgotten: what was drawn from them before a change of it is stale."""
    return _generation[0]


def forget_pictures() -> None:
    """Read pictures from disk again the next time they are shown (a level was opened or saved elsewhere)."""
    _pictures.clear()
    _generation[0] += 1


def tileset_picture(tileset: Tileset, tile: int, base_folder: Optional[str]) -> tuple[Optional[QImage], str]:
    """The picture tile ``tile`` of ``tileset`` is cut from (its own, in a collection), or None and why not."""
    folder = tileset.folder or base_folder
    return load_picture(full_path(tileset.picture_of(tile), folder), tileset.transparent)


def tile_source(tileset: Tileset, tile: int, picture: QImage) -> QRect:
    """Where tile ``tile`` is in ``picture`` (the whole picture for a collection's tile)."""
    if tileset.is_collection:
        return picture.rect()
    x, y, w, h = tileset.source_rect(tile)
    return QRect(x, y, w, h)
