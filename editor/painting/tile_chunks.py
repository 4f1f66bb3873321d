"""A painted grid drawn from chunks: blocks of cells pre-drawn once into pictures, at a level of detail.

A 500 x 500 grid is 250,000 tiles: drawn tile by tile, a frame zoomed out to see all of it would take seconds.
Here each block of :data:`CHUNK_CELLS` x :data:`CHUNK_CELLS` cells is drawn once into a picture at the level of
detail the zoom needs (the next power of two at or above it, at most 1: a chunk has at most the tiles' own
pixels), then every frame draws only the exposed chunks' pictures. A grid's value never changes (an edit makes
a new one), so the pictures are kept for as long as the grid's ``tiles`` and tileset are the same objects.

Making chunks is given a budget per frame: a chunk not made yet shows what a coarser or finer picture of it
already holds, and the frame asks for another (:meth:`TileChunks.paint` returns False) until all are made, so
no frame waits for the whole grid.

The usual grid (tiles cut from one picture, as large as the cells, not shifted) is put together with NumPy: each
tile in each of its 8 flips is cut out once per level of detail, and a chunk is one gather of those small
pictures by its cells' values (a few milliseconds where 1,024 draws take 5 to 16). Other grids are drawn tile by
tile with :func:`~level_editor.editor.painting.tiles.paint_tiles`.
"""
from __future__ import annotations

import math
import time
from collections import OrderedDict
from typing import Optional

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter

from level_editor.core.level.art import FLAGS

from level_editor.core.level.model import Tiles
from level_editor.editor.painting.pictures import pictures_read, tile_source, tileset_picture
from level_editor.editor.painting.tiles import paint_tiles

__all__ = ["CHUNK_CELLS", "TileChunks", "detail_for"]

#: The side of a chunk, in cells.
CHUNK_CELLS = 32
#: The most bytes the pictures of one grid's chunks hold (the least recently drawn go first).
CHUNK_BYTES = 256 * 2**20
#: How long one frame may spend making chunks, in seconds (the rest show what is there, and come next frame).
MAKE_BUDGET = 0.012
#: The finest and coarsest levels of detail (screen pixels per level unit the chunks are drawn at).
FINEST, COARSEST = 1.0, 1.0 / 64


def detail_for(zoom: float) -> float:
    """The level of detail chunks are drawn at for ``zoom``: a power of two at or above it, within limits.

    >>> detail_for(0.3), detail_for(0.25), detail_for(4.0), detail_for(1e-9)
    (0.5, 0.25, 1.0, 0.015625)
    """
    if zoom >= FINEST:
        return FINEST
    return max(COARSEST, 2.0 ** math.ceil(math.log2(max(zoom, 1e-12))))


class TileChunks:
    """The chunk pictures of one painted grid (one per canvas item).

    ``made`` counts the chunk pictures drawn, so a test can tell reuse from redrawing.
    """

    def __init__(self, limit_bytes: int = CHUNK_BYTES):
        self._key: Optional[tuple] = None
        # (detail, chunk column, chunk row) -> (picture, where it goes in grid-local units)
        self._chunks: OrderedDict = OrderedDict()
        # tile side in pixels -> the tileset's tiles in their flips at that side (None: not the usual grid)
        self._atlases: dict = {}
        self._bytes = 0
        self._limit = limit_bytes
        self.made = 0
        # how long the last chunk took to make (s): a frame starts no chunk it has no time left for
        self._cost = 0.0

    def forget(self) -> None:
        """Drop every picture (the tiles' pictures were read again)."""
        self._chunks.clear()
        self._bytes = 0

    def _follow(self, grid: Tiles, base_folder: Optional[str]) -> None:
        # identities: a grid's tiles tuple and its tileset are values that never change in place
        key = (id(grid.tiles), id(grid.art), grid.cell, base_folder, pictures_read())
        if key != self._key:
            self._key = key
            self._keep = (grid.tiles, grid.art)  # held, so their ids cannot be reused while the key holds them
            self.forget()
            self._atlases = {}

    @staticmethod
    def reach(grid: Tiles) -> float:
        """How far a cell's tile may draw outside its cell (tiles larger than cells, the tileset's offset)."""
        art = grid.art
        if art is None:
            return 0.0
        sizes = [art.tile_picture_size(t) for t in art.tiles] if art.is_collection else [art.tile_size]
        side = max([max(s.x, s.y) for s in sizes], default=grid.cell)
        return max(0.0, side - grid.cell) + abs(art.offset.x) + abs(art.offset.y)

    def paint(self, painter: QPainter, grid: Tiles, base_folder: Optional[str], exposed: Optional[QRectF],
              zoom: float, budget: float = MAKE_BUDGET) -> bool:
        """Draw ``grid`` (its origin at the painter's ``(0, 0)``) where ``exposed`` (grid-local) shows it.

        Returns False when some chunk could not be made in ``budget`` seconds and showed what there was
        instead: draw again to finish it.
        """
        self._follow(grid, base_folder)
        if grid.art is None or not grid.tiles:
            return True
        detail = detail_for(zoom)
        side = CHUNK_CELLS * grid.cell
        reach = self.reach(grid)
        columns = math.ceil(grid.columns / CHUNK_CELLS)
        rows = math.ceil(grid.rows / CHUNK_CELLS)
        if exposed is None:
            k0, j0, k1, j1 = 0, 0, columns - 1, rows - 1
        else:
            k0 = max(0, math.floor((exposed.left() - reach) / side))
            j0 = max(0, math.floor((exposed.top() - reach) / side))
            k1 = min(columns - 1, math.floor((exposed.right() + reach) / side))
            j1 = min(rows - 1, math.floor((exposed.bottom() + reach) / side))
        start = 0.0  # when this frame made its first chunk
        complete = True
        smooth = painter.testRenderHint(QPainter.SmoothPixmapTransform)
        antialiased = painter.testRenderHint(QPainter.Antialiasing)
        painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
        painter.setRenderHint(QPainter.Antialiasing, False)  # chunks are upright: it would only slow Qt down
        for j in range(j0, j1 + 1):
            for k in range(k0, k1 + 1):
                found = self._chunks.get((detail, k, j))
                # the first chunk of a frame is always made (a budget of 0: none), so every frame gets on
                if found is None and budget > 0 and (start == 0.0 or time.perf_counter() - start + self._cost <= budget):
                    if start == 0.0:
                        start = time.perf_counter()
                    found = self._make(grid, base_folder, detail, k, j, reach)
                if found is None:
                    complete = False
                    found = self._stand_in(detail, k, j)
                    if found is None:
                        continue
                else:
                    self._chunks.move_to_end((detail, k, j))
                picture, where = found
                painter.drawImage(where, picture)
        painter.setRenderHint(QPainter.SmoothPixmapTransform, smooth)
        painter.setRenderHint(QPainter.Antialiasing, antialiased)
        return complete

    def _atlas(self, grid: Tiles, base_folder: Optional[str], detail: float) -> Optional[np.ndarray]:
        side = max(1, round(grid.cell * detail))
        if side not in self._atlases:
            self._atlases[side] = _atlas_of(grid, base_folder, side)
        return self._atlases[side]

    def _stand_in(self, detail: float, k: int, j: int):
        """A picture of the same chunk at another level of detail (the nearest), or None."""
        others = [(abs(math.log2(d) - math.log2(detail)), d) for d, kk, jj in self._chunks if kk == k and jj == j]
        if not others:
            return None
        return self._chunks[(min(others)[1], k, j)]

    def _make(self, grid: Tiles, base_folder: Optional[str], detail: float, k: int, j: int, reach: float):
        c = grid.cell
        c0, r0 = k * CHUNK_CELLS, j * CHUNK_CELLS
        c1, r1 = min(grid.columns, c0 + CHUNK_CELLS) - 1, min(grid.rows, r0 + CHUNK_CELLS) - 1
        where = QRectF(c0 * c - reach, r0 * c - reach, (c1 - c0 + 1) * c + 2 * reach, (r1 - r0 + 1) * c + 2 * reach)
        began = time.perf_counter()
        atlas = self._atlas(grid, base_folder, detail) if reach == 0 else None
        if atlas is not None:
            return self._keep_chunk((detail, k, j), _gathered(atlas, grid, c0, r0, c1, r1), where, began)
        width = max(1, math.ceil(where.width() * detail))
        height = max(1, math.ceil(where.height() * detail))
        picture = QImage(width, height, QImage.Format_ARGB32_Premultiplied)
        picture.fill(0)
        painter = QPainter(picture)
        painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
        painter.scale(width / where.width(), height / where.height())
        painter.translate(-where.left(), -where.top())
        paint_tiles(painter, grid, base_folder, cells=(c0, r0, c1, r1))
        painter.end()
        return self._keep_chunk((detail, k, j), picture, where, began)

    def _keep_chunk(self, key: tuple, picture: QImage, where: QRectF, began: float):
        self.made += 1
        self._cost = time.perf_counter() - began
        found = self._chunks[key] = (picture, where)
        self._bytes += picture.sizeInBytes()
        while self._bytes > self._limit and len(self._chunks) > 1:
            _, (old, _) = self._chunks.popitem(last=False)
            self._bytes -= old.sizeInBytes()
        return found


def _flipped(tile: np.ndarray, flags: int) -> np.ndarray:
    """A tile's pixels ``(rows, columns, 4)`` as its cell's flags draw it: the diagonal flip (x and y swapped)
    first, then mirrored left to right, then upside down (Tiled's order)."""
    if flags & 1:
        tile = tile.transpose(1, 0, 2)
    if flags & 4:
        tile = tile[:, ::-1]
    if flags & 2:
        tile = tile[::-1]
    return tile


def _image_array(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format_ARGB32_Premultiplied)
    w, h = image.width(), image.height()
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return data.reshape(h, image.bytesPerLine())[:, :w * 4].reshape(h, w, 4)


def _atlas_of(grid: Tiles, base_folder: Optional[str], side: int) -> Optional[np.ndarray]:
    """Every tile of ``grid``'s tileset in its 8 flips at ``side`` pixels, indexed ``tile * 8 + flips`` (flips:
    1 diagonal, 2 upside down, 4 left to right), then one clear tile; None when the grid is not the usual kind."""
    art = grid.art
    if (art is None or art.is_collection or art.tile_size.x != grid.cell or art.tile_size.y != grid.cell
            or art.offset.x or art.offset.y or not 0 < art.count <= 4096):
        return None
    picture, _ = tileset_picture(art, 0, base_folder)
    if picture is None:
        return None
    out = np.zeros((art.count * 8 + 1, side, side, 4), dtype=np.uint8)
    for tile in range(art.count):
        source = tile_source(art, tile, picture)
        if not picture.rect().contains(source):
            continue  # a tile beyond the picture draws nothing, as paint_tiles draws nothing of it
        cut = picture.copy(source)
        if side != source.width() or side != source.height():
            cut = cut.scaled(side, side, Qt.IgnoreAspectRatio, Qt.SmoothTransformation)
        pixels = _image_array(cut)
        for flags in range(8):
            out[tile * 8 + flags] = _flipped(pixels, flags)
    return out


def _gathered(atlas: np.ndarray, grid: Tiles, c0: int, r0: int, c1: int, r1: int) -> QImage:
    """The chunk of cells ``(c0, r0)``-``(c1, r1)`` put together from ``atlas``."""
    values = np.array([row[c0:c1 + 1] for row in grid.tiles[r0:r1 + 1]], dtype=np.int64)
    empty = len(atlas) - 1
    tiles = values & ~FLAGS
    # the flags' bits (x 0x80000000, y 0x40000000, diagonal 0x20000000) as the atlas's 4, 2, 1
    flips = (values >> 29) & 7
    index = np.where((values < 0) | (tiles * 8 + 8 > empty), empty, tiles * 8 + flips)
    side = atlas.shape[1]
    rows, columns = index.shape
    pixels = np.ascontiguousarray(atlas[index].transpose(0, 2, 1, 3, 4).reshape(rows * side, columns * side, 4))
    image = QImage(pixels.data, columns * side, rows * side, columns * side * 4, QImage.Format_ARGB32_Premultiplied)
    return image.copy()  # its own pixels: the array goes
