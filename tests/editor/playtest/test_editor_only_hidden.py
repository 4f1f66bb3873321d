"""F5 shows the level as the game will: every editing aid is hidden while playing and back at Esc (issue 16.3)."""
from __future__ import annotations

from PySide6.QtCore import Qt

from level_editor.editor.support.editor_only import is_editor_only
from level_editor.editor.items.handle_item import HandleItem
from level_editor.editor.items.layer_item import LayerItem
from level_editor.editor.items.object_item import ObjectItem
from tests.editor.helpers import click, hover, key, move, press
from tests.editor.playtest.conftest import play, tap


def visible_aids(window):
    return [i for i in window.scene.items() if is_editor_only(i) and i.isVisible()]


def _level_object_or_part(item) -> bool:
    """Whether ``item`` is a layer (it draws nothing), a level object, or part of one."""
    if isinstance(item, LayerItem):
        return True
    while item is not None:
        if isinstance(item, ObjectItem):
            return True
        item = item.parentItem()
    return False


def shown_while_playing(window, session):
    """Every visible item that is neither a level object (under its layer's item) nor the play-test's own."""
    own = {session.player_item, session.overlay}
    out = []
    for item in window.scene.items():
        if not item.isVisible() or item in own or item.topLevelItem() in own:
            continue
        if _level_object_or_part(item):
            continue
        out.append(item)
    return out


def test_handles_a_half_drawn_wall_the_snap_marker_and_hulls_hide_while_playing_and_come_back(qtbot, play_window):
    w = play_window
    # the select tool's handles on the box, the hull overlay
    w.selection.set(["wall"])
    assert any(isinstance(i, HandleItem) and i.isVisible() for i in w.scene.items())
    w.show_hulls_action.trigger()
    # a half-drawn wall with its preview and node handles, the snap marker on an object's corner
    key(w, Qt.Key_W)
    click(w, 96, 96)
    click(w, 192, 96)
    hover(w, 401, -399)
    assert w.context.snapper.marker_visible()
    before = visible_aids(w)
    assert len(before) >= 5 and w.hulls_item in before

    session = play(qtbot, w)
    assert visible_aids(w) == []
    assert shown_while_playing(w, session) == [], "nothing but the level and the player is drawn"
    assert not w.selection, "no selection highlight while playing"

    tap(qtbot, w, Qt.Key_Escape)
    assert not w.play_mode.is_playing
    assert set(visible_aids(w)) >= set(before) - {w.context.snapper.marker}
    # the wall being drawn is still there, and goes on where it was
    assert [(p.x(), p.y()) for p in w.tool.nodes] == [(96, 96), (192, 96)]
    click(w, 192, 192)
    key(w, Qt.Key_Return)
    assert [(p.x, p.y) for p in w.document.get("wall-1").points] == [(96, 96), (192, 96), (192, 192)]


def test_a_drag_under_way_at_f5_shows_no_rubber_band_while_playing(qtbot, play_window):
    w = play_window
    hover(w, -200, -200)
    press(w, -200, -200)
    move(w, -100, -120)
    bands = [i for i in w.scene.items() if is_editor_only(i) and i.isVisible()]
    assert bands, "the rubber band is showing"
    session = play(qtbot, w)
    assert shown_while_playing(w, session) == []
    tap(qtbot, w, Qt.Key_Escape)


def test_aids_hidden_before_f5_stay_hidden_after_esc(qtbot, play_window):
    w = play_window
    assert not w.hulls_item.isVisible()
    play(qtbot, w)
    tap(qtbot, w, Qt.Key_Escape)
    assert not w.hulls_item.isVisible()
    assert not w.context.snapper.marker_visible()


def test_the_grid_lines_hide_while_playing_and_come_back_as_they_were(qtbot, play_window):
    """The game draws no grid: F5 hides the lines (not the setting), Esc gives back what View > Show Grid says."""
    w = play_window
    canvas = w.canvas

    def grid_pixels() -> int:
        """How many pixels of the canvas show a grid line's colour (the empty level: nothing else is drawn there)."""
        from level_editor.editor.canvas.canvas import MAJOR_LINE, MINOR_LINE

        image = canvas.viewport().grab().toImage()
        lines = {MINOR_LINE.rgb(), MAJOR_LINE.rgb()}
        return sum(image.pixel(x, y) in lines for x in range(0, image.width(), 3) for y in range(0, image.height(), 3))

    assert canvas.grid_shown() and grid_pixels() > 0
    play(qtbot, w)
    assert not canvas.grid_shown() and grid_pixels() == 0
    assert w.show_grid_action.isChecked() and not w.show_grid_action.isEnabled()  # the setting is untouched
    tap(qtbot, w, Qt.Key_Escape)
    assert canvas.grid_shown() and grid_pixels() > 0
    w.show_grid_action.trigger()  # hidden by the designer: it stays hidden after a play-test too
    play(qtbot, w)
    tap(qtbot, w, Qt.Key_Escape)
    assert not canvas.grid_shown() and not w.show_grid_action.isChecked()


def test_paths_one_way_arrows_and_names_hide_while_playing_and_come_back(qtbot, tmp_path):
    """What an object draws for editing (its path and ghosts, a one-way floor's arrows, its type's name, a marker's
    name) is not drawn while playing; Esc draws it again."""
    from level_editor.core.level.model import Box, Level, ObjectType, Player, Point
    from level_editor.core.level.motion import MovePath
    from level_editor.editor.items.path_mark import PATH_COLOR
    from level_editor.editor.items.one_way_mark import MARK_COLOR as ONE_WAY_COLOR
    from tests.editor.playtest.conftest import open_window

    level = Level(types=(ObjectType("lift_type", "#3060c0"),), objects=(
        Box("lift", (200, 300), (120, 16), type="lift_type", path=MovePath(((0, 0), (0, -120)), 1.0)),
        Box("ledge", (420, 260), (160, 16), one_way=True),
        Point("flag", (520, 200)),
    ), player=Player(spawn=(80, 250)))
    window = open_window(qtbot, tmp_path, level)
    window.canvas.set_zoom(1.0)
    window.canvas.centerOn(380, 250)

    def colour_count(color) -> int:
        image = window.canvas.viewport().grab().toImage()
        return sum(image.pixelColor(x, y).rgb() == color.rgb()
                   for x in range(0, image.width(), 2) for y in range(0, image.height(), 2))

    before = (colour_count(PATH_COLOR), colour_count(ONE_WAY_COLOR))
    assert before[0] > 0 and before[1] > 0
    play(qtbot, window)
    assert window.scene.looks.playing
    assert (colour_count(PATH_COLOR), colour_count(ONE_WAY_COLOR)) == (0, 0)
    tap(qtbot, window, Qt.Key_Escape)
    assert not window.scene.looks.playing
    assert (colour_count(PATH_COLOR), colour_count(ONE_WAY_COLOR)) == before
