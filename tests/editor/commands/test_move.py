"""MoveObjectsCommand: many objects moved by one offset in one undo step, built faster than obj.moved() and equal to it."""
from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtGui import QUndoStack

from level_editor.core.level.document import Change, ChangeKind, LevelDocument
from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Player, Point, Tiles, Wall
from level_editor.editor.commands.move import MoveObjectsCommand, moved_objects

EVERY_KIND = (
    Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8, False, type="fence", properties={"hp": 3}),
    Wall("loop", [(0, 0), (50, 0), (50, 50)], 4, True, solid=False),
    Box("box-1", (240, 80), (64, 32), layer="main"),
    OrientedBox("obox-1", (400, 240), (40, 10), 30),
    Pillar("pillar-1", (240, 320), 16),
    Point("lever", (208, 208), type="switch"),
    Tiles("floor", (192, 192), 16, ("##.", ".##")),
    Image("sketch", "sketch.png", (-50, -60)),
)


@pytest.mark.parametrize("obj", EVERY_KIND, ids=lambda o: o.id)
def test_a_moved_object_equals_the_models_own_move(obj):
    fast, = moved_objects([obj], 16.25, -8.5)
    assert fast == obj.moved(16.25, -8.5)
    assert type(fast) is type(obj) and fast.bounds() == obj.moved(16.25, -8.5).bounds()
    assert moved_objects([obj], 0.1, 0.2)[0] != obj


def test_one_step_moves_everything_and_the_spawn_and_undo_gives_back_the_same_objects():
    level = Level(player=Player(spawn=(10, 10)), objects=EVERY_KIND)
    doc = LevelDocument(level)
    stack = QUndoStack()
    stack.push(MoveObjectsCommand(doc, doc.objects, 32, 16, "Move 8 objects", player=doc.player))
    assert stack.count() == 1 and stack.text(0) == "Move 8 objects"
    assert doc.objects == tuple(o.moved(32, 16) for o in EVERY_KIND)
    assert doc.player.spawn.x == 42 and doc.player.spawn.y == 26
    stack.undo()
    assert all(a is b for a, b in zip(doc.objects, level.objects)) and doc.player == level.player
    stack.redo()
    assert doc.get("pillar-1").center.x == 272


def test_a_move_by_nothing_is_obsolete():
    doc = LevelDocument(Level(objects=EVERY_KIND[:2]))
    assert MoveObjectsCommand(doc, doc.objects, 0.0, 0.0, "Move").isObsolete()
    assert not MoveObjectsCommand(doc, doc.objects, 0.0, 1.0, "Move").isObsolete()


def test_listeners_are_told_a_move_is_a_pure_move_and_other_changes_are_not():
    from level_editor.editor.commands.objects import ChangeObjectsCommand

    doc = LevelDocument(Level(objects=EVERY_KIND))
    seen = []
    doc.subscribe(lambda change: seen.append(change.moved_by))
    stack = QUndoStack()
    stack.push(MoveObjectsCommand(doc, doc.objects[:3], 32, 16, "Move 3 objects"))
    stack.undo()
    stack.redo()
    wall = doc.get("wall-1")
    stack.push(ChangeObjectsCommand(doc, [wall], [wall.moved(1, 1)], "Move wall-1"))
    assert seen == [(32, 16), (-32, -16), (32, 16), None]
    assert Change(ChangeKind.CHANGED, doc.objects[:1], doc.objects[:1]).moved_by is None


@pytest.mark.parametrize("part", [slice(0, 3), slice(None)], ids=["some", "all"])
def test_the_canvas_shows_a_pure_move_as_a_new_canvas_shows_the_moved_level_and_rebuilds_no_outline(
        qtbot, monkeypatch, part):
    from level_editor.editor.canvas import syncing
    from level_editor.editor.canvas.scene import LevelScene
    from level_editor.editor.items.object_item import ObjectItem

    many = tuple(replace(o.moved(400 * i, 0), id=f"{o.id}-{i}") for i in range(12) for o in EVERY_KIND)
    doc = LevelDocument(Level(objects=many))
    scene = LevelScene(doc)
    monkeypatch.setattr(syncing, "MANY", 8)  # "every object moved" at this size too
    synced = []
    sync = ObjectItem.sync
    monkeypatch.setattr(ObjectItem, "sync", lambda item, value: synced.append(item.object_id) or sync(item, value))
    stack = QUndoStack()
    stack.push(MoveObjectsCommand(doc, doc.objects[part], 12.5, -7.25, "Move"))
    for step in ("done", "undone", "redone"):
        if step == "undone":
            stack.undo()
        elif step == "redone":
            stack.redo()
        assert synced == [], step
        fresh = LevelScene(doc)
        synced.clear()
        for obj in doc.objects:
            item, new = scene.item(obj.id), fresh.item(obj.id)
            assert item.value is obj, (step, obj.id)
            assert item.pos() == new.pos() and item.scene_box() == new.scene_box(), (step, obj.id)
            assert item.boundingRect() == new.boundingRect() and item.shape() == new.shape(), (step, obj.id)
        assert scene.level_rect() == fresh.level_rect()


@pytest.mark.parametrize("obj", EVERY_KIND, ids=lambda o: o.id)
def test_an_item_sits_at_its_objects_anchor_and_a_move_shifts_the_anchor_by_the_offset(qtbot, obj):
    from level_editor.core.level.model import anchor
    from level_editor.editor.canvas.scene import LevelScene

    scene = LevelScene(LevelDocument(Level(objects=(obj,))))
    item, moved = scene.item(obj.id), moved_objects([obj], 16.25, -8.5)[0]
    assert item.anchor == tuple(anchor(obj)) == (item.pos().x(), item.pos().y())
    assert tuple(anchor(moved)) == (anchor(obj).x + 16.25, anchor(obj).y - 8.5)