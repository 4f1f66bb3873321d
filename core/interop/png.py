"""A small PNG writer (zlib and struct, no Qt, no Pillow) for the pictures of generated tilesets.

Only what a tileset of flat-coloured tiles needs: 8-bit RGBA, no interlacing,
filter 0 on every row. Rows are streamed through one compressor, so a large
picture never exists uncompressed in memory.

>>> data = png_tiles(4, [(255, 0, 0, 255), (0, 0, 255, 128)])
>>> data[:8] == PNG_SIGNATURE, png_size(data)
(True, (8, 4))
"""
from __future__ import annotations

import struct
import zlib
from typing import Sequence

__all__ = ["PNG_SIGNATURE", "png_tiles", "png_size"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

RGBA = tuple[int, int, int, int]


def _chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def _darker(color: RGBA) -> RGBA:
    r, g, b, a = color
    return (r * 3 // 5, g * 3 // 5, b * 3 // 5, max(a, 200))


def png_tiles(size: int, colors: Sequence[RGBA]) -> bytes:
    """A row of square tiles of ``size`` pixels, one per colour, each with a darker 1-pixel border.

    Parameters
    ----------
    size : int
        The side of one tile in pixels (at least 1).
    colors : sequence of (r, g, b, a)
        One colour per tile, left to right, each channel 0..255.
    """
    if size < 1 or not colors:
        raise ValueError("a tile picture needs a size of at least 1 pixel and at least one tile")
    width, height = size * len(colors), size
    edge_row = b"\x00" + b"".join(bytes(_darker(c)) * size for c in colors)
    if size > 2:
        inner = b"".join(bytes(_darker(c)) + bytes(c) * (size - 2) + bytes(_darker(c)) for c in colors)
    else:
        inner = b"".join(bytes(_darker(c)) * size for c in colors)
    inner_row = b"\x00" + inner
    packer = zlib.compressobj(9)
    body = [packer.compress(edge_row)]
    for _ in range(max(0, height - 2)):
        body.append(packer.compress(inner_row))
    if height > 1:
        body.append(packer.compress(edge_row))
    body.append(packer.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return PNG_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(body)) + _chunk(b"IEND", b"")


def png_size(data: bytes) -> tuple[int, int]:
    """The ``(width, height)`` a PNG's header gives (a ValueError when ``data`` is no PNG)."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG picture")
    return struct.unpack(">II", data[16:24])
