"""A seeded random session in the real main window (issue 14 item 7, editor side).

Real QTest mouse and key events on the canvas and real typing into the inspector's fields: every tool by its key
(CONTRACT.md section 5), clicks, double-clicks, drags (Shift and Ctrl too), Esc, Enter, Backspace, Delete, arrows,
undo and redo (Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y), the clipboard (Ctrl+C, V, D, X, A), values good and bad typed into the
inspector and the level's grid (huge, 1e-320, negative, letters, nan), short play-tests (F5, a few frames of arrow
keys, Esc). After every step the scene shows the document (one item per object, in the scene, showing that very
object at its place; no item without an object) and nothing was caught by the guard at Qt's boundary, raised in
a Qt virtual or printed as a traceback. At the end, undoing to each index of the undo stack gives back the level recorded at that index, and
redoing gives them back again.

Three seeds of 150 steps run in the default suite; ``MONKEY_STEPS=5000`` (and ``MONKEY_SEEDS=1,2,3,...``) runs
longer. A failure names the seed, the step and the last steps taken.
"""
from __future__ import annotations

import math
import os
import random
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from core.level.file_format import load_level
from editor import guard
from editor.items.object_item import ObjectItem
from editor.panels.inspector import ValueField
from tests.editor.helpers import at, drag, hover, key, make_window, sample_level

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
#: What a designer (or a cat on the keyboard) types into a number field.
TYPED = ["16", "8", "0.5", "250", "-40", "-0", "0", "1e308", "-1e308", "1e-320", "5e-324", "99999999", "1e7",
         "-1e7", "0.000001", "nan", "inf", "abc", "12abc", "1e", "--3", "", " 7 ", "3.14159", "360", "-720"]
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
    if set(scene._items) != set(ids):
        problems.append(f"items without objects {sorted(set(scene._items) - set(ids))[:5]}, "
                        f"objects without items {sorted(set(ids) - set(scene._items))[:5]}")
    for obj in doc.objects:
        it = scene.item(obj.id)
        if it is None:
            continue
        if it.scene() is not scene:
            problems.append(f"{obj.id}: its item is not in the scene")
        if it.value != obj:
            problems.append(f"{obj.id}: the item shows {it.value!r}, the document holds {obj!r}")
            continue
        if it.shape_key(obj) != it._shape_key:
            problems.append(f"{obj.id}: the item's outline is of another shape")
        ax, ay = it.anchor(obj)
        # Qt moves an item only by more than its fuzzy compare (1e-12 relative): 5e-324 stays at 0, invisibly
        if not scene.moving and not (_near(it.pos().x(), ax) and _near(it.pos().y(), ay)):
            problems.append(f"{obj.id}: the item is at {it.pos()}, the object at {(ax, ay)}")
        x0, y0, x1, y1 = obj.bounds()
        # Qt draws round parts with curves that stray by a millionth of their size (4 units of a 1e7 wide wall)
        slack = 1 + 1e-5 * max(x1 - x0, y1 - y0)
        rect = it.sceneBoundingRect().adjusted(-slack, -slack, slack, slack)
        if not scene.moving and not (rect.left() <= x0 and rect.top() <= y0 and x1 <= rect.right()
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
            ["tool", "click", "double", "drag", "key", "ctrl", "type", "grid", "play", "view", "nodes"],
            weights=[10, 16, 5, 18, 12, 12, 12, 4, 2, 3, 4])[0]
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

    def ctrl(self) -> str:
        k, mods = self.rng.choice(CTRL_KEYS)
        key(self.window, k, mods)
        return f"key {QTest_key_name(k)} {mods}"

    def _type(self, field: ValueField, text: str) -> str:
        rng = self.rng
        field.setFocus()
        QTest.keyClick(field, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClick(field, Qt.Key_Backspace)
        QTest.keyClicks(field, text)
        end = rng.choice(["enter", "enter", "tab", "esc"])
        if end == "enter":
            QTest.keyClick(field, Qt.Key_Return)
        elif end == "esc":
            QTest.keyClick(field, Qt.Key_Escape)
        self.window.canvas.setFocus()  # leaving the field (applies or puts back its value)
        QApplication.processEvents()
        return f"typed {text!r} into {field.key} then {end}"

    def type(self) -> str:
        fields = [f for f in self.window.inspector.fields.values()
                  if isinstance(f, ValueField) and f.isVisible() and f.isEnabled() and not f.isReadOnly()]
        if not fields:
            return "nothing to type into"
        return self._type(self.rng.choice(fields), self.rng.choice(TYPED))

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
        QTest.keyClicks(editor, text)
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
        """While playing: a few frames with an arrow key held, or Esc back to editing."""
        w, rng = self.window, self.rng
        session = w.play_mode.session
        if rng.random() < 0.3:
            key(w, Qt.Key_Escape)
            return f"Esc from the play-test (playing: {w.play_mode.is_playing})"
        k = rng.choice([Qt.Key_Left, Qt.Key_Right, Qt.Key_Up, Qt.Key_Down])
        self.qtbot.keyPress(w.canvas, k)
        session.advance(rng.randint(1, 6) / 60)
        self.qtbot.keyRelease(w.canvas, k)
        return f"played {QTest_key_name(k)} for a few frames"

    def end(self) -> None:
        """Leave any play-test and gesture: Esc twice, then the select tool."""
        w = self.window
        if w.play_mode.is_playing:
            key(w, Qt.Key_Escape)
        key(w, Qt.Key_Escape)
        key(w, Qt.Key_Escape)
        key(w, Qt.Key_S)


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
    caught: list = []
    previous = guard._handler
    guard.set_error_handler(lambda where, error, explicit: caught.append(f"{where}: {guard.describe(error)}"))
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


def test_a_wall_that_runs_back_over_itself_is_shown_whole(qtbot, tmp_path):
    """Found by seed 2: Qt's union of the wall's stroke dropped what lies behind the first node."""
    from core.level.model import Level, Player, Wall

    wall = Wall("wall-1", [(250, 250), (500, 500), (0, 0)], 125, False)
    window = make_window(qtbot, tmp_path, Level(player=Player(spawn=(900, 900)), objects=(wall,)))
    assert _snap(window) == []
    assert window.scene.object_at(QPointF(20, 20)) == "wall-1"
