"""The canvas's right-click menus (editor/window/context_menu.py), through real right-clicks and menu clicks.

Qt's platform layer follows a right press with a context-menu event (on press on
Linux and macOS, on release on Windows); QTest's clicks do not, so
:func:`right_click` sends it where the platform would.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import Box, Layer, Level
from level_editor.editor.window.context_menu import tool_uses_right_button
from tests.editor.helpers import at, click, hover, key, make_window, window  # noqa: F401 - the window fixture


def right_click(window, x, y) -> QMenu | None:
    """Right-click at level point ``(x, y)``; the menu that opened (None when none did)."""
    viewport = window.canvas.viewport()
    pixel = at(window, x, y)
    hover(window, x, y)
    QTest.mousePress(viewport, Qt.RightButton, Qt.NoModifier, pixel)
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Mouse, pixel, viewport.mapToGlobal(pixel)))
    QTest.mouseRelease(viewport, Qt.RightButton, Qt.NoModifier, pixel)
    QApplication.processEvents()
    menu = window.canvas_menu.menu
    return menu if menu is not None and menu.isVisible() else None


def entries(menu: QMenu) -> list[str]:
    return [a.text().replace("&", "") for a in menu.actions() if not a.isSeparator()]


def choose(menu: QMenu, text: str) -> None:
    """Click the entry ``text`` of the open ``menu`` with the mouse."""
    action = next(a for a in menu.actions() if a.text().replace("&", "") == text)
    assert action.isEnabled(), text
    QTest.mouseClick(menu, Qt.LeftButton, Qt.NoModifier, menu.actionGeometry(action).center())
    QApplication.processEvents()


def test_right_click_on_an_unselected_object_selects_it_and_offers_the_object_menu(window):
    window.selection.set(["pillar-1"])
    menu = right_click(window, 270, 95)  # box-1
    assert window.selection.ids() == ["box-1"]
    assert entries(menu) == ["Cut", "Copy", "Paste", "Duplicate", "Delete",
                             "Flip Horizontally", "Flip Vertically", "Rotate Clockwise", "Rotate Counterclockwise",
                             "Raise", "Lower", "Raise to Top", "Lower to Bottom", "Frame Selection", "Properties"]
    # the window's own actions: the keys show beside them
    assert next(a for a in menu.actions() if a.text() == "Cu&t").shortcut().toString() == "Ctrl+X"


def test_right_click_on_a_selected_object_keeps_the_whole_selection(window):
    window.selection.set(["box-1", "pillar-1"])
    menu = right_click(window, 240, 320)
    assert window.selection.ids() == ["box-1", "pillar-1"]
    choose(menu, "Delete")
    assert "box-1" not in window.document and "pillar-1" not in window.document
    assert window.undo_stack.undoText() == "Delete 2 objects"


def test_cut_from_the_menu_and_paste_here_at_another_click(window):
    menu = right_click(window, 270, 95)
    choose(menu, "Cut")
    assert "box-1" not in window.document and window.undo_stack.undoText() == "Cut box"
    menu = right_click(window, 610, 100)  # empty canvas
    assert menu.objectName() == "canvasMenu"
    assert entries(menu) == ["Paste Here", "Select All", "Fit Level"]
    choose(menu, "Paste Here")
    box = window.document.get("box-1")
    # centred on the click, moved by whole grid steps (snapping is on): 610 - 272 = 338 -> 336, 100 - 96 = 4 -> 0
    assert box.origin == Vec2(240 + 336, 80) and box.size == Vec2(64, 32)
    assert window.selection.ids() == ["box-1"]


def test_paste_here_is_disabled_without_objects_on_the_clipboard(window):
    QApplication.clipboard().setText("not objects")
    menu = right_click(window, 600, 100)
    assert not next(a for a in menu.actions() if a.text() == "Paste &Here").isEnabled()


def test_the_empty_canvas_menu_selects_all_and_frames_the_level(window):
    window.canvas.set_zoom(8.0)
    menu = right_click(window, 600, 100)
    choose(menu, "Select All")
    assert sorted(window.selection.ids()) == ["box-1", "obox-1", "pillar-1", "wall-1"]
    menu = right_click(window, 600, 100)
    choose(menu, "Fit Level")
    assert window.canvas.visible_rect().contains(window.scene.level_rect())


def test_rotate_raise_and_properties_from_the_object_menu(qtbot, tmp_path):
    level = Level(layers=(Layer("main", "Main"),),
                  objects=(Box("a", (0, 0), (64, 32)), Box("b", (16, 8), (64, 32))))
    window = make_window(qtbot, tmp_path, level)
    menu = right_click(window, 4, 4)  # only a is there
    assert window.selection.ids() == ["a"]
    choose(menu, "Raise")
    assert [o.id for o in window.document.objects] == ["b", "a"]
    menu = right_click(window, 4, 4)
    choose(menu, "Rotate Clockwise")
    assert window.document.get("a").size == Vec2(32, 64)
    window.inspector_dock.hide()
    menu = right_click(window, 20, 20)
    choose(menu, "Properties")
    assert window.inspector_dock.isVisible()


def test_frame_selection_from_the_menu_zooms_to_the_object(window):
    menu = right_click(window, 240, 320)  # pillar-1
    choose(menu, "Frame Selection")
    centre = window.canvas.mapToScene(window.canvas.viewport().rect().center())
    assert abs(centre.x() - 240) < 1 and abs(centre.y() - 320) < 1 and window.canvas.zoom() > 2


def test_right_click_on_the_spawn_selects_it(window):
    menu = right_click(window, 48, 48)
    assert window.selection.ids() == ["player"] and menu.objectName() == "objectMenu"
    assert not next(a for a in menu.actions() if a.text() == "Cu&t").isEnabled()
    choose(menu, "Flip Horizontally")  # about its own centre: it stays
    assert window.document.player.spawn == Vec2(48, 48) and window.undo_stack.count() == 0
    assert window.statusBar().currentMessage() == "Flip the spawn horizontally: it looks the same, nothing changes"


def test_no_menu_while_the_wall_tool_uses_the_right_button_to_end_a_wall(window):
    key(window, Qt.Key_W)
    click(window, 400, 400)
    click(window, 480, 400)
    assert tool_uses_right_button(window.tool)
    assert right_click(window, 480, 480) is None
    assert window.undo_stack.undoText() == "Add wall"  # the right press ended the wall, as the wall tool says
    # with no wall under way the right button is free again: the menu shows
    assert not tool_uses_right_button(window.tool)
    assert right_click(window, 700, 100) is not None


def test_no_menu_with_the_tile_brush_which_erases_with_the_right_button(window):
    key(window, Qt.Key_T)
    assert right_click(window, 600, 100) is None


def test_no_menu_during_a_play_test(window):
    key(window, Qt.Key_F5)
    assert window.play_mode.is_playing
    assert right_click(window, 270, 95) is None
    key(window, Qt.Key_Escape)


def test_the_menu_key_opens_the_object_menu_over_the_selection(window):
    window.selection.set(["pillar-1"])
    canvas = window.canvas
    canvas.setFocus()
    centre = canvas.viewport().rect().center()
    QApplication.sendEvent(canvas, QContextMenuEvent(QContextMenuEvent.Keyboard, centre, canvas.mapToGlobal(centre)))
    QApplication.processEvents()
    menu = window.canvas_menu.menu
    assert menu is not None and menu.isVisible() and menu.objectName() == "objectMenu"
    assert window.selection.ids() == ["pillar-1"]
    expected = canvas.viewport().mapToGlobal(canvas.mapFromScene(240, 320))
    assert (menu.pos() - expected).manhattanLength() < 4
    choose(menu, "Duplicate")
    assert window.undo_stack.undoText() == "Duplicate 1 object"
