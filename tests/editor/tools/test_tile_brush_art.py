"""The tile brush with tiles picked in the Tilesets dock: it stamps the pick into painted grids of that tileset.

The tileset ``ground`` has 16 px tiles (4 columns, 8 tiles), the level's grid is 16: cell ``(i, j)`` covers
``[16i, 16i + 16) x [16j, 16j + 16)``. The tileset ``big`` has 32 px tiles: its cells are 32 px whatever the
grid says.
"""
from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from level_editor.core.collision.shapes import Rect
from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y, TileInfo, TileShape, Tileset
from level_editor.core.level.model import Layer, Level, Tiles
from level_editor.editor.canvas.tile_pick import TilePick
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.tile_brush_tool import TileBrushTool
from tests.editor.tools.conftest import context_for, key, round_trip, use_tool

GROUND = Tileset("ground", "Ground", (16, 16), image="ground.png", image_size=(64, 32), columns=4, count=8,
                 tiles={2: TileInfo(collision=(TileShape("rect", ((0, 8), (16, 8))),))})
BIG = Tileset("big", "Big", (32, 32), image="big.png", image_size=(64, 64), columns=2, count=4)


@pytest.fixture
def editor(qtbot, tmp_path):
    """A level on a 16 grid with the two tilesets, their pictures in ``tmp_path``, on the layer walls."""
    for ts in (GROUND, BIG):
        picture = QImage(int(ts.image_size.x), int(ts.image_size.y), QImage.Format_ARGB32)
        picture.fill(QColor(200, 60, 40))
        picture.save(str(tmp_path / ts.image))
    level = Level(name="Test", grid=16, layers=(Layer("art", "Art", locked=True), Layer("walls", "Walls")),
                  tilesets=(GROUND, BIG))
    ctx = context_for(level)
    ctx.document.reset(level, str(tmp_path))
    ctx.set_current_layer("walls")
    yield ctx
    ctx.undo_stack.clear()


def at(i: int, j: int, cell: int = 16) -> tuple[float, float]:
    """A point inside cell ``(i, j)`` of side ``cell`` (not its middle: the brush does not snap)."""
    return i * cell + 5, j * cell + 11


def stroke(mouse, cells, button=Qt.LeftButton, modifiers=Qt.NoModifier, cell=16):
    mouse.press(*at(*cells[0], cell), modifiers, button)
    for c in cells[1:]:
        mouse.move(*at(*c, cell), modifiers, button)
    mouse.release(*at(*cells[-1], cell), modifiers, button)


def pick(editor, cells, tileset="ground"):
    editor.set_tile_pick(TilePick(tileset, cells))
    return use_tool(editor, TileBrushTool)


def painted(editor) -> dict[str, tuple]:
    """Each painted grid's id: (origin, cell, tiles)."""
    return {o.id: ((o.origin.x, o.origin.y), o.cell, o.tiles) for o in editor.document.objects
            if isinstance(o, Tiles) and o.painted}


def add(editor, *objects):
    """Put ``objects`` on the layer walls, as the level was before the test."""
    editor.push(AddObjectsCommand(editor.document, [replace(o, layer="walls") for o in objects]))
    editor.undo_stack.clear()


# -- painting ---------------------------------------------------------------------------------------------
def test_a_click_stamps_the_picked_tile_into_a_new_painted_grid(editor):
    tool, mouse = pick(editor, ((5,),))
    before = editor.document.level
    mouse.click(*at(3, 2))
    assert painted(editor) == {"tiles-1": ((48, 32), 16, ((5,),))}
    grid = editor.document.get("tiles-1")
    assert grid.tileset == "ground" and grid.layer == "walls" and grid.art is editor.document.level.tileset("ground")
    round_trip(editor, before, "Paint 1 tile")


def test_a_block_is_stamped_with_its_top_left_cell_under_the_cursor(editor):
    tool, mouse = pick(editor, ((0, 1), (4, -1)))
    mouse.click(*at(-2, 1))
    assert painted(editor) == {"tiles-1": ((-32, 16), 16, ((0, 1), (4, -1)))}
    assert editor.undo_stack.undoText() == "Paint 3 tiles"


def test_a_drag_paints_every_cell_it_crosses_in_one_step(editor):
    tool, mouse = pick(editor, ((5,),))
    before = editor.document.level
    stroke(mouse, [(0, 0), (1, 0), (2, 0), (2, 1)])
    assert painted(editor) == {"tiles-1": ((0, 0), 16, ((5, 5, 5), (-1, -1, 5)))}
    round_trip(editor, before, "Paint 4 tiles")


def test_a_drag_lays_a_block_side_by_side_as_a_pattern(editor):
    tool, mouse = pick(editor, ((0, 1),))
    stroke(mouse, [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)])
    assert painted(editor)["tiles-1"][2] == ((0, 1, 0, 1, 0, 1),)


def test_cells_of_a_tileset_with_other_tiles_are_its_tile_width(editor):
    tool, mouse = pick(editor, ((3,),), "big")
    stroke(mouse, [(1, 1), (2, 1)], cell=32)
    assert painted(editor) == {"tiles-1": ((32, 32), 32, ((3, 3),))}


def test_painting_joins_the_painted_grid_of_that_tileset_beside_it(editor):
    add(editor, Tiles("floor", (0, 0), 16, (), tileset="ground", tiles=((1, 1),)),
        Tiles("other-art", (0, 0), 16, (), tileset="big", tiles=((0,),)),
        Tiles("solid", (0, 16), 16, ("##",)))
    tool, mouse = pick(editor, ((6,),))
    before = editor.document.level
    stroke(mouse, [(2, 0), (2, 1)])
    grids = painted(editor)
    assert grids["floor"] == ((0, 0), 16, ((1, 1, 6), (-1, -1, 6)))
    assert editor.document.get("solid").cells == ("##",) and editor.document.get("other-art").tiles == ((0,),)
    round_trip(editor, before, "Paint 2 tiles")


def test_painting_the_same_tile_again_is_no_step(editor):
    add(editor, Tiles("floor", (0, 0), 16, (), tileset="ground", tiles=((1,),)))
    tool, mouse = pick(editor, ((1,),))
    mouse.click(*at(0, 0))
    assert editor.undo_stack.count() == 0


def test_a_locked_layer_is_not_painted(editor):
    editor.set_current_layer("art")
    tool, mouse = pick(editor, ((1,),))
    mouse.click(*at(0, 0))
    assert painted(editor) == {}


# -- flips and turns --------------------------------------------------------------------------------------
@pytest.mark.parametrize("how, cells", [
    ("x", ((1 | FLIP_X, 0 | FLIP_X),)),
    ("y", ((0 | FLIP_Y, 1 | FLIP_Y),)),
    ("cw", ((0 | FLIP_X | FLIP_D,), (1 | FLIP_X | FLIP_D,))),
    ("ccw", ((1 | FLIP_Y | FLIP_D,), (0 | FLIP_Y | FLIP_D,))),
])
def test_flips_and_turns_change_what_is_painted(editor, how, cells):
    tool, mouse = pick(editor, ((0, 1),))
    assert tool.transform_pick(how)
    mouse.click(*at(0, 0))
    assert painted(editor)["tiles-1"][2] == cells


def test_a_flip_shows_in_the_preview_at_once(editor):
    tool, mouse = pick(editor, ((0, 1),))
    mouse.move(*at(2, 2), Qt.NoModifier, Qt.NoButton)
    preview = tool.tiles_preview
    assert preview.isVisible() and preview.grid.tiles == ((0, 1),) and preview.pos().x() == 32
    editor.scene.tool = tool  # the window makes it the scene's tool; the preview follows the pick there
    tool.transform_pick("x")
    assert preview.grid.tiles == ((1 | FLIP_X, 0 | FLIP_X),)


def test_the_preview_draws_the_tiles_half_see_through(editor):
    tool, mouse = pick(editor, ((0,),))
    mouse.move(*at(0, 0), Qt.NoModifier, Qt.NoButton)
    picture = QImage(16, 16, QImage.Format_ARGB32)
    picture.fill(QColor(255, 255, 255))
    from PySide6.QtGui import QPainter
    painter = QPainter(picture)
    tool.tiles_preview.paint(painter, None)
    painter.end()
    pixel = picture.pixelColor(8, 8)
    # the tile (200, 60, 40) at 60 % over white
    assert abs(pixel.red() - 222) <= 3 and abs(pixel.green() - 138) <= 3 and abs(pixel.blue() - 126) <= 3


def test_without_a_pick_the_flip_keys_are_left_to_the_selection(editor):
    tool, mouse = use_tool(editor, TileBrushTool)
    assert not tool.transform_pick("x")


# -- erasing ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("button, modifiers", [(Qt.RightButton, Qt.NoModifier), (Qt.LeftButton, Qt.ShiftModifier)])
def test_right_button_or_shift_erases_the_picked_tilesets_cells(editor, button, modifiers):
    add(editor, Tiles("floor", (0, 0), 16, (), tileset="ground", tiles=((1, 2, 3),)),
        Tiles("solid", (0, 0), 16, ("###",)))
    tool, mouse = pick(editor, ((7,),))
    before = editor.document.level
    stroke(mouse, [(1, 0), (2, 0)], button, modifiers)
    assert painted(editor) == {"floor": ((0, 0), 16, ((1,),))}
    assert editor.document.get("solid").cells == ("###",)
    round_trip(editor, before, "Erase 2 tiles")


def test_erasing_every_cell_deletes_the_grid_in_the_same_step(editor):
    add(editor, Tiles("floor", (0, 0), 16, (), tileset="ground", tiles=((1,),)))
    tool, mouse = pick(editor, ((1,),))
    before = editor.document.level
    mouse.press(*at(0, 0), Qt.NoModifier, Qt.RightButton)
    mouse.release(*at(0, 0), Qt.NoModifier, Qt.RightButton)
    assert painted(editor) == {}
    round_trip(editor, before, "Erase 1 tile")


def test_esc_cancels_a_stroke(editor):
    tool, mouse = pick(editor, ((1,),))
    mouse.press(*at(0, 0))
    mouse.move(*at(3, 0))
    assert key(tool, Qt.Key_Escape)
    mouse.release(*at(3, 0))
    assert painted(editor) == {} and editor.undo_stack.count() == 0


# -- plain cells and collision ----------------------------------------------------------------------------
def test_without_a_pick_the_brush_paints_solid_cells_beside_painted_grids(editor):
    add(editor, Tiles("floor", (0, 0), 16, (), tileset="ground", tiles=((1,),)))
    tool, mouse = use_tool(editor, TileBrushTool)
    mouse.click(*at(1, 0))
    assert painted(editor) == {"floor": ((0, 0), 16, ((1,),))}
    assert editor.document.get("tiles-1").cells == ("#",) and not editor.document.get("tiles-1").painted


def test_painted_tiles_collide_by_their_shapes(editor):
    tool, mouse = pick(editor, ((2, 2, 0),))
    mouse.click(*at(0, 3))
    shapes = editor.document.get("tiles-1").collision_shapes()
    assert shapes == (Rect((0, 56), (32, 8)),)  # tile 2's bottom halves, joined; tile 0 has none


def test_tiles_are_painted_on_a_level_without_a_grid(editor):
    editor.document.set_properties(grid=0)
    assert editor.snapper.grid() is None
    tool, mouse = pick(editor, ((4,),))
    assert tool.current_hint() == tool.art_hint
    mouse.click(*at(1, 1))
    assert painted(editor) == {"tiles-1": ((16, 16), 16, ((4,),))}
