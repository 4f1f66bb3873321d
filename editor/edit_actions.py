"""Edit actions on the selection: copy, paste, duplicate, delete, select all.

:class:`EditActions` is one part of :class:`~editor.main_window.MainWindow`. The
clipboard carries level JSON (see :mod:`editor.clipboard`), so objects can be
pasted into another window or another level; every change goes through an undo
command.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from core.level.kinds import id_prefix, plural
from editor.clipboard import objects_from_text, objects_to_text
from editor.commands import AddObjectsCommand, RemoveObjectsCommand
from editor.property_commands import StepsCommand, find_references, retarget_steps
from editor.selection import Selection

#: The answers to "others refer to what you delete": clear those references, keep them dangling, delete nothing.
CLEAR, KEEP, CANCEL = "clear", "keep", "cancel"


class EditActions:
    """Copy, paste, duplicate, delete and select all for the main window (a part of it)."""

    def _update_edit_actions(self) -> None:
        has_objects = any(i != Selection.PLAYER for i in self.selection.ids())
        for a in (self.copy_action, self.duplicate_action, self.delete_action):
            a.setEnabled(has_objects or a is self.delete_action)

    def select_all(self) -> None:
        self.selection.set(o.id for o in self.document.objects)

    def delete_key(self) -> None:
        """Delete: the active tool may use it first (the node tool deletes a node), else the selection goes."""
        if self.canvas.hasFocus() and self.tool is not None and self.tool.key_pressed(Qt.Key_Delete, Qt.NoModifier):
            return
        self.delete_selection()

    def delete_selection(self) -> None:
        """Delete the selected objects; when other properties refer to them, ask whether to clear those first.

        "clear" deletes and sets every such reference to none in the same undo
        step; "keep" deletes and leaves them (Check then reports each one);
        "cancel" deletes nothing.
        """
        ids = [i for i in self.selection.ids() if i != Selection.PLAYER and i in self.document]
        if not ids:
            return
        delete = RemoveObjectsCommand(self.document, ids)
        references = find_references(self.document.level, ids, skip_objects=ids)
        if not references:
            self.context.push(delete)
            return
        answer = self.ask_clear_references([r.describe() for r in references])
        if answer == CLEAR:
            n = len(references)
            label = f"{delete.text()} and clear {plural(n, 'reference')} to {'it' if len(ids) == 1 else 'them'}"
            cleared = retarget_steps(self.document, dict.fromkeys(ids, ""), skip_objects=ids)
            self.context.push(StepsCommand(label, [*cleared, delete]))
        elif answer == KEEP:
            self.context.push(delete)

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
        QApplication.clipboard().setText(objects_to_text(objects))
        self.statusBar().showMessage(f"Copied {plural(len(objects), 'object')}", 3000)

    def paste(self) -> None:
        try:
            objects = list(objects_from_text(QApplication.clipboard().text()))
        except ValueError as e:
            self.statusBar().showMessage(f"Nothing pasted: {e}", 4000)
            return
        if not objects:
            return
        dx, dy = self._paste_offset(objects)
        self._add_copies(objects, dx, dy, "Paste")

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
