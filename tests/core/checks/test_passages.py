"""Narrow passages and the spawn's enclosure (issue 16, item 2): every passage narrower than the player is found,
also within one wall chain, and a region whose only ways out are too narrow for the player is enclosed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from level_editor.core.checks.validation import validate_level
from level_editor.core.level.file_format import load_level
from level_editor.core.level.model import Box, Level, Pillar, Player, Wall
from level_editor.core.level.problems import INFO, WARNING

ROOT = Path(__file__).resolve().parents[3]
ROOM_WITH_DOOR = ROOT / "levels" / "room_with_door.json"


def level(*objects, spawn=(-500.0, -500.0), shape="circle", radius=12.0, size=(24.0, 24.0)):
    return Level(player=Player(spawn=spawn, shape=shape, radius=radius, size=size), objects=objects)


def narrow(lvl):
    return [p for p in validate_level(lvl) if p.severity == WARNING and "too narrow" in p.message]


def spawn_info(lvl):
    (info,) = [p for p in validate_level(lvl) if p.severity == INFO]
    return info.message


def room_with_door_of(width: float, corridors: bool, tmp_path) -> Level:
    """levels/room_with_door.json with its door (between the two ends of the one room chain) ``width`` px wide."""
    data = json.loads(ROOM_WITH_DOOR.read_text())
    left, right = 316 - width / 2 - 4, 316 + width / 2 + 4  # the walls are 8 px thick
    objects = []
    for o in data["objects"]:
        if o["id"] == "room":
            o["points"][0], o["points"][-1] = [left, 64], [right, 64]
        elif o["id"] == "corridor-left":
            o["points"] = [[left, 64], [left, -160]]
        elif o["id"] == "corridor-right":
            o["points"] = [[right, 64], [right, -160]]
        if corridors or not o["id"].startswith("corridor"):
            objects.append(o)
    data["objects"] = objects
    path = tmp_path / "room.json"
    path.write_text(json.dumps(data))
    return load_level(path)


# --------------------------------------------------------------------------- one chain


@pytest.mark.parametrize("corridors", [False, True], ids=["door only", "door and corridor"])
def test_one_chain_door_narrower_than_the_player_is_reported_and_the_room_is_enclosed(corridors, tmp_path):
    lvl = room_with_door_of(20, corridors, tmp_path)
    found = [p for p in narrow(lvl) if "(316, 64)" in p.message]
    assert len(found) == 1, [str(p) for p in narrow(lvl)]
    assert found[0].object_id == "room" and "20 px" in found[0].message and "itself" in found[0].message
    assert "enclosed" in spawn_info(lvl)


def test_one_chain_door_wider_than_the_player_is_fine_and_the_room_is_open(tmp_path):
    lvl = room_with_door_of(30, False, tmp_path)
    assert narrow(lvl) == []
    assert "open space" in spawn_info(lvl)


def test_the_room_with_a_door_sample_is_open_with_no_warning():
    lvl = load_level(ROOM_WITH_DOOR)
    assert narrow(lvl) == []
    assert "open space" in spawn_info(lvl)


def test_far_apart_segments_of_a_winding_chain_leave_a_narrow_passage():
    # A U-turn: the two long sides are 30 px apart between their middles (22 px free for a 24 px player).
    hairpin = Wall("hairpin", [(0, 0), (200, 0), (200, 30), (0, 30)], 8)
    found = narrow(level(hairpin))
    assert len(found) == 1 and found[0].object_id == "hairpin" and "22 px" in found[0].message


def test_a_straight_wall_of_many_short_segments_is_no_passage():
    # Segments 0 and 20 are 19 px apart along the wall itself: no free space between them.
    wall = Wall("long", [(float(x), 0.0) for x in range(0, 200, 1)] + [(200.0, 5.0)], 8)
    zigzag = Wall("teeth", [(float(x), 100.0 + 40.0 * (x % 2)) for x in range(0, 200, 3)], 8)
    assert narrow(level(wall, zigzag)) == []


def test_a_sharp_corner_is_no_passage():
    assert narrow(level(Wall("v", [(0, 0), (100, 10), (0, 20)], 4))) == []


# --------------------------------------------------------------------------- two objects


def test_two_walls_touching_elsewhere_still_leave_their_narrow_door():
    floor = Wall("floor", [(0, 0), (400, 0)], 8)
    # An arch standing on the floor on the left, its right leg stopping 20 px short of it.
    arch = Wall("arch", [(100, 8), (100, 100), (300, 100), (300, 28)], 8)
    found = narrow(level(floor, arch, spawn=(200, 50)))
    assert len(found) == 1 and "20 px" in found[0].message and "(300, 14)" in found[0].message
    assert "enclosed" in spawn_info(level(floor, arch, spawn=(200, 50)))


def test_several_narrow_passages_between_the_same_two_objects_are_each_reported():
    floor = Wall("floor", [(0, 0), (400, 0)], 8)
    arch = Wall("arch", [(100, 28), (100, 100), (300, 100), (300, 28)], 8)  # both legs 20 px short
    found = narrow(level(floor, arch))
    assert sorted(p.location.x for p in found) == [100.0, 300.0]
    assert all("20 px" in p.message for p in found)


def test_a_passage_exactly_as_wide_as_the_player_is_narrow_and_a_hair_wider_is_not():
    # Circle player 24 px across: the walls' surfaces are 32 - 8 = 24 px apart.
    walls = (Wall("a", [(0, 0), (200, 0)], 8), Wall("b", [(0, 32), (200, 32)], 8))
    assert len(narrow(level(*walls))) == 1
    wider = (Wall("a", [(0, 0), (200, 0)], 8), Wall("b", [(0, 32.01), (200, 32.01)], 8))
    assert narrow(level(*wider)) == []
    # Box player 24 x 16: a slot between left and right must beat 24, one between above and below 16.
    assert len(narrow(level(*walls, shape="box", size=(16, 24)))) == 1
    assert narrow(level(*walls, shape="box", size=(24, 23.99))) == []


def test_a_third_object_in_a_gap_splits_it_into_two_passages():
    a, b = Box("a", (0, 0), (10, 100)), Box("b", (40, 0), (10, 100))
    middle = Box("middle", (20, 0), (10, 100))
    found = narrow(level(a, b, middle))
    assert sorted((p.object_id, "to middle" in p.message) for p in found) == [("a", True), ("b", True)]


def test_a_ring_of_pillars_with_gaps_narrower_than_the_player_encloses_the_spawn():
    import math
    ring = [Pillar(f"p{k}", (100 * math.cos(k * math.pi / 8), 100 * math.sin(k * math.pi / 8)), 10)
            for k in range(16)]  # centres 39 px apart: gaps of 19 px
    assert "enclosed" in spawn_info(level(*ring, spawn=(0, 0)))
    wide = [Pillar(f"p{k}", (100 * math.cos(k * math.pi / 8), 100 * math.sin(k * math.pi / 8)), 6)
            for k in range(16)]  # gaps of 27 px
    assert "open space" in spawn_info(level(*wide, spawn=(0, 0)))


# --------------------------------------------------------------------------- where the sign goes

GAME_CONTENT = ROOT / "levels" / "game_content.json"


def courtyard_with_crate_at(x: float, tmp_path) -> Level:
    """levels/game_content.json with its crate (64 x 32, its top at y = 200) moved to ``x``."""
    data = json.loads(GAME_CONTENT.read_text())
    for o in data["objects"]:
        if o["id"] == "crate":
            o["origin"] = [x, 200]
    path = tmp_path / "courtyard.json"
    path.write_text(json.dumps(data))
    return load_level(path)


def test_a_narrow_passage_is_placed_at_the_middle_of_its_narrowest_stretch(tmp_path):
    # The crate 16 px from the courtyard's left wall (its inside face at x = 4): the gap runs the crate's
    # whole left side, y 200 to 232, and its spot is the middle of that, not a corner of the crate.
    (found,) = narrow(courtyard_with_crate_at(20, tmp_path))
    assert found.object_id == "courtyard" and "gap of 16 px to crate" in found.message
    assert (found.location.x, found.location.y) == (12, 216)
    assert "near (12, 216)" in found.message


def test_a_passage_between_round_sides_stays_at_their_closest_point():
    (found,) = narrow(level(Pillar("a", (0, 0), 10), Pillar("b", (18, 24), 10)))
    assert (found.location.x, found.location.y) == pytest.approx((9, 12))
