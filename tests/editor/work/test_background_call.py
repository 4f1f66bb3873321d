"""Work run beside the window: in a forked child process on Linux, on a thread elsewhere (level_editor.core.work.background_call)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer

import level_editor.core.work.background_call as background_call
from level_editor.editor.work import long_task
from level_editor.core.level.model import Box, Level, Player
from level_editor.core.work.background_call import BackgroundError, ForkedCall, ThreadCall
from tests.editor.helpers import finished, gone, make_window
from tests.waiting import HANG_SECONDS, until

pytestmark = pytest.mark.skipif(not background_call.FORK, reason="children are forked on Linux only")


def test_the_work_runs_in_another_process_at_a_lower_priority_and_its_answer_comes_back():
    parent = os.getpid()
    call = background_call.start(lambda stop: (os.getpid(), stop(), [1.5, "two", (3,)], os.nice(0)))
    assert isinstance(call, ForkedCall)
    pid, stopped, value, niceness = finished(call).result()
    assert pid == call.pid != parent and stopped is False and value == [1.5, "two", (3,)]
    assert niceness == min(os.nice(0) + 10, 19)  # it gives way to the window for a core
    assert gone(call.pid)
    # work the window waits for (a level's picture as it opens) keeps the window's priority
    assert finished(background_call.start(lambda stop: os.nice(0), nice=0)).result() == os.nice(0)


def test_a_change_made_in_the_child_stays_in_the_child():
    seen = {"level": "before"}

    def work(stop):
        seen["level"] = "changed in the child"
        return seen["level"]

    assert finished(background_call.start(work)).result() == "changed in the child"
    assert seen == {"level": "before"}


def test_an_answer_larger_than_the_pipe_is_read_in_pieces_without_waiting():
    answer = bytes(range(256)) * (40 * 4096)  # 40 MB: hundreds of pipe-fulls
    call = background_call.start(lambda stop: answer)
    looks, longest = 0, 0.0
    while True:
        t = time.perf_counter()
        done = call.done()
        longest = max(longest, time.perf_counter() - t)
        looks += 1
        if done:
            break
        time.sleep(0.002)
    assert call.result() == answer
    assert looks > 2  # the answer arrived over several looks, none of which waited for the child
    assert gone(call.pid)


def test_an_error_in_the_work_comes_back_in_words_with_the_childs_traceback():
    def work(stop):
        raise ValueError("wall-3 has no nodes")

    call = finished(background_call.start(work))
    with pytest.raises(BackgroundError, match=r"^ValueError: wall-3 has no nodes$") as raised:
        call.result()
    assert "Traceback" in raised.value.details and "in work" in raised.value.details


def test_an_answer_that_cannot_be_sent_is_an_error_that_says_so():
    call = finished(background_call.start(lambda stop: (lambda: None)))
    with pytest.raises(BackgroundError, match="PicklingError|AttributeError|Can't pickle"):
        call.result()


def test_a_child_that_dies_is_an_error_naming_how():
    call = finished(background_call.start(lambda stop: os.kill(os.getpid(), signal.SIGKILL)))
    with pytest.raises(BackgroundError, match="ended by SIGKILL"):
        call.result()


def _never_ending(began: Path):
    """Work that says it has begun and then never ends by itself (only a signal ends it)."""
    def work(stop):
        began.touch()
        while True:
            signal.pause()
    return work


def test_stop_kills_the_child_at_once_and_leaves_no_zombie(tmp_path):
    began = tmp_path / "began"
    call = background_call.start(_never_ending(began))
    until(began.exists, "the work began")
    # stop does not wait for the work, which would wait for ever: were it waiting, the watchdog would end the
    # child after a generous while (a bound on the hang only) and the test fail
    watchdog = threading.Timer(HANG_SECONDS, lambda: waited.append(os.kill(call.pid, signal.SIGKILL)))
    waited: list = []
    watchdog.start()
    try:
        call.stop()
    finally:
        watchdog.cancel()
    assert waited == []
    assert call.done()
    with pytest.raises(BackgroundError, match="stopped"):
        call.result()
    assert gone(call.pid)
    assert call.pid not in background_call.reap()


def test_the_child_dies_with_the_editor():
    script = textwrap.dedent("""
        import os, sys, time
        from level_editor.core.work.background_call import start
        call = start(lambda stop: time.sleep(60))
        print(call.pid, flush=True)
        os._exit(0)  # the editor ends without stopping its check
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30,
                          cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
    pid = int(done.stdout.split()[0])
    assert gone(pid)


def test_without_fork_the_work_runs_on_a_thread_and_stop_is_asked_for(monkeypatch):
    import threading

    monkeypatch.setattr(background_call, "FORK", False)
    call = background_call.start(lambda stop: (os.getpid(), threading.current_thread() is threading.main_thread()))
    assert isinstance(call, ThreadCall)
    assert finished(call).result() == (os.getpid(), False)

    release = threading.Event()
    asked = []

    def work(stop):
        release.wait(5)
        asked.append(stop())
        return "done"

    call = background_call.start(work)
    call.stop()
    release.set()
    assert finished(call).result() == "done" and asked == [True]


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "thread"])
def test_the_windows_check_shows_its_problems_either_way(qtbot, tmp_path, monkeypatch, fork):
    monkeypatch.setattr(background_call, "FORK", fork)
    level = Level(player=Player(spawn=(96, 96), radius=12), objects=(Box("crate", (80, 80), (64, 48)),))
    window = make_window(qtbot, tmp_path, level)
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None, timeout=10_000)
    problems = window.checks.current.problems
    assert any(p.is_error and p.object_id == "player" for p in problems)
    assert window.problems_dock.windowTitle().startswith("Problems (1 error")


def test_the_child_holds_none_of_the_editors_files(tmp_path):
    import fcntl

    path = tmp_path / ".~level.json.tmp"
    fd = os.open(path, os.O_CREAT | os.O_WRONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a save holds its temporary file
    began = tmp_path / "began"
    call = background_call.start(_never_ending(began))
    try:
        until(began.exists, "the work began")  # the child has closed what it does not need before its work
        os.close(fd)  # the save is done with it: the lock must go, though the child still runs
        other = os.open(path, os.O_WRONLY)
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(other)
    finally:
        call.stop()


def test_a_check_whose_process_dies_is_told_in_words_and_the_next_edit_checks_again(qtbot, tmp_path, monkeypatch):
    import level_editor.editor.work.validation_runner as runner_module
    from level_editor.editor.support import error_reporter, guard

    level = Level(player=Player(spawn=(96, 96), radius=12), objects=(Box("crate", (80, 80), (64, 48)),))
    window = make_window(qtbot, tmp_path, level)
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None, timeout=10_000)
    monkeypatch.setattr(error_reporter, "DIALOG_INTERVAL", 0.0)  # a dialog would not be held back
    error_reporter.install(window)
    try:
        real = runner_module.check_level
        # as the system's out-of-memory killer would end it
        monkeypatch.setattr(runner_module, "check_level", lambda *a: os.kill(os.getpid(), signal.SIGKILL))
        window.select_all()
        qtbot.keyClick(window.canvas.viewport(), Qt.Key_Right)  # an edit: the arrow nudges the selection
        qtbot.waitUntil(lambda: "ended by SIGKILL" in window.statusBar().currentMessage(), timeout=10_000)
        assert window.statusBar().currentMessage().startswith("Checking the level failed")
        assert not window.checks.busy and window.errors == []  # told in the status bar, no dialog
        monkeypatch.setattr(runner_module, "check_level", real)
        qtbot.keyClick(window.canvas.viewport(), Qt.Key_Left)
        qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None, timeout=10_000)
    finally:
        guard.set_error_handler(None)


def _exited(pid: int) -> bool:
    """Whether process ``pid`` (a child of this one) has ended: a zombie until reaped, or gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(") ", 1)[1].startswith("Z")
    except FileNotFoundError:
        return True


def test_a_finished_check_waits_until_a_file_task_ends_to_be_shown(qtbot, tmp_path, monkeypatch):
    # taking the answer (unpickling it, showing its problems and hulls) beside a save's worker waited for the
    # interpreter at every step: at 100,000 objects it froze the window for 0.1-0.2 s during an export
    import level_editor.editor.work.validation_runner as runner_module

    level = Level(player=Player(spawn=(96, 96), radius=12), objects=(Box("crate", (80, 80), (64, 48)),))
    window = make_window(qtbot, tmp_path, level)
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None and not window.checks.busy,
                    timeout=10_000)
    checked, real = tmp_path / "checked", runner_module.check_level

    def check_and_say_so(*args):  # in the check's process: its pid, once its answer is all but sent
        result = real(*args)
        (tmp_path / "checked.tmp").write_text(str(os.getpid()))
        os.replace(tmp_path / "checked.tmp", checked)
        return result

    monkeypatch.setattr(runner_module, "check_level", check_and_say_so)
    window.select_all()
    qtbot.keyClick(window.canvas.viewport(), Qt.Key_Right)  # an edit: the level is checked again
    window.checks.run_now()
    assert window.checks.busy
    # the task lasts until the check's process has ended (its whole answer waiting in the pipe) and the window
    # has then run a 10 ms timer ten times (the runner looks for answers every 25 ms): then it looks
    seen, looked, ticks = [], threading.Event(), []

    def look():
        if looked.is_set() or not (checked.exists() and _exited(int(checked.read_text()))):
            return
        ticks.append(1)
        if len(ticks) == 10:
            seen.append(window.checks.result_for(window.document.level))
            looked.set()

    watch = QTimer()
    watch.timeout.connect(look)
    watch.start(10)
    try:
        assert long_task.run_with_progress(window, "Saving level.json…",
                                           lambda: looked.wait(HANG_SECONDS) and "written") == "written"
    finally:
        watch.stop()
    assert seen == [None]  # not taken while the task ran
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None, timeout=15_000)


def test_a_big_level_s_check_begins_before_its_items_are_made_and_goes_on_through_the_open(qtbot, tmp_path,
                                                                                          monkeypatch):
    # forked once the level was open, the check made the window copy every page it next wrote to (a fork
    # shares them until then): 50-90 ms of the first frames after an open at 100,000 objects
    import level_editor.editor.canvas.slices as slices_module
    from tests.editor.canvas.test_scene_prepare import big_level

    monkeypatch.setattr(slices_module, "PREPARE_AT", 10)  # a "big" level: its items made ahead
    window = make_window(qtbot, tmp_path, Level(objects=(Box("crate", (80, 80), (64, 48)),)))
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None and not window.checks.busy,
                    timeout=10_000)
    level = big_level(60)
    started = []
    window.checks.started.connect(lambda lv: started.append((lv is level, window.document.level is level)))
    window.set_level(level, str(tmp_path / "big.json"))
    qtbot.waitUntil(lambda: window.checks.result_for(window.document.level) is not None, timeout=10_000)
    # one check, of the new level, begun while the document still held the last one, and its answer taken
    assert started == [(True, False)] and window.checks.current.level is level
