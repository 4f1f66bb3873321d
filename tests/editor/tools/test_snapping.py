"""Snapping: grid, other objects' points (with the marker), exclusions, Ctrl, zoom and 10,000 objects."""
from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsView

from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall
from level_editor.editor.commands.objects import AddObjectsCommand, ChangeObjectsCommand, ChangePlayerCommand, RemoveObjectsCommand
from level_editor.editor.canvas.snapping import SNAP_PIXELS, snap_points


def xy(p):
    return (p.x(), p.y())


def add(editor, *objects):
    editor.push(AddObjectsCommand(editor.document, objects))


def test_grid_snapping_and_its_toggle(editor):
    snapper = editor.snapper
    assert xy(editor.snap(QPointF(23, 41))) == (16, 48)
    seen = []
    snapper.enabled_changed.connect(seen.append)
    snapper.toggle()
    assert snapper.enabled is False and seen == [False]
    assert xy(editor.snap(QPointF(23, 41))) == (23, 41)
    snapper.toggle()
    assert xy(editor.snap(QPointF(23, 41))) == (16, 48)


def test_ctrl_suspends_all_snapping(editor):
    add(editor, Box("box-1", (21, 43), (10, 10)))
    assert xy(editor.snap(QPointF(23, 41), Qt.ControlModifier)) == (23, 41)
    assert editor.snapper.last.kind == "none"
    assert not editor.snapper.marker_visible()


def test_object_points_win_over_the_grid_and_show_the_marker(editor):
    add(editor, Box("box-1", (21, 43), (10, 10)))
    p = editor.snap(QPointF(24, 40))
    assert xy(p) == (21, 43)
    assert editor.snapper.last.kind == "object" and editor.snapper.last.object_id == "box-1"
    assert editor.snapper.marker_visible()
    assert xy(editor.snapper.marker.pos()) == (21, 43)
    # Further than SNAP_PIXELS away: the grid again, and the marker goes.
    editor.snap(QPointF(21, 43 - SNAP_PIXELS - 1))
    assert editor.snapper.last.kind == "grid"
    assert not editor.snapper.marker_visible()


def test_object_snapping_works_with_the_grid_off(editor):
    add(editor, Pillar("pillar-1", (50, 50), 5))
    editor.snapper.set_enabled(False)
    assert xy(editor.snap(QPointF(53, 47))) == (50, 50)
    editor.snapper.set_objects_enabled(False)
    assert xy(editor.snap(QPointF(53, 47))) == (53, 47)


def test_the_nearest_point_wins(editor):
    add(editor, Box("box-1", (0, 0), (5, 5)))
    assert xy(editor.snap(QPointF(4, 4))) == (5, 5)
    assert xy(editor.snap(QPointF(1, 2))) == (0, 0)


def test_exclude_ignores_an_objects_own_points(editor):
    add(editor, Pillar("pillar-1", (50, 50), 5), Pillar("pillar-2", (55, 55), 5))
    assert xy(editor.snap(QPointF(51, 51), exclude=["pillar-1"])) == (55, 55)
    assert xy(editor.snap(QPointF(51, 51), exclude=["pillar-1", "pillar-2"])) == (48, 48)


def test_snap_points_of_every_kind(editor):
    assert snap_points(Wall("w", [(0, 0), (10, 0), (10, 10)], 4)) == [(0, 0), (10, 0), (10, 10)]
    assert snap_points(Box("b", (1, 2), (3, 4))) == [(1, 2), (4, 2), (4, 6), (1, 6)]
    corners = snap_points(OrientedBox("o", (0, 0), (10, 5), 90))
    assert sorted((round(x, 6) + 0.0, round(y, 6) + 0.0) for x, y in corners) == [(-5, -10), (-5, 10), (5, -10),
                                                                                 (5, 10)]
    assert snap_points(Pillar("p", (7, 8), 3)) == [(7, 8)]


def test_the_spawn_is_a_snap_point(editor):
    spawn = editor.document.player.spawn
    assert xy(editor.snap(QPointF(spawn.x + 3, spawn.y - 2))) == (spawn.x, spawn.y)
    assert editor.snapper.last.object_id == "player"
    old = editor.document.player
    editor.push(ChangePlayerCommand(editor.document, old, Player(spawn=(203, 101)), "Move spawn"))
    assert xy(editor.snap(QPointF(205, 99))) == (203, 101)


def test_the_points_follow_changes_removals_undo_and_reset(editor):
    box = Box("box-1", (21, 43), (10, 10))
    add(editor, box)
    assert xy(editor.snap(QPointF(22, 44))) == (21, 43)
    moved = box.moved(100, 0)
    editor.push(ChangeObjectsCommand(editor.document, [box], [moved], "Move box"))
    assert xy(editor.snap(QPointF(22, 44))) == (16, 48)
    assert xy(editor.snap(QPointF(122, 44))) == (121, 43)
    editor.undo_stack.undo()
    assert xy(editor.snap(QPointF(22, 44))) == (21, 43)
    editor.push(RemoveObjectsCommand(editor.document, ["box-1"]))
    assert xy(editor.snap(QPointF(22, 44))) == (16, 48)
    editor.document.reset(Level(grid=10, objects=[Pillar("p", (33, 33), 4)]))
    assert xy(editor.snap(QPointF(35, 31))) == (33, 33)
    assert xy(editor.snap(QPointF(22, 44))) == (20, 40)


def test_the_snap_distance_is_in_screen_pixels(editor, qtbot):
    add(editor, Pillar("pillar-1", (50, 50), 5))
    view = QGraphicsView(editor.scene)
    qtbot.addWidget(view)
    view.scale(4, 4)  # 4 screen pixels per unit: 8 px is 2 units
    assert editor.snapper.scale() == pytest.approx(0.25)
    assert xy(editor.snap(QPointF(53, 50))) == (48, 48)
    assert xy(editor.snap(QPointF(51.5, 50))) == (50, 50)
    view.resetTransform()
    view.scale(0.25, 0.25)  # zoomed out: 8 px is 32 units
    assert xy(editor.snap(QPointF(30, 45))) == (50, 50)


def test_the_marker_survives_the_scene_being_cleared(editor):
    add(editor, Pillar("pillar-1", (50, 50), 5))
    editor.snap(QPointF(51, 51))
    editor.scene.clear()
    editor.snap(QPointF(51, 51))
    assert editor.snapper.marker_visible()


def test_among_ten_thousand_objects_a_dragged_one_is_snapped_to_where_it_went(editor):
    # how long a snap and a drag step take at 10,000 and 100,000 objects: tests/benchmarks/bench_parts.py
    rng = random.Random(7)
    objects = []
    for i in range(10_000):
        x, y = rng.uniform(0, 8000), rng.uniform(0, 8000)
        if i % 2:
            objects.append(Box(f"box-{i}", (x, y), (rng.uniform(4, 40), rng.uniform(4, 40))))
        else:
            objects.append(Wall(f"wall-{i}", [(x, y), (x + 30, y), (x + 30, y + 20)], 4))
    add(editor, *objects)
    editor.snap(QPointF(0, 0))  # builds the point hash once
    target = objects[5001]
    # a drag moves one object per mouse move, and snaps beside it (the object itself left out)
    current = target
    for i in range(200):
        moved = current.moved(1, 0)
        editor.push(ChangeObjectsCommand(editor.document, [current], [moved], "Move box", gesture=123456))
        editor.snap(QPointF(moved.origin.x + 1, moved.origin.y + 1), exclude=[moved.id])
        assert editor.snapper.last.object_id != moved.id
        current = moved
    # dropped: its corner where it went snaps, and where it was does not any more
    assert xy(editor.snap(QPointF(current.origin.x + 1, current.origin.y + 1))) == (current.origin.x,
                                                                                   current.origin.y)
    assert editor.snapper.last.object_id == target.id
    editor.snap(QPointF(target.origin.x + 1, target.origin.y + 1))
    assert editor.snapper.last.object_id != target.id


def test_a_dragged_selection_snaps_to_others_and_its_new_corners_are_found_after_the_drop(editor):
    boxes = [Box(f"box-{i}", (i * 100, 0), (20, 20)) for i in range(50)]
    other = Pillar("pillar-1", (5000, 5000), 4)
    add(editor, *boxes, other)
    dragged = [b.id for b in boxes]
    assert editor.snapper.nearest_point(QPointF(101, 1), 4)[2] == "box-1"  # the hash is built
    current = boxes
    for step in range(1, 4):
        moved = [b.moved(7 * step, 3 * step) for b in boxes]
        editor.push(ChangeObjectsCommand(editor.document, current, moved, "Move 50 boxes", gesture=99))
        current = moved
        # while dragging, the selection is excluded and the others are still found where they are
        hit = editor.snapper.nearest_point(QPointF(5001, 5001), 4, exclude=dragged)
        assert hit == (5000.0, 5000.0, "pillar-1")
        assert editor.snapper.nearest_point(QPointF(122, 10), 4, exclude=dragged) is None
    # dropped: the moved corners at once, nothing left at the old ones
    assert editor.snapper.nearest_point(QPointF(122, 10), 4) == (121.0, 9.0, "box-1")
    assert editor.snapper.nearest_point(QPointF(100.5, 0.5), 2) is None
    editor.undo_stack.undo()
    assert editor.snapper.nearest_point(QPointF(100.5, 0.5), 2) == (100.0, 0.0, "box-1")


def test_renamed_and_removed_objects_leave_the_lazy_index(editor):
    box = Box("box-1", (0, 0), (10, 10))
    add(editor, box)
    assert editor.snapper.nearest_point(QPointF(1, 1), 4)[2] == "box-1"
    editor.push(ChangeObjectsCommand(editor.document, [box], [box.with_id("crate")], "Rename"))
    assert editor.snapper.nearest_point(QPointF(1, 1), 4)[2] == "crate"
    editor.push(RemoveObjectsCommand(editor.document, ["crate"]))
    assert editor.snapper.nearest_point(QPointF(1, 1), 4) is None
    editor.push(ChangePlayerCommand(editor.document, editor.document.player,
                                    editor.document.player.moved(300, 300), "Move spawn"))
    spawn = editor.document.player.spawn
    assert editor.snapper.nearest_point(QPointF(spawn.x + 1, spawn.y), 4)[2] == "player"
