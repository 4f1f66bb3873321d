"""The editor's Open with every hostile file of tests/core/test_hostile_files.py (issue 14 item 7).

A file that does not load shows one error box whose text is not empty and names the file, and the level that was
open stays open, unchanged and with its undo history; a file that loads opens. Nothing is reported by the guard at
Qt's boundary, and nothing blocks: a named pipe is refused without waiting on it (a watchdog would let it go).
"""
from __future__ import annotations

import contextlib
import os
import stat

from PySide6.QtCore import Qt

from level_editor.editor.support import guard
from tests.core.test_hostile_files import CORPUS, INVALID, LOADS, make_file
from tests.editor.helpers import click, key, make_window, sample_level, undo_texts
from tests.waiting import never_waits_on

def _open(window, path) -> bool:
    """``window.open_file(path, ask=False)``; a named pipe must be refused without waiting on it (tests/waiting.py)."""
    pipe = os.path.exists(path) and stat.S_ISFIFO(os.stat(path).st_mode)
    with never_waits_on(path) if pipe else contextlib.nullcontext():
        return window.open_file(str(path), ask=False)


def test_every_hostile_file_is_refused_in_words_or_opens(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, sample_level())
    window.play_mode.use_timer = False
    caught = []
    previous = guard.set_error_handler(lambda where, error, explicit: caught.append((where, repr(error))))
    try:
        # an edit, so the open level has history that a refused file must not lose
        click(window, 270, 95)
        key(window, Qt.Key_Right)
        assert window.undo_stack.count() == 1, undo_texts(window)
        failures = []
        for case in CORPUS:
            before_level, before_path = window.document.level, window.path
            before_undo = (window.undo_stack.count(), window.undo_stack.index())
            folder = tmp_path / case.name
            folder.mkdir()
            path = make_file(folder, case)
            window.errors.clear()
            opened = _open(window, path)
            problems = []
            if caught:
                problems.append(f"the guard caught {caught}")
                caught.clear()
            if case.outcome in (LOADS, INVALID):
                if not opened or window.errors:
                    problems.append(f"did not open: {window.errors}")
                elif window.path != os.path.abspath(path):
                    problems.append(f"opened but the window's path is {window.path}")
                window.set_level(sample_level())  # the next case starts from the sample again
            else:
                if opened:
                    problems.append("opened a file that does not load")
                if len(window.errors) != 1:
                    problems.append(f"showed {len(window.errors)} error boxes: {window.errors}")
                else:
                    title, text, _details = window.errors[0]
                    if not text.strip() or not title.strip():
                        problems.append(f"an empty error box: {window.errors[0]}")
                    elif path.name not in text:
                        problems.append(f"the box does not name the file: {text!r}")
                    elif "\n" in text or "Traceback" in text:
                        problems.append(f"the box's text is not one line: {text[:300]!r}")
                    elif case.names is not None and case.names not in text + _details:
                        problems.append(f"the box does not name {case.names}: {text!r}")
                if window.document.level is not before_level or window.path != before_path:
                    problems.append("the open level was replaced")
                if (window.undo_stack.count(), window.undo_stack.index()) != before_undo:
                    problems.append("the undo history changed")
            if problems:
                failures.append(f"{case.name}: {'; '.join(problems)}")
        assert not failures, "\n".join(failures)
    finally:
        guard.set_error_handler(previous)
