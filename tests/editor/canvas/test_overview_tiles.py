"""The overview's tiles at the view's own zoom, and the canvas drawing only the items over the picture.

A big level's whole-level picture is coarser than the view between its scale and MAX_TILED_ZOOM; there the
canvas shows tiles painted at the view's zoom, which must look like the items themselves, selection and
hover included, and follow edits at once. Here the picture's size limit is lowered so a small level does it.
"""
from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication, QGraphicsRectItem

import level_editor.editor.canvas.canvas as canvas_module
import level_editor.editor.canvas.overview as overview_module
from level_editor.core.level.model import Level, Pillar, Player
from level_editor.editor.canvas.canvas import _merge_rects
from level_editor.editor.commands.objects import ChangeObjectsCommand
from level_editor.editor.commands.layers import show_layer_command
from tests.editor.canvas.test_overview import drawn_near, pixel_of
from tests.editor.helpers import make_window

SPACING = 100.0


def pillar_grid(side: int = 50) -> Level:
    objects = [Pillar(f"pillar-{i}-{j}", (i * SPACING, j * SPACING), 12) for j in range(side) for i in range(side)]
    return Level(name="grid", grid=16, player=Player(spawn=(-300, -300), radius=12), objects=tuple(objects))


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    """2,500 pillars whose whole-level picture is 256 pixels wide (scale about 0.05): tiles from there to 100%."""
    monkeypatch.setattr(overview_module, "MAX_SIDE", 256)
    window = make_window(qtbot, tmp_path, pillar_grid())
    window.scene.overview.invalidate(None)
    window.canvas.set_zoom(0.2)
    window.canvas.centerOn(2000, 2000)
    # the level's check done (its problems and hulls drawn) and the canvas showing all of it
    qtbot.waitUntil(lambda: not window.checks.busy and window.canvas.settled(), timeout=30_000)
    return window


def settled(window) -> QImage:
    """The canvas once every tile in view is painted."""
    viewport = window.canvas.viewport()
    for _ in range(100):
        viewport.repaint()
        if window.scene.overview.complete:
            break
    assert window.scene.overview.complete
    return viewport.grab().toImage().convertToFormat(QImage.Format_RGB32)


def largest_difference(a: QImage, b: QImage) -> int:
    """The largest difference of a colour channel between two pictures of the same size."""
    worst = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if p != q:
                worst = max(worst, *(abs(((p >> k) & 255) - ((q >> k) & 255)) for k in (0, 8, 16)))
    return worst


def test_tiles_look_like_the_items_selection_and_hover_included(window):
    scene = window.scene
    window.selection.set(["pillar-20-20"])
    scene.set_hovered("pillar-21-20")
    # something see-through over the objects and the grid, drawn by Qt over the tiles: once, not twice
    veil = QGraphicsRectItem(1870, 1930, 460, 140)
    veil.setBrush(QBrush(QColor(255, 255, 255, 90)))
    veil.setZValue(2e9)
    scene.addItem(veil)
    tiled = settled(window)
    assert scene.overview_active and scene.overview.scale() < window.canvas.zoom()
    scene.overview.min_objects = 10 ** 9  # the items draw themselves
    drawn = settled(window)
    assert not scene.overview_active
    # antialiased edges blended onto a tile first may round a few levels differently, nothing more
    assert largest_difference(tiled, drawn) <= 24
    selected = tiled.pixel(pixel_of(window, 2000, 2000 - 12))
    plain = tiled.pixel(pixel_of(window, 2200, 2000 - 12))
    assert selected != plain


def test_a_frame_out_of_time_shows_the_picture_and_the_next_frames_paint_the_tiles(window, qtbot, monkeypatch):
    scene, canvas = window.scene, window.canvas
    monkeypatch.setattr(canvas_module, "TILE_BUDGET_S", -1.0)  # every frame is already out of time
    # a zoom never shown before: none of its tiles is painted, whatever frames ran since the window opened
    canvas.set_zoom(0.25)
    canvas.centerOn(2000, 2000)
    canvas.viewport().repaint()
    assert scene.overview_active and not scene.overview.complete
    rough = canvas.viewport().grab().toImage()
    assert drawn_near(rough, pixel_of(window, 2000, 2000), reach=2)  # the whole-level picture, scaled
    assert not canvas.settled()
    # the next frames, which nothing but the canvas itself asks for, paint the tiles, and then stop
    monkeypatch.setattr(canvas_module, "TILE_BUDGET_S", 0.05)
    qtbot.waitUntil(lambda: scene.overview.complete, timeout=10_000)
    assert canvas.settled()


def test_an_edit_shows_in_the_tiles_at_once(window, monkeypatch):
    scene = window.scene
    settled(window)
    monkeypatch.setattr(canvas_module, "TILE_BUDGET_S", -1.0)  # no new tile: only the painted ones change
    pillar = window.document.get("pillar-20-20")
    window.undo_stack.push(ChangeObjectsCommand(window.document, [pillar], [pillar.moved(50, 50)], "Move pillar"))
    window.canvas.viewport().repaint()
    assert scene.overview.complete
    image = window.canvas.viewport().grab().toImage()
    assert drawn_near(image, pixel_of(window, 2050, 2050)) and not drawn_near(image, pixel_of(window, 2000, 2000))
    window.undo_stack.undo()
    window.canvas.viewport().repaint()
    image = window.canvas.viewport().grab().toImage()
    assert drawn_near(image, pixel_of(window, 2000, 2000)) and not drawn_near(image, pixel_of(window, 2050, 2050))


def test_a_hidden_layer_leaves_the_tiles(window):
    before = settled(window)
    assert drawn_near(before, pixel_of(window, 2000, 2000))
    layer = window.document.level.layers[0].id
    window.context.push(show_layer_command(window.document, layer, False))
    assert not drawn_near(settled(window), pixel_of(window, 2000, 2000))
    window.undo_stack.undo()
    assert drawn_near(settled(window), pixel_of(window, 2000, 2000))


def test_items_over_the_objects_are_drawn_over_the_picture_and_go_when_removed(window):
    scene, canvas = window.scene, window.canvas
    canvas.fit_level()
    settled(window)
    assert scene.overview_active
    mark = QGraphicsRectItem(2000, 2000, 300, 300)
    mark.setBrush(QBrush(QColor(10, 250, 30)))
    mark.setZValue(2e9)
    scene.addItem(mark)
    assert mark in scene.overlay_items() and scene.player_item in scene.overlay_items()
    image = settled(window)
    assert QColor(image.pixel(pixel_of(window, 2150, 2150))) == QColor(10, 250, 30)
    # the spawn too
    assert drawn_near(image, pixel_of(window, -300, -300))
    scene.removeItem(mark)
    assert mark not in scene.overlay_items()
    image = settled(window)
    assert QColor(image.pixel(pixel_of(window, 2150, 2150))) != QColor(10, 250, 30)


def test_overlapping_areas_are_joined_and_separate_ones_kept():
    a, b, c = QRect(0, 0, 10, 10), QRect(5, 5, 10, 10), QRect(100, 100, 5, 5)
    merged = _merge_rects([a, c, b])
    assert sorted((r.x(), r.y(), r.width(), r.height()) for r in merged) == [(0, 0, 15, 15), (100, 100, 5, 5)]
    # a rectangle joining two others pulls them into one
    assert len(_merge_rects([QRect(0, 0, 10, 10), QRect(20, 0, 10, 10), QRect(5, 0, 20, 10)])) == 1


def test_a_change_of_everything_repaints_the_tiles_in_view_at_once_and_the_picture_when_shown(window, monkeypatch,
                                                                                             qtbot):
    scene, canvas = window.scene, window.canvas
    plain = settled(window).pixel(pixel_of(window, 2000, 2000))
    overview = scene.overview
    asked = []
    items_in = overview._items_in
    overview._items_in = lambda area: asked.append(area) or items_in(area)
    monkeypatch.setattr(canvas_module, "TILE_BUDGET_S", -1.0)  # no new tile: only the painted ones change
    window.select_all()  # every object looks different: everything is marked
    canvas.viewport().repaint()
    assert overview.complete
    image = canvas.viewport().grab().toImage()
    assert image.pixel(pixel_of(window, 2000, 2000)) != plain
    # the tiles in view, not a new picture of the whole level (seconds at 100,000 objects)
    assert asked and None not in asked
    before = len(asked)
    canvas.set_zoom(overview.scale() * 0.8)  # further out than the tiles: the picture itself
    canvas.centerOn(2000, 2000)
    canvas.viewport().repaint()
    # out of time: the last picture stands in, and the new one follows a piece at a time between frames
    assert drawn_near(canvas.viewport().grab().toImage(), pixel_of(window, 2000, 2000))
    assert not overview.is_current() and not canvas.settled()
    qtbot.waitUntil(overview.is_current, timeout=10_000)  # painted by frames the canvas asks for itself
    assert len(asked) > before and None not in asked
    assert canvas.viewport().grab().toImage().pixel(pixel_of(window, 2000, 2000)) != plain


def test_while_the_view_moves_a_python_worker_hands_the_interpreter_back_sooner(window, qtbot):
    """A wheel turn lowers Python's switch interval (the background check would keep the GUI waiting 5 ms a time)."""
    canvas = window.canvas
    canvas._switch_timer.setInterval(50)
    qtbot.waitUntil(lambda: not canvas_module._switch_holders, timeout=5_000)  # after the window's first paints
    before = sys.getswitchinterval()
    assert before > canvas_module.GUI_SWITCH_SECONDS
    zoom = canvas.zoom()
    viewport = canvas.viewport()
    middle = QPoint(viewport.width() // 2, viewport.height() // 2)
    event = QWheelEvent(QPointF(middle), QPointF(viewport.mapToGlobal(middle)), QPoint(), QPoint(0, 120),
                        Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(viewport, event)
    assert canvas.zoom() == pytest.approx(zoom * canvas_module.ZOOM_STEP)
    assert sys.getswitchinterval() == canvas_module.GUI_SWITCH_SECONDS
    # the view still for a moment: the interval is what it was
    qtbot.waitUntil(lambda: sys.getswitchinterval() == before, timeout=5_000)
    assert not canvas._switch_timer.isActive()
