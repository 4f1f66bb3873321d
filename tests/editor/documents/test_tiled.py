"""File > Export As… (TMX, TMJ or level JSON) and importing Tiled maps: the Import action, Open and drag and drop."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.level.file_format import load_level
from level_editor.core.level.pictures import pictures_moved
from tests.editor.helpers import key, make_window

SAMPLES = Path(__file__).resolve().parents[3] / "levels"

HALL = {"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "width": 20, "height": 20,
        "layers": [{"type": "objectgroup", "name": "Things", "objects": [
            {"id": 1, "name": "crate", "x": 32, "y": 48, "width": 16, "height": 16},
            {"id": 2, "name": "sign", "x": 0, "y": 0, "text": {"text": "Hi"}}]}]}


def opened(qtbot, tmp_path):
    folder = tmp_path / "levels"
    shutil.copytree(SAMPLES, folder)
    w = make_window(qtbot, tmp_path)
    assert w.open_file(str(folder / "game_content.json"))
    w.notes = []
    w.show_notes = lambda title, text, notes: w.notes.append((title, list(notes)))
    return w, folder


def test_export_as_a_tiled_map_writes_it_and_keeps_the_level_s_own_file(qtbot, tmp_path):
    w, folder = opened(qtbot, tmp_path)
    for suffix in (".tmx", ".tmj"):
        target = folder / f"courtyard{suffix}"
        w.ask_export_path = lambda: str(target)
        key(w, Qt.Key_E, Qt.ControlModifier)
        assert target.is_file() and not w.errors
        back = read_tiled(target, level_dir=str(folder)).level
        assert [o.id for o in back.objects] == [o.id for o in w.document.objects]
        assert back.types == w.document.level.types and back.properties == w.document.level.properties
    assert w.path == str(folder / "game_content.json") and not w.is_modified()


def test_export_as_level_json_writes_a_copy_with_hulls(qtbot, tmp_path):
    w, folder = opened(qtbot, tmp_path)
    target = tmp_path / "copy.json"
    w.ask_export_path = lambda: str(target)
    assert w.export_as()
    copy = pictures_moved(w.document.level, str(folder), str(tmp_path))  # the copy names its pictures from there
    assert load_level(target) == copy and json.loads(target.read_text())["hulls"]["level"]
    assert [o.path for o in copy.objects if o.kind == "image"] == ["levels/art/courtyard.png"]


def test_a_failed_export_says_why_and_writes_nothing(qtbot, tmp_path):
    w, folder = opened(qtbot, tmp_path)
    w.ask_export_path = lambda: str(tmp_path / "missing-folder" / "x.tmx")
    assert not w.export_as()
    assert w.errors == [("Could not export level", "x.tmx was not written: No such file or directory.",
                         "The open level is as it was.")]


def test_import_opens_a_map_as_an_unsaved_level_and_lists_what_it_could_not_hold(qtbot, tmp_path):
    w, _ = opened(qtbot, tmp_path)
    hall = tmp_path / "hall.tmj"
    hall.write_text(json.dumps(HALL))
    w.ask_import_path = lambda: str(hall)
    key(w, Qt.Key_I, Qt.ControlModifier)
    assert [o.id for o in w.document.objects] == ["crate"]
    assert w.path is None and w.is_modified()
    (title, notes), = w.notes
    assert "hall.tmj: object sign (id 2): text objects are left out" in notes


def test_open_imports_a_tiled_map_and_a_broken_one_leaves_the_level_as_it_was(qtbot, tmp_path):
    w, _ = opened(qtbot, tmp_path)
    before = w.document.level
    broken = tmp_path / "broken.tmx"
    broken.write_text("<map orientation='isometric'")
    assert not w.open_file(str(broken))
    assert w.document.level is before and w.errors[-1][0] == "Could not import map"
    hall = tmp_path / "hall.tmj"
    hall.write_text(json.dumps(HALL))
    assert w.open_file(str(hall)) and w.document.get("crate") is not None


def test_a_dropped_tiled_map_is_imported(qtbot, tmp_path):
    w, _ = opened(qtbot, tmp_path)
    hall = tmp_path / "hall.tmj"
    hall.write_text(json.dumps(HALL))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(hall))])
    pos = QPointF(w.canvas.geometry().center())
    enter = QDragEnterEvent(pos.toPoint(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(w, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(w, QDropEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert w.document.get("crate") is not None


def test_a_long_export_runs_beside_the_window_and_the_check_comes_back_after_it(qtbot, tmp_path, monkeypatch):
    import level_editor.editor.documents.tiled as tiled_actions_module
    import level_editor.editor.work.validation_runner as runner_module
    from tests.editor.helpers import WindowAnswers

    monkeypatch.setattr(runner_module, "SAVE_CHECKS_UP_TO", 2)  # the sample level is "large"
    w, folder = opened(qtbot, tmp_path)
    qtbot.waitUntil(lambda: w.checks.result_for(w.document.level) is not None and not w.checks.busy, timeout=10_000)
    w.checks.current = None  # as if no check of this level were done yet (one running is stopped by the export)
    # the export's save lasts until the window has answered its timer ten times meanwhile (tests/editor/helpers.py)
    answers = WindowAnswers()
    monkeypatch.setattr(tiled_actions_module, "save_level", answers.wrap(tiled_actions_module.save_level))
    target = tmp_path / "copy.json"
    w.ask_export_path = lambda: str(target)
    with answers:
        assert w.export_as()
    assert answers.seen == WindowAnswers.BESIDE and not w.errors
    assert answers.busy == [True] * answers.ticks  # the window kept answering, and said it was busy
    assert load_level(target) == pictures_moved(w.document.level, str(folder), str(tmp_path))
    # the problems of the level come back once the export is done with the machine
    qtbot.waitUntil(lambda: w.checks.result_for(w.document.level) is not None and not w.checks.busy, timeout=10_000)


def test_import_notes_show_whole_and_wrapped_at_the_default_size_without_show_details(qtbot, tmp_path):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QAbstractScrollArea, QMessageBox, QPushButton

    w = make_window(qtbot, tmp_path)
    w.resize(1280, 800)
    hall = dict(HALL, layers=[{"type": "objectgroup", "name": "Things", "objects": [
        {"id": i, "name": f"sign-with-a-rather-long-name-{i}", "x": 16 * i, "y": 0, "text": {"text": "Hi"}}
        for i in range(1, 7)]}])
    path = tmp_path / "hall.tmj"
    path.write_text(json.dumps(hall))
    seen = {}

    def look_and_close():
        box = QApplication.activeModalWidget()
        seen["title"] = box.windowTitle()
        seen["message box"] = isinstance(box, QMessageBox)
        seen["buttons"] = [b.text() for b in box.findChildren(QPushButton)]
        for area in box.findChildren(QAbstractScrollArea):
            if area.isVisible():
                seen["text"] = area.document().toPlainText() if hasattr(area, "document") else ""
                seen["scrolls"] = (area.horizontalScrollBar().maximum(), area.verticalScrollBar().maximum())
                seen["inside"] = box.rect().contains(area.geometry())
        box.grab().save(str(tmp_path / "notes.png"))
        box.accept() if hasattr(box, "accept") else box.close()

    QTimer.singleShot(0, look_and_close)
    assert w.import_map(str(path), ask=False)
    assert seen["title"] == "Imported with notes" and not seen["message box"]
    assert not any("Details" in text for text in seen["buttons"])
    for i in range(1, 7):  # every note whole, none behind a button or scrolled away
        assert f"object sign-with-a-rather-long-name-{i} (id {i}): text objects are left out" in seen["text"]
    assert seen["scrolls"] == (0, 0) and seen["inside"]
