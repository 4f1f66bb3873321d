"""A function run beside the caller, in a child process forked from it, its answer collected without waiting
(the editor's window polls it) or waited for (``level-editor render`` draws while its level is checked).

The background check of a 100,000-object level takes seconds of CPU. On a thread it shares Python's one
interpreter lock with the GUI thread: while it ran, every frame of a zoom or a pan and the release of a drag
took up to twice as long, and its working set (the outlines: a few hundred MB) sat in the editor's memory.
A forked child sees the level exactly as it is (the caller's memory, copied by the system only where either
side writes), runs on another core, sends back only its answer (pickled, through a pipe) and hands its memory
back to the system when it ends. Stopping it is a kill: no answer is waited for. ``render`` forks its check
before it loads Qt, so the check's NumPy and shapely load on one core while Qt loads and draws on the other.

The child runs only the function given, on immutable values, and leaves with ``os._exit``: it never returns
into Qt, never runs the caller's exit handlers, and dies with the caller (``PR_SET_PDEATHSIG``). Where a
fork is not available or not safe for a GUI process (Windows; macOS, whose system frameworks refuse to run
in a forked child), :func:`start` runs the function on a thread instead, with the same interface.

It is pure standard library, at the bottom of core beside the collision library: the editor and the command line
share it.

>>> call = start(lambda stop: sum(range(10)))
>>> while not call.done():
...     pass
>>> call.result()
45
"""
from __future__ import annotations

import errno
import gc
import os
import pickle
import signal
import sys
import threading
import traceback
import warnings
from typing import Any, Callable

#: Children are forked on Linux; elsewhere the work runs on a thread.
FORK = sys.platform.startswith("linux") and hasattr(os, "fork")

#: Descriptors above the answer's pipe closed in the child (the system's own limit, where it says one).
_MAX_FD = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1 << 16

#: How much of the answer one look at the pipe reads at most (the rest waits for the next look).
READ_CHUNK = 1 << 20

Work = Callable[[Callable[[], bool]], Any]  # called with ``stop``: True once the answer is no longer wanted


class BackgroundError(RuntimeError):
    """The work failed in the child process: its error, in words, and the child's traceback."""

    def __init__(self, message: str, details: str = ""):
        super().__init__(message)
        self.details = details


#: How much a child gives way to other work for a core (``os.nice``): the window's, and the designer's.
NICE = 10


def start(work: Work, nice: int = NICE) -> "ForkedCall | ThreadCall":
    """Run ``work(stop)`` in a forked child at ``nice`` (a thread where there is no fork); see the module notes."""
    return ForkedCall(work, nice) if FORK else ThreadCall(work)


class ThreadCall:
    """``work`` on a thread of its own; :meth:`stop` makes its ``stop()`` say True (it ends at its next step)."""

    def __init__(self, work: Work):
        self._stopped = False
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(work,), name="background-call", daemon=True)
        self._thread.start()

    def _run(self, work: Work) -> None:
        try:
            self._value = work(lambda: self._stopped)
        except BaseException as error:  # noqa: BLE001 - raised again by result(), in the caller's thread
            self._error = error

    def done(self) -> bool:
        return not self._thread.is_alive()

    def result(self) -> Any:
        """The work's return value (its exception is raised again); only once :meth:`done`."""
        if self._thread.is_alive():
            raise RuntimeError("the background work has not finished")
        if self._error is not None:
            raise self._error
        return self._value

    def wait(self) -> Any:
        """Wait for the work to finish; its :meth:`result`."""
        self._thread.join()
        return self.result()

    def stop(self) -> None:
        self._stopped = True


class ForkedCall:
    """``work`` in a forked child process; its pickled answer is read from a pipe by :meth:`done`."""

    def __init__(self, work: Work, nice: int = NICE):
        reap()
        read_end, write_end = os.pipe()
        # nothing may be half-written in Python's own buffers when the memory is copied (or it is written twice)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):  # no console (None), or one already closed
                pass
        parent = os.getpid()
        with warnings.catch_warnings():
            # Python 3.12+ warns that a fork of a process with threads may deadlock in the child on a lock
            # another thread held. The child takes none of them: it runs pure Python and NumPy/shapely code
            # on immutable values (no Qt, no logging, no file worker, which is never busy when a check starts)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read_end)
            _run_child(work, write_end, parent, nice)
        os.close(write_end)
        os.set_blocking(read_end, False)
        self.pid = pid
        self._pipe: int | None = read_end
        self._chunks: list[bytes] = []
        self._answer: tuple | None = None

    def done(self) -> bool:
        """Whether the answer is all here (reads what the child has sent so far; never waits)."""
        while self._pipe is not None:
            try:
                chunk = os.read(self._pipe, READ_CHUNK)
            except BlockingIOError:
                return False
            except OSError as error:  # the pipe broke: the answer is what arrived
                self._end(error)
                break
            if not chunk:
                self._end(None)
                break
            self._chunks.append(chunk)
        return True

    def _end(self, error: OSError | None) -> None:
        os.close(self._pipe)
        self._pipe = None
        status = _wait(self.pid)
        data, self._chunks = b"".join(self._chunks), []
        try:
            self._answer = pickle.loads(data)
        except Exception:  # noqa: BLE001 - a child killed halfway leaves no whole answer
            self._answer = ("error", _death(status, error), "")

    def result(self) -> Any:
        """The work's return value; :class:`BackgroundError` when it raised or its process died. Only once done."""
        if self._answer is None:
            raise RuntimeError("the background work has not finished")
        kind, value, details = self._answer
        if kind == "error":
            raise BackgroundError(value, details)
        return value

    def wait(self) -> Any:
        """Wait for the child's whole answer; its :meth:`result`."""
        if self._pipe is not None:
            os.set_blocking(self._pipe, True)
        self.done()
        return self.result()

    def stop(self) -> None:
        """The answer is no longer wanted: the child is killed (and reaped soon after)."""
        if self._pipe is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.close(self._pipe)
        self._pipe = None
        self._chunks = []
        self._answer = ("error", "stopped", "")
        _zombies.append(self.pid)
        reap()


def _run_child(work: Work, pipe: int, parent: int, nice: int) -> None:
    """In the forked child: run ``work``, write its pickled answer to ``pipe`` and leave, whatever happens."""
    code = 0
    try:
        _die_with_parent(parent)
        # none of the editor's files stay open here (a lock on one lasts while any process holds it)
        os.closerange(3, pipe)
        os.closerange(pipe + 1, _MAX_FD)
        # background work gives way to the window (and to everything else the designer runs) for a core
        try:
            os.nice(nice)
        except OSError:
            pass
        # the editor's objects are never collected here: a collection would walk (and so copy) all their memory
        gc.freeze()
        try:
            answer = ("ok", work(lambda: False), "")
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as error:  # noqa: BLE001 - everything goes back to the editor, in words
            text = str(error).strip().splitlines()[0] if str(error).strip() else ""
            answer = ("error", f"{type(error).__name__}: {text}" if text else type(error).__name__,
                      traceback.format_exc())
            data = pickle.dumps(answer)
        view = memoryview(data)
        while view:
            view = view[os.write(pipe, view):]
    except BaseException:  # noqa: BLE001 - the editor went away (broken pipe) or the answer could not be sent
        code = 1
    finally:
        os._exit(code)


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this child when the editor (process ``parent``) ends, however it ends (no orphan left).

    Linux sends the signal when the thread that forked ends: calls are started from the GUI thread, which
    lives as long as the editor.
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the editor ended before the request was made
        os._exit(1)


#: Children killed but not yet reaped.
_zombies: list[int] = []
_zombies_lock = threading.Lock()


def _wait(pid: int) -> int:
    """The exit status of child ``pid``, once it has ended (it has closed its pipe: it is ending)."""
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return 0


def reap() -> tuple[int, ...]:
    """Collect the exit of stopped children that have ended, without waiting; the pids of those still dying.

    A stopped child is killed, and stays a zombie (an entry in the system's process table) until its exit is
    collected. :meth:`ForkedCall.stop` and every new call collect what they can; a caller may too.
    """
    with _zombies_lock:
        for pid in list(_zombies):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                _zombies.remove(pid)
        return tuple(_zombies)


def _death(status: int, error: OSError | None) -> str:
    """In words, why a child sent no whole answer."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        hint = " (out of memory?)" if number == signal.SIGKILL else ""
        return f"the background process was ended by {name}{hint}"
    if error is not None and error.errno != errno.EPIPE:
        return f"the background process's answer could not be read ({error.strerror})"
    return "the background process ended without an answer"
