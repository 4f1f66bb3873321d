"""Reference images: Add Reference Image… and dropped pictures add an image under everything on its layer, one undo step.

The window's level is saved as ``<tmp>/levels/castle.json`` unless a test says otherwise; pictures sit in
``<tmp>/levels/art`` (a copy of levels/art/courtyard.png) or further away.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImageReader
from PySide6.QtWidgets import QApplication

from level_editor.core.level.file_format import load_level
from level_editor.core.level.model import Image, Layer
from level_editor.editor.documents.reference_images import START_OPACITY, dropped_pictures, stored_picture_path
from tests.editor.helpers import at, drag, key, make_window, sample_level, undo_texts

COURTYARD = Path(__file__).resolve().parents[3] / "levels" / "art" / "courtyard.png"


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "levels" / "art").mkdir(parents=True)
    shutil.copy(COURTYARD, tmp_path / "levels" / "art" / "courtyard.png")
    return tmp_path


@pytest.fixture
def window(qtbot, folder):
    w = make_window(qtbot, folder, sample_level())
    w.path = str(folder / "levels" / "castle.json")
    return w


def images(window) -> list[Image]:
    return [o for o in window.document.objects if isinstance(o, Image)]


def answer(window, path) -> None:
    window.ask_image_path = lambda: str(path)


def drop(window, paths, x, y, modifiers=Qt.ShiftModifier) -> bool:
    """Drag ``paths`` over the canvas and drop them on the level point ``(x, y)``; True when the drag was taken.

    Shift by default: a plain drop adds sprites (tests/editor/test_sprites.py), Shift+drop reference images."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = QPointF(window.canvas.viewport().mapTo(window, at(window, x, y)))
    enter = QDragEnterEvent(pos.toPoint(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(window, enter)
    if enter.isAccepted():
        QApplication.sendEvent(window, QDropEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, modifiers))
    return enter.isAccepted()


def round_trip(window, before, label) -> None:
    after = window.document.level
    assert undo_texts(window)[-1] == label
    key(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.document.level == before
    key(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.document.level == after


# -- the stored path --------------------------------------------------------------------------------------
def test_the_path_is_relative_to_the_level_with_forward_slashes(tmp_path):
    level = str(tmp_path / "levels" / "castle.json")
    assert stored_picture_path(str(tmp_path / "levels" / "art" / "a.png"), level) == "art/a.png"
    assert stored_picture_path(str(tmp_path / "art" / "b c.jpg"), level) == "../art/b c.jpg"
    assert stored_picture_path(os.path.join(str(tmp_path), "levels", "x", "..", "d.png"), level) == "d.png"


def test_an_unsaved_level_keeps_the_absolute_path(tmp_path):
    picture = tmp_path / "art" / "a.png"
    stored = stored_picture_path(str(picture), None)
    assert stored == str(picture).replace(os.sep, "/") and os.path.isabs(stored)


def test_only_local_pngs_and_jpegs_count_as_dropped_pictures(tmp_path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / n)) for n in ("a.PNG", "b.jpeg", "c.jpg", "d.json", "e.gif")]
                 + [QUrl("https://example.com/f.png")])
    assert [os.path.basename(p) for p in dropped_pictures(mime)] == ["a.PNG", "b.jpeg", "c.jpg"]
    assert dropped_pictures(QMimeData()) == []


# -- Add Reference Image… ---------------------------------------------------------------------------------
def test_the_action_adds_the_answered_picture_under_everything(window, folder):
    before = window.document.level
    answer(window, folder / "levels" / "art" / "courtyard.png")
    window.add_image_action.trigger()
    image = window.document.objects[0]  # first: drawn under the others
    assert isinstance(image, Image)
    assert (image.id, image.path, image.scale, image.opacity) == ("image-1", "art/courtyard.png", 1.0, START_OPACITY)
    assert image.layer == window.context.current_layer
    assert window.selection.ids() == ["image-1"]
    # centred in the view, its corner on the grid
    size = QImageReader(str(COURTYARD)).size()
    centre = window.canvas.visible_rect().center()
    assert abs(image.origin.x + size.width() / 2 - centre.x()) <= 8
    assert abs(image.origin.y + size.height() / 2 - centre.y()) <= 8
    assert image.origin.x % 16 == 0 and image.origin.y % 16 == 0
    round_trip(window, before, "Add reference image")


def test_the_action_is_in_the_edit_menu_and_on_the_toolbar(window):
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    assert window.add_image_action in menus["Edit"].actions()
    assert window.add_image_action in window.main_toolbar.actions()


def test_no_answer_adds_nothing(window):
    answer(window, "")
    window.add_image_action.trigger()
    assert images(window) == [] and window.undo_stack.count() == 0


def test_a_picture_outside_the_levels_folder_gets_a_path_up_and_over(window, folder):
    shutil.copy(COURTYARD, folder / "sketch.jpg")  # a PNG named .jpg: the name is what counts here
    answer(window, folder / "sketch.jpg")
    window.add_image_action.trigger()
    assert images(window)[0].path == "../sketch.jpg"


def test_an_unsaved_level_stores_the_absolute_path(window, folder):
    window.path = None
    picture = folder / "levels" / "art" / "courtyard.png"
    answer(window, picture)
    window.add_image_action.trigger()
    assert images(window)[0].path == str(picture).replace(os.sep, "/")


def test_a_missing_picture_is_added_all_the_same_and_shown_as_a_placeholder(window, folder):
    answer(window, folder / "levels" / "art" / "gone.png")
    window.add_image_action.trigger()
    [image] = images(window)
    assert image.path == "art/gone.png"
    item = window.scene.item(image.id)
    assert item is not None and item.picture is None
    assert "not there" in window.statusBar().currentMessage()


def test_a_locked_layer_refuses_the_picture(window, folder):
    window.document.set_layers([Layer("main", "Main", locked=True)])
    answer(window, folder / "levels" / "art" / "courtyard.png")
    window.add_image_action.trigger()
    assert images(window) == [] and window.undo_stack.count() == 0
    assert "locked" in window.statusBar().currentMessage()


def test_saving_writes_the_relative_path(window, folder):
    answer(window, folder / "levels" / "art" / "courtyard.png")
    window.add_image_action.trigger()
    assert window.save()
    [image] = [o for o in load_level(window.path).objects if isinstance(o, Image)]
    assert image.path == "art/courtyard.png" and image.opacity == START_OPACITY


# -- dropping pictures ------------------------------------------------------------------------------------
def test_a_dropped_picture_is_added_at_the_drop_point(window, folder):
    before = window.document.level
    assert drop(window, [folder / "levels" / "art" / "courtyard.png"], 203, 95)
    image = window.document.objects[0]
    assert isinstance(image, Image)
    assert (image.path, tuple(image.origin), image.opacity) == ("art/courtyard.png", (208, 96), START_OPACITY)
    round_trip(window, before, "Add reference image")


def test_several_dropped_pictures_are_one_step(window, folder):
    shutil.copy(COURTYARD, folder / "levels" / "art" / "second.jpeg")
    assert drop(window, [folder / "levels" / "art" / "courtyard.png", folder / "levels" / "art" / "second.jpeg"],
                96, 96)
    assert [(i.id, i.path, tuple(i.origin)) for i in images(window)] == [
        ("image-1", "art/courtyard.png", (96, 96)), ("image-2", "art/second.jpeg", (112, 112))]
    assert window.undo_stack.count() == 1 and undo_texts(window) == ["Add 2 reference images"]


def test_a_dropped_missing_picture_is_added_too(window, folder):
    assert drop(window, [folder / "nowhere.png"], 40, 40)
    assert images(window)[0].path == "../nowhere.png"


def test_other_files_are_not_pictures(window, folder):
    other = folder / "notes.txt"
    other.write_text("hello")
    assert not drop(window, [other], 40, 40)
    assert images(window) == []


def test_a_dropped_level_still_opens(window):
    level = Path(__file__).resolve().parents[3] / "levels" / "maze.json"
    assert drop(window, [level], 40, 40)
    assert window.path == str(level)


def test_the_select_tool_moves_a_reference_image(window, folder):
    assert drop(window, [folder / "levels" / "art" / "courtyard.png"], 600, 400)
    key(window, Qt.Key_S)
    drag(window, (620, 420), (660, 452))  # the origin snaps to the grid: 600 + 40, 400 + 32
    assert tuple(window.document.get("image-1").origin) == (640, 432)
