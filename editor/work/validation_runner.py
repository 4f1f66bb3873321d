"""ValidationRunner: validation and hulls of the open level, off the GUI thread, a moment after each edit.

Validation of 10,000 objects takes about a quarter of a second and of 100,000
several seconds, so it never runs while the designer drags or types: every
document change restarts a short timer (:data:`DELAY_MS`), and when it fires
the level as it is then (an immutable :class:`~level_editor.core.level.model.Level`, so the
check can read it while the document moves on) is checked in a child process
(:mod:`level_editor.core.work.background_call`: it takes neither the window's interpreter nor
its memory). Its outlines are built once and shared by validation and, when
someone shows them, the hulls; only the problems and hulls come back. The GUI
thread collects the answer with a short poll while a check is running and
announces it through Qt signals, but only when it is still about the level
that is open: a check of a level that has since changed is stopped or its
answer dropped, and the newer level is checked next.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from level_editor.core.checks.check import CheckResult, add_hulls, add_problems, check_level, level_hulls_only
from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.core.level.model import Level
from level_editor.core.work import background_call
from level_editor.editor.work import long_task
from level_editor.editor.support.subscriptions import subscribe_while_alive
from level_editor.editor.support.guard import guarded

#: Quiet time after the last edit before the level is checked, in milliseconds.
DELAY_MS = 400

#: How often the GUI thread looks for a finished check while one runs, in milliseconds.
POLL_MS = 25

#: A save of a level with more objects than this writes its hulls without validating it first; the
#: problems follow from the background check, from the outlines the save built (validation of
#: 100,000 objects takes seconds, and the file does not need it).
SAVE_CHECKS_UP_TO = 10_000


class ValidationRunner(QObject):
    """Checks the document's level in the background, debounced; see the module notes.

    ``problems_ready`` and ``hulls_ready`` are emitted on the GUI thread with
    results for the level that is open at that moment. ``current`` holds the
    latest such result (``None`` until the first one arrives).
    """

    problems_ready = Signal(object)  # tuple of Problem
    hulls_ready = Signal(object)  # dict, as in a saved file's "hulls"
    #: True while a check is waiting or running, False when the shown results are up to date.
    busy_changed = Signal(bool)
    #: A check began, of this level (the open one, or one about to be opened: :meth:`check_ahead`).
    started = Signal(object)

    def __init__(self, document: LevelDocument, parent: QObject | None = None, delay_ms: int = DELAY_MS,
                 folder: Callable[[], str | None] = lambda: None):
        super().__init__(parent)
        self._doc = document
        #: The open level file's folder (None before its first save): reference pictures are looked for there.
        self._folder = folder
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)
        self._call: background_call.ForkedCall | background_call.ThreadCall | None = None
        # the level being checked, its pictures' folder, and its hulls when the editor has them (a save's)
        self._checking: tuple[Level, str | None, dict | None] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.run_now)
        self._generation = 0
        self._running: int | None = None  # generation being checked, if any
        self._hulls_wanted = False
        self._busy = False
        self._closed = False
        self.current: CheckResult | None = None
        self._saved: CheckResult | None = None  # a save's unvalidated result, for the next check
        #: How many checks were started (for tests and the curious).
        self.runs = 0
        subscribe_while_alive(document, self, self._on_document_changed)
        self.schedule()

    # -- what to compute -----------------------------------------------------------
    @property
    def hulls_wanted(self) -> bool:
        return self._hulls_wanted

    def set_hulls_wanted(self, wanted: bool) -> None:
        """Also compute hulls from now on; when switched on, hulls for the open level come soon."""
        self._hulls_wanted = wanted
        if not wanted:
            return
        cur = self.current
        if cur is not None and cur.level is self._doc.level and cur.hulls is not None:
            self.hulls_ready.emit(cur.hulls)
        elif not self._timer.isActive():
            self.run_now()

    def result_for(self, level: Level) -> CheckResult | None:
        """The latest result if it is about exactly ``level``, its pictures looked for in the file's folder now."""
        cur = self.current
        return cur if cur is not None and cur.level is level and cur.base_dir == self._folder() else None

    def complete(self, level: Level) -> CheckResult:
        """Problems and hulls of ``level`` now (for a save), reusing what the latest check built for it.

        Runs on the calling thread: the outlines are built once, or not at all
        when the background check already has them.
        """
        cur = self.result_for(level)
        return check_level(level, with_hulls=True, base_dir=self._folder()) if cur is None else add_hulls(cur)

    def completion(self, level: Level) -> Callable[[], CheckResult]:
        """What a save needs of ``level``, as a function a worker thread may run (the save is off the GUI thread).

        The hulls always; the problems too unless the level has more than :data:`SAVE_CHECKS_UP_TO`
        objects and no check of it is done yet (then ``problems`` is None: hand the result to
        :meth:`validate_saved`). Whatever it needs from this runner is read now, on the GUI thread.
        """
        cur = self.result_for(level)
        if cur is not None:
            return lambda: add_hulls(cur)
        folder = self._folder()
        if len(level.objects) > SAVE_CHECKS_UP_TO:
            self._drop_running()
            self.schedule()  # checked again once the save (or export) is done with the machine
            return lambda: level_hulls_only(level, base_dir=folder)
        return lambda: check_level(level, with_hulls=True, base_dir=folder)

    def _drop_running(self) -> None:
        """Stop a running check: a save of a large level wants the machine (or the window is closing).

        The save builds what it needs itself, and the problems are found afterwards (:meth:`validate_saved`).
        """
        if self._call is not None:
            self._call.stop()
        self._call = self._checking = self._running = None
        self._poll.stop()

    def validate_saved(self, result: CheckResult) -> None:
        """Validate the level a save wrote without validating it (``problems`` None), from the save's outlines, now."""
        if self._closed or result.level is not self._doc.level:
            return
        self._saved = result
        if self._running is None:
            self.run_now()

    # -- scheduling ----------------------------------------------------------------
    def _on_document_changed(self, change: Change) -> None:
        self._generation += 1
        if change.kind is ChangeKind.RESET:
            self.current = None
            if self._checking is not None and self._checking[0] is self._doc.level:
                self._running = self._generation  # begun ahead of the reset, for this very level: it goes on
                return
        # the running check is about a level that is gone: stopped now, not left to use the machine
        self._drop_running()
        self.schedule()

    @guarded("checking the level")
    def check_ahead(self, level: Level, folder: str | None) -> None:
        """Begin checking ``level`` now, the document being about to be reset to it (a big level opening), with
        pictures looked for in ``folder`` (the folder of the file it was read from).

        Its process is forked with the picture of the level (level_editor.editor.canvas.picture_ahead), before the window
        makes the level's items: forked once the level is open, it made the window copy every page of memory
        it wrote to next (a fork shares them until then), 55-120 ms of the first frames after an open.
        """
        if self._closed:
            return
        self._drop_running()
        self._timer.stop()
        self._start(level, folder)

    def _start(self, level: Level, folder: str | None) -> None:
        """Check ``level`` in a child process, pictures looked for in ``folder``, its answer collected by the poll."""
        with_hulls = self._hulls_wanted
        self._running = self._generation
        self.runs += 1
        self._set_busy(True)
        saved, self._saved = self._saved, None
        known_hulls = None
        if saved is not None and saved.level is level:
            # the save's outlines (and hulls) of this very level: only the problems are left to find, with
            # pictures looked for beside the file as it is now (a first save gives the level its folder);
            # the hulls stay here (sent back, 100,000 objects' hulls took 50-100 ms to unpickle)
            saved = replace(saved, base_dir=folder)
            known_hulls = saved.hulls
            self._call = background_call.start(lambda stop: _answer(add_problems(saved), with_hulls=False))
        else:
            self._call = background_call.start(lambda stop: _answer(check_level(level, with_hulls, folder, stop)))
        self._checking = (level, folder, known_hulls)
        self._poll.start()
        self.started.emit(level)

    def schedule(self) -> None:
        """Check the level :data:`DELAY_MS` after the last call (each call restarts the wait)."""
        if self._closed:
            return
        self._timer.start()
        self._set_busy(True)

    @guarded("checking the level")
    def run_now(self) -> None:
        """Start a check of the open level now, unless one is running (then it reruns when that ends)."""
        self._timer.stop()
        if self._closed or self._running is not None:
            return
        if long_task.busy:  # a save (or an open) is under way: leave it the machine, check when it is done
            self._timer.start()
            return
        cur = self.current
        if cur is not None and cur.level is self._doc.level and (cur.hulls is not None or not self._hulls_wanted):
            self._set_busy(False)
            return
        self._start(self._doc.level, self._folder())

    @guarded("checking the level")
    def _collect(self) -> None:
        call = self._call
        # not while a file task runs on the worker: taking the answer (unpickling it, showing its problems and
        # hulls) would wait for the interpreter behind the worker at every step; the poll comes back
        if call is None or long_task.busy or not call.done():
            return
        self._poll.stop()
        (level, folder, known_hulls), self._call, self._checking = self._checking, None, None
        generation, self._running = self._running, None
        if self._closed:
            return
        try:
            answer = call.result()
        except background_call.BackgroundError:
            self._set_busy(False)  # no result is coming; the next edit checks again
            raise  # told to the designer by the guard, in words
        result = None
        if answer is not None:
            problems, hulls = answer
            result = CheckResult(level, problems, hulls if known_hulls is None else known_hulls, outlines=None,
                                 base_dir=folder)
        if result is not None and generation == self._generation and result.level is self._doc.level:
            self.accept(result)
        elif not self._timer.isActive():
            self.run_now()  # the level changed while we checked: check the new one

    def accept(self, result: CheckResult) -> None:
        """Take results computed elsewhere (a save) if they are about the open level, and show them."""
        if result.level is not self._doc.level:
            return
        if result.hulls is None and self.current is not None and self.current.level is result.level:
            result = replace(result, hulls=self.current.hulls)
        if result.outlines is not None:
            # the outlines (shapely geometry of every object: ~300 MB at 100,000 objects) are not kept once
            # the problems are found: a save's hulls come from the objects themselves (add_hulls)
            result = replace(result, outlines=None)
        self.current = result
        self.problems_ready.emit(result.problems)
        if result.hulls is not None:
            self.hulls_ready.emit(result.hulls)
        if self._running is None and not self._timer.isActive():
            self._set_busy(self._hulls_wanted and result.hulls is None)
            if self._busy:
                self.run_now()

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)

    @property
    def busy(self) -> bool:
        return self._busy

    def close(self) -> None:
        """Stop checking: pending checks are dropped and no more results are emitted."""
        if self._closed:
            return
        self._closed = True
        self._timer.stop()
        self._drop_running()
        try:
            self._doc.unsubscribe(self._on_document_changed)
        except ValueError:
            pass


def _answer(result: CheckResult | None, with_hulls: bool = True) -> tuple | None:
    """What a background check sends back: its problems and hulls (the level and outlines stay where they are;
    ``with_hulls`` False: the hulls too, the editor has them)."""
    return None if result is None else (result.problems, result.hulls if with_hulls else None)
