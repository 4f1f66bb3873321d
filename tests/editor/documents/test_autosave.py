"""Autosave in a real main window: recovery copies while there are unsaved changes, gone on save and on close.

The interval is shortened with LEVEL_EDITOR_AUTOSAVE_SECONDS and the copies go
to a data folder of each test's own (LEVEL_EDITOR_DATA_DIR).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from level_editor.core.level import atomic
from level_editor.core.level.model import Pillar
from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.level.recovery import list_copies, load_recovery
from level_editor.editor.documents.autosave import (
    DEFAULT_INTERVAL,
    INTERVAL_ENV,
    INTERVAL_KEY,
    interval_seconds,
)
from level_editor.editor.commands.objects import AddObjectsCommand
from tests.editor.helpers import make_window, sample_level, timeouts_pass, timer_periods_pass

TICK = 0.2  # seconds between copies in these tests


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("LEVEL_EDITOR_DATA_DIR", str(folder))
    monkeypatch.setenv(INTERVAL_ENV, str(TICK))
    return folder


@pytest.fixture
def saved(tmp_path, data_dir, qtbot):
    """A window on a level saved in tmp_path/levels/castle.json, and the file's bytes."""
    path = tmp_path / "levels" / "castle.json"
    path.parent.mkdir()
    save_level(sample_level(), path)
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(path))
    return window, path, path.read_bytes()


def add_pillar(window, name="pillar-9", x=500.0):
    window.context.push(AddObjectsCommand(window.document, [Pillar(name, (x, 100), 10)]))


def recovery_files(data_dir: Path) -> list[str]:
    folder = data_dir / "recovery"
    return sorted(os.listdir(folder)) if folder.exists() else []


def test_a_copy_is_written_when_the_timer_fires_atomically_beside_not_over_the_level(saved, data_dir, qtbot,
                                                                                      monkeypatch):
    window, path, before = saved
    replaced = []
    real_replace = os.replace

    def spy(src, dst):
        replaced.append((str(src), str(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", spy)
    add_pillar(window)
    assert window.autosave.is_active()
    with qtbot.waitSignal(window.autosave.written, timeout=5000) as signal:
        pass
    copy_path = signal.args[0]
    assert os.path.dirname(copy_path) == str(data_dir / "recovery")
    (src, dst), = replaced  # written to a temporary file in the same folder, then swapped in
    assert dst == copy_path and os.path.dirname(src) == os.path.dirname(dst) and os.path.basename(src).startswith(".~")
    assert recovery_files(data_dir) == [os.path.basename(copy_path)]
    copy, = list_copies(str(data_dir / "recovery"))
    assert copy.original == str(path)
    assert load_recovery(copy) == window.document.level
    assert path.read_bytes() == before  # the designer's file is only written by Save
    assert window.isWindowModified()


def test_later_edits_reach_the_copy(saved, data_dir, qtbot):
    window, path, _ = saved
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000):
        pass
    add_pillar(window, "pillar-10", 600)
    with qtbot.waitSignal(window.autosave.written, timeout=5000):
        pass
    copy, = list_copies(str(data_dir / "recovery"))
    assert load_recovery(copy).objects[-1].id == "pillar-10"


def test_save_removes_the_copy_and_stops_the_timer(saved, data_dir, qtbot):
    window, path, _ = saved
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000):
        pass
    window.save_action.trigger()
    assert recovery_files(data_dir) == []
    assert not window.autosave.is_active()
    assert load_level(path) == window.document.level
    timer_periods_pass(qtbot, window.autosave.timer.interval(), 3)  # the timer would have fired meanwhile
    window.autosave.wait()  # and a write it started be done
    assert recovery_files(data_dir) == []


def test_undo_back_to_the_saved_level_removes_the_copy(saved, data_dir, qtbot):
    window, _, _ = saved
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000):
        pass
    window.undo_stack.undo()
    assert recovery_files(data_dir) == []


def test_a_clean_close_removes_the_copy(saved, data_dir, qtbot):
    window, path, before = saved
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000):
        pass
    assert recovery_files(data_dir)
    assert window.close()  # the unsaved-changes question is answered Discard
    assert window.questions == ["unsaved"]
    assert recovery_files(data_dir) == []
    assert path.read_bytes() == before


def test_a_close_during_a_write_leaves_no_copy(saved, data_dir, qtbot):
    window, _, _ = saved
    add_pillar(window)
    window.autosave.write_now(wait=False)  # a write in progress on the worker thread
    assert window.close()
    assert recovery_files(data_dir) == []


def test_an_unmodified_level_writes_nothing(saved, data_dir, qtbot):
    window, _, _ = saved
    written = []
    window.autosave.written.connect(written.append)
    timer_periods_pass(qtbot, window.autosave.timer.interval(), 4)  # the timer would have fired meanwhile
    window.autosave.wait()  # and a write it started be done
    assert not window.autosave.is_active()
    assert written == [] and recovery_files(data_dir) == []


def test_an_unchanged_level_is_not_written_again(saved, data_dir, qtbot):
    """Nothing that leaves the level as it is (a play-test runs on a copy of it) rewrites the copy."""
    window, _, _ = saved
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000) as signal:
        pass
    first = os.stat(signal.args[0])
    written = []
    window.autosave.written.connect(written.append)
    timeouts_pass(qtbot, window.autosave.timer, 4)
    window.autosave.wait()  # a write a tick started is done
    after = os.stat(signal.args[0])
    assert written == []
    assert after.st_ino == first.st_ino  # the same file, not a new one swapped in
    assert after.st_mtime >= first.st_mtime  # touched, so other editors see it is looked after


def test_a_level_never_saved_gets_an_untitled_copy(data_dir, tmp_path, qtbot):
    window = make_window(qtbot, tmp_path, sample_level())
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000) as signal:
        pass
    name = os.path.basename(signal.args[0])
    assert name == f"untitled.{window.autosave.session}.recovery.json"
    copy, = list_copies(str(data_dir / "recovery"))
    assert copy.original is None and load_recovery(copy) == window.document.level


def test_save_as_moves_on_to_the_new_name(data_dir, tmp_path, qtbot):
    window = make_window(qtbot, tmp_path, sample_level())
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000):
        pass
    target = tmp_path / "named.json"
    window.ask_save_path = lambda: str(target)
    assert window.save_as()
    assert recovery_files(data_dir) == []
    add_pillar(window, "pillar-11", 700)
    with qtbot.waitSignal(window.autosave.written, timeout=5000):
        pass
    copy, = list_copies(str(data_dir / "recovery"))
    assert copy.original == str(target) and os.path.basename(copy.path).startswith("named.")


def test_a_copy_that_cannot_be_written_says_so_in_the_status_bar(tmp_path, monkeypatch, qtbot):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("LEVEL_EDITOR_DATA_DIR", str(blocker))
    monkeypatch.setenv(INTERVAL_ENV, str(TICK))
    window = make_window(qtbot, tmp_path, sample_level())
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.failed, timeout=5000) as signal:
        pass
    assert signal.args[0].startswith("Recovery copy not written")
    assert "Recovery copy not written" in window.statusBar().currentMessage()
    assert window.errors == []  # no dialog every 30 seconds
    assert window.isWindowModified() and window.document.get("pillar-9") is not None


def test_the_interval_comes_from_the_preferences(tmp_path, monkeypatch):
    monkeypatch.delenv(INTERVAL_ENV, raising=False)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)
    assert interval_seconds(settings) == DEFAULT_INTERVAL == 30
    settings.setValue(INTERVAL_KEY, 120)
    assert interval_seconds(settings) == 120
    settings.setValue(INTERVAL_KEY, "nonsense")
    assert interval_seconds(settings) == 30
    settings.setValue(INTERVAL_KEY, 10 ** 9)
    assert interval_seconds(settings) == 3600
    monkeypatch.setenv(INTERVAL_ENV, "1.5")
    assert interval_seconds(settings) == 1.5


def test_preferences_set_the_interval_and_zero_turns_autosave_off(data_dir, tmp_path, qtbot, monkeypatch):
    monkeypatch.delenv(INTERVAL_ENV)
    from level_editor.editor.panels.preferences_dialog import PreferencesDialog

    window = make_window(qtbot, tmp_path, sample_level())
    add_pillar(window)
    assert window.autosave.is_active() and window.autosave.timer.interval() == 30_000
    shown = []

    def exec_(dialog):
        shown.append((dialog.windowTitle(), dialog.interval.value(), dialog.interval.specialValueText()))
        dialog.interval.setValue(5)
        dialog.accept()
        return 1

    monkeypatch.setattr(PreferencesDialog, "exec", exec_)
    edit_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.preferences_action in edit_menu.actions()
    window.preferences_action.trigger()
    assert shown == [("Preferences", 30, "Off")]
    assert window.settings.value(INTERVAL_KEY) in (5, "5")
    assert window.autosave.timer.interval() == 5_000 and window.autosave.is_active()

    window.autosave.write_now()
    assert recovery_files(data_dir)

    def turn_off(dialog):
        dialog.interval.setValue(0)
        assert dialog.interval.text() == "Off"
        dialog.accept()
        return 1

    monkeypatch.setattr(PreferencesDialog, "exec", turn_off)
    window.preferences_action.trigger()
    assert not window.autosave.is_active()
    assert recovery_files(data_dir) == []  # off means no copies are kept
    add_pillar(window, "pillar-12", 800)
    assert not window.autosave.is_active()


def test_cancel_in_the_preferences_changes_nothing(tmp_path, qtbot, monkeypatch):
    from level_editor.editor.panels.preferences_dialog import PreferencesDialog

    settings = QSettings(str(tmp_path / "p.ini"), QSettings.IniFormat)
    settings.setValue(INTERVAL_KEY, 45)
    dialog = PreferencesDialog(settings, recovery_folder=str(tmp_path / "rec"))
    qtbot.addWidget(dialog)
    assert dialog.interval.value() == 45
    assert dialog.findChild(type(dialog.interval), "autosaveInterval") is dialog.interval
    dialog.interval.setValue(90)
    dialog.reject()
    assert int(settings.value(INTERVAL_KEY)) == 45
    dialog.interval.setValue(90)
    dialog.accept()
    assert int(settings.value(INTERVAL_KEY)) == 90


def test_a_play_test_writes_nothing_new(saved, data_dir, qtbot):
    """The play-test never changes the level, so autosave only keeps touching the copy it has."""
    window, path, before = saved
    add_pillar(window)
    with qtbot.waitSignal(window.autosave.written, timeout=5000) as signal:
        pass
    first = os.stat(signal.args[0])
    level = window.document.level
    written = []
    window.autosave.written.connect(written.append)
    assert window.play_mode.play()
    timeouts_pass(qtbot, window.autosave.timer, 4)  # the player runs on its timer while autosave ticks
    qtbot.waitUntil(lambda: window.play_mode.session.tick_count > 0, timeout=60_000)
    window.play_mode.stop()
    timeouts_pass(qtbot, window.autosave.timer, 2)
    window.autosave.wait()  # a write a tick started is done
    assert written == []
    assert os.stat(signal.args[0]).st_ino == first.st_ino
    assert window.document.level is level and window.isWindowModified()
    assert path.read_bytes() == before
