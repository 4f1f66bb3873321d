"""Paint and erase solid cells of tile grids on the level's grid, or the tiles picked in the Tilesets dock (T)."""
from __future__ import annotations

import math
from typing import Iterable, Optional, Sequence

import shiboken6
from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QUndoCommand
from PySide6.QtWidgets import QGraphicsItem

from level_editor.core.level.kinds import plural
from level_editor.core.level.limits import MAX_TILE_CELLS
from level_editor.core.level.art import NO_TILE, Tileset
from level_editor.core.level.model import SOLID_CELL, Tiles
from level_editor.editor.commands.objects import AddObjectsCommand, ChangeObjectsCommand, RemoveObjectsCommand
from level_editor.editor.canvas.snapping import clamp_coordinate, clamped_point
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.commands.properties import StepsCommand
from level_editor.editor.canvas.tile_pick import TilePick
from level_editor.editor.painting.tiles import paint_tiles
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.support.guard import guarded
from level_editor.editor.tools.preview import PREVIEW_Z, ShapePreview, fill_brush, outline_pen
from level_editor.editor.tools.tool import Tool

Cell = tuple[int, int]

#: The most cells one mouse move of a stroke samples.
MAX_STROKE_STEPS = 4096

#: The most cells (solid or empty) a tile grid the brush paints may span: the level's limit
#: (core/level/limits.py, 1,000 × 1,000), so the brush never paints a grid the file could not hold. A stroke
#: that would stretch a grid further (a jump of the cursor across the level) is refused with a word, not run
#: into a grid of millions of rows.
MAX_GRID_CELLS = MAX_TILE_CELLS

#: The colour of cells about to be erased.
ERASE_COLOR = QColor(235, 80, 70)


class TileBrushTool(Tool):
    """Left button paints solid cells, right button (or Shift with the left) erases them; with tiles picked in
    the Tilesets dock it paints those tiles instead.

    The cells are the level's grid squares: cell ``(i, j)`` covers
    ``[i*grid, (i+1)*grid) x [j*grid, (j+1)*grid)``, whatever snapping or Ctrl
    say. A stroke (press, drag, release) shows the cells it covers and changes
    the level when the button is let go: one undo step, "Paint 12 tiles" or
    "Erase 3 tiles". Only the tile grids of the current layer are touched, and
    only those with the level's cell size aligned to its grid (call them the
    layer's brush grids); a locked layer refuses the stroke.

    Painting joins the grid under the brush: the first brush grid, in stroke
    order, whose bounds grown by one cell hold a cell of the stroke. The whole
    stroke goes into that one grid, even where it crosses another (two grids
    are never merged); cells already solid in any brush grid are left as they
    are. With no grid near, the stroke starts a new one, ``tiles-N``.

    Erasing clears the stroke's cells in every brush grid of the layer; a grid
    left without solid cells is deleted in the same step.

    With a pick (:class:`TilePick`), the cells are the tileset's tiles: squares of its tile width from
    ``(0, 0)`` (a collection's pictures: the level's grid squares, :meth:`art_cell`), and the brush grids are the current layer's painted grids of that tileset with that cell. The
    picked block is stamped with its top-left cell under the cursor, as Tiled's stamp brush does; a drag
    stamps it again wherever the cursor reaches a cell the last stamps do not cover, side by side with them, so
    a drag lays the block as a seamless pattern. Erasing clears the tileset's tiles under the cursor. X, Y,
    Z and Shift+Z flip and turn the pick (:meth:`transform_pick`).
    """

    name = "Tile Brush"
    shortcut = "T"
    icon_name = "tool-tiles"
    hint = "Tile brush: drag to paint solid cells on the grid; right button or Shift erases (Esc cancels a stroke)."
    art_hint = ("Tile brush: drag to paint the picked tiles; right button or Shift erases them; X, Y flip, "
                "Z, Shift+Z turn (Esc cancels a stroke).")
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._stroke: list[Cell] = []  # cells in the order the brush met them, each once
        self._seen: set[Cell] = set()
        self._erasing = False
        self._button = Qt.NoButton
        self._last: Optional[QPointF] = None
        self._hover: Optional[QPointF] = None
        self._solid: set[Cell] = set()  # the brush grids' solid cells when the stroke began, for the preview
        self._art: Optional[tuple[TilePick, Tileset]] = None  # what this stroke paints (None: solid cells)
        self._stamps: dict[Cell, int] = {}  # the stroke's painted cells (with a pick)
        self._blocks: set[Cell] = set()  # the top-left cells of the blocks stamped so far
        self._anchor: Cell = (0, 0)
        self.preview = ShapePreview(editor.scene)
        self.tiles_preview = TilesPreview()
        editor.tile_pick_changed.connect(self._pick_changed)

    @property
    def painting(self) -> bool:
        """A stroke is under way."""
        return self._button != Qt.NoButton

    def picked_art(self) -> Optional[tuple[TilePick, Tileset]]:
        """The pick and its tileset when the brush paints tiles (None: it paints solid cells)."""
        pick = self.editor.tile_pick
        if pick is None or not pick.cells:
            return None
        tileset = self.editor.document.level.tileset(pick.tileset)
        if tileset is None or tileset.tile_size.x <= 0:
            return None
        return pick, tileset

    # -- the stroke ------------------------------------------------------------------
    def deactivate(self) -> None:
        self.cancel()
        self.preview.remove()
        self._hide_tiles()

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self.painting or button not in (Qt.LeftButton, Qt.RightButton):
            return
        self._art = self.picked_art()
        if self._art is None and self._grid() is None:  # tiles have their own cells: only solid cells need it
            self.editor.message.emit("The level has no grid to paint on: give it a grid size first.")
            return
        if self.editor.current_layer_locked():
            return
        self._button = button
        self._erasing = button == Qt.RightButton or bool(modifiers & Qt.ShiftModifier)
        self._stroke, self._seen, self._stamps, self._blocks = [], set(), {}, set()
        self._solid = _solid_cells(self.brush_grids(), self._grid()) if self._art is None else set()
        self._anchor = self._cell(pos)
        self._last = QPointF(pos)
        self._add_cells([self._cell(pos)])
        self._show_stroke(pos)
        self.update_hint()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        self._hover = QPointF(pos)
        if not self.painting:
            self._show_brush(pos)
            return
        self._add_cells(self._cells_between(self._last, pos))
        self._last = QPointF(pos)
        self._show_stroke(pos)

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != self._button:
            return
        self._add_cells(self._cells_between(self._last, pos))
        stroke, erasing, stamps, art = list(self._stroke), self._erasing, dict(self._stamps), self._art
        self.cancel()
        if art is not None:
            if erasing:
                self.erase_tiles(stroke, art[1])
            else:
                self.stamp(stamps, art[1])
        elif erasing:
            self.erase(stroke)
        else:
            self.paint(stroke)
        self._show_brush(pos)

    def cancel(self) -> None:
        """Drop the stroke under way, if any: the level is not changed."""
        self._button = Qt.NoButton
        self._stroke, self._seen, self._stamps, self._blocks = [], set(), {}, set()
        self._solid = set()
        self._last = None
        self.preview.hide()
        self._hide_tiles()
        self.update_hint()

    # -- Undo during a stroke, and the hint ------------------------------------------
    def in_gesture(self) -> bool:
        return self.painting

    def cancel_gesture(self) -> None:
        self.cancel()

    def current_hint(self) -> str:
        if self.painting:
            what = "erase" if self._erasing else "paint"
            return f"Tile brush: drag over the cells to {what} and release; Esc or Ctrl+Z cancels the stroke."
        if self.picked_art() is not None:
            return self.art_hint
        if self._grid() is None:
            return "Tile brush: the level has no grid to paint on; give it a grid size first."
        return self.hint

    # -- flipping and turning the pick -----------------------------------------------
    def transform_pick(self, how: str) -> bool:
        """Flip the pick (``"x"``, ``"y"``) or turn it (``"cw"``, ``"ccw"``); False when there is no pick."""
        art = self.picked_art()
        if art is None or self.painting:
            return False
        pick = art[0]
        turned = {"x": pick.flipped_x, "y": pick.flipped_y, "cw": pick.turned,
                  "ccw": lambda: pick.turned(False)}[how]()
        self.editor.set_tile_pick(turned)
        return True

    def _pick_changed(self) -> None:
        self.update_hint()
        if self.painting or self._hover is None or self.editor.scene.tool is not self:
            return
        self._show_brush(self._hover)

    # -- changing the level ----------------------------------------------------------
    def paint(self, cells: Sequence[Cell]) -> int:
        """Make ``cells`` (level grid cells, in stroke order) solid in one undo step; returns how many became so."""
        grid = self._grid()
        if grid is None or not cells:
            return 0
        doc = self.editor.document
        grids = self._plain_grids()
        solid = _solid_cells(grids, grid)
        new_cells = [c for c in cells if c not in solid]
        if not new_cells:
            return 0
        text = f"Paint {plural(len(new_cells), 'tile')}"
        target = next((t for c in cells for t in grids if _near(t, c, grid)), None)
        if self._too_wide(new_cells, target, grid):
            return 0
        if target is None:
            tiles = Tiles(doc.new_id("tiles"), (0, 0), grid, ())
            tiles = self.editor.on_current_layer(tiles.with_cells({c: True for c in new_cells}))
            self.push(AddObjectsCommand(doc, [tiles], text))
        else:
            ox, oy = _offset(target, grid)
            painted = target.with_cells({(i - ox, j - oy): True for i, j in new_cells})
            self.push(ChangeObjectsCommand(doc, [target], [painted], text))
        return len(new_cells)

    def _too_wide(self, cells: Sequence[Cell], target: Optional[Tiles], cell: float) -> bool:
        """Whether painting ``cells`` into ``target`` (a new grid: None) would make a grid of more than
        :data:`MAX_GRID_CELLS` cells; if so, the designer is told and nothing is painted."""
        columns, rows = _span(cells, target, cell)
        if columns * rows <= MAX_GRID_CELLS:
            return False
        self.editor.message.emit(
            f"Nothing painted: the tile grid would span {columns:,} × {rows:,} cells, more than "
            f"{MAX_GRID_CELLS:,}. Paint in smaller strokes, or start a new grid further away.")
        return True

    def stamp(self, stamps: dict[Cell, int], tileset: Tileset) -> int:
        """Paint ``stamps`` (tileset cells -> painted cell) in one undo step; returns how many cells changed.

        They go into the first painted grid of the tileset near them (or a new one); a cell already holding the
        same tile, flipped the same way, in any of the brush grids is left as it is.
        """
        if not stamps:
            return 0
        cell = self.art_cell(tileset)
        doc = self.editor.document
        grids = self._art_grids(tileset)
        held = _painted_cells(grids, cell)
        new = {c: v for c, v in stamps.items() if held.get(c) != v}
        if not new:
            return 0
        text = f"Paint {plural(len(new), 'tile')}"
        target = next((t for c in stamps for t in grids if _near(t, c, cell)), None)
        if self._too_wide(list(new), target, cell):
            return 0
        if target is None:
            tiles = Tiles(doc.new_id("tiles"), (0, 0), cell, (), tileset=tileset.id, tiles=())
            tiles = self.editor.on_current_layer(tiles.with_tiles(new))
            self.push(AddObjectsCommand(doc, [tiles], text))
        else:
            ox, oy = _offset(target, cell)
            painted = target.with_tiles({(i - ox, j - oy): v for (i, j), v in new.items()})
            self.push(ChangeObjectsCommand(doc, [target], [painted], text))
        return len(new)

    def erase(self, cells: Iterable[Cell]) -> int:
        """Make ``cells`` empty in every brush grid in one undo step; returns how many were solid."""
        grid = self._grid()
        if grid is None:
            return 0
        return self._erase_in(self._plain_grids(), set(cells), grid,
                              lambda t, hits: t.with_cells({c: False for c in hits}))

    def erase_tiles(self, cells: Iterable[Cell], tileset: Tileset) -> int:
        """Clear ``cells`` (tileset cells) in the current layer's painted grids of ``tileset``, in one undo step."""
        return self._erase_in(self._art_grids(tileset), set(cells), self.art_cell(tileset),
                              lambda t, hits: t.with_tiles({c: NO_TILE for c in hits}))

    def _erase_in(self, grids: Sequence[Tiles], wanted: set[Cell], grid: float, cleared) -> int:
        doc = self.editor.document
        erased: set[Cell] = set()
        old, new, emptied = [], [], []
        for t in grids:
            ox, oy = _offset(t, grid)
            hits = {(i, j) for i, j in wanted if t.is_solid(i - ox, j - oy)}
            if not hits:
                continue
            erased |= hits
            left = cleared(t, {(i - ox, j - oy) for i, j in hits})
            if left.cells:
                old.append(t)
                new.append(left)
            else:
                emptied.append(t.id)
        if not erased:
            return 0
        text = f"Erase {plural(len(erased), 'tile')}"
        steps: list[QUndoCommand] = []
        if old:
            steps.append(ChangeObjectsCommand(doc, old, new, text))
        if emptied:
            steps.append(RemoveObjectsCommand(doc, emptied, text))
        self.push(steps[0] if len(steps) == 1 else StepsCommand(text, steps))
        return len(erased)

    def brush_grids(self) -> list[Tiles]:
        """The tile grids the brush works on: with a pick, the current layer's painted grids of the picked tileset
        (see :meth:`_art_grids`); without, the current layer's plain grids of the level's cell size, on its grid."""
        art = self._art if self.painting else self.picked_art()
        return self._art_grids(art[1]) if art is not None else self._plain_grids()

    def _plain_grids(self) -> list[Tiles]:
        grid = self._grid()
        if grid is None:
            return []
        layer = self.editor.current_layer
        return [o for o in self.editor.document.objects
                if isinstance(o, Tiles) and o.layer == layer and not o.painted and _fits(o, grid)]

    def _art_grids(self, tileset: Tileset) -> list[Tiles]:
        """The current layer's painted grids of ``tileset`` whose cells are its tile width, lined up from (0, 0)."""
        cell = self.art_cell(tileset)
        layer = self.editor.current_layer
        return [o for o in self.editor.document.objects
                if isinstance(o, Tiles) and o.layer == layer and o.tileset == tileset.id and _fits(o, cell)]

    # -- cells -----------------------------------------------------------------------
    def art_cell(self, tileset: Tileset) -> float:
        """The side of the cells tiles of ``tileset`` are painted in: its tile width; a collection's pictures (each
        its own size) in the level's grid, as Tiled paints them in the map's cells, each drawn from the bottom-left
        corner of its cell."""
        grid = self.editor.document.level.grid
        return float(grid) if tileset.is_collection and grid and grid > 0 else tileset.tile_size.x

    def _grid(self) -> Optional[float]:
        return self.editor.snapper.grid()

    def _size(self) -> Optional[float]:
        """The side of the cells a stroke covers: the picked tileset's tile width, else the level's grid."""
        art = self._art if self.painting else self.picked_art()
        return self.art_cell(art[1]) if art is not None else self._grid()

    def _cell(self, pos: QPointF) -> Cell:
        g = self._size()
        return math.floor(clamp_coordinate(pos.x()) / g), math.floor(clamp_coordinate(pos.y()) / g)

    def _cells_between(self, a: QPointF, b: QPointF) -> list[Cell]:
        """The cells under the segment from ``a`` to ``b``, in order (a fast drag skips none).

        At most :data:`MAX_STROKE_STEPS` samples: a jump across half the level (the
        cursor leaving and coming back far away) paints a dotted line, not a memory error.
        """
        g = self._size()
        a, b = clamped_point(a), clamped_point(b)
        steps = max(1, min(MAX_STROKE_STEPS, math.ceil(math.hypot(b.x() - a.x(), b.y() - a.y()) / (g / 4))))
        return [self._cell(QPointF(a.x() + (b.x() - a.x()) * k / steps, a.y() + (b.y() - a.y()) * k / steps))
                for k in range(1, steps + 1)]

    def _add_cells(self, cells: Iterable[Cell]) -> None:
        for c in cells:
            if c not in self._seen:
                self._seen.add(c)
                self._stroke.append(c)
                if self._art is not None and not self._erasing:
                    self._stamp_at(c)

    def _stamp_at(self, c: Cell) -> None:
        """Stamp the pick on the block of the stroke's pattern that holds cell ``c`` (once per block)."""
        pick = self._art[0]
        ax, ay = self._anchor
        block = (ax + (c[0] - ax) // pick.columns * pick.columns, ay + (c[1] - ay) // pick.rows * pick.rows)
        if block not in self._blocks:
            self._blocks.add(block)
            self._stamps.update(_stamp(pick, *block))

    # -- what the canvas shows -------------------------------------------------------
    def _cells_path(self, cells: Iterable[Cell]) -> QPainterPath:
        g = self._size()
        path = QPainterPath()
        for i, j in cells:
            path.addRect(QRectF(i * g, j * g, g, g))
        return path.simplified()

    def _show_stroke(self, pos: QPointF) -> None:
        if self._art is not None and not self._erasing:
            n = len(self._stamps)
            self.preview.show(self._cells_path(self._stamps), pos, f"paint {plural(n, 'tile')}")
            self._color_preview()
            self._show_tiles(self._stamps, self._art[1])
            return
        solid = self._solid
        if self._erasing:
            n = sum(c in solid for c in self._stroke)
            text = f"erase {plural(n, 'tile')}"
        else:
            n = sum(c not in solid for c in self._stroke)
            text = f"paint {plural(n, 'tile')}"
        self.preview.show(self._cells_path(self._stroke), pos, text)
        self._color_preview()

    def _show_brush(self, pos: QPointF) -> None:
        """The cell under the cursor (with a pick: the picked tiles there), before a stroke."""
        art = self.picked_art()
        if art is None and self._grid() is None:
            return
        if art is None:
            self._hide_tiles()
            self.preview.show(self._cells_path([self._cell(pos)]), pos, "")
        else:
            i, j = self._cell(pos)
            stamps = _stamp(art[0], i, j)
            self.preview.show(self._cells_path(stamps), pos, "")
            self._show_tiles(stamps, art[1])
        self._color_preview()

    def _hide_tiles(self) -> None:
        if shiboken6.isValid(self.tiles_preview):
            self.tiles_preview.hide()

    def _show_tiles(self, stamps: dict[Cell, int], tileset: Tileset) -> None:
        if not shiboken6.isValid(self.tiles_preview):  # the scene was cleared under the tool
            self.tiles_preview = TilesPreview()
        preview = self.tiles_preview
        if preview.scene() is not self.editor.scene:
            self.editor.scene.addItem(preview)
        cell = self.art_cell(tileset)
        grid = Tiles("preview", (0, 0), cell, (), tileset=tileset.id).with_tiles(stamps)
        object.__setattr__(grid, "art", tileset)  # drawn, never added to the level: no level binds it
        preview.set_grid(grid, self.editor.document.folder)

    def _color_preview(self) -> None:
        item = self.preview.shape_item
        if item is not None:
            item.setPen(outline_pen(ERASE_COLOR) if self._erasing and self.painting else outline_pen())
            art = self._art if self.painting else self.picked_art()
            if art is not None and not (self.painting and self._erasing):
                item.setBrush(Qt.NoBrush)  # the tiles themselves show what is painted, untinted
            else:
                item.setBrush(fill_brush())


#: How opaque the tiles about to be painted are drawn over the level.
PREVIEW_OPACITY = 0.6


class TilesPreview(QGraphicsItem):
    """The picked tiles under the brush, drawn half see-through with the canvas's own tile painter."""

    def __init__(self):
        super().__init__()
        self.grid: Optional[Tiles] = None
        self._folder: Optional[str] = None
        self.setZValue(PREVIEW_Z - 1)
        self.setAcceptedMouseButtons(Qt.NoButton)
        mark_editor_only(self)

    def set_grid(self, grid: Tiles, folder: Optional[str]) -> None:
        self.prepareGeometryChange()
        self.grid, self._folder = grid, folder
        self.setPos(grid.origin.x, grid.origin.y)
        self.show()
        self.update()

    @guarded("drawing the tile brush's preview", default=QRectF())
    def boundingRect(self) -> QRectF:
        grid = self.grid
        if grid is None or grid.art is None:
            return QRectF()
        size = grid.art.tile_size
        reach = max(size.x, size.y) + abs(grid.art.offset.x) + abs(grid.art.offset.y)
        return QRectF(-reach, -reach, grid.columns * grid.cell + 2 * reach, grid.rows * grid.cell + 2 * reach)

    @guarded("drawing the tile brush's preview")
    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.grid is None:
            return
        painter.setOpacity(PREVIEW_OPACITY)
        paint_tiles(painter, self.grid, self._folder)


def _stamp(pick: TilePick, x: int, y: int) -> dict[Cell, int]:
    """The cells the pick paints with its top-left cell at ``(x, y)`` (its -1 cells paint nothing)."""
    return {(x + c, y + r): v for r, row in enumerate(pick.cells) for c, v in enumerate(row) if v != NO_TILE}


def _painted_cells(grids: Iterable[Tiles], cell: float) -> dict[Cell, int]:
    """Every tileset cell painted in one of ``grids``, with what it holds."""
    held: dict[Cell, int] = {}
    for t in grids:
        ox, oy = _offset(t, cell)
        for row, line in enumerate(t.tiles):
            for col, v in enumerate(line):
                if v != NO_TILE:
                    held.setdefault((col + ox, row + oy), v)
    return held


def _fits(tiles: Tiles, grid: float) -> bool:
    """``tiles`` has cells of side ``grid`` lined up with the level's grid."""
    if abs(tiles.cell - grid) > 1e-9 * grid:
        return False
    return all(abs(v / grid - round(v / grid)) < 1e-6 for v in (tiles.origin.x, tiles.origin.y))


def _offset(tiles: Tiles, grid: float) -> Cell:
    """The level grid cell of the grid's cell ``(0, 0)``."""
    return round(tiles.origin.x / grid), round(tiles.origin.y / grid)


def _near(tiles: Tiles, cell: Cell, grid: float) -> bool:
    """``cell`` is inside the grid's bounds grown by one cell."""
    ox, oy = _offset(tiles, grid)
    col, row = cell[0] - ox, cell[1] - oy
    return -1 <= col <= tiles.columns and -1 <= row <= tiles.rows


def _span(cells: Sequence[Cell], tiles: Optional[Tiles], grid: float) -> tuple[int, int]:
    """Columns and rows of the smallest grid holding ``cells`` and ``tiles``' whole extent."""
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    if tiles is not None and tiles.cells:
        ox, oy = _offset(tiles, grid)
        cols += [ox, ox + tiles.columns - 1]
        rows += [oy, oy + tiles.rows - 1]
    return max(cols) - min(cols) + 1, max(rows) - min(rows) + 1


def _solid_cells(grids: Iterable[Tiles], grid: float) -> set[Cell]:
    """Every level grid cell that is solid in one of ``grids``."""
    solid = set()
    for t in grids:
        ox, oy = _offset(t, grid)
        for row, line in enumerate(t.cells):
            for col, ch in enumerate(line):
                if ch == SOLID_CELL:
                    solid.add((col + ox, row + oy))
    return solid
