"""Snapping is total (issue 14): any grid, any position, never an exception; whole pixels without a grid (issue 16.11)."""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF, QSettings, Qt

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.limits import MAX_COORDINATE, MAX_GRID, MAX_SIZE, MIN_GRID
from level_editor.core.level.model import Box, Level, Pillar, Player, Tiles, Wall
from level_editor.editor.canvas.snapping import PIXELS_SETTING, clamp_coordinate, snap_value, usable_grid
from level_editor.editor.support.guard import set_error_handler
from tests.editor.helpers import click, drag, key, make_window

BAD_GRIDS = [0.0, -16.0, float("nan"), float("inf"), float("-inf"), 1e-320, 5e-324, 1e-300, 0.5, 1e300, 12345.0]
POSITIONS = [(23.0, 41.0), (1e300, -1e300), (float("inf"), float("-inf")), (float("nan"), 3.0), (-7.5, 1e-320),
             (MAX_COORDINATE + 0.4, -MAX_COORDINATE - 0.4)]


def finite_within_limits(p: QPointF) -> bool:
    return all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in (p.x(), p.y()))


@pytest.mark.parametrize("grid", BAD_GRIDS)
def test_snapping_never_raises_and_stays_within_the_limits(editor, grid):
    editor.document.reset(Level(grid=grid, objects=(Wall("wall-1", [(0, 0), (64, 0)], 8),)))
    snapper = editor.snapper
    for objects in (True, False):
        snapper.set_objects_enabled(objects)
        for pixels in (False, True):
            snapper.set_pixels_enabled(pixels)
            for x, y in POSITIONS:
                for modifiers in (Qt.NoModifier, Qt.ControlModifier):
                    p = editor.snap(QPointF(x, y), modifiers)
                    assert finite_within_limits(p), (grid, x, y, p)


def test_a_grid_outside_the_editors_range_is_used_as_its_nearest_end(editor):
    assert usable_grid(1e-320) == MIN_GRID and usable_grid(1e300) == MAX_GRID
    assert usable_grid(0) is None and usable_grid(float("nan")) is None and usable_grid("16") == 16.0
    editor.document.reset(Level(grid=1e-320))
    assert editor.snap(QPointF(23.4, 41.6)) == QPointF(23, 42)
    assert snap_value(1e300, 16.0) == MAX_COORDINATE and clamp_coordinate(float("nan")) == 0.0


def test_snap_to_pixels_rounds_only_where_the_grid_does_not_snap(editor):
    snapper = editor.snapper
    p = QPointF(654.5626297577855, 12.25)
    assert editor.snap(p) == QPointF(656, 16)  # the grid of 16 snaps
    snapper.set_enabled(False)
    assert editor.snap(p) == p
    snapper.set_pixels_enabled(True)
    assert editor.snap(p) == QPointF(655, 12)
    assert snapper.last.kind == "pixel"
    assert editor.snap(p, Qt.ControlModifier) == p, "Ctrl suspends every snap"
    editor.document.reset(Level(grid=0))
    snapper.set_enabled(True)
    assert editor.snap(p) == QPointF(655, 12), "a level without a grid snaps to pixels too"


@pytest.mark.parametrize("grid", [1e-320, float("nan"), 0.0, 1e300])
def test_every_drawing_tool_works_with_a_broken_grid_and_reports_nothing(qtbot, tmp_path, grid):
    errors = []
    set_error_handler(lambda where, error, *rest: errors.append((where, repr(error))))
    try:
        window = make_window(qtbot, tmp_path, Level(grid=grid, player=Player(spawn=(48, 48), radius=12)))
        key(window, Qt.Key_W)
        click(window, 100, 300)
        click(window, 200, 300)
        key(window, Qt.Key_BracketRight)
        key(window, Qt.Key_Return)
        key(window, Qt.Key_B)
        drag(window, (300, 100), (364, 148))
        key(window, Qt.Key_C)
        drag(window, (500, 300), (540, 300))
        key(window, Qt.Key_T)
        drag(window, (100, 500), (180, 500))
        key(window, Qt.Key_I)
        drag(window, (48, 48), (80, 80))
        assert errors == []
        objects = window.document.objects
        for obj in objects:
            box = obj.bounds()
            assert all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in box), obj
        kinds = {type(o) for o in objects}
        if grid == 1e300:
            return  # a grid of 9999 (its nearest usable value) puts every click of this test on (0, 0)
        assert {Wall, Box, Pillar} <= kinds
        wall = next(o for o in objects if isinstance(o, Wall))
        assert 0 < wall.thickness <= MAX_SIZE
        if usable_grid(grid) is not None:
            assert Tiles in kinds
    finally:
        set_error_handler(None)


def test_snap_to_pixels_in_the_view_menu_makes_drags_write_whole_numbers_and_is_remembered(qtbot, tmp_path):
    level = Level(grid=16, objects=(Box("box-1", (240, 80), (64, 32)),))
    window = make_window(qtbot, tmp_path, level)
    action = window.snap_pixels_action
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert action in view_menu.actions() and action.isCheckable() and not action.isChecked()
    window.canvas.set_zoom(1.37)  # one screen pixel is no whole number of level units
    key(window, Qt.Key_G)  # grid snapping off
    drag(window, (270, 95), (301.3, 117.9))
    moved = window.document.get("box-1").origin
    assert (moved.x, moved.y) != (round(moved.x), round(moved.y)), "without it, a drag lands between pixels"
    action.trigger()
    assert window.context.snapper.pixels_enabled
    drag(window, (moved.x + 30, moved.y + 15), (moved.x + 77.7, moved.y + 51.1))
    origin = window.document.get("box-1").origin
    assert origin.x == int(origin.x) and origin.y == int(origin.y)
    window.settings.sync()
    again = make_window(qtbot, tmp_path, level)
    assert again.snap_pixels_action.isChecked() and again.context.snapper.pixels_enabled
    assert QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat).value(PIXELS_SETTING) in (True, "true")


def test_the_document_of_a_reset_level_is_snapped_afresh(editor):
    doc: LevelDocument = editor.document
    doc.reset(Level(grid=32))
    assert editor.snap(QPointF(20, 20)) == QPointF(32, 32)


def test_arrow_keys_nudge_by_the_usable_grid_even_when_the_levels_grid_is_broken(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, Level(grid=float("nan"), objects=(Box("box-1", (240, 80), (64, 32)),)))
    click(window, 270, 95)
    assert window.selection.ids() == ["box-1"]
    key(window, Qt.Key_Right)
    origin = window.document.get("box-1").origin
    assert (origin.x, origin.y) == (241, 80)
    window.document.reset(Level(grid=1e-320, objects=(Box("box-1", (240, 80), (64, 32)),)))
    window.selection.set(["box-1"])
    key(window, Qt.Key_Down)
    origin = window.document.get("box-1").origin
    assert (origin.x, origin.y) == (240, 80 + MIN_GRID)
