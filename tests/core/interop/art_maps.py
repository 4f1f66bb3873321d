"""Levels with art for the export's tests: a tileset picture made here (no files needed), and Tiled's renderer."""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from level_editor.core.interop.png import PNG_SIGNATURE

RED, BLUE, GREEN, YELLOW = (230, 30, 30, 255), (30, 60, 220, 255), (40, 200, 60, 255), (240, 220, 20, 255)
#: The tileset picture: tiles of 16 px, 2 across, 1 px margin, 2 px spacing.
TILE, MARGIN, SPACING, COLUMNS = 16, 1, 2, 2
#: Tile 0 is blue with a red mark in its top-left corner, wider than high: wherever the red lands (and which way
#: it runs) shows how the tile was flipped and turned.
MARK = (6, 3)


def png(width: int, height: int, pixel) -> bytes:
    """An RGBA PNG whose pixel (x, y) is ``pixel(x, y)``."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def tile_of(x: int, y: int):
    """(tile number, x, y in the tile) of a pixel of the tileset picture, or None on the margin or spacing."""
    x, y = x - MARGIN, y - MARGIN
    col, px = divmod(x, TILE + SPACING)
    row, py = divmod(y, TILE + SPACING)
    if x < 0 or y < 0 or px >= TILE or py >= TILE:
        return None
    return row * COLUMNS + col, px, py


def tileset_pixel(x: int, y: int):
    found = tile_of(x, y)
    if found is None:
        return (255, 0, 255, 255)  # magenta: the transparent colour
    tile, px, py = found
    if tile == 0:
        return RED if px < MARK[0] and py < MARK[1] else BLUE
    if tile == 1:
        return GREEN
    if tile == 2:
        return YELLOW if py >= TILE // 2 else (0, 0, 0, 0)
    return (128, 128, 128, 255)


def tileset_picture(folder: Path, name: str = "tiles.png") -> Path:
    """The tileset picture (2 x 2 tiles) written into ``folder``."""
    size = 2 * MARGIN + COLUMNS * TILE + (COLUMNS - 1) * SPACING
    path = folder / name
    path.write_bytes(png(size, size, tileset_pixel))
    return path


def needs_rasterizer():
    found = shutil.which("tmxrasterizer")
    if found is None:
        pytest.skip("tmxrasterizer (it comes with Tiled) is not installed here")
    return found


def rasterize(map_path: Path, out: Path, *options: str) -> Path:
    """Tiled's own drawing of a map (tmxrasterizer, headless, with its ``options``)."""
    r = subprocess.run([needs_rasterizer(), "--no-smoothing", *options, str(map_path), str(out)], capture_output=True,
                       text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=120)
    assert r.returncode == 0 and out.exists(), r.stderr
    return out
