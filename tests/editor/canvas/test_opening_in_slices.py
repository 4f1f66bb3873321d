"""Opening a big level without freezing the window: its items go into the scene a slice at a time, and its
whole-level picture is painted a piece at a time, the middle of the view first, between frames."""
from __future__ import annotations

import itertools

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor

import level_editor.editor.canvas.canvas as canvas_module
import level_editor.editor.canvas.overview as overview_module
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Level
from level_editor.editor.canvas import slices as slices_module
from level_editor.editor.canvas.overview import LevelOverview
from level_editor.editor.canvas.scene import LevelScene
from level_editor.editor.items.object_item import ObjectItem
from tests.editor.canvas.test_overview import drawn_near, grab, pillar_grid, pixel_of
from tests.editor.canvas.test_scene_prepare import big_level, shown
from tests.editor.helpers import make_window


def pillar_scene(monkeypatch) -> LevelScene:
    """2,500 pillars (an overview picture of them), its picture cut into many small pieces."""
    monkeypatch.setattr(overview_module, "PIECE", 64)
    return LevelScene(LevelDocument(pillar_grid()))


def new_picture(scene: LevelScene) -> LevelOverview:
    """The scene's overview with a new picture begun and no piece of it painted (the frame was out of time)."""
    overview = scene.overview
    overview.new_level()
    overview.deadline = -1.0
    overview.refresh()
    return overview


def alpha_at(overview: LevelOverview, x: float, y: float) -> int:
    """How opaque the picture is at scene point (x, y)."""
    r, s = overview.rect, overview.scale()
    return QColor.fromRgba(overview.image.pixel(int((x - r.left()) * s), int((y - r.top()) * s))).alpha()


def test_a_new_picture_is_painted_a_piece_at_a_time_nearest_the_view_first_and_ends_as_one_painted_at_once(
        qtbot, monkeypatch):
    scene = pillar_scene(monkeypatch)
    overview = scene.overview
    # a clock that moves one step each time it is read: a deadline two steps away leaves time for one piece
    clock = itertools.count()
    monkeypatch.setattr(overview_module.time, "perf_counter", lambda: next(clock))
    overview.new_level()
    overview.deadline = -1.0  # the frame is out of time already
    overview.refresh()
    assert overview.pieces_left and not overview.is_current()
    assert alpha_at(overview, 2500, 2500) == 0 and alpha_at(overview, 0, 0) == 0  # nothing shown yet
    painted = overview.paint_pieces(next(clock) + 2, focus=QPointF(2500, 2500))
    assert painted is not None and painted.contains(QPointF(2500, 2500))
    assert alpha_at(overview, 2500, 2500) > 0 and alpha_at(overview, 0, 0) == 0  # the middle first, not the rest
    while overview.paint_pieces(next(clock) + 2, focus=QPointF(2500, 2500)) is not None:
        pass
    assert not overview.pieces_left and overview.is_current()
    at_once = LevelOverview(scene.level_rect, scene._overview_items, scene.__len__)
    at_once.refresh()  # no deadline: the whole picture in one pass
    assert overview.image == at_once.image


def test_pieces_painted_in_a_frame_are_those_it_shows(qtbot, monkeypatch):
    scene = pillar_scene(monkeypatch)
    overview = new_picture(scene)
    # a frame of one corner of the level paints the pieces there and none elsewhere (they would not show)
    painted = overview.paint_pieces(None, within=QRectF(-50, -50, 300, 300))
    assert painted is not None and painted.contains(QRectF(-50, -50, 300, 300).intersected(overview.rect))
    assert alpha_at(overview, 0, 0) > 0 and alpha_at(overview, 2500, 2500) == 0
    assert overview.pieces_left


def test_an_opened_level_shows_nothing_of_the_last_one_and_the_next_frames_paint_it(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path, pillar_grid())
    canvas = window.canvas
    canvas.fit_level()
    old = pixel_of(window, 0, 0)
    assert drawn_near(grab(window), old)
    shifted = pillar_grid()
    shifted = Level(name="shifted", grid=16, player=shifted.player,
                    objects=tuple(p.moved(50, 50) for p in shifted.objects))
    monkeypatch.setattr(canvas_module, "TILE_BUDGET_S", -1.0)  # the first frame paints no piece
    window.set_level(shifted)
    canvas.viewport().repaint()
    first = canvas.viewport().grab().toImage()
    new = pixel_of(window, 50, 50)
    assert old == pixel_of(window, 0, 0)  # the same view of the same area
    # neither the last level's picture nor the new one yet: the background, as before any level is shown
    assert not drawn_near(first, old) and not drawn_near(first, new)
    assert not canvas.settled()
    qtbot.waitUntil(canvas.settled, timeout=10_000)  # painted by frames the canvas asks for itself
    last = canvas.viewport().grab().toImage()
    assert drawn_near(last, new) and drawn_near(last, pixel_of(window, 4950, 4950))
    assert not drawn_near(last, old, reach=0)


def test_a_big_level_s_items_go_into_the_scene_a_slice_at_a_time_the_window_answering(qtbot, monkeypatch):
    monkeypatch.setattr(slices_module, "PREPARE_AT", 10)
    monkeypatch.setattr(slices_module, "ANSWER_EVERY", 0.0)
    monkeypatch.setattr(slices_module, "SLICE", 7)
    doc = LevelDocument(Level())
    scene = LevelScene(doc)
    level = big_level(60)
    in_scene, found = [], []

    def between():
        in_scene.append(sum(isinstance(it, ObjectItem) for it in scene.items()))  # (the layers' items left out)
        found.append(len(scene.items(QRectF(-1e6, -1e6, 2e6, 2e6))))  # the shown ones, through the index

    scene.prepare(level, between=between)
    in_scene.clear()
    found.clear()
    doc.reset(level)
    # the window answered before and between slices of seven (the player is there too), each found as it went in
    assert in_scene == [1, *range(8, 61, 7), 61]
    assert found == sorted(set(found)) and found[-1] == 1 + 40  # a third of them are on a hidden layer
    at_once = LevelScene(LevelDocument(level))
    assert shown(scene).keys() == shown(at_once).keys()
    assert all(a[:3] == b[:3] for a, b in zip(shown(scene).values(), shown(at_once).values()))
    assert scene.object_at(QPointF(0 * 40 + 10, 5)) == "box-0"
    # another big level: the last one's items leave with their layers' items, in one pass of Qt's, then the new
    # ones come a slice at a time
    other = big_level(30)
    scene.prepare(other, between=between)
    in_scene.clear()
    doc.reset(other)
    assert in_scene == [61, *range(8, 31, 7), 31]
    assert scene.object_at(QPointF(0 * 40 + 10, 5)) == "box-0" and len(scene) == 30


def test_no_piece_is_painted_while_a_file_task_runs_or_the_view_moves(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path, pillar_grid())
    canvas, overview = window.canvas, window.scene.overview
    canvas.fit_level()
    grab(window)
    monkeypatch.setattr(canvas_module, "TILE_BUDGET_S", -1.0)
    window.set_level(pillar_grid())
    canvas.viewport().repaint()
    left = len(overview._unpainted)
    assert left and canvas._refine.isActive()
    monkeypatch.setattr(canvas_module.long_task, "busy", True)  # a save's worker runs Python beside the window
    canvas._refine_picture()
    assert len(overview._unpainted) == left and canvas._refine.isActive()
    monkeypatch.setattr(canvas_module.long_task, "busy", False)
    canvas.pan_by(1, 0)  # the view moves: its frames come first
    canvas._refine_picture()
    assert len(overview._unpainted) == left and canvas._refine.isActive()
    qtbot.waitUntil(canvas.settled, timeout=10_000)
    assert not overview.pieces_left


def _largest_difference(a, b) -> int:
    """The largest difference of one colour channel between two pictures of one size."""
    assert a.size() == b.size()

    def channels(image):
        image = image.convertToFormat(image.Format.Format_ARGB32_Premultiplied)
        return np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes()).astype(int)
    return int(np.abs(channels(a) - channels(b)).max())


def test_halved_copies_made_while_the_picture_is_painted_end_as_halving_it_whole(qtbot, monkeypatch):
    scene = pillar_scene(monkeypatch)
    overview = new_picture(scene)
    # a frame zoomed out before any piece is painted: its halved copies are made, empty, costing nothing
    assert overview._level(2).pixel(3, 3) == 0
    overview.paint_pieces(None, within=QRectF(-50, -50, 1500, 1500))
    assert overview.pieces_left
    # one made now halves the pieces painted so far, not the whole picture
    half = overview._level(1)
    r, s = overview.rect, overview.scale() / 2
    assert QColor.fromRgba(half.pixel(int((2500 - r.left()) * s), int((2500 - r.top()) * s))).alpha() == 0
    while overview.paint_pieces(None) is not None:
        pass
    at_once = LevelOverview(scene.level_rect, scene._overview_items, scene.__len__)
    at_once.refresh()
    for k in (1, 2, 3):
        assert _largest_difference(overview._level(k), at_once._level(k)) <= 1, k
