"""Issue 23.9: every screen says what it means at the default window size (1280 x 800, and 1600 x 1000).

levels/game_content.json opened as a designer opens it, with nothing, the gate (a reference to the lever)
and goblin-1 (a type's default and an own value) selected: no text in a dock, a table cell, a field, a
button or the status bar's hint is cut short unless a tooltip holds the whole of it, no dock cuts a row in
half, and the Properties dock shows the whole of what is selected. The window is grabbed at each step
(``screens/`` in the test's tmp folder) to look at.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QApplication, QComboBox, QDockWidget, QLabel,
                               QLineEdit, QStyle, QStyleOptionComboBox, QStyleOptionViewItem)

from level_editor.editor.window.main_window import MainWindow
from tests.editor.test_game_content_sample import SAMPLE

SELECTIONS = {"level": [], "gate": ["gate"], "goblin": ["goblin-1"]}


def opened(qtbot, tmp_path, size):
    window = MainWindow(settings=QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))
    window.show_error = lambda *a: pytest.fail(f"error box: {a}")
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_file(str(SAMPLE), ask=False)
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None and not window.checks.busy,
                    timeout=10_000)
    QApplication.processEvents()
    return window


def whole_text_in_tooltip(text: str, tooltip) -> bool:
    return bool(tooltip) and text.replace("\n", " ") in str(tooltip).replace("\n", " ")


def text_rect_width(view: QAbstractItemView, index) -> int:
    """The room the view's delegate gives ``index``'s text, as its style lays the cell out."""
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    option.font = view.font()
    size = view.iconSize()
    option.decorationSize = size if size.isValid() else QApplication.style().standardIcon(
        QStyle.SP_MessageBoxInformation).actualSize(view.iconSize()).boundedTo(view.iconSize())
    view.itemDelegateForIndex(index).initStyleOption(option, index)
    style = view.style()
    rect = style.subElementRect(QStyle.SE_ItemViewItemText, option, view)
    margin = style.pixelMetric(QStyle.PM_FocusFrameHMargin, None, view) + 1
    return rect.width() - 2 * margin


def clipped_cells(view: QAbstractItemView) -> list[str]:
    """The visible cells of ``view`` whose text does not fit, with no tooltip holding the whole of it."""
    model, vp = view.model(), view.viewport()
    found = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            rect = view.visualRect(index)
            if rect.isEmpty() or not vp.rect().intersects(rect) or view.indexWidget(index) is not None:
                continue
            text = index.data(Qt.DisplayRole)
            if not isinstance(text, str) or not text:
                continue
            need = view.fontMetrics().horizontalAdvance(text)
            if need > text_rect_width(view, index) and not whole_text_in_tooltip(text, index.data(Qt.ToolTipRole)):
                found.append(f"{view.objectName()} row {row} column {column}: {text!r}")
    return found


def cut_rows(view: QAbstractItemView) -> list[str]:
    """A row the view's bottom edge cuts through (only part of it shows)."""
    vp = view.viewport()
    index = view.indexAt(QPoint(1, vp.height() - 1))
    if index.isValid() and view.visualRect(index).bottom() > vp.height() - 1:
        return [f"{view.objectName()}: row {index.row()} cut at the bottom"]
    return []


def clipped_widgets(root) -> list[str]:
    """Fields, lists, buttons and labels under ``root`` that show less than their whole text."""
    found = []
    for w in root.findChildren(QComboBox):
        if not w.isVisibleTo(root) or not w.currentText():
            continue
        option = QStyleOptionComboBox()
        w.initStyleOption(option)
        room = w.style().subControlRect(QStyle.CC_ComboBox, option, QStyle.SC_ComboBoxEditField, w).width()
        icon = w.iconSize().width() + 4 if not w.itemIcon(w.currentIndex()).isNull() else 0
        if w.fontMetrics().horizontalAdvance(w.currentText()) + icon > room:
            found.append(f"list {w.objectName()!r}: {w.currentText()!r}")
    for w in root.findChildren(QLineEdit):
        if not w.isVisibleTo(root) or isinstance(w.parent(), QComboBox):
            continue
        for text in (w.text(), w.placeholderText()):
            if text and w.fontMetrics().horizontalAdvance(text) + 10 > w.width():
                found.append(f"field {w.objectName()!r}: {text!r}")
    for w in root.findChildren(QAbstractButton):
        if w.isVisibleTo(root) and w.text() and w.sizeHint().width() > w.width() + 1:
            found.append(f"button {w.objectName()!r}: {w.text()!r}")
    for w in root.findChildren(QLabel):
        if (w.isVisibleTo(root) and w.text() and not w.wordWrap() and w.sizeHint().width() > w.width() + 1
                and not whole_text_in_tooltip(w.text(), w.toolTip())):
            found.append(f"label {w.objectName()!r}: {w.text()!r}")
    return found


def clipped_anywhere(window) -> list[str]:
    found = []
    for dock in window.findChildren(QDockWidget):
        if not dock.isVisible() or dock.visibleRegion().isEmpty():
            continue
        found += clipped_widgets(dock)
        for view in dock.findChildren(QAbstractItemView):
            if view.isVisible() and not view.visibleRegion().isEmpty():
                found += clipped_cells(view) + cut_rows(view)
    hint = window.statusBar().hint_label
    if hint.is_elided():
        found.append(f"status bar hint: {hint.text()!r}")
    return found


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)], ids=["1280x800", "1600x1000"])
def test_no_text_is_cut_short_and_no_row_cut_in_half_at_the_default_size(qtbot, tmp_path, size):
    window = opened(qtbot, tmp_path, size)
    screens = tmp_path / "screens"
    screens.mkdir()
    for name, ids in SELECTIONS.items():
        window.selection.set(ids)
        QApplication.processEvents()
        window.grab().save(str(screens / f"{name}-{size[0]}x{size[1]}.png"))
        assert clipped_anywhere(window) == [], name
        scroll = window.inspector.scroll_area
        assert not scroll.verticalScrollBar().isVisible(), f"{name}: the Properties dock scrolls"
    assert len(list(screens.glob("*.png"))) == len(SELECTIONS)


def test_the_object_list_s_columns_fit_every_kind_type_and_layer(qtbot, tmp_path):
    window = opened(qtbot, tmp_path, (1280, 800))
    view = window.object_list.view
    model = view.model()
    for row in range(model.rowCount()):
        for column in (1, 2, 3):  # kind, type, layer: whole, not only in a tooltip
            index = model.index(row, column)
            text = index.data(Qt.DisplayRole)
            if text:
                assert view.fontMetrics().horizontalAdvance(text) <= text_rect_width(view, index), text


def test_objects_and_problems_show_whole_rows_at_any_dock_height(qtbot, tmp_path):
    window = opened(qtbot, tmp_path, (1280, 800))
    for height in (150, 173, 201, 229, 260):
        window.resizeDocks([window.objects_dock, window.problems_dock], [height, height - 40], Qt.Vertical)
        QApplication.processEvents()
        for view in (window.object_list.view, window.problems_dock.view):
            assert cut_rows(view) == [], height
            assert view.viewport().height() >= view.sizeHintForRow(0), height  # at least one row shows
