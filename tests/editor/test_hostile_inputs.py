"""Hostile inputs to the editor beyond issue 14's list: reference pictures that are bombs, pipes, devices or broken,
and settings files holding garbage. The editor shows a placeholder or a default and goes on; nothing hangs.
The pictures are made here (a PNG header claiming 100000 x 100000 pixels is a few bytes), none is stored."""
from __future__ import annotations

import os
import struct
import zlib

import pytest
from PySide6.QtCore import QSettings

from level_editor.core.interop.png import PNG_SIGNATURE, png_tiles
from level_editor.core.level.file_format import save_level
from level_editor.core.level.model import Image
from level_editor.editor.documents.autosave import DEFAULT_INTERVAL, INTERVAL_ENV, INTERVAL_KEY, MAX_INTERVAL, interval_seconds
from level_editor.editor.items.image_item import forget_pictures, load_picture
from level_editor.editor.panels.preferences_dialog import PreferencesDialog
from tests.editor.helpers import make_window, sample_level
from tests.waiting import never_waits_on


def _chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def claimed_png(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels, with 10 MB of zeros packed into a few KB."""
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (PNG_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(b"\0" * 10_000_000, 9))
            + _chunk(b"IEND", b""))


@pytest.fixture
def pictures(tmp_path) -> dict[str, str]:
    forget_pictures()
    good = png_tiles(8, [(255, 0, 0, 255)])
    made = {
        "bomb.png": claimed_png(100_000, 100_000),
        "truncated.png": good[:40],
        "garbage.png": bytes(range(256)) * 20,
        "good.png": good,
    }
    out = {}
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
        out[name] = str(tmp_path / name)
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "folder.png").mkdir()
    out.update({"pipe.png": str(tmp_path / "pipe.png"), "folder.png": str(tmp_path / "folder.png"),
                "device": os.devnull, "missing.png": str(tmp_path / "missing.png"), "nul": "a\0b.png"})
    yield out
    forget_pictures()


@pytest.mark.parametrize("name, problem", [
    ("bomb.png", "too large"), ("truncated.png", "unreadable"), ("garbage.png", "unreadable"),
    ("pipe.png", "not a file"), ("folder.png", "not a file"), ("device", "not a file"),
    ("missing.png", "missing"), ("nul", "missing"), ("good.png", ""),
])
def test_a_picture_that_cannot_be_shown_says_why_at_once(pictures, name, problem):
    with never_waits_on(pictures["pipe.png"]):
        picture, why = load_picture(pictures[name])
    assert why == problem and (picture is None) == (problem != "")
    if picture is not None:
        assert (picture.width(), picture.height()) == (8, 8)


def test_a_level_whose_pictures_are_hostile_opens_with_placeholders(qtbot, tmp_path, pictures):
    level = sample_level()
    hostile = [p for name, p in pictures.items() if name not in ("good.png", "nul")]
    images = [Image(f"image-{i}", path, (i * 200.0, 0.0), layer=level.layers[0].id) for i, path in enumerate(hostile)]
    path = tmp_path / "level.json"
    save_level(level.with_objects(list(level.objects) + images), str(path))
    window = make_window(qtbot, tmp_path)
    with never_waits_on(pictures["pipe.png"]):
        assert window.open_file(str(path), ask=False)
    assert window.errors == []
    problems = {window.canvas.level_scene.item(i.id).problem for i in images}
    assert problems == {"too large", "unreadable", "not a file", "missing"}


def test_the_picture_dialog_answered_with_a_named_pipe_adds_a_placeholder_without_waiting(qtbot, tmp_path, pictures):
    window = make_window(qtbot, tmp_path, sample_level())
    window.path = str(tmp_path / "level.json")
    window.ask_image_path = lambda: pictures["pipe.png"]
    with never_waits_on(pictures["pipe.png"]):
        new_id = window.add_reference_image_dialog()
    assert new_id is not None and window.document.get(new_id).path == "pipe.png"


@pytest.mark.parametrize("stored, expected", [
    (float("inf"), MAX_INTERVAL), (float("nan"), DEFAULT_INTERVAL), (-1, DEFAULT_INTERVAL), (1e308, MAX_INTERVAL),
    ("text", DEFAULT_INTERVAL), ("-5", DEFAULT_INTERVAL), ("45", 45), ([1, 2], DEFAULT_INTERVAL),
    ({"a": 1}, DEFAULT_INTERVAL), (True, DEFAULT_INTERVAL), (0, 0),
])
def test_an_autosave_interval_of_any_value_in_the_settings_gives_a_sane_one(tmp_path, monkeypatch, qtbot, stored,
                                                                            expected):
    monkeypatch.delenv(INTERVAL_ENV, raising=False)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)
    settings.setValue(INTERVAL_KEY, stored)
    settings.sync()
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)  # as read back from the file
    assert interval_seconds(settings) == expected
    dialog = PreferencesDialog(settings)
    qtbot.addWidget(dialog)
    assert dialog.interval.value() == expected


@pytest.mark.parametrize("override", ["-1", "nan", "text", ""])
def test_an_environment_interval_that_is_no_interval_leaves_the_preference(tmp_path, monkeypatch, override):
    monkeypatch.setenv(INTERVAL_ENV, override)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)
    settings.setValue(INTERVAL_KEY, 45)
    assert interval_seconds(settings) == 45


@pytest.mark.parametrize("stored", [5, 1e308, {"a": 1}, [1, None, "x\0y", b"\xff"], ""])
def test_recent_files_of_any_shape_in_the_settings_open_the_window_with_an_empty_list(qtbot, tmp_path, stored):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    settings.setValue("recentFiles", stored)
    settings.sync()
    window = make_window(qtbot, tmp_path)
    assert window.recent_files() == []
    window.recent_menu.aboutToShow.emit()  # as the menu opens
    assert [a.text() for a in window.recent_menu.actions() if a.isEnabled()] == []


def test_a_recent_file_that_is_a_device_or_gone_opens_nothing_by_itself(qtbot, tmp_path):
    level = tmp_path / "kept.json"
    save_level(sample_level(), str(level))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    settings.setValue("recentFiles", [str(tmp_path / "gone.json"), str(level), 7])
    settings.sync()
    window = make_window(qtbot, tmp_path)
    window.recent_menu.aboutToShow.emit()  # as the menu opens
    assert [a.toolTip() for a in window.recent_menu.actions() if a.isEnabled()] == [str(level)]


def test_an_unexpected_error_while_writing_a_recovery_copy_is_said_and_the_next_tick_tries_again(
        qtbot, tmp_path, monkeypatch):
    from level_editor.core.level.model import Pillar
    from level_editor.editor.documents import autosave
    from level_editor.editor.commands.objects import AddObjectsCommand

    monkeypatch.setenv("LEVEL_EDITOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv(INTERVAL_ENV, "0.05")
    calls = []

    def broken(*args, **kwargs):
        calls.append(args)
        raise RuntimeError("the disk said something odd")

    monkeypatch.setattr(autosave, "write_recovery", broken)
    window = make_window(qtbot, tmp_path, sample_level())
    window.undo_stack.push(AddObjectsCommand(window.document, [Pillar("pillar-9", (500.0, 100.0), 10.0)]))
    with qtbot.waitSignal(window.autosave.failed, timeout=5000) as signal:
        pass
    assert signal.args[0] == "Recovery copy not written: the disk said something odd (RuntimeError)"
    qtbot.waitUntil(lambda: len(calls) >= 2, timeout=5000)  # the thread's end was heard: autosave goes on


def test_export_as_never_writes_a_tiled_map_over_the_levels_own_file(qtbot, tmp_path):
    own = tmp_path / "castle.tmj"  # a level file that happens to end in .tmj
    save_level(sample_level(), str(own))
    before = own.read_bytes()
    window = make_window(qtbot, tmp_path, sample_level())
    window.path = str(own)  # as Save As leaves it
    window.ask_export_path = lambda: str(tmp_path / "." / "castle.tmj")
    assert window.export_as() is False
    assert own.read_bytes() == before
    title, text, _ = window.errors[-1]
    assert title == "Could not export level" and text.startswith("castle.tmj is the level's own file")


@pytest.mark.parametrize("suffix", [".tmx", ".json"])
def test_export_as_to_a_named_pipe_nobody_reads_says_so_at_once(qtbot, tmp_path, suffix):
    pipe = tmp_path / f"pipe{suffix}"
    os.mkfifo(pipe)
    window = make_window(qtbot, tmp_path, sample_level())
    window.ask_export_path = lambda: str(pipe)
    with never_waits_on(pipe):
        assert window.export_as() is False
    assert "named pipe that no program is reading" in window.errors[-1][1]


@pytest.mark.parametrize("name, problem", [
    ("new.json/", "ends in a slash, so it names a folder, not a level file"),
    ("a-file.json/new.json", "a part of its path is a file, not a folder, so a new level could not be saved there"),
    ("no\nfolder/new.json", "its folder {tmp}/no\\nfolder does not exist, so a new level could not be saved there"),
    (".", "is a folder, not a level file"),
])
def test_the_command_line_refuses_a_level_path_save_could_never_write_before_the_window_opens(
        tmp_path, capsys, monkeypatch, name, problem):
    from level_editor.editor import app, launcher

    monkeypatch.setattr(app, "run", lambda path: pytest.fail("the editor opened"))
    (tmp_path / "a-file.json").write_text("{}")
    path = f"{tmp_path}/{name}" if name != "." else str(tmp_path)
    assert launcher.main([path]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["level-editor: " + (path.replace("\n", "\\n") + ": " + problem.format(tmp=tmp_path))]


def test_the_command_line_opens_a_new_level_in_a_folder_that_exists(tmp_path, monkeypatch):
    from level_editor.editor import app, launcher

    opened = []
    monkeypatch.setattr(app, "run", lambda path: opened.append(path) or 0)
    assert launcher.main([str(tmp_path / "new.json")]) == 0
    assert opened == [str(tmp_path / "new.json")]
