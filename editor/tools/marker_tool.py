"""Place markers: points of a chosen type, such as an enemy's spawn point or a pickup (M)."""
from __future__ import annotations

from typing import Optional

import shiboken6
from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainterPath, QPixmap
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from level_editor.core.level.document import Change, ChangeKind
from level_editor.core.level.model import Point
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.tools.preview import ShapePreview
from level_editor.editor.tools.tool import Tool

#: What the type box shows for a marker without a type.
NO_TYPE_LABEL = "(none)"

#: The preview's ring, in screen pixels.
_RING_PIXELS = 6.0


class MarkerTool(Tool):
    """Click to place a marker of the type chosen in the tool's options; drag before letting go to move it.

    The marker snaps like everything else (Ctrl: not at all) and goes on the
    current layer; a locked layer refuses it. A typed marker is named after its
    type (``enemy-1``), an untyped one ``point-1``. Each click is one undo step,
    "Add enemy" or "Add marker". Esc while the button is down cancels the click.

    The type is chosen in :meth:`options_widget` (the main window's Tool Options
    toolbar) or with :meth:`set_marker_type`.
    """

    name = "Marker"
    shortcut = "M"
    icon_name = "tool-marker"
    hint = "Marker: click to place a marker of the type chosen under Tool Options (Ctrl: no snapping, Esc cancels)."
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._type = ""
        self._at: Optional[QPointF] = None
        self._options: Optional[QWidget] = None
        self._type_box: Optional[QComboBox] = None
        self.preview = ShapePreview(editor.scene)
        subscribe_while_alive(editor.document, self, self._on_document_changed)

    # -- the type ---------------------------------------------------------------------
    @property
    def marker_type(self) -> str:
        """The type new markers get (``""``: none)."""
        return self._type

    def set_marker_type(self, name: str) -> None:
        """Give new markers the type ``name`` (``""`` for none); a name the level does not list means none."""
        if name and self.editor.document.level.object_type(name) is None:
            name = ""
        self._type = name
        box = self.type_box
        if box is not None:
            box.setCurrentIndex(max(0, box.findData(name)))

    @property
    def type_box(self) -> Optional[QComboBox]:
        """The combobox of :meth:`options_widget`, once made (and while it exists)."""
        box = self._type_box
        return box if box is not None and shiboken6.isValid(box) else None

    def options_widget(self) -> QWidget:
        """The tool's options for a toolbar: the type of the markers it places (the level's types and "(none)")."""
        if self._options is None or not shiboken6.isValid(self._options):
            self._options = QWidget()
            self._options.setObjectName("markerOptions")
            layout = QHBoxLayout(self._options)
            layout.setContentsMargins(4, 0, 4, 0)
            label = QLabel("Marker type:")
            box = self._type_box = QComboBox()
            box.setObjectName("markerType")
            box.setToolTip("The type of the markers the Marker tool places")
            box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
            label.setBuddy(box)
            layout.addWidget(label)
            layout.addWidget(box)
            self._fill_type_box()
            box.currentIndexChanged.connect(self._type_chosen)
        return self._options

    def _fill_type_box(self) -> None:
        box = self.type_box
        if box is None:
            return
        box.blockSignals(True)
        box.clear()
        box.addItem(NO_TYPE_LABEL, "")
        for t in self.editor.document.level.types:
            box.addItem(_swatch(t.color), t.name, t.name)
        box.setCurrentIndex(max(0, box.findData(self._type)))
        box.blockSignals(False)

    def _type_chosen(self, index: int) -> None:
        box = self.type_box
        self._type = (box.itemData(index) or "") if box is not None and index >= 0 else ""

    def _on_document_changed(self, change: Change) -> None:
        if change.kind in (ChangeKind.TYPES, ChangeKind.RESET):
            if self._type and self.editor.document.level.object_type(self._type) is None:
                self._type = ""
            self._fill_type_box()

    # -- the click --------------------------------------------------------------------
    def deactivate(self) -> None:
        self.cancel()
        self.preview.remove()

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self.editor.current_layer_locked():
            return
        self._at = self.editor.snap(pos, modifiers)
        self._show_preview()
        self.update_hint()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        at = self.editor.snap(pos, modifiers)  # before the press too: shows the snap marker
        if self._at is not None:
            self._at = at
            self._show_preview()

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._at is None:
            return
        at = self.editor.snap(pos, modifiers)
        self.cancel()
        self.place(at)

    def cancel(self) -> None:
        """Drop the click under way, if any."""
        self._at = None
        self.editor.snapper.hide_marker()
        self.preview.hide()
        self.update_hint()

    # -- Undo while the button is down, and the hint ------------------------------------
    def in_gesture(self) -> bool:
        return self._at is not None

    def cancel_gesture(self) -> None:
        self.cancel()

    def current_hint(self) -> str:
        if self._at is not None:
            what = f"the {self._type} marker" if self._type else "the marker"
            return f"Marker: release to place {what} here (Ctrl: no snapping); Esc or Ctrl+Z cancels."
        return self.hint

    def place(self, at: QPointF) -> Optional[Point]:
        """Add a marker of the chosen type at ``at`` (scene units, used as given) and select it."""
        doc = self.editor.document
        marker = self.editor.on_current_layer(
            Point(doc.new_id(self._type or "point"), (at.x(), at.y()), type=self._type))
        self.push(AddObjectsCommand(doc, [marker], f"Add {self._type or 'marker'}"))
        if marker.id not in doc:  # a play-test runs: nothing changes
            return None
        self.editor.selection.set([marker.id])
        return marker

    def _show_preview(self) -> None:
        r = _RING_PIXELS * self.editor.scale()
        x, y = self._at.x(), self._at.y()
        path = QPainterPath()
        path.addEllipse(QRectF(x - r, y - r, 2 * r, 2 * r))
        path.moveTo(x - 2 * r, y)
        path.lineTo(x + 2 * r, y)
        path.moveTo(x, y - 2 * r)
        path.lineTo(x, y + 2 * r)
        self.preview.show(path, self._at, self._type or "marker")


def _swatch(color: str) -> QIcon:
    """A small square of a type's colour for the type box."""
    pixmap = QPixmap(12, 12)
    c = QColor(color)
    pixmap.fill(c if c.isValid() else QColor("#a0a0a0"))
    return QIcon(pixmap)
