"""LevelOverview: one picture of every object, drawn instead of the items when the level is small on screen.

With the whole of a 10,000-object level in view, asking each item to paint
costs a Python call per object per frame. Below the overview's scale the view
shows this picture instead (a blit, whatever the object count) and the items
are told they have no contents, so Qt skips them while they stay in the scene's
index for picking and rubber bands.

The picture is made by the items' own ``paint`` (so it looks exactly like
them, selection and hover included) and is kept current region by region:
the scene marks the scene rectangles that changed (:meth:`invalidate`) and
only those are painted again, the next time the picture is drawn.

A new picture of the whole level (a level just opened: 0.5 to 0.8 s of painting
at 100,000 objects) is painted in pieces of :data:`PIECE` pixels, the middle of
the view first, within the frame's :attr:`LevelOverview.deadline`; the view
asks for the rest a slice at a time (:meth:`LevelOverview.paint_pieces`), so the
window answers between slices. Until a piece is painted it shows what was there
before: nothing for a level just opened (:meth:`LevelOverview.new_level`), the
last picture for the same level painted again (a selection of everything).

Halved copies (mipmaps, averaged with smooth scaling) are drawn when the view
is further out: a bilinear blit of a picture four times too big skips whole
rows of pixels, and with them thin walls.

From that picture's scale up to :data:`MAX_TILED_ZOOM` (100%: objects at their
own size) the picture is made of tiles painted at the view's own zoom, pixel
for pixel what the items would draw: painted when first shown, kept (up to
:data:`MAX_TILE_PIXELS`) and reused while the view pans or comes back to that
zoom, and kept current region by region like the picture. A frame paints new
tiles until :attr:`LevelOverview.deadline`; the tiles it leaves show the
whole-level picture, scaled, until the following frames paint them
(:attr:`LevelOverview.complete` tells the view to ask for those frames).
"""
from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from typing import Callable, Iterable, Optional

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform

_log = logging.getLogger("level-editor")

#: The picture's longest side and area are at most this many pixels.
MAX_SIDE = 4096
MAX_PIXELS = 12_000_000
#: The whole-level picture's scale is at most this, whatever the level's size.
MAX_SCALE = 0.25
#: Tiles at the view's zoom stand in for the items up to this zoom; closer in, the items draw themselves.
MAX_TILED_ZOOM = 1.0
#: Room around the level inside the picture, so small edits at the edge need no new picture.
MARGIN = 0.02
#: More dirty rectangles than this are merged into their union.
MAX_DIRTY = 64
#: Pixels repainted around each dirty rectangle (antialiasing and cosmetic pens reach past bounds).
PAD_PIXELS = 3
#: The picture's sides are multiples of this, so every halving is exact and can be redone by region.
ALIGN = 64
#: Halved copies are made with the picture down to this many pixels on their longer side (further ones when used).
MIN_MIP_SIDE = 256
#: The side of a tile painted at the view's zoom, in pixels.
TILE = 256
#: The side of a piece of a new whole-level picture, in the picture's pixels (a few milliseconds of painting each).
PIECE = 384
#: Tiles kept, all zooms together, in pixels (4 bytes each); the least recently shown go first.
MAX_TILE_PIXELS = 16 * 1024 * 1024


def _piece_key(r: QRect) -> tuple[int, int]:
    return r.x(), r.y()


def _pieces(width: int, height: int) -> list[QRect]:
    """The pieces of a picture of ``width`` × ``height`` pixels, row by row."""
    return [QRect(x, y, min(PIECE, width - x), min(PIECE, height - y))
            for y in range(0, height, PIECE) for x in range(0, width, PIECE)]


def _image_of(pixels: np.ndarray) -> QImage:
    """A picture on ``pixels`` (rows of premultiplied ARGB), which it keeps alive."""
    height, row = pixels.shape
    image = QImage(pixels.data, row // 4, height, row, QImage.Format_ARGB32_Premultiplied)
    image._pixels = pixels
    return image


def _blank_image(width: int, height: int) -> QImage:
    """A transparent picture of ``width`` × ``height`` pixels whose memory is touched only where painted.

    Its pixels come zeroed from the system (``numpy.zeros``): a new picture of a big level has 12 million
    of them, and filling them (``QImage.fill``) took 20-90 ms of the frame that showed the level. The
    image keeps the array alive.
    """
    return _image_of(np.zeros((height, width * 4), np.uint8))


class LevelOverview:
    """A cached picture of a scene's level objects at one small scale.

    ``level_rect`` gives the rectangle that must be covered (scene units);
    ``items_in(rect)`` the object items meeting a scene rectangle, bottom first
    (``items_in(None)``: all of them, for a new picture of the whole level).
    ``min_objects``: smaller levels draw fast enough item by item.
    """

    min_objects = 2000
    #: Whether the halved copies are made as soon as the picture is whole. Not in a forked child process
    #: (level_editor.editor.canvas.picture_ahead): Qt halves a big picture on threads of its own, which a fork leaves behind.
    halves_when_painted = True

    def __init__(self, level_rect: Callable[[], QRectF], items_in: Callable[[QRectF], Iterable],
                 count: Callable[[], int]):
        self._level_rect = level_rect
        self._items_in = items_in
        self._count = count
        self._image: Optional[QImage] = None
        # a call painting the next new picture elsewhere (paint_elsewhere)
        self._elsewhere = None
        # no piece of the picture painted since it was made: it is all transparent
        self._blank = True
        self._rect = QRectF()
        self._scale = 0.0
        # where and at what scale the picture was painted (the geometry may have moved on since: a stale
        # picture stands in for tiles not painted yet while the view is closer in, see _draw_tiles)
        self._image_rect = QRectF()
        self._image_scale = 0.0
        self._dirty: list[QRectF] = []
        # halved copies: _mips[k] is _image at 1 / 2**(k + 1); _pending[k] its regions (level 0 pixels) to redo
        self._mips: list[QImage] = []
        self._pending: list[list[QRect]] = []
        self._all_dirty = True
        self._geometry_stale = True
        # where the picture is drawn from where it was painted (scene units): everything being dragged
        self._offset = (0.0, 0.0)
        #: Paint items where they are shown (``pos()``) rather than at their objects' anchors: set while
        #: some are shown away from their objects (a drag of part of the level).
        self.exact_positions = False
        # pieces of the whole-level picture (its pixels) still to paint, in rows (sorted by the view as it asks)
        self._unpainted: list[QRect] = []
        self.renders = 0  # region repaints so far (tests see the cache being used)
        # tiles at the view's zoom: (zoom key, column, row) -> [image, scene rectangles to paint again]
        self._tiles: OrderedDict = OrderedDict()
        #: When (``time.perf_counter()``) a frame stops painting new tiles; ``None``: it paints every tile it shows.
        self.deadline: Optional[float] = None
        #: Whether the last :meth:`draw` showed everything as the items would (no tile left for later).
        self.complete = True

    # -- when it is used ----------------------------------------------------
    def scale(self) -> float:
        """Pixels per scene unit of the picture; 0 when the level is too small to need one."""
        if self._count() < self.min_objects:
            return 0.0
        if self._geometry_stale:
            self._choose_rect()
        return self._scale

    def wanted_at(self, zoom: float) -> bool:
        """Whether a view at ``zoom`` shows the picture (or tiles) rather than the items."""
        s = self.scale()
        return s > 0 and zoom <= max(s, MAX_TILED_ZOOM)

    def _choose_rect(self) -> None:
        self._geometry_stale = False
        r = self._level_rect()
        m = max(r.width(), r.height()) * MARGIN + 64
        r = r.adjusted(-m, -m, m, m)
        s = min(MAX_SIDE / r.width(), MAX_SIDE / r.height(), math.sqrt(MAX_PIXELS / (r.width() * r.height())),
                MAX_SCALE)
        self._rect = r
        self._scale = s

    # -- keeping it current ----------------------------------------------------
    def invalidate(self, rect: Optional[QRectF] = None) -> None:
        """Mark ``rect`` (scene units; ``None``: everything) to be painted again before the next use."""
        self._drop_elsewhere()  # a picture painted elsewhere would not show the change
        if rect is None or (not self._geometry_stale and not self._rect.contains(rect)):
            # everything, or the level grew past the picture: a new picture over the new bounds
            self._all_dirty = True
            self._geometry_stale = True
            self._dirty.clear()
            for (zoom, i, j), tile in self._tiles.items():
                side = TILE / zoom
                tile[1] = [QRectF(i * side, j * side, side, side)]
            return
        self._invalidate_tiles(rect)
        if self._all_dirty:
            return
        self._dirty.append(QRectF(rect))
        if len(self._dirty) > MAX_DIRTY:
            union = QRectF(self._dirty[0])
            for r in self._dirty[1:]:
                union = union.united(r)
            self._dirty = [union]

    def translate(self, dx: float, dy: float) -> None:
        """Every object in the picture moved by ``(dx, dy)`` scene units: the picture moves along, unrepainted."""
        self._drop_elsewhere()
        # tiles sit on a grid of their own: painted again when shown (the picture, moved, shows meanwhile)
        self._tiles.clear()
        self._image_rect.translate(dx, dy)
        if self._geometry_stale:
            return  # a new picture is made before the next use anyway
        self._rect.translate(dx, dy)
        self._dirty = [r.translated(dx, dy) for r in self._dirty]

    def set_offset(self, dx: float, dy: float) -> None:
        """Draw the picture ``(dx, dy)`` scene units away from where its objects are (all of them being dragged)."""
        self._offset = (dx, dy)

    def is_current(self) -> bool:
        return not self._all_dirty and not self._dirty and self._image is not None and not self._unpainted

    def new_level(self) -> None:
        """The scene shows another level: nothing of the last picture or its tiles may stand in for it.

        The next picture starts empty (the background shows until its pieces are painted).
        """
        self.invalidate(None)  # (and what was being painted elsewhere for the last one is dropped)
        self._image = None
        self._mips.clear()
        self._pending.clear()
        self._tiles.clear()
        self._unpainted = []

    @property
    def pieces_left(self) -> bool:
        """Whether part of the whole-level picture is still to be painted (:meth:`paint_pieces`)."""
        return bool(self._unpainted)

    # -- a picture painted elsewhere -------------------------------------------
    def paint_elsewhere(self, call) -> None:
        """The next new picture is being painted elsewhere too: ``call`` (``done()``, ``result()``, ``stop()``)
        answers ``(geometry, pixels)`` (:meth:`geometry`, :meth:`pixels`). Pieces are painted here meanwhile,
        as they always are; once it answers, its pixels are the picture if it is the picture wanted. A change
        of the picture before that drops it (:meth:`invalidate`), as does the last piece painted here."""
        self._drop_elsewhere()
        self._elsewhere = call

    def geometry(self) -> tuple:
        """What makes two pictures of one level the same: their size in pixels, scene rectangle and scale."""
        r = self._image_rect
        return (self._image.width(), self._image.height(), (r.x(), r.y(), r.width(), r.height()),
                self._image_scale)

    def pixels(self) -> np.ndarray:
        """The picture's pixels (rows of premultiplied ARGB, 4 bytes each)."""
        return self._image._pixels

    def _take_elsewhere(self) -> None:
        """The picture painted elsewhere, if it has come and is this one (otherwise the pieces are painted here)."""
        call, self._elsewhere = self._elsewhere, None
        try:
            geometry, pixels = call.result()
        except Exception as error:  # noqa: BLE001 - whatever went wrong there, the pieces are painted here
            _log.info("the picture painted beside the window did not come: %s", error)
            return
        if self._image is None or not self._unpainted or geometry != self.geometry():
            return
        self._image = _image_of(pixels)
        self._blank = False
        self._unpainted = []
        self._mips.clear()
        self._pending.clear()
        if self.halves_when_painted:
            self._halve()

    def _drop_elsewhere(self) -> None:
        call, self._elsewhere = self._elsewhere, None
        if call is not None:
            call.stop()

    def refresh(self) -> None:
        """Paint the dirty regions; after :meth:`invalidate` with no rectangle, start a new picture of everything.

        A new picture is painted at once when there is no :attr:`deadline`, or when it moves or changes
        size (the last one could not stand in for the pieces not painted yet). Otherwise its pieces are
        painted as frames show them and as the view asks (:meth:`paint_pieces`), over the last picture
        or, after :meth:`new_level`, over nothing.
        """
        if self._all_dirty or self._image is None:
            self._dirty.clear()
            self._all_dirty = False
            if self.scale() <= 0:
                self._image = None
                self._unpainted = []
                return
            w = math.ceil(self._rect.width() * self._scale / ALIGN) * ALIGN
            h = math.ceil(self._rect.height() * self._scale / ALIGN) * ALIGN
            fresh = self._image is None
            same = (not fresh and self._image.width() == w and self._image.height() == h
                    and self._image_rect == self._rect and self._image_scale == self._scale)
            if not same:
                self._image = _blank_image(w, h)
                self._blank = True
                self._image_rect, self._image_scale = QRectF(self._rect), self._scale
                self._mips.clear()
                self._pending.clear()
            self._unpainted = _pieces(w, h)
            if self.deadline is None or not (fresh or same):
                self.paint_pieces(None)
            return
        dirty, self._dirty = self._dirty, []
        for r in dirty:
            self._paint_pixels(self._pixels_of(r))
        if self.deadline is None:
            self.paint_pieces(None)

    def paint_pieces(self, deadline: Optional[float], focus: Optional[QPointF] = None,
                     within: Optional[QRectF] = None) -> Optional[QRectF]:
        """Paint pieces of the whole-level picture not painted yet until ``deadline`` (``time.perf_counter()``;
        ``None``: all of them), those nearest ``focus`` first (scene units; default: the middle of ``within``),
        only those meeting ``within`` (scene units) when given.

        Returns the scene rectangle of what was painted (for the view to repaint), or None when nothing was.
        """
        if self._elsewhere is not None and self._elsewhere.done():
            self._take_elsewhere()
            if not self._unpainted:
                o, s = self._image_rect.topLeft(), self._image_scale
                return QRectF(o.x(), o.y(), self._image.width() / s, self._image.height() / s)
        if not self._unpainted:
            return None
        s, o = self._scale, self._rect.topLeft()
        dx, dy = self._offset
        todo = self._unpainted
        if within is not None:
            x0, y0 = math.floor((within.left() - dx - o.x()) * s), math.floor((within.top() - dy - o.y()) * s)
            x1, y1 = math.ceil((within.right() - dx - o.x()) * s), math.ceil((within.bottom() - dy - o.y()) * s)
            area = QRect(x0, y0, x1 - x0, y1 - y0)
            todo = [r for r in todo if r.intersects(area)]
            focus = focus if focus is not None else within.center()
        painted = QRect()
        if deadline is None:
            for piece in todo:
                painted = painted.united(piece)
            # all of them at once: the whole picture in one pass over the items, without asking the scene's index
            self._paint_pixels(painted, everything=painted == self._image.rect())
            done = set(map(_piece_key, todo))
            self._unpainted = [r for r in self._unpainted if _piece_key(r) not in done]
        else:
            if focus is not None:
                fx, fy = (focus.x() - dx - o.x()) * s, (focus.y() - dy - o.y()) * s
                todo = sorted(todo, key=lambda r: (r.center().x() - fx) ** 2 + (r.center().y() - fy) ** 2)
            for piece in todo:
                if time.perf_counter() >= deadline:
                    break
                self._paint_pixels(piece)
                painted = painted.united(piece)
                self._unpainted.remove(piece)
        if painted.isNull():
            return None
        if not self._unpainted:
            self._drop_elsewhere()  # painted here first
        if not self._unpainted and self.halves_when_painted:
            self._halve()
        return QRectF(painted.left() / s + o.x() + dx, painted.top() / s + o.y() + dy,
                      painted.width() / s, painted.height() / s)

    def _halve(self) -> None:
        """The halved copies of a whole picture, with it, rather than in the first frame zoomed out further."""
        k = 1
        while max(self._image.width(), self._image.height()) >> k >= MIN_MIP_SIDE:
            self._level(k)
            k += 1

    def _paint_pixels(self, pixels: QRect, everything: bool = False) -> None:
        """Paint ``pixels`` of the picture again (its halved copies follow when next used)."""
        self._blank = False
        o = self._rect.topLeft()
        self._paint(self._image, self._scale, o.x(), o.y(), pixels, everything)
        for pending in self._pending:
            pending.append(pixels)

    def _level(self, k: int) -> QImage:
        """The picture halved ``k`` times, current."""
        if k == 0:
            return self._image
        while len(self._mips) < k:
            finer = self._level(len(self._mips))
            w, h = max(1, finer.width() // 2), max(1, finer.height() // 2)
            if self._unpainted:
                # a picture still being painted: only its painted pieces are halved (below), the rest stays
                # transparent as theirs is (halving all of it took 15-20 ms of the frame that showed a new level)
                unpainted = set(map(_piece_key, self._unpainted))
                self._mips.append(_blank_image(w, h))
                self._pending.append([r for r in _pieces(self._image.width(), self._image.height())
                                      if _piece_key(r) not in unpainted])
            else:
                self._mips.append(finer.scaled(w, h, Qt.IgnoreAspectRatio, Qt.SmoothTransformation))
                self._pending.append([])
        pending = self._pending[k - 1]
        if pending:
            finer = self._level(k - 1)
            mip = self._mips[k - 1]
            painter = QPainter(mip)
            painter.setCompositionMode(QPainter.CompositionMode_Source)
            for r in pending:
                # the region in the finer level's pixels, grown to even edges so halving is exact
                f = 1 << (k - 1)
                x0, y0 = (r.left() // f) & ~1, (r.top() // f) & ~1
                x1, y1 = -(-(r.right() + 1) // f), -(-(r.bottom() + 1) // f)
                x1, y1 = min(finer.width(), x1 + (x1 & 1)), min(finer.height(), y1 + (y1 & 1))
                if x1 <= x0 or y1 <= y0:
                    continue
                part = finer.copy(x0, y0, x1 - x0, y1 - y0)
                half = part.scaled(max(1, (x1 - x0) // 2), max(1, (y1 - y0) // 2),
                                   Qt.IgnoreAspectRatio, Qt.SmoothTransformation)
                painter.drawImage(x0 // 2, y0 // 2, half)
            painter.end()
            pending.clear()
        return self._mips[k - 1]

    def _pixels_of(self, rect: QRectF) -> QRect:
        s, o = self._scale, self._rect.topLeft()
        x0 = math.floor((rect.left() - o.x()) * s) - PAD_PIXELS
        y0 = math.floor((rect.top() - o.y()) * s) - PAD_PIXELS
        x1 = math.ceil((rect.right() - o.x()) * s) + PAD_PIXELS
        y1 = math.ceil((rect.bottom() - o.y()) * s) + PAD_PIXELS
        return QRect(x0, y0, x1 - x0, y1 - y0).intersected(self._image.rect())

    def _paint(self, image: QImage, s: float, ox: float, oy: float, pixels: QRect, everything: bool = False) -> None:
        """Paint the items over ``pixels`` of ``image``, whose pixel (0, 0) is scene point (ox, oy) at scale ``s``."""
        if pixels.isEmpty():
            return
        self.renders += 1
        scene_rect = QRectF((pixels.left() - 1) / s + ox, (pixels.top() - 1) / s + oy,
                            (pixels.width() + 2) / s, (pixels.height() + 2) / s)
        painter = QPainter(image)
        painter.setClipRect(pixels)
        painter.setCompositionMode(QPainter.CompositionMode_Source)
        painter.fillRect(pixels, Qt.transparent)
        painter.setCompositionMode(QPainter.CompositionMode_SourceOver)
        painter.setRenderHint(QPainter.Antialiasing, True)
        painter.setRenderHint(QPainter.TextAntialiasing, True)
        base = QTransform(s, 0, 0, s, -ox * s, -oy * s)
        set_transform, translate = painter.setTransform, painter.translate
        exact = self.exact_positions
        # an item's position is its anchor (plain floats, no Qt call), unless some are shown away from it
        for item in self._items_in(None if everything else scene_rect):
            set_transform(base)
            if exact:
                translate(item.pos())
            else:
                translate(item._ax, item._ay)
            item.paint_at(painter, s)
        painter.end()

    # -- tiles at the view's zoom ------------------------------------------------
    def _invalidate_tiles(self, rect: QRectF) -> None:
        for key, tile in self._tiles.items():
            zoom, i, j = key
            side = TILE / zoom
            pad = PAD_PIXELS / zoom
            if (rect.right() + pad >= i * side and rect.left() - pad <= (i + 1) * side
                    and rect.bottom() + pad >= j * side and rect.top() - pad <= (j + 1) * side):
                dirty = tile[1]
                dirty.append(QRectF(rect))
                if len(dirty) > MAX_DIRTY:
                    # a tile out of view through a long drag: one area to paint again when it is shown
                    union = QRectF(dirty[0])
                    for r in dirty[1:]:
                        union = union.united(r)
                    tile[1] = [union]

    def _tile(self, zoom: float, i: int, j: int, may_paint: bool) -> Optional[QImage]:
        """Tile (i, j) at ``zoom``, current; ``None`` when it is not painted yet and ``may_paint`` is false."""
        key = (zoom, i, j)
        tile = self._tiles.get(key)
        ox, oy = i * TILE / zoom, j * TILE / zoom
        if tile is None:
            if not may_paint:
                return None
            image = QImage(TILE, TILE, QImage.Format_ARGB32_Premultiplied)
            self._paint(image, zoom, ox, oy, image.rect())
            self._tiles[key] = [image, []]
            while len(self._tiles) * TILE * TILE > MAX_TILE_PIXELS:
                self._tiles.popitem(last=False)
            return image
        self._tiles.move_to_end(key)
        image, dirty = tile
        if dirty:
            # edits, selection and hover: painted again at once, whatever the deadline
            tile[1] = []
            for r in dirty:
                x0 = math.floor((r.left() - ox) * zoom) - PAD_PIXELS
                y0 = math.floor((r.top() - oy) * zoom) - PAD_PIXELS
                x1 = math.ceil((r.right() - ox) * zoom) + PAD_PIXELS
                y1 = math.ceil((r.bottom() - oy) * zoom) + PAD_PIXELS
                self._paint(image, zoom, ox, oy, QRect(x0, y0, x1 - x0, y1 - y0).intersected(image.rect()))
        return image

    def _draw_tiles(self, painter: QPainter, part: QRectF, zoom: float) -> None:
        """Draw ``part`` (scene units, where the picture is shown) from tiles at ``zoom``.

        Tiles not painted yet are painted until :attr:`deadline`, the middle of the view first;
        the others show the whole-level picture for now.
        """
        # one key per zoom the view shows (its repeated 1.25x steps differ in the last bits)
        key = float(f"{zoom:.9g}")
        dx, dy = self._offset
        side = TILE / key
        i0, i1 = math.floor((part.left() - dx) / side), math.ceil((part.right() - dx) / side)
        j0, j1 = math.floor((part.top() - dy) / side), math.ceil((part.bottom() - dy) / side)
        ci, cj = (i0 + i1) / 2, (j0 + j1) / 2
        order = sorted(((i, j) for j in range(j0, j1) for i in range(i0, i1)),
                       key=lambda t: (t[0] + 0.5 - ci) ** 2 + (t[1] + 0.5 - cj) ** 2)
        transform = painter.worldTransform()
        # the device pixels to cover: exactly those of ``part`` (Qt's exposed area is whole pixels), no more,
        # since what is drawn around it was drawn already and translucent edges must not be drawn twice
        dev = transform.mapRect(part)
        x0, y0, x1, y1 = round(dev.left()), round(dev.top()), round(dev.right()), round(dev.bottom())
        deadline = self.deadline
        missing = []
        painter.save()
        # device pixels as the world transform maps them (a window and viewport, if any, stay)
        painter.setWorldTransform(QTransform())
        painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
        painter.setRenderHint(QPainter.Antialiasing, False)  # upright pictures: antialiasing only slows Qt down
        for i, j in order:
            image = self._tile(key, i, j, deadline is None or time.perf_counter() < deadline)
            if image is None:
                missing.append((i, j))
                continue
            tile = QRectF(i * side + dx, j * side + dy, side, side)
            target = transform.mapRect(tile)
            tx, ty = round(target.left()), round(target.top())
            if (abs(target.width() - TILE) < 0.01 and abs(target.height() - TILE) < 0.01
                    and abs(target.left() - tx) < 0.01 and abs(target.top() - ty) < 0.01):
                # the view's own zoom, on whole pixels: a plain copy of the pixels in view
                a, b, c, d = max(x0, tx), max(y0, ty), min(x1, tx + TILE), min(y1, ty + TILE)
                if c > a and d > b:
                    painter.drawImage(QPoint(a, b), image, QRect(a - tx, b - ty, c - a, d - b))
            else:
                # shown moved by a drag, off whole pixels: scaled
                piece = part.intersected(tile)
                if not piece.isEmpty():
                    source = QRectF((piece.left() - tile.left()) * key, (piece.top() - tile.top()) * key,
                                    piece.width() * key, piece.height() * key)
                    painter.drawImage(transform.mapRect(piece), image, source)
        painter.restore()
        self.complete = not missing
        if missing and not self._all_dirty and not self.is_current():
            # the picture's changed regions (cheap); a picture of everything again waits until it is shown
            # itself: meanwhile the last one stands in, and the tiles shown are painted again at once
            self.refresh()
        for i, j in missing:
            tile = QRectF(i * side + dx, j * side + dy, side, side)
            self._draw_picture(painter, part.intersected(tile), zoom)

    # -- drawing ---------------------------------------------------------------
    def draw(self, painter: QPainter, exposed: QRectF) -> None:
        """Draw the part of the picture under ``exposed`` (scene units) with ``painter`` (scene transform)."""
        self.complete = True
        zoom = painter.worldTransform().m11()
        tiled = zoom > self.scale() * (1 + 1e-9)
        if (not tiled or self._image is None) and not self.is_current():
            self.refresh()
        if self._image is None:
            return
        part = exposed.intersected(self._rect.translated(*self._offset))
        if not part.isEmpty():
            # pieces of a new picture here, the middle first, as time allows (others would not show this frame)
            self.paint_pieces(self.deadline, within=part)
            if tiled:
                self._draw_tiles(painter, part, zoom)
            else:
                self._draw_picture(painter, part, zoom)
        self.complete = self.complete and not self._unpainted

    def _draw_picture(self, painter: QPainter, part: QRectF, zoom: float) -> None:
        """Draw ``part`` (scene units) from the whole-level picture."""
        rect = self._image_rect.translated(*self._offset)
        part = part.intersected(rect)
        if part.isEmpty() or self._blank:
            return  # (a new picture with no piece painted yet shows nothing: no halved copies made of it)
        # the coarsest level still at least as fine as the screen: drawing it shrinks by under 2x
        k = 0
        while k < 12 and self._image_scale / (2 << k) >= zoom:
            k += 1
        image = self._level(k)
        s = self._image_scale * image.width() / self._image.width()
        o = rect.topLeft()
        source = QRectF((part.left() - o.x()) * s, (part.top() - o.y()) * s, part.width() * s, part.height() * s)
        painter.save()
        painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
        painter.setRenderHint(QPainter.Antialiasing, False)  # upright: antialiasing would take Qt's slow path
        painter.drawImage(part, image, source)
        painter.restore()

    @property
    def image(self) -> Optional[QImage]:
        """The picture as last painted (``None`` before the first use)."""
        return self._image

    @property
    def offset(self) -> tuple[float, float]:
        """Where the picture is drawn from where it was painted (:meth:`set_offset`)."""
        return self._offset

    @property
    def rect(self) -> QRectF:
        """The scene rectangle the picture covers."""
        return QRectF(self._rect)
