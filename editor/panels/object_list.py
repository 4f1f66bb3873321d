"""The object list dock: every object of the level, fast for tens of thousands of them.

A table model reads the document directly (no widget per row): the player's
spawn, then the objects with their kind, type and layer. Above it a filter box
keeps the rows whose id, kind, type or layer contains what is typed; a click on
a column's header sorts by it (again: the other way, a third time: back to the
drawing order). Clicking rows selects objects, on locked layers too (as in
Tiled: a lock keeps the canvas from picking them, not the list);
double-clicking one frames it on the canvas. F2 edits the current row's id in
place: the object is renamed and every reference to it follows, in one undo
step; an id that is empty or taken is refused, and the list says why.
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import (
    QAbstractTableModel, QEvent, QItemSelection, QItemSelectionModel, QModelIndex, QObject, Qt, QTimer, Signal,
)
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QLineEdit, QStyle, QTableView, QVBoxLayout,
                               QWidget)

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.core.level.kinds import KINDS, kind_name
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.guard import guarded
from level_editor.core.level.limits import MAX_NAME_LENGTH
from level_editor.core.level.kinds import natural_key
from level_editor.editor.panels.properties_table import PROBLEM_STYLE
from level_editor.editor.commands.properties import rename_command
from level_editor.editor.canvas.selection import Selection, whole_level
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.support.whole_rows import WholeRows

NAME, KIND, TYPE, LAYER = range(4)

#: The row of the player's spawn in the document's order (objects are 0, 1, 2...).
_PLAYER = -1

#: Levels larger than this filter a moment after the last key, not on every key.
FILTER_AT_ONCE = 20_000
FILTER_DELAY_MS = 200

#: The widest the kind, type and layer columns get to fit their texts (px); longer texts are elided.
FIT_MOST = 120


class ObjectListModel(QAbstractTableModel):
    """The player's spawn, then one row per object: in drawing order, or filtered and sorted.

    ``push(command)`` runs an undo command (a rename); without it ids are not editable.
    ``refused(message)`` says why a typed id was not taken.
    """

    COLUMNS = ("Name", "Kind", "Type", "Layer")

    refused = Signal(str)

    def __init__(self, document: LevelDocument, parent: Optional[QObject] = None,
                 push: Optional[Callable] = None):
        super().__init__(parent)
        self._doc = document
        self._push = push
        self._filter = ""
        self._sort_column = -1
        self._descending = False
        # None: every object in drawing order (no list kept); else document indices, _PLAYER for the spawn
        self._rows: Optional[list[int]] = None
        self._row_of_index: dict[int, int] = {}
        subscribe_while_alive(document, self, self._on_document_changed)

    # -- the rows ------------------------------------------------------------------------------------
    @property
    def filter_text(self) -> str:
        return self._filter

    def set_filter(self, text: str) -> None:
        """Keep the rows whose id, kind, type or layer contains ``text`` (any case); ``""`` keeps all."""
        text = text.strip()
        if text != self._filter:
            self._filter = text
            self._recompute()

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        """Sort by ``column`` (``-1``: the drawing order)."""
        self._sort_column = column if 0 <= column < len(self.COLUMNS) else -1
        self._descending = order == Qt.DescendingOrder
        self._recompute()

    def _mapped(self) -> bool:
        return bool(self._filter) or self._sort_column >= 0

    def _texts(self, i: int, layer_names: dict) -> tuple[str, str, str, str]:
        if i == _PLAYER:
            return ("player", "Spawn", "", "")
        o = self._doc.objects[i]
        return (o.id, kind_name(o.kind), o.type, layer_names.get(o.layer, o.layer))

    def _recompute(self) -> None:
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_ids = [self.id_at(i.row()) if 0 <= i.row() < self.rowCount() else None for i in old]
        if not self._mapped():
            self._rows = None
            self._row_of_index = {}
        else:
            layer_names = {layer.id: layer.name for layer in self._doc.level.layers}
            indices = [_PLAYER, *range(len(self._doc))]
            if self._filter:
                needle = self._filter.lower()
                indices = [i for i in indices
                           if any(needle in t.lower() for t in self._texts(i, layer_names))]
            if self._sort_column >= 0:
                c = self._sort_column
                objects = self._doc.objects
                if c == NAME:
                    def key(i):
                        return natural_key("player" if i == _PLAYER else objects[i].id)
                else:
                    def key(i):
                        return self._texts(i, layer_names)[c].lower()
                player_first = [i for i in indices if i == _PLAYER]
                rest = sorted((i for i in indices if i != _PLAYER), key=key, reverse=self._descending)
                indices = player_first + rest  # the spawn stays on top, as the level's first row
            self._rows = indices
            self._row_of_index = {index: row for row, index in enumerate(indices)}
        new = []
        for oid in old_ids:
            row = self.row_of(oid) if oid is not None else None
            new.append(self.index(row, 0) if row is not None else QModelIndex())
        self.changePersistentIndexList(old, [self.index(n.row(), o.column()) if n.isValid() else QModelIndex()
                                             for o, n in zip(old, new)])
        self.layoutChanged.emit()

    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.isValid():
            return 0
        return len(self._doc) + 1 if self._rows is None else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return self.COLUMNS[section]
        return None

    def _index_at(self, row: int) -> int:
        return row - 1 if self._rows is None else self._rows[row]

    def id_at(self, row: int) -> str:
        i = self._index_at(row)
        return Selection.PLAYER if i == _PLAYER else self._doc.objects[i].id

    def row_of(self, object_id: str) -> Optional[int]:
        """The row showing ``object_id``, or None when the filter leaves it out."""
        if object_id == Selection.PLAYER:
            i = _PLAYER
        elif object_id in self._doc:
            i = self._doc.index_of(object_id)
        else:
            return None
        if self._rows is None:
            return i + 1
        return self._row_of_index.get(i)

    def rows_of(self, object_ids) -> list[int]:
        """The rows showing ``object_ids``, in order (those the filter leaves out are left out).

        :meth:`row_of` for many ids at once: selecting all of 100,000 objects asks for every row.
        """
        doc = self._doc
        index_of, player = doc.index_of, Selection.PLAYER
        with_player = player in object_ids
        ids = [i for i in object_ids if i != player] if with_player else object_ids
        if self._rows is None and whole_level(doc, ids):
            # every object (Select All): every row, in order, the spawn's first
            return list(range(0 if with_player else 1, len(ids) + 1))
        try:
            indices = list(map(index_of, ids))  # one call per id: every one an object's, as a selection's are
        except KeyError:
            indices = [index_of(i) for i in ids if i in doc]
        if with_player:
            indices.append(_PLAYER)
        if self._rows is None:
            return sorted([i + 1 for i in indices])
        row = self._row_of_index.get
        return sorted([r for r in map(row, indices) if r is not None])

    @guarded("listing the objects")
    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid() or role not in (Qt.DisplayRole, Qt.ToolTipRole):
            return None
        i = self._index_at(index.row())
        column = index.column()
        if i == _PLAYER:
            return ("player", "Spawn", "", "")[column]
        o = self._doc.objects[i]
        if column == NAME:
            if role == Qt.ToolTipRole and self._push is not None:
                return f"{o.id} (F2 renames it)"
            return o.id
        if column == KIND:
            return kind_name(o.kind)
        if column == TYPE:
            return o.type
        layer = self._doc.level.layer(o.layer)
        if role == Qt.ToolTipRole and layer is not None and layer.locked:
            return f"{layer.name} (locked: the object can be selected here, not on the canvas)"
        return layer.name if layer is not None else o.layer

    # No flags() override: Qt asks it for every row and column whenever it lists a selection (selectedRows
    # of 10,000 rows made 40,000 calls into Python, several seconds), so ids are renamed through
    # ObjectList's own line edit (F2), not through the model's editing.
    def can_rename(self, row: int) -> bool:
        return self._push is not None and 0 <= row < self.rowCount() and self._index_at(row) != _PLAYER

    @guarded("renaming an object", default=False)
    def rename(self, row: int, new_id: str) -> bool:
        """Rename the object in ``row`` (references follow, one undo step); ``refused`` says why not."""
        if not self.can_rename(row):
            return False
        old_id = self.id_at(row)
        if new_id == old_id:
            return False
        try:
            command = rename_command(self._doc, old_id, new_id)
        except ValueError as refused:
            self.refused.emit(f"Not renamed: {refused}")
            return False
        if command is None:
            return False
        self.refused.emit("")
        self._push(command)
        return True

    @guarded("listing the objects")
    def _on_document_changed(self, change: Change) -> None:
        kind = change.kind
        if kind in (ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.RESET):
            if self._mapped():
                self._recompute_reset()
            else:
                self.beginResetModel()
                self.endResetModel()
        elif kind is ChangeKind.LAYERS:
            if self._mapped():
                self._recompute()
            elif self.rowCount():
                self.dataChanged.emit(self.index(0, LAYER), self.index(self.rowCount() - 1, LAYER))
        elif kind is ChangeKind.CHANGED:
            if change.moved_by is not None:
                return  # a move: nothing the list shows
            shown = [(o, n) for o, n in zip(change.old, change.objects)
                     if o.id != n.id or o.type != n.type or o.layer != n.layer]
            if not shown:
                return  # a move or a reshape: nothing the list shows
            if self._mapped():
                self._recompute()
                return
            rows = [r for r in (self.row_of(n.id) for _, n in shown) if r is not None]
            if rows:
                self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), len(self.COLUMNS) - 1))

    def _recompute_reset(self) -> None:
        self.beginResetModel()
        mapped_filter, self._filter = self._filter, ""
        column, self._sort_column = self._sort_column, -1
        self._rows = None
        self.endResetModel()
        self._filter, self._sort_column = mapped_filter, column
        self._recompute()


class _IdEditor(QLineEdit):
    """The line edit over an id being renamed: ``finished(text, True)`` on Enter or when left, ``(…, False)`` on Esc."""

    finished = Signal(str, bool)

    def __init__(self, original: str, parent=None):
        super().__init__(original, parent)
        self.setObjectName("renameObject")
        self.original = original
        self.setMaxLength(MAX_NAME_LENGTH)
        self._done = False

    def finish_typing(self) -> None:
        """Apply the typed id, as Enter would (editor/support/typed_edits.py)."""
        self._finish(True)

    def drop_typing(self) -> None:
        """Drop the typed id, as Esc would (the level it was typed for is being replaced)."""
        self._finish(False)

    def _finish(self, ok: bool) -> None:
        if not self._done:
            self._done = True
            self.finished.emit(self.text(), ok)

    @guarded("renaming an object")
    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            self._finish(True)
        elif event.key() == Qt.Key_Escape:
            self._finish(False)
        else:
            super().keyPressEvent(event)

    @guarded("renaming an object")
    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self._finish(True)  # as an item view's editor: leaving it applies it


class ObjectList(QWidget):
    """The filter box and the list view over :class:`ObjectListModel`, kept in step with the editor's selection."""

    #: The user asked to see this object (double-click).
    frame_requested = Signal(str)

    def __init__(self, document: LevelDocument, selection: Selection, parent=None, context=None):
        super().__init__(parent)
        self._doc = document
        self._selection = selection
        if context is None and isinstance(selection.parent(), EditorContext):
            context = selection.parent()  # the selection is its editor context's
        self.model = ObjectListModel(document, self, push=context.push if context is not None else None)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("objectFilter")
        self.filter.setPlaceholderText("Filter by id, kind, type or layer")
        self.filter.setClearButtonEnabled(True)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self._apply_filter)
        self.filter.textChanged.connect(self._filter_typed)
        # A table, not a tree: after a new level a tree view lays out every row, asking the model (in Python)
        # for each row's count and columns: 200,000 calls, a quarter-second freeze at 100,000 objects
        self.view = QTableView(self)
        self.view.setObjectName("objectList")
        self.view.setModel(self.model)
        rows = self.view.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.Fixed)
        rows.setMinimumSectionSize(1)
        rows.setDefaultSectionSize(self.view.fontMetrics().height() + 2)  # as close as a list's rows
        self.view.setShowGrid(False)
        self.view.setWordWrap(False)
        self.view.setCornerButtonEnabled(False)
        self.view.setTabKeyNavigation(False)  # Tab leaves the list, as it leaves every other field
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.view.installEventFilter(self)
        #: The line edit over an id while it is renamed (F2), else None.
        self.rename_editor: Optional[_IdEditor] = None
        header = self.view.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignLeft | Qt.AlignVCenter)
        # the id takes the room the dock has; the short columns keep theirs (no sideways scrolling at its width)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(NAME, QHeaderView.Stretch)
        header.setMinimumSectionSize(36)
        header.setSortIndicatorClearable(True)
        header.setSortIndicator(-1, Qt.AscendingOrder)
        self.view.setSortingEnabled(True)
        for column in (KIND, TYPE, LAYER):
            header.setSectionResizeMode(column, QHeaderView.Interactive)
        # what does not fit (a long id, a type longer than FIT_MOST) keeps both ends; its tooltip has it whole
        self.view.setTextElideMode(Qt.ElideMiddle)
        self.problem = QLabel(self)
        self.problem.setObjectName("objectListProblem")
        self.problem.setStyleSheet(PROBLEM_STYLE)
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.model.refused.connect(self.show_problem)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.filter)
        layout.addWidget(WholeRows(self.view), 1)
        layout.addWidget(self.problem)
        self._syncing = False
        self.view.selectionModel().selectionChanged.connect(self._view_selection_changed)
        self.view.doubleClicked.connect(lambda index: self._double_clicked(index))
        self.model.modelReset.connect(self._fit_columns)
        self.model.layoutChanged.connect(self._fit_columns)
        self._fit_columns()
        subscribe_while_alive(document, self, lambda change: self._fit_columns()
                              if change.kind in (ChangeKind.LAYERS, ChangeKind.TYPES) else None)
        self.model.modelReset.connect(self._show_selection)
        self.model.layoutChanged.connect(self._show_selection)
        selection.changed.connect(self._show_selection)

    def problem_text(self) -> str:
        return "" if self.problem.isHidden() else self.problem.text()

    # -- renaming in place (F2) ----------------------------------------------------------------------
    @guarded("renaming in the object list", default=False)
    @guarded("laying out the object list")
    def _fit_columns(self, *_) -> None:
        """The kind, type and layer columns as wide as their longest text (the id takes the rest).

        The texts come from the level's few kinds, types and layer names, not
        from its rows, so this costs the same at any size (a type only some
        object names, and not the level, is read from the objects once here).
        """
        level = self._doc.level
        types = {t.name for t in level.types} | {o.type for o in self._doc.objects if o.type}
        texts = {
            KIND: [kind_name(k) for k in KINDS] + ["Spawn"],
            TYPE: types,
            LAYER: [layer.name for layer in level.layers],
        }
        metrics = self.view.fontMetrics()
        margin = 2 * (self.view.style().pixelMetric(QStyle.PM_FocusFrameHMargin, None, self.view) + 1) + 2
        header = self.view.horizontalHeader()
        for column, values in texts.items():
            title = header.sectionSizeFromContents(column).width()
            widest = max([metrics.horizontalAdvance(v) + margin for v in values] + [title])
            self.view.setColumnWidth(column, min(widest, FIT_MOST))

    def eventFilter(self, watched, event) -> bool:
        if watched is self.view and event.type() == QEvent.KeyPress and event.key() == Qt.Key_F2 \
                and not event.modifiers():
            self.start_rename()
            return True
        return False

    def start_rename(self, row: Optional[int] = None) -> bool:
        """Put a line edit over the id in ``row`` (the current row); Enter renames, Esc leaves it as it was.

        F2 only: a click on a selected row is Ctrl+click's way to deselect it, and a double-click frames.
        """
        if row is None:
            current = self.view.currentIndex()
            row = current.row() if current.isValid() else -1
        if not self.model.can_rename(row):
            return False
        self._close_rename()
        index = self.model.index(row, NAME)
        self.view.scrollTo(index)
        editor = _IdEditor(self.model.id_at(row), self.view.viewport())
        editor.setGeometry(self.view.visualRect(index).adjusted(0, -1, 0, 1))
        editor.finished.connect(lambda text, ok, oid=editor.original: self._renamed(oid, text, ok))
        self.rename_editor = editor
        editor.show()
        editor.setFocus(Qt.OtherFocusReason)
        editor.selectAll()
        return True

    @guarded("renaming an object")
    def _renamed(self, old_id: str, text: str, ok: bool) -> None:
        self._close_rename()
        self.view.setFocus(Qt.OtherFocusReason)
        row = self.model.row_of(old_id)
        if ok and row is not None and text != old_id:
            self.model.rename(row, text)

    def _close_rename(self) -> None:
        editor, self.rename_editor = self.rename_editor, None
        if editor is not None:
            editor.blockSignals(True)
            editor.hide()
            editor.deleteLater()

    def show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    @guarded("filtering the objects")
    def _filter_typed(self, *_) -> None:
        if len(self._doc) > FILTER_AT_ONCE:
            self._filter_timer.start()  # a hundred thousand rows: wait for a pause in the typing
        else:
            self._apply_filter()

    @guarded("filtering the objects")
    def _apply_filter(self) -> None:
        self.model.set_filter(self.filter.text())

    @guarded("selecting in the object list")
    def _view_selection_changed(self, *_):
        if self._syncing:
            return
        # the ranges, not selectedRows(): that one asks about every row and column of a big selection
        rows = sorted({row for r in self.view.selectionModel().selection() for row in range(r.top(), r.bottom() + 1)})
        ids = [self.model.id_at(r) for r in rows]
        if self.model.filter_text:
            # rows the filter hides stay selected: the list only adds and takes away what it shows
            shown = set(ids)
            hidden = [i for i in self._selection.ids() if self.model.row_of(i) is None]
            ids = hidden + [i for i in ids if i in shown]
        self._syncing = True
        try:
            self._selection.set(ids, include_locked=True)
        finally:
            self._syncing = False
        refused = [i for i in ids if i not in self._selection]
        if refused:
            # objects on hidden layers cannot be selected: the rows say so rather than look selected
            obj = self._doc.get(refused[0])
            layer = self._doc.level.layer(obj.layer) if obj is not None else None
            where = f"on the hidden layer '{layer.name}'" if layer is not None else "out of reach"
            self.show_problem(f"{refused[0]} is {where}: show the layer to select it")
            self._show_selection()
        elif self.problem_text().endswith("to select it"):
            self.show_problem("")

    @guarded("showing the selection in the object list")
    def _show_selection(self, *_) -> None:
        if self._syncing:
            return
        rows = self.model.rows_of(self._selection.ids())
        sel = QItemSelection()
        last = len(self.model.COLUMNS) - 1
        start = prev = None
        for r in rows + [None]:
            if start is not None and (r is None or r != prev + 1):
                sel.select(self.model.index(start, 0), self.model.index(prev, last))
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

    @guarded("framing an object")
    def _double_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.frame_requested.emit(self.model.id_at(index.row()))
