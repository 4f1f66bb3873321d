"""A level file's ``tilesets`` (format version 3), read with every refusal worded (the writer is ``write.py``'s
:func:`~.write.tileset_to_dict`).

```json
{"id": "desert", "name": "Desert", "image": "art/desert.png", "image_size": [265, 199], "tile_size": [32, 32],
 "margin": 1, "spacing": 1, "columns": 8, "count": 48,
 "tiles": [{"tile": 30, "collision": [{"rect": [0, 16, 32, 16]}], "properties": {"slippery": true}}]}
```

A collection of pictures has no ``image``; each of its tiles names its own ``image`` and ``image_size``. Optional:
``offset`` ``[x, y]`` (every tile drawn shifted by it), ``transparent`` (``"#rrggbb"`` drawn as transparent), and
for a tile ``type``. A collision shape is ``{"rect": [x, y, w, h]}``, ``{"ellipse": [x, y, w, h]}`` or
``{"polygon": [[x, y], ...]}`` (3 or more corners), in the tile's own pixels.
"""
from __future__ import annotations

import re
from typing import Any

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.art import TileInfo, TileShape, Tileset
from level_editor.core.level.format.checks import Reader, describe, type_name, unique_items
from level_editor.core.level.limits import MAX_SIZE

__all__ = ["parse_tilesets", "TILESET_KEYS", "MAX_TILES"]

TILESET_KEYS = ("id", "name", "image", "image_size", "tile_size", "margin", "spacing", "columns", "count",
                "offset", "transparent", "tiles")
_TILE_KEYS = ("tile", "collision", "properties", "type", "image", "image_size")
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
#: The most tiles a tileset may have (a picture of 16,384 x 16,384 pixels cut into 1-pixel tiles would be more).
MAX_TILES = 1 << 20
#: The most corners of one polygon.
MAX_CORNERS = 4096


def _whole(r: Reader, label: str, item: dict, key: str, low: int, high: int, default: int) -> int:
    value = item.get(key, default)
    if value.__class__ is not int or not low <= value <= high:
        r.bad(label, f"{key} must be a whole number from {low:,} to {high:,}, not {describe(value)}")
        return default
    return value


def _shape(r: Reader, label: str, raw: Any) -> TileShape | None:
    if not isinstance(raw, dict) or len(raw) != 1 or next(iter(raw)) not in ("rect", "ellipse", "polygon"):
        r.bad(label, f"a collision shape must be {{\"rect\": [x, y, w, h]}}, {{\"ellipse\": [x, y, w, h]}} or "
                     f"{{\"polygon\": [[x, y], ...]}}, not {describe(raw)}")
        return None
    kind, value = next(iter(raw.items()))
    before = len(r.problems)
    if kind == "polygon":
        if not isinstance(value, list) or not 3 <= len(value) <= MAX_CORNERS:
            r.bad(label, f"a polygon needs 3 to {MAX_CORNERS:,} corners [[x, y], ...], not {describe(value)}")
            return None
        points = tuple(r.point(label, "polygon", p) for p in value)
    else:
        if not isinstance(value, list) or len(value) != 4:
            r.bad(label, f"{kind} must be [x, y, width, height], not {describe(value)}")
            return None
        x, y = r.number(label, kind, value[0]), r.number(label, kind, value[1])
        w, h = r.positive(label, f"{kind} width", value[2]), r.positive(label, f"{kind} height", value[3])
        points = (Vec2(x, y), Vec2(w, h))
    return TileShape(kind, points) if len(r.problems) == before else None


def _tile(r: Reader, label: str, raw: Any) -> tuple[int, TileInfo] | None:
    if not isinstance(raw, dict):
        r.bad(label, f"each tile must be a JSON object, not {type_name(raw)}")
        return None
    if not r.require(label, raw, "tile", "the tile's number"):
        return None
    tile = _whole(r, label, raw, "tile", 0, MAX_TILES - 1, -1)
    if tile < 0:
        return None
    label = f"{label} tile {tile}"
    collision = []
    shapes = raw.get("collision", [])
    if not isinstance(shapes, list):
        r.bad(label, f"collision must be a list of shapes, not {type_name(shapes)}")
    else:
        collision = [s for s in (_shape(r, label, item) for item in shapes) if s is not None]
    properties = r.properties(label, "properties", raw.get("properties", {}))
    kind = r.text(label, "type", raw.get("type", ""))
    image, image_size = "", None
    if "image" in raw:
        image = r.text(label, "image", raw["image"], non_empty=True)
        if r.require(label, raw, "image_size", "the size [width, height] of its picture"):
            image_size = r.point(label, "image_size", raw["image_size"], positive=True)
    extra = r.custom_data(label, {k: v for k, v in raw.items() if k not in _TILE_KEYS})
    return tile, TileInfo(tuple(collision), properties, kind, image, image_size, extra)


def parse_tilesets(raw: Any, r: Reader) -> list[Tileset]:
    """The level's tilesets, each checked; one problem per fault, naming the tileset (``tileset desert``)."""
    if not isinstance(raw, list):
        r.bad("-", f"'tilesets' must be a list of tilesets, not {describe(raw)}")
        return []
    out: list[Tileset] = []
    for label, tid, item in unique_items(raw, r, "tilesets", "id", "tileset"):
        name = r.text(label, "name", item.get("name", tid))
        tile_size = Vec2(16.0, 16.0)
        if r.require(label, item, "tile_size", "the size [width, height] of its tiles"):
            tile_size = r.point(label, "tile_size", item["tile_size"], positive=True)
        image = r.text(label, "image", item["image"], non_empty=True) if "image" in item else ""
        image_size = r.point(label, "image_size", item["image_size"], positive=True) if "image_size" in item else None
        margin = _whole(r, label, item, "margin", 0, int(MAX_SIZE), 0)
        spacing = _whole(r, label, item, "spacing", 0, int(MAX_SIZE), 0)
        columns = count = 0
        if image:
            if r.require(label, item, "columns", "how many tiles its picture has across"):
                columns = _whole(r, label, item, "columns", 1, MAX_TILES, 1)
            if r.require(label, item, "count", "how many tiles its picture has"):
                count = _whole(r, label, item, "count", 0, MAX_TILES, 0)
        elif "count" in item:  # a tileset of no pictures (its tiles only collide)
            count = _whole(r, label, item, "count", 0, MAX_TILES, 0)
        offset = r.point(label, "offset", item["offset"]) if "offset" in item else Vec2(0.0, 0.0)
        transparent = item.get("transparent", "")
        if transparent != "" and (not isinstance(transparent, str) or not _COLOR.fullmatch(transparent)):
            r.bad(label, f"transparent must be \"#rrggbb\", not {describe(transparent)}")
            transparent = ""
        tiles: dict[int, TileInfo] = {}
        raw_tiles = item.get("tiles", [])
        if not isinstance(raw_tiles, list):
            r.bad(label, f"tiles must be a list of tiles, not {type_name(raw_tiles)}")
            raw_tiles = []
        for raw_tile in raw_tiles:
            got = _tile(r, label, raw_tile)
            if got is None:
                continue
            number, info = got
            if number in tiles:
                r.bad(label, f"tile {number} is described twice")
            elif image and number >= count:
                r.bad(label, f"tile {number} is not in the tileset (it has {count} tiles)")
            else:
                tiles[number] = info
        extra = r.custom_data(label, {k: v for k, v in item.items() if k not in TILESET_KEYS})
        out.append(Tileset(tid, name, tile_size, image, image_size, margin, spacing, columns, count, offset,
                           transparent, tiles, extra))
    return out
