"""The status bar: messages elide beside the tool hint and never run into the position and zoom (issue 16.4);
tool hints follow the tool's state (issue 16.6)."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QStatusTipEvent
from PySide6.QtWidgets import QApplication, QLabel

from level_editor.core.level.model import Box, Level, Player, Wall
from tests.editor.helpers import click, hover, key, make_window, move, press, release

LONG = ("Saved /home/designer/projects/a-very-long-folder-name/levels/courtyard-of-the-old-castle-final-v3.json "
        "with 3 errors: wall-17: a segment of zero length; box-4: overlaps the spawn; see Problems for the rest")


def test_a_long_message_at_1024_pixels_is_elided_beside_the_hint_and_never_covers_position_or_zoom(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, Level(grid=16, objects=(Box("box-1", (240, 80), (64, 32)),)))
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() <= 1024)
    hover(window, 100, 150)
    bar = window.statusBar()
    bar.showMessage(LONG, 8000)
    QApplication.processEvents()
    message, hint = bar.message_label, bar.hint_label
    assert bar.currentMessage() == LONG
    assert message.isVisible() and message.is_elided() and message.shown_text().endswith("…")
    assert message.toolTip() == LONG
    right_of_text = max(message.geometry().right(), hint.geometry().right())
    assert right_of_text < window.position_label.geometry().left() < window.zoom_label.geometry().left()
    assert window.position_label.text() == "x 100, y 150" and window.zoom_label.text() == "100%"
    # nothing of the position label is cut: it is as wide as it asks to be
    assert window.position_label.width() >= window.position_label.sizeHint().width()
    message.copy_action.trigger()
    assert QGuiApplication.clipboard().text() == LONG
    bar.clearMessage()
    assert not message.isVisible() and hint.text() == window.tool.current_hint()


def test_a_short_message_is_shown_whole_and_its_timeout_clears_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, Level())
    bar = window.statusBar()
    bar.showMessage("Saved", 50)
    QApplication.processEvents()
    assert bar.message_label.shown_text() == "Saved" and bar.message_label.toolTip() == ""
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=2000)


def test_menu_status_tips_show_in_the_message_label_and_give_the_message_back(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, Level())
    bar = window.statusBar()
    bar.showMessage("Wall cancelled.")
    QApplication.sendEvent(window, QStatusTipEvent("Save the level"))
    assert bar.currentMessage() == "Save the level"
    QApplication.sendEvent(window, QStatusTipEvent(""))
    assert bar.currentMessage() == "Wall cancelled."


def test_the_hints_follow_what_the_designer_can_do_next(qtbot, tmp_path):
    level = Level(grid=16, player=Player(spawn=(48, 48), radius=12),
                  objects=(Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8, False),))
    window = make_window(qtbot, tmp_path, level)
    hint = window.hint_label
    key(window, Qt.Key_E)
    assert hint.text() == "Edit nodes: click a wall to edit its nodes."
    click(window, 80, 200)
    assert hint.text().startswith("Editing wall-1: drag a node")
    click(window, 160, 200)
    assert hint.text().startswith("Node 2 of wall-1 selected: Delete removes it")
    assert "Click a wall" not in window.statusBar().currentMessage(), "no stale instruction beside the hint"
    hover(window, 160, 320)
    press(window, 160, 320)
    move(window, 208, 368)
    assert hint.text().startswith("Moving node 3 of wall-1: release to drop it")
    release(window, 208, 368)
    assert hint.text().startswith("Node 3 of wall-1 selected")

    key(window, Qt.Key_W)
    assert hint.text() == window.tool.hint
    click(window, 300, 300)
    assert hint.text().startswith("Wall: click where it turns or ends")
    click(window, 400, 300)
    click(window, 400, 400)
    assert "click the first node to close it" in hint.text()
    key(window, Qt.Key_Escape)
    assert hint.text() == window.tool.hint

    key(window, Qt.Key_B)
    hover(window, 300, 500)
    press(window, 300, 500)
    move(window, 340, 540)
    assert hint.text().startswith("Box: drag to the opposite corner and release")
    release(window, 340, 540)
    assert hint.text() == window.tool.hint


def test_a_new_position_or_zoom_repaints_its_label_and_lays_nothing_out_again_drawn_as_qlabel_draws_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, Level(grid=16, objects=(Box("box-1", (240, 80), (64, 32)),)))
    bar = window.statusBar()
    QApplication.processEvents()
    geometry = (window.position_label.geometry(), window.zoom_label.geometry())
    layouts = []

    class Watch(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 - Qt's name
            if event.type() == QEvent.LayoutRequest:
                layouts.append(watched)
            return False

    watch = Watch()
    bar.installEventFilter(watch)
    try:
        for i in range(5):
            window.canvas.zoom_changed.emit(0.5 + i * 0.37)
            window.canvas.cursor_moved.emit(QPointF(-123456.0 * i, 789.0 * i))
            QApplication.processEvents()
    finally:
        bar.removeEventFilter(watch)
    assert layouts == []
    assert (window.position_label.geometry(), window.zoom_label.geometry()) == geometry
    assert window.zoom_label.text() == "198%" and window.position_label.text() == "x -493824, y 3156"
    # pixel for pixel what a QLabel of the same size, alignment and text draws
    for label in (window.position_label, window.zoom_label):
        plain = QLabel(label.text())
        plain.setFont(label.font())
        plain.setAlignment(label.alignment())
        plain.setFixedSize(label.size())
        qtbot.addWidget(plain)
        image = drawn(label)
        assert image == drawn(plain)
        assert any(image.pixel(x, y) for y in range(image.height()) for x in range(image.width()))  # the text


def drawn(widget) -> QImage:
    """What ``widget`` paints, on a transparent picture of its size."""
    image = QImage(widget.size(), QImage.Format_ARGB32_Premultiplied)
    image.fill(Qt.transparent)
    widget.render(image)
    return image
