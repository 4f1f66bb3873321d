"""The editor at scale: zoomed-out drawing (level of detail and the overview picture), shared selection
looks, and moving thousands of objects as one undo step.

Behaviour only: how fast these are is measured by ``python -m tests.benchmarks.bench_editor``.
"""
from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from level_editor.core.level.generate import generate_level
from level_editor.core.level.model import Box, Level, Pillar, Player, Wall
from level_editor.editor.canvas.canvas import AXIS_LINE, BACKGROUND, MAJOR_LINE, MINOR_LINE
from level_editor.editor.commands.objects import ChangeObjectsCommand
from level_editor.editor.canvas.overview import LevelOverview
from tests.editor.helpers import make_window

#: What an empty spot of the canvas can look like.
EMPTY = {QColor(c).rgb() for c in (BACKGROUND, MINOR_LINE, MAJOR_LINE, AXIS_LINE)}

SPACING = 100.0
SIDE = 50  # 2,500 objects: more than the overview's threshold


def pillar_grid(side: int = SIDE) -> Level:
    """Pillars on a square grid with empty gaps between them, and the spawn outside it."""
    objects = [Pillar(f"pillar-{i}-{j}", (i * SPACING, j * SPACING), 12)
               for j in range(side) for i in range(side)]
    return Level(name="grid", grid=16, player=Player(spawn=(-300, -300), radius=12), objects=tuple(objects))


def a_point_on(obj) -> tuple[float, float]:
    """A point certainly inside the object as drawn."""
    if isinstance(obj, Wall):
        a, b = obj.points[0], obj.points[1]
        return ((a.x + b.x) / 2, (a.y + b.y) / 2)
    if isinstance(obj, Box):
        return (obj.origin.x + obj.size.x / 2, obj.origin.y + obj.size.y / 2)
    return (obj.center.x, obj.center.y)


def drawn_near(image: QImage, pixel, reach: int = 1) -> bool:
    """Whether anything but background and grid is drawn within ``reach`` pixels of ``pixel``."""
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            x, y = pixel.x() + dx, pixel.y() + dy
            if 0 <= x < image.width() and 0 <= y < image.height() and image.pixel(x, y) | 0xFF000000 not in EMPTY:
                return True
    return False


def grab(window) -> QImage:
    """The canvas once it shows everything (a new picture of the level is painted a slice at a time)."""
    viewport = window.canvas.viewport()
    viewport.repaint()
    give_up = time.monotonic() + 10
    while not window.canvas.settled() and time.monotonic() < give_up:
        QApplication.processEvents()
    return viewport.grab().toImage()


def pixel_of(window, x: float, y: float):
    return window.canvas.mapFromScene(QPointF(x, y))


@pytest.fixture
def big(qtbot, tmp_path):
    """A window with a generated 3,000-object level (rooms, corridors, furniture), zoomed to fit."""
    window = make_window(qtbot, tmp_path, generate_level(3000, seed=3))
    window.canvas.fit_level()
    return window


@pytest.mark.parametrize("overview", [True, False], ids=["overview picture", "items, level of detail"])
def test_a_zoomed_out_view_draws_every_object(big, overview):
    scene = big.scene
    if not overview:
        scene.overview.min_objects = 10 ** 9
    image = grab(big)
    assert scene.overview_active is overview
    assert big.canvas.zoom() < 0.2  # most furniture is a pixel or two on screen
    missing = []
    for obj in big.document.objects:
        pixel = pixel_of(big, *a_point_on(obj))
        if not drawn_near(image, pixel):
            missing.append(obj.id)
    assert missing == []


def test_zooming_in_past_the_overview_shows_the_items_again(big):
    scene = big.scene
    grab(big)
    assert scene.overview_active
    box = next(o for o in big.document.objects if isinstance(o, Box))
    big.canvas.set_zoom(2.0)  # past the tiles too (editor/canvas/overview.py MAX_TILED_ZOOM)
    big.canvas.centerOn(*a_point_on(box))
    image = grab(big)
    assert not scene.overview_active
    assert drawn_near(image, pixel_of(big, *a_point_on(box)), reach=0)
    # the box's outline is drawn: its edge pixel differs from its inside
    inside = pixel_of(big, box.origin.x + box.size.x / 2, box.origin.y + box.size.y / 2)
    edge = pixel_of(big, box.origin.x, box.origin.y + box.size.y / 2)
    assert image.pixel(inside) != image.pixel(edge)


def test_the_overview_follows_a_move_and_its_undo(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid())
    window.canvas.fit_level()
    before = grab(window)
    assert window.scene.overview_active
    pillar = window.document.get("pillar-10-10")
    old = pixel_of(window, 1000, 1000)
    new = pixel_of(window, 1050, 1050)  # the middle of an empty gap
    assert drawn_near(before, old) and not drawn_near(before, new)

    moved = pillar.moved(50, 50)
    window.undo_stack.push(ChangeObjectsCommand(window.document, [pillar], [moved], "Move pillar"))
    after = grab(window)
    assert not drawn_near(after, old) and drawn_near(after, new)
    # the rest of the level is as it was
    assert drawn_near(after, pixel_of(window, 2000, 2000))

    window.undo_stack.undo()
    undone = grab(window)
    assert drawn_near(undone, old) and not drawn_near(undone, new)


def test_the_overview_grows_with_the_level(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid())
    window.canvas.fit_level()
    grab(window)
    far = window.scene.overview.rect.right() + 500
    pillar = window.document.get("pillar-0-0")
    moved = pillar.moved(far, 0)
    window.undo_stack.push(ChangeObjectsCommand(window.document, [pillar], [moved], "Move pillar"))
    window.canvas.fit_level()
    image = grab(window)
    assert window.scene.overview_active
    assert window.scene.overview.rect.contains(QPointF(moved.center.x, moved.center.y))
    assert drawn_near(image, pixel_of(window, moved.center.x, moved.center.y))


def test_the_overview_shows_the_selection(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid())
    window.canvas.fit_level()
    target = pixel_of(window, 2000, 2000)
    plain = grab(window).pixel(target)
    window.selection.set(["pillar-20-20"])
    selected = grab(window).pixel(target)
    assert window.scene.overview_active
    assert selected != plain
    window.selection.clear()
    assert grab(window).pixel(target) == plain


def test_scene_render_draws_the_objects_while_the_overview_stands_in(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid())
    window.canvas.fit_level()
    grab(window)
    assert window.scene.overview_active
    image = QImage(500, 500, QImage.Format_ARGB32_Premultiplied)
    image.fill(QColor(BACKGROUND))
    painter = QPainter(image)
    window.scene.render(painter, QRectF(0, 0, 500, 500), QRectF(-50, -50, 5000, 5000))
    painter.end()
    # pillar (i, j) sits at pixel (5 + i * 10, 5 + j * 10)
    assert drawn_near(image, QPointF(5 + 10 * 10, 5 + 10 * 10).toPoint())
    assert not drawn_near(image, QPointF(10 + 10 * 10, 10 + 10 * 10).toPoint())


def test_the_overview_is_not_used_for_small_levels(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid(side=10))
    window.canvas.fit_level()
    grab(window)
    window.canvas.set_zoom(0.02)
    grab(window)
    assert not window.scene.overview_active
    assert window.scene.overview.image is None


def test_overview_scale_stays_within_its_pixel_budget():
    overview = LevelOverview(lambda: QRectF(0, 0, 400_000, 100_000), lambda rect: [], lambda: 10 ** 6)
    s = overview.scale()
    r = overview.rect
    assert 0 < s <= 0.25
    assert r.width() * s <= 4096 + 1 and r.width() * r.height() * s * s <= 12_000_001


def test_select_all_shows_every_object_selected_and_clearing_shows_none(big):
    big.select_all()
    items = big.scene.object_items()
    assert len(items) == 3000 and all(it.is_selected_look for it in items)
    big.selection.set([items[5].object_id])
    assert [it.object_id for it in items if it.is_selected_look] == [items[5].object_id]
    big.selection.clear()
    assert not any(it.is_selected_look for it in items)


def test_hover_follows_renames(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid(side=3))
    scene = window.scene
    scene.set_hovered("pillar-1-1")
    assert scene.item("pillar-1-1").is_hovered
    old = window.document.get("pillar-1-1")
    window.undo_stack.push(ChangeObjectsCommand(window.document, [old], [old.with_id("renamed")], "Rename"))
    assert scene.hovered_id is None and not scene.item("renamed").is_hovered
    scene.set_hovered("no such object")
    assert scene.hovered_id is None


def test_swapping_two_ids_in_one_change_keeps_each_item_with_its_object(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, pillar_grid(side=3))
    a, b = window.document.get("pillar-0-0"), window.document.get("pillar-2-2")
    window.undo_stack.push(ChangeObjectsCommand(window.document, [a, b], [a.with_id(b.id), b.with_id(a.id)],
                                                "Swap names"))
    assert window.scene.item("pillar-2-2").value.center == a.center
    assert window.scene.item("pillar-0-0").value.center == b.center
    assert len(window.scene.object_items()) == 9


def test_moving_everything_is_one_undo_step_and_undo_restores_it(big):
    window = big
    original = window.document.level
    window.select_all()
    tool = window.tool_named("SelectTool")
    window.set_tool(tool)
    window.canvas.set_zoom(1.0)
    boxes = [o for o in original.objects if isinstance(o, Box)]
    box = boxes[len(boxes) // 2]
    start = QPointF(*a_point_on(box))
    # Ctrl: no snapping, so everything moves by exactly the mouse's travel
    tool.mouse_pressed(start, Qt.LeftButton, Qt.NoModifier)
    for i in range(1, 6):
        tool.mouse_moved(start + QPointF(16 * i, 32 * i), Qt.LeftButton, Qt.ControlModifier)
    tool.mouse_released(start + QPointF(80, 160), Qt.LeftButton, Qt.ControlModifier)

    assert window.undo_stack.count() == 1
    moved = window.document.objects
    assert len(moved) == 3000
    assert all(m == o.moved(80, 160) for m, o in zip(moved, original.objects))
    for obj in moved[::97]:
        item = window.scene.item(obj.id)
        x0, y0, x1, y1 = item.scene_box()
        bx0, by0, bx1, by1 = obj.bounds()
        assert x0 <= bx0 and y0 <= by0 and x1 >= bx1 and y1 >= by1
        assert item.value is obj

    window.undo_stack.undo()
    assert window.document.level == original
    assert all(window.scene.item(o.id).value is o for o in original.objects)
    # the items are back where the objects are: picking finds the box at its old place
    assert window.scene.object_at(start, 0.5) == box.id


def test_the_object_list_follows_a_big_selection(big):
    big.select_all()
    rows = big.object_list.view.selectionModel().selectedRows()
    assert len(rows) == 3000
    big.selection.set([big.document.objects[7].id])
    rows = big.object_list.view.selectionModel().selectedRows()
    assert [r.row() for r in rows] == [8]  # row 0 is the spawn
