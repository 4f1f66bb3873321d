"""The canvas draws the art as ``render`` does, with layer opacity, and a painted grid from reused chunks."""
from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication

from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y
from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.level.model import Image, Layer, Level, Player, Sprite, Tiles
from level_editor.editor.painting.render import render_level
from level_editor.editor.painting.tile_chunks import CHUNK_CELLS

from tests.editor.helpers import at, make_window
from tests.editor.painting.art import COLORS, tileset_picture
from tests.editor.painting.test_render import T, tiles_set
from tests.picture_diff import differing_share

COLS, ROWS = 12, 8


def art_level() -> Level:
    flags = (0, FLIP_X, FLIP_Y, FLIP_D, FLIP_D | FLIP_X, FLIP_X | FLIP_Y)
    rows = tuple(tuple(((c + r) % 8) | flags[(c * 3 + r) % len(flags)] for c in range(COLS)) for r in range(ROWS))
    return Level(
        player=Player(spawn=(600, 600)),
        layers=(Layer("ground", "Ground"), Layer("over", "Over", opacity=0.5), Layer("off", "Off", visible=False)),
        tilesets=(tiles_set(),),
        objects=(Tiles("floor", (0, 0), T, (), tileset="ts", tiles=rows, layer="ground"),
                 Sprite("sign", (64, 40), (48, 32), tileset="ts", tile=5, flip_x=True, layer="over"),
                 Sprite("hidden", (120, 80), (32, 32), tileset="ts", tile=1, layer="off")))


def shown_region(window, width: int, height: int):
    canvas = window.canvas
    canvas.viewport().repaint()
    return canvas.viewport().grab(QRect(at(window, 0, 0), QSize(width, height))).toImage()


def test_the_canvas_shows_the_art_as_render_draws_it(qtbot, tmp_path):
    tileset_picture(tmp_path / "tiles.png", T, columns=4, rows=2)
    save_level(art_level(), str(tmp_path / "art.json"))
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(tmp_path / "art.json"), ask=False)
    window.canvas.set_grid_shown(False)
    window.canvas.set_zoom(1.0)
    QApplication.processEvents()
    level = load_level(str(tmp_path / "art.json"))
    rendered = render_level(level, str(tmp_path))
    assert rendered.size().toTuple() == (COLS * T, ROWS * T)
    qtbot.waitUntil(lambda: window.canvas.settled())
    shown = shown_region(window, COLS * T, ROWS * T)
    # the canvas's background shows through nowhere: the grid's tiles are opaque; so every pixel must agree
    assert differing_share(shown, rendered, tolerance=3) == 0.0


def test_a_reference_picture_draws_in_its_layers_place_on_the_canvas_as_in_render(qtbot, tmp_path):
    """Over the layers below it, under what is drawn on its own layer (file order notwithstanding)."""
    tileset_picture(tmp_path / "tiles.png", T, columns=4, rows=2)
    grey = QImage(64, 48, QImage.Format_ARGB32)
    grey.fill(QColor(128, 128, 128))
    assert grey.save(str(tmp_path / "grey.png"))
    level = Level(
        player=Player(spawn=(600, 600)), layers=(Layer("ground", "Ground"), Layer("over", "Over")),
        tilesets=(tiles_set(),),
        objects=(Sprite("sign", (64, 40), (32, 32), tileset="ts", tile=2, layer="over"),
                 Tiles("floor", (0, 0), T, (), tileset="ts", tiles=((0,) * COLS,) * ROWS, layer="ground"),
                 Image("trace", "grey.png", (16, 16), layer="over")))
    save_level(level, str(tmp_path / "art.json"))
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(tmp_path / "art.json"), ask=False)
    window.canvas.set_grid_shown(False)
    window.canvas.set_zoom(1.0)
    QApplication.processEvents()
    rendered = render_level(load_level(str(tmp_path / "art.json")), str(tmp_path))
    qtbot.waitUntil(lambda: window.canvas.settled())
    shown = shown_region(window, COLS * T, ROWS * T)
    assert differing_share(shown, rendered, tolerance=3) == 0.0
    for picture in (shown, rendered):
        assert picture.pixelColor(20, 50).getRgb()[:3] == (128, 128, 128)  # the picture over the floor below
        assert picture.pixelColor(60, 40).getRgb()[:3] == COLORS[2].getRgb()[:3]  # the sign over the picture
        assert picture.pixelColor(100, 100).getRgb()[:3] == COLORS[0].getRgb()[:3]  # the floor elsewhere


def big_level(size: int = 160) -> Level:
    rows = tuple(tuple((c * 7 + r) % 8 for c in range(size)) for r in range(size))
    return Level(player=Player(spawn=(-200, -200)), tilesets=(tiles_set(),),
                 objects=(Tiles("big", (0, 0), T, (), tileset="ts", tiles=rows),))


def test_panning_reuses_the_chunks_and_an_edit_makes_them_again(qtbot, tmp_path):
    tileset_picture(tmp_path / "tiles.png", T, columns=4, rows=2)
    save_level(big_level(), str(tmp_path / "big.json"))
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(tmp_path / "big.json"), ask=False)
    canvas = window.canvas
    canvas.set_zoom(0.5)
    canvas.centerOn(40 * T, 40 * T)
    item = canvas.level_scene.item("big")

    def all_made():
        canvas.viewport().repaint()
        return item.chunks is not None and item.chunks.paint(
            _NullPainter(), item.value, item.looks.base_folder, canvas.visible_rect(), canvas.zoom(), 0.0)

    qtbot.waitUntil(all_made)
    made = item.chunks.made
    assert made > 0
    side = CHUNK_CELLS * T
    canvas.pan_by(side * 1.5 * canvas.zoom(), 0)  # a chunk and a half to the right, in screen pixels
    qtbot.waitUntil(all_made)
    after_pan = item.chunks.made
    assert made < after_pan <= made + 3 * 4  # only the newly shown chunks are made
    canvas.pan_by(-side * 1.5 * canvas.zoom(), 0)
    for _ in range(3):
        canvas.viewport().repaint()
    assert item.chunks.made == after_pan  # back where it was: every chunk drawn from its kept picture


def test_chunks_are_kept_for_the_same_grid_value_and_made_again_for_a_new_one(tmp_path, qapp):
    from PySide6.QtGui import QImage, QPainter
    from level_editor.editor.painting.tile_chunks import TileChunks

    tileset_picture(tmp_path / "tiles.png", T, columns=4, rows=2)
    grid = big_level(80).objects[0]
    Level(tilesets=(tiles_set(),), objects=(grid,))  # binds its tileset
    chunks = TileChunks()
    image = QImage(200, 200, QImage.Format_ARGB32_Premultiplied)

    def draw(value, zoom=0.25):
        painter = QPainter(image)
        painter.scale(zoom, zoom)
        assert chunks.paint(painter, value, str(tmp_path), None, zoom, budget=float("inf"))
        painter.end()

    draw(grid)
    assert chunks.made == 9  # 80 cells across: 3 x 3 chunks of 32
    draw(grid)
    assert chunks.made == 9
    draw(grid, zoom=0.5)  # another level of detail
    assert chunks.made == 18
    rows = list(grid.tiles)
    rows[0] = (5,) + rows[0][1:]
    edited = Tiles("big", (0, 0), T, (), tileset="ts", tiles=tuple(rows))
    Level(tilesets=(tiles_set(),), objects=(edited,))
    draw(edited)
    assert chunks.made == 27


class _NullPainter:
    """Stands in for a painter to ask whether every exposed chunk is made (draws nothing)."""

    def testRenderHint(self, hint):
        return True

    def setRenderHint(self, hint, on=True):
        pass

    def drawImage(self, *args):
        pass
