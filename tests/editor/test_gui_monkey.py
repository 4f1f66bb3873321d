"""A seeded random session in the real main window (issue 14 items 6 and 7, editor side).

Real QTest mouse and key events on the canvas and real typing into every panel: every tool by its key
(CONTRACT.md section 5), clicks, double-clicks, drags (Shift and Ctrl too), Esc, Enter, Backspace, Delete, arrows,
undo and redo (Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y, and the toolbar's buttons), the clipboard (Ctrl+C, V, D, X, A), G,
Shift+G, H, Ctrl+N; every shortcut also pressed in the middle of a drag and during play-tests (F5, Shift+F5, arrow
keys, P, the period key, Esc). Values good and bad (huge, tiny, 1e-320, 1e308, negative, empty, letters, nan,
unicode, ten thousand characters) are typed into every field the inspector shows for every kind of object, the
player and the level (numbers, id, type, name, grid, layer and solid), the custom properties table (values, new
properties of every kind), a wall's table of nodes, the layers panel (rename, hide, lock, raise, lower, add,
delete) and the object types dialog (add, rename, delete, default properties); a field is left with Enter, Tab,
Esc, or still being typed into while the next step clicks or presses a shortcut elsewhere.

After every step the scene shows the document (one item per object, in the scene, showing that very object at
its place; no item without an object), nothing was caught by the guard at Qt's boundary, raised in a Qt virtual
or printed as a traceback, and no command was pushed inside another change (editor/canvas/context.py writes that to
the debug log). At the end, undoing to each index of the undo stack gives back the level recorded at that
index, and redoing gives them back again.

Three seeds of 150 steps run in the default suite; ``MONKEY_STEPS=5000`` (and ``MONKEY_SEEDS=1,2,3,...``) runs
longer. A failure names the seed, the step and the last steps taken.
"""
from __future__ import annotations

import logging
import math
import os
import random
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QCheckBox, QComboBox, QDialogButtonBox, QLineEdit, QToolBar,
)

from level_editor.core.level.file_format import load_level
from level_editor.core.level.model import anchor, moving_path
from level_editor.editor.support import guard
from level_editor.editor.items.object_item import ObjectItem
from level_editor.editor.panels.layers_panel import LOCKED, NAME, VISIBLE
from level_editor.editor.panels.properties_table import PropertyField
from tests.editor.helpers import at, drag, hover, key, make_window, move, press, release, sample_level

ROOT = Path(__file__).resolve().parents[2]
STEPS = int(os.environ.get("MONKEY_STEPS", "150"))
SEEDS = [int(s) for s in os.environ.get("MONKEY_SEEDS", "1,2,3").split(",") if s.strip()]

#: CONTRACT.md section 5: S select, E nodes, W wall, B box, O oriented box, C pillar, I spawn, M marker, T tiles.
TOOL_KEYS = [Qt.Key_S, Qt.Key_E, Qt.Key_W, Qt.Key_B, Qt.Key_O, Qt.Key_C, Qt.Key_I, Qt.Key_M, Qt.Key_T]
PLAIN_KEYS = [Qt.Key_Escape, Qt.Key_Return, Qt.Key_Enter, Qt.Key_Backspace, Qt.Key_Delete,
              Qt.Key_Left, Qt.Key_Right, Qt.Key_Up, Qt.Key_Down]
CTRL_KEYS = [(Qt.Key_Z, Qt.ControlModifier), (Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier),
             (Qt.Key_Y, Qt.ControlModifier), (Qt.Key_C, Qt.ControlModifier), (Qt.Key_V, Qt.ControlModifier),
             (Qt.Key_D, Qt.ControlModifier), (Qt.Key_X, Qt.ControlModifier), (Qt.Key_A, Qt.ControlModifier)]
#: The other shortcuts of CONTRACT.md section 5 and the menus that ask nothing (Ctrl+N discards: make_window
#: answers its question; Ctrl+O and Ctrl+S would open a file dialog and are left out).
MORE_KEYS = [(Qt.Key_G, Qt.NoModifier), (Qt.Key_G, Qt.ShiftModifier), (Qt.Key_H, Qt.NoModifier),
             (Qt.Key_0, Qt.ControlModifier), (Qt.Key_1, Qt.ControlModifier), (Qt.Key_Delete, Qt.NoModifier),
             (Qt.Key_F5, Qt.NoModifier), (Qt.Key_F5, Qt.ShiftModifier), (Qt.Key_Space, Qt.NoModifier),
             (Qt.Key_BracketLeft, Qt.NoModifier), (Qt.Key_BracketRight, Qt.NoModifier)]
#: Every shortcut, for pressing in the middle of a drag or a play-test.
ANY_KEY = ([(k, Qt.NoModifier) for k in TOOL_KEYS + PLAIN_KEYS] + CTRL_KEYS + MORE_KEYS
           + [(Qt.Key_P, Qt.NoModifier), (Qt.Key_Period, Qt.NoModifier), (Qt.Key_W, Qt.NoModifier)])
#: What a designer (or a cat on the keyboard) types into a field.
TYPED = ["16", "8", "0.5", "250", "-40", "-0", "0", "1e308", "-1e308", "1e-320", "5e-324", "99999999", "1e7",
         "-1e7", "0.000001", "nan", "inf", "abc", "12abc", "1e", "--3", "", " 7 ", "3.14159", "360", "-720",
         "1e-320", "1e308", "0x10", "1_000", "١٢٣", "７", "ünïcødé ✓", "名前", "  ", "a b", "\u202eevil", "9" * 400,
         "x" * 10000, "-", ".", "e", "true", "(none)", "#e0503c", "wall-1", "Default"]
MODIFIERS = [Qt.NoModifier] * 4 + [Qt.ShiftModifier, Qt.ControlModifier]


def _point(rng: random.Random, window) -> tuple[float, float]:
    """A level point: mostly near an existing object (so clicks select and drags move), else anywhere in view."""
    objects = window.document.objects
    if objects and rng.random() < 0.5:
        x0, y0, x1, y1 = rng.choice(objects).bounds()
        if all(math.isfinite(v) for v in (x0, y0, x1, y1)) and max(abs(x0), abs(x1), abs(y0), abs(y1)) < 5000:
            return rng.uniform(x0, x1), rng.uniform(y0, y1)
    return rng.uniform(-60, 700), rng.uniform(-60, 500)


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _snap(window) -> list[str]:
    """Everything the scene must show of the document, compared item by item (problems as words)."""
    scene, doc = window.scene, window.document
    problems = []
    ids = [o.id for o in doc.objects]
    if len(set(ids)) != len(ids):
        problems.append(f"duplicate ids in the document: {sorted(i for i in set(ids) if ids.count(i) > 1)}")
    shown = [it for it in scene.items() if isinstance(it, ObjectItem) and it is not scene.player_item
             and type(it).__name__ != "PlayPlayerItem"]
    if len(shown) != len(ids):
        problems.append(f"{len(shown)} object items in the scene for {len(ids)} objects")
    indexed = {it.object_id for it in scene.object_items()}
    if indexed != set(ids):
        problems.append(f"items without objects {sorted(indexed - set(ids))[:5]}, "
                        f"objects without items {sorted(set(ids) - indexed)[:5]}")
    for obj in doc.objects:
        it = scene.item(obj.id)
        if it is None:
            continue
        if it.scene() is not scene:
            problems.append(f"{obj.id}: its item is not in the scene")
        if it.value != obj:
            problems.append(f"{obj.id}: the item shows {it.value!r}, the document holds {obj!r}")
            continue
        if it.outline_key(obj) != it._shape_key:
            problems.append(f"{obj.id}: the item's outline is of another shape")
        if getattr(it.parentItem(), "layer_id", None) != obj.layer:
            problems.append(f"{obj.id}: the item is not under its layer's item")
        ax, ay = anchor(obj)
        # a moving object is shown where its path has it while a play-test or Play Paths runs
        shown_moving = moving_path(obj) is not None and (window.play_mode.is_playing or window.play_paths.playing)
        # Qt moves an item only by more than its fuzzy compare (1e-12 relative): 5e-324 stays at 0, invisibly
        if not scene.moving and not shown_moving and not (_near(it.pos().x(), ax) and _near(it.pos().y(), ay)):
            problems.append(f"{obj.id}: the item is at {it.pos()}, the object at {(ax, ay)}")
        x0, y0, x1, y1 = obj.bounds()
        # Qt draws round parts with curves that stray by a millionth of their size (4 units of a 1e7 wide wall)
        slack = 1 + 1e-5 * max(x1 - x0, y1 - y0)
        rect = it.sceneBoundingRect().adjusted(-slack, -slack, slack, slack)
        if not scene.moving and not shown_moving and not (rect.left() <= x0 and rect.top() <= y0 and x1 <= rect.right()
                                     and y1 <= rect.bottom()):
            problems.append(f"{obj.id}: the item's box {rect} does not hold the object's {(x0, y0, x1, y1)}")
    if scene.player_item.value != doc.player:
        problems.append(f"the spawn shows {scene.player_item.value!r}, the document holds {doc.player!r}")
    return problems


class Monkey:
    """One seeded session: ``step()`` does one random thing with real events and says what it did."""

    def __init__(self, qtbot, window, seed: int):
        self.qtbot, self.window, self.seed = qtbot, window, seed
        self.rng = random.Random(seed)
        self.done: list[str] = []
        self.states: dict[int, object] = {0: window.document.level}
        window.undo_stack.indexChanged.connect(self.record)

    def record(self, *_):
        """The level at the undo stack's index (a merge changes it without moving the index: recorded after steps)."""
        stack = self.window.undo_stack
        for i in [i for i in self.states if i > stack.count()]:
            del self.states[i]
        self.states[stack.index()] = self.window.document.level

    # -- actions -------------------------------------------------------------------------------------------
    def step(self) -> str:
        rng, w = self.rng, self.window
        if w.play_mode.is_playing:
            return self.play_on()
        action = rng.choices(
            ["tool", "click", "double", "drag", "key", "ctrl", "type", "grid", "play", "view", "nodes",
             "select", "more_keys", "gesture_keys", "properties", "layers", "types", "toolbar"],
            weights=[10, 16, 5, 18, 12, 12, 12, 4, 2, 3, 4, 8, 4, 5, 6, 5, 4, 4])[0]
        return getattr(self, action)()

    def tool(self) -> str:
        k = self.rng.choice(TOOL_KEYS)
        key(self.window, k)
        return f"tool key {QTest_key_name(k)}"

    def click(self) -> str:
        x, y = _point(self.rng, self.window)
        mods = self.rng.choice(MODIFIERS)
        hover(self.window, x, y, mods)
        QTest.mouseClick(self.window.canvas.viewport(), Qt.LeftButton, mods, at(self.window, x, y))
        return f"click at ({x:.0f}, {y:.0f}) {mods}"

    def double(self) -> str:
        x, y = _point(self.rng, self.window)
        hover(self.window, x, y)
        QTest.mouseClick(self.window.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, at(self.window, x, y))
        QTest.mouseDClick(self.window.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, at(self.window, x, y))
        return f"double-click at ({x:.0f}, {y:.0f})"

    def drag(self) -> str:
        rng = self.rng
        (x0, y0), mods = _point(rng, self.window), rng.choice(MODIFIERS)
        x1, y1 = (x0 + rng.uniform(-200, 200), y0 + rng.uniform(-200, 200)) if rng.random() < 0.8 else \
            _point(rng, self.window)
        drag(self.window, (x0, y0), (x1, y1), mods, steps=rng.randint(1, 6))
        return f"drag ({x0:.0f}, {y0:.0f}) -> ({x1:.0f}, {y1:.0f}) {mods}"

    def key(self) -> str:
        k = self.rng.choice(PLAIN_KEYS)
        key(self.window, k, self.rng.choice([Qt.NoModifier] * 3 + [Qt.ShiftModifier]))
        return f"key {QTest_key_name(k)}"

    def _shortcut(self, k, mods) -> str:
        """``k`` on the canvas, or (half the time) on a field still being typed into, as a designer would."""
        focused = QApplication.focusWidget()
        if isinstance(focused, QLineEdit) and focused.isModified() and self.rng.random() < 0.5:
            QTest.keyClick(focused, k, mods)
            return f"key {QTest_key_name(k)} {mods} in {focused.objectName() or type(focused).__name__}"
        key(self.window, k, mods)
        return f"key {QTest_key_name(k)} {mods}"

    def ctrl(self) -> str:
        return self._shortcut(*self.rng.choice(CTRL_KEYS))

    def _type(self, field: QLineEdit, text: str) -> str:
        """Type ``text`` into ``field`` as keys, then Enter, Tab, Esc, or nothing: the next step finds the field
        still being typed into (its click or shortcut elsewhere must apply the value first)."""
        rng = self.rng
        name = field.objectName() or type(field).__name__  # a cell's editor is gone after Enter
        field.setFocus()
        QTest.keyClick(field, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClick(field, Qt.Key_Backspace)
        if len(text) > 200:
            field.insert(text)  # ten thousand key events would take seconds; typed as one paste
        else:
            type_keys(field, text)
        end = rng.choice(["enter", "enter", "tab", "esc", "pending"])
        if end == "enter":
            QTest.keyClick(field, Qt.Key_Return)
        elif end == "esc":
            QTest.keyClick(field, Qt.Key_Escape)
        elif end == "tab":
            QTest.keyClick(field, Qt.Key_Tab)
        if end != "pending":
            self.window.canvas.setFocus()  # leaving the field (applies or puts back its value)
        QApplication.processEvents()
        return f"typed {text[:40]!r} ({len(text)} characters) into {name} then {end}"

    def type(self) -> str:
        """Any field the inspector shows: numbers, id, name and grid typed into; type, layer, shape chosen; solid."""
        rng = self.rng
        fields = [f for f in self.window.inspector.fields.values()
                  if f.isVisible() and f.isEnabled() and isinstance(f, (QLineEdit, QComboBox, QCheckBox))
                  and not (isinstance(f, QLineEdit) and f.isReadOnly())]
        if not fields:
            return "nothing to type into"
        field = rng.choice(fields)
        if isinstance(field, QLineEdit):
            return self._type(field, rng.choice(TYPED))
        if isinstance(field, QCheckBox):
            QTest.mouseClick(field, Qt.LeftButton, Qt.NoModifier, QPoint(6, field.height() // 2))
            return f"clicked {field.objectName()}"
        if field.isEditable() and rng.random() < 0.6:
            return self._type(field.lineEdit(), rng.choice(TYPED + ["enemy", "door", ""]))
        if field.count() == 0:
            return f"{field.objectName()} has nothing to choose"
        field.setFocus()
        index = rng.randrange(field.count())
        QTest.keyClick(field, Qt.Key_Home)
        for _ in range(index):
            QTest.keyClick(field, Qt.Key_Down)
        self.window.canvas.setFocus()
        return f"chose item {index} of {field.objectName()}"

    def select(self) -> str:
        """Select something to reach its fields: an object of some kind, the player, or nothing (the level)."""
        w, rng = self.window, self.rng
        key(w, Qt.Key_S)
        key(w, Qt.Key_Escape)
        choice = rng.random()
        if choice < 0.15:
            return "selected nothing (the level's fields)"
        if choice < 0.35:
            x, y = w.document.player.spawn
            what = "the player"
        else:
            objects = [o for o in w.document.objects if all(map(math.isfinite, o.bounds()))
                       and max(map(abs, o.bounds())) < 5000]
            if not objects:
                return "no object to select"
            obj = rng.choice(objects)
            x0, y0, x1, y1 = obj.bounds()
            x, y = obj.points[0] if type(obj).__name__ == "Wall" else ((x0 + x1) / 2, (y0 + y1) / 2)
            what = obj.id
        if not (math.isfinite(x) and math.isfinite(y)) or max(abs(x), abs(y)) > 1e6:
            return f"{what} is too far to click"
        w.canvas.centerOn(QPointF(x, y))
        hover(w, x, y)
        QTest.mouseClick(w.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, at(w, x, y))
        QApplication.processEvents()
        return f"clicked {what} at ({x:.0f}, {y:.0f}): {w.inspector.title.text()}"

    def more_keys(self) -> str:
        k, mods = self.rng.choice(MORE_KEYS)
        said = self._shortcut(k, mods)
        if k == Qt.Key_Space:
            QTest.keyRelease(self.window.canvas, k, mods)
        return said

    def gesture_keys(self) -> str:
        """A drag with shortcuts pressed while the button is down (Ctrl+Z, Delete, F5, another tool, Esc...)."""
        w, rng = self.window, self.rng
        (x0, y0) = _point(rng, w)
        x1, y1 = x0 + rng.uniform(-200, 200), y0 + rng.uniform(-200, 200)
        hover(w, x0, y0)
        press(w, x0, y0)
        pressed = []
        for i in range(1, 5):
            move(w, x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4)
            if rng.random() < 0.5:
                k, mods = rng.choice(ANY_KEY)
                w.canvas.setFocus()
                QTest.keyClick(w.canvas, k, mods)
                pressed.append(f"{QTest_key_name(k)} {mods}")
                if w.play_mode.is_playing:
                    break  # F5 took the canvas; the release below goes to the play-test
        release(w, x1, y1)
        return f"drag ({x0:.0f}, {y0:.0f}) -> ({x1:.0f}, {y1:.0f}) pressing {pressed}"

    def toolbar(self) -> str:
        """A toolbar button: it takes no focus, so a field may still be being typed into."""
        w = self.window
        actions = [a for a in w.main_toolbar.actions() if a.isEnabled() and a.isVisible() and not a.isSeparator()
                   and a not in (w.new_action, w.open_action, w.save_action, w.add_image_action)]
        if not actions:
            return "no toolbar button enabled"
        action = self.rng.choice(actions)
        button = w.main_toolbar.widgetForAction(action)
        if button is None or not button.isVisible():
            return f"{action.text()} has no button shown"
        QTest.mouseClick(button, Qt.LeftButton)
        return f"toolbar {action.text()}"

    def _properties_table(self):
        """The inspector's custom properties, or the open object types dialog's defaults."""
        w = self.window
        tables = [w.inspector.properties]
        dialog = getattr(w, "types_editor", None)
        if dialog is not None and dialog.isVisible():
            tables.append(dialog.properties)
        tables = [t for t in tables if t.isVisible() and t.isEnabled()]
        return self.rng.choice(tables) if tables else None

    def properties(self) -> str:
        """A custom property: a value typed (or a box ticked), a new one added of any kind, one removed."""
        rng = self.rng
        table = self._properties_table()
        if table is None:
            return "no custom properties shown"
        rows = table.rows()
        choice = rng.choice(["value", "value", "add", "remove"])
        if choice == "value" and rows:
            row = rng.choice(rows)
            editor = table.editor(row.name)
            if isinstance(editor, PropertyField):
                return self._type(editor, rng.choice(TYPED))
            if isinstance(editor, QCheckBox):
                QTest.mouseClick(editor, Qt.LeftButton, Qt.NoModifier, QPoint(6, editor.height() // 2))
                return f"ticked {row.name}"
            if isinstance(editor, QComboBox) and editor.count():
                editor.setFocus()
                QTest.keyClick(editor, Qt.Key_Down)
                self.window.canvas.setFocus()
                return f"chose the next object for {row.name}"
            return f"{row.name} has no editor to use"
        if choice == "remove" and rows:
            table.table.setCurrentCell(rng.randrange(len(rows)), 0)
            if table.remove_button.isEnabled():
                QTest.mouseClick(table.remove_button, Qt.LeftButton)
            return "removed a property"
        table.new_name.setFocus()
        table.new_name.selectAll()
        name = rng.choice(TYPED + ["health", "speed", "music", "opened_by"])
        type_keys(table.new_name, name[:200])
        table.new_kind.setCurrentIndex(rng.randrange(table.new_kind.count()))
        QTest.mouseClick(table.add_button, Qt.LeftButton)
        self.window.canvas.setFocus()
        return f"added property {name[:40]!r} of kind {table.new_kind.currentData()}"

    def layers(self) -> str:
        """The layers panel: rename (typed in place), hide, lock, raise, lower, add, delete."""
        rng, panel = self.rng, self.window.layers_panel
        view, model = panel.view, panel.model
        if not panel.isVisible() or not panel.isEnabled() or model.rowCount() == 0:
            return "no layers panel"
        row = rng.randrange(model.rowCount())
        choice = rng.choice(["rename", "visible", "locked", "raise", "lower", "add", "delete", "pick"])
        if choice in ("visible", "locked", "pick"):
            column = {"visible": VISIBLE, "locked": LOCKED, "pick": NAME}[choice]
            rect = view.visualRect(model.index(row, column))
            QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
            return f"clicked the {choice} column of layer row {row}"
        if choice == "rename":
            rect = view.visualRect(model.index(row, NAME))
            QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
            QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
            editor = QApplication.focusWidget()
            if view.state() != QAbstractItemView.EditingState or not isinstance(editor, QLineEdit):
                return f"layer row {row} did not open for renaming"
            return "layer: " + self._type(editor, rng.choice(TYPED + ["Background", "Foreground"]))
        action = {"raise": panel.raise_action, "lower": panel.lower_action, "add": panel.add_action,
                  "delete": panel.delete_action}[choice]
        button = panel.findChild(QToolBar).widgetForAction(action)
        enabled = action.isEnabled()
        QTest.mouseClick(button, Qt.LeftButton)  # the panel's own button: a rename still typed is applied first
        return f"layer {choice} ({'enabled' if enabled else 'disabled'})"

    def types(self) -> str:
        """The object types dialog: opened, a type added, renamed (typed), chosen, deleted, closed."""
        rng, w = self.rng, self.window
        dialog = getattr(w, "types_editor", None)
        if dialog is None or not dialog.isVisible():
            w.types_action.trigger()
            dialog = w.types_editor
            dialog.choose_color = lambda initial, title: QColor(rng.choice(["#ff0000", "#00ff00", "#123456"])) \
                if rng.random() < 0.7 else QColor()
            dialog.ask_delete_used = lambda name, ids: rng.random() < 0.5
            QApplication.processEvents()
            return "opened Object Types"
        choice = rng.choice(["add", "rename", "rename", "choose", "delete", "color", "close"])
        if choice == "add":
            QTest.mouseClick(dialog.add_button, Qt.LeftButton)
        elif choice == "rename" and dialog.name_field.isEnabled():
            return "type name: " + self._type(dialog.name_field, rng.choice(TYPED + ["enemy", "door", "crate"]))
        elif choice == "choose" and dialog.type_list.count():
            item = dialog.type_list.item(rng.randrange(dialog.type_list.count()))
            dialog.type_list.scrollToItem(item)
            QTest.mouseClick(dialog.type_list.viewport(), Qt.LeftButton, Qt.NoModifier,
                             dialog.type_list.visualItemRect(item).center())
        elif choice == "delete" and dialog.delete_button.isEnabled():
            QTest.mouseClick(dialog.delete_button, Qt.LeftButton)
        elif choice == "color" and dialog.color_button.isEnabled():
            QTest.mouseClick(dialog.color_button, Qt.LeftButton)
        elif choice == "close":
            QTest.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Close), Qt.LeftButton)
        return f"types: {choice}"

    def nodes(self) -> str:
        """A selected wall's table of nodes: a cell typed into (F2, the text, Enter), or Add / Remove Node."""
        rng = self.rng
        table = self.window.inspector.fields.get("nodeTable")
        walls = [o for o in self.window.document.objects if type(o).__name__ == "Wall"]
        if (table is None or not table.isVisible()) and walls:
            # select a wall: the select tool, a click on one of its nodes
            wall = rng.choice(walls)
            x, y = rng.choice(wall.points)
            key(self.window, Qt.Key_S)
            key(self.window, Qt.Key_Escape)  # nothing selected, so the click selects the wall alone
            hover(self.window, x, y)
            QTest.mouseClick(self.window.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, at(self.window, x, y))
            QApplication.processEvents()  # the inspector shows the new selection's fields
            table = self.window.inspector.fields.get("nodeTable")
        if table is None or not table.isVisible():
            return "no wall's nodes shown"
        view, model = table.view, table.model
        choice = rng.choice(["edit", "edit", "add", "remove"])
        if choice != "edit":
            button = table.add_button if choice == "add" else table.remove_button
            if button.isEnabled():
                QTest.mouseClick(button, Qt.LeftButton)
            return f"{choice} node ({'enabled' if button.isEnabled() else 'disabled'})"
        if model.rowCount() == 0:
            return "a wall without nodes in the table"
        index = model.index(rng.randrange(model.rowCount()), rng.randrange(model.columnCount()))
        view.scrollTo(index)
        QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, view.visualRect(index).center())
        QTest.keyClick(view, Qt.Key_F2)
        editor = QApplication.focusWidget()
        text = rng.choice(TYPED)
        if editor is None or editor is view:
            return "the node's cell did not open for typing"
        QTest.keyClick(editor, Qt.Key_A, Qt.ControlModifier)
        if len(text) > 200 and isinstance(editor, QLineEdit):
            editor.insert(text)
        else:
            type_keys(editor, text)
        QTest.keyClick(editor, rng.choice([Qt.Key_Return, Qt.Key_Return, Qt.Key_Escape]))
        self.window.canvas.setFocus()
        QApplication.processEvents()
        return f"typed {text!r} into node {index.row()} {'xy'[index.column() % 2]}"

    def grid(self) -> str:
        """The level's grid field: shown with nothing selected (S, Esc clears the selection)."""
        key(self.window, Qt.Key_S)
        key(self.window, Qt.Key_Escape)
        key(self.window, Qt.Key_Escape)
        field = self.window.inspector.fields.get("grid")
        if field is None or not field.isVisible():
            return "no grid field shown"
        return self._type(field, self.rng.choice(TYPED))

    def view(self) -> str:
        """The wheel zooms about the cursor; Ctrl+0 fits the level, Ctrl+1 is actual size."""
        w, rng = self.window, self.rng
        choice = rng.choice(["wheel", "wheel", "fit", "actual"])
        if choice == "wheel":
            x, y = _point(rng, w)
            pixel = QPointF(at(w, x, y))
            delta = rng.choice([120, -120, 480, -480])
            event = QWheelEvent(pixel, QPointF(w.canvas.viewport().mapToGlobal(pixel.toPoint())), QPoint(),
                                QPoint(0, delta), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
            QApplication.sendEvent(w.canvas.viewport(), event)
            return f"wheel {delta} at ({x:.0f}, {y:.0f})"
        key(w, Qt.Key_0 if choice == "fit" else Qt.Key_1, Qt.ControlModifier)
        return f"Ctrl+{'0' if choice == 'fit' else '1'}"

    def play(self) -> str:
        key(self.window, Qt.Key_F5, self.rng.choice([Qt.NoModifier, Qt.ShiftModifier]))
        return f"F5 (playing: {self.window.play_mode.is_playing})"

    def play_on(self) -> str:
        """While playing: a few frames with an arrow key held, any other shortcut, or Esc back to editing."""
        w, rng = self.window, self.rng
        session = w.play_mode.session
        if rng.random() < 0.3:
            key(w, Qt.Key_Escape)
            return f"Esc from the play-test (playing: {w.play_mode.is_playing})"
        if rng.random() < 0.3:
            k, mods = rng.choice(ANY_KEY)
            key(w, k, mods)
            return f"key {QTest_key_name(k)} {mods} while playing (playing: {w.play_mode.is_playing})"
        k = rng.choice([Qt.Key_Left, Qt.Key_Right, Qt.Key_Up, Qt.Key_Down])
        self.qtbot.keyPress(w.canvas, k)
        session.advance(rng.randint(1, 6) / 60)
        self.qtbot.keyRelease(w.canvas, k)
        return f"played {QTest_key_name(k)} for a few frames"

    def end(self) -> None:
        """Leave any play-test and gesture: Esc twice, then the select tool; close the object types dialog."""
        w = self.window
        dialog = getattr(w, "types_editor", None)
        if dialog is not None and dialog.isVisible():
            dialog.close()
        if w.play_mode.is_playing:
            key(w, Qt.Key_Escape)
        key(w, Qt.Key_Escape)
        key(w, Qt.Key_Escape)
        key(w, Qt.Key_S)


def type_keys(widget, text: str) -> None:
    """``text`` as key presses; a character beyond Latin-1 comes as a keyboard layout sends it (QTest's
    keyClicks aborts the process on one)."""
    for ch in text:
        if ord(ch) < 128:
            QTest.keyClicks(widget, ch)
        else:
            for kind in (QEvent.KeyPress, QEvent.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.NoModifier, ch))


def QTest_key_name(k) -> str:  # noqa: N802 - reads as what it names
    return getattr(k, "name", str(k))


def start_level(seed: int):
    """Odd seeds start from the small sample level, even ones from levels/game_content.json (every kind of object,
    three layers, object types, a reference picture, tiles and markers)."""
    if seed % 2:
        return sample_level(), None
    path = ROOT / "levels" / "game_content.json"
    return load_level(path), str(path)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_gui_session(qtbot, tmp_path, capfd, seed):
    level, path = start_level(seed)
    window = make_window(qtbot, tmp_path, level)
    if path is not None:
        window.scene.set_base_folder(os.path.dirname(path))  # its reference picture is found beside it
    window.play_mode.use_timer = False
    window.ask_clear_references = lambda names: "keep"  # never a blocking question box
    window.activateWindow()
    QApplication.clipboard().clear()  # the clipboard outlives a test: a seed must replay the same alone
    window.layers_panel.ask_delete_layer = lambda name, count: seed % 3 != 0  # never a blocking question box
    caught: list = []
    previous = guard.set_error_handler(lambda where, error, explicit: caught.append(f"{where}: {guard.describe(error)}"))
    nested = _NestedPushes()
    monkey = Monkey(qtbot, window, seed)

    def fail(step, what, problems):
        recent = "\n  ".join(monkey.done[-12:])
        pytest.fail(f"seed {seed}, step {step} ({what}): {'; '.join(problems)}\n"
                    f"last steps:\n  {recent}\nrerun: MONKEY_SEEDS={seed} MONKEY_STEPS={step + 1}", pytrace=False)

    try:
        for step in range(STEPS):
            with qtbot.capture_exceptions() as raised:
                what = monkey.step()
                QApplication.processEvents()
            monkey.done.append(f"{step}: {what}")
            problems = [f"the guard caught: {c}" for c in caught]
            problems += [f"pushed inside another change: {m}" for m in nested.messages]
            problems += [f"raised in a Qt virtual: {e[1]!r}" for e in raised]
            printed = capfd.readouterr().err
            problems += [f"printed: {line[:300]}" for line in printed.splitlines()
                         if "Traceback" in line or "Error calling Python override" in line or "Error" in line[:12]]
            problems += _snap(window)
            if problems:
                fail(step, what, problems)
            monkey.record()
        with qtbot.capture_exceptions() as raised:
            monkey.end()
        monkey.record()
        if caught or raised or _snap(window):
            fail(STEPS, "ending the session", caught + [repr(e[1]) for e in raised] + _snap(window))

        # undo to each index, then redo to each: every recorded level comes back exactly
        stack, states = window.undo_stack, dict(monkey.states)
        window.undo_stack.indexChanged.disconnect(monkey.record)
        top = stack.index()
        assert states.get(top) == window.document.level, f"seed {seed}: the last state was not recorded"
        checked = 0
        for direction, indices in (("undo", range(top - 1, -1, -1)), ("redo", range(1, top + 1))):
            for index in indices:
                stack.setIndex(index)
                QApplication.processEvents()
                problems = _snap(window) + [f"the guard caught: {c}" for c in caught]
                if index in states and window.document.level != states[index]:
                    problems.append(f"the level at undo index {index} differs from the one recorded there")
                    checked -= 1
                checked += index in states
                if problems:
                    fail(STEPS, f"{direction} to index {index} of {top}", problems)
        assert stack.index() == top
        assert top == 0 or checked > 0, f"seed {seed}: no state was compared"
    finally:
        guard.set_error_handler(previous)
        nested.close()


class _NestedPushes(logging.Handler):
    """Collects what EditorContext.push writes to the debug log when a command comes inside another change."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []
        self._logger = logging.getLogger("level-editor")
        self._level = self._logger.level
        self._logger.setLevel(logging.DEBUG)
        self._logger.addHandler(self)

    def emit(self, record):
        if "was pushed while" in record.getMessage():
            self.messages.append(record.getMessage())

    def close(self):
        self._logger.removeHandler(self)
        self._logger.setLevel(self._level)
        super().close()


def test_a_wall_that_runs_back_over_itself_is_shown_whole(qtbot, tmp_path):
    """Found by seed 2: Qt's union of the wall's stroke dropped what lies behind the first node."""
    from level_editor.core.level.model import Level, Player, Wall

    wall = Wall("wall-1", [(250, 250), (500, 500), (0, 0)], 125, False)
    window = make_window(qtbot, tmp_path, Level(player=Player(spawn=(900, 900)), objects=(wall,)))
    assert _snap(window) == []
    assert window.scene.object_at(QPointF(20, 20)) == "wall-1"
