"""Edit the nodes of the selected walls (E)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np
import shiboken6
from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer

from level_editor.core.level.document import Change
from level_editor.core.collision.geometry import closest_point_on_segment, point_segment_distance_sq
from level_editor.core.level.model import Wall
from level_editor.core.collision.shapes import Vec2
from level_editor.editor.commands.objects import ChangeObjectsCommand, new_gesture
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.items import node_chain
from level_editor.editor.items.handle_item import HandleItem
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.tools.preview import LabelItem, distance, format_number
from level_editor.editor.tools.tool import Tool

#: How close (screen pixels) a press must be to a node to grab it.
NODE_PICK_PIXELS = 7.0

#: How far (screen pixels) outside a wall's thickness a click still counts as on the wall.
WALL_PICK_PIXELS = 4.0

#: The mouse must travel this far (screen pixels) before a pressed node starts to move.
DRAG_START_PIXELS = 3.0

#: A wall of more nodes than this shows handles only on the nodes in view, and none while more than this many
#: are in view (zoom in to see them): a handle is a Qt item, and 300,000 of them took 70 s to make. Its nodes are
#: found under the mouse from an array of them (editor/items/node_chain.py), not one by one.
MAX_HANDLES = 1000


@dataclass
class _NodeDrag:
    wall_id: str
    index: int
    start: QPointF
    press: QPointF
    gesture: int
    moving: bool = False


class NodeTool(Tool):
    """Shows the nodes of the selected walls as handles.

    Drag a node to move it, double-click a segment to insert a node there,
    click a node to select it and press Delete to remove it. Clicking another
    wall starts editing that one.
    """

    name = "Edit Nodes"
    shortcut = "E"
    icon_name = "tool-nodes"
    hint = "Edit nodes: click a wall to edit its nodes."
    cursor = Qt.ArrowCursor

    def __init__(self, editor: EditorContext, parent: QObject | None = None):
        super().__init__(editor, parent)
        self._active = False
        self._handles: dict[tuple[str, int], HandleItem] = {}
        self._label: Optional[LabelItem] = None
        self._selected: Optional[tuple[str, int]] = None
        self._drag: Optional[_NodeDrag] = None
        # (wall id, nodes in view) of a long wall with too many nodes in view to show their handles
        self._crowded: Optional[tuple[str, int]] = None
        # the view moved or zoomed: the handles of a long wall follow, once the events of that move are done
        self._view_moved = QTimer(self)
        self._view_moved.setSingleShot(True)
        self._view_moved.setInterval(0)
        self._view_moved.timeout.connect(self._sync_handles)
        self._watched_views: list = []
        subscribe_while_alive(editor.document, self, self._on_document_changed)
        editor.selection.changed.connect(self._on_selection_changed)

    # -- state a test or a panel can read ----------------------------------
    @property
    def selected_node(self) -> Optional[tuple[str, int]]:
        """``(wall id, node index)`` of the selected node, or None."""
        return self._selected

    def handle_positions(self) -> dict[tuple[str, int], QPointF]:
        """Where the node handles are shown, by ``(wall id, node index)``."""
        return {k: h.pos() for k, h in self._handles.items() if shiboken6.isValid(h) and h.isVisible()}

    def walls(self) -> list[Wall]:
        """The walls whose nodes are being edited (the selected walls)."""
        return [o for o in self.editor.selection.objects() if isinstance(o, Wall)]

    # -- lifecycle ----------------------------------------------------------
    def activate(self) -> None:
        self._active = True
        self._watch_views(True)
        self._sync_handles()  # and the hint, which says what to do next (click a wall, drag a node...)

    def deactivate(self) -> None:
        self._active = False
        self._watch_views(False)
        self._drag = None
        self._selected = None
        self._sync_handles()
        self.editor.snapper.hide_marker()

    # -- events ---------------------------------------------------------------
    def mouse_pressed(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton:
            return
        if self._grab_node(pos):
            return
        self._set_selected(None)
        if self._segment_at(pos, self.walls()) is not None:
            return
        hit = self._segment_at(pos, [o for o in self.editor.document.objects if isinstance(o, Wall)])
        if hit is not None:
            # Another wall: edit that one, and a press right on one of its nodes already grabs it.
            self.editor.selection.set([hit[0].id])
            self._grab_node(pos)

    def _grab_node(self, pos: QPointF) -> bool:
        node = self._node_at(pos)
        if node is None:
            return False
        self._set_selected(node)
        p = self.editor.document.get(node[0]).points[node[1]]
        self._drag = _NodeDrag(node[0], node[1], QPointF(p.x, p.y), QPointF(pos), new_gesture())
        return True

    def mouse_moved(self, pos: QPointF, buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        drag = self._drag
        if drag is None or not (buttons & Qt.LeftButton):
            return
        if not drag.moving:
            if distance(pos, drag.press) < DRAG_START_PIXELS * self.editor.scale():
                return
            drag.moving = True
            self.update_hint()
        wall = self.editor.document.get(drag.wall_id)
        if wall is None or drag.index >= len(wall.points):
            self._drag = None
            return
        target = QPointF(drag.start.x() + pos.x() - drag.press.x(), drag.start.y() + pos.y() - drag.press.y())
        p = self.editor.snap(target, modifiers, exclude=[wall.id])
        new_point = Vec2(p.x(), p.y())
        points = list(wall.points)
        if points[drag.index] == new_point or self._touches_neighbour(wall, drag.index, new_point):
            return
        points[drag.index] = new_point
        new = replace(wall, points=tuple(points))
        self.push(ChangeObjectsCommand(self.editor.document, [wall], [new], "Move node", drag.gesture))
        self._show_label(p, f"{format_number(p.x())}, {format_number(p.y())}")

    def mouse_released(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button == Qt.LeftButton:
            self._drag = None
            self.editor.snapper.hide_marker()
            self._show_label(None, "")
            self.update_hint()

    def mouse_double_clicked(self, pos: QPointF, button: Qt.MouseButton, modifiers: Qt.KeyboardModifier) -> None:
        if button != Qt.LeftButton or self._node_at(pos) is not None:
            return
        hit = self._segment_at(pos, self.walls())
        if hit is None:
            return
        wall, seg = hit
        a = wall.points[seg]
        b = wall.points[(seg + 1) % len(wall.points)]
        q = closest_point_on_segment(Vec2(pos.x(), pos.y()), a, b)
        if q == a or q == b:
            return
        points = list(wall.points)
        points.insert(seg + 1, Vec2(q.x, q.y))
        new = replace(wall, points=tuple(points))
        self._drag = None
        self.push(ChangeObjectsCommand(self.editor.document, [wall], [new], "Insert node"))
        self._set_selected((wall.id, seg + 1))

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key in (Qt.Key_Delete, Qt.Key_Backspace):
            if self._selected is not None:
                self.delete_selected_node()
                return True
            if self.walls():
                # While editing nodes, Delete is about nodes: it never takes the whole wall away.
                self.editor.message.emit("Click a node to select it, then press Delete to remove it.")
                return True
            return False
        if key == Qt.Key_Escape and self._drag is not None:
            self.cancel_gesture()
            return True
        if key == Qt.Key_Escape and self._selected is not None:
            self._set_selected(None)
            return True
        return False

    # -- Undo while dragging a node, and the hint ----------------------------------
    def in_gesture(self) -> bool:
        return self._drag is not None

    def cancel_gesture(self) -> None:
        """Put the dragged node back where the drag started (the drag's undo step then changes nothing)."""
        drag, self._drag = self._drag, None
        self.editor.snapper.hide_marker()
        self._show_label(None, "")
        self.update_hint()
        if drag is None or not drag.moving:
            return
        wall = self.editor.document.get(drag.wall_id)
        if not isinstance(wall, Wall) or drag.index >= len(wall.points):
            return
        start = Vec2(drag.start.x(), drag.start.y())
        if wall.points[drag.index] != start:
            points = list(wall.points)
            points[drag.index] = start
            self.push(ChangeObjectsCommand(self.editor.document, [wall], [replace(wall, points=tuple(points))],
                                           "Move node", drag.gesture))

    def current_hint(self) -> str:
        drag = self._drag
        if drag is not None and drag.moving:
            return (f"Moving node {drag.index + 1} of {drag.wall_id}: release to drop it (Ctrl: no snapping); "
                    "Esc or Ctrl+Z puts it back.")
        if self._selected is not None:
            wall_id, index = self._selected
            return (f"Node {index + 1} of {wall_id} selected: Delete removes it, drag moves it, "
                    "Esc deselects it.")
        walls = self.walls() if self._active else []
        if self._crowded is not None and any(w.id == self._crowded[0] for w in walls):
            wall_id, count = self._crowded
            return (f"Editing {wall_id}: {count:,} of its nodes are in view; zoom in to see their handles "
                    f"(shown for at most {MAX_HANDLES:,}). A node can still be dragged where its dot is.")
        if walls:
            which = walls[0].id if len(walls) == 1 else f"{len(walls)} walls"
            return (f"Editing {which}: drag a node to move it (Ctrl: no snapping), double-click a segment to "
                    "insert a node, click a node to select it. Click another wall to edit that one.")
        return self.hint

    def delete_selected_node(self) -> bool:
        """Remove the selected node (one undo step); refuses, with a message, to leave a wall too short."""
        if self._selected is None:
            return False
        wall_id, index = self._selected
        wall = self.editor.document.get(wall_id)
        if not isinstance(wall, Wall) or index >= len(wall.points):
            self._set_selected(None)
            return False
        if wall.closed and len(wall.points) <= 3:
            self.editor.message.emit("A closed wall needs at least 3 nodes: this node stays.")
            return False
        if len(wall.points) <= 2:
            self.editor.message.emit("A wall needs at least 2 nodes: this node stays.")
            return False
        points = list(wall.points)
        del points[index]
        n = len(points)
        pairs = [(points[i], points[i + 1]) for i in range(n - 1)]
        if wall.closed:
            pairs.append((points[-1], points[0]))
        if any(p == q for p, q in pairs):
            self.editor.message.emit("Removing this node would join two nodes at the same place: it stays.")
            return False
        new = replace(wall, points=tuple(points))
        self._set_selected(None)
        self.push(ChangeObjectsCommand(self.editor.document, [wall], [new], "Delete node"))
        return True

    # -- hit testing ----------------------------------------------------------
    def _node_at(self, pos: QPointF) -> Optional[tuple[str, int]]:
        reach = NODE_PICK_PIXELS * self.editor.scale()
        best, best_d = None, reach
        for wall in self.walls():
            if len(wall.points) > MAX_HANDLES:
                i, d2 = node_chain.nearest_node(node_chain.array_of(wall.points), pos.x(), pos.y())
                if d2 <= best_d * best_d:
                    best, best_d = (wall.id, i), d2 ** 0.5
                continue
            for i, p in enumerate(wall.points):
                d = distance(pos, QPointF(p.x, p.y))
                if d <= best_d:
                    best, best_d = (wall.id, i), d
        return best

    def _segment_at(self, pos: QPointF, walls) -> Optional[tuple[Wall, int]]:
        """The wall (topmost first) and segment index under ``pos``, within its thickness and a few pixels."""
        q = Vec2(pos.x(), pos.y())
        extra = WALL_PICK_PIXELS * self.editor.scale()
        best, best_d2 = None, None
        for wall in reversed(walls):
            reach = wall.thickness / 2 + extra
            pts = wall.points
            n = len(pts)
            if n > MAX_HANDLES:
                chain = node_chain.array_of(pts)
                if wall.closed and n > 2:
                    chain = np.vstack((chain, chain[:1]))
                i, d2 = node_chain.nearest_segment(chain, pos.x(), pos.y())
                if d2 <= reach * reach:
                    return wall, i
                continue
            count = n if wall.closed and n > 2 else n - 1
            for i in range(count):
                d2 = point_segment_distance_sq(q, pts[i], pts[(i + 1) % n])
                if d2 <= reach * reach and (best_d2 is None or d2 < best_d2):
                    best, best_d2 = (wall, i), d2
            if best is not None:
                return best
        return None

    @staticmethod
    def _touches_neighbour(wall: Wall, index: int, p: Vec2) -> bool:
        pts = wall.points
        n = len(pts)
        neighbours = []
        if index > 0 or (wall.closed and n > 2):
            neighbours.append(pts[index - 1])
        if index < n - 1 or (wall.closed and n > 2):
            neighbours.append(pts[(index + 1) % n])
        return any(q == p for q in neighbours)

    # -- handles --------------------------------------------------------------
    def _set_selected(self, node: Optional[tuple[str, int]]) -> None:
        self._selected = node
        if node is not None and node not in self._handles and self._active:
            self._sync_handles()  # a node of a long wall with no handle in view gets one
        self.update_hint()
        for key, h in self._handles.items():
            if shiboken6.isValid(h):
                h.set_active(key == node)

    def _on_selection_changed(self) -> None:
        if self._selected is not None and self._selected[0] not in self.editor.selection:
            self._selected = None
        self._sync_handles()

    def _on_document_changed(self, change: Change) -> None:
        if not self._active:
            return
        if self._drag is not None and not self.pushing:
            # Undo, redo or a panel changed the level mid-drag: that change wins and the drag ends here
            # (going on would start a new step and throw away the one that was just undone).
            self._drag = None
            self._show_label(None, "")
        if self._selected is not None:
            wall = self.editor.document.get(self._selected[0])
            if not isinstance(wall, Wall) or self._selected[1] >= len(wall.points):
                self._selected = None
        self._sync_handles()

    def _show_label(self, at: Optional[QPointF], text: str) -> None:
        if self._label is None or not shiboken6.isValid(self._label) or self._label.scene() is not self.editor.scene:
            if at is None:
                return
            self._label = LabelItem()
            self.editor.scene.addItem(self._label)
        if at is not None:
            self._label.setPos(at)
        self._label.set_text(text)
        self._label.setVisible(bool(text))

    def _view_rect(self) -> Optional[QRectF]:
        """The part of the level shown in the first view (None without one)."""
        views = self.editor.scene.views()
        if not views:
            return None
        view = views[0]
        return view.mapToScene(view.viewport().rect()).boundingRect()

    def _watch_views(self, on: bool) -> None:
        """Follow the views' scrolling and zoom (the handles of a long wall are those in view)."""
        for signal in self._watched_views:
            try:
                signal.disconnect(self._on_view_moved)
            except (RuntimeError, TypeError):
                pass  # the view is gone, or was never connected
        self._watched_views = []
        if not on:
            self._view_moved.stop()
            return
        for view in self.editor.scene.views():
            signals = [view.horizontalScrollBar().valueChanged, view.verticalScrollBar().valueChanged]
            zoom_changed = getattr(view, "zoom_changed", None)
            if zoom_changed is not None:
                signals.append(zoom_changed)
            for signal in signals:
                signal.connect(self._on_view_moved)
                self._watched_views.append(signal)

    def _on_view_moved(self, *_) -> None:
        if self._active and any(len(w.points) > MAX_HANDLES for w in self.walls()):
            self._view_moved.start()

    def _wanted_handles(self) -> dict[tuple[str, int], QPointF]:
        """Where handles go, by ``(wall id, node index)``: every node of a wall, the nodes in view of a long one."""
        wanted: dict[tuple[str, int], QPointF] = {}
        self._crowded = None
        if not self._active:
            return wanted
        view = None
        for wall in self.walls():
            if len(wall.points) <= MAX_HANDLES:
                for i, p in enumerate(wall.points):
                    wanted[(wall.id, i)] = QPointF(p.x, p.y)
                continue
            if view is None:
                view = self._view_rect() or QRectF()
            nodes = node_chain.array_of(wall.points)
            shown = node_chain.nodes_inside(nodes, view).tolist()
            if len(shown) > MAX_HANDLES:
                self._crowded = (wall.id, len(shown))
                shown = []
            if self._selected is not None and self._selected[0] == wall.id:
                shown.append(self._selected[1])
            for i in shown:
                if i < len(nodes):
                    wanted[(wall.id, i)] = QPointF(float(nodes[i, 0]), float(nodes[i, 1]))
        return wanted

    def _sync_handles(self) -> None:
        wanted = self._wanted_handles()
        scene = self.editor.scene
        for key in list(self._handles):
            h = self._handles[key]
            if key not in wanted or not shiboken6.isValid(h) or h.scene() is not scene:
                if shiboken6.isValid(h) and h.scene() is not None:
                    h.scene().removeItem(h)
                del self._handles[key]
        for key, p in wanted.items():
            h = self._handles.get(key)
            if h is None:
                h = mark_editor_only(HandleItem(size=10.0))
                h.setCursor(Qt.SizeAllCursor)
                scene.addItem(h)
                self._handles[key] = h
            h.setPos(p)
            h.set_active(key == self._selected)
        if not self._active:
            self._show_label(None, "")
        self.update_hint()
