"""Asks how a picture is cut into tiles (tile width and height, margin, spacing) and says how many tiles that makes."""
from __future__ import annotations

import os

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QWidget

from level_editor.core.level.art import columns_of

#: The largest tile side and margin the dialog takes (a picture Qt reads is smaller than this anyway).
MAX_SIDE = 16384


class AddTilesetDialog(QDialog):
    """Tile size (prefilled with the level's grid), margin and spacing for the picture ``path`` of ``size``."""

    def __init__(self, path: str, size: QSize, grid: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Add Tileset")
        self.picture_size = size
        form = QFormLayout(self)
        form.addRow("Picture:", QLabel(f"{os.path.basename(path)} ({size.width()} × {size.height()} px)"))
        self.tile_width = self._spin(grid, 1)
        self.tile_height = self._spin(grid, 1)
        self.margin = self._spin(0, 0)
        self.spacing = self._spin(0, 0)
        form.addRow("Tile &width:", self.tile_width)
        form.addRow("Tile &height:", self.tile_height)
        form.addRow("&Margin:", self.margin)
        form.addRow("&Spacing:", self.spacing)
        self.count_label = QLabel()
        form.addRow("Tiles:", self.count_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self._update_count()

    def _spin(self, value: int, least: int) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setRange(least, MAX_SIDE)
        spin.setValue(max(least, value))
        spin.setSuffix(" px")
        spin.valueChanged.connect(self._update_count)
        return spin

    def grid_size(self) -> tuple[int, int]:
        """Columns and rows of whole tiles the picture holds with the values typed."""
        m, s = self.margin.value(), self.spacing.value()
        return (columns_of(self.picture_size.width(), self.tile_width.value(), m, s),
                columns_of(self.picture_size.height(), self.tile_height.value(), m, s))

    def _update_count(self) -> None:
        columns, rows = self.grid_size()
        if columns * rows:
            self.count_label.setText(f"{columns} × {rows} = {columns * rows} tiles")
        else:
            self.count_label.setText("No whole tile fits: make the tiles smaller.")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(columns * rows > 0)

    def values(self) -> tuple[tuple[int, int], int, int]:
        """``((tile width, tile height), margin, spacing)``."""
        return ((self.tile_width.value(), self.tile_height.value()), self.margin.value(), self.spacing.value())
