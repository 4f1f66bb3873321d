"""Long work (reading a big level, a save's check, hulls and writing) off the GUI thread, with progress shown.

:func:`run_with_progress` hands a function to one worker thread and waits for it in a local event
loop, so the window keeps repainting and answering while a big level is read or written. The worker
is shared by every window and runs one task at a time, so saves stay in the order they were asked
for. The function must not touch Qt objects: it gets immutable values (a :class:`~core.level.model.Level`
is one) and returns a result; its exception is raised again on the GUI thread.

After :data:`SHOW_AFTER_MS` a window-modal busy dialog says what is going on: the designer sees why
the window does not take edits (nothing may change the document while it is being saved).
"""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
import gc
import sys
from typing import Any, Callable

from PySide6.QtCore import QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

from editor import bulk

#: A task taking longer than this shows its progress dialog.
SHOW_AFTER_MS = 250
#: How often the GUI thread looks whether the task is done.
POLL_MS = 15
#: Python's thread switch interval while a task runs (its default, 5 ms, lets a busy worker keep the GUI
#: thread waiting for the interpreter at every step it takes).
GUI_SWITCH_SECONDS = 0.001
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


class _InputBlocker(QObject):
    """Drops input events everywhere in the application (before the busy dialog shows, and after)."""

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        try:
            return event.type() in _INPUT
        except Exception:  # noqa: BLE001 - a filter must never raise into Qt
            return False


#: True while a task runs (a second save or a close asked meanwhile waits its turn or is refused).
busy = False


def run_with_progress(parent: QWidget | None, label: str, task: Callable[[], Any]) -> Any:
    """Run ``task()`` on the file worker, keep the GUI alive meanwhile, and return its result (or raise its error).

    ``label`` says what is happening ("Saving castle.json…"). Input to ``parent``'s window is blocked
    until the task ends.
    """
    global busy
    # the worker runs Python too: hand the interpreter back to the GUI thread more often meanwhile
    switch = sys.getswitchinterval()
    sys.setswitchinterval(min(switch, GUI_SWITCH_SECONDS))
    future: Future = _worker.submit(task)
    app = QApplication.instance()
    blocker = _InputBlocker()
    if app is not None:
        app.installEventFilter(blocker)
    busy = True
    # Everything made before the task is set aside from the cycle collector meanwhile: a task makes and
    # drops many objects, and a full pass over the editor's heap (millions of objects at 100,000 level
    # objects) would hold the interpreter, and so the window, for a second or more.
    gc.freeze()
    try:
        try:
            future.exception(timeout=QUICK_SECONDS)
        except FuturesTimeout:
            _wait(parent, label, future)
    finally:
        busy = False
        if bulk.settled():
            # A big level's objects stay aside, and what the task left alive joins them: unfreezing would
            # hand them all back, and the collector's next full pass would walk them (a save's freeze).
            gc.freeze()
        else:
            gc.unfreeze()
        sys.setswitchinterval(switch)
        if app is not None:
            app.removeEventFilter(blocker)
    return future.result()


def _wait(parent: QWidget | None, label: str, future: Future) -> None:
    dialog = QProgressDialog(label, "", 0, 0, parent)
    dialog.setObjectName("longTaskProgress")
    dialog.setWindowTitle(label.rstrip("…."))
    dialog.setCancelButton(None)  # a half-done save cannot be taken back; the write is atomic anyway
    dialog.setWindowModality(Qt.WindowModal)
    dialog.setMinimumDuration(SHOW_AFTER_MS)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(POLL_MS)
    poll.timeout.connect(lambda: loop.quit() if future.done() else None)
    poll.start()
    # a window-modal dialog blocks the window's input as soon as it exists, before it shows
    dialog.setValue(0)
    try:
        if not future.done():
            loop.exec()
    finally:
        poll.stop()
        dialog.reset()
        dialog.hide()
        dialog.deleteLater()
