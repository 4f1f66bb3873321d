"""The restore offer at start, and a real crash: an editor killed with SIGKILL, then started again."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QRadioButton

from level_editor.core.level.model import Pillar
from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.level.recovery import list_copies, write_recovery
from level_editor.editor.documents.autosave import INTERVAL_ENV
from level_editor.editor.documents.files import DISCARD
from level_editor.editor.window.main_window import MainWindow
from level_editor.editor.panels.recovery_dialog import DISCARD as DROP
from level_editor.editor.panels.recovery_dialog import LATER, RESTORE, RecoveryDialog, offer_recovery
from tests.editor.helpers import make_window, sample_level
from tests.waiting import never_waits_on

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("LEVEL_EDITOR_DATA_DIR", str(folder))
    monkeypatch.setenv(INTERVAL_ENV, "30")
    return folder


def crashed_copy(folder: Path, level, original, now=None) -> str:
    """A copy as a crashed editor leaves it: written by a process that has ended."""
    path = write_recovery(str(folder / "recovery"), level, original, "crashed", now=now)
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    with open(path, encoding="utf-8") as f:
        head, rest = json.loads(f.readline()), f.read()
    head["pid"] = proc.pid
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(head) + "\n" + rest)
    return path


def edited(level):
    return level.with_objects(level.objects + (Pillar("pillar-rescued", (500, 100), 10),))


@pytest.fixture
def castle(tmp_path):
    path = tmp_path / "castle.json"
    save_level(sample_level(), path)
    return path


def test_nothing_to_offer_shows_nothing(data_dir, tmp_path, qtbot):
    window = make_window(qtbot, tmp_path)
    asked = []
    assert offer_recovery(window, lambda: pytest.fail("no new window"), ask=lambda c, p: asked.append(c)) == []
    assert asked == []


def test_restore_opens_the_copy_as_unsaved_changes_to_its_file(data_dir, tmp_path, qtbot, castle):
    before = castle.read_bytes()
    copy_path = crashed_copy(data_dir, edited(sample_level()), str(castle))
    window = make_window(qtbot, tmp_path)
    asked = []

    def ask(copies, parent):
        asked.append([(c.original, c.objects) for c in copies])
        return {c.path: RESTORE for c in copies}

    assert offer_recovery(window, lambda: pytest.fail("the empty window is used"), ask=ask) == [window]
    assert asked == [[(str(castle), 5)]]
    assert window.document.level == edited(sample_level())
    assert window.path == str(castle)
    assert window.is_modified() and window.isWindowModified()
    assert window.windowTitle().startswith("castle.json[*]")
    assert castle.read_bytes() == before  # written only when the designer saves
    assert not os.path.exists(copy_path)
    own, = list_copies(str(data_dir / "recovery"))  # the window keeps its own copy straight away
    assert own.session == window.autosave.session
    window.ask_save_path = lambda: pytest.fail("Save writes the level's own file")
    window.save_action.trigger()
    assert load_level(castle) == edited(sample_level())
    assert list_copies(str(data_dir / "recovery")) == []


def test_discard_deletes_and_later_keeps(data_dir, tmp_path, qtbot, castle):
    drop = crashed_copy(data_dir, edited(sample_level()), str(castle), now=1000)
    keep = crashed_copy(data_dir, sample_level(), None, now=2000)
    window = make_window(qtbot, tmp_path)
    offered = []

    def ask(copies, parent):
        offered.append([c.path for c in copies])
        return {drop: DROP, keep: LATER}

    assert offer_recovery(window, lambda: pytest.fail("nothing restored"), ask=ask) == []
    assert offered == [[drop, keep]]  # oldest first
    assert not os.path.exists(drop) and os.path.exists(keep)
    assert not window.is_modified() and len(window.document) == 0
    # Later: offered again at the next start.
    assert [c.path for c in list_copies(str(data_dir / "recovery"))] == [keep]


def test_two_copies_restore_into_two_windows(data_dir, tmp_path, qtbot, castle):
    crashed_copy(data_dir, edited(sample_level()), str(castle), now=1000)
    crashed_copy(data_dir, sample_level(), None, now=2000)
    window = make_window(qtbot, tmp_path)
    extra = []

    def new_window():
        w = make_window(qtbot, tmp_path, name="second.ini")
        extra.append(w)
        return w

    restored = offer_recovery(window, new_window, ask=lambda copies, p: {c.path: RESTORE for c in copies})
    assert restored == [window] + extra and len(extra) == 1
    assert window.path == str(castle) and extra[0].path is None
    assert extra[0].document.level == sample_level() and extra[0].is_modified()


def test_a_window_with_other_work_is_left_alone(data_dir, tmp_path, qtbot, castle):
    crashed_copy(data_dir, edited(sample_level()), str(castle))
    window = make_window(qtbot, tmp_path, sample_level())
    window.path = str(tmp_path / "other.json")
    others = []
    restored = offer_recovery(window, lambda: others.append(make_window(qtbot, tmp_path, name="o.ini")) or others[-1],
                              ask=lambda copies, p: {c.path: RESTORE for c in copies})
    assert restored == others and window.document.level == sample_level()


def test_a_broken_copy_is_kept_and_the_error_shown(data_dir, tmp_path, qtbot, castle):
    path = crashed_copy(data_dir, edited(sample_level()), str(castle))
    with open(path, "a", encoding="utf-8") as f:
        f.write("}}}")
    window = make_window(qtbot, tmp_path)
    assert offer_recovery(window, lambda: window, ask=lambda copies, p: {c.path: RESTORE for c in copies}) == []
    (title, text, details), = window.errors
    assert title == "Could not restore level" and "castle.json" in text and "not valid JSON" in details
    assert os.path.exists(path) and not window.is_modified()


def test_the_dialog_lists_each_copy_with_its_file_and_time(data_dir, tmp_path, qtbot, castle):
    crashed_copy(data_dir, edited(sample_level()), str(castle), now=time.time())
    crashed_copy(data_dir, sample_level(), None, now=time.time() + 1)
    from level_editor.core.level.recovery import dead_copies

    copies = dead_copies(str(data_dir / "recovery"))
    dialog = RecoveryDialog(copies)
    qtbot.addWidget(dialog)
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    assert any("castle.json" in t and str(tmp_path) in t and "today at" in t and "5 objects" in t for t in texts)
    assert any("Untitled (Sample)" in t and "never saved" in t for t in texts)
    assert [b.text() for b in dialog.findChildren(QRadioButton)][:3] == ["Restore", "Discard", "Later"]
    assert dialog.choices() == {c.path: RESTORE for c in copies}
    dialog.findChild(QRadioButton, "discard-1").click()
    assert dialog.choices() == {copies[0].path: RESTORE, copies[1].path: DROP}


def test_closing_the_dialog_decides_later(data_dir, tmp_path, qtbot, castle):
    crashed_copy(data_dir, edited(sample_level()), str(castle))
    from level_editor.core.level.recovery import dead_copies

    copies = dead_copies(str(data_dir / "recovery"))
    QTimer.singleShot(100, lambda: QApplication.activeModalWidget().later_button.click())
    assert RecoveryDialog.ask(copies) == {copies[0].path: LATER}


CRASHING_EDITOR = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QTimer
    from level_editor.core.level.model import Pillar
    from level_editor.editor import app
    from level_editor.editor.commands.objects import AddObjectsCommand

    def edit():
        window = app._windows[0]
        window.context.push(AddObjectsCommand(window.document, [Pillar("pillar-rescued", (500, 100), 10)]))
        print("edited", flush=True)

    app.application()
    QTimer.singleShot(0, edit)
    sys.exit(app.run(sys.argv[1]))
""")


def test_after_a_real_crash_the_next_start_offers_the_edited_level(tmp_path, monkeypatch, qtbot, castle):
    data = tmp_path / "data"
    recovery = data / "recovery"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LEVEL_EDITOR_DATA_DIR=str(data),
               XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONPATH=str(ROOT))
    env[INTERVAL_ENV] = "1"
    before = castle.read_bytes()
    editor = subprocess.Popen([sys.executable, "-c", CRASHING_EDITOR, str(castle)], cwd=str(ROOT), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (recovery.exists() and any(n.endswith(".recovery.json") for n in os.listdir(recovery))):
            assert editor.poll() is None, editor.communicate()
            assert time.monotonic() < deadline, "no recovery copy within a minute"
            time.sleep(0.1)
    finally:
        editor.send_signal(signal.SIGKILL)
        out, err = editor.communicate()
    assert editor.returncode == -signal.SIGKILL
    assert "edited" in out
    assert castle.read_bytes() == before

    # The next start: the real run(), the real dialog, Continue with Restore chosen.
    monkeypatch.setenv("LEVEL_EDITOR_DATA_DIR", str(data))
    monkeypatch.setenv(INTERVAL_ENV, "30")
    monkeypatch.setattr(MainWindow, "ask_unsaved_changes", lambda self: DISCARD)
    seen = {}

    def answer_dialog():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, RecoveryDialog):
            QTimer.singleShot(50, answer_dialog)
            return
        seen["listed"] = [(c.original, c.objects) for c in dialog.copies]
        seen["text"] = " ".join(label.text() for label in dialog.findChildren(QLabel))
        dialog.continue_button.click()
        QTimer.singleShot(50, check_and_close)

    def check_and_close():
        window = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
                      and w.path == str(castle))
        seen["level"] = window.document.level
        seen["modified"] = window.isWindowModified()
        seen["file untouched"] = castle.read_bytes() == before
        window.close()

    QTimer.singleShot(100, answer_dialog)
    from level_editor.editor import app

    assert app.run(str(castle)) == 0
    assert seen["listed"] == [(str(castle), 5)]
    assert "castle.json" in seen["text"]
    assert seen["level"] == edited(sample_level())
    assert seen["modified"] and seen["file untouched"]
    assert castle.read_bytes() == before  # closed with Discard: the file was never written
    assert os.listdir(recovery) == []  # the clean exit removed the restored session's copy


def test_a_copy_that_is_a_named_pipe_is_refused_at_once(data_dir, tmp_path, qtbot, castle):
    from dataclasses import replace as replaced

    from level_editor.editor.panels.recovery_dialog import restore_copy

    path = crashed_copy(data_dir, edited(sample_level()), str(castle))
    copy = next(c for c in list_copies(str(data_dir / "recovery")) if c.path == path)
    pipe = tmp_path / "piped.recovery.json"
    os.mkfifo(pipe)
    window = make_window(qtbot, tmp_path)
    with never_waits_on(pipe):
        assert not restore_copy(window, replaced(copy, path=str(pipe)))
    (title, text, details), = window.errors
    assert title == "Could not restore level" and text.endswith("could not be read: it is a named pipe, not a "
                                                                "level file.")
    assert not window.is_modified()
