"""The Tilesets dock in the window: adding a tileset through its dialog, picking tiles with the mouse, painting
them on the canvas, flipping the pick with X, Y, Z, setting a tile's collision, removing a tileset.

The picture is cut as Tiled's tmw_desert_spacing.png is: 265 x 199 px, 32 px tiles, margin 1, spacing 1, so
8 x 6 = 48 tiles. The level's grid is 32.
"""
from __future__ import annotations

import os
from dataclasses import replace

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from level_editor.core.collision.shapes import Rect
from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y, TileInfo, TileShape, Tileset
from level_editor.core.level.model import Level, Tiles
from level_editor.editor.canvas.tile_pick import TilePick
from level_editor.editor.panels.add_tileset_dialog import AddTilesetDialog
from tests.editor.helpers import drag, key, make_window, undo_texts

DESERT = Tileset("desert", "Desert", (32, 32), image="art/desert.png", image_size=(265, 199), margin=1, spacing=1,
                 columns=8, count=48)


def make_picture(path) -> str:
    """A 265 x 199 picture whose 32 px tiles (margin 1, spacing 1) each have their own colour."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    picture = QImage(265, 199, QImage.Format_ARGB32)
    picture.fill(QColor(0, 0, 0))
    for tile in range(48):
        x, y, w, h = DESERT.source_rect(tile)
        for px in range(x, x + w):
            for py in range(y, y + h):
                picture.setPixelColor(px, py, QColor(tile * 5, 255 - tile * 5, 100))
    picture.save(str(path))
    return str(path)


@pytest.fixture
def window(qtbot, tmp_path):
    make_picture(tmp_path / "art" / "desert.png")
    w = make_window(qtbot, tmp_path)
    w.set_level(Level(name="Test", grid=32), str(tmp_path / "level.json"))
    w.tilesets_dock.show()
    w.tilesets_dock.raise_()
    yield w
    w.undo_stack.clear()


def with_desert(window, tmp_path, tiles=None, objects=()):
    ts = DESERT if tiles is None else replace(DESERT, tiles=tiles)
    window.set_level(Level(name="Test", grid=32, tilesets=(ts,), objects=tuple(objects)), str(tmp_path / "level.json"))
    window.tilesets_dock.raise_()
    return window.tilesets_panel


def answer_dialog(qtbot, width="32", height="32", margin="1", spacing="1", seen=None):
    """Type into the Add Tileset dialog, as soon as it shows, and press OK (what it said goes into ``seen``)."""
    def fill():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, AddTilesetDialog):
            QTimer.singleShot(10, fill)
            return
        for spin, text in ((dialog.tile_width, width), (dialog.tile_height, height), (dialog.margin, margin),
                           (dialog.spacing, spacing)):
            spin.setFocus()
            spin.selectAll()
            QTest.keyClicks(spin, text)
        if seen is not None:
            seen.append(dialog.count_label.text())
        QTest.mouseClick(dialog.buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    QTimer.singleShot(0, fill)


def click_tile(panel, col, row):
    view = panel.view
    QTest.mouseClick(view, Qt.LeftButton, Qt.NoModifier, view.block_rect((col, row, col, row)).center())


# -- adding a tileset -------------------------------------------------------------------------------------
def test_add_tileset_asks_how_to_cut_the_picture_and_adds_it_in_one_step(window, tmp_path, qtbot, monkeypatch):
    picture = str(tmp_path / "art" / "desert.png")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (picture, "")))
    seen = []
    answer_dialog(qtbot, seen=seen)
    window.tilesets_panel.add_action.trigger()
    (ts,) = window.document.level.tilesets
    assert seen == ["8 × 6 = 48 tiles"]
    assert (ts.id, ts.image, ts.tile_size, ts.margin, ts.spacing) == ("desert", "art/desert.png", (32, 32), 1, 1)
    assert (ts.image_size, ts.columns, ts.count) == ((265, 199), 8, 48)
    assert undo_texts(window) == ["Add tileset 'desert'"]
    assert window.tilesets_panel.combo.currentText() == "desert"
    assert window.tilesets_panel.view.picture is not None
    window.undo_stack.undo()
    assert window.document.level.tilesets == () and window.tilesets_panel.combo.count() == 0
    window.undo_stack.redo()
    assert window.document.level.tilesets == (ts,)


def test_the_dialog_is_prefilled_with_the_grid_and_a_second_tileset_gets_its_own_id(window, tmp_path, qtbot,
                                                                                    monkeypatch):
    picture = str(tmp_path / "art" / "desert.png")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (picture, "")))
    seen = []

    def look():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, AddTilesetDialog):
            QTimer.singleShot(10, look)
            return
        seen.append((dialog.tile_width.value(), dialog.tile_height.value(), dialog.count_label.text()))
        dialog.buttons.button(QDialogButtonBox.Ok).click()
    for _ in range(2):
        QTimer.singleShot(0, look)
        window.tilesets_panel.add_action.trigger()
    assert seen[0] == (32, 32, "8 × 6 = 48 tiles")  # no margin yet: 265 // 32 across, 199 // 32 down
    assert [t.id for t in window.document.level.tilesets] == ["desert", "desert-2"]


def test_a_dropped_picture_adds_a_tileset(window, tmp_path, qtbot):
    picture = str(tmp_path / "art" / "desert.png")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(picture)])
    answer_dialog(qtbot)
    panel = window.tilesets_panel
    enter = QDragEnterEvent(QPoint(5, 5), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(panel, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(panel, QDropEvent(QPointF(5, 5), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert [t.id for t in window.document.level.tilesets] == ["desert"]


def test_a_picture_that_cannot_be_read_is_said_and_nothing_is_added(window, tmp_path, monkeypatch):
    bad = tmp_path / "art" / "broken.png"
    bad.write_bytes(b"not a picture")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(bad), "")))
    window.tilesets_panel.add_action.trigger()
    assert window.document.level.tilesets == ()
    assert "Cannot add a tileset from" in window.tilesets_panel.message.text()


def test_a_missing_tileset_picture_is_named_in_the_dock(window, tmp_path):
    window.set_level(Level(name="Test", grid=32, tilesets=(replace(DESERT, image="art/gone.png"),)),
                     str(tmp_path / "level.json"))
    panel = window.tilesets_panel
    assert panel.message.text() == "Tileset 'Desert': its picture art/gone.png cannot be shown (missing)."
    click_tile(panel, 0, 0)  # nothing to pick from, nothing breaks
    assert window.context.tile_pick is None


# -- picking ----------------------------------------------------------------------------------------------
def test_a_click_picks_a_tile_and_takes_up_the_tile_brush(window, tmp_path):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 2, 1)
    assert window.context.tile_pick == TilePick("desert", ((10,),))
    assert window.tool.name == "Tile Brush"
    assert not panel.solid_button.isChecked()


def test_a_drag_picks_a_block(window, tmp_path):
    panel = with_desert(window, tmp_path)
    view = panel.view
    start = view.block_rect((3, 2, 3, 2)).center()
    end = view.block_rect((1, 1, 1, 1)).center()
    QTest.mousePress(view, Qt.LeftButton, Qt.NoModifier, start)
    QTest.mouseMove(view, QPoint((start.x() + end.x()) // 2, start.y()))
    QTest.mouseMove(view, end)
    QTest.mouseRelease(view, Qt.LeftButton, Qt.NoModifier, end)
    assert window.context.tile_pick == TilePick("desert", ((9, 10, 11), (17, 18, 19)))
    assert panel.view.block == (1, 1, 3, 2)


def test_solid_cells_drops_the_pick_and_the_brush_paints_plain_cells(window, tmp_path):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 0, 0)
    QTest.mouseClick(panel.solid_button, Qt.LeftButton)
    assert window.context.tile_pick is None and panel.solid_button.isChecked()
    drag(window, (40, 40), (100, 40))
    (grid,) = [o for o in window.document.objects if isinstance(o, Tiles)]
    assert not grid.painted and grid.cells == ("###",)


# -- painting in the window -------------------------------------------------------------------------------
def painted_grid(window) -> Tiles:
    (grid,) = [o for o in window.document.objects if isinstance(o, Tiles)]
    return grid


def test_a_stroke_on_the_canvas_paints_the_picked_tile(window, tmp_path):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 2, 1)
    drag(window, (40, 40), (140, 40))
    grid = painted_grid(window)
    assert (grid.tileset, grid.cell, (grid.origin.x, grid.origin.y), grid.tiles) == \
        ("desert", 32, (32, 32), ((10, 10, 10, 10),))
    assert undo_texts(window) == ["Paint 4 tiles"]
    window.undo_stack.undo()
    assert not window.document.objects
    window.undo_stack.redo()
    assert painted_grid(window).tiles == ((10, 10, 10, 10),)


@pytest.mark.parametrize("k, modifiers, cells", [
    (Qt.Key_X, Qt.NoModifier, ((10 | FLIP_X, 9 | FLIP_X),)),
    (Qt.Key_Y, Qt.NoModifier, ((9 | FLIP_Y, 10 | FLIP_Y),)),
    (Qt.Key_Z, Qt.NoModifier, ((9 | FLIP_X | FLIP_D,), (10 | FLIP_X | FLIP_D,))),
    (Qt.Key_Z, Qt.ShiftModifier, ((10 | FLIP_Y | FLIP_D,), (9 | FLIP_Y | FLIP_D,))),
])
def test_x_y_and_z_flip_and_turn_what_the_brush_paints(window, tmp_path, k, modifiers, cells):
    panel = with_desert(window, tmp_path)
    view = panel.view
    start, end = view.block_rect((1, 1, 1, 1)).center(), view.block_rect((2, 1, 2, 1)).center()
    QTest.mousePress(view, Qt.LeftButton, Qt.NoModifier, start)
    QTest.mouseMove(view, end)
    QTest.mouseRelease(view, Qt.LeftButton, Qt.NoModifier, end)
    assert window.context.tile_pick.cells == ((9, 10),)
    key(window, k, modifiers)
    drag(window, (40, 40), (40, 40), steps=1)
    assert painted_grid(window).tiles == cells
    assert undo_texts(window)[-1].startswith("Paint 2 tiles")


def test_right_button_and_shift_erase_on_the_canvas(window, tmp_path):
    grid = Tiles("floor", (32, 32), 32, (), tileset="desert", tiles=((1, 2, 3, 4),))
    panel = with_desert(window, tmp_path, objects=(grid,))
    click_tile(panel, 0, 0)
    drag(window, (40, 40), (40, 40), steps=1, button=Qt.RightButton)
    drag(window, (136, 40), (136, 40), steps=1, modifiers=Qt.ShiftModifier)
    assert window.document.get("floor").tiles == ((2, 3),)
    assert undo_texts(window) == ["Erase 1 tile", "Erase 1 tile"]
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.document.get("floor") == grid


# -- collision --------------------------------------------------------------------------------------------
def choose(panel, choice):
    combo = panel.collision_combo
    combo.setCurrentIndex(combo.findText(choice))
    combo.activated.emit(combo.currentIndex())


@pytest.mark.parametrize("choice, shapes", [
    ("Full", (TileShape("rect", ((0, 0), (32, 32))),)),
    ("Top half", (TileShape("rect", ((0, 0), (32, 16))),)),
    ("Bottom half", (TileShape("rect", ((0, 16), (32, 16))),)),
    ("None", ()),
])
def test_each_collision_choice_is_one_step_and_undoes(window, tmp_path, choice, shapes):
    start = {3: TileInfo(collision=(TileShape("rect", ((4, 4), (8, 8))),), type="rock", properties={"hp": 2})}
    panel = with_desert(window, tmp_path, tiles=start)
    before = window.document.level.tileset("desert")
    click_tile(panel, 3, 0)
    assert panel.collision_combo.currentText() == "Rectangle" and panel.collision_box.isEnabled()
    choose(panel, choice)
    info = window.document.level.tileset("desert").info(3)
    assert info.collision == shapes and info.type == "rock" and info.properties == {"hp": 2}
    assert undo_texts(window) == [f"Set collision of tile 3 of 'Desert' to {choice}"]
    window.undo_stack.undo()
    assert window.document.level.tileset("desert") == before
    assert panel.collision_combo.currentText() == "Rectangle"


def test_a_rectangle_typed_in_the_tiles_pixels(window, tmp_path):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 0, 0)
    for field, text in zip(panel.rect_fields, ("2", "20", "28", "12")):
        field.clear()
        QTest.keyClicks(field, text)
    QTest.mouseClick(panel.rect_button, Qt.LeftButton)
    assert window.document.level.tileset("desert").info(0).collision == (TileShape("rect", ((2, 20), (28, 12))),)
    assert panel.collision_combo.currentText() == "Rectangle"


@pytest.mark.parametrize("typed, said", [
    (("20", "0", "16", "8"), "Tile 0: the rectangle 20, 0, 16 x 8 does not fit in the 32 x 32 tile."),
    (("0", "0", "0", "8"), "Tile 0: the rectangle's width and height must be positive, not 0 x 8."),
    (("0", "a", "4", "8"), "Type the rectangle's x, y, width and height as numbers."),
])
def test_a_rectangle_outside_the_tile_or_not_positive_is_refused(window, tmp_path, typed, said):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 0, 0)
    for field, text in zip(panel.rect_fields, typed):
        field.clear()
        QTest.keyClicks(field, text)
    QTest.keyClick(panel.rect_fields[3], Qt.Key_Return)
    assert panel.collision_message.text() == said
    assert window.document.level.tileset("desert").tiles == {} and undo_texts(window) == []


def test_a_block_picked_leaves_collision_alone(window, tmp_path):
    panel = with_desert(window, tmp_path)
    view = panel.view
    QTest.mousePress(view, Qt.LeftButton, Qt.NoModifier, view.block_rect((0, 0, 0, 0)).center())
    QTest.mouseMove(view, view.block_rect((1, 0, 1, 0)).center())
    QTest.mouseRelease(view, Qt.LeftButton, Qt.NoModifier, view.block_rect((1, 0, 1, 0)).center())
    assert not panel.collision_box.isEnabled()


def test_a_painted_grid_collides_by_the_collision_set_in_the_dock(window, tmp_path):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 1, 0)
    choose(panel, "Bottom half")
    drag(window, (40, 40), (90, 40))
    assert painted_grid(window).collision_shapes() == (Rect((32, 48), (64, 16)),)
    choose(panel, "Top half")  # an edit of the tileset reaches the grid painted with it
    assert painted_grid(window).collision_shapes() == (Rect((32, 32), (64, 16)),)


def test_show_collision_draws_the_shapes_over_the_tiles(window, tmp_path):
    panel = with_desert(window, tmp_path, tiles={0: TileInfo(collision=(TileShape("rect", ((0, 16), (32, 16))),))})
    view = panel.view
    shown = view.grab().toImage()
    x, y, _, _ = DESERT.source_rect(0)
    tile = QColor(0, 255, 100)
    assert shown.pixelColor(x + 16, y + 8) == tile and shown.pixelColor(x + 16, y + 24) != tile
    QTest.mouseClick(panel.collision_check, Qt.LeftButton)
    assert shown.pixelColor(x + 16, y + 24) != view.grab().toImage().pixelColor(x + 16, y + 24)
    assert view.grab().toImage().pixelColor(x + 16, y + 24) == tile


# -- removing ---------------------------------------------------------------------------------------------
def test_a_tileset_in_use_is_not_removed_and_the_dock_says_why(window, tmp_path):
    grid = Tiles("floor", (0, 0), 32, (), tileset="desert", tiles=((1,),))
    panel = with_desert(window, tmp_path, objects=(grid,))
    panel.remove_action.trigger()
    assert [t.id for t in window.document.level.tilesets] == ["desert"]
    assert panel.message.text() == "Cannot remove: tileset 'Desert' is used by 1 object (floor): delete them first."


def test_an_unused_tileset_is_removed_in_one_step(window, tmp_path):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 0, 0)
    panel.remove_action.trigger()
    assert window.document.level.tilesets == () and window.context.tile_pick is None
    assert undo_texts(window) == ["Remove tileset 'Desert'"]
    window.undo_stack.undo()
    assert [t.id for t in window.document.level.tilesets] == ["desert"] and panel.combo.currentText() == "Desert"


def test_the_dock_is_in_the_view_menu(window):
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert window.tilesets_dock.toggleViewAction() in view.actions()
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.tilesets_panel.add_action in edit.actions()


# -- the picked tile's type and custom properties ---------------------------------------------------------
def test_the_picked_tiles_type_is_one_step_and_keeps_its_collision(window, tmp_path):
    start = {4: TileInfo(collision=(TileShape("rect", ((0, 0), (32, 32))),))}
    panel = with_desert(window, tmp_path, tiles=start)
    click_tile(panel, 4, 0)
    panel.type_field.setFocus()
    QTest.keyClicks(panel.type_field, "spikes")
    QTest.keyClick(panel.type_field, Qt.Key_Return)
    info = window.document.level.tileset("desert").info(4)
    assert info.type == "spikes" and info.collision == start[4].collision
    assert undo_texts(window) == ["Set type of tile 4 of 'Desert' to spikes"]
    window.undo_stack.undo()
    assert window.document.level.tileset("desert").info(4) == start[4] and panel.type_field.text() == ""


def test_a_custom_property_added_to_the_picked_tile(window, tmp_path, qtbot):
    panel = with_desert(window, tmp_path)
    click_tile(panel, 5, 0)
    table = panel.properties_table
    table.new_name.setFocus()
    QTest.keyClicks(table.new_name, "damage")
    qtbot.mouseClick(table.add_button, Qt.LeftButton)
    assert window.document.level.tileset("desert").info(5).properties == {"damage": ""}
    assert undo_texts(window) == ["Add property damage to tile 5 of desert"]
    assert [r.name for r in table.rows()] == ["damage"]
    click_tile(panel, 6, 0)
    assert table.rows() == []
