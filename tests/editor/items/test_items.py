"""The canvas draws everything a version-2 level holds: tile grids, markers, pictures, type colours, triggers."""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage

from level_editor.core.level.model import Box, Image, Layer, Level, ObjectType
from level_editor.editor.canvas.canvas import BACKGROUND
from level_editor.editor.items.image_item import PLACEHOLDER_SIZE, ImageItem
from level_editor.editor.items.object_item import TRIGGER_COLOR
from level_editor.editor.items.point_item import HEAD_HEIGHT, PointItem
from level_editor.editor.items.tiles_item import TilesItem
from tests.editor.helpers import at, drawn_in_order, make_window
from tests.editor.items.content import DOOR, ENEMY, EXIT, content_level, near


@pytest.fixture
def window(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, content_level())


def grab(window) -> QImage:
    window.canvas.viewport().repaint()
    return window.canvas.viewport().grab().toImage()


def pixel(image: QImage, window, x: float, y: float) -> QColor:
    return image.pixelColor(at(window, x, y))


def bright_pixels(image: QImage, rect: QRect, lightness: int = 180) -> int:
    return sum(1 for x in range(rect.left(), rect.right()) for y in range(rect.top(), rect.bottom())
               if image.pixelColor(x, y).lightness() > lightness)


def write_level(folder, level_json: dict) -> str:
    path = folder / "level.json"
    path.write_text(json.dumps(level_json))
    return str(path)


def picture_level(path: str, origin=(600, 40), scale=1.0, opacity=1.0, layer="walls") -> dict:
    return {
        "format": "level-editor.level", "version": 2, "name": "Pictures", "grid": 16,
        "layers": [{"id": "walls", "name": "Walls", "visible": True, "locked": False},
                   {"id": "art", "name": "Art", "visible": True, "locked": False}],
        "player": {"spawn": [48, 48], "shape": "circle", "radius": 12, "speed": 240},
        "objects": [
            {"id": "box-1", "kind": "box", "layer": "walls", "origin": [620, 50], "size": [20, 20]},
            {"id": "backdrop", "kind": "image", "layer": layer, "path": path, "origin": list(origin),
             "scale": scale, "opacity": opacity},
        ],
        "hulls": {},
    }


def red_picture(folder, name="red.png", size=(40, 20)) -> None:
    picture = QImage(size[0], size[1], QImage.Format_ARGB32)
    picture.fill(QColor(255, 0, 0))
    folder.mkdir(parents=True, exist_ok=True)
    assert picture.save(str(folder / name))


# -- tile grids -------------------------------------------------------------------------


def test_a_tile_grid_fills_its_solid_cells_and_shows_the_floor_through_empty_ones(window):
    item = window.scene.item("tiles-1")
    assert isinstance(item, TilesItem)
    image = grab(window)
    solid = pixel(image, window, 8, 408)        # the first cell of the top row
    empty = pixel(image, window, 104, 408)      # the sixth cell of the top row: '.'
    below = pixel(image, window, 104, 424)      # under it, in the full bottom row
    assert near(solid, TilesItem.FILL, 25) and near(below, TilesItem.FILL, 25)
    assert near(empty, BACKGROUND, 25)
    # the grid's whole extent (8 x 2 cells) is the item's, so its faint cell lines cover the empty cells too
    rect = item.sceneBoundingRect()
    assert rect.left() <= 0 and rect.right() >= 128 and rect.bottom() >= 432


def test_the_faint_cell_grid_is_drawn_between_cells(window):
    window.canvas.set_zoom(3.0)
    window.canvas.centerOn(64, 416)
    image = grab(window)
    line = pixel(image, window, 80, 404)    # on the line between two empty cells of the top row
    middle = pixel(image, window, 88, 404)  # the middle of an empty cell
    assert line != middle and line.lightness() > middle.lightness()


def test_only_solid_cells_are_picked(window):
    assert window.scene.object_at(window.canvas.mapToScene(at(window, 8, 408)), 1.0) == "tiles-1"
    assert window.scene.object_at(window.canvas.mapToScene(at(window, 104, 408)), 1.0) is None


# -- markers ----------------------------------------------------------------------------


def test_a_marker_is_a_pin_in_its_types_colour_with_its_id_and_type_beside_it(window):
    item = window.scene.item("goblin-1")
    assert isinstance(item, PointItem)
    image = grab(window)
    # the pin's tail, just above the marked point, is in the enemy colour
    assert near(pixel(image, window, 480, 120 - 4), ENEMY)
    # the name is written to the right of the head: light text on a dark label
    start = at(window, 480 + 10, 120 - HEAD_HEIGHT)
    label = QRect(start.x(), start.y() - 7, 110, 14)
    assert bright_pixels(image, label) > 20
    assert "goblin-1 · enemy" == item.value.id + " · " + item.value.type


def test_an_untyped_marker_is_drawn_in_the_markers_own_colour(window):
    image = grab(window)
    assert near(pixel(image, window, 560, 120 - 4), PointItem.FILL)


def test_a_marker_is_picked_by_its_pin_not_by_its_name(window):
    scene = window.scene
    assert scene.object_at(window.canvas.mapToScene(at(window, 480, 120 - HEAD_HEIGHT)), 1.0) == "goblin-1"
    assert scene.object_at(window.canvas.mapToScene(at(window, 480 + 60, 120 - HEAD_HEIGHT)), 1.0) is None


# -- colours and triggers ------------------------------------------------------------------


def test_objects_draw_in_their_types_colour_and_untyped_ones_in_their_kinds(window):
    image = grab(window)
    assert near(pixel(image, window, 346, 88), DOOR, 25)
    assert not near(pixel(image, window, 270, 95), DOOR, 60)


def test_an_object_that_does_not_collide_is_see_through_with_a_dashed_edge(window):
    image = grab(window)
    inside = pixel(image, window, 584, 324)
    # the floor shows through: between the background and the type's colour
    assert inside != QColor(EXIT) and inside != BACKGROUND
    assert inside.green() > inside.red() and inside.green() > BACKGROUND.green()
    # the top edge, pixel by pixel: dashes and gaps
    y = at(window, 0, 300).y()
    edge = [image.pixelColor(x, y) for x in range(at(window, 564, 0).x(), at(window, 604, 0).x())]
    dashes = sum(1 for c in edge if near(c, EXIT, 50))
    assert 0 < dashes < len(edge)


def test_a_trigger_without_a_type_uses_the_trigger_colour(qtbot, tmp_path):
    level = Level(objects=(Box("zone", (100, 100), (60, 60), solid=False),))
    window = make_window(qtbot, tmp_path, level)
    inside = pixel(grab(window), window, 130, 130)
    assert inside.red() > BACKGROUND.red() + 15 and inside.blue() > BACKGROUND.blue() + 15
    assert inside != TRIGGER_COLOR  # see-through


def test_new_type_colours_repaint_the_objects(window):
    assert near(pixel(grab(window), window, 346, 88), DOOR, 25)
    types = [t if t.name != "door" else ObjectType("door", "#f0f000") for t in window.document.level.types]
    window.document.set_types(types)
    assert near(pixel(grab(window), window, 346, 88), "#f0f000", 25)


def test_a_types_name_is_written_on_an_object_large_enough_on_screen(qtbot, tmp_path):
    level = Level(types=(ObjectType("door", "#202020"),),
                  objects=(Box("big", (100, 100), (160, 60), type="door"), Box("plain", (300, 100), (160, 60))))
    window = make_window(qtbot, tmp_path, level)
    image = grab(window)

    def text_in(x0, y0):
        a, b = at(window, x0 + 40, y0 + 20), at(window, x0 + 120, y0 + 40)
        return bright_pixels(image, QRect(a, b), 150)

    assert text_in(100, 100) > 10  # light text on the dark door
    assert text_in(300, 100) == 0
    # far out, no room for it: no text
    window.canvas.set_zoom(0.15)
    window.canvas.centerOn(180, 130)
    image = grab(window)
    centre = at(window, 180, 130)
    assert bright_pixels(image, QRect(centre.x() - 10, centre.y() - 3, 20, 6), 150) == 0


# -- reference pictures --------------------------------------------------------------------


def test_a_picture_is_drawn_at_its_origin_scaled_and_under_the_geometry(qtbot, tmp_path):
    red_picture(tmp_path / "pics")
    window = make_window(qtbot, tmp_path)
    assert window.open_file(write_level(tmp_path, picture_level("pics/red.png", scale=2.0)))
    item = window.scene.item("backdrop")
    assert isinstance(item, ImageItem) and item.problem == ""
    rect = item.sceneBoundingRect()
    assert rect.width() >= 80 and rect.width() <= 82 and rect.height() <= 42
    # on a layer above the box's and later in the file, and still under the box
    assert drawn_in_order(window.scene, "backdrop", "box-1")
    window.canvas.set_zoom(1.0)
    window.canvas.centerOn(640, 60)
    image = grab(window)
    assert near(pixel(image, window, 670, 70), "#ff0000", 10)
    assert not near(pixel(image, window, 630, 60), "#ff0000", 60)  # the box, drawn over it
    assert not near(pixel(image, window, 690, 70), "#ff0000", 60)  # past the scaled picture's right edge


def test_a_pictures_opacity_lets_the_canvas_show_through(qtbot, tmp_path):
    red_picture(tmp_path)
    window = make_window(qtbot, tmp_path)
    assert window.open_file(write_level(tmp_path, picture_level("red.png", opacity=0.5)))
    window.canvas.set_zoom(1.0)
    window.canvas.centerOn(640, 60)
    seen = pixel(grab(window), window, 606, 46)
    assert 120 < seen.red() < 180 and seen.green() < 60


def test_a_missing_picture_shows_a_placeholder_and_the_level_still_opens(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    assert window.open_file(write_level(tmp_path, picture_level("art/gone.png")))
    assert window.errors == []
    assert len(window.document) == 2
    item = window.scene.item("backdrop")
    assert item.picture is None and item.problem == "missing"
    assert abs(item.sceneBoundingRect().width() - PLACEHOLDER_SIZE) <= 2
    window.canvas.set_zoom(1.0)
    window.canvas.centerOn(664, 104)
    image = grab(window)
    corner = at(window, 600, 40)
    area = [image.pixelColor(corner.x() + dx, corner.y() + dy) for dx in range(70, 120) for dy in range(90, 120)]
    # hatched: reddish lines with the darker backing between them
    assert any(c.red() > c.blue() + 40 for c in area) and any(c.red() < c.blue() + 20 for c in area)
    # the file's name and "missing" are written on it
    text = QRect(corner.x() + 10, corner.y() + 40, 108, 48)
    assert bright_pixels(image, text, 170) > 20


def test_an_unreadable_picture_shows_a_placeholder_too(qtbot, tmp_path):
    (tmp_path / "broken.png").write_bytes(b"not a picture at all")
    window = make_window(qtbot, tmp_path)
    assert window.open_file(write_level(tmp_path, picture_level("broken.png")))
    assert window.errors == [] and window.scene.item("backdrop").problem == "unreadable"


def test_a_picture_found_later_shows_once_the_folder_is_set_again(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    assert window.open_file(write_level(tmp_path, picture_level("late.png")))
    assert window.scene.item("backdrop").problem == "missing"
    red_picture(tmp_path, "late.png", (30, 30))
    window.scene.set_base_folder(str(tmp_path))
    item = window.scene.item("backdrop")
    assert item.problem == "" and abs(item.sceneBoundingRect().width() - 30) <= 2


def test_a_picture_of_a_level_not_saved_yet_is_found_by_its_absolute_path(qtbot, tmp_path):
    red_picture(tmp_path, "abs.png")
    level = Level(layers=(Layer("main", "Main"),),
                  objects=(Image("backdrop", (tmp_path / "abs.png").as_posix(), (0, 0)),))
    window = make_window(qtbot, tmp_path, level)
    assert window.scene.item("backdrop").problem == ""
