"""Geometry validation: every problem kind on a level that has it and on one that does not."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Wall
from level_editor.core.level.file_format import load_level
from level_editor.core.level.problems import ERROR, INFO, LEVEL_ID, PLAYER_ID, WARNING
from level_editor.core.collision.shapes import Vec2
from level_editor.core.checks.validation import validate_level

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "levels").glob("*.json"))

FAR_SPAWN = (-500.0, -500.0)


def level(*objects, spawn=FAR_SPAWN, shape="circle", radius=12.0, size=(24.0, 32.0)):
    return Level(player=Player(spawn=spawn, shape=shape, radius=radius, size=size), objects=objects)


def problems(lvl, severity=None, object_id=None, word=None):
    found = validate_level(lvl)
    return [p for p in found
            if (severity is None or p.severity == severity)
            and (object_id is None or p.object_id == object_id)
            and (word is None or word in p.message)]


def near(p, x, y, tol=1e-6):
    return p is not None and abs(p.x - x) <= tol and abs(p.y - y) <= tol


# --------------------------------------------------------------------------- samples


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_levels_have_no_errors_and_no_warnings(path):
    found = validate_level(load_level(path), base_dir=str(path.parent))  # their pictures are there too
    assert [str(p) for p in found if p.severity != INFO] == []
    assert len([p for p in found if p.severity == INFO]) == 1


def test_every_problem_has_a_float_location_and_errors_come_first():
    lvl = level(
        Wall("dup", [(0, 0), (0, 0), (50, 0)], 4),
        Pillar("a", (200, 200), 10), Pillar("b", (225, 200), 10),
        spawn=(0, 0))
    found = validate_level(lvl)
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    assert [order[p.severity] for p in found] == sorted(order[p.severity] for p in found)
    assert {p.severity for p in found} == {ERROR, WARNING, INFO}
    for p in found:
        assert isinstance(p.location, Vec2)
        assert type(p.location.x) is float and type(p.location.y) is float


# --------------------------------------------------------------------------- zero-length segments


def test_zero_length_segment_is_an_error_at_the_node():
    found = problems(level(Wall("w", [(0, 0), (40, 0), (40, 0), (40, 40)], 4)), ERROR, "w")
    assert len(found) == 1
    assert "segment 2 has zero length" in found[0].message
    assert near(found[0].location, 40, 0)


def test_closing_segment_of_zero_length_is_an_error():
    found = problems(level(Wall("w", [(0, 0), (40, 0), (40, 40), (0, 0)], 4, closed=True)), ERROR, "w")
    assert any("closing segment" in p.message for p in found)


def test_wall_without_repeated_nodes_has_no_zero_length_error():
    assert problems(level(Wall("w", [(0, 0), (40, 0), (40, 40)], 4)), ERROR) == []


# --------------------------------------------------------------------------- closed walls


def test_closed_wall_crossing_itself_is_an_error_at_the_crossing():
    bowtie = Wall("bow", [(0, 0), (100, 100), (100, 0), (0, 100)], 4, closed=True)
    found = problems(level(bowtie), ERROR, "bow")
    assert len(found) == 1 and "crosses itself" in found[0].message
    assert near(found[0].location, 50, 50)
    assert "(50, 50)" in found[0].message


def test_closed_wall_touching_itself_at_a_node_is_an_error():
    eight = Wall("eight", [(0, 0), (100, 0), (50, 50), (100, 100), (0, 100), (50, 50)], 4, closed=True)
    found = problems(level(eight), ERROR, "eight")
    assert len(found) == 1 and near(found[0].location, 50, 50)


def test_closed_wall_folding_back_is_an_error():
    found = problems(level(Wall("fold", [(0, 0), (100, 0), (50, 0)], 4, closed=True)), ERROR, "fold")
    assert len(found) == 1 and "runs back over itself" in found[0].message


def test_simple_closed_wall_is_fine():
    square = Wall("sq", [(0, 0), (100, 0), (100, 100), (0, 100)], 4, closed=True)
    assert problems(level(square), ERROR) == []
    assert problems(level(square), WARNING) == []


def test_closed_wall_with_two_nodes_is_a_warning_and_three_are_fine():
    found = problems(level(Wall("two", [(0, 0), (100, 0)], 4, closed=True)), object_id="two")
    assert [p.severity for p in found] == [WARNING]
    assert "only 2 nodes" in found[0].message
    assert problems(level(Wall("three", [(0, 0), (100, 0), (50, 80)], 4, closed=True)), object_id="three") == []


def test_open_wall_crossing_itself_is_a_warning_but_ending_on_itself_is_fine():
    z = Wall("z", [(0, 0), (100, 100), (100, 0), (0, 100)], 4)
    found = problems(level(z), object_id="z")
    assert [p.severity for p in found] == [WARNING] and near(found[0].location, 50, 50)
    loop = Wall("p", [(0, 100), (0, 0), (60, 0), (60, 50), (0, 50)], 4)  # a "P": ends on its own stem
    assert problems(level(loop), object_id="p") == []


# --------------------------------------------------------------------------- player at its spawn


@pytest.mark.parametrize("obj", [
    Box("crate", (5, -20), (40, 40)),
    OrientedBox("obox", (20, 0), (12, 4), 30),
    Pillar("pillar", (15, 0), 6),
    Wall("wall", [(14, -40), (14, 40)], 6),
])
def test_circle_player_overlapping_geometry_is_an_error(obj):
    found = problems(level(obj, spawn=(0, 0), radius=12), ERROR, PLAYER_ID)
    assert len(found) == 1 and obj.id in found[0].message
    assert found[0].location == Vec2(0.0, 0.0)


@pytest.mark.parametrize("obj", [
    Box("crate", (12, -20), (40, 40)),            # edge at x = 12
    Pillar("pillar", (20, 0), 8),                 # 12 + 8 = 20
    Wall("wall", [(15, -40), (15, 40)], 6),       # capsule edge at x = 12
    Wall("end", [(0, 15), (0, 60)], 6),           # round end reaching y = 12
])
def test_circle_player_touching_geometry_counts_as_overlap(obj):
    assert len(problems(level(obj, spawn=(0, 0), radius=12), ERROR, PLAYER_ID)) == 1


@pytest.mark.parametrize("obj", [
    Box("crate", (12.001, -20), (40, 40)),
    Pillar("pillar", (20.001, 0), 8),
    Wall("wall", [(15.001, -40), (15.001, 40)], 6),
    Pillar("corner", (10, 10), 2),  # 14.14 - 2 > 12
])
def test_circle_player_clear_of_geometry_is_fine(obj):
    assert problems(level(obj, spawn=(0, 0), radius=12), ERROR) == []


def test_box_player_uses_its_box_not_a_circle():
    # The box player 24 x 32 reaches y = 16 from its centre; a circle of radius 12 would not.
    touching = Box("shelf", (-50, 16), (100, 10))
    assert len(problems(level(touching, spawn=(0, 0), shape="box", size=(24, 32)), ERROR, PLAYER_ID)) == 1
    clear = Box("shelf", (-50, 16.001), (100, 10))
    assert problems(level(clear, spawn=(0, 0), shape="box", size=(24, 32)), ERROR) == []
    # A pillar off the box's corner: inside the corner's reach only for a box, not for a disc.
    corner = Pillar("p", (12 + 3, 16 + 4), 5)  # exactly 5 from the corner (12, 16)
    assert len(problems(level(corner, spawn=(0, 0), shape="box", size=(24, 32)), ERROR, PLAYER_ID)) == 1
    assert problems(level(Pillar("p", (15, 20.01), 5), spawn=(0, 0), shape="box", size=(24, 32)), ERROR) == []


def test_player_overlapping_many_objects_names_three_and_counts_the_rest():
    crates = [Box(f"c{k}", (-10 + k, -10), (20, 20)) for k in range(5)]
    found = problems(level(*crates, spawn=(0, 0)), ERROR, PLAYER_ID)
    assert len(found) == 1 and "c0, c1, c2 and 2 more" in found[0].message


# --------------------------------------------------------------------------- narrow passages


def test_gap_narrower_than_a_circle_player_is_a_warning_at_its_middle():
    lvl = level(Pillar("a", (0, 0), 10), Pillar("b", (30, 0), 10), radius=12)  # gap 10 < 24
    found = problems(lvl, WARNING, word="gap")
    assert len(found) == 1
    assert found[0].object_id == "a" and "to b" in found[0].message
    assert near(found[0].location, 15, 0, tol=0.01)
    assert "gap of 10 px" in found[0].message


@pytest.mark.parametrize("distance", [20.0, 45.0, 60.0])  # touching, wide enough, far apart
def test_touching_or_wide_gaps_are_fine(distance):
    lvl = level(Pillar("a", (0, 0), 10), Pillar("b", (distance, 0), 10), radius=12)
    assert problems(lvl, WARNING, word="gap") == []


def test_gap_as_wide_as_the_player_counts_as_narrow_since_touching_counts():
    lvl = level(Box("a", (0, 0), (10, 10)), Box("b", (34, 0), (10, 10)), radius=12)
    assert len(problems(lvl, WARNING, word="gap")) == 1
    lvl = level(Box("a", (0, 0), (10, 10)), Box("b", (34.01, 0), (10, 10)), radius=12)
    assert problems(lvl, WARNING, word="gap") == []


def test_narrow_gap_between_walls_is_reported_once_per_pair():
    lvl = level(Wall("top", [(0, 0), (200, 0)], 4), Wall("bottom", [(0, 20), (200, 20)], 4), radius=12)
    found = problems(lvl, WARNING, word="gap")
    assert [p.object_id for p in found] == ["top"]
    assert abs(found[0].location.y - 10) < 0.01


def test_box_player_is_measured_across_the_gap():
    player = dict(shape="box", size=(24, 32))
    # Objects above and below, 28 apart: the player is 32 tall, it cannot pass.
    above_below = level(Box("up", (0, -10), (100, 10)), Box("down", (0, 28), (100, 10)), **player)
    assert len(problems(above_below, WARNING, word="gap")) == 1
    # Left and right, 28 apart: the player is 24 wide, it passes.
    left_right = level(Box("left", (-10, 0), (10, 100)), Box("right", (28, 0), (10, 100)), **player)
    assert problems(left_right, WARNING, word="gap") == []


def test_box_player_passes_between_two_corners_that_are_far_enough_in_x():
    # Corners 24.4 apart in x and 19.7 in y (31.4 apart): the 24 x 32 box slips through sideways.
    player = dict(shape="box", size=(24, 32))
    a = Box("a", (-40, -40), (40, 40))
    passable = level(a, Box("b", (24.4, 19.7), (40, 40)), **player)
    assert problems(passable, WARNING, word="gap") == []
    blocked = level(a, Box("b", (23.9, 19.7), (40, 40)), **player)
    assert len(problems(blocked, WARNING, word="gap")) == 1


def test_box_player_and_parallel_diagonal_walls():
    # Two walls at 45 degrees, their sides 36 apart: the 24 x 32 box spans 39.6 across them.
    s = math.sqrt(0.5)
    offset = 36 + 4  # side gap plus both half thicknesses
    w1 = Wall("w1", [(0, 0), (300, 300)], 4)
    w2 = Wall("w2", [(offset * s, -offset * s), (300 + offset * s, 300 - offset * s)], 4)
    assert len(problems(level(w1, w2, shape="box", size=(24, 32)), WARNING, word="gap")) == 1
    offset = 41 + 4
    w2 = Wall("w2", [(offset * s, -offset * s), (300 + offset * s, 300 - offset * s)], 4)
    assert problems(level(w1, w2, shape="box", size=(24, 32)), WARNING, word="gap") == []


# --------------------------------------------------------------------------- walls crossing walls


def test_walls_crossing_is_a_warning_at_the_crossing_point():
    lvl = level(Wall("h", [(0, 50), (100, 50)], 4), Wall("v", [(30, 0), (30, 100)], 4))
    found = problems(lvl, WARNING, word="crosses wall")
    assert len(found) == 1 and found[0].object_id == "h" and "wall v" in found[0].message
    assert near(found[0].location, 30, 50)


def test_wall_end_poking_through_another_wall_is_a_crossing():
    lvl = level(Wall("h", [(0, 50), (100, 50)], 4), Wall("stub", [(30, 0), (30, 53)], 4))
    found = problems(lvl, WARNING, word="crosses wall")
    assert len(found) == 1 and near(found[0].location, 30, 50)


@pytest.mark.parametrize("other", [
    Wall("t", [(30, 0), (30, 50)], 4),                 # ends on the wall: a T
    Wall("l", [(100, 50), (100, 0)], 4),               # shares the end node: an L
    Wall("apart", [(30, 0), (30, 40)], 4),
])
def test_walls_meeting_properly_are_fine(other):
    lvl = level(Wall("h", [(0, 50), (100, 50)], 4), other)
    assert problems(lvl, WARNING, word="wall") == []


@pytest.mark.parametrize("first,second", [
    # A V and an upside-down V whose tips meet at a node of each.
    (Wall("v", [(0, 0), (50, 50), (100, 0)], 4), Wall("caret", [(0, 100), (50, 50), (100, 100)], 4)),
    # A chain bending at a node that lies on the other wall's straight segment, staying on one side.
    (Wall("h", [(0, 50), (100, 50)], 4), Wall("bend", [(20, 0), (50, 50), (80, 0)], 4)),
    # Two closed rooms sharing a corner node, and one room's corner touching the other's side.
    (Wall("a", [(0, 0), (100, 0), (100, 100), (0, 100)], 4, closed=True),
     Wall("b", [(100, 100), (200, 100), (200, 200), (100, 200)], 4, closed=True)),
    (Wall("a", [(0, 0), (100, 0), (100, 100), (0, 100)], 4, closed=True),
     Wall("diamond", [(100, 50), (150, 0), (200, 50), (150, 100)], 4, closed=True)),
])
def test_walls_touching_at_a_node_without_passing_through_are_fine(first, second):
    assert problems(level(first, second), WARNING, word="wall") == []


@pytest.mark.parametrize("second,x,y", [
    (Wall("through", [(50, 0), (50, 50), (60, 100)], 4), 50, 50),     # passes through at its own node
    (Wall("zigzag", [(0, 0), (50, 50), (100, 100)], 4), 50, 50),      # node on the other's node, both pass
    (Wall("twice", [(20, 0), (20, 100), (30, 100), (30, 40), (40, 40)], 4), 20, 50),
])
def test_walls_passing_through_each_other_at_a_node_are_crossings(second, x, y):
    first = Wall("h", [(0, 50), (50, 50), (100, 50)], 4)
    found = problems(level(first, second), WARNING, word="crosses wall")
    assert len(found) == 1 and found[0].object_id == "h"
    assert near(found[0].location, x, y)


def test_walls_lying_on_each_other_are_a_warning():
    lvl = level(Wall("a", [(0, 0), (100, 0)], 4), Wall("b", [(50, 0), (150, 0)], 4))
    found = problems(lvl, WARNING, word="runs along")
    assert len(found) == 1 and found[0].object_id == "a"


@pytest.mark.parametrize("other", [
    Wall("b", [(20, 0), (50, 0)], 4),      # lies inside the other
    Wall("b", [(0, 0), (100, 0)], 4),      # the same wall twice (pasted in place)
    Wall("b", [(100, 0), (0, 0)], 4),      # the same, drawn the other way
])
def test_a_wall_lying_wholly_on_another_is_a_warning(other):
    found = problems(level(Wall("a", [(0, 0), (100, 0)], 4), other), WARNING, word="wall")
    assert len(found) == 1 and found[0].object_id == "a" and "runs along wall b" in found[0].message


def test_closed_walls_crossing_each_other_are_reported():
    a = Wall("a", [(0, 0), (100, 0), (100, 100), (0, 100)], 4, closed=True)
    b = Wall("b", [(50, 50), (150, 50), (150, 150), (50, 150)], 4, closed=True)
    found = problems(level(a, b), WARNING, word="crosses wall")
    assert len(found) == 1
    assert found[0].location in (Vec2(100.0, 50.0), Vec2(50.0, 100.0))


# --------------------------------------------------------------------------- far objects


def room_objects():
    return [Box(f"crate-{k}", (k * 60.0, (k % 3) * 60.0), (30, 30)) for k in range(10)]


def test_object_far_from_the_rest_is_a_warning():
    lvl = level(*room_objects(), Pillar("lost", (90000, 100), 10), spawn=(-40, -40))
    found = problems(lvl, WARNING, word="far")
    assert [p.object_id for p in found] == ["lost"]
    assert near(found[0].location, 90000, 100)


def test_a_pasted_group_far_away_is_reported_object_by_object():
    lvl = level(*room_objects(), Box("copy-1", (50000, 0), (30, 30)), Box("copy-2", (50040, 0), (30, 30)),
                spawn=(-40, -40))
    assert sorted(p.object_id for p in problems(lvl, WARNING, word="far")) == ["copy-1", "copy-2"]


def test_compact_and_spread_out_levels_have_no_far_objects():
    assert problems(level(*room_objects(), spawn=(-40, -40)), WARNING, word="far") == []
    # A long row of rooms: spread out evenly, nothing is far from the rest.
    row = [Box(f"room-{k}", (k * 700.0, 0), (600, 400)) for k in range(30)]
    assert problems(level(*row, spawn=(-40, -40)), WARNING, word="far") == []


def test_spawn_far_from_the_level_is_a_warning():
    found = problems(level(*room_objects(), spawn=(0, 80000)), WARNING, PLAYER_ID)
    assert len(found) == 1 and "far" in found[0].message


# --------------------------------------------------------------------------- the spawn's free space


def info(lvl):
    found = problems(lvl, INFO)
    assert len(found) == 1 and found[0].object_id == LEVEL_ID
    return found[0]


def test_spawn_inside_a_closed_wall_is_enclosed():
    room = Wall("room", [(0, 0), (200, 0), (200, 200), (0, 200)], 8, closed=True)
    found = info(level(room, spawn=(100, 100)))
    assert "enclosed" in found.message and found.location == Vec2(100.0, 100.0)


def test_spawn_behind_a_door_gap_is_open():
    room = Wall("room", [(80, 0), (0, 0), (0, 200), (200, 200), (200, 0), (120, 0)], 8)
    assert "open" in info(level(room, spawn=(100, 100))).message


def test_spawn_outside_a_closed_room_is_open():
    room = Wall("room", [(0, 0), (200, 0), (200, 200), (0, 200)], 8, closed=True)
    assert "open" in info(level(room, spawn=(300, 100))).message


def test_separate_pieces_that_touch_enclose_the_spawn():
    # Four boxes and two pillars that only touch one another make a ring.
    pieces = [Box("n", (0, 0), (200, 10)), Box("s", (0, 190), (200, 10)),
              Box("w", (0, 10), (10, 80)), Pillar("w2", (5, 100), 10), Box("w3", (0, 110), (10, 80)),
              Box("e", (190, 10), (10, 180))]
    assert "enclosed" in info(level(*pieces, spawn=(100, 100))).message
    # Move one box a pixel away: the gaps are too narrow for the player (24 px), so the ring still holds it.
    pieces[5] = Box("e", (191, 11), (9, 178))
    assert "enclosed" in info(level(*pieces, spawn=(100, 100))).message
    # Move it 25 px away: the player gets out.
    pieces[5] = Box("e", (225, 11), (9, 178))
    assert "open" in info(level(*pieces, spawn=(100, 100))).message


def test_spawn_in_a_level_without_objects_is_open():
    assert "open" in info(level(spawn=(0, 0))).message


def test_spawn_inside_an_object_says_so():
    found = info(level(Box("block", (-50, -50), (100, 100)), spawn=(0, 0)))
    assert "inside block" in found.message


def test_a_stop_asked_for_while_the_outlines_are_built_ends_the_check_there():
    """A background check gives way to a save within a few thousand objects, not after all its outlines."""
    from level_editor.core.checks.check import check_level
    from level_editor.core.checks.outlines import Stopped, level_outlines
    from level_editor.core.level.generate import generate_level
    level = generate_level(10_000, seed=2)
    looks = []

    def stop_at_third_look():
        looks.append(1)
        return len(looks) >= 3

    with pytest.raises(Stopped):
        level_outlines(level, stop=stop_at_third_look)
    assert len(looks) == 3  # the first two looks said go on: the third, still in the outlines, stopped it
    looks.clear()
    assert check_level(level, with_hulls=True, stop=stop_at_third_look) is None
    assert len(looks) == 3
    full = check_level(level, with_hulls=True, stop=lambda: False)
    assert full is not None and full.problems is not None and len(full.hulls) > 0
    assert full.outlines.ids == level_outlines(level).ids


def test_hulls_of_a_validated_result_without_outlines_come_from_the_objects(monkeypatch):
    """The editor lets a check's outlines go once its problems are found; a save's hulls need no new check."""
    from dataclasses import replace as _replace

    import level_editor.core.checks.check as check_module
    from level_editor.core.checks.hulls import level_hulls
    from level_editor.core.level.generate import generate_level
    level = generate_level(500, seed=4)
    validated = _replace(check_module.check_level(level), outlines=None)
    assert validated.hulls is None and validated.problems is not None
    monkeypatch.setattr(check_module, "check_level", lambda *a, **k: pytest.fail("checked again"))
    done = check_module.add_hulls(validated)
    assert done.problems == validated.problems and done.level is level
    assert dict(done.hulls) == dict(level_hulls(level))
