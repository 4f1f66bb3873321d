"""The observable level document that undo commands change."""
import pytest

from level_editor.core.level.document import ChangeKind, LevelDocument
from level_editor.core.level.model import Box, Level, Pillar, Player, Wall


def make():
    doc = LevelDocument(Level(objects=[Box("a", (0, 0), (1, 1)), Box("b", (2, 0), (1, 1)), Pillar("c", (5, 5), 1)]))
    events = []
    doc.subscribe(events.append)
    return doc, events


def ids(doc):
    return [o.id for o in doc.objects]


def test_remove_then_insert_restores_order_exactly():
    doc, events = make()
    before = doc.level
    removed = doc.remove_objects(["a", "c"])
    assert ids(doc) == ["b"] and [i for i, _ in removed] == [0, 2]
    doc.insert_objects(removed)
    assert doc.level == before
    assert [e.kind for e in events] == [ChangeKind.REMOVED, ChangeKind.ADDED]
    assert [o.id for o in events[0].objects] == ["a", "c"]


def test_append_returns_placement_for_undo():
    doc, _ = make()
    placed = doc.append_objects([Wall("w", [(0, 0), (1, 1)], 2)])
    assert placed[0][0] == 3 and doc.index_of("w") == 3


def test_replace_reports_old_and_new_and_follows_renames():
    doc, events = make()
    new = doc.get("b").moved(10, 0).with_id("b2")
    doc.replace_objects(["b"], [new])
    assert ids(doc) == ["a", "b2", "c"] and doc.get("b") is None and doc.get("b2") == new
    assert events[-1].kind is ChangeKind.CHANGED and events[-1].old[0].id == "b" and events[-1].objects[0] is new


def test_ids_stay_unique():
    doc, _ = make()
    with pytest.raises(ValueError):
        doc.insert_objects([(0, Box("a", (0, 0), (1, 1)))])
    with pytest.raises(ValueError):
        doc.replace_objects(["b"], [doc.get("b").with_id("a")])
    assert ids(doc) == ["a", "b", "c"]


def test_new_id_skips_taken_ones():
    doc, _ = make()
    doc.append_objects([Box("box-1", (0, 0), (1, 1))])
    assert doc.new_id("box") == "box-2"
    assert doc.new_id("box", also_taken=["box-2"]) == "box-3"


def test_player_properties_and_reset_are_announced():
    doc, events = make()
    doc.set_player(Player(spawn=(1, 2)))
    doc.set_properties(name="X", grid=32)
    doc.reset(Level())
    assert [e.kind for e in events] == [ChangeKind.PLAYER, ChangeKind.PROPERTIES, ChangeKind.RESET]
    assert len(doc) == 0


def test_unknown_property_is_refused():
    doc, _ = make()
    with pytest.raises(TypeError):
        doc.set_properties(colour="red")


def test_a_refused_insert_changes_nothing():
    doc, events = make()
    before = doc.level
    with pytest.raises(ValueError):
        doc.insert_objects([(0, Box("new", (0, 0), (1, 1))), (1, Box("b", (0, 0), (1, 1)))])
    with pytest.raises(ValueError):
        doc.insert_objects([(0, Box("twice", (0, 0), (1, 1))), (1, Box("twice", (5, 0), (1, 1)))])
    assert doc.level is before and events == []
    assert "new" not in doc and "twice" not in doc and doc.get("new") is None
    assert ids(doc) == ["a", "b", "c"]


def test_player_bounds_follow_its_shape():
    assert Player(spawn=(10, 20), radius=5).bounds() == (5, 15, 15, 25)
    assert Player(spawn=(10, 20), shape="box", size=(8, 4)).bounds() == (6, 18, 14, 22)


@pytest.mark.parametrize("order", ["file order", "reversed"])
def test_replacing_every_object_puts_each_in_its_place_and_reports_the_very_objects_taken_out(order):
    doc, events = make()
    before = doc.objects
    old_ids = ids(doc) if order == "file order" else ids(doc)[::-1]
    new = tuple(doc.get(i).moved(3, -4) for i in old_ids)
    doc.replace_objects(old_ids, new)
    assert doc.objects == tuple(o.moved(3, -4) for o in before)
    assert all(doc.get(n.id) is n for n in new) and [doc.index_of(i) for i in ids(doc)] == [0, 1, 2]
    assert events[-1].objects is new and [o.id for o in events[-1].old] == old_ids
    assert all(o is before[ids(doc).index(o.id)] for o in events[-1].old)


@pytest.mark.parametrize("old_ids", [["a", "b", "c"], ["c", "b"]], ids=["every object", "some"])
def test_a_rename_that_would_repeat_an_id_is_refused_and_changes_nothing(old_ids):
    doc, events = make()
    before = doc.level
    new = [doc.get(i).with_id("a" if i == "c" else i) for i in old_ids]
    with pytest.raises(ValueError):
        doc.replace_objects(old_ids, new)
    with pytest.raises(KeyError):
        doc.replace_objects(["a", "nobody"], [doc.get("a"), doc.get("b")])
    assert doc.level is before and events == [] and doc.get("c") is before.objects[2]


def test_swapping_two_ids_is_a_rename_the_index_follows():
    doc, _ = make()
    a, b = doc.get("a"), doc.get("b")
    doc.replace_objects(["a", "b", "c"], [b.with_id("a").with_id("b2"), a.with_id("b"), doc.get("c")])
    assert ids(doc) == ["b2", "b", "c"] and doc.index_of("b") == 1 and doc.get("a") is None
