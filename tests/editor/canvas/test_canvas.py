"""Canvas zoom, pan and fit, the grid, and the object list dock."""
from __future__ import annotations


from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Box, Level
from tests.editor.helpers import at, click, drag, key, make_window, move_to_pixel, window  # noqa: F401


def wheel(window, pixel: QPoint, steps: int):
    viewport = window.canvas.viewport()
    event = QWheelEvent(QPointF(pixel), QPointF(viewport.mapToGlobal(pixel)), QPoint(0, 0), QPoint(0, 120 * steps),
                        Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(viewport, event)


def test_wheel_zooms_about_the_cursor(window):
    canvas = window.canvas
    pixel = at(window, 240, 320)
    wheel(window, pixel, 2)
    assert abs(canvas.zoom() - 1.5625) < 1e-9
    under = canvas.mapToScene(pixel)
    assert abs(under.x() - 240) <= 1 and abs(under.y() - 320) <= 1
    wheel(window, pixel, -4)
    assert abs(canvas.zoom() - 0.64) < 1e-9
    assert window.zoom_label.text() == "64%"


def test_middle_drag_pans(window):
    canvas = window.canvas
    before = canvas.mapToScene(canvas.viewport().rect().center())
    start = canvas.viewport().rect().center()
    QTest.mousePress(canvas.viewport(), Qt.MiddleButton, Qt.NoModifier, start)
    move_to_pixel(window, start + QPoint(60, 40), Qt.MiddleButton)
    QTest.mouseRelease(canvas.viewport(), Qt.MiddleButton, Qt.NoModifier, start + QPoint(60, 40))
    after = canvas.mapToScene(canvas.viewport().rect().center())
    assert (round(before.x() - after.x()), round(before.y() - after.y())) == (60, 40)
    assert window.undo_stack.count() == 0 and window.selection.ids() == []


def test_space_drag_pans_instead_of_selecting(window):
    canvas = window.canvas
    before = canvas.mapToScene(canvas.viewport().rect().center())
    canvas.setFocus()
    QTest.keyPress(canvas, Qt.Key_Space)
    start = at(window, 270, 95)
    QTest.mousePress(canvas.viewport(), Qt.LeftButton, Qt.NoModifier, start)
    for dx in (-20, -50, -70):
        move_to_pixel(window, start + QPoint(dx, 0))
    QTest.mouseRelease(canvas.viewport(), Qt.LeftButton, Qt.NoModifier, start + QPoint(-70, 0))
    QTest.keyRelease(canvas, Qt.Key_Space)
    after = canvas.mapToScene(canvas.viewport().rect().center())
    assert round(after.x() - before.x()) == 70
    assert window.document.get("box-1").origin.x == 240 and window.selection.ids() == []
    drag(window, (270, 95), (302, 95))
    assert window.document.get("box-1").origin.x == 272


def test_ctrl_0_fits_the_whole_level(window):
    window.canvas.set_zoom(8.0)
    key(window, Qt.Key_0, Qt.ControlModifier)
    visible = window.canvas.visible_rect()
    assert visible.contains(window.scene.level_rect())
    assert window.canvas.zoom() > 1.0  # a 450 unit level in a 900 pixel canvas: zoomed in, not out


def test_zoom_actions_and_limits(window):
    window.zoom_in_action.trigger()
    assert abs(window.canvas.zoom() - 1.25) < 1e-9
    window.zoom_out_action.trigger()
    window.zoom_out_action.trigger()
    assert abs(window.canvas.zoom() - 0.8) < 1e-9
    for _ in range(100):
        window.zoom_out_action.trigger()
    assert abs(window.canvas.zoom() - 1 / 64) < 1e-12


def test_grid_thins_out_when_zoomed_out(window):
    canvas = window.canvas
    assert canvas.grid_steps() == (16, 128)
    canvas.set_zoom(0.25)
    minor, major = canvas.grid_steps()
    assert minor * 0.25 >= 8 and major == minor * 8 or major == 128
    canvas.set_zoom(1 / 64)
    minor, _ = canvas.grid_steps()
    assert minor / 64 >= 8
    image = canvas.grab().toImage()
    assert image.width() > 0


def test_the_grid_is_drawn_on_grid_lines(window):
    canvas = window.canvas
    canvas.viewport().repaint()
    image = canvas.viewport().grab().toImage()
    # A point on a major vertical grid line and one between lines, both on screen and clear of objects.
    minor, major = (int(step) for step in canvas.grid_steps())
    view = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    scene = canvas.scene()

    def clear(x, y):
        return canvas.viewport().rect().contains(at(window, x, y)) and not scene.items(QPointF(x, y))

    spots = [(x, y + minor / 2)
             for x in range(int(view.left() // major + 1) * major, int(view.right()), major)
             for y in range(int(view.top() // minor + 1) * minor, int(view.bottom()), minor)
             if clear(x, y + minor / 2) and clear(x + minor / 2, y + minor / 2)]
    assert spots, "some empty grid is on screen"
    x, y = spots[len(spots) // 2]
    assert image.pixelColor(at(window, x, y)) != image.pixelColor(at(window, x + minor / 2, y))


def test_objects_are_drawn_where_they_are(window):
    window.canvas.viewport().repaint()
    image = window.canvas.viewport().grab().toImage()
    inside_box = image.pixelColor(at(window, 270, 95))
    inside_pillar = image.pixelColor(at(window, 240, 320))
    empty = image.pixelColor(at(window, 600, 560))
    assert inside_box.red() > 150 and inside_box != empty
    assert inside_pillar.blue() > 150 and inside_pillar != inside_box


def test_selection_is_drawn_as_a_highlight(window):
    window.canvas.viewport().repaint()
    edge = at(window, 240, 112)  # the box's bottom-left corner region
    before = window.canvas.viewport().grab().toImage().pixelColor(edge)
    click(window, 270, 95)
    window.canvas.viewport().repaint()
    after = window.canvas.viewport().grab().toImage().pixelColor(edge)
    assert before != after


def _list(window):
    return window.object_list.view


def test_object_list_has_a_row_per_object_and_clicking_selects(window):
    view = _list(window)
    model = view.model()
    assert model.rowCount() == 5
    assert [model.index(r, 0).data() for r in range(5)] == ["player", "wall-1", "box-1", "obox-1", "pillar-1"]
    rect = view.visualRect(model.index(2, 0))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    assert window.selection.ids() == ["box-1"]
    rect = view.visualRect(model.index(4, 0))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.ControlModifier, rect.center())
    assert window.selection.ids() == ["box-1", "pillar-1"]


def test_object_list_follows_canvas_selection_and_edits(window):
    click(window, 400, 240)
    rows = [i.row() for i in _list(window).selectionModel().selectedRows()]
    assert rows == [3]
    key(window, Qt.Key_Delete)
    assert _list(window).model().rowCount() == 4
    window.undo_stack.undo()
    assert _list(window).model().rowCount() == 5


def test_double_click_in_the_list_frames_the_object(window):
    window.canvas.set_zoom(0.1)
    window.canvas.centerOn(5000, 5000)
    view = _list(window)
    rect = view.visualRect(view.model().index(4, 0))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    visible = window.canvas.visible_rect()
    assert visible.contains(QPointF(240, 320))
    assert window.canvas.zoom() >= 1.0
    assert window.selection.ids() == ["pillar-1"]


def test_object_list_and_canvas_at_10000_objects(qtbot, tmp_path):
    boxes = tuple(Box(f"box-{i}", ((i % 100) * 40, (i // 100) * 40), (24, 24)) for i in range(10000))
    win = make_window(qtbot, tmp_path, Level(name="Big", objects=boxes))
    assert win.object_list.view.model().rowCount() == 10001
    key(win, Qt.Key_A, Qt.ControlModifier)
    QApplication.processEvents()
    assert len(win.selection) == 10000
    assert len(win.object_list.view.selectionModel().selectedRows()) == 10000
    click(win, 4 * 40 + 10, 10)
    assert win.selection.ids() == ["box-4"]
    assert len(win.object_list.view.selectionModel().selectedRows()) == 1  # the list follows the canvas
