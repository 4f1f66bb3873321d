"""A level saved, copied, recovered or pasted into another folder keeps its pictures (issue 23, item 1)."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from level_editor.core.checks.validation import picture_problem
from level_editor.core.interop import write_tiled
from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.level.model import Box, Image, Level
from level_editor.core.level.recovery import load_recovery, read_header
from level_editor.editor.items.image_item import ImageItem
from tests.editor.helpers import key, make_window

LEVELS = Path(__file__).resolve().parents[3] / "levels"


def _level_in(folder: Path, picture: str = "art/courtyard.png") -> Path:
    """A level in ``folder`` with a reference picture ``backdrop`` at ``picture`` (the courtyard beside it)."""
    (folder / "art").mkdir(parents=True)
    shutil.copy(LEVELS / "art" / "courtyard.png", folder / "art" / "courtyard.png")
    path = folder / "level.json"
    save_level(Level(name="Courtyard", objects=(Image("backdrop", picture, (0, 0), opacity=0.5),
                                            Box("box-1", (700, 100), (32, 32)))), str(path))
    return path


def _file_picture(path: Path) -> str:
    """The path the level file at ``path`` gives its picture ``backdrop``."""
    return next(o["path"] for o in json.loads(path.read_text())["objects"] if o["id"] == "backdrop")


def _save_as(window, target: Path) -> None:
    window.ask_save_path = lambda: str(target)
    key(window, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.path == str(target) and not window.errors


def _shown(window) -> str:
    """Why the canvas does not show the picture ``backdrop`` ("" when it shows it)."""
    item = window.scene.item("backdrop")
    assert isinstance(item, ImageItem)
    return item.problem


def _dock_messages(window) -> list[str]:
    """What the Problems dock lists about pictures."""
    return [p.message for p in window.problems_dock.model.problems() if "picture" in p.message]


def test_save_as_into_another_folder_names_the_same_picture_from_there(qtbot, tmp_path):
    source = _level_in(tmp_path / "levels")
    (tmp_path / "other").mkdir()
    target = tmp_path / "other" / "my_level.json"
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(source))
    _save_as(window, target)
    assert _file_picture(target) == "../levels/art/courtyard.png"
    assert picture_problem(str(target.parent), _file_picture(target)) is None  # what `check` looks at
    # the document and the file agree, the canvas shows the picture, and no warning is listed
    assert window.document.get("backdrop").path == "../levels/art/courtyard.png"
    assert load_level(target) == window.document.level
    assert _shown(window) == ""
    assert _dock_messages(window) == []


def test_the_problems_dock_says_where_a_missing_picture_is_looked_for_at_once_after_save_as(qtbot, tmp_path):
    source = _level_in(tmp_path / "levels", picture="art/gone.png")
    (tmp_path / "other").mkdir()
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(source))
    qtbot.waitUntil(lambda: any("gone.png" in m for m in _dock_messages(window)))
    _save_as(window, tmp_path / "other" / "my_level.json")
    # no edit, no wait: the save's own check, made where the file now is, is what the dock lists
    assert _dock_messages(window) == [
        f"the picture '../levels/art/gone.png' is not there (looked for {tmp_path / 'levels' / 'art' / 'gone.png'})"]
    assert _shown(window) == "missing"


def test_undo_after_save_as_brings_pictures_back_named_from_the_new_folder(qtbot, tmp_path):
    source = _level_in(tmp_path / "levels")
    (tmp_path / "other").mkdir()
    target = tmp_path / "other" / "my_level.json"
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(source))
    window.selection.set(["backdrop"])
    key(window, Qt.Key_Delete)
    assert "backdrop" not in window.document
    _save_as(window, target)
    key(window, Qt.Key_Z, Qt.ControlModifier)  # the delete, made before the save
    assert window.document.get("backdrop").path == "../levels/art/courtyard.png"
    assert _shown(window) == ""
    key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    key(window, Qt.Key_Z, Qt.ControlModifier)
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert _file_picture(target) == "../levels/art/courtyard.png"
    assert load_level(target) == window.document.level and not window.is_modified()
    # and saved back where it came from, it names the picture as it did
    _save_as(window, source)
    assert _file_picture(source) == "art/courtyard.png" and _shown(window) == ""
    key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)  # delete it again, and bring it back once more
    assert "backdrop" not in window.document
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.get("backdrop").path == "art/courtyard.png" and _shown(window) == ""


def test_a_copy_exported_into_another_folder_names_the_same_picture(qtbot, tmp_path):
    source = _level_in(tmp_path / "levels")
    (tmp_path / "copies").mkdir()
    copy = tmp_path / "copies" / "copy.json"
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(source))
    window.ask_export_path = lambda: str(copy)
    key(window, Qt.Key_E, Qt.ControlModifier)
    assert copy.is_file() and not window.errors
    assert _file_picture(copy) == "../levels/art/courtyard.png"
    assert window.path == str(source) and window.document.get("backdrop").path == "art/courtyard.png"


def test_paste_into_a_level_in_another_folder_names_the_same_picture(qtbot, tmp_path):
    source = _level_in(tmp_path / "levels")
    (tmp_path / "other").mkdir()
    other = tmp_path / "other" / "room.json"
    save_level(Level(name="room"), str(other))
    window = make_window(qtbot, tmp_path)
    assert window.open_file(str(source))
    window.selection.set(["backdrop"])
    key(window, Qt.Key_C, Qt.ControlModifier)
    assert window.open_file(str(other))
    key(window, Qt.Key_V, Qt.ControlModifier)
    pasted = [o for o in window.document.objects if isinstance(o, Image)]
    assert [o.path for o in pasted] == ["../levels/art/courtyard.png"]
    assert isinstance(window.scene.item(pasted[0].id), ImageItem) and window.scene.item(pasted[0].id).problem == ""
    key(window, Qt.Key_S, Qt.ControlModifier)
    assert picture_problem(str(other.parent), json.loads(other.read_text())["objects"][0]["path"]) is None


def test_the_recovery_copy_of_an_imported_map_finds_its_pictures_when_restored(qtbot, tmp_path):
    maps = tmp_path / "maps"
    level = _level_in(maps)
    tmx = maps / "court.tmx"
    write_tiled(load_level(level), str(tmx), level_dir=str(maps))
    window = make_window(qtbot, tmp_path)
    assert window.import_map(str(tmx), ask=False)
    assert _shown(window) == ""
    window.selection.set(["box-1"])
    key(window, Qt.Key_Delete)  # an unsaved change: the recovery copy is kept
    window.autosave.write_now()
    copy = read_header(window.autosave.copy_path)
    assert copy.original is None and os.path.dirname(copy.path) != str(maps)
    restored = make_window(qtbot, tmp_path, name="restored.ini")
    restored.restore_level(load_recovery(copy), copy.original)
    picture = restored.document.get("backdrop").path
    assert picture == (maps / "art" / "courtyard.png").as_posix()
    assert _shown(restored) == ""


def test_an_editor_started_on_a_device_names_it_and_claims_no_level_was_open(tmp_path, qtbot, monkeypatch):
    from level_editor.editor import app
    from level_editor.editor.window.main_window import MainWindow

    shown = []
    monkeypatch.setattr(MainWindow, "show_error",
                        lambda self, title, text, details="": shown.append((text, details)))
    window = app.open_window("/dev/zero")
    qtbot.addWidget(window)
    assert shown == [("/dev/zero could not be opened: it is a device, not a level file.", "")]
    assert window.path is None and len(window.document) == 0
