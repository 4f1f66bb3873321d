"""SelectTool (S): pick, rubber-band, move, resize and rotate objects."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Optional

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import QGraphicsRectItem

from level_editor.core.collision.geometry import rotation_cos_sin
from level_editor.core.level.model import Box, Image, OrientedBox, Pillar, Player, Point, Sprite, Tiles, moving_path
from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.document import ChangeKind
from level_editor.core.level.kinds import objects_label
from level_editor.editor.commands.objects import ChangeObjectsCommand, ChangePlayerCommand, new_gesture
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.editor_only import mark_editor_only
from level_editor.editor.items.handle_item import HANDLE_RADIUS, HandleItem
from level_editor.editor.commands.move import MoveObjectsCommand
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.tools import path_points
from level_editor.editor.tools.rotation import handle_rotation
from level_editor.editor.tools.tool import Tool

#: How close (screen pixels) a click must be to an object to pick it.
PICK_PIXELS = 4.0
#: How far (screen pixels) the mouse must travel before a press becomes a drag.
DRAG_PIXELS = 3.0
#: How close (screen pixels) a double click must be to a path to add a point there.
PATH_PICK_PIXELS = 6.0

#: How far (screen pixels) the rotation handle stands off the box's top edge.
ROTATE_HANDLE_PIXELS = 28.0
#: The smallest size a resize leaves (level units).
MIN_SIZE = 1.0
#: A drag of more objects than this is shown on the canvas as it goes and changes the level once, on release
#: (moving 100,000 objects in the level on every mouse move took seconds a step); fewer change it as they go.
LIVE_MOVE_LIMIT = 200
#: ... and so is a drag of a wall of more nodes than this (a move of a 300,000-node wall made 300,000 new nodes,
#: 0.5 to 4 s a step).
LIVE_MOVE_NODES = 5000

_BOX_ROLES = {
    "nw": (-1, -1), "n": (0, -1), "ne": (1, -1), "e": (1, 0),
    "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "w": (-1, 0),
}
_RESIZE_CURSORS = {
    "nw": Qt.SizeFDiagCursor, "se": Qt.SizeFDiagCursor, "ne": Qt.SizeBDiagCursor, "sw": Qt.SizeBDiagCursor,
    "n": Qt.SizeVerCursor, "s": Qt.SizeVerCursor, "e": Qt.SizeHorCursor, "w": Qt.SizeHorCursor,
    "radius": Qt.SizeHorCursor, "rotate": Qt.CrossCursor,
}

_IDLE, _PRESSED, _MOVING, _BAND, _HANDLE = range(5)


def _reference_point(obj) -> Vec2:
    """The point of an object that snaps to the grid when it is dragged."""
    if isinstance(obj, Player):
        return obj.spawn
    if isinstance(obj, (Box, Tiles, Image)):
        return obj.origin
    if isinstance(obj, (OrientedBox, Pillar, Sprite)):
        return obj.center
    if isinstance(obj, Point):
        return obj.position
    return obj.points[0]


class SelectTool(Tool):
    """Select and move objects, and resize or rotate the one selected object by its handles."""

    name = "Select"
    shortcut = "S"
    icon_name = "select"
    hint = ("Click to select, Shift-click to add or remove, drag across empty space to select an area; "
            "drag to move (Ctrl: no snapping); handles resize and turn (Shift: 15°)")

    def __init__(self, editor: EditorContext, parent=None):
        super().__init__(editor, parent)
        self._state = _IDLE
        self._press_scene = QPointF()
        self._press_modifiers = Qt.NoModifier
        self._pressed_id: Optional[str] = None
        self._click_selects_only: Optional[str] = None
        self._gesture = 0
        self._originals: list = []
        self._original_player: Optional[Player] = None
        # a drag of many objects: shown by the scene as it goes, the offset so far, the ids snapping ignores
        self._previewing = False
        self._offset = (0.0, 0.0)
        self._dragged_ids: tuple = ()
        self._anchor = Vec2(0, 0)
        self._band: Optional[QGraphicsRectItem] = None
        self._handles: list[HandleItem] = []
        #: ``(object id, index)`` of the path point whose handle was pressed last (Delete removes it), or None.
        self._path_point: Optional[tuple[str, int]] = None
        self._handle: Optional[HandleItem] = None
        self._handle_original = None
        self._active = False
        subscribe_while_alive(editor.document, self, self._on_document_changed)

    # -- lifecycle ---------------------------------------------------------------
    def activate(self) -> None:
        self._active = True
        self.editor.selection.changed.connect(self._update_handles)
        self._update_handles()

    def deactivate(self) -> None:
        self._cancel_gesture()
        self._active = False
        self.editor.selection.changed.disconnect(self._update_handles)
        self._clear_handles()
        self._set_hover(None)

    # -- helpers -----------------------------------------------------------------
    @property
    def _scene(self):
        return self.editor.scene

    @property
    def _selection(self) -> Selection:
        return self.editor.selection

    def _value(self, object_id: str):
        if object_id == Selection.PLAYER:
            return self.editor.document.player
        return self.editor.document.get(object_id)

    def _set_hover(self, object_id: Optional[str]) -> None:
        if hasattr(self._scene, "set_hovered"):
            self._scene.set_hovered(object_id)

    def _set_cursor(self, cursor) -> None:
        for view in self._scene.views():
            view.viewport().setCursor(cursor)

    def _pick(self, pos: QPointF) -> Optional[str]:
        return self._scene.object_at(pos, PICK_PIXELS * self.editor.scale())

    # -- handles -----------------------------------------------------------------
    def _on_document_changed(self, change) -> None:
        if self._state in (_PRESSED, _MOVING, _HANDLE) and not self.pushing:
            # Undo, redo or a panel changed the level mid-drag: that change wins and the drag ends here,
            # instead of pushing moves of objects that may be gone or elsewhere now.
            self._state = _IDLE
            self._end_preview()
            self._originals = []
            self._original_player = None
            self._handle = None
            self._set_cursor(Qt.ArrowCursor)
        if change.kind in (ChangeKind.CHANGED, ChangeKind.RESET, ChangeKind.REMOVED, ChangeKind.PLAYER):
            self._update_handles()

    def _handle_target(self):
        if len(self._selection) != 1:  # not a list of every id when everything is selected
            return None
        obj = self._value(self._selection.ids()[0])
        return obj if isinstance(obj, (Box, OrientedBox, Pillar, Sprite)) or moving_path(obj) is not None else None

    def _clear_handles(self) -> None:
        for h in self._handles:
            if h.scene() is not None:
                h.scene().removeItem(h)
        self._handles = []

    def _handle_points(self, obj) -> list[tuple[str, str, Vec2, QPointF]]:
        """(role, style, point on the object, knob offset in pixels) of each handle of ``obj``."""
        out = []
        if isinstance(obj, Box):
            o, s = obj.origin, obj.size
            cx, cy = o.x + s.x / 2, o.y + s.y / 2
            for role, (sx, sy) in _BOX_ROLES.items():
                out.append((role, HandleItem.SQUARE, Vec2(cx + sx * s.x / 2, cy + sy * s.y / 2), QPointF()))
        elif isinstance(obj, (OrientedBox, Sprite)):
            cos, sin = rotation_cos_sin(obj.rotation)
            hx, hy = obj.half_extents if isinstance(obj, OrientedBox) else (obj.size.x / 2, obj.size.y / 2)
            c = obj.center
            for role, (sx, sy) in _BOX_ROLES.items():
                lx, ly = sx * hx, sy * hy
                out.append((role, HandleItem.SQUARE, Vec2(c.x + lx * cos - ly * sin, c.y + lx * sin + ly * cos),
                            QPointF()))
            top = Vec2(c.x + hy * sin, c.y - hy * cos)
            out.append(("rotate", HandleItem.ROUND, top,
                        QPointF(sin * ROTATE_HANDLE_PIXELS, -cos * ROTATE_HANDLE_PIXELS)))
        elif isinstance(obj, Pillar):
            out.append(("radius", HandleItem.ROUND, Vec2(obj.center.x + obj.radius, obj.center.y), QPointF()))
        return out + path_points.handle_points(obj)

    def _update_handles(self) -> None:
        if not self._active:
            return
        obj = self._handle_target()
        if obj is None:
            self._clear_handles()
            return
        points = self._handle_points(obj)
        if [h.role for h in self._handles] != [p[0] for p in points]:
            self._clear_handles()
            for role, style, _, offset in points:
                h = HandleItem(role, style, offset)
                self._scene.addItem(h)
                self._handles.append(h)
        for h, (_, _, p, offset) in zip(self._handles, points):
            h.setPos(p.x, p.y)
            h.set_offset(offset)

    def handle_at(self, pos: QPointF) -> Optional[HandleItem]:
        """The handle whose knob is under ``pos`` (scene units)."""
        scale = self.editor.scale()
        reach = (HANDLE_RADIUS + 2) * scale
        for h in reversed(self._handles):
            k = h.knob_pos(scale)
            if abs(k.x() - pos.x()) <= reach and abs(k.y() - pos.y()) <= reach:
                return h
        return None

    @property
    def handles(self) -> list[HandleItem]:
        return list(self._handles)

    # -- mouse -------------------------------------------------------------------
    def mouse_pressed(self, pos: QPointF, button, modifiers) -> None:
        if button != Qt.LeftButton or self._state != _IDLE:
            return
        self._press_scene = QPointF(pos)
        self._press_modifiers = modifiers
        self._gesture = new_gesture()
        handle = self.handle_at(pos)
        if handle is not None:
            self._state = _HANDLE
            self._handle = handle
            self._handle_original = self._handle_target()
            self._path_point = (self._handle_original.id, path_points.point_index(handle.role)) \
                if path_points.is_path_role(handle.role) else None
            return
        self._path_point = None
        picked = self._pick(pos)
        self._pressed_id = picked
        self._click_selects_only = None
        if picked is None:
            self._state = _BAND
            return
        if modifiers & Qt.ShiftModifier:
            self._selection.toggle([picked])
        elif picked not in self._selection:
            self._selection.set([picked])
        else:
            # pressing an already selected object keeps the selection for a drag; a plain click selects it alone
            self._click_selects_only = picked
        self._state = _PRESSED

    def mouse_moved(self, pos: QPointF, buttons, modifiers) -> None:
        if self._state == _IDLE:
            self._hover(pos)
            return
        if not (buttons & Qt.LeftButton):
            return
        far = (pos - self._press_scene).manhattanLength() >= DRAG_PIXELS * self.editor.scale()
        if self._state == _PRESSED and far and self._selection:
            self._start_move()
        if self._state == _MOVING:
            self._move_to(pos, modifiers)
        elif self._state == _BAND and (far or self._band is not None):
            self._show_band(pos)
        elif self._state == _HANDLE:
            self._drag_handle(pos, modifiers)

    def mouse_released(self, pos: QPointF, button, modifiers) -> None:
        if button != Qt.LeftButton:
            return
        state, self._state = self._state, _IDLE
        if state == _PRESSED and self._click_selects_only is not None:
            self._selection.set([self._click_selects_only])
        elif state == _BAND:
            if self._band is not None:
                ids = self._scene.objects_in(self._band.rect())
                self._scene.removeItem(self._band)
                self._band = None
                if self._press_modifiers & Qt.ShiftModifier:
                    self._selection.add(ids)
                else:
                    self._selection.set(ids)
            elif not (self._press_modifiers & Qt.ShiftModifier):
                self._selection.clear()
        elif state in (_MOVING, _HANDLE):
            if state == _MOVING and self._previewing:
                self._finish_preview()
            self._set_cursor(Qt.ArrowCursor)
        self._originals = []
        self._original_player = None
        self._handle = None
        self._hover(pos)

    def _hover(self, pos: QPointF) -> None:
        handle = self.handle_at(pos)
        for h in self._handles:
            h.set_active(h is handle)
        if handle is not None:
            self._set_hover(None)
            self._set_cursor(_RESIZE_CURSORS.get(handle.role, Qt.ArrowCursor))
            return
        self._set_cursor(Qt.ArrowCursor)
        self._set_hover(self._pick(pos))

    # -- rubber band -------------------------------------------------------------
    def _show_band(self, pos: QPointF) -> None:
        if self._band is None:
            self._set_hover(None)
            self._band = QGraphicsRectItem()
            pen = QPen(QColor(140, 220, 255), 1, Qt.DashLine)
            pen.setCosmetic(True)
            self._band.setPen(pen)
            self._band.setBrush(QBrush(QColor(140, 220, 255, 40)))
            self._band.setZValue(3e9)
            mark_editor_only(self._band)  # a play-test hides it (editor/support/editor_only.py)
            self._scene.addItem(self._band)
        self._band.setRect(QRectF(self._press_scene, pos).normalized())

    # -- moving ------------------------------------------------------------------
    def _start_move(self) -> None:
        self._state = _MOVING
        self._click_selects_only = None
        self._set_hover(None)
        ids = self._selection.movable_ids()
        self._originals = [o for o in (self.editor.document.get(i) for i in ids) if o is not None]
        self._original_player = self.editor.document.player if Selection.PLAYER in self._selection else None
        anchor_id = self._pressed_id if self._pressed_id in self._selection else ids[0]
        self._anchor = _reference_point(self._value(anchor_id))
        self._dragged_ids = tuple(ids)
        dragged = len(self._originals) + (self._original_player is not None)
        long_walls = any(len(getattr(o, "points", ())) > LIVE_MOVE_NODES for o in self._originals)
        self._previewing = (dragged > LIVE_MOVE_LIMIT or long_walls) and hasattr(self._scene, "show_moving")
        self._offset = (0.0, 0.0)
        self._set_cursor(Qt.SizeAllCursor)

    def _move_label(self) -> str:
        if self._originals and self._original_player is not None:
            n = len(self._originals) + 1
            return f"Move {n} objects"
        if self._original_player is not None:
            return "Move spawn"
        return objects_label("Move", self._originals)

    def _move_to(self, pos: QPointF, modifiers) -> None:
        wanted = QPointF(self._anchor.x + pos.x() - self._press_scene.x(),
                         self._anchor.y + pos.y() - self._press_scene.y())
        if self._previewing and len(self._originals) == len(self.editor.document):
            # every object is dragged: there is no object left to snap to, only the grid
            snapped = self.editor.snapper.snap_detail(wanted, modifiers, objects=False).point
        else:
            snapped = self.editor.snap(wanted, modifiers, exclude=self._dragged_ids)
        dx, dy = snapped.x() - self._anchor.x, snapped.y() - self._anchor.y
        if self._previewing:
            self._offset = (dx, dy)
            self._scene.show_moving(self._dragged_ids, dx, dy)
        else:
            self.move_selection_by(dx, dy)

    def _finish_preview(self) -> None:
        """The release of a drag of many objects: the level changes once, by the offset the drag reached."""
        moved = False
        try:
            if self._offset != (0.0, 0.0):
                self.push(MoveObjectsCommand(self.editor.document, self._originals, *self._offset, self._move_label(),
                                             player=self._original_player))
                first = self._originals[0] if self._originals else None
                moved = first is not None and self.editor.document.get(first.id) is not first
        finally:
            # when the level did not change (a drag back to its start, a play-test running), the items go back
            self._end_preview(restore=not moved)

    def _end_preview(self, restore: bool = True) -> None:
        if self._previewing:
            self._previewing = False
            self._offset = (0.0, 0.0)
            self._scene.end_moving(restore)

    def move_selection_by(self, dx: float, dy: float) -> None:
        """Put the dragged objects at their start position plus ``(dx, dy)`` (one step per gesture)."""
        doc = self.editor.document
        label = self._move_label()
        player = None
        if self._original_player is not None:
            player = (doc.player, self._original_player.moved(dx, dy))
        if self._originals:
            current = [doc.get(o.id) for o in self._originals]
            moved = [o.moved(dx, dy) for o in self._originals]
            self.push(ChangeObjectsCommand(doc, current, moved, label, self._gesture, player=player))
        elif player is not None:
            self.push(ChangePlayerCommand(doc, player[0], player[1], label, self._gesture))

    def in_gesture(self) -> bool:
        return self._state != _IDLE

    def cancel_gesture(self) -> None:
        self._cancel_gesture()

    def _cancel_gesture(self) -> None:
        """Put everything back where the current drag started (Esc, or another tool taking over)."""
        if self._state == _MOVING and self._previewing:
            self._end_preview()
        elif self._state == _MOVING:
            self.move_selection_by(0.0, 0.0)
        elif self._state == _HANDLE and self._handle_original is not None:
            orig = self._handle_original
            self.push(ChangeObjectsCommand(self.editor.document, [self.editor.document.get(orig.id)],
                                           [orig], self._handle_label(), self._gesture))
        if self._band is not None:
            self._scene.removeItem(self._band)
            self._band = None
        self._state = _IDLE
        self._originals = []
        self._original_player = None
        self._handle = None

    # -- handles: resize and rotate ----------------------------------------------
    def _handle_label(self) -> str:
        obj = self._handle_original
        if self._handle is not None and self._handle.role == "rotate":
            return f"Rotate {obj.id}"
        if self._handle is not None and path_points.is_path_role(self._handle.role):
            return f"Move path point of {obj.id}"
        return f"Resize {obj.id}"

    def _drag_handle(self, pos: QPointF, modifiers) -> None:
        orig = self._handle_original
        if orig is None or self._handle is None:
            return
        role = self._handle.role
        if role == "rotate":
            new = self._rotated(orig, pos, modifiers)
        elif path_points.is_path_role(role):
            new = path_points.with_point_moved(orig, path_points.point_index(role),
                                               self.editor.snap(pos, modifiers, exclude=(orig.id,)))
        else:
            p = self.editor.snap(pos, modifiers, exclude=(orig.id,))
            if isinstance(orig, Box):
                new = self._resized_box(orig, role, p)
            elif isinstance(orig, OrientedBox):
                new = self._resized_oriented_box(orig, role, p)
            elif isinstance(orig, Sprite):
                new = resized_sprite(orig, role, p, keep_aspect=bool(modifiers & Qt.ShiftModifier))
            else:
                r = max(MIN_SIZE, math.hypot(p.x() - orig.center.x, p.y() - orig.center.y))
                new = replace(orig, radius=r)
        current = self.editor.document.get(orig.id)
        self.push(ChangeObjectsCommand(self.editor.document, [current], [new], self._handle_label(),
                                       self._gesture))

    @staticmethod
    def _resized_box(box: Box, role: str, p: QPointF) -> Box:
        sx, sy = _BOX_ROLES[role]
        x0, y0 = box.origin
        x1, y1 = x0 + box.size.x, y0 + box.size.y
        if sx < 0:
            x0 = p.x()
        elif sx > 0:
            x1 = p.x()
        if sy < 0:
            y0 = p.y()
        elif sy > 0:
            y1 = p.y()
        left, right = min(x0, x1), max(x0, x1)
        top, bottom = min(y0, y1), max(y0, y1)
        return replace(box, origin=Vec2(left, top),
                       size=Vec2(max(MIN_SIZE, right - left), max(MIN_SIZE, bottom - top)))

    @staticmethod
    def _resized_oriented_box(box: OrientedBox, role: str, p: QPointF) -> OrientedBox:
        sx, sy = _BOX_ROLES[role]
        cos, sin = rotation_cos_sin(box.rotation)
        dx, dy = p.x() - box.center.x, p.y() - box.center.y
        lx, ly = dx * cos + dy * sin, -dx * sin + dy * cos
        hx, hy = box.half_extents
        if sx:
            hx = max(MIN_SIZE / 2, abs(lx))
        if sy:
            hy = max(MIN_SIZE / 2, abs(ly))
        return replace(box, half_extents=Vec2(hx, hy))

    @staticmethod
    def _rotated(box, pos: QPointF, modifiers):
        rotation = handle_rotation((box.center.x, box.center.y), (pos.x(), pos.y()),
                                   snap=bool(modifiers & Qt.ShiftModifier))
        return box if rotation is None else replace(box, rotation=rotation)

    # -- a moving object's path: a double click adds a point, Delete removes the one last clicked ----------
    def mouse_double_clicked(self, pos: QPointF, button, modifiers) -> None:
        obj = self._handle_target()
        if button != Qt.LeftButton or obj is None or self.handle_at(pos) is not None:
            return
        new = path_points.with_point_added(obj, pos, PATH_PICK_PIXELS * self.editor.scale())
        if new is not None:
            self.push(ChangeObjectsCommand(self.editor.document, [obj], [new], f"Add path point to {obj.id}"))

    def _remove_path_point(self) -> bool:
        """Delete with a path point clicked last: that point goes (True: the key was for the path)."""
        obj = self._handle_target()
        if obj is None or self._path_point is None or self._path_point[0] != obj.id:
            return False
        k = self._path_point[1]
        if moving_path(obj) is None or k >= len(moving_path(obj).points):
            return False
        new = path_points.with_point_removed(obj, k)
        if new is None:
            self.editor.message.emit("A path needs at least 2 points: untick Moves in Properties to stop it moving.")
            return True
        self._path_point = None
        self.push(ChangeObjectsCommand(self.editor.document, [obj], [new], f"Remove path point of {obj.id}"))
        return True

    # -- keys --------------------------------------------------------------------
    def key_pressed(self, key: int, modifiers) -> bool:
        if key in (Qt.Key_Delete, Qt.Key_Backspace) and self._state == _IDLE and self._remove_path_point():
            return True
        if key == Qt.Key_Escape and not self.in_gesture():
            self._selection.clear()  # Esc at rest: nothing selected (in a gesture, the base cancels it)
            return True
        arrows = {Qt.Key_Left: (-1, 0), Qt.Key_Right: (1, 0), Qt.Key_Up: (0, -1), Qt.Key_Down: (0, 1)}
        if key in arrows and self._state == _IDLE and self._selection:
            g = self.editor.snapper.grid() or 1.0  # a broken grid (NaN, 1e-320) nudges by its usable value
            step = 1.0 if modifiers & Qt.ControlModifier else g
            sx, sy = arrows[key]
            self.nudge(sx * step, sy * step)
            return True
        return super().key_pressed(key, modifiers)

    def nudge(self, dx: float, dy: float) -> None:
        """Move the selection by ``(dx, dy)`` as one undo step (the arrow keys); a locked layer's objects stay."""
        ids = self._selection.movable_ids()
        self._originals = [o for o in (self.editor.document.get(i) for i in ids) if o is not None]
        self._original_player = self.editor.document.player if Selection.PLAYER in self._selection else None
        self._gesture = new_gesture()
        if self._originals:
            self.push(MoveObjectsCommand(self.editor.document, self._originals, dx, dy, self._move_label(),
                                         player=self._original_player))
        else:
            self.move_selection_by(dx, dy)
        self._originals = []
        self._original_player = None


def resized_sprite(sprite: Sprite, role: str, p: QPointF, keep_aspect: bool = False) -> Sprite:
    """``sprite`` with the handle ``role`` dragged to ``p``, in its own turned frame: the opposite side stays put.

    Dragging past the opposite side stops at :data:`MIN_SIZE` (a sprite is mirrored with its flips, never by a
    negative size). ``keep_aspect`` (Shift) keeps its width to height ratio, the larger change leading.

    >>> s = Sprite("s", (50, 50), (20, 10), picture="a.png")
    >>> r = resized_sprite(s, "se", QPointF(80, 70)); (r.center, r.size)
    (Vec2(x=60.0, y=57.5), Vec2(x=40.0, y=25.0))
    >>> resized_sprite(s, "e", QPointF(0, 50)).size
    Vec2(x=1.0, y=10.0)
    >>> resized_sprite(s, "se", QPointF(100, 65), keep_aspect=True).size
    Vec2(x=60.0, y=30.0)
    """
    sx, sy = _BOX_ROLES[role]
    cos, sin = rotation_cos_sin(sprite.rotation)
    c, w, h = sprite.center, sprite.size.x, sprite.size.y
    dx, dy = p.x() - c.x, p.y() - c.y
    lx, ly = dx * cos + dy * sin, -dx * sin + dy * cos  # the pointer in the sprite's own frame
    # the side (or corner) opposite the handle stays where it is, in the sprite's frame
    ax, ay = -sx * w / 2, -sy * h / 2
    new_w = max(MIN_SIZE, sx * (lx - ax)) if sx else w
    new_h = max(MIN_SIZE, sy * (ly - ay)) if sy else h
    if keep_aspect and w > 0 and h > 0:
        if sx and sy:
            k = max(new_w / w, new_h / h)
        else:
            k = new_w / w if sx else new_h / h
        new_w, new_h = max(MIN_SIZE, w * k), max(MIN_SIZE, h * k)
    # the new centre in the sprite's frame: the fixed side plus half the new size towards the handle
    cx = ax + sx * new_w / 2 if sx else 0.0
    cy = ay + sy * new_h / 2 if sy else 0.0
    center = Vec2(c.x + cx * cos - cy * sin, c.y + cx * sin + cy * cos)
    return replace(sprite, center=center, size=Vec2(new_w, new_h))
