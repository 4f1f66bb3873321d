"""The base of the tools that draw one object per press, drag and release (Tiled's CreateObjectTool)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QObject, QPointF, Qt

from level_editor.core.level.limits import MAX_SIZE
from level_editor.core.level.model import LevelObject
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.tools.preview import ShapePreview
from level_editor.editor.tools.tool import Tool


class DragTool(Tool):
    """Press where the object starts, drag, release to add it; Esc cancels, Ctrl turns snapping off.

    A subclass says what a drag makes (:meth:`make_object`) and, if it is
    not a rectangle, how the drag looks meanwhile (:meth:`show_preview`).
    The new object goes on the current layer in one undo step and is
    selected; on a locked layer a press draws nothing (the context says why).
    """

    cursor = Qt.CrossCursor
    #: Shown in the status bar when a drag makes nothing.
    empty_drag_message = "Drag from one corner to the opposite one."
    #: The hint while the button is down.
    drawing_hint = "Drag to the opposite corner and release (Ctrl: no snapping); Esc or Ctrl+Z cancels."

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._start: Optional[QPointF] = None
        self.preview = ShapePreview(editor.scene)

    @property
    def drawing(self) -> bool:
        return self._start is not None

    # -- what a subclass says -------------------------------------------------------
    def drag_point(self, pos: QPointF, modifiers: Qt.KeyboardModifier) -> QPointF:
        """Where the drag is with the cursor at ``pos``: snapped, unless the tool snaps something else.

        Never further from the start than :data:`~level_editor.core.level.limits.MAX_SIZE` along either axis.
        """
        end = self.editor.snap(pos, modifiers)
        if self._start is None:
            return end
        sx, sy = self._start.x(), self._start.y()
        return QPointF(min(max(end.x(), sx - MAX_SIZE), sx + MAX_SIZE), min(max(end.y(), sy - MAX_SIZE), sy + MAX_SIZE))

    def show_preview(self, start: QPointF, end: QPointF, modifiers: Qt.KeyboardModifier) -> None:
        """Show what a release at ``end`` would make (the rectangle by default)."""
        self.preview.show_drag_rect(start, end)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # every drag tool says what its drag makes: checked when the tool is written, not on a designer's drag
        if cls.make_object is DragTool.make_object:
            raise TypeError(f"{cls.__name__} does not say what its drag makes (make_object)")

    def make_object(self, start: QPointF, end: QPointF, modifiers: Qt.KeyboardModifier) -> Optional[LevelObject]:
        """The object a drag from ``start`` to ``end`` makes, or None when it makes nothing.

        Each tool gives its own (a subclass without one is refused when it is defined).
        """

    def object_added(self, obj: LevelObject) -> None:
        """``obj`` was added and selected (e.g. to say what to do next)."""

    # -- the gesture ------------------------------------------------------------------
    def deactivate(self) -> None:
        self.cancel()
        self.preview.remove()

    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self.editor.current_layer_locked():
            return
        self._start = self.editor.snap(pos, modifiers)
        self.show_preview(self._start, QPointF(self._start), modifiers)
        self.update_hint()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self._start is None:
            self.editor.snap(pos, modifiers)  # shows the snap marker before the press
            return
        self.show_preview(self._start, self.drag_point(pos, modifiers), modifiers)

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._start is None:
            return
        start, end = self._start, self.drag_point(pos, modifiers)
        self.cancel()
        obj = self.make_object(start, end, modifiers)
        if obj is None:
            self.editor.message.emit(self.empty_drag_message)
            return
        obj = self.editor.on_current_layer(obj)
        self.push(AddObjectsCommand(self.editor.document, [obj]))
        self.editor.selection.set([obj.id])
        self.object_added(obj)

    def cancel(self) -> None:
        """Drop the drag under way, if any."""
        self._start = None
        self.editor.snapper.hide_marker()
        self.preview.hide()
        self.update_hint()

    # -- Undo while drawing, and the hint ------------------------------------------------
    def in_gesture(self) -> bool:
        return self._start is not None

    def cancel_gesture(self) -> None:
        self.cancel()

    def current_hint(self) -> str:
        return f"{self.name}: {self.drawing_hint}" if self._start is not None else self.hint
