"""The scene at 100,000 objects, behaviour only: a drag of many objects is shown before it changes the level,
a move of everything moves the overview picture, the level's bounds are read once, long walls open at once,
and an error inside an item's drawing is reported instead of reaching Qt.

How fast these are is measured by ``python -m tests.benchmarks.bench_editor``.
"""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from level_editor.core.level.model import Box, Level, Pillar, Player, Wall
from level_editor.editor.support import guard
from level_editor.editor.canvas.scene import LevelScene
from level_editor.editor.items import wall_item
from level_editor.editor.items.box_item import BoxItem
from level_editor.editor.commands.move import MoveObjectsCommand
from level_editor.editor.items.pillar_item import PillarItem
from level_editor.editor.items.wall_item import WallItem
from level_editor.core.level.document import LevelDocument
from level_editor.editor.tools import select_tool
from tests.editor.helpers import at, hover, key, make_window, move, press, release, undo_texts

SPACING = 100.0


def pillar_grid(side: int) -> Level:
    """Pillars on a square grid, the spawn outside it."""
    objects = [Pillar(f"pillar-{i}-{j}", (i * SPACING, j * SPACING), 12) for j in range(side) for i in range(side)]
    return Level(name="grid", grid=16, player=Player(spawn=(-300, -300), radius=12), objects=tuple(objects))


@pytest.fixture
def many(qtbot, tmp_path, monkeypatch):
    """A window with 400 pillars, all selected, at 100%; drags of more than 50 objects are shown before done."""
    monkeypatch.setattr(select_tool, "LIVE_MOVE_LIMIT", 50)
    window = make_window(qtbot, tmp_path, pillar_grid(20))
    window.canvas.centerOn(500, 500)
    window.select_all()
    return window


def test_a_drag_of_many_objects_shows_them_moving_and_changes_the_level_once_on_release(many):
    window, doc = many, many.document
    before = doc.objects
    hover(window, 400, 400)
    press(window, 400, 400)
    move(window, 410, 405)
    move(window, 432, 416)
    # the level is as it was; the items show where the objects are going
    assert doc.objects is before
    assert window.scene.moving
    item = window.scene.item("pillar-0-0")
    assert (item.pos().x(), item.pos().y()) == (32.0, 16.0)
    assert window.undo_stack.count() == 0
    release(window, 432, 416)
    assert not window.scene.moving
    assert undo_texts(window) == ["Move 400 pillars"]
    assert doc.get("pillar-0-0").center.x == 32 and doc.get("pillar-19-19").center.y == 1900 + 16
    assert (item.pos().x(), item.pos().y()) == (32.0, 16.0)
    # picking finds a pillar at its new place, not at its old one
    assert window.scene.object_at(QPointF(32, 16), 0.5) == "pillar-0-0"
    window.undo_stack.undo()
    assert doc.objects == before and all(a is b for a, b in zip(doc.objects, before))
    assert (item.pos().x(), item.pos().y()) == (0.0, 0.0)
    window.undo_stack.redo()
    assert doc.get("pillar-0-0").center.x == 32


def test_escape_in_a_drag_of_many_objects_puts_every_item_back(many):
    window, doc = many, many.document
    before = doc.objects
    hover(window, 400, 400)
    press(window, 400, 400)
    move(window, 464, 432)
    key(window, Qt.Key_Escape)
    release(window, 464, 432)
    assert doc.objects is before and window.undo_stack.count() == 0 and not window.is_modified()
    assert not window.scene.moving
    assert all(window.scene.item(o.id).pos() == QPointF(o.center.x, o.center.y) for o in before)


def test_a_drag_of_many_objects_back_to_its_start_leaves_no_step(many):
    window = many
    hover(window, 400, 400)
    press(window, 400, 400)
    move(window, 464, 432)
    move(window, 400, 400)
    release(window, 400, 400)
    assert window.undo_stack.count() == 0
    assert window.scene.item("pillar-4-4").pos() == QPointF(400, 400)


def test_a_change_of_the_level_in_the_middle_of_a_drag_of_many_objects_ends_it(many):
    window, doc = many, many.document
    hover(window, 400, 400)
    press(window, 400, 400)
    move(window, 464, 432)
    # a panel renames a pillar mid-drag: that change wins, the drag ends and everything shows the level as it is
    old = doc.get("pillar-1-1")
    doc.replace_objects([old.id], [old.with_id("renamed")])
    move(window, 480, 480)
    release(window, 480, 480)
    assert not window.scene.moving and window.undo_stack.count() == 0
    assert window.scene.item("renamed").pos() == QPointF(100, 100)
    assert window.scene.item("pillar-4-4").pos() == QPointF(400, 400)


def test_moving_everything_moves_the_overview_picture_instead_of_repainting_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid(50))
    window.canvas.fit_level()
    window.canvas.viewport().repaint()
    scene, overview = window.scene, window.scene.overview
    assert scene.overview_active
    window.select_all()
    window.canvas.viewport().repaint()
    qtbot.waitUntil(window.canvas.settled)  # the selected look, painted a slice at a time
    rect = overview.rect
    # the areas the overview paints again from here on (a hover highlight is a small one)
    painted = []
    items_in = overview._items_in
    overview._items_in = lambda area: painted.append(area) or items_in(area)
    start = at(window, 2500, 2500)
    press(window, 2500, 2500)
    for i in range(1, 5):
        move(window, 2500 + 100 * i, 2500 + 50 * i, modifiers=Qt.ControlModifier)
        window.canvas.viewport().repaint()
    assert window.document.get("pillar-0-0").center.x == 0  # shown moving, not moved yet
    release(window, 2900, 2700, modifiers=Qt.ControlModifier)
    window.canvas.viewport().repaint()
    dx = window.document.get("pillar-0-0").center.x
    dy = window.document.get("pillar-0-0").center.y
    assert dx != 0 and dy != 0 and start is not None
    level = window.scene.level_rect()
    assert all(r is not None and r.width() * r.height() < level.width() * level.height() / 100 for r in painted)
    assert overview.rect == rect.translated(dx, dy)
    # what the canvas shows is what a new picture of the moved level shows
    moved = window.canvas.viewport().grab().toImage()
    before = len(painted)
    overview.invalidate(None)
    window.canvas.viewport().repaint()
    qtbot.waitUntil(window.canvas.settled)
    fresh = window.canvas.viewport().grab().toImage()
    assert overview.is_current() and len(painted) > before  # this time a whole new picture
    assert _share_of_different_pixels(moved, fresh) < 0.02
    window.undo_stack.undo()
    assert window.document.get("pillar-0-0").center.x == 0


def _share_of_different_pixels(a: QImage, b: QImage) -> float:
    a = a.convertToFormat(QImage.Format_RGB32)
    b = b.convertToFormat(QImage.Format_RGB32)
    assert a.size() == b.size()
    different = total = 0
    for y in range(0, a.height(), 3):
        for x in range(0, a.width(), 3):
            pa, pb = a.pixel(x, y), b.pixel(x, y)
            total += 1
            if any(abs(((pa >> s) & 255) - ((pb >> s) & 255)) > 48 for s in (0, 8, 16)):
                different += 1
    return different / total


def test_opening_a_level_reads_its_bounds_once(monkeypatch, qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    calls = []
    real = Level.bounds

    def counted(level):
        calls.append(level)
        return real(level)

    monkeypatch.setattr(Level, "bounds", counted)
    window.set_level(pillar_grid(50))
    window.canvas.fit_level()
    window.canvas.viewport().repaint()
    assert len(calls) == 1


def ring(nodes: int, radius: float = 2000.0) -> Wall:
    points = [(radius * math.cos(2 * math.pi * i / nodes), radius * math.sin(2 * math.pi * i / nodes))
              for i in range(nodes)]
    return Wall("ring", points, 8, True)


def test_a_closed_wall_of_20000_nodes_keeps_its_outline():
    # making its item took a minute once, nearly all in QPainterPath.simplified(): tests/benchmarks/bench_parts.py
    wall = ring(20_000)
    item = WallItem(wall)
    outline = item.shape()
    # relative to the first node (2000, 0), where the item is anchored: on the band inside, the ring's middle
    # and a point just outside the band not
    assert outline.contains(QPointF(0, 0))
    assert not outline.contains(QPointF(-2000, 0))
    assert not outline.contains(QPointF(20, 0))


def _draw(wall: Wall, selected: bool) -> QImage:
    image = QImage(400, 300, QImage.Format_ARGB32_Premultiplied)
    image.fill(0xFFFFFFFF)
    item = WallItem(wall)
    if selected:
        item.looks.selected = {wall.id}
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing, True)
    painter.translate(wall.points[0].x, wall.points[0].y)
    item.paint_at(painter, 1.0)
    painter.end()
    return image


@pytest.mark.parametrize("selected", [False, True], ids=["normal", "selected"])
def test_a_long_wall_looks_as_a_short_one_does(monkeypatch, selected):
    # a winding wall of 300 nodes: drawn unsimplified (the edge as a wider stroke) it looks as the simplified
    # outline does
    points = [(20 + i * 1.2, 150 + 60 * math.sin(i / 12)) for i in range(300)]
    wall = Wall("winding", points, 12, False)
    assert len(wall.points) > wall_item.SIMPLIFY_NODES
    WallItem._shapes.clear()
    long_look = _draw(wall, selected)
    monkeypatch.setattr(wall_item, "SIMPLIFY_NODES", 10_000)
    WallItem._shapes.clear()
    short_look = _draw(wall, selected)
    WallItem._shapes.clear()
    # the picture is 400x300 and the wall about 2,200 pixels of edge: a shade of antialiasing along the edge differs
    assert _share_of_different_pixels(long_look, short_look) < 0.02
    assert _share_of_different_pixels(long_look, _draw(Wall("other", [(20, 20), (380, 20)], 12, False), selected)) > 0.04


def test_an_error_while_drawing_an_object_is_reported_not_raised(monkeypatch, qtbot):
    reported = []
    guard.set_error_handler(lambda where, error, *more: reported.append((where, str(error))))
    try:
        def broken(self, painter, look, selected, zoom):
            raise RuntimeError("no paint left")

        monkeypatch.setattr(BoxItem, "paint_object", broken)
        scene = LevelScene(LevelDocument(Level(objects=(Box("box-1", (0, 0), (64, 32)),))))
        image = QImage(200, 200, QImage.Format_ARGB32_Premultiplied)
        image.fill(0)
        painter = QPainter(image)
        scene.render(painter, QRectF(0, 0, 200, 200), QRectF(-10, -10, 100, 100))
        painter.end()
    finally:
        guard.set_error_handler(None)
    assert ("drawing an object on the canvas", "no paint left") in reported


def _repainted(window, do, x: float, y: float) -> bool:
    """Whether ``do()`` has the canvas repaint level point ``(x, y)`` (and then shows a pillar there)."""
    window.canvas.viewport().repaint()
    asked = []
    window.scene.changed.connect(asked.extend)
    do()
    QApplication.processEvents()
    window.scene.changed.disconnect(asked.extend)
    return any(r.contains(QPointF(x, y)) for r in asked) and _pillar_at(window, x, y)


def _pillar_at(window, x: float, y: float) -> bool:
    """Whether the canvas shows a pillar (its fill, lightened as selected) at level point ``(x, y)``."""
    window.canvas.viewport().repaint()
    image = window.canvas.viewport().grab().toImage()
    p = window.canvas.mapFromScene(QPointF(x, y))
    fill = PillarItem.FILL.lighter(115)
    color = image.pixelColor(p.x(), p.y())
    return all(abs(a - b) < 24 for a, b in zip((color.red(), color.green(), color.blue()),
                                                (fill.red(), fill.green(), fill.blue())))


def test_objects_coming_into_view_are_drawn(many):
    # items draw once a frame shows them: one that comes into view must ask for that frame
    window, scene = many, many.scene
    # pillar-15-5 at (1500, 500) is right of the view; shown 650 units to the left it is in it, between two others
    assert window.canvas.mapFromScene(QPointF(1500, 500)).x() > window.canvas.viewport().width()
    assert not _pillar_at(window, 850, 500) and _pillar_at(window, 800, 500)
    ids = [o.id for o in window.document.objects]
    assert _repainted(window, lambda: scene.show_moving(ids, -650, 0), 850, 500)
    scene.end_moving()
    assert not _pillar_at(window, 850, 500)
    # and when the level itself moves them there (an undo, a panel)
    move = MoveObjectsCommand(window.document, window.document.objects, -650, 0, "Move")
    assert _repainted(window, lambda: window.undo_stack.push(move), 850, 500)
