"""A collection tileset (each tile its own picture, as sticker-knight's) in the Tilesets dock: its pictures shown
shrunk into squares in rows as wide as the dock, one picked with a click, placed with the sprite tool and painted
with the tile brush, its collision set at its picture's size; a missing picture is named and drawn hatched.

The collection's tiles: 3 is a 48 x 40 crate, 5 a 16 x 16 coin, 9 a picture that is not there.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from level_editor.core.level.art import TileInfo, TileShape, Tileset
from level_editor.core.level.file_format import save_level
from level_editor.core.level.model import Level, Player, Sprite, Tiles
from level_editor.editor.canvas.tile_pick import TilePick
from level_editor.editor.panels.tileset_view import THUMBNAIL
from tests.editor.helpers import click, drag, key, make_window, undo_texts
from tests.editor.panels.test_tilesets_dock import choose

CRATE, COIN, MISSING = 3, 5, 9
CRATE_COLOR, COIN_COLOR = QColor(200, 120, 40), QColor(250, 210, 30)


def picture(path: Path, w: int, h: int, color: QColor) -> None:
    image = QImage(w, h, QImage.Format_ARGB32)
    image.fill(color)
    assert image.save(str(path))


def things() -> Tileset:
    return Tileset("things", "Things", (48, 40), count=0, tiles={
        CRATE: TileInfo(image="art/crate.png", image_size=(48, 40)),
        COIN: TileInfo(image="art/coin.png", image_size=(16, 16)),
        MISSING: TileInfo(image="art/gone.png", image_size=(32, 32))})


@pytest.fixture
def window(qtbot, tmp_path):
    (tmp_path / "art").mkdir()
    picture(tmp_path / "art" / "crate.png", 48, 40, CRATE_COLOR)
    picture(tmp_path / "art" / "coin.png", 16, 16, COIN_COLOR)
    save_level(Level(name="Things", grid=16, player=Player(spawn=(40, 600), radius=12), tilesets=(things(),)),
               str(tmp_path / "things.json"))
    w = make_window(qtbot, tmp_path)
    assert w.open_file(str(tmp_path / "things.json"), ask=False)
    w.tilesets_dock.show()
    w.tilesets_dock.raise_()
    yield w
    w.undo_stack.clear()


def click_picture(panel, tile: int) -> None:
    view = panel.view
    QTest.mouseClick(view, Qt.LeftButton, Qt.NoModifier, view.tile_rect(tile).center().toPoint())


def test_the_dock_shows_each_picture_shrunk_into_its_square_and_names_the_missing_one(window):
    panel = window.tilesets_panel
    view = panel.view
    assert view.is_collection and view.collection == [CRATE, COIN, MISSING]
    assert "collection of 3 pictures" in panel.message.text() and "art/gone.png" in panel.message.text()
    shown = view.grab().toImage()
    crate = view.picture_rect(CRATE)
    assert (crate.width(), crate.height()) == (48, 40)  # at 100 %: as it is, it fits its square
    assert shown.pixelColor(crate.center().toPoint()) == CRATE_COLOR
    coin = view.picture_rect(COIN)
    assert (coin.width(), coin.height()) == (16, 16)  # never enlarged
    assert shown.pixelColor(coin.center().toPoint()) == COIN_COLOR
    panel.zoom_combo.setCurrentIndex(0)  # 50 %: the crate shrinks into a 32 px square
    assert view.tile_rect(CRATE).width() == THUMBNAIL / 2 and view.picture_rect(CRATE).width() < 32


def test_rows_are_as_wide_as_the_dock(window):
    view = window.tilesets_panel.view
    view.set_wrap_width(2 * THUMBNAIL + 10)
    assert (view.columns(), view.rows()) == (2, 2)
    assert view.tile_rect(MISSING).topLeft().toTuple() == (0, THUMBNAIL)
    view.set_wrap_width(10 * THUMBNAIL)
    assert (view.columns(), view.rows()) == (3, 1)


def test_a_click_picks_one_picture_and_a_drag_still_picks_only_the_first(window):
    panel = window.tilesets_panel
    click_picture(panel, COIN)
    assert window.context.tile_pick == TilePick("things", ((COIN,),))
    assert window.tool.name == "Tile Brush"
    view = panel.view
    start, end = view.tile_rect(CRATE).center().toPoint(), view.tile_rect(MISSING).center().toPoint()
    QTest.mousePress(view, Qt.LeftButton, Qt.NoModifier, start)
    QTest.mouseMove(view, end)
    QTest.mouseRelease(view, Qt.LeftButton, Qt.NoModifier, end)
    assert window.context.tile_pick == TilePick("things", ((CRATE,),))


def test_the_sprite_tool_places_the_picked_picture_at_its_size_in_one_step(window):
    click_picture(window.tilesets_panel, CRATE)
    key(window, Qt.Key_R)
    click(window, 200, 100)
    [sprite] = [o for o in window.document.objects if isinstance(o, Sprite)]
    assert (sprite.tileset, sprite.tile, tuple(sprite.size)) == ("things", CRATE, (48, 40))
    assert undo_texts(window) == ["Add sprite"]
    window.undo_stack.undo()
    assert not window.document.objects


def test_the_brush_paints_the_picked_picture_in_one_step(window):
    click_picture(window.tilesets_panel, COIN)
    drag(window, (40, 40), (90, 40))
    [grid] = [o for o in window.document.objects if isinstance(o, Tiles)]
    # in the level's grid (16), as Tiled paints a collection's pictures in the map's cells
    assert grid.tileset == "things" and grid.cell == 16 and set(v for row in grid.tiles for v in row) == {COIN}
    assert len(grid.tiles[0]) >= 3
    assert len(undo_texts(window)) == 1
    window.undo_stack.undo()
    assert not window.document.objects


def test_a_pictures_collision_is_set_at_its_own_size(window):
    panel = window.tilesets_panel
    click_picture(panel, COIN)
    choose(panel, "Top half")
    assert window.document.level.tileset("things").info(COIN).collision == (TileShape("rect", ((0, 0), (16, 8))),)
    click_picture(panel, CRATE)
    assert [f.text() for f in panel.rect_fields] == ["0", "0", "48", "40"]
    choose(panel, "Bottom half")
    assert window.document.level.tileset("things").info(CRATE).collision == (TileShape("rect", ((0, 20), (48, 20))),)
    assert len(undo_texts(window)) == 2
    panel.view.grab()  # the shapes drawn over the shrunk pictures


def test_the_missing_picture_can_be_picked_and_drawn_without_a_crash(window):
    panel = window.tilesets_panel
    click_picture(panel, MISSING)
    assert window.context.tile_pick == TilePick("things", ((MISSING,),))
    assert panel.collision_box.title() == f"Tile {MISSING}"
    assert not panel.view.grab().toImage().isNull()


def test_the_zoom_scales_the_squares_and_a_pictures_type_is_set_in_one_step(window):
    panel = window.tilesets_panel
    before = panel.view.tile_rect(CRATE).width()
    panel.zoom_combo.setCurrentIndex(panel.zoom_combo.findText("200%"))
    assert panel.view.tile_rect(CRATE).width() == 2 * before == 2 * THUMBNAIL
    click_picture(panel, CRATE)
    assert window.context.tile_pick == TilePick("things", ((CRATE,),))
    panel.type_field.setFocus()
    QTest.keyClicks(panel.type_field, "crate")
    QTest.keyClick(panel.type_field, Qt.Key_Return)
    assert window.document.level.tileset("things").info(CRATE).type == "crate"
    assert len(undo_texts(window)) == 1


@pytest.mark.parametrize("points", [None, 13.0])
def test_a_new_window_never_scrolls_the_tilesets_dock_sideways(qtbot, qapp, tmp_path, points):
    """Every button and field of the dock shows whole, at the usual font and a large one (the column widens)."""
    font = qapp.font()
    try:
        if points is not None:
            large = qapp.font()
            large.setPointSizeF(points)
            qapp.setFont(large)
        window = make_window(qtbot, tmp_path, Level(tilesets=(things(),)))
        window.tilesets_dock.raise_()
        panel = window.tilesets_panel
        outer = panel.outer_scroll
        qtbot.waitUntil(lambda: outer.isVisible() and panel.combo.count() == 1)
        for title in ("Tile (pick one)", None):  # nothing picked, then a tile: the box's title changes
            if title is None:
                click_picture(panel, CRATE)
                qtbot.waitUntil(lambda: panel.collision_box.title() != "Tile (pick one)")
            else:
                assert panel.collision_box.title() == title
            assert outer.widget().minimumSizeHint().width() <= outer.viewport().width()
            assert outer.horizontalScrollBar().maximum() == 0
            for button in (panel.findChildren(QPushButton)):
                if button.isVisible():
                    assert button.width() >= button.minimumSizeHint().width(), button.text()
    finally:
        qapp.setFont(font)
