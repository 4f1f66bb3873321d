"""tests/waiting.py: a block that waits on a named pipe fails the test instead of hanging it."""
from __future__ import annotations

import os

import pytest

from tests.waiting import never_waits_on


def test_a_block_that_refuses_a_pipe_passes(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with never_waits_on(pipe):
        fd = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # never waits: there may be no writer
        os.close(fd)


@pytest.mark.parametrize("flags", [os.O_RDONLY, os.O_WRONLY], ids=["reader", "writer"])
def test_a_block_waiting_on_a_pipe_is_let_go_and_fails(tmp_path, flags):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(AssertionError, match="waited on the named pipe"):
        with never_waits_on(pipe, timeout=0.5):  # the open below waits for ever: the bound only ends the wait
            os.close(os.open(pipe, flags))
