"""Long work (reading a big level, a save's check, hulls and writing) off the GUI thread, with progress shown.

:func:`run_with_progress` hands a function to one worker thread and waits for it in a local event
loop, so the window keeps repainting and answering while a big level is read or written. The worker
is shared by every window and runs one task at a time, so saves stay in the order they were asked
for. The function must not touch Qt objects: it gets immutable values (a :class:`~level_editor.core.level.model.Level`
is one) and returns a result; its exception is raised again on the GUI thread.

While a task runs, mouse and keys are dropped everywhere in the application (nothing may change the
document while it is being saved). After :data:`SHOW_AFTER_MS` the window's status bar says what is
going on, with a moving bar, and the cursor turns busy: the designer sees why the window does not take
edits.

A task that can stop (a Tiled map's import: ``cancellable``) is given a ``stop`` callable to ask now and
then. Its progress then shows a Cancel button, and Esc cancels it too; closing the window (or Ctrl+Q)
cancels it and closes the window once it has stopped. A cancelled task's result is dropped and
:class:`Cancelled` raised: the caller leaves the document as it was.

Why not a modal progress dialog: the worker runs Python too, and every event the GUI thread handles in
Python waits for the interpreter behind it. Showing and hiding a modal dialog sends each of the window's
~170 widgets a "blocked", an "unblocked" and a "deactivated" event, each through the input filter, and
at 100,000 objects that burst froze the window for 60-100 ms while a level was read.
"""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
import gc
import sys
from typing import Any, Callable, Optional

from PySide6.QtCore import QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtGui import QCursor, QKeySequence
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QMainWindow, QProgressBar, QPushButton, QWidget

from level_editor.core.level.collector import paused_collector
from level_editor.editor.work import bulk

#: A task taking longer than this shows its progress in the status bar.
SHOW_AFTER_MS = 250
#: How often the GUI thread looks whether the task is done.
POLL_MS = 15
#: Python's thread switch interval while a task runs (its default, 5 ms, lets a busy worker keep the GUI
#: thread waiting for the interpreter at every step it takes).
GUI_SWITCH_SECONDS = 0.00005
#: A task done within this many seconds never runs the event loop (a small level opens and saves as before,
#: with no timers or events handled in the middle of it). Short: the window answers nothing meanwhile.
QUICK_SECONDS = 0.02

_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="level-file")

#: What the designer does with mouse and keys: dropped while a task runs, so the document cannot change.
_INPUT = frozenset({
    QEvent.MouseButtonPress, QEvent.MouseButtonRelease, QEvent.MouseButtonDblClick, QEvent.MouseMove,
    QEvent.KeyPress, QEvent.KeyRelease, QEvent.Wheel, QEvent.Shortcut, QEvent.ShortcutOverride, QEvent.Drop,
    QEvent.DragEnter, QEvent.DragMove, QEvent.ContextMenu, QEvent.TabletPress, QEvent.TouchBegin,
})


#: Mouse events that reach a task's Cancel button.
_CLICKS = frozenset({QEvent.MouseButtonPress, QEvent.MouseButtonRelease, QEvent.MouseMove})


class Cancelled(Exception):
    """The designer cancelled the task (its Cancel, Esc, or closing the window): what it made is dropped."""


class _Task:
    """The task under way: whether it can stop, whether it was asked to, and the window to close once it has."""

    def __init__(self, parent: QWidget | None, cancellable: bool):
        self.cancellable = cancellable
        self.cancelled = False
        self.window = parent.window() if parent is not None else None
        self.close_window: Optional[QWidget] = None
        self.cancel_button: Optional[QPushButton] = None

    def stop(self) -> bool:
        """What the task asks on the worker: True once it is to stop."""
        return self.cancelled

    def over_cancel(self, watched, event) -> bool:
        """Whether the mouse ``event`` sent to ``watched`` is for the Cancel button (it goes through)."""
        button = self.cancel_button
        if button is None or not button.isVisible():
            return False
        if watched is button:
            return True
        if watched is not button.window().windowHandle():
            return False
        if event.type() == QEvent.MouseButtonRelease and button.isDown():
            return True  # the release of a press on it, wherever it is
        return button.rect().contains(button.mapFrom(button.window(), event.position().toPoint()))


#: The task under way, None between tasks.
_task: Optional[_Task] = None


def cancel(close: QWidget | None = None) -> bool:
    """Stop the task under way if it can stop (its result is dropped), and once it has, close ``close`` (a window).

    Returns False when no task that can stop is under way (nothing is done).
    """
    task = _task
    if task is None or not task.cancellable:
        return False
    task.cancelled = True
    if close is not None:
        task.close_window = close
    if task.cancel_button is not None:
        task.cancel_button.setEnabled(False)
        task.cancel_button.setText("Cancelling…")
    return True


class _InputBlocker(QObject):
    """Drops input events everywhere in the application while a task runs, but the ways out of one that can stop:
    its Cancel button, Esc, and the Quit key (which closes the window once it has stopped)."""

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        try:
            kind = event.type()
            if kind not in _INPUT:
                return False
            task = _task
            if task is None or not task.cancellable:
                return True
            keys = kind in (QEvent.KeyPress, QEvent.ShortcutOverride)
            if keys and event.key() == Qt.Key_Escape:
                cancel()
            elif keys and _is_quit(event):
                cancel(close=task.window)
            elif kind in _CLICKS:
                return not task.over_cancel(watched, event)
            return True
        except Exception:  # noqa: BLE001 - a filter must never raise into Qt
            return False


#: The editor's Quit key (File > Quit), whatever the platform's own is.
QUIT_KEY = QKeySequence("Ctrl+Q")


def _is_quit(event) -> bool:
    """Whether the key ``event`` asks to quit (the editor's Quit key, or the platform's)."""
    return (event.matches(QKeySequence.Quit)
            or QKeySequence(event.keyCombination()).matches(QUIT_KEY) == QKeySequence.ExactMatch)


#: True while a task runs (a second save or a close asked meanwhile waits its turn or is refused).
busy = False


def run_with_progress(parent: QWidget | None, label: str, task: Callable[..., Any], cancellable: bool = False) -> Any:
    """Run ``task()`` on the file worker, keep the GUI alive meanwhile, and return its result (or raise its error).

    ``label`` says what is happening ("Saving castle.json…"). Input to ``parent``'s window is blocked
    until the task ends. A ``cancellable`` task is called as ``task(stop)``, and should end soon once ``stop()``
    says True; cancelled (its Cancel button, Esc, closing the window), :class:`Cancelled` is raised whatever it
    returned.
    """
    global busy, _task
    running = _Task(parent, cancellable)
    # the worker runs Python too: hand the interpreter back to the GUI thread more often meanwhile
    switch = sys.getswitchinterval()
    sys.setswitchinterval(min(switch, GUI_SWITCH_SECONDS))
    app = QApplication.instance()
    blocker = _InputBlocker()
    if app is not None:
        app.installEventFilter(blocker)
    busy = True
    # Everything made before the task is set aside from the cycle collector, and the collector waits
    # until the task ends: a task makes millions of objects at 100,000 level objects (a level being read),
    # and a pass over them, on whichever thread set it off, would hold the interpreter, and so the window,
    # for 0.1 s or more.
    gc.freeze()
    try:
        with paused_collector():
            try:
                # submitted with the collector off: a task that pauses it itself (a level's read) finds it off and
                # leaves it off (submitted first, the read could find it on and turn it on again as it ended)
                _task = running
                future: Future = _worker.submit(task, running.stop) if cancellable else _worker.submit(task)
                try:
                    future.exception(timeout=QUICK_SECONDS)
                except FuturesTimeout:
                    _wait(parent, label, future, running)
            finally:
                busy = False
                _task = None
                # What the task left alive (a level just read) is set aside too, so that no pass of the youngest
                # generation walks it when the collector resumes.
                gc.freeze()
                if not bulk.settled():
                    # A small level is open: the collector looks at everything again, in its oldest generation.
                    # (With a big level open, its objects stay aside: unfreezing would hand them all back, and
                    # the collector's next full pass would walk them, a save's freeze.)
                    gc.unfreeze()
    finally:
        sys.setswitchinterval(switch)
        if app is not None:
            app.removeEventFilter(blocker)
    if running.cancelled:
        if running.close_window is not None:  # closed while the task ran: now that it has stopped, it closes
            QTimer.singleShot(0, running.close_window, running.close_window.close)
        raise Cancelled(label)
    return future.result()


def _wait(parent: QWidget | None, label: str, future: Future, running: _Task) -> None:
    progress = _Progress(parent, label, running)
    show = QTimer()
    show.setSingleShot(True)
    show.timeout.connect(progress.show)
    show.start(SHOW_AFTER_MS)
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(POLL_MS)
    poll.timeout.connect(lambda: loop.quit() if future.done() else None)
    poll.start()
    try:
        if not future.done():
            loop.exec()
    finally:
        poll.stop()
        show.stop()
        progress.hide()


#: The object name of the status bar's progress of a long task (label and moving bar).
PROGRESS_NAME = "longTaskProgress"
#: The object name of its Cancel button (shown for a task that can stop).
CANCEL_NAME = "longTaskCancel"


class _Progress:
    """A task's progress as the designer sees it: its label and a moving bar over the left of the window's
    status bar, and a busy cursor.

    The bar lies over the status bar, in no layout: showing it moves nothing else. (Added to the status
    bar's layout, showing it while a 100,000-object level was read froze the window for 60-150 ms.) Made
    once per window and kept, hidden, between tasks.
    """

    def __init__(self, parent: QWidget | None, label: str, task: _Task) -> None:
        self._label = label
        self._task = task
        self._shown = False
        window = parent.window() if parent is not None else None
        self._bar = window.statusBar() if isinstance(window, QMainWindow) else None

    def _widget(self) -> QWidget:
        widget = self._bar.findChild(QWidget, PROGRESS_NAME, Qt.FindDirectChildrenOnly)
        if widget is None:
            widget = QWidget(self._bar)
            widget.setObjectName(PROGRESS_NAME)
            widget.setAutoFillBackground(True)  # over the status bar's message
            layout = QHBoxLayout(widget)
            layout.setContentsMargins(4, 0, 4, 0)
            layout.addWidget(QLabel(widget))
            moving = QProgressBar(widget)
            moving.setRange(0, 0)  # how long a read or a write takes is not known: the bar only moves
            moving.setTextVisible(False)
            moving.setFixedWidth(120)
            layout.addWidget(moving)
            button = QPushButton("Cancel", widget)
            button.setObjectName(CANCEL_NAME)
            button.setToolTip("Stop it (Esc): the open level stays as it was")
            button.setFocusPolicy(Qt.NoFocus)
            button.clicked.connect(lambda: cancel())
            layout.addWidget(button)
            layout.addStretch(1)
        return widget

    def show(self) -> None:
        if self._shown:
            return
        self._shown = True
        QApplication.setOverrideCursor(QCursor(Qt.BusyCursor))
        if self._bar is not None:
            widget = self._widget()
            widget.findChild(QLabel).setText(self._label)
            button = widget.findChild(QPushButton, CANCEL_NAME)
            button.setVisible(self._task.cancellable)
            button.setEnabled(not self._task.cancelled)
            button.setText("Cancelling…" if self._task.cancelled else "Cancel")
            self._task.cancel_button = button if self._task.cancellable else None
            widget.setGeometry(0, 0, self._bar.width(), self._bar.height())
            widget.raise_()
            widget.show()

    def hide(self) -> None:
        if not self._shown:
            return
        self._shown = False
        QApplication.restoreOverrideCursor()
        self._task.cancel_button = None
        if self._bar is not None:
            self._widget().hide()
