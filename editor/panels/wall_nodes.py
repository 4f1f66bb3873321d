"""A wall's nodes as a small table in the inspector: x and y of each node, typed like any other field.

Editing a cell moves that node (one undo step, "Move node 2 of wall-1"); the
buttons under the table add a node after the current one (halfway along its
segment) and remove the current one (a wall keeps at least two). The model reads
the wall from the document as the table paints, so a wall of half a million
nodes costs no more than one of three.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLineEdit, QStyledItemDelegate, QTableView, QToolButton,
    QVBoxLayout, QWidget,
)

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.limits import MAX_LEVEL_NODES, MAX_WALL_NODES
from level_editor.editor.commands.objects import ChangeObjectsCommand
from level_editor.editor.support.guard import guarded
from level_editor.editor.panels.field_limits import COORDINATE, bounds_problem, shown_number, typed_number
from level_editor.editor.panels.value_field import NumberCharacters

__all__ = ["NodesModel", "NodesTable"]

#: Rows the table shows before it scrolls (the inspector below it stays in reach).
VISIBLE_ROWS = 6


class NodesModel(QAbstractTableModel):
    """The nodes of the wall ``wall_id()`` names: one row per node, columns x and y.

    ``push(command)`` runs an undo command; ``refused(message)`` is emitted with
    why a typed value was not applied.
    """

    refused = Signal(str)
    COLUMNS = ("x", "y")

    def __init__(self, document: LevelDocument, wall_id: Callable[[], str], push, parent=None):
        super().__init__(parent)
        self._doc = document
        self._wall_id = wall_id
        self._push = push
        self._count = self._nodes_now()

    def wall(self):
        return self._doc.get(self._wall_id())

    def _nodes_now(self) -> int:
        wall = self.wall()
        return len(wall.points) if wall is not None and hasattr(wall, "points") else 0

    def sync(self) -> None:
        """The wall changed in the document: show its nodes as they are now."""
        count = self._nodes_now()
        if count != self._count:
            self.beginResetModel()
            self._count = count
            self.endResetModel()
        elif count:
            self.dataChanged.emit(self.index(0, 0), self.index(count - 1, 1))

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else 2

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role != Qt.DisplayRole:
            return None
        return self.COLUMNS[section] if orientation == Qt.Horizontal else str(section + 1)

    def flags(self, index: QModelIndex):
        if not index.isValid():
            return Qt.NoItemFlags
        return Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsEditable

    @guarded("showing a wall's nodes")
    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid() or role not in (Qt.DisplayRole, Qt.EditRole, Qt.ToolTipRole):
            return None
        wall = self.wall()
        if wall is None or index.row() >= len(wall.points):
            return None
        v = wall.points[index.row()][index.column()]
        if role == Qt.ToolTipRole:
            return f"node {index.row() + 1}: {v!r}"
        return shown_number(v)

    @guarded("moving a wall's node", default=False)
    def setData(self, index: QModelIndex, value, role=Qt.EditRole) -> bool:
        if not index.isValid() or role != Qt.EditRole:
            return False
        wall = self.wall()
        row, column = index.row(), index.column()
        if wall is None or row >= len(wall.points):
            return False
        text = str(value)
        if text.strip() == shown_number(wall.points[row][column]):
            return False  # the value as shown, not retyped: keep its full precision
        try:
            number = typed_number(text, COORDINATE)
        except ValueError as why:
            self.refused.emit(f"Node {row + 1} {self.COLUMNS[column]}: {why} (not applied)")
            return False
        old = wall.points[row]
        point = Vec2(number, old.y) if column == 0 else Vec2(old.x, number)
        points = wall.points[:row] + (point,) + wall.points[row + 1:]
        if any(a == b for a, b in zip(points, points[1:])):
            self.refused.emit(f"Node {row + 1}: would sit on the node next to it (not applied)")
            return False
        return self._apply(wall, points, f"Move node {row + 1} of {wall.id}")

    def _apply(self, wall, points, label: str) -> bool:
        if wall.closed and len(points) > 2 and points[0] == points[-1]:
            self.refused.emit(f"{wall.id}: the last node would sit on the first, and the wall is closed "
                              "(not applied)")
            return False
        new = replace(wall, points=tuple(points))
        problem = bounds_problem(new.bounds())
        if problem is not None:
            self.refused.emit(f"{wall.id}: {problem} (not applied)")
            return False
        self.refused.emit("")
        self._push(ChangeObjectsCommand(self._doc, [wall], [new], label))
        return True

    def add_after(self, row: int) -> bool:
        """A node after ``row``: halfway to the next node, or beyond the last as far as the last segment."""
        wall = self.wall()
        if wall is None:
            return False
        points = list(wall.points)
        if len(points) >= MAX_WALL_NODES:
            self.refused.emit(f"{wall.id}: a wall has at most {MAX_WALL_NODES:,} nodes")
            return False
        if sum(len(o.points) for o in self._doc.objects if hasattr(o, "points")) >= MAX_LEVEL_NODES:
            self.refused.emit(f"{wall.id}: a level has at most {MAX_LEVEL_NODES:,} nodes in all")
            return False
        row = max(0, min(row, len(points) - 1))
        a = points[row]
        if row + 1 < len(points):
            b = points[row + 1]
            new = Vec2((a.x + b.x) / 2, (a.y + b.y) / 2)
        else:
            before = points[row - 1]
            new = Vec2(a.x + (a.x - before.x), a.y + (a.y - before.y))
        if new == a:
            self.refused.emit(f"{wall.id}: the segment is too short to take another node")
            return False
        points.insert(row + 1, new)
        return self._apply(wall, points, f"Add node to {wall.id}")

    def remove(self, row: int) -> bool:
        """Remove node ``row`` (a wall keeps at least two nodes, none sitting on the next)."""
        wall = self.wall()
        if wall is None or not 0 <= row < len(wall.points):
            return False
        if len(wall.points) <= 2:
            self.refused.emit(f"{wall.id}: a wall needs at least 2 nodes")
            return False
        points = list(wall.points)
        del points[row]
        if any(a == b for a, b in zip(points, points[1:])):
            self.refused.emit(f"{wall.id}: removing node {row + 1} would leave two nodes on one spot")
            return False
        return self._apply(wall, points, f"Remove node {row + 1} of {wall.id}")


class _NumberDelegate(QStyledItemDelegate):
    """The cell editor: a line edit that takes only what can be part of a number."""

    @guarded("editing a wall's node")
    def createEditor(self, parent, option, index):
        editor = QLineEdit(parent)
        editor.setValidator(NumberCharacters(editor))
        editor.setFrame(False)
        return editor

    @guarded("editing a wall's node")
    def setModelData(self, editor, model, index) -> None:
        model.setData(index, editor.text(), Qt.EditRole)


class NodesTable(QWidget):
    """The table of nodes with its add and remove buttons."""

    def __init__(self, model: NodesModel, parent=None):
        super().__init__(parent)
        self.model = model
        self.view = QTableView(self)
        self.view.setObjectName("nodesTable")
        self.view.setModel(model)
        self.view.setItemDelegate(_NumberDelegate(self.view))
        self.view.setSelectionBehavior(QAbstractItemView.SelectItems)
        self.view.setSelectionMode(QAbstractItemView.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed
                                  | QAbstractItemView.AnyKeyPressed)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 6)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        rows = VISIBLE_ROWS * self.view.verticalHeader().defaultSectionSize()
        self.view.setFixedHeight(rows + self.view.horizontalHeader().sizeHint().height() + 2 * self.view.frameWidth())
        self.add_button = QToolButton()
        self.add_button.setObjectName("addNode")
        self.add_button.setText("Add Node")
        self.add_button.setToolTip("Add a node after the current one, halfway along its segment")
        self.add_button.clicked.connect(self._add)
        self.remove_button = QToolButton()
        self.remove_button.setObjectName("removeNode")
        self.remove_button.setText("Remove Node")
        self.remove_button.setToolTip("Remove the current node (a wall keeps at least two)")
        self.remove_button.clicked.connect(self._remove)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.view)
        layout.addLayout(buttons)
        model.modelReset.connect(self._update_buttons)
        self._update_buttons()

    def current_row(self) -> int:
        index = self.view.currentIndex()
        return index.row() if index.isValid() else self.model.rowCount() - 1

    @guarded("adding a node")
    def _add(self, *_):
        row = self.current_row()
        if self.model.add_after(row):
            self.view.setCurrentIndex(self.model.index(row + 1, 0))

    @guarded("removing a node")
    def _remove(self, *_):
        self.model.remove(self.current_row())

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(self.model.rowCount() > 2)
