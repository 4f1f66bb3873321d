"""WholeRows: a list or table that shows only whole rows, never the top half of one at its bottom edge.

A dock hands its list whatever height the window leaves it, and a list draws
as many rows as that height holds, cut through the last one. Here the list
sits in a box of the dock's height and takes the tallest height that holds
whole rows (its header, frame and sideways scrollbar included); the rest, less
than a row, stays empty under it. It scrolls by whole rows, so scrolling never
cuts one either.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QTreeView, QWidget

from level_editor.editor.support.guard import guarded


def row_height(view: QAbstractItemView) -> int:
    """The height of the view's rows (all alike: a table's fixed rows, a tree's uniform ones); 0 if unknown."""
    if isinstance(view, QTableView):
        return view.verticalHeader().defaultSectionSize()
    model = view.model()
    if model is None or model.rowCount() == 0:
        return 0
    return view.sizeHintForRow(0)


def _header(view: QAbstractItemView) -> Optional[QHeaderView]:
    if isinstance(view, QTableView):
        return view.horizontalHeader()
    if isinstance(view, QTreeView):
        return view.header()
    return None


def whole_rows_height(view: QAbstractItemView, room: int) -> int:
    """The tallest height up to ``room`` at which ``view`` shows whole rows only (at least one row)."""
    row = row_height(view)
    if row <= 0:
        return room
    chrome = 2 * view.frameWidth()
    header = _header(view)
    if header is not None and not header.isHidden():
        chrome += header.sizeHint().height()
    bar = view.horizontalScrollBar()
    if bar.isVisible():
        chrome += bar.sizeHint().height()
    rows = max(1, (room - chrome) // row)
    return min(room, chrome + rows * row)


class WholeRows(QWidget):
    """Holds ``view`` at the top and sizes it to whole rows of the room it has (see the module)."""

    def __init__(self, view: QAbstractItemView, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.view = view
        view.setParent(self)
        view.setVerticalScrollMode(QAbstractItemView.ScrollPerItem)
        model = view.model()
        if model is not None:  # a tree's row height is known once it has rows
            model.modelReset.connect(self._fit)
            model.rowsInserted.connect(self._fit)
        view.horizontalScrollBar().rangeChanged.connect(self._fit)

    def sizeHint(self) -> QSize:
        return self.view.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self.view.minimumSizeHint()

    @guarded("laying out a list")
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self, *_) -> None:
        height = whole_rows_height(self.view, self.height())
        self.view.setGeometry(0, 0, self.width(), height)
