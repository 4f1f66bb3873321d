"""Undo commands: labels, exact undo, merging within one gesture and never across two."""
from __future__ import annotations

from dataclasses import replace

import pytest

from PySide6.QtGui import QUndoStack

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Wall
from level_editor.core.level.kinds import objects_label
from level_editor.editor.commands.objects import ChangeObjectsCommand, RemoveObjectsCommand, new_gesture


def _level():
    return Level(objects=(
        Box("box-1", (0, 0), (10, 10)), Box("box-2", (20, 0), (10, 10)),
        OrientedBox("obox-1", (50, 50), (5, 5), 0), OrientedBox("obox-2", (80, 50), (5, 5), 0),
        Pillar("pillar-1", (0, 90), 4), Wall("wall-1", [(0, 0), (9, 0)], 2, False),
    ))


def test_labels_name_what_was_changed_in_the_designers_words():
    objs = {o.id: o for o in _level().objects}
    assert objects_label("Delete", [objs["box-1"]]) == "Delete box"
    assert objects_label("Delete", [objs["box-1"], objs["box-2"]]) == "Delete 2 boxes"
    assert objects_label("Move", [objs["obox-1"]]) == "Move oriented box"
    assert objects_label("Move", [objs["obox-1"], objs["obox-2"]]) == "Move 2 oriented boxes"
    assert objects_label("Move", [objs["box-1"], objs["obox-1"]]) == "Move 2 objects"
    assert objects_label("Add", [objs["wall-1"]]) == "Add wall"


def test_delete_undoes_exactly_with_the_drawing_order(qapp):
    doc = LevelDocument(_level())
    stack = QUndoStack()
    stack.push(RemoveObjectsCommand(doc, ["obox-1", "obox-2"]))
    assert stack.text(0) == "Delete 2 oriented boxes"
    assert [o.id for o in doc.objects] == ["box-1", "box-2", "pillar-1", "wall-1"]
    stack.undo()
    assert doc.level == _level()


def test_changes_of_one_gesture_merge_and_of_two_gestures_do_not(qapp):
    doc = LevelDocument(_level())
    stack = QUndoStack()
    first, second = new_gesture(), new_gesture()
    for gesture in (first, first, second):
        box = doc.get("box-1")
        stack.push(ChangeObjectsCommand(doc, [box], [box.moved(1, 0)], "Move box", gesture))
    assert stack.count() == 2
    assert doc.get("box-1").origin.x == 3
    stack.undo()
    assert doc.get("box-1").origin.x == 2
    stack.undo()
    assert doc.level == _level()


def test_markers_tile_grids_and_pictures_have_their_own_names():
    from level_editor.core.level.kinds import id_prefix, kind_name
    from level_editor.core.level.model import Image, Point, Tiles

    assert objects_label("Move", [Point("p", (0, 0))]) == "Move marker"
    assert objects_label("Delete", [Tiles("a", (0, 0), 16, ("#",)), Tiles("b", (0, 0), 16, ("#",))]) == \
        "Delete 2 tile grids"
    assert kind_name("image") == "Reference image" and id_prefix("image") == "image"
    assert objects_label("Move", [Image("i", "a.png", (0, 0))]) == "Move reference image"


@pytest.mark.nested_push_expected
def test_a_command_pushed_while_another_is_pushed_waits_its_turn(qtbot):
    """The hostile tester's history: a spawn drag whose push made something commit an edit of its own.

    Pushed inside the first push, the second command recorded its "before" in the middle of the first,
    and undo gave a spawn that never existed. EditorContext.push runs it after the first, as its own step.
    """
    from PySide6.QtWidgets import QGraphicsScene

    from level_editor.core.level.document import LevelDocument
    from level_editor.core.level.model import Level, Player
    from level_editor.editor.commands.objects import ChangePlayerCommand
    from level_editor.editor.canvas.context import EditorContext

    doc = LevelDocument(Level(player=Player(spawn=(64, 64), speed=240)))
    ctx = EditorContext(doc, QGraphicsScene())
    typed = []

    def commit_typed_speed(change):
        # what a field with a typed value did when the document changed under it: commit, with the player
        # as it is at that moment as its "before"
        if not typed:
            typed.append(True)
            old = doc.player
            ctx.push(ChangePlayerCommand(doc, old, replace(old, speed=999.0), "Change speed of player"))
            assert doc.player.speed == 240 and ctx.pushing  # not run inside the first push

    doc.subscribe(commit_typed_speed)
    start = doc.player
    ctx.push(ChangePlayerCommand(doc, start, start.moved(100, 0), "Move spawn", gesture=1))
    assert not ctx.pushing
    stack = ctx.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == ["Move spawn", "Change speed of player"]
    assert doc.player.spawn == (164, 64) and doc.player.speed == 999.0
    stack.undo()
    assert doc.player.spawn == (164, 64) and doc.player.speed == 240  # the typed value, undone alone
    stack.undo()
    assert doc.player == start  # the spawn as it really was
