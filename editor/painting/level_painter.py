"""Painting a whole level as the game sees it: ``level-editor render`` and the canvas share it.

The background colour, then every shown object by layer (bottom to top) and file order, each layer's opacity
applied: painted grids' tiles, sprites, reference pictures at their scale and opacity, and objects without art
filled in their type's colour (or their kind's own, as the canvas draws it; see-through when they do not
collide). Markers have no size and are not drawn; nothing of the editor's (grid, handles, labels) is.
"""
from __future__ import annotations

import math
import os
from typing import Optional

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPainterPathStroker, QPolygonF

from level_editor.core.level.art import tile_number
from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Point, Sprite, Tiles, Wall
from level_editor.editor.painting.pictures import full_path, load_picture, tileset_picture
from level_editor.editor.painting.sprites import paint_sprite, sprite_picture
from level_editor.editor.painting.tiles import paint_tiles

__all__ = ["KIND_COLORS", "TRIGGER_COLOR", "PASSABLE_ALPHA", "paint_level", "level_rect", "missing_pictures"]

#: What an object without a type is filled in, by kind: the canvas's own colours (its items' ``FILL``).
KIND_COLORS = {
    "wall": QColor(168, 178, 196),
    "box": QColor(196, 134, 74),
    "oriented_box": QColor(72, 170, 160),
    "circle": QColor(150, 110, 200),
    "tiles": QColor(150, 156, 120),
}
#: What an object that does not collide is filled in when it has no type (the canvas's trigger colour).
TRIGGER_COLOR = QColor(236, 104, 200)
#: How opaque (0-255) an object that does not collide is filled: what is under it shows through.
PASSABLE_ALPHA = 56


def fill_color(obj, type_colors: dict) -> QColor:
    """The colour ``obj`` (an object without art) is filled in."""
    typed = QColor(type_colors[obj.type]) if obj.type in type_colors else QColor()
    solid = getattr(obj, "solid", True)
    if solid:
        return typed if typed.isValid() else QColor(KIND_COLORS.get(obj.kind, KIND_COLORS["box"]))
    color = QColor(typed if typed.isValid() else TRIGGER_COLOR)
    color.setAlpha(PASSABLE_ALPHA)
    return color


def _wall_path(wall: Wall) -> QPainterPath:
    line = QPainterPath()
    line.moveTo(wall.points[0].x, wall.points[0].y)
    for p in wall.points[1:]:
        line.lineTo(p.x, p.y)
    if wall.closed and len(wall.points) > 2:
        line.closeSubpath()
    stroker = QPainterPathStroker()
    stroker.setWidth(wall.thickness)
    stroker.setCapStyle(Qt.RoundCap)
    stroker.setJoinStyle(Qt.RoundJoin)
    # a winding fill: where the stroke overlaps itself at a joint it is still filled once
    path = stroker.createStroke(line)
    path.setFillRule(Qt.WindingFill)
    return path


def _shape_path(obj) -> Optional[QPainterPath]:
    """The outline an object without art is filled as, in level coordinates (None: it draws nothing)."""
    path = QPainterPath()
    if isinstance(obj, Wall):
        return _wall_path(obj) if len(obj.points) >= 2 else None
    if isinstance(obj, Box):
        path.addRect(QRectF(obj.origin.x, obj.origin.y, obj.size.x, obj.size.y))
    elif isinstance(obj, OrientedBox):
        path.addPolygon(QPolygonF([QPointF(p.x, p.y) for p in obj.corners()]))
        path.closeSubpath()
    elif isinstance(obj, Pillar):
        path.addEllipse(QPointF(obj.center.x, obj.center.y), obj.radius, obj.radius)
    elif isinstance(obj, Tiles):
        for r in obj.solid_rects():
            path.addRect(QRectF(r.origin.x, r.origin.y, r.size.x, r.size.y))
    else:
        return None
    return path


def _image_rect(image: Image, base_folder: Optional[str]) -> Optional[QRectF]:
    picture, _ = load_picture(full_path(image.path, image.folder or base_folder))
    if picture is None:
        return None
    return QRectF(image.origin.x, image.origin.y, picture.width() * image.scale, picture.height() * image.scale)


def _tiles_rect(grid: Tiles) -> QRectF:
    """Where a grid may draw: its cells, and (painted) its tiles beyond them, bottom-aligned and shifted."""
    o, c = grid.origin, grid.cell
    rect = QRectF(o.x, o.y, grid.columns * c, grid.rows * c)
    art = grid.art
    if not grid.painted or art is None:
        return rect
    sizes = [art.tile_picture_size(t) for t in art.tiles] if art.is_collection else [art.tile_size]
    side = max([max(s.x, s.y) for s in sizes], default=c)
    ox, oy = art.offset.x, art.offset.y
    return rect.united(rect.adjusted(ox, oy - max(0.0, side - c), ox + max(0.0, side - c), oy))


def object_rect(obj, base_folder: Optional[str]) -> Optional[QRectF]:
    """The rectangle ``obj`` draws in when rendered (None: it draws nothing)."""
    if isinstance(obj, Point):
        return None
    if isinstance(obj, Image):
        return _image_rect(obj, base_folder)
    if isinstance(obj, Tiles):
        return _tiles_rect(obj)
    x0, y0, x1, y1 = obj.bounds()
    return QRectF(x0, y0, x1 - x0, y1 - y0)


def _shown(level: Level) -> list:
    hidden = {layer.id for layer in level.layers if not layer.visible}
    return [obj for obj in level.drawing_order() if obj.layer not in hidden]


def level_rect(level: Level, base_folder: Optional[str]) -> QRectF:
    """What a render of ``level`` covers: its ``size`` from ``(0, 0)`` when it has one, else the bounds of every
    shown object's drawing (art included); an empty level is an empty rectangle."""
    if level.size is not None:
        return QRectF(0.0, 0.0, level.size.x, level.size.y)
    rect = QRectF()
    for obj in _shown(level):
        r = object_rect(obj, base_folder)
        if r is not None and r.isValid():
            rect = r if rect.isNull() else rect.united(r)
    return rect


def missing_pictures(level: Level, base_folder: Optional[str]) -> list[str]:
    """One line per shown sprite or painted grid whose picture cannot be drawn:
    ``OBJECT-ID: warning: picture PATH is missing``. ``check`` names a tileset whose picture is not there, but
    not what it leaves out; it already names reference pictures and sprites' picture files that are not there,
    so those are said here only when the file is there but cannot be drawn."""
    lines = []
    for obj in _shown(level):
        if isinstance(obj, Sprite):
            full = None if obj.tileset else full_path(obj.picture, obj.folder or base_folder)
            if not obj.tileset and (full is None or not os.path.isfile(full)):
                continue  # check's warning says it
            picture, _, problem = sprite_picture(obj, base_folder)
            if picture is None:
                what = obj.art.picture_of(obj.tile) if obj.tileset and obj.art is not None else obj.picture
                lines.append(f"{obj.id}: warning: picture {what} is {problem}" if what
                             else f"{obj.id}: warning: {problem}")
        elif isinstance(obj, Tiles) and obj.painted:
            lines.extend(_grid_missing(obj, base_folder))
    return lines


def _grid_missing(grid: Tiles, base_folder: Optional[str]) -> list[str]:
    art = grid.art
    if art is None:
        return [f"{grid.id}: warning: tileset {grid.tileset!r} does not exist"]
    used = {tile_number(v) for row in grid.tiles for v in row if v >= 0}
    said, lines = set(), []
    for tile in sorted(used):
        path = art.picture_of(tile)
        if path in said:
            continue
        picture, problem = tileset_picture(art, tile, base_folder)
        if picture is None:
            said.add(path)
            lines.append(f"{grid.id}: warning: picture {path} of tileset {art.id!r} is {problem}")
    return lines


def paint_level(painter: QPainter, level: Level, base_folder: Optional[str],
                exposed: Optional[QRectF] = None) -> None:
    """Draw ``level`` in level coordinates (the painter's transform places and scales it).

    ``exposed`` (level coordinates) limits the tiles drawn to those that may show there (None: all).
    """
    if level.background and QColor(level.background).isValid():
        painter.fillRect(level_rect(level, base_folder) if exposed is None else exposed, QColor(level.background))
    type_colors = {t.name: t.color for t in level.types}
    opacity = {layer.id: max(0.0, min(1.0, layer.opacity)) for layer in level.layers}
    start = painter.opacity()
    for obj in _shown(level):
        painter.setOpacity(start * opacity.get(obj.layer, 1.0))
        _paint_object(painter, obj, base_folder, type_colors, exposed)
    painter.setOpacity(start)


def _paint_object(painter: QPainter, obj, base_folder: Optional[str], type_colors: dict,
                  exposed: Optional[QRectF]) -> None:
    if isinstance(obj, Point):
        return
    if isinstance(obj, Sprite):
        painter.save()
        painter.translate(obj.center.x, obj.center.y)
        paint_sprite(painter, obj, base_folder)
        painter.restore()
        return
    if isinstance(obj, Image):
        rect = _image_rect(obj, base_folder)
        if rect is not None:
            picture, _ = load_picture(full_path(obj.path, obj.folder or base_folder))
            painter.save()
            painter.setOpacity(painter.opacity() * max(0.0, min(1.0, obj.opacity)))
            painter.drawImage(rect, picture)
            painter.restore()
        return
    if isinstance(obj, Tiles) and obj.painted:
        painter.save()
        painter.translate(obj.origin.x, obj.origin.y)
        local = None if exposed is None else exposed.translated(-obj.origin.x, -obj.origin.y)
        paint_tiles(painter, obj, base_folder, local)
        painter.restore()
        return
    path = _shape_path(obj)
    if path is not None:
        painter.fillPath(path, QBrush(fill_color(obj, type_colors)))


def picture_size(rect: QRectF, scale: float) -> tuple[int, int]:
    """The pixel size of a render of ``rect`` at ``scale``: rounded as Tiled's ``tmxrasterizer`` rounds."""
    return max(1, math.floor(rect.width() * scale + 0.5)), max(1, math.floor(rect.height() * scale + 0.5))
