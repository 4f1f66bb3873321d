"""Typing into the panels' fields as a designer does: focus, select what is there, replace it, press Enter."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def retype(field, text: str, enter: bool = True):
    """Replace the text of ``field`` (a line edit) with ``text``, key by key, then press Enter unless told not to."""
    field.setFocus()
    field.selectAll()
    QTest.keyClick(field, Qt.Key_Backspace)
    QTest.keyClicks(field, text)
    if enter:
        QTest.keyClick(field, Qt.Key_Return)
    return field


def type_in(inspector, key_name: str, text: str, enter: bool = True):
    """:func:`retype` into the inspector's field ``key_name`` (``"radius"``, ``"origin.x"``, ``"id"``...)."""
    return retype(inspector.field(key_name), text, enter)


def tick(inspector, box) -> None:
    """Click a checkbox of the inspector on its box, as a designer does: scrolled into view first."""
    from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionButton

    area = inspector.scroll_area
    if area.widget().isAncestorOf(box):
        area.ensureWidgetVisible(box)
    QApplication.processEvents()
    option = QStyleOptionButton()
    option.initFrom(box)
    indicator = box.style().subElementRect(QStyle.SE_CheckBoxIndicator, option, box)
    QTest.mouseClick(box, Qt.LeftButton, Qt.NoModifier, indicator.center())
