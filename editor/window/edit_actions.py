"""Edit actions on the selection: cut, copy, paste (also at the cursor), duplicate, delete, select all;
flip and rotate by quarter turns, raise and lower in the drawing order, and framing the selection.

:class:`EditActions` is one part of :class:`~level_editor.editor.window.main_window.MainWindow`. The
clipboard carries level JSON (see :mod:`level_editor.editor.documents.clipboard`), so objects can be
pasted into another window or another level; every change goes through an undo
command.

The keys (Tiled's where Tiled has one, none of them a key of the contract's
section 5): Ctrl+X cut, X and Y flip horizontally and vertically, Z and Shift+Z
rotate clockwise and counterclockwise, Page Up and Page Down raise and lower,
Home and End raise to the top and lower to the bottom of the layer (these four
on the canvas only, so lists keep their own), F frames the selection (the
whole level when nothing is selected).
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMessageBox

from level_editor.core.level.kinds import id_prefix, objects_label, plural
from level_editor.core.level.order import lowered, raised
from level_editor.core.level.transform import FLIP_HORIZONTAL, FLIP_VERTICAL, ROTATE_CLOCKWISE, ROTATE_COUNTERCLOCKWISE, Symmetry
from level_editor.editor.documents.clipboard import objects_from_text, objects_to_text
from level_editor.editor.commands.objects import AddObjectsCommand, RemoveObjectsCommand
from level_editor.editor.commands.order import ReorderObjectsCommand
from level_editor.editor.commands.properties import StepsCommand, find_references, retarget_steps
from level_editor.editor.canvas.selection import Selection
from level_editor.editor.commands.transform import TransformCommand

#: Frame Selection zooms in no further than this (a lone marker is not blown up to fill the screen).
FRAME_MAX_ZOOM = 4.0

#: The answers to "others refer to what you delete": clear those references, keep them dangling, delete nothing.
CLEAR, KEEP, CANCEL = "clear", "keep", "cancel"


def _action(window, text: str, slot, shortcuts, icon: str, tip: str) -> QAction:
    """An action of ``window`` made by its own ``_action`` (same look, tooltip and error guard as the others)."""
    return window._action(text, slot, shortcuts, icon, tip)


class EditActions:
    """Cut, copy, paste, duplicate, delete, select all, flip, rotate, raise, lower and frame (a part of the window)."""

    def _build_arrange_actions(self) -> None:
        """Cut, flip, rotate, raise, lower, frame and properties: made with the window's other actions."""
        w = self
        self.cut_action = _action(w, "Cu&t", self.cut, ["Ctrl+X"], "cut", "Cut the selected objects")
        self.flip_horizontal_action = _action(
            w, "Flip &Horizontally", lambda: self.transform_selection(FLIP_HORIZONTAL), ["X"], "flip-horizontal",
            "Mirror the selection left to right about its centre")
        self.flip_vertical_action = _action(
            w, "Flip &Vertically", lambda: self.transform_selection(FLIP_VERTICAL), ["Y"], "flip-vertical",
            "Mirror the selection top to bottom about its centre")
        self.rotate_clockwise_action = _action(
            w, "Rotate &Clockwise", lambda: self.transform_selection(ROTATE_CLOCKWISE), ["Z"], "rotate-clockwise",
            "Turn the selection a quarter turn clockwise about its centre")
        self.rotate_counterclockwise_action = _action(
            w, "Rotate C&ounterclockwise", lambda: self.transform_selection(ROTATE_COUNTERCLOCKWISE), ["Shift+Z"],
            "rotate-counterclockwise", "Turn the selection a quarter turn counterclockwise about its centre")
        self.raise_action = _action(w, "&Raise", lambda: self.reorder_selection(up=True), ["PgUp"], "raise",
                                    "Draw the selection one place higher in its layer")
        self.lower_action = _action(w, "&Lower", lambda: self.reorder_selection(up=False), ["PgDown"], "lower",
                                    "Draw the selection one place lower in its layer")
        self.raise_to_top_action = _action(w, "Raise to &Top", lambda: self.reorder_selection(True, True),
                                           ["Home"], "", "Draw the selection above everything in its layer")
        self.lower_to_bottom_action = _action(w, "Lower to &Bottom", lambda: self.reorder_selection(False, True),
                                              ["End"], "", "Draw the selection under everything in its layer")
        for a in self.order_actions():
            # their keys act on the canvas only: in the object list and the inspector they keep scrolling and
            # moving (the actions stay the window's too, for its menus and the play-test's lock)
            a.setShortcutContext(Qt.WidgetShortcut)
            self.canvas.addAction(a)
        self.frame_action = _action(w, "&Frame Selection", self.frame_selection, ["F"], "frame",
                                    "Centre the view on the selection and zoom to it (the whole level when "
                                    "nothing is selected)")
        self.properties_action = _action(w, "P&roperties", self.show_properties, [], "",
                                         "Show the selection's properties")
        self._undo_index = self.undo_stack.index()
        self.undo_stack.indexChanged.connect(self._reselect_reordered)

    def arrange_actions(self) -> list[QAction]:
        """The flips and turns."""
        return [self.flip_horizontal_action, self.flip_vertical_action,
                self.rotate_clockwise_action, self.rotate_counterclockwise_action]

    def order_actions(self) -> list[QAction]:
        """Raise, lower, to the top, to the bottom."""
        return [self.raise_action, self.lower_action, self.raise_to_top_action, self.lower_to_bottom_action]

    def _update_edit_actions(self) -> None:
        has_objects = any(i != Selection.PLAYER for i in self.selection.ids())
        for a in (self.copy_action, self.duplicate_action, self.delete_action):
            a.setEnabled(has_objects or a is self.delete_action)
        if getattr(self, "cut_action", None) is not None:
            self.cut_action.setEnabled(has_objects)
            for a in self.arrange_actions():
                a.setEnabled(bool(self.selection))
            for a in self.order_actions():
                a.setEnabled(has_objects)

    def select_all(self) -> None:
        self.selection.set(o.id for o in self.document.objects)

    def delete_key(self) -> None:
        """Delete: the active tool may use it first (the node tool deletes a node), else the selection goes."""
        if self.canvas.hasFocus() and self.tool is not None and self.tool.key_pressed(Qt.Key_Delete, Qt.NoModifier):
            return
        self.delete_selection()

    def delete_selection(self, verb: str = "Delete", before=None) -> bool:
        """Delete the selected objects; when other properties refer to them, ask whether to clear those first.

        "clear" deletes and sets every such reference to none in the same undo
        step; "keep" deletes and leaves them (Check then reports each one);
        "cancel" deletes nothing. ``verb`` starts the undo label ("Cut 2 boxes");
        ``before`` is called just before the objects go, and only if they do
        (Cut copies them then). Returns whether they went.
        """
        ids = [i for i in self.selection.ids() if i != Selection.PLAYER and i in self.document]
        if not ids:
            return False
        delete = RemoveObjectsCommand(self.document, ids, objects_label(verb, [self.document.get(i) for i in ids]))
        references = find_references(self.document.level, ids, skip_objects=ids)
        answer = self.ask_clear_references([r.describe() for r in references]) if references else KEEP
        if answer == CANCEL:
            return False
        if before is not None:
            before()
        if answer == CLEAR:
            n = len(references)
            label = f"{delete.text()} and clear {plural(n, 'reference')} to {'it' if len(ids) == 1 else 'them'}"
            cleared = retarget_steps(self.document, dict.fromkeys(ids, ""), skip_objects=ids)
            self.context.push(StepsCommand(label, [*cleared, delete]))
        else:
            self.context.push(delete)
        return True

    def cut(self) -> None:
        """Copy the selected objects to the clipboard and delete them: one undo step, "Cut ..."."""
        objects = self.selection.objects()
        if not objects:
            return
        text = objects_to_text(objects, self.document.folder)
        if self.delete_selection("Cut", before=lambda: QApplication.clipboard().setText(text)):
            self.statusBar().showMessage(f"Cut {plural(len(objects), 'object')}", 3000)

    def ask_clear_references(self, names: list[str]) -> str:
        """Other properties refer to the objects being deleted (``names`` says which): "clear", "keep" or "cancel"."""
        listed = "\n".join(f"• {n}" for n in names[:12]) + ("\n…" if len(names) > 12 else "")
        n = len(names)
        box = QMessageBox(QMessageBox.Warning, "Delete",
                          f"{n} propert{'y refers' if n == 1 else 'ies refer'} to what you are deleting:\n\n{listed}",
                          QMessageBox.NoButton, self)
        box.setInformativeText("Clear them (set to none), or keep them? Check reports references that are kept.")
        clear = box.addButton("Delete and Clear", QMessageBox.AcceptRole)
        keep = box.addButton("Delete and Keep", QMessageBox.DestructiveRole)
        box.addButton(QMessageBox.Cancel)
        box.setDefaultButton(clear)
        box.exec()
        return {clear: CLEAR, keep: KEEP}.get(box.clickedButton(), CANCEL)

    def copy(self) -> None:
        objects = self.selection.objects()
        if not objects:
            return
        QApplication.clipboard().setText(objects_to_text(objects, self.document.folder))
        self.statusBar().showMessage(f"Copied {plural(len(objects), 'object')}", 3000)

    def paste(self) -> None:
        objects = self._clipboard_objects()
        if not objects:
            return
        dx, dy = self._paste_offset(objects)
        self._add_copies(objects, dx, dy, "Paste")

    def paste_here(self, at: QPointF) -> None:
        """Paste with the objects' centre at ``at`` (level units): the canvas menu's Paste Here.

        With grid snapping on, the objects move by whole grid steps, so objects
        that were on the grid stay on it.
        """
        objects = self._clipboard_objects()
        if not objects:
            return
        boxes = [o.bounds() for o in objects]
        cx = (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2
        cy = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2
        dx, dy = at.x() - cx, at.y() - cy
        g = self.document.level.grid
        if self.context.snapper.enabled and g > 0:
            dx, dy = round(dx / g) * g, round(dy / g) * g
        self._add_copies(objects, dx, dy, "Paste")

    def _clipboard_objects(self) -> list:
        try:
            return list(objects_from_text(QApplication.clipboard().text()))
        except ValueError as e:
            self.statusBar().showMessage(f"Nothing pasted: {e}", 4000)
            return []

    def duplicate(self) -> None:
        objects = self.selection.objects()
        if not objects:
            return
        g = self.document.level.grid
        self._add_copies(objects, g, g, "Duplicate")

    def _add_copies(self, objects, dx: float, dy: float, verb: str) -> None:
        taken: set[str] = set()
        copies = []
        for obj in objects:
            new_id = obj.id
            if new_id in self.document or new_id in taken or new_id == Selection.PLAYER:
                new_id = self.document.new_id(id_prefix(obj.kind), taken)
            taken.add(new_id)
            copy = obj.with_id(new_id).moved(dx, dy)
            layer = self.document.level.layer(copy.layer)
            if layer is None or layer.locked:
                # pasted from another level (or onto a layer locked since): the current layer takes it, as in Tiled
                copy = self.context.on_current_layer(copy)
            copies.append(copy)
        self.context.push(AddObjectsCommand(self.document, copies, f"{verb} {plural(len(copies), 'object')}"))
        self.selection.set(c.id for c in copies)

    def _paste_offset(self, objects) -> tuple[float, float]:
        """Where pasted objects go: in view; one grid step off when they would land exactly on their originals."""
        boxes = [o.bounds() for o in objects]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        g = self.document.level.grid
        visible = self.canvas.visible_rect()
        centre = QPointF((x0 + x1) / 2, (y0 + y1) / 2)
        dx = dy = 0.0
        if not visible.contains(centre):
            c = visible.center()
            dx = round((c.x() - centre.x()) / g) * g
            dy = round((c.y() - centre.y()) / g) * g
        existing = {self._geometry_key(o) for o in self.document.objects}
        for _ in range(100):
            if not any(self._geometry_key(o.moved(dx, dy)) in existing for o in objects):
                break
            dx += g
            dy += g
        return dx, dy

    @staticmethod
    def _geometry_key(obj):
        return obj.with_id("")

    # -- flip, rotate, drawing order, frame -------------------------------------------
    def transform_selection(self, symmetry: Symmetry) -> None:
        """Flip or turn the selection (the spawn too, when selected) about its centre: one undo step."""
        if self._tool_busy(symmetry.name.lower()):
            return
        ids = [i for i in self.selection.movable_ids() if i != Selection.PLAYER]  # a locked layer's objects stay
        with_spawn = Selection.PLAYER in self.selection
        objects = [o for o in (self.document.get(i) for i in ids) if o is not None]
        images = sum(1 for o in objects if o.kind == "image")
        if not with_spawn and images == len(objects):
            self.statusBar().showMessage(
                f"Select objects to {symmetry.name.lower()}" + (": reference images stay as they are" if images
                                                                 else ""), 4000)
            return
        try:
            command = TransformCommand(self.document, ids, symmetry, with_spawn)
        except ValueError as e:
            self.statusBar().showMessage(f"Cannot {symmetry.name.lower()}: {e}", 6000)
            return
        if command.isObsolete():  # a lone pillar, marker or spawn about its own centre
            self.statusBar().showMessage(f"{command.text()}: it looks the same, nothing changes", 3000)
            return
        self.context.push(command)
        note = f" ({plural(images, 'reference image')} left as {'it is' if images == 1 else 'they are'})" \
            if images else ""
        self.statusBar().showMessage(command.text() + note, 3000)

    def reorder_selection(self, up: bool, to_end: bool = False) -> None:
        """Raise or lower the selected objects in their layers' drawing order (``to_end``: to the top or bottom)."""
        if self._tool_busy("raise or lower"):
            return
        ids = [i for i in self.selection.movable_ids() if i != Selection.PLAYER and i in self.document]
        if not ids:
            return
        order = (raised if up else lowered)(self.document.objects, set(ids), to_end)
        verb = "Raise" if up else "Lower"
        ending = (" to top" if up else " to bottom") if to_end else ""
        command = ReorderObjectsCommand(self.document, order,
                                        objects_label(verb, [self.document.get(i) for i in ids]) + ending, ids)
        if command.isObsolete():
            where = "top" if up else "bottom"
            self.statusBar().showMessage(f"Already at the {where} of {'its' if len(ids) == 1 else 'their'} layer",
                                         3000)
            return
        self.context.push(command)

    def _tool_busy(self, what: str) -> bool:
        """True (and the designer is told) while the active tool's gesture is under way: a drag would put back
        what a flip, turn or reorder just changed."""
        tool = self.tool
        if tool is None or not tool.in_gesture():
            return False
        self.statusBar().showMessage(f"Finish with the {tool.name} tool first (release the mouse, end the wall), "
                                     f"then {what}", 4000)
        return True

    def _reselect_reordered(self, index: int) -> None:
        """After a raise or lower is done, undone or redone, what was raised or lowered is selected again."""
        last, self._undo_index = self._undo_index, index
        if index == last:
            return
        command = self.undo_stack.command(index if index < last else index - 1)
        if isinstance(command, ReorderObjectsCommand) and abs(index - last) == 1:
            self.selection.set(i for i in command.chosen if i in self.document)

    def selection_rect(self) -> QRectF | None:
        """The selection's bounding box as drawn (pictures with their size, the spawn with its body), or None."""
        boxes = []
        for object_id in self.selection.ids():
            item = self.scene.item(object_id)
            if item is not None:
                boxes.append(item.scene_box())
        if not boxes:
            return None
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        return QRectF(x0, y0, x1 - x0, y1 - y0)

    def frame_selection(self) -> None:
        """Centre the view on the selection and zoom to show it whole with a margin; the whole level without one."""
        rect = self.selection_rect()
        if rect is None:
            self.canvas.fit_level()
        else:
            self.canvas.frame_rect(rect, max_zoom=FRAME_MAX_ZOOM)

    def show_properties(self) -> None:
        """Bring the Properties dock (the inspector) forward and give it the keyboard."""
        self.inspector_dock.show()
        self.inspector_dock.raise_()
        self.inspector.setFocus(Qt.OtherFocusReason)
