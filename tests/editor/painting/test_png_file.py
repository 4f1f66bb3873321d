"""The PNG files ``render`` writes: read back by Qt and by pygame (libpng, SDL_image) as the pixels they were made
of, transparency included; refused sizes are a clear error."""
from __future__ import annotations

import io
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QImage

from level_editor.editor.painting import png_file
from level_editor.editor.painting.png_file import png_from_rgba


def rgba_rows(width: int, height: int, seed: int, padding: int = 0) -> bytes:
    """Rows of ``width`` pixels (any red, green, blue and alpha), each followed by ``padding`` stray bytes."""
    pixels = bytearray()
    for y in range(height):
        pixels += bytes((seed * 7 + y * 31 + x * 13 + k * 89) % 256 for x in range(width) for k in range(4))
        pixels += b"\xee" * padding
    return bytes(pixels)


def pixel(rows: bytes, x: int, y: int, width: int, padding: int = 0) -> tuple:
    start = y * (width * 4 + padding) + x * 4
    return tuple(rows[start:start + 4])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 255), st.sampled_from([0, 3, 8]))
def test_qt_reads_back_every_pixel(width, height, seed, padding):
    rows = rgba_rows(width, height, seed, padding)
    image = QImage.fromData(png_from_rgba(rows, width, height, width * 4 + padding), "PNG")
    assert (image.width(), image.height()) == (width, height)
    image = image.convertToFormat(QImage.Format_RGBA8888)
    got = bytes(image.constBits())
    for y in range(height):
        line = got[y * image.bytesPerLine():y * image.bytesPerLine() + width * 4]
        assert line == rows[y * (width * 4 + padding):y * (width * 4 + padding) + width * 4]


def test_pygame_reads_it_as_libpng_does():
    pygame = pytest.importorskip("pygame")
    width, height = 37, 5
    rows = rgba_rows(width, height, 11)
    surface = pygame.image.load(io.BytesIO(png_from_rgba(rows, width, height, width * 4)), "level.png")
    assert surface.get_size() == (width, height)
    for x, y in ((0, 0), (36, 4), (12, 3)):
        assert tuple(surface.get_at((x, y))) == pixel(rows, x, y, width)


def test_a_big_picture_is_split_into_idat_chunks_that_join_to_its_rows(monkeypatch):
    monkeypatch.setattr(png_file, "IDAT_SIZE", 64)
    width, height = 30, 20
    rows = rgba_rows(width, height, 3)
    png = png_from_rgba(rows, width, height, width * 4)
    chunks, at = [], 8
    while at < len(png):
        (size,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + size]
        assert struct.unpack(">I", png[at + 8 + size:at + 12 + size])[0] == zlib.crc32(kind + data)
        chunks.append((kind, data))
        at += 12 + size
    kinds = [k for k, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and kinds.count(b"IDAT") > 2
    raw = zlib.decompress(b"".join(d for k, d in chunks if k == b"IDAT"))
    assert raw == b"".join(b"\0" + rows[y * width * 4:(y + 1) * width * 4] for y in range(height))
    assert QImage.fromData(png, "PNG").size().toTuple() == (width, height)


@pytest.mark.parametrize("width, height, per_line, size", [(0, 4, 0, 0), (4, 0, 16, 0), (4, 4, 12, 64),
                                                           (4, 4, 16, 60)])
def test_sizes_that_make_no_picture_are_refused(width, height, per_line, size):
    with pytest.raises(ValueError, match="pixels"):
        png_from_rgba(bytes(size), width, height, per_line)
