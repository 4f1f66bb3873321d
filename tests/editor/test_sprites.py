"""Sprites in the editor: the sprite tool, dropped pictures, handles, flips, Properties, copy and paste.

Every gesture is driven with real mouse and key events on a shown window, then undone and redone exactly.
The level has a tileset cut from a 64 x 32 picture (two 32 x 32 tiles) written next to the level.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, QRectF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.art import FLIP_X, Tileset, cell_matrix, turned
from level_editor.core.level.model import Image, Level, Player, Sprite
from level_editor.core.level.transform import SYMMETRIES, transform_object
from level_editor.editor.canvas.tile_pick import TilePick
from level_editor.editor.panels.object_list import KIND
from tests.editor.helpers import at, click, drag, key, make_window, move, press, release, undo_texts
from tests.editor.panels.helpers import tick, type_in

GRID = 16


def _write_picture(path: Path, w: int, h: int) -> Path:
    picture = QImage(w, h, QImage.Format_ARGB32)
    picture.fill(QColor(40, 160, 90))
    for x in range(w // 2, w):
        for y in range(h):
            picture.setPixelColor(x, y, QColor(200, 60, 60))
    assert picture.save(str(path))
    return path


@pytest.fixture
def folder(tmp_path) -> Path:
    _write_picture(tmp_path / "tiles.png", 64, 32)
    _write_picture(tmp_path / "crate.png", 48, 40)
    return tmp_path


def art_level(*objects) -> Level:
    tileset = Tileset("ground", "Ground", (32, 32), image="tiles.png", image_size=(64, 32), columns=2, count=2)
    return Level(name="Art", grid=GRID, player=Player(spawn=(40, 400), radius=12), objects=tuple(objects),
                 tilesets=(tileset,))


@pytest.fixture
def window(qtbot, folder):
    w = make_window(qtbot, folder, art_level())
    w.path = str(folder / "art.json")
    return w


def sprites(window) -> list[Sprite]:
    return [o for o in window.document.objects if isinstance(o, Sprite)]


def round_trip(window, before, label) -> None:
    """The last step is called ``label``; Ctrl+Z brings back ``before`` and Ctrl+Shift+Z what there is now."""
    after = window.document.level
    assert undo_texts(window)[-1] == label
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.level == before
    key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.document.level == after


def with_sprite(qtbot, folder, sprite: Sprite):
    w = make_window(qtbot, folder, art_level(sprite))
    w.path = str(folder / "art.json")
    return w


# -- the sprite tool ----------------------------------------------------------------------------------------
def test_the_tool_places_the_picked_tile_at_its_size_snapped(window):
    key(window, Qt.Key_R)
    assert window.tool.name == "Sprite"
    window.context.set_tile_pick(TilePick("ground", ((1,),)))
    before = window.document.level
    click(window, 203, 101)  # centred on the click: the top-left corner (187, 85) snaps to (192, 80)
    [sprite] = sprites(window)
    assert (sprite.tileset, sprite.tile, tuple(sprite.center), tuple(sprite.size)) == ("ground", 1, (208, 96), (32, 32))
    assert (sprite.rotation, sprite.flip_x, sprite.flip_y, sprite.solid) == (0.0, False, False, False)
    assert window.selection.ids() == [sprite.id]
    assert window.undo_stack.count() == 1
    round_trip(window, before, "Add sprite")


def test_a_drag_places_the_sprite_where_it_is_released_and_esc_cancels(window):
    key(window, Qt.Key_R)
    window.context.set_tile_pick(TilePick("ground", ((0,),)))
    before = window.document.level
    drag(window, (100, 100), (300, 204))
    [sprite] = sprites(window)
    assert tuple(sprite.center) == (304, 208) and window.undo_stack.count() == 1
    round_trip(window, before, "Add sprite")
    press(window, 400, 400)
    move(window, 420, 420)
    key(window, Qt.Key_Escape)
    release(window, 420, 420)
    assert len(sprites(window)) == 1 and window.undo_stack.count() == 1


def test_the_picks_flips_and_turns_become_the_sprites(window):
    key(window, Qt.Key_R)
    window.context.set_tile_pick(TilePick("ground", ((turned(0 | FLIP_X),),)))
    click(window, 300, 300, Qt.ControlModifier)  # Ctrl: no snapping
    [sprite] = sprites(window)
    assert tuple(sprite.center) == (300, 300)
    assert sprite.rotation == 90.0
    # drawn as the brush would paint the cell: the picture's top-left pixel lands where the cell's does
    a, b, c, d = cell_matrix(turned(0 | FLIP_X))
    corner = sprite.to_level(0, 0)
    assert (round(corner.x - 300), round(corner.y - 300)) == (a * -16 + b * -16, c * -16 + d * -16)


def test_with_nothing_picked_the_tool_says_so_and_adds_nothing(window):
    key(window, Qt.Key_R)
    assert "pick a tile in the Tilesets dock" in window.statusBar().hint_label.text()
    click(window, 200, 200)
    assert sprites(window) == [] and window.undo_stack.count() == 0
    assert "No tile picked" in window.statusBar().currentMessage()
    window.context.set_tile_pick(TilePick("ground", ((0,),)))
    assert window.statusBar().hint_label.text().startswith("Sprite: click to place")


# -- dropped pictures ---------------------------------------------------------------------------------------
def drop(window, paths, x, y, modifiers=Qt.NoModifier) -> bool:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = QPointF(window.canvas.viewport().mapTo(window, at(window, x, y)))
    enter = QDragEnterEvent(pos.toPoint(), Qt.CopyAction, mime, Qt.LeftButton, modifiers)
    QApplication.sendEvent(window, enter)
    if enter.isAccepted():
        QApplication.sendEvent(window, QDropEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, modifiers))
    return enter.isAccepted()


def test_a_dropped_picture_becomes_a_sprite_of_its_size(window, folder):
    (folder / "art").mkdir()
    _write_picture(folder / "art" / "door.png", 48, 40)
    before = window.document.level
    assert drop(window, [folder / "art" / "door.png"], 200, 100)
    [sprite] = sprites(window)
    # centred on the drop, its top-left corner (176, 80) on the grid
    assert (sprite.picture, tuple(sprite.center), tuple(sprite.size)) == ("art/door.png", (200, 100), (48, 40))
    assert not sprite.solid and sprite.tileset == ""
    assert "Shift" in window.statusBar().currentMessage()
    round_trip(window, before, "Add sprite")


def test_a_shift_drop_still_adds_a_reference_image(window, folder):
    assert drop(window, [folder / "crate.png"], 200, 100, Qt.ShiftModifier)
    assert sprites(window) == []
    assert [type(o) for o in window.document.objects] == [Image]


# -- the select tool --------------------------------------------------------------------------------------
CRATE = Sprite("crate", (200, 200), (48, 40), picture="crate.png")


def test_the_select_tool_drags_a_sprite(qtbot, folder):
    w = with_sprite(qtbot, folder, CRATE)
    key(w, Qt.Key_S)
    before = w.document.level
    drag(w, (210, 210), (243, 229))  # the centre snaps to the grid: 200 + 33 -> 240 (nearest 16), 200 + 19 -> 224
    assert tuple(w.document.get("crate").center) == (240, 224)
    assert w.undo_stack.count() == 1
    round_trip(w, before, "Move sprite")


def test_a_corner_handle_resizes_in_the_turned_frame_keeping_the_opposite_corner(qtbot, folder):
    w = with_sprite(qtbot, folder, Sprite("crate", (200, 200), (48, 40), rotation=90, picture="crate.png"))
    key(w, Qt.Key_S)
    click(w, 200, 200)
    before = w.document.level
    old = w.document.get("crate")
    fixed = old.to_level(0, 0)  # the picture's top-left stays where it is when its bottom-right is dragged
    se = old.to_level(48, 40)
    assert (round(se.x), round(se.y)) == (180, 224)
    drag(w, (se.x, se.y), (172, 240), Qt.ControlModifier)
    new = w.document.get("crate")
    assert tuple(new.size) == pytest.approx((64, 48))
    moved = new.to_level(0, 0)
    assert (moved.x, moved.y) == pytest.approx((fixed.x, fixed.y))
    assert w.undo_stack.count() == 1
    round_trip(w, before, "Resize crate")


def test_a_handle_dragged_past_the_opposite_side_stops_at_the_smallest_size(qtbot, folder):
    w = with_sprite(qtbot, folder, CRATE)
    key(w, Qt.Key_S)
    click(w, 200, 200)
    drag(w, (224, 200), (100, 200), Qt.ControlModifier)  # the east handle, far past the west side
    new = w.document.get("crate")
    assert tuple(new.size) == (1, 40) and not new.flip_x
    assert new.center.x == pytest.approx(176.5)


def test_shift_keeps_the_aspect_ratio(qtbot, folder):
    w = with_sprite(qtbot, folder, CRATE)
    key(w, Qt.Key_S)
    click(w, 200, 200)
    drag(w, (224, 220), (272, 230), Qt.ControlModifier | Qt.ShiftModifier)
    new = w.document.get("crate")
    assert new.size.x / new.size.y == pytest.approx(48 / 40) and new.size.x == pytest.approx(96)


def test_the_rotation_handle_turns_a_sprite_in_15_degree_steps_with_shift(qtbot, folder):
    w = with_sprite(qtbot, folder, CRATE)
    key(w, Qt.Key_S)
    click(w, 200, 200)
    knob = next(h for h in w.tool.handles if h.role == "rotate").knob_pos(w.context.scale())
    before = w.document.level
    drag(w, (knob.x(), knob.y()), (260, 190), Qt.ShiftModifier)
    angle = math.degrees(math.atan2(190 - 200, 260 - 200)) + 90
    assert w.document.get("crate").rotation == round(angle / 15) * 15 == 75
    round_trip(w, before, "Rotate crate")


# -- flips and turns from the Edit menu -------------------------------------------------------------------
def test_the_edit_menus_flips_and_turns_work_on_sprites(qtbot, folder):
    w = with_sprite(qtbot, folder, Sprite("crate", (200, 200), (48, 40), rotation=30, picture="crate.png"))
    w.selection.set(["crate"])
    before = w.document.level
    w.flip_horizontal_action.trigger()
    s = w.document.get("crate")
    assert (s.flip_x, s.flip_y, s.rotation, tuple(s.center)) == (True, False, -30.0, (200, 200))
    round_trip(w, before, "Flip sprite horizontally")
    w.flip_vertical_action.trigger()
    assert w.document.get("crate").flip_y
    key(w, Qt.Key_Z)  # Z turns the selection clockwise
    assert w.document.get("crate").rotation == pytest.approx(120.0)  # -30 mirrored to 30, then a quarter on


def test_a_flip_mirrors_a_turned_picture_pixel_for_pixel():
    s = Sprite("s", (10, 0), (20, 10), rotation=30, flip_y=True, picture="a.png")
    for symmetry in SYMMETRIES:
        t = transform_object(s, symmetry, Vec2(0, 0))
        for px, py in ((0, 0), (20, 3), (7, 10)):
            want = symmetry.point(s.to_level(px, py), Vec2(0, 0))
            got = t.to_level(px, py)
            assert (got.x, got.y) == pytest.approx((want.x, want.y)), symmetry.name


# -- Properties ---------------------------------------------------------------------------------------------
def test_properties_edit_a_sprite_one_step_each(qtbot, folder):
    w = with_sprite(qtbot, folder, Sprite("crate", (200, 200), (32, 32), tileset="ground", tile=0))
    w.selection.set(["crate"])
    inspector = w.inspector
    before = w.document.level
    type_in(inspector, "size.x", "64")
    assert w.document.get("crate").size.x == 64
    round_trip(w, before, "Change width of crate")
    type_in(inspector, "rotation", "45")
    assert w.document.get("crate").rotation == 45
    type_in(inspector, "opacity", "0.5")
    assert w.document.get("crate").opacity == 0.5
    tick(inspector, inspector.field("flip_x"))
    assert w.document.get("crate").flip_x and undo_texts(w)[-1] == "Flip crate horizontally"
    tick(inspector, inspector.field("solid"))
    assert w.document.get("crate").solid
    type_in(inspector, "tile", "1")
    assert w.document.get("crate").tile == 1 and undo_texts(w)[-1] == "Change tile of crate"
    steps = w.undo_stack.count()
    type_in(inspector, "tile", "7")
    assert w.document.get("crate").tile == 1 and w.undo_stack.count() == steps
    assert "tile 7 is not in tileset 'ground' (it has 2 tiles)" in inspector.problem_text()


def test_a_picture_sprite_shows_its_path(qtbot, folder):
    w = with_sprite(qtbot, folder, CRATE)
    w.selection.set(["crate"])
    assert w.inspector.field("picture").text() == "crate.png"


# -- the item, the Objects list, the clipboard, collisions -----------------------------------------------------
def test_a_solid_sprite_collides_where_the_canvas_draws_it(qtbot, folder):
    w = with_sprite(qtbot, folder, Sprite("crate", (200, 200), (48, 40), picture="crate.png"))
    key(w, Qt.Key_S)
    click(w, 200, 200)
    tick(w.inspector, w.inspector.field("solid"))
    drag(w, (200, 200), (264, 232), Qt.ControlModifier)
    sprite = w.document.get("crate")
    [shape] = sprite.collision_shapes()
    assert (tuple(shape.origin), tuple(shape.size)) == ((240, 212), (48, 40))
    drawn = w.canvas.scene().item("crate").sceneBoundingRect()
    assert drawn.adjusted(1, 1, -1, -1).contains(QRectF(241, 213, 46, 38))
    assert QRectF(239, 211, 50, 42).contains(drawn.adjusted(1, 1, -1, -1))


def test_a_missing_picture_is_a_placeholder_and_hit_on_its_turned_rectangle(qtbot, folder):
    w = with_sprite(qtbot, folder, Sprite("ghost", (200, 200), (80, 20), rotation=90, picture="nowhere.png"))
    key(w, Qt.Key_S)
    click(w, 200, 235)  # inside the turned rectangle (20 wide, 80 tall), outside the unturned one
    assert w.selection.ids() == ["ghost"]
    click(w, 170, 205)  # inside the unturned rectangle only
    assert w.selection.ids() == []


def test_the_objects_list_names_the_kind_sprite(qtbot, folder):
    w = with_sprite(qtbot, folder, CRATE)
    model = w.object_list.model
    assert model.index(model.row_of("crate"), KIND).data() == "Sprite"


def test_sprites_copy_paste_duplicate_and_delete(qtbot, folder):
    w = with_sprite(qtbot, folder, Sprite("crate", (200, 200), (48, 40), rotation=30, flip_x=True,
                                          picture="crate.png"))
    w.selection.set(["crate"])
    key(w, Qt.Key_C, Qt.ControlModifier)
    key(w, Qt.Key_V, Qt.ControlModifier)
    key(w, Qt.Key_D, Qt.ControlModifier)
    copies = sprites(w)[1:]
    assert len(copies) == 2
    assert all((c.size, c.rotation, c.flip_x, c.picture) == (CRATE.size, 30.0, True, "crate.png") for c in copies)
    w.selection.set([c.id for c in copies])
    key(w, Qt.Key_Delete)
    assert [s.id for s in sprites(w)] == ["crate"]


def test_a_sprite_a_few_pixels_across_is_a_square_of_its_pictures_mean_colour(qtbot, folder):
    """Far out, a sprite is drawn as one square of the colour its picture averages to (its two halves, green and
    red, mixed), as the picture would look shrunk that far; close up, the picture itself."""
    w = with_sprite(qtbot, folder, Sprite("crate", (200, 200), (48, 40), picture="crate.png"))
    w.scene.set_base_folder(str(folder))
    canvas = w.canvas

    def colour_at(x, y) -> QColor:
        canvas.viewport().repaint()
        image = canvas.viewport().grab().toImage()
        return image.pixelColor(canvas.mapFromScene(QPointF(x, y)))

    canvas.set_zoom(0.1)  # 4.8 px across
    canvas.centerOn(200, 200)
    mean = colour_at(200, 200)
    assert abs(mean.red() - 120) <= 12 and abs(mean.green() - 110) <= 12 and abs(mean.blue() - 75) <= 12, mean.name()
    canvas.set_zoom(1.0)
    canvas.centerOn(200, 200)
    assert colour_at(185, 200).name() == QColor(40, 160, 90).name()  # the left half of the picture
    assert colour_at(215, 200).name() == QColor(200, 60, 60).name()
