"""Saves that fail (read-only folder, read-only disk, full disk) through the real Save action.

We run as root, where chmod does not stop writes, so the failures are the
operating system's own errors raised from the calls the save makes. Each
case checks what the designer sees and keeps: an error that says why, the
document as it was and still marked unsaved, the old file on disk whole, and
no temporary file left beside it.
"""
from __future__ import annotations

import errno
import os

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from level_editor.core.level import atomic
from level_editor.core.level.model import Pillar
from level_editor.core.level.file_format import load_level, save_level
from level_editor.editor.commands.objects import AddObjectsCommand
from tests.editor.helpers import make_window, sample_level


def oserror(code: int) -> OSError:
    cls = PermissionError if code in (errno.EACCES, errno.EPERM) else OSError
    return cls(code, os.strerror(code))


@pytest.fixture
def edited(tmp_path, qtbot):
    """A window on tmp_path/levels/castle.json with one unsaved edit; the file's bytes before the save."""
    path = tmp_path / "levels" / "castle.json"
    path.parent.mkdir()
    save_level(sample_level(), path)
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(path))
    window.context.push(AddObjectsCommand(window.document, [Pillar("pillar-9", (500, 100), 10)]))
    window.ask_save_path = lambda: pytest.fail("Save writes the open file without asking")
    return window, path, path.read_bytes(), window.document.level


def assert_nothing_lost(window, path, before, level, reason):
    (title, text, details), = window.errors
    assert title == "Could not save level"
    assert reason in text and "castle.json" in text
    assert "not changed" in details and "still open" in details
    assert window.document.level == level
    assert not window.undo_stack.isClean() and window.isWindowModified()
    assert window.undo_stack.count() == 1 and window.undo_stack.text(0) == "Add pillar"
    assert window.path == str(path)
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == ["castle.json"]  # no temporary file left


def save_fails(window, monkeypatch, target, name, error):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(target, name, fail)
    window.save_action.trigger()
    monkeypatch.undo()


def test_a_read_only_folder_refusing_the_swap(edited, monkeypatch):
    window, path, before, level = edited
    save_fails(window, monkeypatch, atomic.os, "replace", oserror(errno.EACCES))
    assert_nothing_lost(window, path, before, level, "Permission denied")


def test_a_read_only_folder_refusing_the_temporary_file(edited, monkeypatch):
    window, path, before, level = edited
    save_fails(window, monkeypatch, atomic.tempfile, "mkstemp", oserror(errno.EACCES))
    assert_nothing_lost(window, path, before, level, "Permission denied")


def test_a_read_only_file_system(edited, monkeypatch):
    window, path, before, level = edited
    save_fails(window, monkeypatch, atomic.tempfile, "mkstemp", oserror(errno.EROFS))
    assert_nothing_lost(window, path, before, level, "Read-only file system")


def test_a_disk_that_fills_up_halfway_through_the_write(edited, monkeypatch):
    window, path, before, level = edited
    real_write, real_fdopen = os.write, os.fdopen
    written = []

    def write_half(fd, data):
        """The disk as the writer sees it: half the level goes in, then the disk is full."""
        real_write(fd, bytes(data[: len(data) // 2]))
        written.append(os.fstat(fd).st_size)
        raise oserror(errno.ENOSPC)

    class FillsUp:
        """The same for a writer that writes through a file object."""

        def __init__(self, f):
            self.f = f

        def write(self, data):
            self.f.write(data[: len(data) // 2])
            self.f.flush()
            written.append(os.fstat(self.f.fileno()).st_size)
            raise oserror(errno.ENOSPC)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()
            return False

        def __getattr__(self, name):
            return getattr(self.f, name)

    monkeypatch.setattr(atomic.os, "write", write_half)
    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, mode="r", *a, **k: FillsUp(real_fdopen(fd, mode, *a, **k)))
    window.save_action.trigger()
    monkeypatch.undo()
    assert written and written[0] > 0  # a half level really was on disk, in the temporary file
    assert_nothing_lost(window, path, before, level, "No space left on device")  # and no temporary is left


def test_a_disk_full_when_flushing_to_the_device(edited, monkeypatch):
    window, path, before, level = edited
    save_fails(window, monkeypatch, atomic.os, "fsync", oserror(errno.ENOSPC))
    assert_nothing_lost(window, path, before, level, "No space left on device")


def test_saving_works_again_once_the_disk_has_room(edited, monkeypatch):
    window, path, before, level = edited
    save_fails(window, monkeypatch, atomic.os, "fsync", oserror(errno.ENOSPC))
    window.save_action.trigger()
    assert load_level(path) == level
    assert window.undo_stack.isClean() and not window.isWindowModified()
    assert os.listdir(path.parent) == ["castle.json"]


def test_save_as_into_a_read_only_folder_creates_nothing(tmp_path, qtbot, monkeypatch):
    window = make_window(qtbot, tmp_path, sample_level())
    window.context.push(AddObjectsCommand(window.document, [Pillar("pillar-9", (500, 100), 10)]))
    level = window.document.level
    folder = tmp_path / "locked"
    folder.mkdir()
    window.ask_save_path = lambda: str(folder / "new.json")
    monkeypatch.setattr(atomic.tempfile, "mkstemp", lambda *a, **k: (_ for _ in ()).throw(oserror(errno.EACCES)))
    assert not window.save_as()
    monkeypatch.undo()
    (title, text, _), = window.errors
    assert "Permission denied" in text
    assert os.listdir(folder) == []
    assert window.path is None and window.document.level == level and window.isWindowModified()


def test_the_real_error_box_says_why_and_what_is_kept(tmp_path, qtbot, monkeypatch):
    from level_editor.editor.window.main_window import MainWindow

    path = tmp_path / "castle.json"
    save_level(sample_level(), path)
    before = path.read_bytes()
    window = make_window(qtbot, tmp_path)
    del window.show_error  # the real message box this time
    assert isinstance(window.show_error.__self__, MainWindow)
    window.open_file(str(path))
    window.context.push(AddObjectsCommand(window.document, [Pillar("pillar-9", (500, 100), 10)]))
    seen = {}

    def read_and_close():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, read_and_close)
            return
        seen.update(title=box.windowTitle(), text=box.text(), info=box.informativeText(), icon=box.icon(),
                    details=box.detailedText())
        box.accept()

    monkeypatch.setattr(atomic.os, "fsync", lambda fd: (_ for _ in ()).throw(oserror(errno.ENOSPC)))
    QTimer.singleShot(0, read_and_close)
    window.save_action.trigger()
    monkeypatch.undo()
    assert seen["title"] == "Could not save level" and seen["icon"] == QMessageBox.Critical
    assert seen["text"] == "castle.json could not be saved: No space left on device."
    assert seen["info"] == ("The disk is full: free some space, or use Save As… to save on another disk. "
                            "The file on disk was not changed, and your changes are still open and unsaved.")
    assert seen["details"] == ""  # nothing said twice
    assert path.read_bytes() == before and window.isWindowModified()


def test_a_failing_geometry_check_still_saves_the_level(edited, monkeypatch):
    """Never lose work: when validation or hulls fail, the level is written all the same, without hulls."""
    window, path, _, _ = edited

    def broken():
        raise ValueError("GEOS could not build an outline")

    monkeypatch.setattr(window.checks, "completion", lambda level: broken)
    window.save_action.trigger()
    assert load_level(path) == window.document.level
    assert '"hulls": {}' in path.read_text()
    assert window.undo_stack.isClean() and not window.isWindowModified()
    assert window.errors and window.errors[-1][0] == "Saved without hulls"
    assert "GEOS could not build an outline (ValueError)" in window.errors[-1][1]
