"""The object list dock: every object of the level, fast for tens of thousands of them.

A table model reads the document directly (no widget per row); clicking rows
selects objects, double-clicking one frames it on the canvas.
"""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QItemSelection, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QTreeView, QVBoxLayout, QWidget

from core.level.document import Change, ChangeKind, LevelDocument
from core.level.kinds import kind_name
from editor.selection import Selection
from editor.subscriptions import subscribe_while_alive

class ObjectListModel(QAbstractTableModel):
    """Row 0 is the player's spawn; then one row per object, in drawing order."""

    COLUMNS = ("Name", "Kind")

    def __init__(self, document: LevelDocument, parent=None):
        super().__init__(parent)
        self._doc = document
        subscribe_while_alive(document, self, self._on_document_changed)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._doc) + 1

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else 2

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return self.COLUMNS[section]
        return None

    def id_at(self, row: int) -> str:
        return Selection.PLAYER if row == 0 else self._doc.objects[row - 1].id

    def row_of(self, object_id: str) -> int:
        return 0 if object_id == Selection.PLAYER else self._doc.index_of(object_id) + 1

    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid() or role not in (Qt.DisplayRole, Qt.ToolTipRole):
            return None
        row = index.row()
        if row == 0:
            return "player" if index.column() == 0 else "Spawn"
        obj = self._doc.objects[row - 1]
        return obj.id if index.column() == 0 else kind_name(obj.kind)

    def _on_document_changed(self, change: Change) -> None:
        if change.kind in (ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.RESET):
            self.beginResetModel()
            self.endResetModel()
        elif change.kind is ChangeKind.CHANGED:
            renamed = [n for o, n in zip(change.old, change.objects) if o.id != n.id]
            if renamed:
                rows = [self.row_of(o.id) for o in renamed]
                self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), 1))


class ObjectList(QWidget):
    """The list view over :class:`ObjectListModel`, kept in step with the editor's selection."""

    #: The user asked to see this object (double-click).
    frame_requested = Signal(str)

    def __init__(self, document: LevelDocument, selection: Selection, parent=None):
        super().__init__(parent)
        self._doc = document
        self._selection = selection
        self.model = ObjectListModel(document, self)
        self.view = QTreeView(self)
        self.view.setObjectName("objectList")
        self.view.setModel(self.model)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.header().setStretchLastSection(True)
        self.view.setColumnWidth(0, 150)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self._syncing = False
        self.view.selectionModel().selectionChanged.connect(self._view_selection_changed)
        self.view.doubleClicked.connect(self._double_clicked)
        self.model.modelReset.connect(self._show_selection)
        selection.changed.connect(self._show_selection)

    def _view_selection_changed(self, *_):
        if self._syncing:
            return
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        self._syncing = True
        try:
            self._selection.set(self.model.id_at(r) for r in rows)
        finally:
            self._syncing = False

    def _show_selection(self) -> None:
        if self._syncing:
            return
        rows = []
        for oid in self._selection.ids():
            if oid == Selection.PLAYER or oid in self._doc:
                rows.append(self.model.row_of(oid))
        rows.sort()
        sel = QItemSelection()
        start = prev = None
        for r in rows + [None]:
            if start is not None and (r is None or r != prev + 1):
                sel.select(self.model.index(start, 0), self.model.index(prev, 1))
                start = None
            if r is not None and start is None:
                start = r
            prev = r
        self._syncing = True
        try:
            self.view.selectionModel().select(sel, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
            if len(rows) == 1:
                self.view.scrollTo(self.model.index(rows[0], 0))
        finally:
            self._syncing = False

    def _double_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.frame_requested.emit(self.model.id_at(index.row()))
