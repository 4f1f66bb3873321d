"""Paint and erase solid cells of tile grids on the level's grid (T)."""
from __future__ import annotations

import math
from typing import Iterable, Optional, Sequence

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QUndoCommand

from level_editor.core.level.kinds import plural
from level_editor.core.level.limits import MAX_TILE_CELLS
from level_editor.core.level.model import SOLID_CELL, Tiles
from level_editor.editor.commands.objects import AddObjectsCommand, ChangeObjectsCommand, RemoveObjectsCommand
from level_editor.editor.canvas.snapping import clamp_coordinate, clamped_point
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.commands.properties import StepsCommand
from level_editor.editor.tools.preview import ShapePreview, outline_pen
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
    """Left button paints solid cells, right button (or Shift with the left) erases them.

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
    """

    name = "Tile Brush"
    shortcut = "T"
    icon_name = "tool-tiles"
    hint = "Tile brush: drag to paint solid cells on the grid; right button or Shift erases (Esc cancels a stroke)."
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._stroke: list[Cell] = []  # cells in the order the brush met them, each once
        self._seen: set[Cell] = set()
        self._erasing = False
        self._button = Qt.NoButton
        self._last: Optional[QPointF] = None
        self._solid: set[Cell] = set()  # the brush grids' solid cells when the stroke began, for the preview
        self.preview = ShapePreview(editor.scene)

    @property
    def painting(self) -> bool:
        """A stroke is under way."""
        return self._button != Qt.NoButton

    # -- the stroke ------------------------------------------------------------------
    def deactivate(self) -> None:
        self.cancel()
        self.preview.remove()

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self.painting or button not in (Qt.LeftButton, Qt.RightButton):
            return
        if self._grid() is None:
            self.editor.message.emit("The level has no grid to paint on: give it a grid size first.")
            return
        if self.editor.current_layer_locked():
            return
        self._button = button
        self._erasing = button == Qt.RightButton or bool(modifiers & Qt.ShiftModifier)
        self._stroke, self._seen = [], set()
        self._solid = _solid_cells(self.brush_grids(), self._grid())
        self._last = QPointF(pos)
        self._add_cells([self._cell(pos)])
        self._show_stroke(pos)
        self.update_hint()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
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
        stroke, erasing = list(self._stroke), self._erasing
        self.cancel()
        if erasing:
            self.erase(stroke)
        else:
            self.paint(stroke)
        self._show_brush(pos)

    def cancel(self) -> None:
        """Drop the stroke under way, if any: the level is not changed."""
        self._button = Qt.NoButton
        self._stroke, self._seen = [], set()
        self._solid = set()
        self._last = None
        self.preview.hide()
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
        if self._grid() is None:
            return "Tile brush: the level has no grid to paint on; give it a grid size first."
        return self.hint

    # -- changing the level ----------------------------------------------------------
    def paint(self, cells: Sequence[Cell]) -> int:
        """Make ``cells`` (level grid cells, in stroke order) solid in one undo step; returns how many became so."""
        grid = self._grid()
        if grid is None or not cells:
            return 0
        doc = self.editor.document
        grids = self.brush_grids()
        solid = _solid_cells(grids, grid)
        new_cells = [c for c in cells if c not in solid]
        if not new_cells:
            return 0
        text = f"Paint {plural(len(new_cells), 'tile')}"
        target = next((t for c in cells for t in grids if _near(t, c, grid)), None)
        columns, rows = _span(new_cells, target, grid)
        if columns * rows > MAX_GRID_CELLS:
            self.editor.message.emit(
                f"Nothing painted: the tile grid would span {columns:,} × {rows:,} cells, more than "
                f"{MAX_GRID_CELLS:,}. Paint in smaller strokes, or start a new grid further away.")
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

    def erase(self, cells: Iterable[Cell]) -> int:
        """Make ``cells`` empty in every brush grid in one undo step; returns how many were solid."""
        grid = self._grid()
        if grid is None:
            return 0
        doc = self.editor.document
        wanted = set(cells)
        erased: set[Cell] = set()
        old, new, emptied = [], [], []
        for t in self.brush_grids():
            ox, oy = _offset(t, grid)
            hits = {(i, j) for i, j in wanted if t.is_solid(i - ox, j - oy)}
            if not hits:
                continue
            erased |= hits
            left = t.with_cells({(i - ox, j - oy): False for i, j in hits})
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
        """The tile grids the brush works on: the current layer's, of the level's cell size, on its grid."""
        grid = self._grid()
        if grid is None:
            return []
        layer = self.editor.current_layer
        return [o for o in self.editor.document.objects
                if isinstance(o, Tiles) and o.layer == layer and _fits(o, grid)]

    # -- cells -----------------------------------------------------------------------
    def _grid(self) -> Optional[float]:
        return self.editor.snapper.grid()

    def _cell(self, pos: QPointF) -> Cell:
        g = self._grid()
        return math.floor(clamp_coordinate(pos.x()) / g), math.floor(clamp_coordinate(pos.y()) / g)

    def _cells_between(self, a: QPointF, b: QPointF) -> list[Cell]:
        """The cells under the segment from ``a`` to ``b``, in order (a fast drag skips none).

        At most :data:`MAX_STROKE_STEPS` samples: a jump across half the level (the
        cursor leaving and coming back far away) paints a dotted line, not a memory error.
        """
        g = self._grid()
        a, b = clamped_point(a), clamped_point(b)
        steps = max(1, min(MAX_STROKE_STEPS, math.ceil(math.hypot(b.x() - a.x(), b.y() - a.y()) / (g / 4))))
        return [self._cell(QPointF(a.x() + (b.x() - a.x()) * k / steps, a.y() + (b.y() - a.y()) * k / steps))
                for k in range(1, steps + 1)]

    def _add_cells(self, cells: Iterable[Cell]) -> None:
        for c in cells:
            if c not in self._seen:
                self._seen.add(c)
                self._stroke.append(c)

    # -- what the canvas shows -------------------------------------------------------
    def _cells_path(self, cells: Iterable[Cell]) -> QPainterPath:
        g = self._grid()
        path = QPainterPath()
        for i, j in cells:
            path.addRect(QRectF(i * g, j * g, g, g))
        return path.simplified()

    def _show_stroke(self, pos: QPointF) -> None:
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
        """The cell under the cursor, before a stroke."""
        if self._grid() is None:
            return
        self.preview.show(self._cells_path([self._cell(pos)]), pos, "")
        self._color_preview()

    def _color_preview(self) -> None:
        item = self.preview.shape_item
        if item is not None:
            item.setPen(outline_pen(ERASE_COLOR) if self._erasing and self.painting else outline_pen())


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
