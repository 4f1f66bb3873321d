"""Driving real editor windows with real mouse and key events.

``QTest.mouseMove`` does not carry held buttons on every Qt version, so moves
are sent as ``QMouseEvent(MouseMove)`` with their buttons; presses and
releases go through QTest. Positions are given in level (scene) units and
mapped to the canvas's viewport.
"""
from __future__ import annotations

import os
import pickle
import threading
import time

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall
from level_editor.core.work import background_call
from level_editor.editor.documents.files import DISCARD
from level_editor.editor.window.main_window import MainWindow


def sample_level() -> Level:
    """A small level with one object of each kind, well apart, on a 16 unit grid."""
    return Level(
        name="Sample",
        grid=16,
        player=Player(spawn=(48, 48), radius=12),
        objects=(
            Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8, False),
            Box("box-1", (240, 80), (64, 32)),
            OrientedBox("obox-1", (400, 240), (40, 10), 0),
            Pillar("pillar-1", (240, 320), 16),
        ),
    )


def make_window(qtbot, tmp_path, level: Level | None = None, name: str = "settings.ini") -> MainWindow:
    """A shown main window with its own settings file, never blocked by a question or error box.

    ``window.errors`` records what :meth:`MainWindow.show_error` would have shown.
    """
    settings = QSettings(str(tmp_path / name), QSettings.IniFormat)
    window = MainWindow(settings=settings)
    window.errors = []
    window.questions = []

    def ask():
        window.questions.append("unsaved")
        return DISCARD

    window.ask_unsaved_changes = ask
    window.show_error = lambda title, text, details="": window.errors.append((title, text, details))
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    if level is not None:
        window.set_level(level)
    # one level unit per screen pixel, the level's origin near the top left of the canvas
    window.canvas.set_zoom(1.0)
    view = window.canvas.viewport().rect()
    window.canvas.centerOn(QPointF(view.width() / 2 - 40, view.height() / 2 - 40))
    QApplication.processEvents()
    return window


@pytest.fixture
def window(qtbot, tmp_path):
    return make_window(qtbot, tmp_path, sample_level())


def at(window, x: float, y: float) -> QPoint:
    """The viewport pixel showing level point ``(x, y)``."""
    return window.canvas.mapFromScene(QPointF(x, y))


def press(window, x, y, button=Qt.LeftButton, modifiers=Qt.NoModifier):
    QTest.mousePress(window.canvas.viewport(), button, modifiers, at(window, x, y))


def release(window, x, y, button=Qt.LeftButton, modifiers=Qt.NoModifier):
    QTest.mouseRelease(window.canvas.viewport(), button, modifiers, at(window, x, y))


def move_to_pixel(window, pixel: QPoint, buttons=Qt.LeftButton, modifiers=Qt.NoModifier):
    viewport = window.canvas.viewport()
    local = QPointF(pixel)
    event = QMouseEvent(QEvent.MouseMove, local, QPointF(viewport.mapToGlobal(pixel)), Qt.NoButton,
                        buttons, modifiers)
    QApplication.sendEvent(viewport, event)


def move(window, x, y, buttons=Qt.LeftButton, modifiers=Qt.NoModifier):
    move_to_pixel(window, at(window, x, y), buttons, modifiers)


def hover(window, x, y, modifiers=Qt.NoModifier):
    move(window, x, y, Qt.NoButton, modifiers)


def click(window, x, y, modifiers=Qt.NoModifier):
    hover(window, x, y, modifiers)
    QTest.mouseClick(window.canvas.viewport(), Qt.LeftButton, modifiers, at(window, x, y))


def drag(window, start, end, modifiers=Qt.NoModifier, steps=6, button=Qt.LeftButton):
    """Press at ``start``, move in ``steps`` to ``end`` and release there (level units)."""
    (x0, y0), (x1, y1) = start, end
    hover(window, x0, y0, modifiers)
    press(window, x0, y0, button, modifiers)
    for i in range(1, steps + 1):
        t = i / steps
        move(window, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, button, modifiers)
    release(window, x1, y1, button, modifiers)


def key(window, k, modifiers=Qt.NoModifier, widget=None):
    """A key press on ``widget`` (the canvas by default), as the keyboard would send it."""
    target = widget if widget is not None else window.canvas
    target.setFocus()
    QTest.keyClick(target, k, modifiers)


def undo_texts(window) -> list[str]:
    """The labels of the undo steps of ``window`` (or of anything with an ``undo_stack``: an editor context)."""
    stack = window.undo_stack
    return [stack.text(i) for i in range(stack.count())]


class CallLog:
    """Calls recorded from any thread or process: the background check runs in a child forked from the editor.

    Each call appends one pickled record to a file in one write (O_APPEND), so the test, on the GUI
    thread, reads what every process recorded. ``off_the_gui`` says the call ran on another thread or in
    another process than the test's GUI thread.
    """

    def __init__(self, path):
        self.path = str(path)
        self._gui_pid = os.getpid()
        open(self.path, "wb").close()

    def record(self, value=None) -> None:
        off = os.getpid() != self._gui_pid or threading.current_thread() is not threading.main_thread()
        data = pickle.dumps((off, value))
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, len(data).to_bytes(8, "little") + data)
        finally:
            os.close(fd)

    def entries(self) -> list[tuple[bool, object]]:
        """``(off_the_gui, value)`` of every call so far, in order."""
        with open(self.path, "rb") as file:
            data = file.read()
        out, at = [], 0
        while at + 8 <= len(data):
            size = int.from_bytes(data[at:at + 8], "little")
            out.append(pickle.loads(data[at + 8:at + 8 + size]))
            at += 8 + size
        return out

    def values(self) -> list:
        return [value for _, value in self.entries()]

    def __len__(self) -> int:
        return len(self.entries())


def timer_periods_pass(qtbot, interval_ms: int, periods: int) -> None:
    """Serve events until a timer of ``interval_ms`` has fired ``periods`` times.

    For "nothing more happens" checks: any other timer of that interval still running (one that should have
    stopped) came due meanwhile too, however slow the machine, and was served.
    """
    from PySide6.QtCore import QTimer

    fired = []
    timer = QTimer()
    timer.setTimerType(Qt.PreciseTimer)
    timer.setInterval(interval_ms)
    timer.timeout.connect(lambda: fired.append(1))
    timer.start()
    try:
        qtbot.waitUntil(lambda: len(fired) >= periods, timeout=60_000)
    finally:
        timer.stop()


def timeouts_pass(qtbot, timer, count: int) -> None:
    """Serve events until ``timer`` (running) has timed out ``count`` more times; its own slots ran before."""
    fired = []
    timer.timeout.connect(lambda: fired.append(1))  # after the slots connected before: they have run by then
    qtbot.waitUntil(lambda: len(fired) >= count, timeout=60_000)


class WindowAnswers:
    """Slow work beside the window that goes on only once the window has answered a timer ``ticks`` times meanwhile.

    :meth:`wrap` makes a stand-in for the work (a write, an export): wherever it runs, it notes whether that is
    the GUI thread, then waits until a 10 ms timer of the GUI thread has ticked ``ticks`` times since the work
    began, then does the work. Work that held the GUI thread would leave no tick to come: the stand-in gives up
    after :data:`tests.waiting.HANG_SECONDS` (a bound on the wait only) and :attr:`seen` says so. Use it as a
    ``with`` block around what starts the work (the timer runs inside it)::

        answers = WindowAnswers()
        monkeypatch.setattr(files, "write_blocks_atomic", answers.wrap(files.write_blocks_atomic))
        with answers:
            assert window.save()
        assert answers.seen == WindowAnswers.BESIDE
        assert answers.busy == [True] * answers.ticks  # long_task.busy at every tick: the window said so
    """

    #: What :attr:`seen` holds when the work ran beside an answering window.
    BESIDE = {"on the GUI thread": False, "the window answered meanwhile": True}

    def __init__(self, ticks: int = 10):
        from PySide6.QtCore import QTimer

        from level_editor.editor.work import long_task

        self.ticks = ticks
        self.seen: dict = {}
        #: ``long_task.busy`` at each tick that came while the work waited.
        self.busy: list[bool] = []
        self._working, self._answered = threading.Event(), threading.Event()
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(lambda: self._tick(long_task.busy))

    def _tick(self, busy: bool) -> None:
        if self._working.is_set() and not self._answered.is_set():
            self.busy.append(busy)
            if len(self.busy) == self.ticks:
                self._answered.set()

    def wrap(self, work):
        from tests.waiting import HANG_SECONDS

        def stand_in(*args, **kwargs):
            self.seen["on the GUI thread"] = threading.current_thread() is threading.main_thread()
            self._working.set()
            self.seen["the window answered meanwhile"] = self._answered.wait(HANG_SECONDS)
            return work(*args, **kwargs)

        return stand_in

    def __enter__(self) -> "WindowAnswers":
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.stop()


def finished(call, timeout: float = 10.0):
    """A call beside the window (level_editor.core.work.background_call) once done (its pipe read as it fills, as the window's
    poll does)."""
    end = time.monotonic() + timeout
    while not call.done():
        assert time.monotonic() < end, "the background work did not finish"
        time.sleep(0.005)
    return call


def gone(pid: int, timeout: float = 5.0) -> bool:
    """Whether process ``pid`` has ended and been reaped (by us or by whoever adopted it)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        background_call.reap()
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.01)
    return False


def drawn_in_order(scene, *ids: str) -> bool:
    """Whether the items of the objects ``ids`` are drawn in this order, bottom first: Qt's own stacking order of
    the scene's items (layers, then the file's order inside each)."""
    order = {item: place for place, item in enumerate(scene.items(Qt.AscendingOrder))}
    places = [order[scene.item(i)] for i in ids]
    return places == sorted(places)
