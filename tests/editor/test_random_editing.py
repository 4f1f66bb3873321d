"""A random editing session through the real undo commands.

Invariants: undoing everything returns the first level, redoing everything the
last one, and saving to a file then loading it gives back exactly what was saved.
"""
from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QUndoStack

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, OrientedBox, Pillar, Wall
from level_editor.core.level.file_format import dumps_level, load_level, loads_level, save_level
from level_editor.editor.commands.objects import (
    AddObjectsCommand,
    ChangeObjectsCommand,
    ChangePlayerCommand,
    RemoveObjectsCommand,
    new_gesture,
)

coord = st.integers(-500, 500).map(float)
size = st.integers(1, 200).map(float)


@st.composite
def new_object(draw):
    kind = draw(st.sampled_from(["wall", "box", "oriented_box", "circle"]))
    if kind == "wall":
        pts = draw(st.lists(st.tuples(coord, coord), min_size=2, max_size=5, unique=True))
        return Wall("", pts, draw(size), draw(st.booleans()) and len(pts) >= 3)
    if kind == "box":
        return Box("", (draw(coord), draw(coord)), (draw(size), draw(size)))
    if kind == "oriented_box":
        return OrientedBox("", (draw(coord), draw(coord)), (draw(size), draw(size)), draw(st.integers(-180, 180)))
    return Pillar("", (draw(coord), draw(coord)), draw(size))


actions = st.lists(st.tuples(st.sampled_from(
    ["add", "move", "drag", "nodes", "delete", "player", "undo", "redo", "roundtrip"]), st.data()), max_size=30)


def _pick(data, doc, n=1):
    ids = [o.id for o in doc.objects]
    return data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=n, unique=True)) if ids else []


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(actions)
def test_random_session_undo_redo_and_round_trip(qapp, tmp_path_factory, steps):
    doc = LevelDocument()
    stack = QUndoStack()
    first = doc.level
    for action, data in steps:
        if action == "add":
            obj = data.draw(new_object())
            stack.push(AddObjectsCommand(doc, [replace(obj, id=doc.new_id(obj.kind))]))
        elif action == "move":
            ids = _pick(data, doc, 3)
            if ids:
                old = [doc.get(i) for i in ids]
                dx, dy = data.draw(coord), data.draw(coord)
                stack.push(ChangeObjectsCommand(doc, old, [o.moved(dx, dy) for o in old], "Move"))
        elif action == "drag":
            # One drag: several merged moves, the last one possibly back to the start.
            ids = _pick(data, doc, 2)
            if ids:
                start = [doc.get(i) for i in ids]
                g = new_gesture()
                count_before = stack.count()
                for k in range(data.draw(st.integers(1, 5))):
                    old = [doc.get(i) for i in ids]
                    stack.push(ChangeObjectsCommand(doc, old, [o.moved(1, k) for o in old], "Move", g))
                if data.draw(st.booleans()):
                    old = [doc.get(i) for i in ids]
                    stack.push(ChangeObjectsCommand(doc, old, start, "Move", g))
                    assert [doc.get(i) for i in ids] == start
                assert stack.count() <= count_before + 1, "one drag is one undo step"
        elif action == "nodes":
            walls = [o for o in doc.objects if o.kind == "wall"]
            if walls:
                w = data.draw(st.sampled_from(walls))
                pts = list(w.points)
                i = data.draw(st.integers(0, len(pts) - 1))
                pts[i] = (pts[i][0] + data.draw(coord), pts[i][1] + 1.0)
                stack.push(ChangeObjectsCommand(doc, [w], [replace(w, points=tuple(pts))], "Move node"))
        elif action == "delete":
            ids = _pick(data, doc, 3)
            if ids:
                stack.push(RemoveObjectsCommand(doc, ids))
        elif action == "player":
            p = doc.player
            stack.push(ChangePlayerCommand(doc, p, p.moved(data.draw(coord), 0), "Move spawn"))
        elif action == "undo":
            stack.undo()
        elif action == "redo":
            stack.redo()
        elif action == "roundtrip":
            # Save to a real file (atomically, with hulls) and load it back.
            path = tmp_path_factory.mktemp("session") / "level.json"
            save_level(doc.level, path)
            assert load_level(path) == doc.level

    last = doc.level
    assert loads_level(dumps_level(last)) == last
    stack.setIndex(0)
    assert doc.level == first
    stack.setIndex(stack.count())
    top = doc.level
    # Redoing everything gives the state at the top of the stack: the last state unless the session ended in undos.
    stack.setIndex(0)
    stack.setIndex(stack.count())
    assert doc.level == top
    if all(a not in ("undo",) for a, _ in steps):
        assert top == last
