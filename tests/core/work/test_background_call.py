"""Waiting for work run beside the caller (level_editor.core.work.background_call): ``render`` checks its level this
way while it draws. The editor's polling of the same calls is tested in tests/editor/work/."""
from __future__ import annotations

import os

import pytest

from level_editor.core.work import background_call
from level_editor.core.work.background_call import BackgroundError, ForkedCall, ThreadCall


def _fail(stop):
    raise ValueError("the level has no layer 'ground'")


@pytest.mark.skipif(not background_call.FORK, reason="children are forked on Linux only")
def test_wait_returns_the_answer_of_a_forked_child_even_one_larger_than_the_pipe():
    answer = [os.urandom(64) for _ in range(20_000)]  # 1.3 MB: many pipe-fulls
    call = background_call.start(lambda stop: (os.getpid(), answer), nice=0)
    assert isinstance(call, ForkedCall)
    pid, value = call.wait()
    assert pid == call.pid != os.getpid() and value == answer
    call.stop()  # harmless once the answer is in
    assert call.result() == (pid, answer)


@pytest.mark.skipif(not background_call.FORK, reason="children are forked on Linux only")
def test_wait_raises_what_went_wrong_in_the_child_in_words():
    call = background_call.start(_fail, nice=0)
    with pytest.raises(BackgroundError, match="ValueError: the level has no layer 'ground'") as caught:
        call.wait()
    assert "Traceback" in caught.value.details


def test_on_a_thread_wait_returns_the_answer_and_raises_the_error_itself():
    call = ThreadCall(lambda stop: sum(range(1000)))
    assert call.wait() == 499500 and call.done()
    with pytest.raises(ValueError, match="no layer 'ground'"):
        ThreadCall(_fail).wait()


def test_a_thread_call_stopped_sees_stop_and_its_result_waits_for_done():
    started = []

    def work(stop):
        started.append(True)
        while not stop():
            pass
        return "stopped"

    call = ThreadCall(work)
    call.stop()
    assert call.wait() == "stopped" and started == [True]
