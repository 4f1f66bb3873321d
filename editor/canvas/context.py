"""What the tools and panels of one editor window share: document, undo stack, selection, scene, snapping."""
from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QGraphicsScene

import logging
from contextlib import contextmanager
from dataclasses import replace

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.canvas.snapping import Snapper
from level_editor.editor.support.subscriptions import subscribe_while_alive

log = logging.getLogger("level-editor")


class EditorContext(QObject):
    """The shared state of one editor window.

    Tools receive it on construction and never reach further (no main window
    lookups), so a test can build one around a bare ``QGraphicsScene`` and drive
    a tool directly with scene coordinates.
    """

    #: A short message for the status bar (tool hints, what just happened).
    message = Signal(str)
    #: The layer new objects go to changed (its id).
    current_layer_changed = Signal(str)
    #: The tiles picked in the Tilesets dock changed (:attr:`tile_pick`).
    tile_pick_changed = Signal()

    def __init__(self, document: LevelDocument, scene: QGraphicsScene, undo_stack: QUndoStack | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.document = document
        self.scene = scene
        self.undo_stack = undo_stack if undo_stack is not None else QUndoStack(self)
        self.selection = Selection(document, self)
        self.snapper = Snapper(document, scene, self)
        self._current_layer = document.level.layers[-1].id
        #: The tiles picked in the Tilesets dock (a TilePick), or None: the tile brush paints plain solid cells.
        self.tile_pick = None
        self._pushing = False
        self._pushing_text = ""
        self._deferred: list[QUndoCommand] = []
        subscribe_while_alive(document, self, self._on_document_changed)

    def set_tile_pick(self, pick) -> None:
        """Pick the tiles the tile brush paints and the sprite tool places (None: plain solid cells)."""
        if pick != self.tile_pick:
            self.tile_pick = pick
            self.tile_pick_changed.emit()

    #: Set while a play-test runs (editor/playtest): commands are dropped unrun, so the level cannot change.
    read_only = False

    def push(self, command: QUndoCommand) -> None:
        """Run ``command`` and record it for undo (unless :attr:`read_only`): the one way commands are pushed.

        A command that changes nothing is dropped here rather than pushed, which
        would throw away the steps the designer could still redo.

        Never two changes inside each other: a command pushed while another one runs, or while Undo or Redo
        runs (see :meth:`changing`), waits until that is done and is pushed after it as a step of its own.
        Pushed inside, it would record its "before" state in the middle of the first change, and undo would
        put back a state that never existed. Nothing should do that (a value typed into a panel is applied
        before anything else happens, editor/support/typed_edits.py; the scene gives its tool one event at a
        time, editor/canvas/tool_events.py): when it happens anyway it is written to the debug log, for a
        developer, not shown to the designer. It is a tripwire: the record carries ``nested_push``, and the
        test suite fails any test that leaves one (tests/conftest.py).
        """
        if self.read_only or command.isObsolete():
            return
        if self._pushing:
            log.debug("%r was pushed while %r was being made: it is pushed after it",
                      command.text(), self._pushing_text, extra={"nested_push": (command.text(), self._pushing_text)})
            self._deferred.append(command)
            return
        with self.changing(command.text()):
            self.undo_stack.push(command)

    @contextmanager
    def changing(self, text: str):
        """Mark the level as being changed by ``text`` (a push, an Undo, a Redo) for the ``with`` block.

        Pushes made inside wait until the block ends (see :meth:`push`).
        """
        if self._pushing:
            yield
            return
        self._pushing, self._pushing_text = True, text
        try:
            yield
        finally:
            self._pushing = False
        deferred, self._deferred = self._deferred, []
        for later in deferred:
            self.push(later)

    @property
    def pushing(self) -> bool:
        """A command is being pushed, undone or redone right now (its change events are going out)."""
        return self._pushing

    # -- the current layer (Tiled's: where new objects go) ------------------------------
    @property
    def current_layer(self) -> str:
        """The id of the layer new objects go to."""
        return self._current_layer

    def set_current_layer(self, layer_id: str) -> None:
        if layer_id == self._current_layer or self.document.level.layer(layer_id) is None:
            return
        self._current_layer = layer_id
        self.current_layer_changed.emit(layer_id)

    def on_current_layer(self, obj):
        """``obj`` placed on the current layer (tools call this for every object they create)."""
        return obj if obj.layer == self._current_layer else replace(obj, layer=self._current_layer)

    def current_layer_locked(self) -> bool:
        """True when the current layer is locked: tools then refuse to draw, and say why."""
        layer = self.document.level.layer(self._current_layer)
        if layer is not None and layer.locked:
            self.message.emit(f"The layer '{layer.name}' is locked: unlock it or pick another layer to draw on.")
            return True
        return False

    def _on_document_changed(self, change: Change) -> None:
        if change.kind in (ChangeKind.RESET, ChangeKind.LAYERS) and \
                self.document.level.layer(self._current_layer) is None:
            self._current_layer = self.document.level.layers[-1].id
            self.current_layer_changed.emit(self._current_layer)

    def snap(self, pos: QPointF, modifiers: Qt.KeyboardModifier = Qt.NoModifier, exclude=()) -> QPointF:
        """``pos`` snapped to the grid or a nearby node/corner (Ctrl suspends snapping)."""
        return self.snapper.snap(pos, modifiers, exclude)

    def scale(self) -> float:
        """Scene units per screen pixel of the first view (1.0 without a view): for pick radii."""
        return self.snapper.scale()

