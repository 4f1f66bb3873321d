"""Tilesets and tile data of Tiled maps: which tileset a global tile id is in, whether a tile collides, and the
tiles of a layer (CSV, base64, zlib, gzip, the old XML form, and the chunks of infinite maps).
"""
from __future__ import annotations

import array
import base64
import binascii
import bisect
import os
import sys
import zlib
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from level_editor.core.interop.tiled_common import (GID_MASK, ImportCancelled, TiledImportError, finite, number,
                                                    text_of, whole)
from level_editor.core.interop.tiled_files import Files

__all__ = ["MAX_LAYER_TILES", "MAX_MAP_TILES", "Tileset", "Tilesets", "read_tileset", "decode_tiles", "layer_tiles",
           "layer_size"]

#: Tiles one layer may have (width x height, or all its chunks together).
MAX_LAYER_TILES = 1 << 24
#: Tiles one import reads in all the tile layers of a map (empty cells count: each is looked at). A 4096 x 4096
#: layer is this many; reading it takes about 3 s here. Over it, layers none of whose tiles can collide are left
#: out unread, and a map whose other layers are still over it is refused: 20 such layers once took over a minute.
MAX_MAP_TILES = 1 << 24
#: How many tiles are read between two looks at whether the import was stopped.
STOP_EVERY = 1 << 16


@dataclass
class Tileset:
    firstgid: int
    name: str
    tilewidth: float = 0.0
    tileheight: float = 0.0
    offset: tuple = (0.0, 0.0)
    alignment: str = "unspecified"
    tiles: dict = field(default_factory=dict)  # local id -> TMJ tile dict
    missing: bool = False
    #: The tileset's own TMJ dict (an external one's file), and the folder its pictures are relative to.
    raw: dict = field(default_factory=dict)
    base_dir: str = "."
    #: Where it was read from (an external tileset's file), so that a template's tileset is the map's own.
    source: str = ""

    def size(self, local: int) -> tuple[float, float]:
        tile = self.tiles.get(local, {})
        w, h = number(tile.get("imagewidth")), number(tile.get("imageheight"))
        if finite(w, h) and w > 0 and h > 0:
            return w, h
        return self.tilewidth, self.tileheight

    def collides(self, local: int) -> bool:
        tile = self.tiles.get(local)
        if not tile:
            return False
        group = tile.get("objectgroup")
        if isinstance(group, dict) and isinstance(group.get("objects"), list) and group["objects"]:
            return True
        props = tile.get("properties")
        for p in props if isinstance(props, list) else ():
            if isinstance(p, dict) and p.get("name") in ("solid", "collides"):
                v = p.get("value")
                if v is True or (isinstance(v, str) and v.strip().lower() == "true"):
                    return True
        return False

    def any_collides(self) -> bool:
        """Whether any tile of the tileset collides (when none does, a layer of its tiles adds nothing)."""
        return any(self.collides(local) for local in self.tiles)

    def tile_type(self, local: int) -> str:
        tile = self.tiles.get(local, {})
        return text_of(tile.get("type")) or text_of(tile.get("class"))


def read_tileset(raw: dict, base_dir: str, files: Files, firstgid: Optional[int] = None) -> Optional[Tileset]:
    first = firstgid if firstgid is not None else whole(raw.get("firstgid"))
    if first is None or first < 1:
        return None
    data = raw
    missing = False
    own_dir, source = base_dir, ""
    if isinstance(raw.get("source"), str):
        source = os.path.normpath(os.path.join(base_dir, raw["source"]))
        loaded = files.load(os.path.join(base_dir, raw["source"]), "tileset", raw["source"])
        if loaded is None:
            missing = True
            data = {}
        else:
            data = loaded
            own_dir = os.path.dirname(source)
    ts = Tileset(first, text_of(data.get("name")) or text_of(raw.get("source")), missing=missing, raw=data,
                 base_dir=own_dir, source=source)
    ts.tilewidth, ts.tileheight = number(data.get("tilewidth", 0)), number(data.get("tileheight", 0))
    off = data.get("tileoffset")
    if isinstance(off, dict):
        ox, oy = number(off.get("x", 0)), number(off.get("y", 0))
        if finite(ox, oy):
            ts.offset = (ox, oy)
    ts.alignment = text_of(data.get("objectalignment")) or "unspecified"
    tiles = data.get("tiles")
    for tile in tiles if isinstance(tiles, list) else ():
        if isinstance(tile, dict):
            local = whole(tile.get("id"))
            if local is not None:
                ts.tiles[local] = tile
    return ts


class Tilesets:
    """Global tile ids to tilesets."""

    def __init__(self, tilesets: list[Tileset]):
        self.sets = sorted(tilesets, key=lambda t: t.firstgid)
        self.firsts = [t.firstgid for t in self.sets]

    def find(self, gid: int) -> Optional[tuple[Tileset, int]]:
        gid &= GID_MASK
        i = bisect.bisect_right(self.firsts, gid) - 1
        if gid == 0 or i < 0:
            return None
        ts = self.sets[i]
        return ts, gid - ts.firstgid


def decode_tiles(raw, encoding, compression, count: int, where: str) -> "array.array | list":
    """A layer's or chunk's global tile ids, ``count`` of them."""
    if isinstance(raw, list):
        gids = [whole(g, -1) for g in raw]
    elif isinstance(raw, str) and encoding in ("csv", None):
        try:
            gids = [int(t) for t in raw.replace("\n", "").replace("\r", "").split(",") if t.strip()]
        except ValueError:
            raise TiledImportError(f"{where}: its CSV tile data holds something that is not a tile id") from None
    elif encoding == "base64" and not isinstance(raw, str):
        raise TiledImportError(f"{where}: its base64 tile data is not text")
    elif isinstance(raw, str) and encoding == "base64":
        try:
            packed = base64.b64decode("".join(raw.split()), validate=True)
        except (binascii.Error, ValueError):
            raise TiledImportError(f"{where}: its base64 tile data does not decode") from None
        need = count * 4
        if compression in ("zlib", "gzip"):
            unpacker = zlib.decompressobj(zlib.MAX_WBITS if compression == "zlib" else 16 + zlib.MAX_WBITS)
            try:
                packed = unpacker.decompress(packed, need + 1)
            except zlib.error as e:
                raise TiledImportError(f"{where}: its {compression} tile data does not unpack: {e}") from None
        elif compression == "zstd":
            raise TiledImportError(f"{where}: its tile data is zstd-compressed, which Python cannot unpack; save "
                                   f"the map with zlib, gzip or CSV tile data")
        elif compression not in (None, ""):
            raise TiledImportError(f"{where}: unknown tile data compression {compression!r}")
        if len(packed) > need:  # stopped unpacking there: what a layer needs, never what a bomb holds
            raise TiledImportError(f"{where}: its tile data holds more than {count} tiles")
        if len(packed) != need:
            raise TiledImportError(f"{where}: its tile data holds {len(packed) // 4} tiles, not {count}")
        gids = array.array("I")
        gids.frombytes(packed)
        if sys.byteorder == "big":
            gids.byteswap()
        return gids
    else:
        raise TiledImportError(f"{where}: unknown tile data encoding {encoding!r}")
    if len(gids) != count:
        raise TiledImportError(f"{where}: its tile data holds {len(gids)} tiles, not {count}")
    if any(g < 0 or g >= 2**32 for g in gids):
        raise TiledImportError(f"{where}: its tile data holds a tile id that is not one")
    return gids


def _count(n: int) -> str:
    """A width or height for a message: whole up to 12 digits, else like 1e+308."""
    if abs(n) < 10**12:
        return str(n)
    try:
        return f"{float(n):g}"
    except OverflowError:
        return "-inf" if n < 0 else "inf"


def layer_size(layer: dict) -> int:
    """How many tiles (empty ones too) a tile layer holds, as its width and height, or its chunks', say; a size
    that is not one counts as none (:func:`layer_tiles` refuses it)."""
    chunks = layer.get("chunks")
    if isinstance(chunks, list):
        sizes = ((whole(c.get("width"), 0), whole(c.get("height"), 0)) for c in chunks if isinstance(c, dict))
        return sum(w * h for w, h in sizes if w > 0 and h > 0)
    w, h = whole(layer.get("width"), 0), whole(layer.get("height"), 0)
    return w * h if w > 0 and h > 0 else 0


def _tiles_of(gids, stop: Optional[Callable[[], bool]], where: str) -> Iterator[tuple[int, int]]:
    """(index, global id) of the non-empty tiles in ``gids``; raises :class:`ImportCancelled` once ``stop()``
    says so (it is asked every :data:`STOP_EVERY` tiles)."""
    for start in range(0, len(gids), STOP_EVERY):
        if stop is not None and stop():
            raise ImportCancelled(f"{where}: stopped")
        for i, gid in enumerate(gids[start:start + STOP_EVERY], start):
            if gid:
                yield i, gid


def layer_tiles(layer: dict, where: str, stop: Optional[Callable[[], bool]] = None) -> Iterator[tuple[int, int, int]]:
    """(column, row, global id) of every non-empty tile of a tile layer, chunks (infinite maps) included.

    ``stop``, when given, is asked every :data:`STOP_EVERY` tiles whether to go on: once it says True,
    :class:`ImportCancelled` is raised."""
    encoding, compression = layer.get("encoding"), layer.get("compression")
    if encoding == "xml":
        encoding = None
    chunks = layer.get("chunks")
    if isinstance(chunks, list):
        total = 0
        for chunk in chunks:
            if not isinstance(chunk, dict):
                raise TiledImportError(f"{where}: a chunk that is not an object")
            x, y, w, h = (whole(chunk.get(k)) for k in ("x", "y", "width", "height"))
            if None in (x, y, w, h) or w < 0 or h < 0:
                raise TiledImportError(f"{where}: a chunk without whole-number x, y, width and height")
            total += w * h
            if total > MAX_LAYER_TILES:
                raise TiledImportError(f"{where}: more than {MAX_LAYER_TILES} tiles; refused")
            gids = decode_tiles(chunk.get("data"), encoding, compression, w * h, where)
            for i, gid in _tiles_of(gids, stop, where):
                yield x + i % w, y + i // w, gid
        return
    w, h = whole(layer.get("width"), 0), whole(layer.get("height"), 0)
    if w < 0 or h < 0:
        raise TiledImportError(f"{where}: a negative width or height")
    if w * h > MAX_LAYER_TILES:
        raise TiledImportError(f"{where}: {_count(w)}x{_count(h)} tiles, more than the {MAX_LAYER_TILES} a layer "
                               f"may have")
    raw = layer.get("data")
    if raw is None or (w * h == 0 and not raw):
        return
    gids = decode_tiles(raw, encoding, compression, w * h, where)
    for i, gid in _tiles_of(gids, stop, where):
        yield i % w, i // w, gid


