"""A Tiled tileset as a level's tileset: its picture (or pictures), how it is cut, and each tile's collision
shapes, type and properties.

Tiled keeps a tile's collision as an object layer on the tile (rectangles, ellipses, polygons, in the tile's
pixels). Rectangles stay rectangles unless turned (then polygons of their corners); ellipses stay ellipses;
polylines and points do not enclose anything and are noted and left out.
"""
from __future__ import annotations

import math
import os
import re
from typing import Callable, Optional

from level_editor.core.collision.shapes import Vec2
from level_editor.core.interop.png import png_size
from level_editor.core.interop.tiled_common import finite, number, text_of, whole
from level_editor.core.interop.tiled_tiles import Tileset as TiledTileset
from level_editor.core.level.art import TileInfo, TileShape, Tileset, columns_of
from level_editor.core.level.pictures import relocate_path

__all__ = ["tileset_of", "picture_size", "tile_shapes"]

_HEX = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


def picture_size(path: str) -> Optional[tuple[int, int]]:
    """The size a PNG picture's header gives, or None (not there, not a PNG)."""
    try:
        with open(path, "rb") as f:
            return png_size(f.read(33))
    except (OSError, ValueError):
        return None


def colour(value) -> str:
    """Tiled's colour (``#rrggbb``, ``#aarrggbb``, with or without ``#``) as ``#rrggbb``, or ``""``."""
    if not isinstance(value, str):
        return ""
    m = _HEX.fullmatch(value.strip())
    if m is None:
        return ""
    digits = m.group(1)
    return "#" + digits[-6:].lower()


def _rotated(x: float, y: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return x * c - y * s, x * s + y * c


def tile_shapes(objects, note: Callable[[str], None], where: str) -> tuple[TileShape, ...]:
    """The collision shapes of a tile's objects (TMJ dicts), in the tile's pixels."""
    shapes = []
    for obj in objects if isinstance(objects, list) else ():
        if not isinstance(obj, dict):
            continue
        x, y = number(obj.get("x", 0)), number(obj.get("y", 0))
        w, h = number(obj.get("width", 0)), number(obj.get("height", 0))
        rot = number(obj.get("rotation", 0))
        if not finite(x, y, w, h, rot):
            note(f"{where}: a collision shape with a number that is not finite; left out")
            continue
        if isinstance(obj.get("polygon"), list):
            pts = []
            for p in obj["polygon"]:
                px, py = (number(p.get("x", 0)), number(p.get("y", 0))) if isinstance(p, dict) else (math.nan, 0)
                if not finite(px, py):
                    break
                dx, dy = _rotated(px, py, rot)
                pts.append(Vec2(x + dx, y + dy))
            if len(pts) >= 3 and len(pts) == len(obj["polygon"]):
                shapes.append(TileShape("polygon", tuple(pts)))
            else:
                note(f"{where}: a collision polygon with fewer than 3 corners; left out")
        elif isinstance(obj.get("polyline"), list) or obj.get("point") is True:
            note(f"{where}: a collision {'polyline' if 'polyline' in obj else 'point'} encloses nothing; left out")
        elif w <= 0 or h <= 0:
            note(f"{where}: a collision shape of no size; left out")
        elif obj.get("ellipse") is True:
            if rot:
                note(f"{where}: a turned collision ellipse is taken unturned")
            shapes.append(TileShape("ellipse", (Vec2(x, y), Vec2(w, h))))
        elif rot % 360:
            corners = [(0, 0), (w, 0), (w, h), (0, h)]
            shapes.append(TileShape("polygon", tuple(Vec2(x + dx, y + dy) for dx, dy in
                                                     (_rotated(cx, cy, rot) for cx, cy in corners))))
        else:
            shapes.append(TileShape("rect", (Vec2(x, y), Vec2(w, h))))
    return tuple(shapes)


def tileset_of(ts: TiledTileset, tileset_id: str, level_dir: Optional[str], values: Callable[[list, str], tuple],
               note: Callable[[str], None], extra: Optional[dict] = None) -> Optional[Tileset]:
    """The level's tileset of the Tiled tileset ``ts`` (None, with a note, when it cannot be one).

    ``values(properties, where)`` turns a tile's Tiled property list into a level's properties and custom data
    (the export's bookkeeping); pictures are made relative to ``level_dir``; ``extra`` is the tileset's own custom
    data.
    """
    data = ts.raw
    where = f"tileset {ts.name or tileset_id}"
    tw, th = ts.tilewidth, ts.tileheight
    if not (finite(tw, th) and tw > 0 and th > 0):
        note(f"{where}: it has no positive tile size; its tiles are left out")
        return None
    image = data.get("image") if isinstance(data.get("image"), str) and data.get("image").strip() else ""
    margin, spacing = whole(data.get("margin", 0), 0) or 0, whole(data.get("spacing", 0), 0) or 0
    image_size = None
    columns = count = 0
    path = ""
    if image:
        full = os.path.normpath(os.path.join(ts.base_dir, image))
        if not os.path.isfile(full):
            note(f"{where}: its picture {image} is missing; its tiles show as placeholders until it is there")
        iw, ih = number(data.get("imagewidth", 0)), number(data.get("imageheight", 0))
        if not (finite(iw, ih) and iw > 0 and ih > 0):
            found = picture_size(full)
            if found is None:
                if os.path.isfile(full):  # a missing picture is already said
                    note(f"{where}: the size of its picture {image} is not given and cannot be read")
                iw = ih = 0
            else:
                iw, ih = found
        if iw > 0 and ih > 0:
            image_size = Vec2(float(iw), float(ih))
        columns = whole(data.get("columns"), 0) or (columns_of(iw, tw, margin, spacing) if iw else 0)
        rows = columns_of(ih, th, margin, spacing) if ih else 0
        count = whole(data.get("tilecount"), 0) or columns * rows
        if columns <= 0:
            note(f"{where}: its picture {image} holds no whole tile; its tiles are left out")
            return None
        path = relocate_path(image, ts.base_dir, level_dir) if not os.path.isabs(image) else image
    elif not any(isinstance(t, dict) and t.get("image") for t in ts.tiles.values()):
        count = whole(data.get("tilecount"), 0) or 0  # a tileset of no pictures, whose tiles only collide
    tiles: dict[int, TileInfo] = {}
    for local, tile in sorted(ts.tiles.items()):
        if not isinstance(tile, dict) or local < 0:
            continue
        if image and local >= count:
            continue
        twhere = f"{where} tile {local}"
        group = tile.get("objectgroup")
        shapes = tile_shapes(group.get("objects") if isinstance(group, dict) else None, note, twhere)
        props, extra = values(tile.get("properties"), twhere)
        if not shapes and _said_solid(tile.get("properties")):
            # a tile marked solid (as many games mark their walls) collides as its whole square
            shapes = (TileShape("rect", (Vec2(0.0, 0.0), Vec2(tw, th))),)
        kind = text_of(tile.get("type")) or text_of(tile.get("class"))
        own, own_size = "", None
        source = tile.get("image")
        if not image and isinstance(source, str) and source.strip():
            full = os.path.normpath(os.path.join(ts.base_dir, source))
            own = relocate_path(source, ts.base_dir, level_dir) if not os.path.isabs(source) else source
            w, h = number(tile.get("imagewidth", 0)), number(tile.get("imageheight", 0))
            if not (finite(w, h) and w > 0 and h > 0):
                found = picture_size(full)
                w, h = found if found is not None else (tw, th)
            own_size = Vec2(float(w), float(h))
        elif not image and not shapes and not props and not kind and not extra:
            continue
        if shapes or props or kind or own or extra:
            tiles[local] = TileInfo(shapes, props, kind, own, own_size, extra)
    offset = ts.offset if finite(*ts.offset) else (0.0, 0.0)
    return Tileset(tileset_id, ts.name or tileset_id, Vec2(tw, th), path, image_size, margin, spacing, columns,
                   count, Vec2(*offset), colour(data.get("transparentcolor")), tiles, extra or {})


def _said_solid(props) -> bool:
    """Whether a tile's Tiled properties mark it solid: a true ``solid``, ``collides`` or ``collision``."""
    for p in props if isinstance(props, list) else ():
        if isinstance(p, dict) and p.get("name") in ("solid", "collides", "collision"):
            v = p.get("value")
            if v is True or (isinstance(v, str) and v.strip().lower() == "true"):
                return True
    return False


def _named(props) -> dict:
    """A TMJ property list as ``{name: property dict}``."""
    return {p["name"]: p for p in props if isinstance(p, dict) and isinstance(p.get("name"), str)} \
        if isinstance(props, list) else {}
