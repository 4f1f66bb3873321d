"""``level-editor render``: a level drawn into a picture as Tiled's ``tmxrasterizer`` draws a map.

The picture covers the level's bounds (:func:`~level_editor.editor.painting.level_painter.level_rect`) at
``scale``, its size rounded as ``tmxrasterizer`` rounds it, transparent where nothing is drawn; pictures are
drawn with smooth scaling and shapes without antialiasing, ``tmxrasterizer``'s defaults. It needs Qt but never
a window: :func:`run_render` starts an application on the offscreen platform when there is none.
"""
from __future__ import annotations

import os
import sys
from typing import Optional

from PySide6.QtGui import QImage, QPainter

from level_editor.core.level.atomic import write_bytes_atomic
from level_editor.core.level.model import Level
from level_editor.editor.painting.level_painter import level_rect, missing_pictures, paint_level, picture_size
from level_editor.editor.painting.png_file import png_from_rgba

__all__ = ["RenderError", "render_level", "png_bytes", "render_png", "write_render", "run_render"]


class RenderError(ValueError):
    """A level that cannot be drawn as asked (a picture larger than Qt can hold); the message says why."""


def render_level(level: Level, base_folder: Optional[str], scale: float = 1.0) -> QImage:
    """``level`` drawn at ``scale`` (pixels per level unit) into a new picture.

    >>> from level_editor.core.level.model import Box
    >>> render_level(Level(objects=(Box("b", (10, 20), (30, 40)),)), None, 2.0).size().toTuple()
    (60, 80)
    """
    rect = level_rect(level, base_folder)
    if rect.isNull() or rect.width() <= 0 or rect.height() <= 0:
        raise RenderError("the level draws nothing and has no size, so there is no picture to write")
    width, height = picture_size(rect, scale)
    if width * height * 4 >= 2**31 or width >= 2**20 or height >= 2**20:
        raise RenderError(f"a picture of {width} x {height} pixels is larger than Qt can hold "
                          f"(choose a smaller --scale)")
    image = QImage(width, height, QImage.Format_ARGB32_Premultiplied)
    if image.isNull():
        raise RenderError(f"a picture of {width} x {height} pixels is larger than Qt can hold "
                          f"(choose a smaller --scale)")
    image.fill(0)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.Antialiasing, False)
        painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
        painter.scale(scale, scale)
        painter.translate(-rect.left(), -rect.top())
        paint_level(painter, level, base_folder)
    finally:
        painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    """``image`` as a PNG file's bytes (:mod:`.png_file`: most of a render of a big map is this encoding)."""
    rgba = image.convertToFormat(QImage.Format_RGBA8888)
    if rgba.isNull():
        raise RenderError("Qt could not convert the picture for PNG")
    return png_from_rgba(rgba.constBits(), rgba.width(), rgba.height(), rgba.bytesPerLine())


def write_render(level: Level, base_folder: Optional[str], path: str, scale: float = 1.0) -> list[str]:
    """Draw ``level`` and write it to ``path`` as a PNG (atomically: all of it or nothing).

    Returns one line per picture that could not be drawn (the rest is drawn all the same).
    """
    picture, notes = render_png(level, base_folder, scale)
    write_bytes_atomic(path, picture)
    return notes


def render_png(level: Level, base_folder: Optional[str], scale: float = 1.0) -> tuple[bytes, list[str]]:
    """``level`` drawn at ``scale`` as a PNG file's bytes, and one line per picture that could not be drawn."""
    return png_bytes(render_level(level, base_folder, scale)), missing_pictures(level, base_folder)


def run_render(level: Level, base_folder: Optional[str], scale: float) -> tuple[bytes, list[str]]:
    """:func:`render_png` inside a Qt application: the running one, or one started on the offscreen platform
    (no window, no display needed). What ``level-editor render`` draws with."""
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QGuiApplication([sys.argv[0] if sys.argv else "level-editor", "-platform", "offscreen"])
        try:
            return render_png(level, base_folder, scale)
        finally:
            del app
    return render_png(level, base_folder, scale)
