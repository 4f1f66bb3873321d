"""Problems dock, background validation, validation and hulls on save, the hull drawing."""
from __future__ import annotations

import json
import time

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtTest import QTest

import level_editor.editor.items.hulls_item as hulls_item_module
import level_editor.core.checks.check as runner_module
from level_editor.core.checks.hulls import level_hulls
from level_editor.core.level.model import Box, Level, Pillar, Player, Wall
from level_editor.core.level.file_format import load_level
from level_editor.core.level.problems import ERROR, INFO, LEVEL_ID, PLAYER_ID, WARNING
from level_editor.core.collision.shapes import Vec2
from level_editor.editor.commands.objects import ChangeObjectsCommand, new_gesture
from level_editor.editor.items.problem_marker_item import SEVERITY_COLORS
from tests.editor.helpers import CallLog, drag, hover, key, make_window, move, press, release

WAIT = 10_000  # ms; results normally arrive about half a second after the last edit


def trouble_level() -> Level:
    """The spawn inside a box, two walls crossing, and a pillar far to the right."""
    return Level(
        name="Trouble",
        grid=16,
        player=Player(spawn=(96, 96), radius=12),
        objects=(
            Box("crate", (80, 80), (64, 48)),
            Wall("wall-a", [(200, 40), (360, 200)], 8, False),
            Wall("wall-b", [(200, 200), (360, 40)], 8, False),
            Box("shelf", (416, 64), (32, 160)),
        ),
    )


@pytest.fixture
def trouble(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, trouble_level())


def wait_checked(qtbot, window):
    """Until the Problems dock shows results for the level that is open now."""
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None
                    and not window.checks.busy, timeout=WAIT)


def rows(window):
    model = window.problems_dock.model
    return [(model.index(r, 0).data(), model.index(r, 1).data(), model.index(r, 2).data())
            for r in range(model.rowCount())]


def click_row(window, row: int):
    view = window.problems_dock.view
    rect = view.visualRect(view.model().index(row, 2))
    assert rect.isValid(), "the row must be on screen to click it"
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())


def row_of(window, object_id: str, severity: str) -> int:
    problems = window.problems_dock.model.problems()
    return next(r for r, p in enumerate(problems) if p.object_id == object_id and p.severity == severity)


def pan_away(window):
    window.canvas.centerOn(QPointF(5000, 5000))


def test_spawn_inside_a_box_shows_in_the_dock_after_the_debounce(trouble, qtbot):
    wait_checked(qtbot, trouble)
    table = rows(trouble)
    assert table[0][:2] == ("Error", "player")
    assert "overlaps crate" in table[0][2]
    severities = [p.severity for p in trouble.problems_dock.model.problems()]
    assert severities == sorted(severities, key=[ERROR, WARNING, INFO].index)
    assert ("Warning", "wall-a") in [r[:2] for r in table]
    assert trouble.problems_dock.windowTitle() == "Problems (1 error, 1 warning)"
    assert trouble.problems_dock.isVisible()


def test_clicking_the_spawn_error_selects_the_player_frames_it_and_marks_the_spot(trouble, qtbot):
    wait_checked(qtbot, trouble)
    pan_away(trouble)
    assert not trouble.canvas.visible_rect().contains(QPointF(96, 96))
    click_row(trouble, row_of(trouble, PLAYER_ID, ERROR))
    assert trouble.selection.ids() == ["player"]
    assert trouble.canvas.visible_rect().contains(QRectF(84, 84, 24, 24))
    marker = trouble.problems_dock.marker
    assert marker.isVisible() and marker.pos() == QPointF(96, 96)
    assert marker.color == SEVERITY_COLORS[ERROR]
    # the marker is drawn at a constant size on screen, above everything
    assert marker.zValue() > trouble.scene.player_item.zValue()
    assert trouble.scene.items(QPointF(96, 96))[0] is marker


def test_clicking_a_crossing_selects_the_wall_frames_it_and_marks_the_crossing(trouble, qtbot):
    wait_checked(qtbot, trouble)
    pan_away(trouble)
    row = row_of(trouble, "wall-a", WARNING)
    problem = trouble.problems_dock.model.problem_at(row)
    click_row(trouble, row)
    assert trouble.selection.ids() == ["wall-a"]
    assert trouble.canvas.visible_rect().contains(QRectF(196, 36, 168, 168))
    marker = trouble.problems_dock.marker
    assert problem.location == Vec2(280, 120)
    assert marker.isVisible() and marker.pos() == QPointF(280, 120)
    assert marker.color == SEVERITY_COLORS[WARNING]
    # another problem moves the marker
    click_row(trouble, row_of(trouble, PLAYER_ID, ERROR))
    assert marker.pos() == QPointF(96, 96) and marker.color == SEVERITY_COLORS[ERROR]


def test_a_level_problem_only_marks_its_spot(trouble, qtbot):
    wait_checked(qtbot, trouble)
    trouble.selection.set(["shelf"])
    pan_away(trouble)
    row = row_of(trouble, LEVEL_ID, INFO)
    click_row(trouble, row)
    assert trouble.selection.ids() == ["shelf"]
    assert trouble.canvas.visible_rect().contains(QPointF(96, 96))
    assert trouble.problems_dock.marker.isVisible()
    assert trouble.problems_dock.marker.pos() == QPointF(96, 96)


def test_moving_the_spawn_out_of_the_box_clears_the_error_and_the_marker(trouble, qtbot):
    wait_checked(qtbot, trouble)
    click_row(trouble, row_of(trouble, PLAYER_ID, ERROR))
    assert trouble.problems_dock.marker.isVisible()
    trouble.canvas.set_zoom(1.0)
    trouble.canvas.centerOn(QPointF(200, 200))
    drag(trouble, (96, 96), (96, 304))
    assert trouble.document.player.spawn == Vec2(96, 304)
    assert not trouble.problems_dock.marker.isVisible()
    qtbot.waitUntil(lambda: not any(p.is_error for p in trouble.problems_dock.model.problems())
                    and trouble.checks.result_for(trouble.document.level) is not None, timeout=WAIT)
    assert trouble.problems_dock.windowTitle() == "Problems (0 errors, 1 warning)"
    # undo brings it back
    key(trouble, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: rows(trouble) and rows(trouble)[0][:2] == ("Error", "player"), timeout=WAIT)


class Recorder:
    """Stands in for validate_level and notes the levels it validated, and where (see CallLog)."""

    def __init__(self, monkeypatch, tmp_path, delay: float = 0.0):
        self.log = CallLog(tmp_path / "validated.log")
        self.delay = delay
        self._real = runner_module.validate_level
        monkeypatch.setattr(runner_module, "validate_level", self)

    def __call__(self, level, outlines=None, base_dir=None):
        self.log.record(level)
        if self.delay:
            time.sleep(self.delay)
        return self._real(level, outlines, base_dir)

    @property
    def levels(self) -> list:
        return self.log.values()

    def all_off_the_gui(self) -> bool:
        return all(off for off, _ in self.log.entries())


def test_a_drag_never_validates_on_the_gui_thread_and_checks_once_after_it(trouble, qtbot, monkeypatch, tmp_path):
    wait_checked(qtbot, trouble)
    calls = Recorder(monkeypatch, tmp_path)
    runs = trouble.checks.runs
    steps = 32
    hover(trouble, 432, 100)
    press(trouble, 432, 100)
    for i in range(1, steps + 1):
        move(trouble, 432 + 4 * i, 100)
        qtbot.wait(30)  # a slow drag: longer than the debounce in total, never quiet long enough
    release(trouble, 432 + 4 * steps, 100)
    assert trouble.document.get("shelf").origin == Vec2(544, 64)
    assert [trouble.undo_stack.text(i) for i in range(trouble.undo_stack.count())] == ["Move box"]
    assert len(calls.log) == 0
    qtbot.waitUntil(lambda: trouble.checks.result_for(trouble.document.level) is not None, timeout=WAIT)
    assert trouble.checks.runs == runs + 1
    assert len(calls.log) == 1 and calls.all_off_the_gui()
    assert calls.levels == [trouble.document.level]


def test_fifty_merged_moves_pushed_in_a_loop_run_no_validation_synchronously(trouble, qtbot, monkeypatch, tmp_path):
    wait_checked(qtbot, trouble)
    calls = Recorder(monkeypatch, tmp_path)
    gesture = new_gesture()
    start = trouble.document.get("shelf")
    for i in range(1, 51):
        old = trouble.document.get("shelf")
        trouble.context.push(ChangeObjectsCommand(trouble.document, [old], [start.moved(i, 0)], "Move box", gesture))
        assert len(calls.log) == 0
    assert trouble.undo_stack.count() == 1
    qtbot.waitUntil(lambda: trouble.checks.result_for(trouble.document.level) is not None, timeout=WAIT)
    assert len(calls.log) == 1 and calls.all_off_the_gui()


def test_an_edit_during_a_check_discards_its_result_and_checks_again(trouble, qtbot, monkeypatch, tmp_path):
    wait_checked(qtbot, trouble)
    calls = Recorder(monkeypatch, tmp_path, delay=0.4)
    shown = []
    trouble.checks.problems_ready.connect(lambda problems: shown.append(trouble.document.level))
    drag(trouble, (432, 140), (496, 140))
    qtbot.waitUntil(lambda: len(calls.log) == 1, timeout=WAIT)
    checked_first = calls.levels[0]
    # the spawn leaves the box while the first check is still running
    drag(trouble, (96, 96), (96, 304))
    qtbot.waitUntil(lambda: trouble.checks.result_for(trouble.document.level) is not None, timeout=WAIT)
    assert calls.levels[-1] == trouble.document.level != checked_first
    assert checked_first not in shown
    assert not any(p.is_error for p in trouble.problems_dock.model.problems())


def test_saving_a_level_with_errors_writes_it_with_hulls_and_says_so(trouble, qtbot, tmp_path):
    target = tmp_path / "trouble.json"
    trouble.ask_save_path = lambda: str(target)
    key(trouble, Qt.Key_S, Qt.ControlModifier)
    assert target.exists()
    assert not trouble.isWindowModified()
    assert load_level(target) == trouble.document.level
    saved = json.loads(target.read_text())
    assert saved["hulls"] == level_hulls(trouble.document.level)
    assert set(saved["hulls"]) == {"crate", "wall-a", "wall-b", "shelf", "level"}
    assert trouble.statusBar().currentMessage() == "Saved with 1 error – see Problems"
    # the dock shows the results of the save at once, without waiting for the background check
    assert rows(trouble)[0][:2] == ("Error", "player")
    assert trouble.problems_dock.windowTitle() == "Problems (1 error, 1 warning)"


def test_saving_after_the_background_check_builds_no_outlines_again(trouble, qtbot, tmp_path, monkeypatch):
    wait_checked(qtbot, trouble)
    built = []
    real = runner_module.level_outlines
    monkeypatch.setattr(runner_module, "level_outlines", lambda level: built.append(level) or real(level))
    calls = Recorder(monkeypatch, tmp_path)
    target = tmp_path / "trouble.json"
    trouble.ask_save_path = lambda: str(target)
    key(trouble, Qt.Key_S, Qt.ControlModifier)
    assert built == [] and len(calls.log) == 0
    assert json.loads(target.read_text())["hulls"] == level_hulls(trouble.document.level)


def test_saving_a_clean_level_just_says_saved(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, Level(player=Player(spawn=(0, 0)), objects=(Pillar("p", (100, 0), 10),)))
    target = tmp_path / "clean.json"
    window.ask_save_path = lambda: str(target)
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert json.loads(target.read_text())["hulls"]["p"]["circle"] == {"center": [100.0, 0.0], "radius": 10.0}
    assert window.statusBar().currentMessage() == f"Saved {target}"
    assert window.problems_dock.windowTitle() == "Problems (0 errors, 0 warnings)"


def test_the_hull_toggle_draws_the_hulls_and_follows_edits(trouble, qtbot):
    wait_checked(qtbot, trouble)
    before = trouble.canvas.viewport().grab().toImage()
    assert not trouble.hulls_item.isVisible()
    key(trouble, Qt.Key_H)
    assert trouble.show_hulls_action.isChecked() and trouble.hulls_item.isVisible()
    qtbot.waitUntil(lambda: trouble.hulls_item.hulls == level_hulls(trouble.document.level), timeout=WAIT)
    assert trouble.hulls_item.object_ids() == ["crate", "wall-a", "wall-b", "shelf"]
    qtbot.waitUntil(lambda: trouble.canvas.viewport().grab().toImage() != before)  # the hulls drawn
    # the shelf's bounding box is drawn in the hulls' blue, one pixel outside the box's own edge
    drag(trouble, (432, 140), (496, 140))
    assert trouble.document.get("shelf").origin == Vec2(480, 64)
    qtbot.waitUntil(lambda: trouble.hulls_item.hulls.get("shelf", {}).get("aabb") == [480.0, 64.0, 512.0, 224.0],
                    timeout=WAIT)
    assert trouble.hulls_item.hulls == level_hulls(trouble.document.level)
    key(trouble, Qt.Key_H)
    assert not trouble.show_hulls_action.isChecked() and not trouble.hulls_item.isVisible()
    assert "Show &Hulls" in [a.text() for a in trouble.menuBar().actions()[2].menu().actions()]


def test_hulls_skip_objects_too_small_to_see(trouble, qtbot, monkeypatch):
    key(trouble, Qt.Key_H)
    qtbot.waitUntil(lambda: bool(trouble.hulls_item.hulls), timeout=WAIT)
    everywhere = QRectF(-1e4, -1e4, 2e4, 2e4)
    assert len(trouble.hulls_item.drawn_objects(everywhere, 1.0)) == 4
    assert len(trouble.hulls_item.drawn_objects(everywhere, 0.01)) == 0
    assert trouble.hulls_item.drawn_objects(QRectF(400, 0, 100, 300), 1.0).tolist() == [3]
    # of very many, only the largest are drawn
    monkeypatch.setattr(hulls_item_module, "MAX_DRAWN", 2)
    assert trouble.hulls_item.drawn_objects(everywhere, 1.0).tolist() == [1, 2]


def test_opening_another_level_clears_the_problems_and_checks_it(trouble, qtbot, tmp_path):
    wait_checked(qtbot, trouble)
    click_row(trouble, 0)
    trouble.set_level(Level(player=Player(spawn=(0, 0)), objects=(Box("b", (100, 100), (10, 10)),)))
    assert trouble.problems_dock.model.rowCount() == 0
    assert trouble.problems_dock.windowTitle() == "Problems"
    assert not trouble.problems_dock.marker.isVisible()
    wait_checked(qtbot, trouble)
    assert [r[:2] for r in rows(trouble)] == [("Info", "-")]
