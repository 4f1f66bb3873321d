"""View > Show Grid: the grid lines drawn or not, remembered between sessions, separate from snapping."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from level_editor.editor.canvas.canvas import BACKGROUND, MINOR_LINE, SHOW_GRID_KEY
from tests.editor.helpers import drag, key, make_window, sample_level


def pixel_on_grid_line(window):
    """The colour of a canvas pixel on a minor grid line, away from any object and the axes."""
    canvas = window.canvas
    minor, _ = canvas.grid_steps()
    x = minor * 37
    y = minor * 3.5  # between two horizontal lines, on a vertical one
    point = canvas.mapFromScene(QPointF(x, y))
    image = canvas.viewport().grab().toImage()
    return image.pixelColor(point.x(), point.y()).name()


def view_menu_action(window, text):
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    return next(a for a in view.actions() if a.text() == text)


def test_show_grid_hides_and_shows_the_lines_and_is_remembered(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, sample_level())
    window.canvas.set_zoom(1.0)
    action = view_menu_action(window, "Show &Grid")
    assert action is window.show_grid_action and action.isCheckable() and action.isChecked()
    assert pixel_on_grid_line(window) == MINOR_LINE.name()

    key(window, Qt.Key_G, Qt.ControlModifier)  # Tiled's shortcut
    assert not action.isChecked() and not window.canvas.grid_shown()
    assert pixel_on_grid_line(window) == BACKGROUND.name()
    assert window.snap_action.isChecked()  # snapping is not the grid's drawing
    # snapping still works with the grid hidden: a box drawn off the grid lands on it
    window.set_tool(window.tool_named("BoxTool"))
    drag(window, (503, 403), (541, 437))
    added = window.document.objects[-1]
    assert tuple(added.origin) == (496, 400) and tuple(added.size) == (48, 32)

    window.settings.sync()
    assert window.settings.value(SHOW_GRID_KEY) in (False, "false")
    again = make_window(qtbot, tmp_path, sample_level())  # the same settings file: the next session
    assert not again.show_grid_action.isChecked() and not again.canvas.grid_shown()
    view_menu_action(again, "Show &Grid").trigger()
    QApplication.processEvents()
    assert again.canvas.grid_shown() and pixel_on_grid_line(again) == MINOR_LINE.name()


def test_hiding_the_grid_leaves_snapping_alone_and_g_leaves_the_grid_alone(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, sample_level())
    key(window, Qt.Key_G)  # G toggles snapping only
    assert not window.snap_action.isChecked() and window.show_grid_action.isChecked()
    window.show_grid_action.trigger()
    assert not window.snap_action.isChecked() and not window.canvas.grid_shown()
