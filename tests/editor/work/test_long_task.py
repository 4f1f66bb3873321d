"""Long work off the GUI thread (editor/work/long_task.py): what the designer sees, input, and the cycle collector.

A big level's objects and items are set aside from the collector (level_editor.editor.work.bulk.settle): a save or an open
must leave them aside, or the collector's next full pass walks millions of objects and freezes the window.
"""
from __future__ import annotations

import gc
import threading
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QPushButton, QWidget

from level_editor.editor.work import bulk, long_task
from tests.waiting import HANG_SECONDS


@pytest.fixture(autouse=True)
def collector_as_found():
    bulk.unsettle()
    gc.unfreeze()
    yield
    bulk.unsettle()
    gc.unfreeze()


@pytest.mark.parametrize("seconds", [0.0, 0.2], ids=["quick", "with the event loop"])
def test_a_task_leaves_a_big_level_s_objects_aside_from_the_collector(qtbot, seconds):
    level_objects = [[i] for i in range(20_000)]  # lists: objects the collector would walk
    bulk.settle()
    aside = gc.get_freeze_count()
    assert aside >= len(level_objects)

    def save():
        time.sleep(seconds)
        return [["written"]]

    assert long_task.run_with_progress(None, "Saving big.json…", save) == [["written"]]
    # still aside (less what the task's own frames, aside too, freed), and what the task left alive with them
    assert gc.get_freeze_count() >= len(level_objects)
    bulk.unsettle()  # a small level shown: the collector looks at everything again
    assert gc.get_freeze_count() == 0 and not bulk.settled()


def test_without_a_big_level_a_task_leaves_the_collector_as_it_was(qtbot):
    kept = [[i] for i in range(1_000)]
    assert long_task.run_with_progress(None, "Saving small.json…", lambda: len(kept)) == 1_000
    assert gc.get_freeze_count() == 0


def test_a_failed_task_leaves_a_big_level_s_objects_aside_too(qtbot):
    level_objects = [[i] for i in range(20_000)]
    bulk.settle()

    def fail():
        raise OSError("disk full")

    with pytest.raises(OSError):
        long_task.run_with_progress(None, "Saving big.json…", fail)
    assert gc.get_freeze_count() >= len(level_objects) and not long_task.busy


@pytest.fixture
def window(qtbot):
    window = QMainWindow()
    button = QPushButton("Delete")
    window.setCentralWidget(button)
    window.statusBar().showMessage("Ready")
    qtbot.addWidget(window)
    window.resize(600, 400)
    window.show()
    qtbot.waitExposed(window)
    return window


def _progress(window) -> QWidget | None:
    return window.statusBar().findChild(QWidget, long_task.PROGRESS_NAME)


def test_a_long_task_says_what_it_does_in_the_status_bar_with_a_busy_cursor(window):
    seen, shown = [], threading.Event()

    def look():
        progress = _progress(window)
        if progress is None or not progress.isVisible() or shown.is_set():
            return
        seen.append((progress.findChild(QLabel).text(),
                     QApplication.overrideCursor().shape() if QApplication.overrideCursor() else None))
        shown.set()

    watch = QTimer()
    watch.timeout.connect(look)
    watch.start(10)
    # the task lasts until its progress is on screen (were it never shown, it would give up waiting for it)
    assert long_task.run_with_progress(window, "Saving castle.json…", lambda: shown.wait(HANG_SECONDS) and 7) == 7
    watch.stop()
    assert seen == [("Saving castle.json…", Qt.BusyCursor)]
    assert not _progress(window).isVisible() and QApplication.overrideCursor() is None
    # over the status bar, in no layout: showing it moved nothing else in the window
    assert window.statusBar().layout().indexOf(_progress(window)) == -1


def test_a_quick_task_shows_nothing(window):
    assert long_task.run_with_progress(window, "Saving small.json…", lambda: 3) == 3
    progress = _progress(window)
    assert (progress is None or not progress.isVisible()) and QApplication.overrideCursor() is None


def test_clicks_and_keys_during_a_task_do_nothing_and_work_again_after_it(window):
    button = window.centralWidget()
    clicks, pressed = [], []
    button.clicked.connect(lambda: clicks.append(long_task.busy))
    both_done = threading.Event()

    def press():
        QTest.mouseClick(button, Qt.LeftButton)
        button.setFocus()
        QTest.keyClick(button, Qt.Key_Space)
        pressed.append(long_task.busy)
        if len(pressed) == 2:
            both_done.set()

    QTimer.singleShot(50, press)  # before the progress shows
    QTimer.singleShot(long_task.SHOW_AFTER_MS + 100, press)  # and while it shows
    # the task lasts until both have been pressed
    long_task.run_with_progress(window, "Saving castle.json…", lambda: both_done.wait(HANG_SECONDS))
    assert pressed == [True, True] and clicks == []  # both came while the task ran, and did nothing
    press()
    assert clicks == [False, False]


def test_no_collector_pass_walks_what_a_task_made(qtbot):
    # A level read on the worker pauses the collector as it makes its objects (level_editor.core.level.file_format), then
    # turns it on again: the next pass, set off on either thread, walked them all (0.1 s at 100,000 level
    # objects, right after the read). The collector now waits until the task ends, and what the task left
    # alive is then in its oldest generation, where only a full pass looks.
    def read():
        was_on = gc.isenabled()
        found_on.append(was_on)
        gc.disable()
        try:
            made = [[i] for i in range(50_000)]
        finally:
            if was_on:
                gc.enable()
        return made + [[i] for i in range(5_000)]  # objects made after the read's pause, as a load does

    def slow_read():
        time.sleep(0.1)
        return read()

    passes, found_on = [], []

    def record(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(record)
    try:
        for task in (read, slow_read):
            passes.clear()
            found_on.clear()
            made = long_task.run_with_progress(None, "Opening big.json…", task)
            # the task found the collector off, however soon the worker started it (found on, a read turns it
            # on again as it ends, and the pass comes anyway)
            assert found_on == [False] and passes == [] and gc.isenabled()
            assert gc.get_count()[0] < 100
            young = {id(o) for o in gc.get_objects(generation=0) + gc.get_objects(generation=1)}
            assert not any(id(o) in young for o in made[::1000])
    finally:
        gc.callbacks.remove(record)
