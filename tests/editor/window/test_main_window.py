"""The main window: shortcuts, undo/redo, clipboard, duplicate/delete/select all, title, status bar."""
from __future__ import annotations

import json

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Box, Level, Pillar
from level_editor.core.collision.shapes import Vec2
from level_editor.editor.documents.clipboard import CLIPBOARD_FORMAT
from tests.editor.helpers import click, drag, hover, key, make_window, undo_texts, window  # noqa: F401


def test_undo_and_redo_keys_with_readable_labels(window):
    drag(window, (270, 95), (302, 127))
    assert undo_texts(window) == ["Move box"]
    assert window.undo_action.text() == "&Undo Move box"
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.get("box-1").origin == Vec2(240, 80)
    assert window.redo_action.text() == "&Redo Move box"
    key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.document.get("box-1").origin == Vec2(272, 112)
    key(window, Qt.Key_Z, Qt.ControlModifier)
    key(window, Qt.Key_Y, Qt.ControlModifier)
    assert window.document.get("box-1").origin == Vec2(272, 112)
    assert window.undo_stack.index() == 1


def test_title_names_the_file_and_marks_unsaved_changes(window):
    assert window.windowTitle().startswith("Untitled[*]")
    assert not window.isWindowModified()
    drag(window, (270, 95), (302, 127))
    assert window.isWindowModified()
    window.undo_stack.undo()
    assert not window.isWindowModified()


def test_tool_keys_switch_tools_exclusively(window):
    other = [t for t in window.tools if t.shortcut and t.shortcut != "S"]
    for tool in other:
        key(window, getattr(Qt, f"Key_{tool.shortcut}"))
        assert window.tool is tool
        assert window.tool_actions[tool].isChecked()
        assert sum(a.isChecked() for a in window.tool_actions.values()) == 1
    key(window, Qt.Key_S)
    assert type(window.tool).__name__ == "SelectTool"
    assert window.scene.tool is window.tool


def test_g_toggles_grid_snapping(window):
    assert window.context.snapper.enabled and window.snap_action.isChecked()
    key(window, Qt.Key_G)
    assert not window.context.snapper.enabled and not window.snap_action.isChecked()
    drag(window, (270, 95), (275, 101))
    assert window.document.get("box-1").origin == Vec2(245, 86)
    key(window, Qt.Key_G)
    assert window.context.snapper.enabled


def test_shift_g_toggles_snapping_to_objects(window):
    snapper = window.context.snapper
    near = QPointF(362, 231)  # near obox-1's corner (360, 230), which is off the 16 px grid
    assert snapper.objects_enabled and window.snap_objects_action.isChecked()
    assert snapper.snap(near) == QPointF(360, 230)
    key(window, Qt.Key_G, Qt.ShiftModifier)
    assert not snapper.objects_enabled and not window.snap_objects_action.isChecked()
    assert snapper.snap(near) == QPointF(368, 224), "grid snapping stays on"
    key(window, Qt.Key_G, Qt.ShiftModifier)
    assert snapper.objects_enabled and window.snap_objects_action.isChecked()


def test_select_all_delete_and_undo(window):
    key(window, Qt.Key_A, Qt.ControlModifier)
    assert set(window.selection.ids()) == {"wall-1", "box-1", "obox-1", "pillar-1"}
    key(window, Qt.Key_Delete)
    assert len(window.document) == 0
    assert undo_texts(window) == ["Delete 4 objects"]
    assert window.selection.ids() == []
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert [o.id for o in window.document.objects] == ["wall-1", "box-1", "obox-1", "pillar-1"]
    assert len(window.scene.object_items()) == 4


def test_delete_keeps_the_player(window):
    click(window, 48, 48)
    click(window, 270, 95, Qt.ShiftModifier)
    key(window, Qt.Key_Delete)
    assert window.document.get("box-1") is None
    assert window.selection.ids() == ["player"]
    assert window.document.player.spawn == Vec2(48, 48)


def test_duplicate_makes_offset_copies_with_fresh_ids_in_one_step(window):
    click(window, 270, 95)
    click(window, 240, 320, Qt.ShiftModifier)
    key(window, Qt.Key_D, Qt.ControlModifier)
    ids = window.selection.ids()
    assert len(ids) == 2 and not set(ids) & {"box-1", "pillar-1"}
    copies = [window.document.get(i) for i in ids]
    assert copies[0].origin == Vec2(256, 96) and copies[0].size == Vec2(64, 32)
    assert copies[1].center == Vec2(256, 336) and copies[1].radius == 16
    assert undo_texts(window) == ["Duplicate 2 objects"]
    window.undo_stack.undo()
    assert len(window.document) == 4


def test_copy_writes_level_json_to_the_system_clipboard(window):
    click(window, 270, 95)
    key(window, Qt.Key_C, Qt.ControlModifier)
    data = json.loads(QApplication.clipboard().text())
    assert data["format"] == CLIPBOARD_FORMAT
    assert data["objects"] == [{"id": "box-1", "kind": "box", "layer": "main", "origin": [240, 80], "size": [64, 32]}]


def test_paste_in_another_window(qtbot, tmp_path, window):
    click(window, 270, 95)
    click(window, 240, 320, Qt.ShiftModifier)
    click(window, 48, 48, Qt.ShiftModifier)  # the player is not copied
    key(window, Qt.Key_C, Qt.ControlModifier)
    other = make_window(qtbot, tmp_path, Level(name="Other", objects=(Box("box-1", (0, 0), (16, 16)),)),
                        name="other.ini")
    key(other, Qt.Key_V, Qt.ControlModifier)
    doc = other.document
    assert len(doc) == 3
    pasted = other.selection.ids()
    assert len(pasted) == 2 and "box-1" not in pasted and "pillar-1" in pasted
    box = doc.get(pasted[0])
    assert box.size == Vec2(64, 32) and box.origin == Vec2(240, 80)  # visible where it was: no offset
    assert undo_texts(other) == ["Paste 2 objects"]
    other.undo_stack.undo()
    assert [o.id for o in doc.objects] == ["box-1"]


def test_paste_twice_in_the_same_window_offsets_the_copies(window):
    click(window, 240, 320)
    key(window, Qt.Key_C, Qt.ControlModifier)
    key(window, Qt.Key_V, Qt.ControlModifier)
    key(window, Qt.Key_V, Qt.ControlModifier)
    centres = sorted(o.center for o in window.document.objects if isinstance(o, Pillar))
    assert centres == [Vec2(240, 320), Vec2(256, 336), Vec2(272, 352)]
    assert undo_texts(window) == ["Paste 1 object", "Paste 1 object"]


def test_paste_brings_far_away_objects_into_view(window):
    QApplication.clipboard().setText(json.dumps({"format": CLIPBOARD_FORMAT, "version": 1, "objects": [
        {"id": "far", "kind": "circle", "center": [90000, 90000], "radius": 10}]}))
    key(window, Qt.Key_V, Qt.ControlModifier)
    far = window.document.get("far")
    assert window.canvas.visible_rect().contains(QPointF(far.center.x, far.center.y))


def test_paste_refuses_text_that_is_not_level_objects(window):
    for text in ["hello", json.dumps({"format": CLIPBOARD_FORMAT, "version": 1, "objects": [
            {"id": "bad", "kind": "circle", "center": [0, 0], "radius": -3}]})]:
        QApplication.clipboard().setText(text)
        key(window, Qt.Key_V, Qt.ControlModifier)
        assert len(window.document) == 4
        assert window.undo_stack.count() == 0
        assert "Nothing pasted" in window.statusBar().currentMessage()


def test_status_bar_shows_cursor_position_zoom_and_hint(window):
    hover(window, 100, 150)
    assert window.position_label.text() == "x 100, y 150"
    assert window.zoom_label.text() == "100%"
    window.canvas.zoom_in()
    assert window.zoom_label.text() == "125%"
    assert window.hint_label.text() == window.tool.hint


def test_undo_history_dock_lists_the_steps(window):
    drag(window, (270, 95), (302, 127))
    key(window, Qt.Key_Delete)
    model = window.undo_view.model()
    texts = [model.data(model.index(r, 0)) for r in range(model.rowCount())]
    assert texts == ["<level as opened>", "Move box", "Delete box"]


def test_menus_hold_every_action_with_its_shortcut(window):
    menus = {m.title().replace("&", ""): m for m in (a.menu() for a in window.menuBar().actions()) if m}
    assert set(menus) >= {"File", "Edit", "View", "Tools"}
    shortcuts = {a.text().replace("&", ""): [s.toString() for s in a.shortcuts()]
                 for m in menus.values() for a in m.actions()}
    assert shortcuts["New"] == ["Ctrl+N"] and shortcuts["Open…"] == ["Ctrl+O"]
    assert shortcuts["Save"] == ["Ctrl+S"] and shortcuts["Save As…"] == ["Ctrl+Shift+S"]
    assert shortcuts["Copy"] == ["Ctrl+C"] and shortcuts["Paste"] == ["Ctrl+V"]
    assert shortcuts["Duplicate"] == ["Ctrl+D"] and shortcuts["Delete"] == ["Del"]
    assert shortcuts["Select All"] == ["Ctrl+A"] and shortcuts["Fit Level"] == ["Ctrl+0"]
    assert shortcuts["Snap to Grid"] == ["G"] and shortcuts["Select"] == ["S"]
    redo = next(a for a in menus["Edit"].actions() if a.text().startswith("&Redo"))
    assert [s.toString() for s in redo.shortcuts()] == ["Ctrl+Shift+Z", "Ctrl+Y"]


def test_windows_closed_and_deleted_leave_nothing_listening_to_their_levels(qtbot, tmp_path):
    from PySide6.QtCore import QCoreApplication, QEvent, QSettings

    import shiboken6
    from level_editor.editor.documents.files import DISCARD
    from level_editor.editor.window.main_window import MainWindow
    from tests.editor.helpers import sample_level

    windows = []
    for n in range(3):
        w = MainWindow(settings=QSettings(str(tmp_path / f"w{n}.ini"), QSettings.IniFormat))
        w.ask_unsaved_changes = lambda: DISCARD
        w.show()
        w.set_level(sample_level())
        w.selection.set(["box-1"])
        w.set_tool(w.tool_named("OrientedBoxTool"))
        w.set_tool(w.tool_named("NodeTool"))
        w.delete_selection()
        windows.append(w)
    documents = [w.document for w in windows]
    for w in windows:
        assert w.close()
        w.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    assert not any(shiboken6.isValid(w) for w in windows)
    for doc in documents:
        # nothing of the deleted windows is called (a deleted scene or list would raise here)
        doc.append_objects([Box("box-9", (0, 0), (8, 8))])
        doc.replace_objects(["box-9"], [Box("box-9", (8, 8), (8, 8))])
        doc.remove_objects(["box-9", "wall-1"])
        doc.set_player(doc.player.moved(1, 0))
        doc.reset(Level())


def test_copy_and_paste_keep_layer_type_properties_and_solid(qtbot, tmp_path):
    from level_editor.core.level.model import Layer, Level, ObjectType, Player, Point, Ref
    from tests.editor.helpers import make_window

    level = Level(player=Player(spawn=(0, 0), radius=4),
                  layers=(Layer("walls", "Walls"), Layer("things", "Things")),
                  types=(ObjectType("door", "#3c8ce0", {"opened_by": Ref("")}),),
                  objects=(Point("lever", (40, 40), layer="things"),
                           Box("gate", (100, 100), (8, 48), layer="walls", type="door",
                               properties={"opened_by": Ref("lever"), "hp": 3}),
                           Box("exit", (200, 100), (32, 32), layer="things", solid=False)))
    w = make_window(qtbot, tmp_path, level)
    w.context.set_current_layer("things")
    w.selection.set(["gate", "exit"])
    key(w, Qt.Key_C, Qt.ControlModifier)
    key(w, Qt.Key_V, Qt.ControlModifier)
    new = [w.document.get(i) for i in sorted(w.selection.ids())]
    gate, exit_ = sorted(new, key=lambda o: o.solid, reverse=True)
    assert gate.id != "gate" and gate.layer == "walls" and gate.type == "door"
    assert gate.properties == {"opened_by": Ref("lever"), "hp": 3} and type(gate.properties["hp"]) is int
    assert exit_.layer == "things" and exit_.solid is False
