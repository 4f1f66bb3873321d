"""The property inspector: refuses bad input where it is typed, applies good input as one undo step."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from level_editor.core.collision.shapes import Vec2
from tests.editor.helpers import click, drag, hover, move, press, release, undo_texts, window  # noqa: F401
from tests.editor.panels.helpers import type_in


def test_shows_the_selected_objects_numbers(window):
    click(window, 240, 320)
    ins = window.inspector
    assert ins.title.text() == "Pillar pillar-1"
    assert ins.field("id").text() == "pillar-1"
    assert (ins.field("center.x").text(), ins.field("center.y").text()) == ("240", "320")
    assert ins.field("radius").text() == "16"
    click(window, 400, 240)
    assert ins.field("rotation").text() == "0" and ins.field("half_extents.x").text() == "40"
    click(window, 80, 200)
    assert ins.field("thickness").text() == "8" and ins.field("nodes").text() == "3"
    assert not ins.field("closed").isChecked()


def test_good_input_is_one_undo_step_with_a_readable_label(window):
    click(window, 240, 320)
    type_in(window.inspector, "radius", "24.5")
    assert window.document.get("pillar-1").radius == 24.5
    assert undo_texts(window) == ["Change radius of pillar-1"]
    assert window.scene.item("pillar-1").sceneBoundingRect().width() >= 49
    window.undo_stack.undo()
    assert window.document.get("pillar-1").radius == 16
    assert window.inspector.field("radius").text() == "16"


def test_letters_cannot_be_typed_into_a_number(window):
    click(window, 240, 320)
    field = type_in(window.inspector, "radius", "abc")
    assert field.text() == ""
    assert field.is_invalid() and "Not applied" in field.toolTip()
    assert window.document.get("pillar-1").radius == 16
    assert window.undo_stack.count() == 0


def test_non_positive_sizes_are_marked_red_and_never_applied(window):
    click(window, 270, 95)
    for bad in ["-5", "0", "1e999", "-"]:
        field = type_in(window.inspector, "size.x", bad)
        assert field.is_invalid(), bad
        assert "border" in field.styleSheet()
        assert window.document.get("box-1").size == Vec2(64, 32)
    # leaving the field does not apply it either
    click(window, 600, 600)
    assert window.undo_stack.count() == 0
    click(window, 270, 95)
    assert window.inspector.field("size.x").text() == "64"
    assert not window.inspector.field("size.x").is_invalid()


def test_negative_positions_are_fine(window):
    click(window, 270, 95)
    type_in(window.inspector, "origin.x", "-32")
    assert window.document.get("box-1").origin == Vec2(-32, 80)
    assert undo_texts(window) == ["Change origin of box-1"]


def test_duplicate_or_empty_id_is_refused_and_a_new_one_renames(window):
    click(window, 270, 95)
    field = type_in(window.inspector, "id", "pillar-1")
    assert field.is_invalid() and "already called" in field.toolTip()
    field = type_in(window.inspector, "id", "")
    assert field.is_invalid()
    assert window.document.get("box-1") is not None and window.undo_stack.count() == 0
    type_in(window.inspector, "id", "crate")
    assert window.document.get("crate") is not None and window.document.get("box-1") is None
    assert window.selection.ids() == ["crate"]
    assert undo_texts(window) == ["Rename box-1 to crate"]
    assert window.inspector.field("id").text() == "crate"
    # a second edit goes to the renamed object
    type_in(window.inspector, "size.y", "48")
    assert window.document.get("crate").size == Vec2(64, 48)


def test_rotation_and_closed_wall(window):
    click(window, 400, 240)
    type_in(window.inspector, "rotation", "-30")
    assert window.document.get("obox-1").rotation == -30
    click(window, 80, 200)
    window.inspector.field("closed").click()
    assert window.document.get("wall-1").closed
    assert undo_texts(window) == ["Change rotation of obox-1", "Close wall-1"]


def test_follows_the_object_during_a_drag(window):
    click(window, 270, 95)
    hover(window, 270, 95)
    press(window, 270, 95)
    move(window, 302, 127)
    assert window.inspector.field("origin.x").text() == "272"
    release(window, 302, 127)


def test_player_fields_and_shape_switch(window):
    click(window, 48, 48)
    ins = window.inspector
    assert ins.title.text() == "Player"
    type_in(window.inspector, "speed", "300")
    assert window.document.player.speed == 300
    ins.field("shape").setCurrentText("box")
    assert window.document.player.shape == "box"
    type_in(window.inspector, "size.x", "20")
    assert window.document.player.size.x == 20
    type_in(window.inspector, "spawn.x", "100")
    assert window.document.player.spawn == Vec2(100, 48)
    assert undo_texts(window) == ["Change speed of player", "Change shape of player", "Change width of player",
                                  "Change spawn of player"]
    type_in(window.inspector, "size.y", "0")
    assert window.document.player.size.y == 24


def test_level_name_and_grid_when_nothing_is_selected(window):
    click(window, 600, 600)
    ins = window.inspector
    assert ins.title.text() == "Level"
    assert ins.field("objectCount").text() == "4"
    type_in(window.inspector, "grid", "-8")
    assert window.document.level.grid == 16
    type_in(window.inspector, "grid", "32")
    type_in(window.inspector, "name", "Cave")
    assert window.document.level.grid == 32 and window.document.level.name == "Cave"
    assert undo_texts(window) == ["Change grid of level", "Change name of level"]


def test_several_selected_objects_show_a_count(window):
    drag(window, (200, 60), (450, 260))
    assert window.inspector.title.text() == "2 objects selected"


def test_typing_a_wall_position_moves_the_whole_wall(window):
    click(window, 80, 200)
    wall = window.document.get("wall-1")
    ins = window.inspector
    assert (ins.field("position.x").text(), ins.field("position.y").text()) == (
        f"{wall.points[0].x:g}", f"{wall.points[0].y:g}")
    type_in(window.inspector, "position.x", str(wall.points[0].x + 100))
    moved = window.document.get("wall-1")
    assert moved.points == tuple(Vec2(p.x + 100, p.y) for p in wall.points)
    assert undo_texts(window) == ["Move wall-1"]
    window.undo_stack.undo()
    assert window.document.get("wall-1") == wall


# -- the kinds of format version 2, and Esc ---------------------------------------------------------------------
def bare_inspector(qtbot, level, selected):
    """An inspector on a context with a bare scene (no canvas needed for these fields)."""
    from PySide6.QtWidgets import QGraphicsScene

    from level_editor.core.level.document import LevelDocument
    from level_editor.editor.canvas.context import EditorContext
    from level_editor.editor.panels.inspector import Inspector

    context = EditorContext(LevelDocument(level), QGraphicsScene())
    inspector = Inspector(context)
    qtbot.addWidget(inspector)
    inspector.resize(320, 600)
    inspector.show()
    qtbot.waitExposed(inspector)
    context.selection.set([selected])
    return inspector, context


def new_kinds_level():
    from level_editor.core.level.model import Image, Level, Point, Tiles

    return Level(objects=(
        Point("goblin-1", (400, 120), type="enemy"),
        Image("backdrop", "art/courtyard.png", (0, 0), 1, 0.5),
        Tiles("floor", (144, 400), 16, ("####", "##..")),
    ))


def test_a_points_position(qtbot):
    ins, ctx = bare_inspector(qtbot, new_kinds_level(), "goblin-1")
    assert ins.title.text().endswith(" goblin-1")
    assert (ins.field("position.x").text(), ins.field("position.y").text()) == ("400", "120")
    assert "solid" not in ins.fields  # a marker never collides
    type_in(ins, "position.y", "136")
    assert ctx.document.get("goblin-1").position == Vec2(400, 136)
    assert undo_texts(ctx) == ["Change position of goblin-1"]
    ctx.undo_stack.undo()
    assert ctx.document.get("goblin-1").position == Vec2(400, 120)


def test_an_images_picture_origin_scale_and_opacity(qtbot):
    ins, ctx = bare_inspector(qtbot, new_kinds_level(), "backdrop")
    assert ins.field("path").text() == "art/courtyard.png" and ins.field("path").isReadOnly()
    assert ins.field("opacity").text() == "0.5" and ins.field("scale").text() == "1"
    for bad in ("1.5", "-0.1"):
        field = type_in(ins, "opacity", bad)
        assert field.is_invalid() and "from 0 to 1" in field.toolTip()
    type_in(ins, "scale", "0")
    assert ins.field("scale").is_invalid()
    assert ctx.undo_stack.count() == 0
    type_in(ins, "opacity", "0.25")
    type_in(ins, "scale", "2")
    type_in(ins, "origin.x", "-32")
    image = ctx.document.get("backdrop")
    assert (image.opacity, image.scale, image.origin) == (0.25, 2.0, Vec2(-32, 0))
    assert [ctx.undo_stack.text(i) for i in range(3)] == [
        "Change opacity of backdrop", "Change scale of backdrop", "Change origin of backdrop"]
    for _ in range(3):
        ctx.undo_stack.undo()
    assert ctx.document.level == new_kinds_level()


def test_a_tile_grids_origin_and_cell_size(qtbot):
    ins, ctx = bare_inspector(qtbot, new_kinds_level(), "floor")
    assert ins.title.text().endswith(" floor")
    assert ins.field("cells").text() == "4 × 2" and ins.field("solid").isChecked()
    type_in(ins, "cell", "-4")
    assert ins.field("cell").is_invalid()
    type_in(ins, "cell", "32")
    type_in(ins, "origin.y", "384")
    tiles = ctx.document.get("floor")
    assert (tiles.cell, tiles.origin) == (32.0, Vec2(144, 384))
    assert [ctx.undo_stack.text(i) for i in range(2)] == ["Change cell size of floor", "Change origin of floor"]


def test_esc_in_a_field_puts_back_the_value_it_showed(window):
    click(window, 240, 320)
    field = type_in(window.inspector, "radius", "99", enter=False)
    assert field.text() == "99"
    QTest.keyClick(field, Qt.Key_Escape)
    assert field.text() == "16" and not field.is_invalid()
    QTest.keyClick(field, Qt.Key_Return)
    assert window.undo_stack.count() == 0 and window.document.get("pillar-1").radius == 16


def test_the_inspector_never_scrolls_sideways(window):
    assert window.inspector.scroll_area.horizontalScrollBarPolicy() == Qt.ScrollBarAlwaysOff
    click(window, 600, 600)
    inner = window.inspector.scroll_area.widget()
    assert inner.width() <= window.inspector.scroll_area.viewport().width()


def test_select_all_of_many_objects_reads_every_one_as_it_is(qtbot, tmp_path):
    from level_editor.core.level.model import Box, Level, Pillar
    from tests.editor.helpers import make_window

    objects = tuple(Box(f"box-{i}", (i * 40, 0), (20, 20), layer="main") if i % 2 else
                    Pillar(f"pillar-{i}", (i * 40, 100), 8, layer="main") for i in range(100))
    win = make_window(qtbot, tmp_path, Level(objects=objects))
    win.select_all()
    ids = win.selection.ids()
    assert win.inspector._objects(ids) == [win.document.get(i) for i in ids] == list(objects)
    reordered = ids[::-1]
    assert win.inspector._objects(reordered) == [win.document.get(i) for i in reordered]
    assert win.inspector.title.text() == "100 objects selected"
