"""Files: save and reopen, the unsaved-changes question, broken files, failed saves, drops, run()."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from level_editor.core.level.file_format import load_level
from level_editor.core.level.pictures import pictures_moved
from level_editor.core.collision.shapes import Vec2
from level_editor.editor.documents.files import CANCEL, DISCARD, SAVE
from level_editor.editor.window.main_window import MainWindow
from tests.editor.helpers import CallLog, drag, key, make_window, sample_level, window  # noqa: F401

LEVELS = Path(__file__).resolve().parents[3] / "levels"


def answer(window, reply):
    asked = []

    def ask():
        asked.append(True)
        return reply

    window.ask_unsaved_changes = ask
    return asked


def test_save_as_then_reopen_gives_the_same_level(window, tmp_path, qtbot):
    target = tmp_path / "saved.json"
    drag(window, (270, 95), (302, 127))
    window.ask_save_path = lambda: str(target)
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert target.exists()
    assert not window.isWindowModified()
    assert window.windowTitle().startswith("saved.json[*]")
    assert load_level(target) == window.document.level
    reopened = make_window(qtbot, tmp_path, name="reopen.ini")
    assert reopened.open_file(str(target))
    assert reopened.document.level == window.document.level
    assert reopened.document.get("box-1").origin == Vec2(272, 112)


def test_every_sample_level_opens_and_saves_back_equal(window, tmp_path):
    for source in sorted(LEVELS.glob("*.json")):
        assert window.open_file(str(source)), window.errors
        target = tmp_path / source.name
        window.ask_save_path = lambda t=target: str(t)
        assert window.save_as()
        # saved in another folder, its pictures are named from there (the same pictures)
        assert load_level(target) == pictures_moved(load_level(source), str(LEVELS), str(tmp_path))
        assert load_level(target) == window.document.level
        assert len(window.scene.object_items()) == len(window.document)


def test_save_writes_to_the_open_file_without_asking(window, tmp_path):
    path = tmp_path / "room.json"
    shutil.copy(LEVELS / "room_with_door.json", path)
    window.open_file(str(path))
    window.ask_save_path = lambda: pytest.fail("Save must not ask for a name")
    key(window, Qt.Key_A, Qt.ControlModifier)
    key(window, Qt.Key_Delete)
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert load_level(path).objects == ()


@pytest.mark.parametrize("how", ["close", "new", "open"])
def test_cancel_keeps_the_changed_document(window, tmp_path, how):
    drag(window, (270, 95), (302, 127))
    asked = answer(window, CANCEL)
    window.ask_open_path = lambda: str(LEVELS / "maze.json")
    if how == "close":
        window.close()
        assert window.isVisible()
    elif how == "new":
        key(window, Qt.Key_N, Qt.ControlModifier)
    else:
        key(window, Qt.Key_O, Qt.ControlModifier)
    assert asked == [True]
    assert window.document.get("box-1").origin == Vec2(272, 112)
    assert window.isWindowModified()
    assert window.undo_stack.count() == 1


def test_discard_drops_the_changes(window):
    drag(window, (270, 95), (302, 127))
    asked = answer(window, DISCARD)
    key(window, Qt.Key_N, Qt.ControlModifier)
    assert asked == [True]
    assert len(window.document) == 0 and window.undo_stack.count() == 0
    assert window.windowTitle().startswith("Untitled")


def test_save_answer_saves_before_opening_another_level(window, tmp_path):
    target = tmp_path / "first.json"
    drag(window, (270, 95), (302, 127))
    answer(window, SAVE)
    window.ask_save_path = lambda: str(target)
    assert window.open_file(str(LEVELS / "maze.json"))
    assert load_level(target).object_by_id("box-1").origin == Vec2(272, 112)
    assert window.document.level == load_level(LEVELS / "maze.json")


def test_unchanged_level_is_dropped_without_asking(window):
    asked = answer(window, CANCEL)
    assert window.new_level()
    assert asked == []


def test_a_broken_file_shows_its_problems_and_keeps_the_document(window, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "level-editor.level", "version": 1, "player": {"spawn": [0, 0], "radius": -1},'
                      ' "objects": [{"id": "b", "kind": "box", "origin": [0, 0], "size": [0, 5]}]}')
    drag(window, (270, 95), (302, 127))
    before = window.document.level
    answer(window, DISCARD)
    assert not window.open_file(str(broken))
    assert window.document.level is before
    assert window.isWindowModified() and window.undo_stack.count() == 1
    (title, text, details), = window.errors
    assert "broken.json" in text
    assert "radius must be greater than 0" in details and "b: size[0] must be greater than 0" in details


def test_not_json_reports_line_and_column(window, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "format": oops\n}')
    assert not window.open_file(str(bad))
    (title, text, details), = window.errors
    assert text.startswith(f"{bad} could not be opened: is not valid JSON") and "line 2, column 13" in text
    assert details == "The level that was open is still open."  # said once, not twice
    assert len(window.document) == 4


def test_a_failed_save_says_why_and_keeps_the_unsaved_mark(window, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    drag(window, (270, 95), (302, 127))
    window.ask_save_path = lambda: str(blocker / "level.json")
    assert not window.save()
    (title, text, _), = window.errors
    assert text == "level.json could not be saved: Not a directory."
    assert window.isWindowModified()
    assert window.path is None
    assert window.document.get("box-1").origin == Vec2(272, 112)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can write into read-only folders")
def test_a_read_only_folder_fails_the_save(window, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        drag(window, (270, 95), (302, 127))
        window.ask_save_path = lambda: str(folder / "level.json")
        assert not window.save()
        assert window.isWindowModified() and window.errors
    finally:
        folder.chmod(0o700)


def _drop(window, path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    pos = QPointF(window.canvas.geometry().center())
    enter = QDragEnterEvent(pos.toPoint(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(window, enter)
    accepted = enter.isAccepted()
    if accepted:
        QApplication.sendEvent(window, QDropEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    return accepted


def test_dropping_a_level_file_opens_it_after_asking(window):
    drag(window, (270, 95), (302, 127))
    asked = answer(window, CANCEL)
    assert _drop(window, LEVELS / "maze.json")
    assert asked == [True] and window.document.get("box-1") is not None
    answer(window, DISCARD)
    assert _drop(window, LEVELS / "maze.json")
    assert window.document.level == load_level(LEVELS / "maze.json")
    assert window.path == str(LEVELS / "maze.json")


def test_dropping_something_else_is_refused(window, tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("not a level, not a picture")
    assert not _drop(window, other)
    assert len(window.document) == 4


def test_recent_files_remember_opened_levels(window):
    window.open_file(str(LEVELS / "maze.json"))
    window.open_file(str(LEVELS / "showcase.json"))
    assert window.recent_files()[:2] == [str(LEVELS / "showcase.json"), str(LEVELS / "maze.json")]
    window.recent_menu.aboutToShow.emit()  # as the menu opens
    entries = [a.text() for a in window.recent_menu.actions()]
    assert entries[:2] == ["&1 showcase.json", "&2 maze.json"]
    window.recent_menu.actions()[1].trigger()
    assert window.path == str(LEVELS / "maze.json")


def test_run_with_a_new_path_saves_there_without_asking(qtbot, tmp_path, monkeypatch):
    from level_editor.editor import app

    target = tmp_path / "brand-new.json"
    seen = {}

    def drive():
        window = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
                      and w.path == str(target))
        window.ask_save_path = lambda: pytest.fail("Save must not ask for a name")
        seen["title"] = window.windowTitle()
        seen["empty"] = len(window.document)
        window.canvas.setFocus()
        window.save_action.trigger()
        seen["saved"] = target.exists()
        window.close()

    monkeypatch.setattr(MainWindow, "ask_unsaved_changes", lambda self: DISCARD)
    QTimer.singleShot(200, drive)
    assert app.run(str(target)) == 0
    assert seen == {"title": "brand-new.json[*] — Level Editor", "empty": 0, "saved": True}
    assert load_level(target).name == "brand-new"


def test_a_large_level_is_saved_with_hulls_before_it_is_validated_and_its_problems_follow(qtbot, tmp_path,
                                                                                          monkeypatch):
    import json

    import level_editor.core.checks.check as check_module
    import level_editor.editor.work.validation_runner as runner_module
    from level_editor.core.checks.hulls import level_hulls
    from level_editor.core.level.model import Box, Level, Player, Wall
    from level_editor.core.work import background_call

    monkeypatch.setattr(runner_module, "SAVE_CHECKS_UP_TO", 2)  # "large": more than two objects
    level = Level(player=Player(spawn=(96, 96), radius=12),
                  objects=(Box("crate", (80, 80), (64, 48)), Wall("wall-a", [(200, 40), (360, 200)], 8),
                           Wall("wall-b", [(200, 200), (360, 40)], 8)))
    window = make_window(qtbot, tmp_path, level)
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None and not window.checks.busy,
                    timeout=10_000)  # the check of the opened level is over
    # recorded wherever they run: the background check runs in a child process
    built, validated = CallLog(tmp_path / "built.log"), CallLog(tmp_path / "validated.log")
    real_outlines, real_validate = check_module.level_outlines, check_module.validate_level
    monkeypatch.setattr(check_module, "level_outlines",
                        lambda lv, **kw: built.record(lv) or real_outlines(lv, **kw))
    target = tmp_path / "large.json"
    # validation runs only once the file is written
    monkeypatch.setattr(check_module, "validate_level",
                        lambda *a: validated.record((a[0], target.exists())) or real_validate(*a))
    answers = CallLog(tmp_path / "answers.log")  # the hulls each check sends back (its answer: problems, hulls)
    real_start = background_call.start

    def start(work, *args, **kwargs):
        def answered(stop):
            out = work(stop)
            answers.record(out[1])
            return out
        return real_start(answered, *args, **kwargs)

    monkeypatch.setattr(background_call, "start", start)
    window.checks.current = None  # no background check of this level yet
    window.ask_save_path = lambda: str(target)
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert not window.isWindowModified()
    assert json.loads(target.read_text())["hulls"] == level_hulls(level)
    assert window.statusBar().currentMessage() == f"Saved {target}"
    # the save built no outlines (its hulls come straight from the objects); the background check built them once
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None, timeout=10_000)
    assert len(built) == 1 and validated.values() == [(window.document.level, True)]
    assert window.checks.current.hulls == level_hulls(level)
    # the check sent no hulls back: the editor has the save's (unpickling 100,000 objects' hulls took 0.1 s)
    assert answers.values() == [None] and window.hulls_item.hulls is window.checks.current.hulls
    problems = window.checks.current.problems
    assert any(p.is_error for p in problems) and {"player", "wall-a"} <= {p.object_id for p in problems}
    assert window.problems_dock.windowTitle().startswith("Problems (")
