"""Draw a wall node by node (W)."""
from __future__ import annotations

import math
from typing import Optional

import shiboken6
from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QPainterPath

from level_editor.core.level.document import Change, ChangeKind
from level_editor.core.level.limits import MAX_SIZE, MIN_SIZE
from level_editor.core.level.model import Wall
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.items.handle_item import HandleItem
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.tools.preview import (
    PREVIEW_Z,
    LabelItem,
    distance,
    format_number,
    outline_pen,
    preview_item,
    thick_pen,
)
from level_editor.editor.tools.tool import Tool

#: Clicking within this many screen pixels of the first node closes the wall.
CLOSE_PIXELS = 8.0

#: A click this close (screen pixels) to the last node is the second click of a double-click, not a node.
DUPLICATE_PIXELS = 3.0


class WallTool(Tool):
    """Click to add nodes; the wall follows the mouse with its real thickness until it is ended.

    The thickness of a new wall is the one last used (drawn here, or set on a
    wall in the inspector), else half the level's grid.
    """

    name = "Wall"
    shortcut = "W"
    icon_name = "tool-wall"
    hint = "Wall: click where the wall starts ([ and ] change the thickness)."
    cursor = Qt.CrossCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._nodes: list[QPointF] = []
        self._mouse: Optional[QPointF] = None
        self._thickness: Optional[float] = None
        self._items: list = []
        self._handles: list[HandleItem] = []
        #: Nodes taken back by Undo during this wall, the latest last: Redo puts them back.
        self._undone: list[QPointF] = []
        subscribe_while_alive(editor.document, self, self._on_document_changed)

    # -- state a test or a panel can read ----------------------------------
    @property
    def nodes(self) -> list[QPointF]:
        """The nodes placed so far in the wall being drawn."""
        return [QPointF(p) for p in self._nodes]

    def preview_items(self) -> tuple:
        """What the wall being drawn is shown with, in this order: the placed segments, the rubber band to the
        pointer (as thick as the wall), the centre line and the length label; none while no wall is drawn."""
        return tuple(self._items)

    def node_handles(self) -> tuple[HandleItem, ...]:
        """A handle per placed node (the first one lights up where a click closes the wall)."""
        return tuple(self._handles)

    @property
    def thickness(self) -> float:
        """The thickness the next wall gets."""
        if self._thickness is not None:
            return self._thickness
        grid = self.editor.snapper.grid()
        return grid / 2 if grid is not None else 8.0

    def set_thickness(self, value: float) -> None:
        if value > 0 and math.isfinite(value):
            self._thickness = min(max(float(value), MIN_SIZE), MAX_SIZE)
            self._update_preview()

    # -- lifecycle ----------------------------------------------------------
    def activate(self) -> None:
        self._update_preview()

    def deactivate(self) -> None:
        # Switching tools keeps what was drawn: a chain of two nodes or more becomes a wall.
        if len(self._nodes) >= 2:
            self.finish()
        else:
            self.cancel()
        self._remove_items()
        self.editor.snapper.hide_marker()

    # -- events ---------------------------------------------------------------
    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button == Qt.RightButton:
            if self._nodes:
                self.finish()
            return
        if button != Qt.LeftButton or (not self._nodes and self.editor.current_layer_locked()):
            return
        if self._near_first_node(pos, modifiers):
            if len(self._nodes) >= 3:
                self.finish(closed=True)
                return
            if len(self._nodes) == 2:
                self.editor.message.emit("A closed wall needs at least 3 nodes.")
                return
        p = self.editor.snap(pos, modifiers)
        if self._nodes and self._is_duplicate(p, pos):
            return
        self._nodes.append(p)
        self._undone = []
        self._mouse = p
        self._update_preview()

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if self._near_first_node(pos, modifiers) and len(self._nodes) >= 3:
            self.editor.snapper.hide_marker()
            self._mouse = QPointF(self._nodes[0])
        else:
            self._mouse = self.editor.snap(pos, modifiers)
        self._update_preview()

    def mouse_double_clicked(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        # The presses of the double-click normally placed the last node already; add it only if not.
        if button != Qt.LeftButton or not self._nodes:
            return
        p = self.editor.snap(pos, modifiers)
        if not self._is_duplicate(p, pos):
            self._nodes.append(p)
            self._undone = []
        self.finish()

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key in (Qt.Key_Return, Qt.Key_Enter):
            if not self._nodes:
                return False
            self.finish()
            return True
        if key == Qt.Key_Backspace:
            if not self._nodes:
                return False
            self._remove_last_node()
            return True
        if key == Qt.Key_Escape:
            cancelled = super().key_pressed(key, modifiers)
            if cancelled:
                self.editor.message.emit("Wall cancelled.")
            return cancelled
        if key in (Qt.Key_BracketLeft, Qt.Key_BracketRight):
            step = self._thickness_step()
            t = self.thickness + (step if key == Qt.Key_BracketRight else -step)
            self.set_thickness(max(step, round(t / step) * step))
            self.editor.message.emit(f"Wall thickness: {format_number(self.thickness)}")
            return True
        return False

    # -- ending the chain -----------------------------------------------------
    def finish(self, closed: bool = False) -> Optional[Wall]:
        """Turn the nodes placed so far into a wall (one undo step); returns it, or None if refused."""
        nodes = self._nodes
        if closed and len(nodes) < 3:
            self.editor.message.emit("A closed wall needs at least 3 nodes.")
            return None
        if len(nodes) < 2:
            self.cancel()
            self.editor.message.emit("A wall needs at least 2 nodes: click where it starts, then where it turns or ends.")
            return None
        doc = self.editor.document
        wall = self.editor.on_current_layer(
            Wall(doc.new_id("wall"), [(p.x(), p.y()) for p in nodes], self.thickness, closed))
        self._nodes = []
        self._undone = []
        self._thickness = wall.thickness
        self.push(AddObjectsCommand(doc, [wall], "Add wall"))
        self.editor.selection.set([wall.id])
        self.editor.snapper.hide_marker()
        self._update_preview()
        return wall

    def cancel(self) -> None:
        """Drop the nodes placed so far."""
        self._nodes = []
        self._undone = []
        self._update_preview()

    # -- Undo and Redo while a wall is being drawn ---------------------------------
    def in_gesture(self) -> bool:
        return bool(self._nodes)

    def cancel_gesture(self) -> None:
        self.cancel()

    def undo_in_gesture(self) -> bool:
        """Ctrl+Z while drawing takes back the last node placed (the last one cancels the wall)."""
        if not self._nodes:
            self._undone = []  # the level's own Undo runs next: node redo would come in the wrong order
            return False
        self._remove_last_node()
        return True

    def redo_in_gesture(self) -> bool:
        """Ctrl+Shift+Z puts back the node Undo took, while there is one; never reaches the level's history."""
        if self._undone:
            self._nodes.append(self._undone.pop())
            self._mouse = QPointF(self._nodes[-1])
            self._update_preview()
            return True
        return super().redo_in_gesture()

    def can_redo_in_gesture(self) -> bool:
        return bool(self._undone or self._nodes)

    def _remove_last_node(self) -> None:
        self._undone.append(self._nodes.pop())
        self._update_preview()
        left = len(self._nodes)
        self.editor.message.emit(
            f"Removed the last node; {left} left." if left else "Removed the only node: the wall is cancelled.")

    def current_hint(self) -> str:
        n = len(self._nodes)
        if n == 0:
            return self.hint
        if n == 1:
            return ("Wall: click where it turns or ends. Backspace or Ctrl+Z removes the node, Esc cancels "
                    "the wall.")
        close = " or click the first node to close it" if n >= 3 else ""
        return (f"Wall of {n} nodes: click to add a node; double-click, Enter or right-click ends it{close}. "
                "Backspace or Ctrl+Z removes the last node, Esc cancels.")

    # -- helpers ---------------------------------------------------------------
    def _pixels(self, n: float) -> float:
        return n * self.editor.scale()

    def _near_first_node(self, pos: QPointF, modifiers) -> bool:
        if not self._nodes:
            return False
        first = self._nodes[0]
        if distance(pos, first) <= self._pixels(CLOSE_PIXELS):
            return True
        # Snapping can land exactly on the first node from a little further away.
        return len(self._nodes) >= 3 and distance(self.editor.snapper.snap(pos, modifiers), first) < 1e-9

    def _is_duplicate(self, snapped: QPointF, raw: QPointF) -> bool:
        last = self._nodes[-1]
        return distance(snapped, last) < 1e-9 or distance(raw, last) <= self._pixels(DUPLICATE_PIXELS)

    def _thickness_step(self) -> float:
        grid = self.editor.snapper.grid()
        return grid / 4 if grid is not None else 2.0

    def _on_document_changed(self, change: Change) -> None:
        if not self.pushing:
            self._undone = []  # the level's history moved: Redo belongs to it now
        if change.kind is ChangeKind.RESET:
            # Another level was opened: nodes placed in the old one mean nothing there.
            self.cancel()
            return
        # A thickness set on a wall in the inspector is the one the next wall gets.
        if change.kind is not ChangeKind.CHANGED or change.moved_by is not None:
            return  # a pure move changes no thickness (and may be of 100,000 objects)
        for old, new in zip(change.old, change.objects):
            if isinstance(old, Wall) and isinstance(new, Wall) and old.thickness != new.thickness:
                self._thickness = new.thickness

    # -- preview --------------------------------------------------------------
    def _items_alive(self) -> bool:
        return bool(self._items) and all(
            shiboken6.isValid(i) and i.scene() is self.editor.scene for i in self._items)

    def _ensure_items(self):
        if not self._items_alive():
            scene = self.editor.scene
            placed = preview_item(PREVIEW_Z)
            rubber = preview_item(PREVIEW_Z + 1)
            centre = preview_item(PREVIEW_Z + 2)
            centre.setPen(outline_pen(width=1.0))
            label = LabelItem()
            for item in (placed, rubber, centre, label):
                scene.addItem(item)
            self._items = [placed, rubber, centre, label]
            self._handles = []
        return self._items

    def _remove_items(self) -> None:
        for item in self._items + self._handles:
            if shiboken6.isValid(item) and item.scene() is not None:
                item.scene().removeItem(item)
        self._items = []
        self._handles = []

    def _update_preview(self) -> None:
        self.update_hint()
        if not self._nodes:
            if self._items:
                for item in self._items + self._handles:
                    if shiboken6.isValid(item):
                        item.setVisible(False)
            return
        placed, rubber, centre, label = self._ensure_items()
        t = self.thickness
        nodes = self._nodes
        mouse = self._mouse if self._mouse is not None else nodes[-1]
        closing = len(nodes) >= 3 and distance(mouse, nodes[0]) < 1e-9

        path = QPainterPath(nodes[0])
        for p in nodes[1:]:
            path.lineTo(p)
        if len(nodes) == 1:
            path.lineTo(nodes[0])  # a round dot the size of the wall
        placed.setPath(path)
        placed.setPen(thick_pen(t, alpha=120))

        r = QPainterPath(nodes[-1])
        r.lineTo(mouse)
        rubber.setPath(r)
        rubber.setPen(thick_pen(t, alpha=60))

        c = QPainterPath(path)
        c.lineTo(mouse)
        centre.setPath(c)

        length = distance(nodes[-1], mouse)
        label.setPos(mouse)
        label.set_text("close the wall" if closing else f"{format_number(length)}  (thickness {format_number(t)})")

        while len(self._handles) < len(nodes):
            h = mark_editor_only(HandleItem(size=7.0))
            self.editor.scene.addItem(h)
            self._handles.append(h)
        for i, h in enumerate(self._handles):
            if i < len(nodes):
                h.setPos(nodes[i])
                h.set_active(i == 0 and closing)
                h.set_size(12.0 if i == 0 and closing else 7.0)
                h.setVisible(True)
            else:
                h.setVisible(False)
        for item in self._items:
            item.setVisible(True)
