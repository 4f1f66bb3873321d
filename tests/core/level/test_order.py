"""Raise and lower within a layer (level_editor.core.level.order): other layers keep their places, runs move together."""
from __future__ import annotations

import random

from level_editor.core.level.model import Point
from level_editor.core.level.order import lowered, raised


def _objects(spec: str):
    """``"a:m b:m x:t"``: ids and layers."""
    return [Point(i, (0, 0), layer=layer) for i, layer in (p.split(":") for p in spec.split())]


def ids(objects):
    return [o.id for o in objects]


def test_raise_passes_the_next_object_of_the_same_layer_only():
    objs = _objects("a:m x:t b:m c:m")
    assert ids(raised(objs, {"a"})) == ["b", "x", "a", "c"]
    assert ids(lowered(objs, {"c"})) == ["a", "x", "c", "b"]


def test_a_run_of_selected_objects_moves_together_and_keeps_its_order():
    objs = _objects("a:m b:m c:m d:m")
    assert ids(raised(objs, {"a", "b"})) == ["c", "a", "b", "d"]
    assert ids(lowered(objs, {"c", "d"})) == ["a", "c", "d", "b"]
    assert ids(raised(objs, {"a", "c"}, to_end=True)) == ["b", "d", "a", "c"]
    assert ids(lowered(objs, {"b", "d"}, to_end=True)) == ["b", "d", "a", "c"]


def test_at_the_top_or_bottom_nothing_changes():
    objs = _objects("a:m b:m x:t")
    assert raised(objs, {"b"}) == objs and lowered(objs, {"a"}) == objs and raised(objs, {"x"}) == objs
    assert raised(objs, {"a", "b"}, to_end=True) == objs


def test_selected_objects_in_two_layers_each_move_in_their_own():
    objs = _objects("a:m x:t b:m y:t")
    assert ids(raised(objs, {"a", "x"})) == ["b", "y", "a", "x"]


def test_raising_then_lowering_gives_the_order_back_for_a_single_object():
    rng = random.Random(3)
    for _ in range(200):
        objs = _objects(" ".join(f"o{i}:{rng.choice('mt')}" for i in range(8)))
        chosen = {f"o{rng.randrange(8)}"}
        up = raised(objs, chosen)
        if up != objs:
            assert lowered(up, chosen) == objs
        # every object keeps its layer's slots: the layers' places in the file never change
        assert [o.layer for o in up] == [o.layer for o in objs]
        assert sorted(ids(up)) == sorted(ids(objs))
