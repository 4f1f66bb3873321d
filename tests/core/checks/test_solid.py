"""Only solid objects take part in the collision checks; areas, markers and pictures never block the player."""
from __future__ import annotations

import pytest

from level_editor.core.checks.hulls import LEVEL_KEY, level_hulls
from level_editor.core.checks.outlines import level_outlines
from level_editor.core.checks.validation import validate_level
from level_editor.core.level.model import Box, Image, Layer, Level, OrientedBox, Pillar, Player, Point, Tiles, Wall
from level_editor.core.level.problems import ERROR, INFO, PLAYER_ID, WARNING

LAYERS = (Layer("walls", "Walls"), Layer("zones", "Zones"), Layer("hidden", "Hidden", visible=False, locked=True))


def level(*objects, spawn=(-500.0, -500.0), **player):
    return Level(player=Player(spawn=spawn, **player), objects=objects, layers=LAYERS)


def problems(lvl, severity=None, object_id=None, word=None):
    return [p for p in validate_level(lvl)
            if (severity is None or p.severity == severity)
            and (object_id is None or p.object_id == object_id)
            and (word is None or word in p.message)]


def info(lvl):
    (found,) = problems(lvl, INFO)
    return found.message


# Objects of every solid-capable kind overlapping a player of radius 12 at (0, 0).
AT_SPAWN = [
    lambda solid, layer: Box("crate", (5, -20), (40, 40), solid=solid, layer=layer),
    lambda solid, layer: OrientedBox("obox", (20, 0), (12, 4), 30, solid=solid, layer=layer),
    lambda solid, layer: Pillar("pillar", (15, 0), 6, solid=solid, layer=layer),
    lambda solid, layer: Wall("wall", [(14, -40), (14, 40)], 6, solid=solid, layer=layer),
    lambda solid, layer: Tiles("tiles", (-8, -8), 16, ("#",), solid=solid, layer=layer),
]


@pytest.mark.parametrize("make", AT_SPAWN, ids=["box", "oriented_box", "pillar", "wall", "tiles"])
def test_an_area_at_the_spawn_is_no_overlap_but_a_solid_object_is(make):
    assert problems(level(make(False, "zones"), spawn=(0, 0)), ERROR) == []
    solid = make(True, "walls")
    found = problems(level(solid, spawn=(0, 0)), ERROR, PLAYER_ID)
    assert len(found) == 1 and solid.id in found[0].message


def test_objects_on_a_hidden_locked_layer_still_collide_at_the_spawn():
    found = problems(level(Box("crate", (5, -20), (40, 40), layer="hidden"), spawn=(0, 0)), ERROR, PLAYER_ID)
    assert len(found) == 1 and "crate" in found[0].message


def test_markers_and_pictures_at_the_spawn_are_no_overlap():
    lvl = level(Point("coin", (0, 0), layer="zones"), Image("art", "a.png", (-10, -10), layer="hidden"), spawn=(0, 0))
    assert problems(lvl, ERROR) == []
    assert "open" in info(lvl)


def test_only_the_solid_objects_are_named_among_many_at_the_spawn():
    objects = [Box(f"zone-{k}", (-10, -10), (20, 20), solid=False, layer="zones") for k in range(3)]
    objects.append(Box("crate", (-10, -10), (20, 20), layer="walls"))
    found = problems(level(*objects, spawn=(0, 0)), ERROR, PLAYER_ID)
    assert len(found) == 1 and "overlaps crate at" in found[0].message


@pytest.mark.parametrize("a_solid,b_solid,reported", [
    (True, True, True), (True, False, False), (False, True, False), (False, False, False)])
def test_a_narrow_gap_counts_only_between_two_solid_objects(a_solid, b_solid, reported):
    lvl = level(Pillar("a", (0, 0), 10, solid=a_solid, layer="walls"),
                Pillar("b", (30, 0), 10, solid=b_solid, layer="zones"), radius=12)  # gap 10 < 24
    assert len(problems(lvl, WARNING, word="gap")) == (1 if reported else 0)


def test_a_narrow_gap_between_a_tile_grid_and_a_box():
    tiles = Tiles("floor", (0, 0), 16, ("####", "#..#"), layer="walls")
    lvl = level(tiles, Box("crate", (0, 42), (64, 10), layer="walls"), radius=12)  # 10 px below the cells
    found = problems(lvl, WARNING, word="gap")
    assert len(found) == 1 and found[0].object_id == "floor" and "to crate" in found[0].message


def test_a_box_player_is_not_blocked_by_the_space_between_a_grids_separate_parts():
    # Two single cells far apart, diagonally: one tile grid whose outline has two parts. The crate is
    # 10.5 px right of the first cell and 5 px below it, so a 10 x 10 box cannot touch both; nothing
    # of the grid lies between the parts, however its outline's rings are ordered.
    cells = tuple("".join("#" if (c, r) in ((0, 0), (10, 10)) else "." for c in range(11)) for r in range(11))
    tiles = Tiles("pair", (0, 0), 10, cells, layer="walls")
    lvl = level(tiles, Box("crate", (20.5, 15), (4.5, 5), layer="walls"), shape="box", size=(10, 10))
    assert problems(lvl, WARNING, word="gap") == []
    touching = level(tiles, Box("crate", (19.5, 15), (4.5, 5), layer="walls"), shape="box", size=(10, 10))
    assert len(problems(touching, WARNING, word="gap")) == 1


def test_a_route_crossing_a_wall_is_no_crossing():
    h = Wall("h", [(0, 50), (100, 50)], 4, layer="walls")
    route = Wall("route", [(30, 0), (30, 100)], 2, solid=False, layer="zones")
    assert problems(level(h, route), WARNING, word="crosses wall") == []
    solid = Wall("v", [(30, 0), (30, 100)], 4, layer="hidden")
    assert len(problems(level(h, solid), WARNING, word="crosses wall")) == 1


def test_a_non_solid_wall_still_has_its_own_errors():
    zone = Wall("zone", [(0, 0), (100, 100), (100, 0), (0, 100)], 2, closed=True, solid=False, layer="zones")
    found = problems(level(zone), ERROR, "zone")
    assert len(found) == 1 and "crosses itself" in found[0].message


def test_an_area_around_the_spawn_does_not_enclose_it():
    def room(solid):
        return Wall("room", [(0, 0), (200, 0), (200, 200), (0, 200)], 8, closed=True, solid=solid, layer="zones")

    assert "open" in info(level(room(False), spawn=(100, 100)))
    assert "enclosed" in info(level(room(True), spawn=(100, 100)))
    assert "inside" not in info(level(Box("zone", (50, 50), (100, 100), solid=False), spawn=(100, 100)))


def test_a_tile_grid_ring_encloses_the_spawn_in_its_empty_middle():
    ring = Tiles("ring", (0, 0), 16, ("#####", "#...#", "#...#", "#...#", "#####"), layer="walls")
    assert "enclosed" in info(level(ring, spawn=(40, 40), radius=4))
    broken = Tiles("ring", (0, 0), 16, ("##.##", "#...#", "#...#", "#...#", "#####"), layer="walls")
    assert "open" in info(level(broken, spawn=(40, 40), radius=4))


def test_areas_have_outlines_and_hulls_but_markers_and_pictures_have_none():
    objects = [Box("zone", (0, 0), (10, 10), solid=False, layer="zones"), Point("coin", (5, 5)),
               Image("art", "a.png", (0, 0), layer="hidden"), Wall("route", [(0, 0), (50, 0)], 2, solid=False)]
    lvl = level(*objects)
    outlines = level_outlines(lvl)
    assert outlines.ids == ["zone", "route"] and outlines.solid.tolist() == [False, False]
    assert outlines.solid_only().ids == []
    assert set(level_hulls(lvl)) == {"zone", "route", LEVEL_KEY}


def test_a_far_area_is_still_a_far_object():
    crates = [Box(f"crate-{k}", (k * 60.0, (k % 3) * 60.0), (30, 30), layer="walls") for k in range(10)]
    lvl = level(*crates, Box("lost-zone", (90000, 0), (30, 30), solid=False, layer="zones"), spawn=(-40, -40))
    assert [p.object_id for p in problems(lvl, WARNING, word="far")] == ["lost-zone"]
