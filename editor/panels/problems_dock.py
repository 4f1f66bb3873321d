"""The Problems dock: what validation found in the open level, errors first.

A table model holds the latest problems (no widget per row); the dock's
title counts them. Picking a problem (a click, or the arrow keys) selects its
object or the player, frames it on the canvas and marks the problem's spot
with a :class:`~level_editor.editor.items.problem_marker_item.ProblemMarkerItem`, which
stays until another problem is picked or the level changes. Problems about
the level as a whole (``-``) only mark their spot.

Every object with an error or a warning also carries a badge at its corner on
the canvas whenever the check has results (:mod:`level_editor.editor.panels.problem_badges`),
picked or not; while the dock is disabled (a play-test runs) the badges and the
mark are hidden.
"""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QHeaderView, QTreeView

from level_editor.core.level.document import Change, ChangeKind
from level_editor.core.level.problems import ERROR, INFO, LEVEL_ID, PLAYER_ID, WARNING, Problem
from level_editor.core.level.kinds import plural
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.guard import guarded
from level_editor.editor.items.problem_badge_item import draw_severity_sign
from level_editor.editor.items.problem_marker_item import ProblemMarkerItem
from level_editor.editor.panels.problem_badges import ProblemBadges
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.support.whole_rows import WholeRows

SEVERITY_ORDER = {ERROR: 0, WARNING: 1, INFO: 2}
SEVERITY_NAMES = {ERROR: "Error", WARNING: "Warning", INFO: "Info"}


def severity_icon(severity: str, size: int = 16) -> QIcon:
    """A round red sign for errors, an amber triangle for warnings, a blue dot for information."""
    pix = QPixmap(size, size)
    pix.fill(Qt.transparent)
    p = QPainter(pix)
    draw_severity_sign(p, QRectF(0, 0, size, size), severity)
    p.end()
    return QIcon(pix)


def summary(problems: Sequence[Problem]) -> str:
    """``"2 errors, 5 warnings"``: what the dock's title and the status bar say."""
    errors = sum(p.severity == ERROR for p in problems)
    warnings = sum(p.severity == WARNING for p in problems)
    return f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"


class ProblemsModel(QAbstractTableModel):
    """One row per problem: severity, object id, message; errors first, then warnings, then information."""

    COLUMNS = ("Severity", "Object", "Message")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._problems: tuple = ()
        self._icons = {s: severity_icon(s) for s in SEVERITY_ORDER}

    def set_problems(self, problems: Sequence[Problem]) -> None:
        self.beginResetModel()
        self._problems = tuple(sorted(problems, key=lambda p: SEVERITY_ORDER.get(p.severity, 3)))
        self.endResetModel()

    def problems(self) -> tuple:
        return self._problems

    def problem_at(self, row: int) -> Problem:
        return self._problems[row]

    def rowCount(self, parent: QModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self._problems)

    def columnCount(self, parent: QModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return self.COLUMNS[section]
        return None

    @guarded("listing the problems")
    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        p = self._problems[index.row()]
        col = index.column()
        if role == Qt.DisplayRole:
            return (SEVERITY_NAMES.get(p.severity, p.severity), p.object_id, p.message)[col]
        if role == Qt.ToolTipRole:
            return f"{SEVERITY_NAMES.get(p.severity, p.severity)} — {p.object_id}: {p.message}"
        if role == Qt.DecorationRole and col == 0:
            return self._icons.get(p.severity)
        return None


class ProblemsDock(QDockWidget):
    """The dock over :class:`ProblemsModel`; picking a problem shows it on the canvas."""

    #: A problem was picked and shown.
    problem_shown = Signal(object)

    def __init__(self, context: EditorContext, canvas, parent=None):
        super().__init__("Problems", parent)
        self.setObjectName("problemsDock")
        self._context = context
        self._doc = context.document
        self._selection: Selection = context.selection
        self._canvas = canvas
        self.model = ProblemsModel(self)
        self.view = QTreeView(self)
        self.view.setObjectName("problemList")
        self.view.setModel(self.model)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QAbstractItemView.SingleSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.NoEditTriggers)
        header = self.view.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.Interactive)
        self.view.setColumnWidth(0, 90)
        self.view.setColumnWidth(1, 120)
        # a long message keeps its start and its end; its tooltip has it whole
        self.view.setTextElideMode(Qt.ElideMiddle)
        self.setWidget(WholeRows(self.view))
        self.marker = ProblemMarkerItem()
        context.scene.addItem(self.marker)
        #: The signs at the corners of the objects that have problems.
        self.badges = ProblemBadges(self._doc, context.scene, self, zoom=canvas.zoom)
        canvas.zoom_changed.connect(self.badges.rescale)
        self.shown: Problem | None = None
        self._restoring = False
        self.view.clicked.connect(lambda index: self._picked(index))
        self.view.selectionModel().currentRowChanged.connect(lambda now, before: self._current_changed(now, before))
        subscribe_while_alive(self._doc, self, self._on_document_changed)
        self.set_problems(None)

    # -- results in ----------------------------------------------------------------
    @guarded("showing the problems")
    def set_problems(self, problems: Sequence[Problem] | None) -> None:
        """List ``problems`` (``None``: not checked yet); the picked problem stays picked if it is still there."""
        picked = self.shown
        self.badges.show_problems(problems)
        self._restoring = True
        try:
            self.model.set_problems(problems or ())
            if picked is not None and picked in self.model.problems():
                row = self.model.problems().index(picked)
                self.view.setCurrentIndex(self.model.index(row, 0))
        finally:
            self._restoring = False
        self.setWindowTitle("Problems" if problems is None else f"Problems ({summary(self.model.problems())})")

    @guarded("hiding the problems while playing")
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.EnabledChange:
            # the window disables its docks while the level is played: the canvas shows only the level then
            self.badges.set_suspended(not self.isEnabled())
            if not self.isEnabled():
                self.clear_marker()

    @guarded("showing the problems")
    def _on_document_changed(self, change: Change) -> None:
        # the spot may no longer be where the problem is; the next results say where it is now
        self.clear_marker()
        if change.kind is ChangeKind.RESET:
            self.set_problems(None)

    def clear_marker(self) -> None:
        self.shown = None
        self.marker.clear()

    # -- picking -------------------------------------------------------------------
    @guarded("showing a problem")
    def _current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if not self._restoring and current.isValid():
            self.show_problem(self.model.problem_at(current.row()))

    @guarded("showing a problem")
    def _picked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.show_problem(self.model.problem_at(index.row()))

    def show_problem(self, problem: Problem) -> None:
        """Select the problem's object (or the player), frame it with the spot, and mark the spot."""
        oid = problem.object_id
        area: QRectF | None = None
        if oid == PLAYER_ID:
            self._selection.set([Selection.PLAYER])
            b = self._doc.player.bounds()
            area = QRectF(b[0], b[1], b[2] - b[0], b[3] - b[1])
        elif oid != LEVEL_ID and oid in self._doc:
            self._selection.set([oid])
            b = self._doc.get(oid).bounds()
            area = QRectF(b[0], b[1], b[2] - b[0], b[3] - b[1])
        loc = problem.location
        spot = QPointF(loc.x, loc.y) if loc is not None else None
        if area is not None:
            if spot is not None:
                area = area.united(QRectF(spot.x() - 1, spot.y() - 1, 2, 2))
            self._canvas.frame_rect(area, max_zoom=max(self._canvas.zoom(), 2.0))
        elif spot is not None and not self._canvas.visible_rect().contains(spot):
            self._canvas.centerOn(spot)
        self.shown = problem
        if spot is not None:
            self.marker.show_at(spot, problem.severity)
        else:
            self.marker.clear()
        self.problem_shown.emit(problem)
