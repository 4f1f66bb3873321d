"""Long work off the GUI thread (editor/long_task.py) and Python's cycle collector.

A big level's objects and items are set aside from the collector (editor.bulk.settle): a save or an open
must leave them aside, or the collector's next full pass walks millions of objects and freezes the window.
"""
from __future__ import annotations

import gc
import time

import pytest

from editor import bulk, long_task


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
