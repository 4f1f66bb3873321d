"""ToolScene: a scene that hands its mouse and key events to the active tool, in scene coordinates (Tiled's
``MapScene`` hands them to its ``AbstractTool``).

Not guarded here: the canvas guards each event and, on an error, cancels the tool's gesture (canvas.py).
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSceneMouseEvent


class ToolScene(QGraphicsScene):
    """``tool`` is the active tool (set by the main window); the scene forwards every mouse and key event to it
    and does nothing else with them."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tool = None
        self._held = Qt.MouseButton.NoButton  # buttons pressed on the canvas and not yet let go
        self._last_pos = QPointF()

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._held |= event.button()
        self._last_pos = event.scenePos()
        if self.tool is not None:
            self.tool.mouse_pressed(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._last_pos = event.scenePos()
        if self.tool is not None:
            self.tool.mouse_moved(event.scenePos(), event.buttons(), event.modifiers())
        event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._held &= ~event.button()
        if self.tool is not None:
            self.tool.mouse_released(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool is not None:
            self.tool.mouse_double_clicked(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def keyPressEvent(self, event) -> None:
        if self.tool is not None and self.tool.key_pressed(event.key(), event.modifiers()):
            event.accept()
        else:
            event.ignore()

    def release_held_buttons(self) -> None:
        """End the active tool's gesture as if its buttons were let go where the mouse last was.

        For when something takes the canvas away mid-drag (a play-test started
        with F5): the real release then never reaches the tool, which would
        otherwise still think a button is down when editing resumes.
        """
        held, self._held = self._held, Qt.MouseButton.NoButton
        if self.tool is None:
            return
        for button in (Qt.LeftButton, Qt.RightButton, Qt.MiddleButton):
            if held & button:
                self.tool.mouse_released(QPointF(self._last_pos), button, Qt.NoModifier)

    def forget_held_buttons(self) -> None:
        """Forget the buttons held on the canvas without telling the tool (its gesture was dropped: the next press
        starts afresh)."""
        self._held = Qt.MouseButton.NoButton
