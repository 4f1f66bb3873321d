"""The Tilesets dock, as Tiled's: the level's tilesets, each picture cut into its tiles; picking tiles for the
tile brush; adding and removing tilesets; the collision shape of a tile.

Every change is an undo command (editor/commands/tilesets.py); the dock only shows the document and the pick
(:attr:`EditorContext.tile_pick`).
"""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QAction, QImageReader
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFileDialog, QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton,
    QScrollArea, QSplitter, QToolButton, QVBoxLayout, QWidget,
)

from level_editor.core.level.art import Tileset
from level_editor.core.level.document import Change, ChangeKind
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.canvas.tile_pick import TilePick
from level_editor.editor.commands.tilesets import (
    COLLISION_CHOICES, add_tileset_command, collision_choice_of, collision_shapes_for, new_tileset,
    TileProperties, remove_tileset_command, set_tile_collision_command, set_tile_type_command,
)
from level_editor.editor.documents.reference_images import dropped_pictures
from level_editor.editor.painting.pictures import full_path, load_picture
from level_editor.editor.panels.add_tileset_dialog import AddTilesetDialog
from level_editor.editor.panels.properties_table import PropertiesTable
from level_editor.editor.panels.tileset_view import Block, TilesetView
from level_editor.editor.support.subscriptions import subscribe_while_alive

#: The zooms the dock offers, in percent.
ZOOMS = (50, 100, 200, 300, 400)

#: The pictures the file dialog lists.
PICTURE_FILTER = "Pictures (*.png *.jpg *.jpeg *.bmp *.gif);;All files (*)"


class TilesetsPanel(QWidget):
    """The dock's widget: a tileset chooser, the tiles to pick from, and the picked tile's collision."""

    #: Tiles were picked (or "Solid cells" chosen): the window takes up the tile brush.
    tiles_picked = Signal()

    def __init__(self, context: EditorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.document = context.document
        self.setAcceptDrops(True)

        self.add_action = QAction("Add &Tileset…", self)
        self.add_action.setToolTip("Add a tileset: a picture cut into tiles")
        self.add_action.triggered.connect(lambda: self.add_tileset())
        self.remove_action = QAction("Remove Tileset", self)
        self.remove_action.setToolTip("Remove the tileset shown (refused while tile grids or sprites use it)")
        self.remove_action.triggered.connect(self.remove_tileset)
        # short on the dock's buttons, which share a narrow column (the menu says it whole)
        self.add_action.setIconText("Add…")
        self.remove_action.setIconText("Remove")

        self.combo = QComboBox(self)
        self.combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.combo.currentIndexChanged.connect(self._show_current)
        add_button = QToolButton(self)
        add_button.setDefaultAction(self.add_action)
        remove_button = QToolButton(self)
        remove_button.setDefaultAction(self.remove_action)
        top = QHBoxLayout()
        top.addWidget(self.combo, 1)
        top.addWidget(add_button)
        top.addWidget(remove_button)

        self.solid_button = QPushButton("Solid cells", self)
        self.solid_button.setCheckable(True)
        self.solid_button.setToolTip("The tile brush paints plain solid cells (#), as without a tileset")
        self.solid_button.clicked.connect(self.pick_solid_cells)
        self.zoom_combo = QComboBox(self)
        self.zoom_combo.addItems([f"{z}%" for z in ZOOMS])
        self.zoom_combo.setCurrentIndex(ZOOMS.index(100))
        self.zoom_combo.currentIndexChanged.connect(lambda i: self.view.set_zoom(ZOOMS[i] / 100))
        self.collision_check = QCheckBox("Show collision", self)
        self.collision_check.setChecked(True)
        self.collision_check.toggled.connect(self._show_collision)
        options = QHBoxLayout()
        options.addWidget(self.solid_button)
        options.addWidget(self.collision_check)
        options.addStretch(1)
        self.zoom_combo.setToolTip("Zoom of the tiles")  # no label: the dock's column is narrow
        options.addWidget(self.zoom_combo)

        self.view = TilesetView()
        self.view.picked.connect(self._picked)
        self.scroll = QScrollArea(self)
        self.scroll.setWidget(self.view)
        self.scroll.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.scroll.setMinimumHeight(96)
        self.scroll.viewport().installEventFilter(self)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextSelectableByMouse)

        # everything scrolls when the dock is made small (it shares its column with Objects and History, which
        # must not push the Properties dock into scrolling)
        content = QWidget(self)
        outer = self.outer_scroll = QScrollArea(self)
        outer.setWidget(content)
        outer.setWidgetResizable(True)
        outer.setFrameShape(QFrame.NoFrame)
        outer_layout = QVBoxLayout(self)
        outer_layout.setContentsMargins(0, 0, 0, 0)
        outer_layout.addWidget(outer)
        layout = QVBoxLayout(content)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(options)
        # the tiles above, the picked tile's collision, type and properties below; the designer moves the line
        self.splitter = QSplitter(Qt.Vertical, self)
        tiles = QWidget(self.splitter)
        tiles_layout = QVBoxLayout(tiles)
        tiles_layout.setContentsMargins(0, 0, 0, 0)
        tiles_layout.addWidget(self.scroll, 1)
        tiles_layout.addWidget(self.message)
        self.splitter.addWidget(tiles)
        self.splitter.addWidget(self._build_collision())
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(True)  # drag the line down: all the room for the tiles
        layout.addWidget(self.splitter, 1)

        subscribe_while_alive(self.document, self, self._on_change)
        context.tile_pick_changed.connect(self._pick_changed)
        self._fill()

    def fitting_width(self) -> int:
        """The narrowest this panel can be without scrolling sideways at its font (room for a scroll bar kept)."""
        outer = self.outer_scroll
        return (outer.widget().minimumSizeHint().width() + outer.verticalScrollBar().sizeHint().width()
                + 2 * outer.frameWidth())

    def _build_collision(self) -> QGroupBox:
        box = self.collision_box = QGroupBox("Tile (pick one)", self)
        box.setToolTip("The picked tile's collision shape, type and properties (pick a tile above)")
        grid = QGridLayout(box)
        self.collision_combo = QComboBox(box)
        self.collision_combo.addItems(COLLISION_CHOICES)
        self.collision_combo.activated.connect(self._collision_chosen)
        grid.addWidget(QLabel("Collision:", box), 0, 0)
        grid.addWidget(self.collision_combo, 0, 1, 1, 4)
        self.rect_fields = []
        self._fields_for: Optional[tuple[str, int]] = None  # the tile the rectangle's fields were filled for
        for i, name in enumerate(("x", "y", "w", "h")):
            field = QLineEdit(box)
            field.setPlaceholderText(name)
            field.setToolTip(f"The rectangle's {name}, in the tile's pixels")
            field.returnPressed.connect(self.apply_rectangle)
            grid.addWidget(field, 1, i)
            self.rect_fields.append(field)
        self.rect_button = QPushButton("Set", box)
        self.rect_button.setToolTip("Give the tile the rectangle typed (x, y, width, height in its pixels)")
        self.rect_button.clicked.connect(self.apply_rectangle)
        grid.addWidget(self.rect_button, 1, 4)
        self.collision_message = QLabel(box)
        self.collision_message.setWordWrap(True)
        grid.addWidget(self.collision_message, 2, 0, 1, 5)
        self.type_field = QLineEdit(box)
        self.type_field.setPlaceholderText("the game's name for this tile")
        self.type_field.editingFinished.connect(self._type_typed)
        grid.addWidget(QLabel("Type:", box), 3, 0)
        grid.addWidget(self.type_field, 3, 1, 1, 4)
        self.properties_table = PropertiesTable(self.document, None, box)
        self.properties_table.set_source(TileProperties(self.context, self._picked_which))
        grid.addWidget(self.properties_table, 4, 0, 1, 5)
        return box

    def _picked_which(self) -> Optional[tuple[str, int]]:
        ts, tile = self.current_tileset(), self.picked_tile()
        return (ts.id, tile) if ts is not None and tile is not None else None

    def _type_typed(self) -> None:
        ts, tile = self.current_tileset(), self.picked_tile()
        if ts is None or tile is None:
            return
        text = self.type_field.text().strip()
        if text != ts.info(tile).type:
            self.context.push(set_tile_type_command(self.document, ts.id, tile, text))

    # -- what it shows ---------------------------------------------------------------
    def current_tileset(self) -> Optional[Tileset]:
        tileset_id = self.combo.currentData()
        return self.document.level.tileset(tileset_id) if tileset_id else None

    def _on_change(self, change: Change) -> None:
        if change.kind in (ChangeKind.PROPERTIES, ChangeKind.RESET):
            self._fill()

    def _fill(self) -> None:
        """Fill the chooser with the level's tilesets, keeping the one shown when it is still there."""
        shown = self.combo.currentData()
        tilesets = self.document.level.tilesets
        self.combo.blockSignals(True)
        self.combo.clear()
        for ts in tilesets:
            self.combo.addItem(ts.name or ts.id, ts.id)
        at = self.combo.findData(shown)
        self.combo.setCurrentIndex(at if at >= 0 else (0 if tilesets else -1))
        self.combo.blockSignals(False)
        pick = self.context.tile_pick
        if pick is not None and self.document.level.tileset(pick.tileset) is None:
            self.context.set_tile_pick(None)
        self._show_current()

    def select_tileset(self, tileset_id: str) -> None:
        self.combo.setCurrentIndex(self.combo.findData(tileset_id))

    def _show_current(self) -> None:
        ts = self.current_tileset()
        self.remove_action.setEnabled(ts is not None)
        if ts is None:
            self.view.set_tileset(None, None)
            self.message.setText("No tilesets yet: Add Tileset… or drop a picture here.")
            self._update_collision()
            return
        folder = ts.folder or self.document.folder
        tile_pictures = None
        if ts.is_collection:
            picture, tile_pictures, missing = None, {}, []
            for tile, info in sorted(ts.tiles.items()):
                if info.image:
                    tile_pictures[tile], why = load_picture(full_path(info.image, folder), ts.transparent)
                    if tile_pictures[tile] is None:
                        missing.append(f"{info.image} ({why})")
            text = f"{ts.name}: a collection of {len(tile_pictures)} pictures"
            if missing:
                text += f"; {len(missing)} cannot be shown: " + ", ".join(missing[:3]) + (
                    ", …" if len(missing) > 3 else "")
            self.message.setText(text + ".")
        else:
            picture, why = load_picture(full_path(ts.image, folder), ts.transparent)
            if picture is None:
                self.message.setText(f"Tileset '{ts.name}': its picture {ts.image or '(none)'} cannot be shown "
                                     f"({why}).")
            else:
                self.message.setText(f"{ts.name}: {ts.count} tiles of {ts.tile_size.x:g} × {ts.tile_size.y:g} px")
        if self.view.tileset is None or self.view.tileset.id != ts.id:
            self.view.set_block(None)
        self.view.set_wrap_width(self.scroll.viewport().width())
        self.view.set_tileset(ts, picture, tile_pictures)
        pick = self.context.tile_pick
        if pick is None or pick.tileset != ts.id:
            self.view.set_block(None)
        self._update_collision()

    def _show_collision(self, on: bool) -> None:
        self.view.show_collision = on
        self.view.update()

    # -- picking ---------------------------------------------------------------------
    def _picked(self, block: Block) -> None:
        ts = self.current_tileset()
        if ts is None:
            return
        c0, r0, c1, r1 = block
        cells = tuple(tuple(self.view.tile_of(c, r) for c in range(c0, c1 + 1)) for r in range(r0, r1 + 1))
        self.context.set_tile_pick(TilePick(ts.id, cells))
        self.tiles_picked.emit()

    def pick_solid_cells(self) -> None:
        """The tile brush paints plain solid cells again."""
        self.context.set_tile_pick(None)
        self.view.set_block(None)
        self.tiles_picked.emit()

    def _pick_changed(self) -> None:
        pick = self.context.tile_pick
        self.solid_button.setChecked(pick is None)
        if pick is None:
            self.view.set_block(None)
        self._update_collision()

    def picked_tile(self) -> Optional[int]:
        """The one tile picked in the tileset shown (None: none, or a block of several)."""
        ts, block = self.current_tileset(), self.view.block
        if ts is None or block is None or block[:2] != block[2:]:
            return None
        tile = self.view.tile_of(block[0], block[1])
        return tile if tile >= 0 else None

    # -- collision -------------------------------------------------------------------
    def _update_collision(self) -> None:
        ts, tile = self.current_tileset(), self.picked_tile()
        self.collision_box.setEnabled(tile is not None)
        self.properties_table.refresh()
        if tile is None:
            self.collision_box.setTitle("Tile (pick one)")  # short: a group box is never narrower than its title
            self.type_field.setText("")
            return
        self.collision_box.setTitle(f"Tile {tile}")
        self.type_field.setText(ts.info(tile).type)
        shapes = ts.info(tile).collision
        size = ts.tile_picture_size(tile)
        choice = collision_choice_of(shapes, size)
        self.collision_combo.setCurrentIndex(COLLISION_CHOICES.index(choice) if choice else -1)
        if choice == "Rectangle":
            (x, y), (w, h) = shapes[0].points
            for field, v in zip(self.rect_fields, (x, y, w, h)):
                field.setText(f"{v:g}")
        elif not any(f.text() for f in self.rect_fields) or self._fields_for != (ts.id, tile):
            for field, v in zip(self.rect_fields, (0, 0, size.x, size.y)):
                field.setText(f"{v:g}")
        self._fields_for = (ts.id, tile)  # a tile of another size (a collection's) starts from its own size
        if not choice and shapes:
            self.collision_message.setText(f"{len(shapes)} shapes made elsewhere (in Tiled): a choice replaces them.")

    def _collision_chosen(self, index: int) -> None:
        choice = COLLISION_CHOICES[index]
        if choice == "Rectangle":
            self.apply_rectangle()
        else:
            self.set_collision(choice)

    def apply_rectangle(self) -> bool:
        """Give the picked tile the rectangle typed; refused, saying why, when it is not inside the tile."""
        try:
            rect = [float(f.text().strip()) for f in self.rect_fields]
        except ValueError:
            self.collision_message.setText("Type the rectangle's x, y, width and height as numbers.")
            return False
        return self.set_collision("Rectangle", rect)

    def set_collision(self, choice: str, rect=None) -> bool:
        ts, tile = self.current_tileset(), self.picked_tile()
        if ts is None or tile is None:
            return False
        try:
            shapes = collision_shapes_for(choice, ts.tile_picture_size(tile), rect)
        except ValueError as e:
            self.collision_message.setText(f"Tile {tile}: {e}.")
            self._update_collision()
            return False
        self.collision_message.setText("")
        self.context.push(set_tile_collision_command(self.document, ts.id, tile, shapes, choice))
        return True

    # -- adding and removing tilesets ------------------------------------------------
    def add_tileset(self, path: Optional[str] = None) -> Optional[Tileset]:
        """Ask for a picture (unless given) and how to cut it; add the tileset in one undo step."""
        if path is None:
            start = self.document.folder or ""
            path, _ = QFileDialog.getOpenFileName(self, "Add Tileset", start, PICTURE_FILTER)
            if not path:
                return None
        if not os.path.isfile(path):  # also keeps the reader off a named pipe, which would wait for a writer
            self.message.setText(f"Cannot add a tileset from {path}: there is no such file.")
            return None
        reader = QImageReader(path)
        size = reader.size()
        if not size.isValid() or size.isEmpty():
            self.message.setText(f"Cannot add a tileset from {path}: {reader.errorString()}.")
            return None
        grid = self.document.level.grid
        dialog = AddTilesetDialog(path, size, int(grid) if grid else 32, self)
        if dialog.exec() != AddTilesetDialog.Accepted:
            return None
        tile_size, margin, spacing = dialog.values()
        try:
            ts = new_tileset(path, self.document.folder, tile_size, (size.width(), size.height()), margin, spacing,
                             (t.id for t in self.document.level.tilesets))
        except ValueError as e:
            self.message.setText(f"Cannot add a tileset from {os.path.basename(path)}: {e}.")
            return None
        self.context.push(add_tileset_command(self.document, ts))
        self.select_tileset(ts.id)
        return ts

    def remove_tileset(self) -> bool:
        ts = self.current_tileset()
        if ts is None:
            return False
        try:
            command = remove_tileset_command(self.document, ts.id)
        except ValueError as e:
            text = f"Cannot remove: {e}."
            self.message.setText(text)
            self.context.message.emit(text)
            return False
        self.context.push(command)
        return True

    def eventFilter(self, watched, event) -> bool:
        if watched is self.scroll.viewport() and event.type() == QEvent.Resize:
            self.view.set_wrap_width(event.size().width())  # a collection's rows are as wide as the room
        return super().eventFilter(watched, event)

    def dragEnterEvent(self, event) -> None:
        if dropped_pictures(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        pictures = dropped_pictures(event.mimeData())
        if pictures:
            event.acceptProposedAction()
            self.add_tileset(pictures[0])
