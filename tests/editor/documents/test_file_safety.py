"""The editor never loses an edit to a save, never replaces a file it should not, and never hangs on one.

Real windows, the real Save/Open actions and real files; questions and error boxes are answered
through the window's ask_* and show_error, as the designer would answer them.
"""
from __future__ import annotations

import json
import os
import stat
import threading
import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.level.model import Box, Pillar
from level_editor.editor.documents import files
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.documents.files import CANCEL, SAVE, SAVE_ANYWAY, SAVE_AS
from tests.editor.helpers import WindowAnswers, make_window, sample_level, window  # noqa: F401
from tests.waiting import HANG_SECONDS, never_waits_on


def edit(window, oid="pillar-9"):
    window.context.push(AddObjectsCommand(window.document, [Pillar(oid, (500, 100), 10)]))


@pytest.fixture
def opened(qtbot, tmp_path):
    """A window on tmp_path/castle.json with one unsaved edit."""
    path = tmp_path / "castle.json"
    save_level(sample_level(), path)
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(path))
    edit(window)
    return window, path


def deeply_nested(depth: int) -> dict:
    data: dict = {}
    inner = data
    for _ in range(depth):
        inner["a"] = {}
        inner = inner["a"]
    return data


# -- failed saves: said in words, the window stays open with the edits --------------------------------------
def test_close_then_save_then_failure_keeps_the_window_open_with_the_edits(opened, monkeypatch):
    window, path = opened
    before = path.read_bytes()
    level = window.document.level
    window.ask_unsaved_changes = lambda: SAVE

    def broken(*args, **options):
        raise ValueError("cannot write the hulls")

    monkeypatch.setattr(files, "write_blocks_atomic", broken)
    assert not window.close()
    assert window.isVisible() and window.isWindowModified()
    assert window.document.level is level and window.undo_stack.count() == 1
    (title, text, details), = window.errors
    assert (title, text) == ("Could not save level", "castle.json could not be saved: cannot write the hulls "
                                                     "(ValueError).")
    assert "still open and unsaved" in details
    assert path.read_bytes() == before


def test_custom_data_nested_990_deep_gives_a_reason_not_silence(opened):
    window, path = opened
    before = path.read_bytes()
    deep = Box("deep", (0, 600), (16, 16), extra={"game": deeply_nested(990)})
    window.context.push(AddObjectsCommand(window.document, [deep]))
    window.save_action.trigger()
    (title, text, details), = window.errors
    assert text.startswith("castle.json could not be saved: ") and "nested" in text
    assert window.isWindowModified() and path.read_bytes() == before


def test_coordinates_of_1e308_are_saved_or_refused_in_words(opened):
    window, path = opened
    window.context.push(AddObjectsCommand(window.document, [Box("huge", (1e308, 1e308), (1e308, 1e308))]))
    window.save_action.trigger()
    if window.errors and window.errors[0][0] == "Could not save level":
        assert window.errors[0][1].startswith("castle.json could not be saved: ") and window.isWindowModified()
    else:
        objects = json.loads(path.read_text())["objects"]
        assert any(o["id"] == "huge" for o in objects) and not window.isWindowModified()


def test_the_save_error_words_each_reason_once(opened, monkeypatch):
    window, path = opened
    from level_editor.core.level.atomic import LevelSaveError

    seen = {}
    for reason, words, advice in (
            ("permission", "Permission denied", "You may not write there"),
            ("no-space", "No space left on device", "The disk is full: free some space"),
            ("read-only", "Read-only file system", "The disk is read-only")):
        def fail(path_, text, words=words, **options):
            raise LevelSaveError(f"could not save {path_}: {words}")

        monkeypatch.setattr(files, "write_blocks_atomic", fail)
        window.errors.clear()
        window.save_action.trigger()
        (title, text, details), = window.errors
        assert text == f"castle.json could not be saved: {words}."
        assert details.startswith(advice) and details.count("Save As") <= 1
        assert "Free some space" not in details or reason == "no-space"
        seen[reason] = details
    assert len(set(seen.values())) == 3


# -- read-only files are not replaced without asking -----------------------------------------------------------
@pytest.mark.parametrize("answer", [CANCEL, SAVE_AS, SAVE_ANYWAY])
def test_a_read_only_file_is_never_replaced_without_asking(opened, tmp_path, answer):
    window, path = opened
    path.chmod(0o444)
    before = path.read_bytes()
    asked, other = [], tmp_path / "elsewhere.json"
    window.ask_read_only = lambda p, why: asked.append(why) or answer
    window.ask_save_path = lambda: str(other)
    saved = window.save()
    assert asked == ["castle.json is read-only."]
    if answer == CANCEL:
        assert not saved and path.read_bytes() == before and window.isWindowModified()
    elif answer == SAVE_AS:
        assert saved and path.read_bytes() == before and window.path == str(other)
        assert "pillar-9" in [o.id for o in load_level(other).objects]
    else:
        assert saved and "pillar-9" in [o.id for o in load_level(path).objects]
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o444  # still read-only afterwards
        edit(window, "pillar-10")
        assert window.save() and len(asked) == 1  # asked once per file
    path.chmod(0o644)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away")
def test_another_users_file_is_not_taken_over_without_asking(opened):
    window, path = opened
    os.chown(path, 4242, 4242)
    before = path.read_bytes()
    asked = []
    window.ask_read_only = lambda p, why: asked.append(why) or CANCEL
    assert not window.save()
    assert asked and "belongs to another user" in asked[0]
    assert os.stat(path).st_uid == 4242 and path.read_bytes() == before


# -- what is not a file gives a dialog at once -----------------------------------------------------------------
def test_a_named_pipe_a_device_and_a_folder_are_refused_at_once(window, tmp_path):
    pipe = tmp_path / "level.json"
    os.mkfifo(pipe)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    level = window.document.level
    for path, what in ((pipe, "a named pipe"), ("/dev/zero", "a device"), (folder, "a folder")):
        window.errors.clear()
        with never_waits_on(pipe):
            assert not window.open_file(str(path))
        (title, text, details), = window.errors
        assert title == "Could not open level" and f"it is {what}, not a level file" in text
    assert window.document.level is level
    # Save refuses to write into the pipe (nothing reads it: the write would wait for ever)
    window.ask_save_path = lambda: str(pipe)
    window.errors.clear()
    with never_waits_on(pipe):
        assert not window.save_as()
    assert "it is a named pipe" in window.errors[0][1]


def test_open_recent_and_a_drop_of_a_pipe_fail_at_once(window, tmp_path):
    from tests.editor.documents.test_files import _drop

    pipe = tmp_path / "piped.json"
    os.mkfifo(pipe)
    window.add_recent(str(pipe))
    window.recent_menu.aboutToShow.emit()  # as the menu opens
    entry = next(a for a in window.recent_menu.actions() if "piped.json" in a.text())
    with never_waits_on(pipe):
        entry.trigger()
        _drop(window, pipe)
    assert [e[1] for e in window.errors] == [f"{pipe} could not be opened: it is a named pipe, not a level "
                                             "file."] * 2


def test_a_file_with_wrong_typed_fields_says_what_is_wrong(window, tmp_path):
    bad = tmp_path / "typed.json"
    bad.write_text('{"format": "level-editor.level", "version": 2, "name": 5, "grid": "big", '
                   '"player": {"spawn": "here"}, "objects": {}}')
    assert not window.open_file(str(bad))
    (title, text, details), = window.errors
    assert text.startswith(f"{bad} could not be opened: ") and len(text) > len(f"{bad} could not be opened: ") + 5
    assert details.strip()


# -- crash leftovers ---------------------------------------------------------------------------------------------
def test_opening_a_level_removes_old_temporaries_a_killed_save_left(window, tmp_path):
    path = tmp_path / "castle.json"
    save_level(sample_level(), path)
    stale = tmp_path / ".~castle.json.k1ll3d00.tmp"
    stale.write_bytes(b"x" * 100_000)
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = tmp_path / ".~castle.json.n0wsav1n.tmp"  # another editor's save in progress: young and locked
    fresh.write_bytes(b"y")
    mine = tmp_path / "notes.tmp"
    mine.write_text("not ours")
    import fcntl

    with open(fresh, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert window.open_file(str(path))
    assert not stale.exists() and fresh.exists() and mine.exists()


# -- long saves do not freeze the window -------------------------------------------------------------------------
def test_a_slow_save_keeps_the_window_alive_and_the_document_still(opened, monkeypatch):
    window, path = opened
    # the write lasts until the window has answered its timer ten times meanwhile (tests/editor/helpers.py)
    answers = WindowAnswers()
    monkeypatch.setattr(files, "write_blocks_atomic", answers.wrap(files.write_blocks_atomic))
    level = window.document.level
    with answers:
        assert window.save()
    assert answers.seen == WindowAnswers.BESIDE
    assert answers.busy == [True] * answers.ticks  # while the save was under way, and the window said so
    assert window.document.level is level and window.undo_stack.isClean()
    assert load_level(path) == level


def test_closing_during_a_save_waits_for_it(opened, monkeypatch):
    window, path = opened
    real = files.write_blocks_atomic
    answers, asked = [], threading.Event()

    def slow(path_, text, **options):
        asked.wait(HANG_SECONDS)  # the write lasts until the designer has asked to close meanwhile
        real(path_, text, **options)

    monkeypatch.setattr(files, "write_blocks_atomic", slow)
    QTimer.singleShot(100, lambda: answers.append(window.maybe_save()) or asked.set())
    assert window.save()
    assert answers == [False]  # asked while saving: not now
    assert window.undo_stack.isClean()


# -- Save As, New, Open Recent ----------------------------------------------------------------------------------
def test_save_as_names_an_untitled_level_after_its_file(window, tmp_path):
    window.set_level(sample_level().__class__())  # a new level: "Untitled"
    edit(window)
    window.ask_save_path = lambda: str(tmp_path / "Castle Keep.json")
    assert window.save_as()
    assert window.document.level.name == "Castle Keep"
    assert load_level(tmp_path / "Castle Keep.json").name == "Castle Keep"
    assert window.windowTitle().startswith("Castle Keep.json")
    assert window.undo_stack.isClean()
    # a level named after its file follows it to the next name; a name the designer chose stays
    window.ask_save_path = lambda: str(tmp_path / "keep-2.json")
    assert window.save_as() and window.document.level.name == "keep-2"
    window.document.set_properties(name="The Keep")
    window.ask_save_path = lambda: str(tmp_path / "keep-3.json")
    assert window.save_as() and window.document.level.name == "The Keep"


def test_a_failed_save_as_does_not_rename_the_level(window, tmp_path):
    window.set_level(sample_level().__class__())
    edit(window)
    window.ask_save_path = lambda: str(tmp_path / "no-such-folder" / "castle.json")
    assert not window.save_as()
    assert window.document.level.name == "Untitled" and window.undo_stack.count() == 1 and window.isWindowModified()


def test_new_level_opens_at_100_percent_with_the_spawn_in_view(window):
    window.canvas.set_zoom(0.3)
    questions = len(window.questions)
    window.new_action.trigger()
    assert len(window.questions) == questions  # nothing changed: nothing asked
    assert window.canvas.zoom() == pytest.approx(1.0)
    spawn = window.document.player.spawn
    assert window.canvas.visible_rect().contains(spawn[0], spawn[1])
    assert window.zoom_label.text() == "100%"


def test_open_recent_tells_two_files_of_one_name_apart(window, tmp_path):
    paths = []
    for folder in ("levels/a", "levels/b"):
        p = tmp_path / folder / "new-level.json"
        p.parent.mkdir(parents=True)
        save_level(sample_level(), p)
        paths.append(str(p))
        assert window.open_file(str(p), ask=False)
    # the same file again under another spelling: still one entry
    window.add_recent(str(tmp_path / "levels" / "a" / ".." / "a" / "new-level.json"))
    window.recent_menu.aboutToShow.emit()  # as the menu opens
    entries = [a for a in window.recent_menu.actions() if a.isEnabled()]
    assert [a.text() for a in entries] == ["&1 new-level.json — levels/a", "&2 new-level.json — levels/b"]
    assert [a.toolTip() for a in entries] == [paths[0], paths[1]]
    assert [a.statusTip() for a in entries] == [paths[0], paths[1]]
    entries[1].trigger()
    assert window.path == paths[1]
    QApplication.processEvents()


def test_a_named_pipe_on_the_command_line_opens_the_editor_with_the_reason(tmp_path, qtbot, monkeypatch):
    from level_editor.editor import app
    from level_editor.editor.window.main_window import MainWindow

    pipe = tmp_path / "from-the-shell.json"
    os.mkfifo(pipe)
    shown = []
    monkeypatch.setattr(MainWindow, "show_error", lambda self, title, text, details="": shown.append(text))
    with never_waits_on(pipe):
        window = app.open_window(str(pipe))
    qtbot.addWidget(window)
    assert shown == [f"{pipe} could not be opened: it is a named pipe, not a level file."]
    assert window.isVisible() and window.path is None and len(window.document) == 0


def test_importing_a_named_pipe_as_a_tiled_map_fails_at_once(window, tmp_path):
    pipe = tmp_path / "map.tmx"
    os.mkfifo(pipe)
    window.ask_import_path = lambda: str(pipe)
    with never_waits_on(pipe):
        assert not window.import_dialog()
    assert window.errors == [("Could not import map", "map.tmx could not be imported: it is a named pipe, not a "
                              "map file.", "The level that was open is still open.")]
