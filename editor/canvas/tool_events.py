"""ToolScene: a scene that hands its mouse and key events to the active tool, in scene coordinates (Tiled's
``MapScene`` hands them to its ``AbstractTool``).

Not guarded here: the canvas guards each event and, on an error, cancels the tool's gesture (canvas.py).

The tool gets one event at a time. Qt's view replays the last mouse move whenever its scroll bars move, and a
change that grows the scene's rectangle moves them (an object dragged past the edge of a zoomed-out level): that
replay came inside the tool's own handling of a move, in the middle of the push it was making, so a drag pushed
a second "Move pillar" while the first was being made. A move that arrives while the tool is handling another
event is held and given to the tool right after it.
"""
from __future__ import annotations

from contextlib import contextmanager

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSceneMouseEvent

#: How many moves held during one event are given to the tool after it (each may grow the scene and be replayed
#: again; the next real move catches up with any beyond these).
MAX_HELD_MOVES = 4


class ToolScene(QGraphicsScene):
    """``tool`` is the active tool (set by the main window); the scene forwards every mouse and key event to it
    and does nothing else with them."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tool = None
        self._held = Qt.MouseButton.NoButton  # buttons pressed on the canvas and not yet let go
        self._last_pos = QPointF()
        self._handling = False
        self._held_move = None  # (pos, buttons, modifiers) of a move that came while the tool handled an event

    @contextmanager
    def _one_event(self):
        """The tool handles one event; moves replayed meanwhile are given to it afterwards (see above)."""
        self._handling = True
        try:
            yield
        except BaseException:
            self._held_move = None  # the event failed (the canvas cancels the gesture): nothing follows it
            raise
        finally:
            self._handling = False
        for _ in range(MAX_HELD_MOVES):
            held, self._held_move = self._held_move, None
            if held is None or self.tool is None:
                break
            self._handling = True
            try:
                self.tool.mouse_moved(*held)
            finally:
                self._handling = False
        self._held_move = None

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._held |= event.button()
        self._last_pos = event.scenePos()
        if self.tool is not None:
            with self._one_event():
                self.tool.mouse_pressed(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._last_pos = event.scenePos()
        if self._handling:
            self._held_move = (QPointF(event.scenePos()), event.buttons(), event.modifiers())
        elif self.tool is not None:
            with self._one_event():
                self.tool.mouse_moved(event.scenePos(), event.buttons(), event.modifiers())
        event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._held &= ~event.button()
        if self.tool is not None:
            with self._one_event():
                self.tool.mouse_released(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.tool is not None:
            with self._one_event():
                self.tool.mouse_double_clicked(event.scenePos(), event.button(), event.modifiers())
        event.accept()

    def keyPressEvent(self, event) -> None:
        if self.tool is None:
            event.ignore()
            return
        with self._one_event():
            used = self.tool.key_pressed(event.key(), event.modifiers())
        if used:
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
