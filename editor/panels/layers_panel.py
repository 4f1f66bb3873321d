"""The Layers dock, as Tiled's Layers view: the top layer first, an eye and a lock on every row.

The highlighted row is the current layer, where new objects go. Every change
(add, rename, delete, reorder, show, hide, lock, moving objects to a layer) is
an undo command (editor/commands/layers.py); the list only shows the document.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import (
    QAbstractTableModel, QEvent, QItemSelectionModel, QModelIndex, QPointF, QRectF, QSize, Qt, Signal,
)
from PySide6.QtGui import QAction, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QMenu,
    QMessageBox,
    QToolBar,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from level_editor.core.level.document import Change, ChangeKind
from level_editor.core.level.kinds import plural
from level_editor.core.level.model import Layer
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.guard import guarded
from level_editor.core.level.limits import MAX_NAME_LENGTH
from level_editor.editor.commands.layers import (
    DeleteLayerCommand,
    MoveObjectsToLayerCommand,
    add_layer_command,
    layer_index,
    lock_layer_command,
    move_layer_command,
    rename_layer_command,
    show_layer_command,
)
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.support.subscriptions import subscribe_while_alive

#: The columns: the layer's name, its eye, its lock.
NAME, VISIBLE, LOCKED = range(3)

_ICON_SIZE = 16


def _painted_icon(draw) -> QIcon:
    """An icon drawn by ``draw(painter)`` on a 16x16 square (sharp on high-density screens too)."""
    icon = QIcon()
    for scale in (1, 2):
        pixmap = QPixmap(_ICON_SIZE * scale, _ICON_SIZE * scale)
        pixmap.setDevicePixelRatio(scale)
        pixmap.fill(Qt.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.Antialiasing, True)
        draw(painter)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def _ink(on: bool) -> QColor:
    return QApplication.palette().text().color() if on else QColor(128, 128, 128, 110)


def _eye(painter: QPainter, shown: bool) -> None:
    pen = QPen(_ink(shown), 1.4)
    painter.setPen(pen)
    lid = QPainterPath()
    lid.moveTo(1.5, 8)
    lid.quadTo(8, 1.5, 14.5, 8)
    if shown:
        lid.quadTo(8, 14.5, 1.5, 8)
        painter.drawPath(lid)
        painter.setBrush(_ink(True))
        painter.drawEllipse(QPointF(8, 8), 2.3, 2.3)
    else:
        # a closed eye: the lower lid and its lashes
        closed = QPainterPath()
        closed.moveTo(1.5, 7)
        closed.quadTo(8, 12.5, 14.5, 7)
        painter.drawPath(closed)
        for x0, x1 in ((4, 3), (8, 8), (12, 13)):
            painter.drawLine(QPointF(x0, 10), QPointF(x1, 13))


def _lock(painter: QPainter, locked: bool) -> None:
    ink = _ink(locked)
    painter.setPen(QPen(ink, 1.5))
    painter.setBrush(Qt.NoBrush)
    shackle = QPainterPath()
    if locked:
        shackle.moveTo(5, 8)
        shackle.lineTo(5, 5.5)
        shackle.arcTo(QRectF(5, 2, 6, 7), 180, -180)
        shackle.lineTo(11, 8)
    else:
        shackle.moveTo(5, 8)
        shackle.lineTo(5, 4.5)
        shackle.arcTo(QRectF(5, 1, 6, 7), 180, -180)
    painter.drawPath(shackle)
    painter.setPen(Qt.NoPen)
    painter.setBrush(ink)
    painter.drawRoundedRect(QRectF(3.5, 7.5, 9, 7), 1.5, 1.5)


def _plus(painter: QPainter) -> None:
    painter.setPen(QPen(_ink(True), 2))
    painter.drawLine(QPointF(8, 3), QPointF(8, 13))
    painter.drawLine(QPointF(3, 8), QPointF(13, 8))


def _minus(painter: QPainter) -> None:
    painter.setPen(QPen(_ink(True), 2))
    painter.drawLine(QPointF(3, 8), QPointF(13, 8))


def _arrow(up: bool):
    def draw(painter: QPainter) -> None:
        painter.setPen(QPen(_ink(True), 1.8))
        tip, base = (3.5, 8.5) if up else (12.5, 7.5)
        painter.drawLine(QPointF(8, tip), QPointF(8, 16 - tip))
        painter.drawLine(QPointF(8, tip), QPointF(4, base))
        painter.drawLine(QPointF(8, tip), QPointF(12, base))
    return draw


class LayersModel(QAbstractTableModel):
    """The document's layers, the top one in row 0 (layers are stored bottom first).

    The name can be edited in place; the eye and the lock are clicked (the view
    turns a click on them into :meth:`toggle`). Edits go through the context as
    undo commands; the model shows them when the document says they happened.
    """

    def __init__(self, context: EditorContext, parent=None):
        super().__init__(parent)
        self._context = context
        self._doc = context.document
        self._icons: dict = {}
        subscribe_while_alive(self._doc, self, self._on_document_changed)

    # -- reading ------------------------------------------------------------
    @property
    def layers(self) -> tuple[Layer, ...]:
        return self._doc.level.layers

    def layer_at(self, row: int) -> Layer:
        layers = self.layers
        return layers[len(layers) - 1 - row]

    def row_of(self, layer_id: str) -> int:
        return len(self.layers) - 1 - layer_index(self.layers, layer_id)

    def object_count(self, layer_id: str) -> int:
        return sum(1 for o in self._doc.objects if o.layer == layer_id)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.layers)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else 3

    def _icon(self, column: int, on: bool) -> QIcon:
        key = (column, on)
        icon = self._icons.get(key)
        if icon is None:
            icon = self._icons[key] = _painted_icon(lambda p: (_eye if column == VISIBLE else _lock)(p, on))
        return icon

    @guarded("listing the layers")
    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        layer = self.layer_at(index.row())
        column = index.column()
        if column == NAME:
            if role in (Qt.DisplayRole, Qt.EditRole):
                return layer.name
            if role == Qt.ToolTipRole:
                return f"{layer.name} ({layer.id}): {plural(self.object_count(layer.id), 'object')}"
            if role == Qt.FontRole and layer.id == self._context.current_layer:
                font = QApplication.font()
                font.setBold(True)
                return font
            if role == Qt.ForegroundRole and not layer.visible:
                return QColor(128, 128, 128)
            return None
        on = layer.visible if column == VISIBLE else layer.locked
        if role == Qt.DecorationRole:
            return self._icon(column, on)
        if role == Qt.ToolTipRole:
            if column == VISIBLE:
                return "Shown: click to hide" if on else "Hidden: click to show"
            return "Locked: click to unlock" if on else "Click to lock (its objects can no longer be picked)"
        if role == Qt.AccessibleTextRole:
            return ("shown" if on else "hidden") if column == VISIBLE else ("locked" if on else "unlocked")
        return None

    def flags(self, index: QModelIndex):
        if not index.isValid():
            return Qt.NoItemFlags
        flags = Qt.ItemIsEnabled | Qt.ItemIsSelectable
        if index.column() == NAME:
            flags |= Qt.ItemIsEditable
        return flags

    # -- changing (through undo commands) -------------------------------------
    @guarded("renaming a layer", default=False)
    def setData(self, index: QModelIndex, value, role=Qt.EditRole) -> bool:
        if not index.isValid() or index.column() != NAME or role != Qt.EditRole:
            return False
        if self._context.pushing:
            # Qt's view commits a name box left open when its current row moves, and that happens while another
            # change (deleting or moving a layer) is being made: the box's row then names another layer. What
            # was typed into it was applied before that change began (editor/support/typed_edits.py).
            return False
        layer = self.layer_at(index.row())
        name = str(value).strip()
        if not name or name == layer.name:
            return False
        if len(name) > MAX_NAME_LENGTH:
            self._context.message.emit(f"Layer not renamed: a name is at most {MAX_NAME_LENGTH} characters")
            return False
        self._context.push(rename_layer_command(self._doc, layer.id, name))
        return True

    @guarded("showing or locking a layer")
    def toggle(self, row: int, column: int) -> None:
        """Flip the eye (``VISIBLE``) or the lock (``LOCKED``) of the layer in ``row``."""
        layer = self.layer_at(row)
        if column == VISIBLE:
            self._context.push(show_layer_command(self._doc, layer.id, not layer.visible))
        elif column == LOCKED:
            self._context.push(lock_layer_command(self._doc, layer.id, not layer.locked))

    @guarded("showing the layers")
    def _on_document_changed(self, change: Change) -> None:
        if change.kind in (ChangeKind.LAYERS, ChangeKind.RESET):
            self.beginResetModel()
            self.endResetModel()

    def current_changed(self) -> None:
        """The current layer changed: its name is drawn bold."""
        if self.rowCount():
            self.dataChanged.emit(self.index(0, NAME), self.index(self.rowCount() - 1, NAME), [Qt.FontRole])


class LayersView(QTreeView):
    """The list: a click on an eye or a lock flips it, a row dragged up or down moves its layer."""

    #: The eye or the lock of a row was clicked: (row, column).
    toggle_requested = Signal(int, int)
    #: A row was dragged to a gap between rows: (row, gap; gap ``g`` is just above row ``g``).
    row_dropped = Signal(int, int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._press_row: Optional[int] = None
        self._press_pos = QPointF()
        self._gap: Optional[int] = None

    @property
    def dragging(self) -> bool:
        return self._gap is not None

    def gap_at(self, y: float) -> int:
        """The gap between rows nearest to ``y`` (viewport pixels): 0 above the first row."""
        rows = self.model().rowCount()
        for row in range(rows):
            rect = self.visualRect(self.model().index(row, NAME))
            if y < rect.center().y():
                return row
        return rows

    @guarded("clicking in the layers")
    def mousePressEvent(self, event) -> None:
        index = self.indexAt(event.position().toPoint())
        if event.button() == Qt.LeftButton and index.isValid() and index.column() in (VISIBLE, LOCKED):
            # the eye and the lock flip without making their layer the current one (as in Tiled)
            self.toggle_requested.emit(index.row(), index.column())
            event.accept()
            return
        self._press_row = index.row() if event.button() == Qt.LeftButton and index.isValid() else None
        self._press_pos = event.position()
        super().mousePressEvent(event)

    @guarded("clicking in the layers")
    def mouseDoubleClickEvent(self, event) -> None:
        index = self.indexAt(event.position().toPoint())
        if event.button() == Qt.LeftButton and index.isValid() and index.column() in (VISIBLE, LOCKED):
            # the second click of a double click flips it back, as a checkbox does
            self.toggle_requested.emit(index.row(), index.column())
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    @guarded("dragging a layer")
    def mouseMoveEvent(self, event) -> None:
        if self._press_row is not None and event.buttons() & Qt.LeftButton:
            far = (event.position() - self._press_pos).manhattanLength() >= QApplication.startDragDistance()
            if far or self.dragging:
                gap = self.gap_at(event.position().y())
                if gap != self._gap:
                    self._gap = gap
                    self.viewport().update()
                event.accept()
                return
        super().mouseMoveEvent(event)

    @guarded("dragging a layer")
    def mouseReleaseEvent(self, event) -> None:
        if self.dragging and event.button() == Qt.LeftButton:
            row, gap = self._press_row, self._gap
            self._press_row, self._gap = None, None
            self.viewport().update()
            event.accept()
            self.row_dropped.emit(row, gap)
            return
        self._press_row = None
        super().mouseReleaseEvent(event)

    @guarded("drawing the layers")
    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self._gap is None:
            return
        rows = self.model().rowCount()
        if self._gap < rows:
            y = self.visualRect(self.model().index(self._gap, NAME)).top()
        else:
            y = self.visualRect(self.model().index(rows - 1, NAME)).bottom() + 1
        painter = QPainter(self.viewport())
        painter.setPen(QPen(self.palette().highlight().color(), 2))
        painter.drawLine(0, y, self.viewport().width(), y)
        painter.end()


class LayersPanel(QWidget):
    """The Layers dock's contents: the list and its buttons (new, delete, raise, lower, move selection here)."""

    def __init__(self, context: EditorContext, parent=None):
        super().__init__(parent)
        self.context = context
        self.document = context.document
        self.model = LayersModel(context, self)
        self.view = LayersView(self)
        self.view.setObjectName("layersList")
        self.view.setModel(self.model)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setHeaderHidden(True)
        self.view.setSelectionMode(QAbstractItemView.SingleSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed)
        self.view.setIconSize(QSize(_ICON_SIZE, _ICON_SIZE))
        self.view.setContextMenuPolicy(Qt.CustomContextMenu)
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(NAME, QHeaderView.Stretch)
        for column in (VISIBLE, LOCKED):
            header.setSectionResizeMode(column, QHeaderView.Fixed)
            header.resizeSection(column, _ICON_SIZE + 12)

        self.add_action = self._action("&New Layer", _plus, self.add_layer, "Add a layer above the current one")
        self.delete_action = self._action("&Delete Layer", _minus, self.delete_layer,
                                          "Delete the current layer and the objects on it")
        self.raise_action = self._action("&Raise Layer", _arrow(True), self.raise_layer,
                                         "Move the current layer up (drawn over the one above it)")
        self.lower_action = self._action("&Lower Layer", _arrow(False), self.lower_layer,
                                         "Move the current layer down")
        self.rename_action = QAction("Re&name Layer", self)
        rename = guarded("renaming a layer")(self.rename_layer)
        self.rename_action.triggered.connect(lambda checked=False: rename())
        self.move_selection_action = QAction("&Move Selection Here", self)
        self.move_selection_action.setStatusTip("Put the selected objects on the current layer")
        move_here = guarded("moving the selection to a layer")(self.move_selection_to)
        self.move_selection_action.triggered.connect(lambda checked=False: move_here(self.context.current_layer))

        bar = QToolBar(self)
        bar.setIconSize(QSize(_ICON_SIZE, _ICON_SIZE))
        bar.addActions([self.add_action, self.delete_action, self.raise_action, self.lower_action])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.view)
        layout.addWidget(bar)

        self.view.selectionModel().currentRowChanged.connect(lambda now, before: self._row_picked(now, before))
        self.view.toggle_requested.connect(lambda row, column: self.model.toggle(row, column))
        self.view.row_dropped.connect(lambda row, gap: self._row_dropped(row, gap))
        self.view.customContextMenuRequested.connect(lambda pos: self._context_menu(pos))
        self.model.modelReset.connect(self._show_current)
        context.current_layer_changed.connect(self._show_current)
        context.selection.changed.connect(self._update_actions)
        self._show_current()

    def sizeHint(self) -> QSize:
        # a level has a handful of layers: leave the dock's height to the properties and objects around it
        return QSize(260, 150)

    def _action(self, text: str, draw, slot, tip: str) -> QAction:
        a = QAction(_painted_icon(draw), text, self)
        a.setToolTip(f"{text.replace('&', '')}: {tip.lower()[0]}{tip[1:]}")
        a.setStatusTip(tip)
        run = guarded(text.replace("&", "").lower())(slot)
        a.triggered.connect(lambda checked=False: run())
        return a

    # -- questions (tests answer them) --------------------------------------------
    def ask_delete_layer(self, name: str, count: int) -> bool:
        """Ask before deleting a layer with objects on it; True to delete."""
        answer = QMessageBox.question(
            self, "Delete layer", f"The layer '{name}' holds {plural(count, 'object')}.\n"
            "Delete the layer and everything on it? (Undo brings them back.)",
            QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
        return answer == QMessageBox.Yes

    # -- the current layer ---------------------------------------------------------
    def current_layer(self) -> Layer:
        return self.document.level.layer(self.context.current_layer)

    @guarded("choosing the current layer")
    def _row_picked(self, current: QModelIndex, previous: QModelIndex) -> None:
        if current.isValid():
            self.context.set_current_layer(self.model.layer_at(current.row()).id)

    @guarded("showing the current layer")
    def _show_current(self, *_) -> None:
        """Highlight the current layer's row."""
        layer_id = self.context.current_layer
        if self.document.level.layer(layer_id) is None:
            return
        index = self.model.index(self.model.row_of(layer_id), NAME)
        selection = self.view.selectionModel()
        if selection.currentIndex().row() != index.row() or not selection.isRowSelected(index.row(), QModelIndex()):
            selection.setCurrentIndex(index, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
        self.model.current_changed()
        self._update_actions()

    @guarded("playing or editing the layers")
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.EnabledChange:
            # the window disables its docks while the level is played: the Layer menu's actions follow
            self._update_actions()

    @guarded("updating the Layer menu")
    def _update_actions(self, *_) -> None:
        if not self.isEnabled():
            for action in (self.add_action, self.delete_action, self.raise_action, self.lower_action,
                           self.rename_action, self.move_selection_action):
                action.setEnabled(False)
            return
        self.add_action.setEnabled(True)
        self.rename_action.setEnabled(True)
        layers = self.document.level.layers
        current = self.context.current_layer
        at = layer_index(layers, current) if self.document.level.layer(current) is not None else 0
        self.delete_action.setEnabled(len(layers) > 1)
        self.raise_action.setEnabled(at < len(layers) - 1)
        self.lower_action.setEnabled(at > 0)
        selection = self.context.selection
        # cheap at any size: the selection holds only objects (that exist) and perhaps the player
        self.move_selection_action.setEnabled(len(selection) > (Selection.PLAYER in selection))

    # -- actions ---------------------------------------------------------------------
    def add_layer(self) -> Layer:
        """A new layer just above the current one, which becomes the current one."""
        command, layer = add_layer_command(self.document, self.context.current_layer)
        self.context.push(command)
        self.context.set_current_layer(layer.id)
        return layer

    def rename_layer(self, layer_id: Optional[str] = None) -> None:
        """Edit the name of the layer (the current one) in place."""
        layer_id = layer_id or self.context.current_layer
        self.view.edit(self.model.index(self.model.row_of(layer_id), NAME))

    def delete_layer(self, layer_id: Optional[str] = None) -> bool:
        """Delete the layer (the current one) and its objects in one step, after asking when it holds any."""
        layer = self.document.level.layer(layer_id or self.context.current_layer)
        if layer is None or len(self.document.level.layers) < 2:
            return False
        count = self.model.object_count(layer.id)
        if count and not self.ask_delete_layer(layer.name, count):
            return False
        self.context.push(DeleteLayerCommand(self.document, layer.id))
        return True

    def raise_layer(self) -> None:
        self._move_current(+1)

    def lower_layer(self) -> None:
        self._move_current(-1)

    def _move_current(self, step: int) -> None:
        layers = self.document.level.layers
        at = layer_index(layers, self.context.current_layer)
        if 0 <= at + step < len(layers):
            self.context.push(move_layer_command(self.document, self.context.current_layer, at + step))

    @guarded("moving a layer")
    def _row_dropped(self, row: int, gap: int) -> None:
        if gap in (row, row + 1):
            return
        layer = self.model.layer_at(row)
        shown_at = gap if gap < row else gap - 1
        self.context.push(move_layer_command(self.document, layer.id, len(self.document.level.layers) - 1 - shown_at))
        self.context.set_current_layer(layer.id)

    def _selected_objects(self) -> list[str]:
        return [i for i in self.context.selection.ids() if i != Selection.PLAYER and i in self.document]

    def move_selection_to(self, layer_id: str) -> None:
        """Put the selected objects on the layer ``layer_id`` (one undo step)."""
        ids = self._selected_objects()
        if ids and self.document.level.layer(layer_id) is not None:
            self.context.push(MoveObjectsToLayerCommand(self.document, ids, layer_id))

    def fill_move_menu(self, menu: QMenu) -> None:
        """Fill ``menu`` with one entry per layer, top first, that moves the selection there (Edit menu)."""
        menu.clear()
        enabled = self.isEnabled() and bool(self._selected_objects())  # not while the level is played
        for layer in reversed(self.document.level.layers):
            a = menu.addAction(layer.name)
            a.setEnabled(enabled)
            a.triggered.connect(lambda checked=False, lid=layer.id: self.move_selection_to(lid))

    @guarded("opening the layer menu")
    def _context_menu(self, pos) -> None:
        index = self.view.indexAt(pos)
        menu = QMenu(self)
        if index.isValid():
            layer = self.model.layer_at(index.row())
            move = menu.addAction(f"Move Selection to '{layer.name}'")
            move.setEnabled(bool(self._selected_objects()))
            move.triggered.connect(lambda: self.move_selection_to(layer.id))
            menu.addSeparator()
            menu.addAction("Rename Layer").triggered.connect(lambda: self.rename_layer(layer.id))
            delete = menu.addAction("Delete Layer")
            delete.setEnabled(len(self.document.level.layers) > 1)
            delete.triggered.connect(lambda: self.delete_layer(layer.id))
            menu.addSeparator()
        menu.addAction(self.add_action)
        menu.exec(self.view.viewport().mapToGlobal(pos))
