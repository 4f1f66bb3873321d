"""The tiles picked in the Tilesets dock: what the tile brush paints and the sprite tool places.

A pick is a block of painted cells of one tileset (a tile, or a rectangle of tiles), each with its flip flags
(:mod:`level_editor.core.level.art`). X, Y and Z flip and turn the whole block, as Tiled's stamp does: the
cells change places and each cell is flipped or turned with it.

>>> from level_editor.core.level.art import FLIP_X
>>> pick = TilePick("ground", ((0, 1),))
>>> pick.flipped_x().cells == ((1 | FLIP_X, 0 | FLIP_X),)
True
>>> pick.turned().cells == ((turned(0),), (turned(1),))
True
>>> pick.turned().turned().turned().turned() == pick
True
"""
from __future__ import annotations

from dataclasses import dataclass

from level_editor.core.level.art import NO_TILE, flipped_x, flipped_y, turned

__all__ = ["TilePick"]


@dataclass(frozen=True)
class TilePick:
    """A block of painted cells of the tileset ``tileset`` (rows top to bottom; -1 leaves a cell as it is)."""

    tileset: str
    cells: tuple[tuple[int, ...], ...]

    @property
    def columns(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def first(self) -> int:
        """The top-left cell (what the sprite tool places)."""
        return self.cells[0][0] if self.cells else NO_TILE

    def flipped_x(self) -> "TilePick":
        """Mirrored left to right (X)."""
        return TilePick(self.tileset, tuple(tuple(flipped_x(v) for v in reversed(row)) for row in self.cells))

    def flipped_y(self) -> "TilePick":
        """Upside down (Y)."""
        return TilePick(self.tileset, tuple(tuple(flipped_y(v) for v in row) for row in reversed(self.cells)))

    def turned(self, clockwise: bool = True) -> "TilePick":
        """Turned a quarter, clockwise on screen (Z) or the other way (Shift+Z)."""
        rows, cols = self.rows, self.columns
        if clockwise:  # the new row i is the old column i read bottom to top
            cells = tuple(tuple(turned(self.cells[rows - 1 - j][i]) for j in range(rows)) for i in range(cols))
        else:  # the new row i is the old column (cols - 1 - i) read top to bottom
            cells = tuple(tuple(turned(self.cells[j][cols - 1 - i], False) for j in range(rows)) for i in range(cols))
        return TilePick(self.tileset, cells)
