"""moved_objects (a drag's release, the arrow keys): exactly obj.moved() for any object, built in bulk."""
from __future__ import annotations

import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Point, Tiles, Wall
from level_editor.editor.commands.move import SETTLE_AT, MoveObjectsCommand, moved_objects

coordinates = st.one_of(st.floats(min_value=-1e12, max_value=1e12), st.integers(-10**6, 10**6),
                        st.sampled_from([0.0, -0.0, 0.1, 1e-300, 5e-324, 2.0**53 + 1]))
points = st.tuples(coordinates, coordinates)
names = st.text(min_size=1, max_size=8)
# what every kind has beside its geometry: custom data, a layer, a type and properties (shared, never copied)
common = st.fixed_dictionaries({
    "extra": st.dictionaries(names, st.integers(), max_size=2), "layer": names, "type": st.text(max_size=6),
    "properties": st.dictionaries(names, st.one_of(st.integers(), st.text(max_size=4)), max_size=2)})
solid = st.fixed_dictionaries({"solid": st.booleans()})
sizes = st.floats(min_value=0.0, max_value=1e6)


def kind(make, *args, solid_field=True):
    return st.builds(lambda c, s, parts: make(*parts, **c, **s), common,
                     solid if solid_field else st.just({}), st.tuples(names, *args))


any_object = st.one_of(
    kind(Wall, st.lists(points, min_size=1, max_size=8), sizes, st.booleans()),
    kind(Box, points, st.tuples(sizes, sizes)),
    kind(OrientedBox, points, st.tuples(sizes, sizes), st.floats(min_value=-720, max_value=720)),
    kind(Pillar, points, sizes),
    kind(Point, points, solid_field=False),
    kind(Tiles, points, st.floats(min_value=1, max_value=64), st.lists(st.sampled_from(["#.#", "..#", "###"]),
                                                                       max_size=3)),
    kind(Image, st.text(max_size=10), points, st.floats(0.01, 10), st.floats(0, 1), solid_field=False),
)


@settings(max_examples=300)
@given(st.lists(any_object, min_size=1, max_size=6), coordinates, coordinates)
def test_every_moved_object_is_exactly_the_models_own_move(objects, dx, dy):
    fast = moved_objects(objects, dx, dy)
    slow = [o.moved(dx, dy) for o in objects]
    assert fast == slow
    # exactly: the same kinds, floats (a -0.0 stays one), shared custom data and properties
    assert [repr(o) for o in fast] == [repr(o) for o in slow]
    assert all(type(a) is type(b) and a.extra is o.extra and a.properties is o.properties
               for a, b, o in zip(fast, slow, objects))


@pytest.mark.parametrize("objects, settles", [
    ([Box(f"box-{i}", (i, 0), (1, 1)) for i in range(100)], False),
    ([Box(f"box-{i}", (i, 0), (1, 1)) for i in range(SETTLE_AT // 2 + 100)], True),  # a box and its origin each
    ([Wall("long", [(i, i % 3) for i in range(SETTLE_AT)])], True),
], ids=["a few boxes", "many boxes", "one long wall"])
def test_a_big_moves_new_objects_are_set_aside_from_the_collector_and_a_small_ones_are_not(objects, settles):
    # the collector's next pass would otherwise walk every new object and node: 80 ms at 100,000 objects
    doc = LevelDocument(Level(objects=objects))
    gc.collect()
    frozen = gc.get_freeze_count()
    MoveObjectsCommand(doc, doc.objects, 16, 0, "Move").redo()
    assert doc.objects == tuple(o.moved(16, 0) for o in objects)
    if settles:
        assert gc.get_freeze_count() - frozen >= SETTLE_AT
    else:
        assert gc.get_freeze_count() == frozen
