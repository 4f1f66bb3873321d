"""Issue 14 and 16 in the inspector: every typed value is bounded, numbers read as a designer reads them,
refusals explain themselves under the fields, several objects edit their shared fields in one step, and a
wall's nodes are typed in a table."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QGraphicsScene

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Image, Layer, Level, OrientedBox, Pillar, Player, Point, Tiles, Wall
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.panels.field_limits import shown_number
from level_editor.editor.panels.inspector import Inspector
from tests.editor.helpers import undo_texts
from tests.editor.panels.helpers import type_in


def level() -> Level:
    return Level(
        grid=16,
        layers=(Layer("main", "Main"), Layer("art", "Art")),
        player=Player(spawn=(48, 48), radius=12),
        objects=(
            Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8, False, layer="main"),
            Wall("wall-2", [(0, 400), (100, 400)], 8, False, layer="main"),
            Box("box-1", (240, 80), (64, 32), layer="main"),
            Box("box-2", (400, 80), (64, 48), layer="main"),
            OrientedBox("obox-1", (400, 240), (40, 10), 0, layer="main"),
            Pillar("pillar-1", (240, 320), 16.123456789, layer="main"),
            Point("goblin-1", (400, 120), layer="main"),
            Image("backdrop", "art/x.png", (0, 0), 1, 0.5, layer="art"),
            Tiles("floor", (144, 400), 16, ("####",), layer="main"),
        ),
    )


@pytest.fixture
def inspector(qtbot):
    context = EditorContext(LevelDocument(level()), QGraphicsScene())
    ins = Inspector(context)
    qtbot.addWidget(ins)
    ins.resize(300, 700)
    ins.show()
    qtbot.waitExposed(ins)
    messages = []
    context.message.connect(messages.append)
    ins.messages = messages
    return ins, context


# -- issue 14: bounded values ---------------------------------------------------------------------------
def test_a_grid_of_1e_320_is_refused_and_explained_under_the_field(inspector):
    ins, ctx = inspector
    for bad in ("1e-320", "0.5", "10000", "1e999", "-16"):
        field = type_in(ins, "grid", bad)
        assert field.is_invalid(), bad
        assert "Grid" in ins.problem_text() and "from 1 to 9,999" in ins.problem_text() or bad == "1e999", bad
        assert ins.problem.isVisible()
    assert ctx.document.level.grid == 16 and ctx.undo_stack.count() == 0
    type_in(ins, "grid", "9999")
    assert ctx.document.level.grid == 9999 and ins.problem_text() == ""


@pytest.mark.parametrize("selected,key,bad", [
    ("box-1", "origin.x", "2e7"), ("box-1", "size.x", "1e-7"), ("box-1", "size.y", "1e8"),
    ("pillar-1", "radius", "0"), ("pillar-1", "center.y", "-1e7.5"), ("obox-1", "rotation", "720"),
    ("obox-1", "half_extents.x", "-1"), ("wall-1", "thickness", "1e300"), ("wall-1", "position.x", "1e9"),
    ("floor", "cell", "0"), ("goblin-1", "position.x", "nan"), ("backdrop", "scale", "1e6"),
    ("backdrop", "opacity", "2"), ("player", "speed", "0"), ("player", "speed", "2e6"),
    ("player", "radius", "1e-9"), ("player", "spawn.x", "-2e7"),
])
def test_every_number_outside_its_range_is_refused_without_a_command(inspector, selected, key, bad):
    ins, ctx = inspector
    ctx.selection.set([selected])
    before = ctx.document.level
    field = type_in(ins, key, bad)
    assert field.is_invalid()
    assert ins.problem_text(), "the refusal is said under the fields"
    assert ctx.undo_stack.count() == 0 and ctx.document.level == before


def test_an_object_pushed_past_the_largest_coordinate_is_refused_whole(inspector):
    ins, ctx = inspector
    ctx.selection.set(["box-1"])
    type_in(ins, "origin.x", "9999990")  # in range by itself, but the box is 64 wide
    assert ctx.undo_stack.count() == 0
    assert "beyond 10,000,000" in ins.problem_text() and "not applied" in ins.problem_text()
    assert ins.messages and "not applied" in ins.messages[-1]  # the status bar says it too
    assert ins.field("origin.x").text() == "240"


def test_leaving_a_field_with_a_refused_value_puts_back_the_value_and_says_why(inspector):
    ins, ctx = inspector
    ctx.selection.set(["box-1"])
    type_in(ins, "size.x", "-5", enter=False)
    ins.field("size.y").setFocus()
    assert ins.field("size.x").text() == "64" and not ins.field("size.x").is_invalid()
    assert ins.problem_text() == "Width: must be from 0.000001 to 10,000,000 (not applied)"
    assert ctx.undo_stack.count() == 0


def test_property_numbers_and_names_are_bounded(inspector):
    from level_editor.editor.commands.properties import parse_value

    with pytest.raises(ValueError, match="from -9,007,199,254,740,991"):
        parse_value("integer", "99999999999999999999", "gold")
    with pytest.raises(ValueError, match="finite"):
        parse_value("float", "inf", "speed")
    with pytest.raises(ValueError, match="1,000,000,000,000,000"):
        parse_value("float", "1e300", "speed")
    assert parse_value("integer", "-42", "gold") == -42
    ins, ctx = inspector
    ctx.selection.set(["box-1"])
    assert ins.field("id").maxLength() == 200


# -- issue 16.6: numbers as a designer reads them; Esc ---------------------------------------------------
def test_numbers_show_at_most_three_decimals_and_keep_full_precision_until_edited(inspector):
    ins, ctx = inspector
    ctx.selection.set(["pillar-1"])
    field = ins.field("radius")
    assert field.text() == "16.123"
    assert "16.123456789" in field.toolTip()
    field.setFocus()
    QTest.keyClick(field, Qt.Key_Return)  # Enter without typing: nothing changes
    ins.field("center.x").setFocus()
    assert ctx.document.get("pillar-1").radius == 16.123456789 and ctx.undo_stack.count() == 0
    assert [shown_number(v) for v in (0.1 + 0.2, 1e-6, 1234567.0, -0.0004, 2.5)] == \
        ["0.3", "1e-06", "1234567", "-0.0004", "2.5"]


def test_esc_while_editing_restores_the_previous_value_and_clears_the_message(inspector):
    ins, ctx = inspector
    ctx.selection.set(["obox-1"])
    field = type_in(ins, "rotation", "999", enter=False)
    assert "Rotation" in ins.problem_text()
    QTest.keyClick(field, Qt.Key_Escape)
    assert field.text() == "0" and ins.problem_text() == ""
    assert ctx.undo_stack.count() == 0


def test_no_sideways_scrollbar_at_the_docks_default_width(inspector):
    ins, ctx = inspector
    for selected in (["wall-1"], ["box-1", "box-2"], ["player"], [], ["backdrop"], ["floor"]):
        ctx.selection.set(selected)
        QApplication.processEvents()  # the layout requests of the new fields, posted: served (no timer involved)
        inner = ins.scroll_area.widget()
        assert inner.minimumSizeHint().width() <= ins.scroll_area.viewport().width(), selected
        assert not ins.scroll_area.horizontalScrollBar().isVisible()


# -- issue 16.9: several objects, a wall's nodes ------------------------------------------------------------
def test_several_walls_change_thickness_in_one_step(inspector):
    ins, ctx = inspector
    ctx.selection.set(["wall-1", "wall-2"])
    assert ins.field("thickness").text() == "8"
    type_in(ins, "thickness", "12")
    assert [ctx.document.get(i).thickness for i in ("wall-1", "wall-2")] == [12, 12]
    assert undo_texts(ctx) == ["Change thickness of 2 objects"]
    ctx.undo_stack.undo()
    assert [ctx.document.get(i).thickness for i in ("wall-1", "wall-2")] == [8, 8]


def test_a_field_whose_values_differ_is_blank_until_typed(inspector):
    ins, ctx = inspector
    ctx.selection.set(["box-1", "box-2"])
    width, height = ins.field("size.x"), ins.field("size.y")
    assert width.text() == "64"
    assert height.text() == "" and height.placeholderText() == "—" and not height.is_invalid()
    height.setFocus()
    QTest.keyClick(height, Qt.Key_Return)
    ins.field("origin.x").setFocus()
    assert ctx.undo_stack.count() == 0
    type_in(ins, "size.y", "40")
    assert [ctx.document.get(i).size for i in ("box-1", "box-2")] == [Vec2(64, 40), Vec2(64, 40)]
    assert undo_texts(ctx) == ["Change height of 2 objects"]
    assert height.text() == "40" and height.placeholderText() == ""


def test_mixed_kinds_share_only_the_fields_they_all_have(inspector):
    ins, ctx = inspector
    ctx.selection.set(["box-1", "floor", "backdrop"])
    assert {"origin.x", "origin.y", "layer", "type"} <= set(ins.fields)
    assert "size.x" not in ins.fields and "solid" not in ins.fields
    type_in(ins, "origin.y", "0")
    assert [ctx.document.get(i).origin.y for i in ("box-1", "floor", "backdrop")] == [0, 0, 0]
    assert ctx.undo_stack.count() == 1


def test_the_layer_of_several_objects_changes_in_one_step(inspector):
    ins, ctx = inspector
    ctx.selection.set(["box-1", "backdrop"])
    combo = ins.field("layer")
    assert combo.currentText() == "—"
    combo.activated.emit(combo.findData("art"))
    assert [ctx.document.get(i).layer for i in ("box-1", "backdrop")] == ["art", "art"]
    assert ctx.undo_stack.count() == 1
    assert ins.field("layer").currentText() == "Art"


def test_a_walls_nodes_are_typed_in_a_table_one_step_each(inspector, qtbot):
    ins, ctx = inspector
    ctx.selection.set(["wall-1"])
    view = ins.nodes.view
    model = view.model()
    assert model.rowCount() == 3 and model.index(1, 0).data() == "160"
    index = model.index(1, 1)
    view.setCurrentIndex(index)
    view.setFocus()
    view.edit(index)
    editor = view.indexWidget(index)
    editor.selectAll()
    QTest.keyClicks(editor, "240")
    QTest.keyClick(editor, Qt.Key_Return)
    # the delegate commits on a later turn of the event loop
    qtbot.waitUntil(lambda: ctx.document.get("wall-1").points[1] == Vec2(160, 240))
    assert undo_texts(ctx) == ["Move node 2 of wall-1"]
    # a refused value: no command, a message
    view.edit(index)
    editor = view.indexWidget(index)
    editor.selectAll()
    QTest.keyClicks(editor, "3e7")
    QTest.keyClick(editor, Qt.Key_Return)
    qtbot.waitUntil(lambda: "Node 2 y" in ins.problem_text())
    assert ctx.undo_stack.count() == 1
    # Esc while editing a cell leaves the node where it was
    view.edit(index)
    editor = view.indexWidget(index)
    QTest.keyClicks(editor, "5")
    QTest.keyClick(editor, Qt.Key_Escape)
    qtbot.waitUntil(lambda: view.indexWidget(index) is None)  # the editor closed, dropping what was typed
    assert ctx.document.get("wall-1").points[1] == Vec2(160, 240)


def test_nodes_are_added_and_removed_from_the_table(inspector):
    ins, ctx = inspector
    ctx.selection.set(["wall-2"])
    table = ins.nodes
    assert not table.remove_button.isEnabled()  # a wall keeps two nodes
    table.view.setCurrentIndex(table.model.index(0, 0))
    QTest.mouseClick(table.add_button, Qt.LeftButton)
    assert ctx.document.get("wall-2").points == (Vec2(0, 400), Vec2(50, 400), Vec2(100, 400))
    assert table.model.rowCount() == 3 and table.remove_button.isEnabled()
    table.view.setCurrentIndex(table.model.index(2, 0))
    QTest.mouseClick(table.remove_button, Qt.LeftButton)
    assert ctx.document.get("wall-2").points == (Vec2(0, 400), Vec2(50, 400))
    assert undo_texts(ctx) == ["Add node to wall-2", "Remove node 3 of wall-2"]
    ctx.undo_stack.undo()
    ctx.undo_stack.undo()
    assert ctx.document.get("wall-2").points == (Vec2(0, 400), Vec2(100, 400))


# -- the Qt boundary ---------------------------------------------------------------------------------------
def test_an_error_while_applying_is_reported_never_raised(inspector, monkeypatch):
    from level_editor.editor.support.guard import set_error_handler

    ins, ctx = inspector
    reported = []
    set_error_handler(lambda where, error, *_: reported.append((where, str(error))))
    try:
        ctx.selection.set(["pillar-1"])

        def broken(command):
            raise RuntimeError("the stack is gone")

        monkeypatch.setattr(ctx, "push", broken)
        type_in(ins, "radius", "20")
        ctx.selection.set(["wall-1"])
        ins.nodes.model.setData(ins.nodes.model.index(0, 0), "5")
    finally:
        set_error_handler(None)
    assert ("changing radius", "the stack is gone") in reported
    assert any(where == "moving a wall's node" for where, _ in reported)
    assert ctx.document.get("pillar-1").radius == 16.123456789


def test_long_names_are_refused_everywhere():
    from level_editor.editor.panels.types_editor import type_name_problem
    from level_editor.editor.commands.properties import id_problem, name_problem

    long = "n" * 201
    assert "at most 200" in type_name_problem(long, [])
    assert "at most 200" in name_problem(long, [], "gate")
    assert "at most 200" in id_problem(LevelDocument(level()), long)


def test_a_rubber_band_then_one_typed_width_resizes_every_box_in_one_step(qtbot, tmp_path):
    from tests.editor.helpers import drag, make_window, undo_texts as window_undo_texts

    window = make_window(qtbot, tmp_path, Level(objects=(
        Box("crate-1", (100, 100), (32, 32)), Box("crate-2", (200, 100), (48, 32)),
        Pillar("post", (400, 400), 10))))
    drag(window, (80, 80), (280, 160))
    assert window.selection.ids() == ["crate-1", "crate-2"]
    ins = window.inspector
    assert ins.field("size.x").placeholderText() == "—" and ins.field("size.y").text() == "32"
    field = ins.field("size.x")
    field.setFocus()
    QTest.keyClicks(field, "40")
    QTest.keyClick(field, Qt.Key_Return)
    assert [window.document.get(i).size for i in ("crate-1", "crate-2")] == [Vec2(40, 32), Vec2(40, 32)]
    assert window_undo_texts(window) == ["Change width of 2 objects"]
    QTest.keyClick(window.canvas, Qt.Key_Z, Qt.ControlModifier)
    assert [window.document.get(i).size.x for i in ("crate-1", "crate-2")] == [32, 48]


def test_a_big_selection_shows_its_shared_numbers_once_a_drag_pauses(qtbot):
    from dataclasses import replace as replaced

    from level_editor.editor.commands.objects import ChangeObjectsCommand
    from level_editor.editor.panels.inspector import BIG_SELECTION

    boxes = tuple(Box(f"box-{i}", (i * 40.0, 0.0), (24.0, 24.0)) for i in range(BIG_SELECTION + 10))
    context = EditorContext(LevelDocument(Level(objects=boxes)), QGraphicsScene())
    ins = Inspector(context)
    qtbot.addWidget(ins)
    context.selection.set([b.id for b in boxes])
    qtbot.waitUntil(lambda: ins.field("size.x").text() == "24", timeout=2000)
    assert ins.field("origin.y").text() == "0" and ins.field("origin.x").placeholderText() == "—"
    old = context.document.objects
    context.push(ChangeObjectsCommand(context.document, old, [replaced(b, size=Vec2(30, 24)) for b in old], "Grow"))
    assert ins.field("size.x").text() == "24"  # not on every step of a gesture...
    qtbot.waitUntil(lambda: ins.field("size.x").text() == "30", timeout=2000)  # ...but as soon as it pauses


def test_a_tile_grid_wider_than_the_largest_size_is_refused(inspector):
    ins, ctx = inspector
    ctx.selection.set(["floor"])
    type_in(ins, "origin.x", "-9000000")
    assert ctx.document.get("floor").origin.x == -9_000_000
    type_in(ins, "cell", "4000000")  # 4 columns: 16,000,000 wide, though every corner is within range
    assert ctx.document.get("floor").cell == 16
    assert "wider or taller than 10,000,000" in ins.problem_text()
    ctx.selection.set(["backdrop"])
    type_in(ins, "scale", "5000")  # the loader takes up to 10,000
    assert ctx.document.get("backdrop").scale == 5000


def test_a_node_beyond_the_limits_is_refused(inspector, monkeypatch):
    import level_editor.editor.panels.wall_nodes as wall_nodes

    ins, ctx = inspector
    ctx.selection.set(["wall-2"])
    monkeypatch.setattr(wall_nodes, "MAX_WALL_NODES", 2)
    assert not ins.nodes.model.add_after(0)
    assert "at most 2 nodes" in ins.problem_text()
    monkeypatch.setattr(wall_nodes, "MAX_WALL_NODES", 500_000)
    monkeypatch.setattr(wall_nodes, "MAX_LEVEL_NODES", 5)  # the level's walls hold 3 + 2
    assert not ins.nodes.model.add_after(0)
    assert "5 nodes in all" in ins.problem_text()
    assert ctx.undo_stack.count() == 0
