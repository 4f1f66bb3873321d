"""Snapping to walls of thousands of nodes: kept in sorted arrays, found exactly as the per-node hash finds them."""
from __future__ import annotations

import math
import random

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QGraphicsScene

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Level, Pillar, Wall
from level_editor.editor.canvas.snapping import CELL_SIZE, LONG_POINTS, Snapper, snap_points
from level_editor.editor.commands.objects import AddObjectsCommand, ChangeObjectsCommand
from level_editor.editor.commands.move import MoveObjectsCommand


@pytest.fixture
def doc():
    return LevelDocument(Level(name="Long", grid=16))


@pytest.fixture
def snapper(qtbot, doc):
    scene = QGraphicsScene()
    s = Snapper(doc, scene)
    s._test_scene = scene
    return s


def walk(n, seed=3):
    rnd = random.Random(seed)
    x = y = 500.0
    pts = []
    for _ in range(n):
        x += rnd.uniform(-10, 10)
        y += rnd.uniform(-10, 10)
        pts.append((round(x, 2), round(y, 2)))
    return pts


def brute_nearest(doc, x, y, radius, exclude=()):
    """The smallest distance to any object point within ``radius`` (None if none), the slow and obvious way."""
    best = None
    for obj in doc.objects:
        if obj.id in exclude:
            continue
        for px, py in snap_points(obj):
            d = math.hypot(px - x, py - y)
            if d <= radius and (best is None or d < best):
                best = d
    return best


def add(doc, *objects):
    AddObjectsCommand(doc, objects).redo()


def test_a_long_wall_is_kept_in_arrays_and_every_lookup_matches_the_obvious_search(snapper, doc):
    long_wall = Wall("long", walk(LONG_POINTS * 3), 2)
    add(doc, long_wall, Box("box", (480, 480), (30, 20)), Pillar("pillar", (520, 470), 4))
    rnd = random.Random(7)
    found = 0
    for i in range(400):
        x, y = rnd.uniform(300, 700), rnd.uniform(300, 700)
        # radii from a fraction of a cell to many cells (zoomed far out: more than 64 columns)
        radius = rnd.choice((3.0, 8.0, 40.0, CELL_SIZE * 1.5, CELL_SIZE * 80))
        hit = snapper.nearest_point(QPointF(x, y), radius)
        expected = brute_nearest(doc, x, y, radius)
        if expected is None:
            assert hit is None
            continue
        found += 1
        hx, hy, hid = hit
        assert math.hypot(hx - x, hy - y) == pytest.approx(expected, abs=1e-9)
        assert (hx, hy) in snap_points(doc.get(hid))
    assert found > 100
    assert "long" in snapper._hash.long and snapper._hash.long["long"].xy.shape == (LONG_POINTS * 3, 2)
    assert not any(e[2] == "long" for entries in snapper._hash.cells.values() for e in entries)


def test_the_long_wall_can_be_excluded_and_follows_moves_and_undo(snapper, doc):
    wall = Wall("long", [(i * 2.0, (i % 2) * 40.0) for i in range(LONG_POINTS + 10)], 2)
    add(doc, wall, Pillar("pillar", (101, 5), 4))
    assert snapper.nearest_point(QPointF(100.5, 1), 3) == (100.0, 0.0, "long")
    assert snapper.nearest_point(QPointF(100.5, 1), 6, exclude=["long"]) == (101.0, 5.0, "pillar")
    move = MoveObjectsCommand(doc, [wall], 1000.0, 0.0, "Move")
    move.redo()
    assert snapper.nearest_point(QPointF(100.5, 1), 3) is None
    assert snapper.nearest_point(QPointF(1100.5, 1), 3) == (1100.0, 0.0, "long")
    move.undo()
    assert snapper.nearest_point(QPointF(100.5, 1), 3) == (100.0, 0.0, "long")
    # one node moved: the wall's arrays are rebuilt with it
    new = doc.get("long").with_node(50, (100.0, 300.0))
    ChangeObjectsCommand(doc, [doc.get("long")], [new], "Move node").redo()
    assert snapper.nearest_point(QPointF(101, 299), 3) == (100.0, 300.0, "long")
    assert snapper.nearest_point(QPointF(100.5, 1), 3) != (100.0, 0.0, "long")


def test_far_away_and_far_out_positions_give_no_error(snapper, doc):
    add(doc, Wall("long", walk(LONG_POINTS), 2))
    assert snapper.nearest_point(QPointF(1e7, -1e7), 8) is None
    assert snapper.nearest_point(QPointF(500, 500), 1e12) is not None
    assert snapper.nearest_point(QPointF(500, 500), float("inf")) is None


def test_a_change_elsewhere_keeps_the_long_walls_arrays_and_a_change_of_it_makes_new_ones(snapper, doc):
    add(doc, Wall("long", walk(LONG_POINTS), 2), Pillar("pillar", (0, 0), 4))
    assert snapper.nearest_point(QPointF(0, 1), 3) == (0.0, 0.0, "pillar")
    arrays = snapper._hash.long["long"]
    ChangeObjectsCommand(doc, [doc.get("pillar")], [doc.get("pillar").moved(5, 0)], "Move").redo()
    assert snapper.nearest_point(QPointF(5, 1), 3) == (5.0, 0.0, "pillar")
    assert snapper._hash.long["long"] is arrays
    wall = doc.get("long")
    ChangeObjectsCommand(doc, [wall], [wall.with_node(0, (-900, -900))], "Move node").redo()
    assert snapper.nearest_point(QPointF(-900, -899), 3) == (-900.0, -900.0, "long")
    assert snapper._hash.long["long"] is not arrays
