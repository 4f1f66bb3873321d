"""A big level's whole-level picture painted in a child process while the window makes its items
(level_editor.editor.canvas.picture_ahead): the same picture, taken when it comes first, dropped when the level changed."""
from __future__ import annotations

import os
import time

import pytest
from PySide6.QtCore import QRectF

import level_editor.core.work.background_call as background_call
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Image, Level
from level_editor.editor.canvas import picture_ahead
from level_editor.editor.canvas import slices as slices_module
from level_editor.editor.canvas.overview import LevelOverview
from level_editor.editor.canvas.level_items import shown_items
from level_editor.editor.canvas.scene import LevelScene
from tests.editor.canvas.test_overview import pillar_grid
from tests.editor.helpers import finished, gone

pytestmark = pytest.mark.skipif(not background_call.FORK, reason="children are forked on Linux only")


def opened(monkeypatch) -> LevelScene:
    """A scene that has just opened 2,500 pillars with their items made ahead, no piece of its picture painted."""
    monkeypatch.setattr(slices_module, "PREPARE_AT", 10)
    doc = LevelDocument(Level())
    scene = LevelScene(doc)
    level = pillar_grid()
    scene.prepare(level, between=lambda: None)
    doc.reset(level)
    scene.overview.deadline = -1.0  # the first frame is out of time already
    scene.overview.refresh()
    return scene


def test_the_picture_painted_beside_the_window_is_taken_when_it_comes_and_is_the_one_the_window_paints(
        qtbot, monkeypatch):
    scene = opened(monkeypatch)
    overview = scene.overview
    call = overview._elsewhere
    assert isinstance(call, picture_ahead.PictureAhead) and call._call.pid != os.getpid()
    assert overview.pieces_left and overview.renders == 0
    finished(call, timeout=20.0)
    painted = overview.paint_pieces(time.perf_counter() + 1.0)
    # the whole picture at once, not one piece of it painted here
    assert painted is not None and painted.contains(scene.level_rect())
    assert not overview.pieces_left and overview.renders == 0 and overview.is_current()
    assert len(overview._mips) >= 2 and not any(overview._pending)  # halved with it, not in a later frame
    at_once = LevelOverview(scene.level_rect, scene._overview_items, scene.__len__)
    at_once.refresh()
    assert at_once.renders == 1 and overview.image == at_once.image


def test_a_change_before_the_picture_comes_drops_it_and_the_window_paints_the_change(qtbot, monkeypatch):
    scene = opened(monkeypatch)
    overview = scene.overview
    call = overview._elsewhere
    pid = call._call.pid
    first = scene.document.objects[0]
    scene.document.replace_objects([first.id], [first.moved(3, 0)])  # an edit, as a command makes it
    assert overview._elsewhere is None and gone(pid)
    while overview.paint_pieces(time.perf_counter() + 1.0) is not None:
        pass
    overview.refresh()
    at_once = LevelOverview(scene.level_rect, scene._overview_items, scene.__len__)
    at_once.refresh()
    assert overview.renders > 1 and overview.image == at_once.image


def test_the_window_paints_alone_where_nothing_is_gained_or_it_cannot_be_painted_ahead(monkeypatch):
    big = pillar_grid()
    assert picture_ahead.start(Level(objects=big.objects[:100]), shown_items) is None  # no picture at all
    with_picture = Level(objects=big.objects + (Image("art", "art.png", (0, 0)),))
    assert picture_ahead.start(with_picture, shown_items) is None  # read from the level's folder
    monkeypatch.setattr(background_call, "FORK", False)
    assert picture_ahead.start(big, shown_items) is None  # on a thread it would only share the interpreter


def test_the_child_paints_the_picture_the_scene_would(qtbot):
    level = pillar_grid()
    scene = LevelScene(LevelDocument(level))
    at_once = LevelOverview(scene.level_rect, scene._overview_items, scene.__len__)
    at_once.refresh()
    geometry, pixels = finished(picture_ahead.start(level, shown_items), timeout=20.0).result()
    assert geometry == at_once.geometry()
    assert (pixels == at_once.pixels()).all()
    assert QRectF(*geometry[2]) == at_once.rect
