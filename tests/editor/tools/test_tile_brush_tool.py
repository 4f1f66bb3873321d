"""The tile brush: strokes paint and erase cells of the level's grid, one undo step each, joining the grid below.

The level's grid is 16: cell ``(i, j)`` covers ``[16i, 16i + 16) x [16j, 16j + 16)``, so ``at(i, j)`` (a point
inside it) is where the tests put the mouse.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt

from level_editor.core.level.model import Layer, Level, Tiles
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.tools.tile_brush_tool import TileBrushTool
from tests.editor.helpers import drag, make_window, undo_texts
from tests.editor.helpers import key as press_key
from tests.editor.tools.conftest import context_for, key, round_trip, use_tool


@pytest.fixture
def editor(qtbot):
    """A level on a 16 grid with two layers: art (locked) and walls (current)."""
    ctx = context_for(Level(name="Test", grid=16, layers=(Layer("art", "Art", locked=True), Layer("walls", "Walls"))))
    yield ctx
    ctx.undo_stack.clear()


def at(i: int, j: int) -> tuple[float, float]:
    """A point inside grid cell ``(i, j)`` (not its middle: the brush does not snap)."""
    return i * 16 + 5, j * 16 + 11


def make(editor):
    return use_tool(editor, TileBrushTool)


def stroke(mouse, cells, button=Qt.LeftButton, modifiers=Qt.NoModifier):
    """Press on the first cell, move over the others, release on the last."""
    mouse.press(*at(*cells[0]), modifiers, button)
    for c in cells[1:]:
        mouse.move(*at(*c), modifiers, button)
    mouse.release(*at(*cells[-1]), modifiers, button)


def add(editor, *objects):
    editor.push(AddObjectsCommand(editor.document, list(objects)))
    editor.undo_stack.clear()


def grids(editor) -> dict[str, tuple]:
    """Each tile grid's id: (origin, cells)."""
    return {o.id: ((o.origin.x, o.origin.y), o.cells) for o in editor.document.objects if isinstance(o, Tiles)}


# -- painting ---------------------------------------------------------------------------------------------
def test_a_stroke_paints_a_new_grid_in_one_step(editor):
    tool, mouse = make(editor)
    before = editor.document.level
    stroke(mouse, [(2, 3), (3, 3), (4, 3), (4, 4), (4, 5)])
    assert grids(editor) == {"tiles-1": ((32, 48), ("###", "..#", "..#"))}
    tiles = editor.document.get("tiles-1")
    assert tiles.cell == 16 and tiles.layer == "walls"
    round_trip(editor, before, "Paint 5 tiles")


def test_a_click_paints_one_cell(editor):
    tool, mouse = make(editor)
    mouse.click(*at(-2, 1))
    assert grids(editor) == {"tiles-1": ((-32, 16), ("#",))}
    assert editor.undo_stack.undoText() == "Paint 1 tile"


def test_a_fast_drag_leaves_no_gaps(editor):
    tool, mouse = make(editor)
    mouse.press(*at(0, 0))
    mouse.move(*at(9, 3))  # one jump across ten columns and four rows
    mouse.release(*at(9, 3))
    cells = editor.document.get("tiles-1").cells
    assert len(cells) == 4 and len(cells[0]) == 10
    assert all(col.count("#") >= 1 for col in zip(*cells))  # every column met
    assert "".join(cells).count("#") >= 10


def test_the_cells_are_the_levels_grid_whatever_snapping_says(editor):
    tool, mouse = make(editor)
    editor.snapper.set_enabled(False)
    mouse.click(31.9, 0.1, Qt.ControlModifier)
    assert grids(editor) == {"tiles-1": ((16, 0), ("#",))}


def test_painting_next_to_a_grid_joins_it(editor):
    add(editor, Tiles("floor", (32, 32), 16, ("##", "##"), layer="walls"))
    tool, mouse = make(editor)
    before = editor.document.level
    stroke(mouse, [(4, 2), (5, 2)])  # right of the grid's last column
    assert grids(editor) == {"floor": ((32, 32), ("####", "##.."))}
    round_trip(editor, before, "Paint 2 tiles")


def test_a_diagonal_neighbour_joins_the_grid_too(editor):
    add(editor, Tiles("floor", (32, 32), 16, ("##",), layer="walls"))
    tool, mouse = make(editor)
    mouse.click(*at(1, 1))
    assert grids(editor) == {"floor": ((16, 16), ("#..", ".##"))}


def test_painting_far_away_starts_a_new_grid(editor):
    add(editor, Tiles("tiles-1", (32, 32), 16, ("##",), layer="walls"))
    tool, mouse = make(editor)
    before = editor.document.level
    stroke(mouse, [(5, 2), (6, 2)])  # one empty cell between: not next to it
    assert grids(editor) == {"tiles-1": ((32, 32), ("##",)), "tiles-2": ((80, 32), ("##",))}
    round_trip(editor, before, "Paint 2 tiles")


def test_a_stroke_goes_into_the_first_grid_it_meets(editor):
    add(editor, Tiles("left", (0, 0), 16, ("#",), layer="walls"),
        Tiles("right", (96, 0), 16, ("#",), layer="walls"))
    tool, mouse = make(editor)
    stroke(mouse, [(3, 0), (2, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)])
    # from empty space towards "left" (met at cell 1), then on to touch "right": all of it goes into "left"
    assert grids(editor) == {"left": ((0, 0), ("######",)), "right": ((96, 0), ("#",))}
    assert editor.undo_stack.undoText() == "Paint 5 tiles"


def test_grids_of_another_cell_size_offset_or_layer_are_left_alone(editor):
    editor.document.set_layers([Layer("art", "Art"), Layer("walls", "Walls")])
    add(editor,
        Tiles("coarse", (0, 0), 32, ("#",), layer="walls"),
        Tiles("offset", (8, 64), 16, ("#",), layer="walls"),
        Tiles("art-tiles", (0, 128), 16, ("#",), layer="art"))
    tool, mouse = make(editor)
    for cell in [(2, 0), (2, 4), (1, 8)]:
        mouse.click(*at(*cell))
    assert grids(editor)["coarse"] == ((0, 0), ("#",))
    assert grids(editor)["offset"] == ((8, 64), ("#",))
    assert grids(editor)["art-tiles"] == ((0, 128), ("#",))
    assert [grids(editor)[f"tiles-{n}"] for n in (1, 2, 3)] == [
        ((32, 0), ("#",)), ((32, 64), ("#",)), ((16, 128), ("#",))]


def test_painting_solid_cells_adds_no_step(editor):
    add(editor, Tiles("floor", (0, 0), 16, ("###",), layer="walls"))
    tool, mouse = make(editor)
    stroke(mouse, [(0, 0), (1, 0), (2, 0)])
    assert editor.undo_stack.count() == 0
    stroke(mouse, [(1, 0), (2, 0), (3, 0)])  # only the new cell counts
    assert editor.undo_stack.undoText() == "Paint 1 tile"


def test_the_new_grid_goes_on_the_current_layer(editor):
    editor.document.set_layers([Layer("art", "Art"), Layer("walls", "Walls")])
    tool, mouse = make(editor)
    editor.set_current_layer("art")
    mouse.click(*at(0, 0))
    assert editor.document.get("tiles-1").layer == "art"


# -- erasing ----------------------------------------------------------------------------------------------
def test_the_right_button_erases_in_one_step(editor):
    add(editor, Tiles("floor", (0, 0), 16, ("#####", "#####"), layer="walls"))
    tool, mouse = make(editor)
    before = editor.document.level
    stroke(mouse, [(1, 0), (2, 0), (3, 0), (3, 1)], button=Qt.RightButton)
    assert grids(editor) == {"floor": ((0, 0), ("#...#", "###.#"))}
    round_trip(editor, before, "Erase 4 tiles")


def test_shift_with_the_left_button_erases(editor):
    add(editor, Tiles("floor", (0, 0), 16, ("####",), layer="walls"))
    tool, mouse = make(editor)
    before = editor.document.level
    stroke(mouse, [(0, 0), (1, 0)], modifiers=Qt.ShiftModifier)
    assert grids(editor) == {"floor": ((32, 0), ("##",))}  # trimmed: the grid starts at its first solid cell
    round_trip(editor, before, "Erase 2 tiles")


def test_erasing_the_last_cells_deletes_the_grid_in_the_same_step(editor):
    add(editor, Tiles("ledge", (0, 0), 16, ("##",), layer="walls"))
    tool, mouse = make(editor)
    before = editor.document.level
    stroke(mouse, [(0, 0), (1, 0)], button=Qt.RightButton)
    assert grids(editor) == {}
    round_trip(editor, before, "Erase 2 tiles")


def test_one_stroke_erases_across_grids_and_deletes_the_emptied_one(editor):
    add(editor, Tiles("a", (0, 0), 16, ("###",), layer="walls"),
        Tiles("b", (64, 0), 16, ("#",), layer="walls"))
    tool, mouse = make(editor)
    before = editor.document.level
    stroke(mouse, [(2, 0), (3, 0), (4, 0)], button=Qt.RightButton)
    assert grids(editor) == {"a": ((0, 0), ("##",))}
    round_trip(editor, before, "Erase 2 tiles")


def test_erasing_empty_cells_adds_no_step(editor):
    add(editor, Tiles("floor", (0, 0), 16, ("#.#",), layer="walls"))
    tool, mouse = make(editor)
    stroke(mouse, [(1, 0)], button=Qt.RightButton)
    stroke(mouse, [(7, 7), (8, 7)], button=Qt.RightButton)
    assert editor.undo_stack.count() == 0
    assert grids(editor) == {"floor": ((0, 0), ("#.#",))}


def test_erasing_leaves_other_layers_alone(editor):
    editor.document.set_layers([Layer("art", "Art"), Layer("walls", "Walls")])
    add(editor, Tiles("art-tiles", (0, 0), 16, ("#",), layer="art"))
    tool, mouse = make(editor)
    stroke(mouse, [(0, 0)], button=Qt.RightButton)
    assert grids(editor) == {"art-tiles": ((0, 0), ("#",))}


# -- the gesture ------------------------------------------------------------------------------------------
def test_a_locked_layer_refuses_and_says_so(editor):
    tool, mouse = make(editor)
    editor.set_current_layer("art")
    stroke(mouse, [(0, 0), (1, 0)])
    assert grids(editor) == {} and editor.undo_stack.count() == 0
    assert "locked" in editor.messages[-1]
    assert not tool.painting


def test_the_stroke_shows_its_cells_and_their_count_while_dragging(editor):
    add(editor, Tiles("floor", (0, 0), 16, ("#",), layer="walls"))
    tool, mouse = make(editor)
    mouse.press(*at(0, 0))
    mouse.move(*at(1, 0))
    mouse.move(*at(2, 0))
    shape = tool.preview.shape_item
    assert shape.isVisible()
    assert shape.path().boundingRect() == QRectF(0, 0, 48, 16)
    assert tool.preview.label_item.text() == "paint 2 tiles"
    assert grids(editor) == {"floor": ((0, 0), ("#",))}  # nothing changes before the release
    mouse.release(*at(2, 0))
    assert grids(editor) == {"floor": ((0, 0), ("###",))}


def test_an_erase_stroke_shows_how_many_cells_go(editor):
    add(editor, Tiles("floor", (0, 0), 16, ("##",), layer="walls"))
    tool, mouse = make(editor)
    mouse.press(*at(1, 0), button=Qt.RightButton)
    mouse.move(*at(3, 0), buttons=Qt.RightButton)
    assert tool.preview.label_item.text() == "erase 1 tile"


def test_esc_drops_the_stroke(editor):
    tool, mouse = make(editor)
    mouse.press(*at(0, 0))
    mouse.move(*at(3, 0))
    assert key(tool, Qt.Key_Escape)
    mouse.release(*at(3, 0))
    assert grids(editor) == {} and editor.undo_stack.count() == 0
    assert not key(tool, Qt.Key_Escape)


def test_the_other_button_does_not_end_a_stroke(editor):
    tool, mouse = make(editor)
    mouse.press(*at(0, 0))
    mouse.press(*at(1, 0), button=Qt.RightButton)
    mouse.release(*at(1, 0), button=Qt.RightButton)
    assert tool.painting and grids(editor) == {}
    mouse.release(*at(1, 0))
    assert grids(editor) == {"tiles-1": ((0, 0), ("##",))}


def test_a_level_without_a_grid_cannot_be_painted(editor):
    editor.document.set_properties(grid=0)
    tool, mouse = make(editor)
    stroke(mouse, [(0, 0)])
    assert grids(editor) == {} and "grid" in editor.messages[-1]


# -- in the editor window, with real mouse and key events ---------------------------------------------------
def test_t_and_real_strokes_paint_and_erase_one_step_each(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, Level(name="Tiles", grid=16))
    before = window.document.level
    press_key(window, Qt.Key_T)
    assert isinstance(window.tool, TileBrushTool)
    drag(window, at(1, 1), at(6, 1))
    drag(window, at(6, 2), at(6, 4))  # next to the first stroke: joins its grid
    assert {k: v[1] for k, v in grids_of(window).items()} == {"tiles-1": ("######", ".....#", ".....#", ".....#")}
    assert window.scene.item("tiles-1") is not None
    drag(window, at(3, 1), at(4, 1), button=Qt.RightButton)
    drag(window, at(6, 3), at(6, 4), modifiers=Qt.ShiftModifier)
    assert grids_of(window) == {"tiles-1": ((16, 16), ("##..##", ".....#"))}
    assert undo_texts(window) == ["Paint 6 tiles", "Paint 3 tiles", "Erase 2 tiles", "Erase 2 tiles"]
    after = window.document.level
    for _ in range(4):
        press_key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.level == before
    for _ in range(4):
        press_key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.document.level == after


def grids_of(window) -> dict[str, tuple]:
    return {o.id: ((o.origin.x, o.origin.y), o.cells) for o in window.document.objects if isinstance(o, Tiles)}
