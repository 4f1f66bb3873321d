"""Waiting in tests without betting on how fast a shared machine is (issue 22).

A test that checks that something "happens at once" checks what would make it wait instead: a named pipe that
nobody reads or writes, opened for reading or writing, blocks the caller until someone opens its other end.
:func:`never_waits_on` runs a block and fails if the block waited on such a pipe; the time it allows only bounds
that wait (a blocked call would otherwise hang the test), it is no speed requirement.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from typing import Callable

#: How long a block may run before a pipe it may be waiting on is let go (the test then fails). Generous: on a
#: loaded machine a refusal that never waits can still take seconds; a call that waits on a pipe waits for ever.
HANG_SECONDS = 60.0


@contextmanager
def never_waits_on(*pipes, timeout: float = HANG_SECONDS):
    """Run the ``with`` block; fail if it waited on one of the named ``pipes`` (nobody is at their other end).

    Were the block still running after ``timeout`` seconds, a watchdog opens each pipe from both ends, which
    frees a reader or a writer blocked in ``open`` (a reader then reads the end of the file, a writer's write
    fails), and the test fails instead of hanging.

    >>> import tempfile
    >>> pipe = os.path.join(tempfile.mkdtemp(), "pipe")
    >>> os.mkfifo(pipe)
    >>> with never_waits_on(pipe):
    ...     os.path.exists(pipe)
    True
    """
    done = threading.Event()
    let_go: list[str] = []

    def watchdog() -> None:
        if done.wait(timeout):
            return
        for path in pipes:
            try:
                os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK))
                let_go.append(str(path))
            except OSError:
                pass

    thread = threading.Thread(target=watchdog, name="pipe-watchdog", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
    assert not let_go, f"the block waited on the named pipe(s) {let_go} (let go after {timeout:.0f} s)"


def until(condition: Callable[[], object], what: str, timeout: float = HANG_SECONDS) -> None:
    """Poll ``condition()`` until it holds (outside Qt's event loop: files, processes); fail after ``timeout``.

    >>> until(lambda: True, "always")
    """
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"{what}: not within {timeout:.0f} s"
        time.sleep(0.01)
