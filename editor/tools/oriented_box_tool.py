"""Draw an oriented box, then turn it with its rotation handle (O)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import shiboken6
from PySide6.QtCore import QRectF, QLineF, QObject, QPointF, Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem

from level_editor.core.level.model import OrientedBox
from level_editor.core.collision.shapes import Vec2
from level_editor.editor.commands.objects import ChangeObjectsCommand, new_gesture
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.items.handle_item import HandleItem
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.tools.drag_tool import DragTool
from level_editor.editor.tools.preview import PREVIEW_Z, STEM_COLOR, distance, format_number, outline_pen
from level_editor.editor.tools.rotation import handle_rotation
from level_editor.editor.support.guard import guarded

#: The rotation handle sits this many screen pixels beyond the box's top edge.
HANDLE_DISTANCE_PIXELS = 28.0

#: How close (screen pixels) a press must be to the rotation handle to grab it.
HANDLE_PICK_PIXELS = 8.0


class _RotationHandle(QGraphicsItem):
    """A round handle on a short stem above the box's top edge, the same size at every zoom."""

    def __init__(self):
        super().__init__()
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
        self.setFlag(QGraphicsItem.ItemHasNoContents, True)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setZValue(PREVIEW_Z + 10)
        mark_editor_only(self)
        self.stem = QGraphicsLineItem(QLineF(0, 0, 0, -HANDLE_DISTANCE_PIXELS), self)
        self.stem.setPen(outline_pen(STEM_COLOR, width=1.5))
        self.knob = HandleItem("rotate", HandleItem.ROUND, size=11.0, parent=self)
        self.knob.setPos(0, -HANDLE_DISTANCE_PIXELS)
        self.knob.setCursor(Qt.OpenHandCursor)

    @guarded("drawing the oriented box preview", default=QRectF())
    def boundingRect(self):
        return self.childrenBoundingRect()

    @guarded("drawing the oriented box preview")
    def paint(self, painter, option, widget=None):
        pass

    def place(self, box: OrientedBox) -> None:
        top = box.center + Vec2(0.0, -box.half_extents.y).rotated(box.rotation)
        self.setPos(top.x, top.y)
        self.setRotation(box.rotation)


@dataclass
class _Turn:
    box_id: str
    start_rotation: float
    gesture: int


class OrientedBoxTool(DragTool):
    """Press, drag and release to draw an oriented box (axis-aligned at first).

    The selected oriented box shows a rotation handle above its top edge: drag
    it to turn the box about its centre; hold Shift to turn in 15° steps.
    """

    name = "Oriented Box"
    shortcut = "O"
    icon_name = "tool-oriented-box"
    hint = ("Oriented box: press, drag and release to draw it, then drag its round handle to turn it "
            "(Shift: 15° steps, Ctrl: no snapping while drawing).")
    empty_drag_message = "Drag from one corner of the box to the opposite one."

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._active = False
        self._turn: Optional[_Turn] = None
        self._handles: dict[str, _RotationHandle] = {}
        subscribe_while_alive(editor.document, self, self._on_document_changed)
        editor.selection.changed.connect(self._sync_handles)

    # -- state a test or a panel can read ----------------------------------
    def boxes(self) -> list[OrientedBox]:
        """The selected oriented boxes (each shows a rotation handle)."""
        return [o for o in self.editor.selection.objects() if isinstance(o, OrientedBox)]

    def handle_position(self, box: OrientedBox) -> QPointF:
        """Where ``box``'s rotation handle is, in scene coordinates at the current zoom."""
        reach = box.half_extents.y + HANDLE_DISTANCE_PIXELS * self.editor.scale()
        p = box.center + Vec2(0.0, -reach).rotated(box.rotation)
        return QPointF(p.x, p.y)

    def handle_visible(self, box_id: str) -> bool:
        h = self._handles.get(box_id)
        return h is not None and shiboken6.isValid(h) and h.isVisible() and h.scene() is self.editor.scene

    # -- drawing (the press, drag and release of DragTool) ----------------------
    def make_object(self, start: QPointF, end: QPointF, modifiers: Qt.KeyboardModifier) -> Optional[OrientedBox]:
        w, h = abs(end.x() - start.x()), abs(end.y() - start.y())
        if w <= 0 or h <= 0:
            return None
        center = ((start.x() + end.x()) / 2, (start.y() + end.y()) / 2)
        return OrientedBox(self.editor.document.new_id("obox"), center, (w / 2, h / 2), 0.0)

    def object_added(self, obj: OrientedBox) -> None:
        self.editor.message.emit("Drag the round handle to turn the box (Shift: 15° steps).")

    # -- lifecycle ----------------------------------------------------------
    def activate(self) -> None:
        self._active = True
        self._sync_handles()

    def deactivate(self) -> None:
        self._active = False
        self._turn = None
        self._sync_handles()
        super().deactivate()

    # -- events: a press on a rotation handle turns, anything else draws --------
    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        box = self._handle_at(pos) if button == Qt.LeftButton else None
        if box is not None:
            self._turn = _Turn(box.id, box.rotation, new_gesture())
            self.update_hint()
            return
        super().mouse_pressed(pos, button, modifiers)

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self._turn is not None:
            self._turn_to(pos, modifiers)
            return
        super().mouse_moved(pos, buttons, modifiers)

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button == Qt.LeftButton and self._turn is not None:
            self._turn_to(pos, modifiers)
            self._turn = None
            self._show_label(None, "")
            self.update_hint()
            return
        super().mouse_released(pos, button, modifiers)

    def _cancel_turn(self) -> None:
        """Back to where the turn started, still within the same undo step (which then changes nothing)."""
        turn, self._turn = self._turn, None
        self._show_label(None, "")
        self.update_hint()
        if turn is None:
            return
        box = self.editor.document.get(turn.box_id)
        if isinstance(box, OrientedBox) and box.rotation != turn.start_rotation:
            self.push(ChangeObjectsCommand(
                self.editor.document, [box], [replace(box, rotation=turn.start_rotation)],
                "Rotate oriented box", turn.gesture))

    # -- Undo mid-gesture and the hint -------------------------------------------------
    def in_gesture(self) -> bool:
        return self._turn is not None or super().in_gesture()

    def cancel_gesture(self) -> None:
        self._cancel_turn()
        super().cancel_gesture()

    def current_hint(self) -> str:
        if self._turn is not None:
            return (f"Turning {self._turn.box_id}: release to keep the angle (Shift: 15° steps); "
                    "Esc or Ctrl+Z puts it back.")
        if self.drawing:
            return super().current_hint()
        if self._active and self.boxes():
            return ("Oriented box: drag the round handle to turn the selected box (Shift: 15° steps), "
                    "or press and drag elsewhere to draw another.")
        return self.hint

    def _on_document_changed(self, change) -> None:
        if self._turn is not None and not self.pushing:
            # Undo, redo or a panel changed the level mid-turn: that change wins and the turn ends here,
            # rather than starting a new step over the redo.
            self._turn = None
            self._show_label(None, "")
        self._sync_handles()

    # -- turning --------------------------------------------------------------
    def _turn_to(self, pos: QPointF, modifiers) -> None:
        turn = self._turn
        box = self.editor.document.get(turn.box_id)
        if not isinstance(box, OrientedBox):
            self._turn = None
            return
        rotation = handle_rotation((box.center.x, box.center.y), (pos.x(), pos.y()),
                                   snap=bool(modifiers & Qt.ShiftModifier))
        if rotation is None:
            return
        self._show_label(pos, f"{format_number(rotation)}°")
        if rotation == box.rotation:
            return
        new = replace(box, rotation=rotation)
        self.push(ChangeObjectsCommand(self.editor.document, [box], [new], "Rotate oriented box", turn.gesture))

    def _handle_at(self, pos: QPointF) -> Optional[OrientedBox]:
        if not self._active:
            return None
        reach = HANDLE_PICK_PIXELS * self.editor.scale()
        for box in reversed(self.boxes()):
            if distance(pos, self.handle_position(box)) <= reach:
                return box
        return None

    def _sync_handles(self) -> None:
        self.update_hint()
        wanted = {b.id: b for b in self.boxes()} if self._active else {}
        scene = self.editor.scene
        for box_id in list(self._handles):
            h = self._handles[box_id]
            if box_id not in wanted or not shiboken6.isValid(h) or h.scene() is not scene:
                if shiboken6.isValid(h) and h.scene() is not None:
                    h.scene().removeItem(h)
                del self._handles[box_id]
        for box_id, box in wanted.items():
            h = self._handles.get(box_id)
            if h is None:
                h = _RotationHandle()
                scene.addItem(h)
                self._handles[box_id] = h
            h.place(box)

    def _show_label(self, at: Optional[QPointF], text: str) -> None:
        if at is None:
            if self.preview.label_item is not None:
                self.preview.label_item.setVisible(False)
            return
        self.preview.show_label(at, text)
