"""Flips and quarter turns of level objects (level_editor.core.level.transform): exact, reversible, kind by kind."""
from __future__ import annotations

import random

import pytest

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import Box, Image, OrientedBox, Pillar, Player, Point, Tiles, Wall
from level_editor.core.level.transform import (
    FLIP_HORIZONTAL,
    FLIP_VERTICAL,
    ROTATE_CLOCKWISE,
    ROTATE_COUNTERCLOCKWISE,
    SYMMETRIES,
    selection_pivot,
    transform_object,
    transform_objects,
    transform_player,
)


def sample():
    return [
        Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8, False, type="fence", properties={"hp": 3}),
        Box("box-1", (240, 80), (64, 32), solid=False),
        OrientedBox("obox-1", (400, 240), (40, 10), 30),
        Pillar("pillar-1", (240, 320), 16),
        Tiles("tiles-1", (0, 400), 16, ("##.", "#..")),
        Point("lever", (40, 200), type="lever"),
    ]


def test_box_rotates_about_its_centre_swapping_width_and_height():
    box = Box("box-1", (240, 80), (64, 32))
    turned = transform_object(box, ROTATE_CLOCKWISE, Vec2(272, 96))
    assert turned.origin == Vec2(256, 64) and turned.size == Vec2(32, 64)
    assert turned.bounds() == (256, 64, 288, 128)


def test_clockwise_turns_plus_x_towards_plus_y():
    marker = Point("m", (10, 0))
    assert transform_object(marker, ROTATE_CLOCKWISE, Vec2(0, 0)).position == Vec2(0, 10)
    assert transform_object(marker, ROTATE_COUNTERCLOCKWISE, Vec2(0, 0)).position == Vec2(0, -10)


def test_flips_mirror_about_the_pivot():
    wall = Wall("w", [(0, 0), (30, 10)], 4)
    assert transform_object(wall, FLIP_HORIZONTAL, Vec2(20, 5)).points == (Vec2(40, 0), Vec2(10, 10))
    assert transform_object(wall, FLIP_VERTICAL, Vec2(20, 5)).points == (Vec2(0, 10), Vec2(30, 0))


def test_oriented_box_rotation_turns_and_is_negated_by_a_flip():
    obox = OrientedBox("o", (0, 0), (40, 10), 30)
    assert transform_object(obox, FLIP_HORIZONTAL, Vec2(0, 0)).rotation == -30
    assert transform_object(obox, FLIP_VERTICAL, Vec2(0, 0)).rotation == -30
    assert transform_object(obox, ROTATE_CLOCKWISE, Vec2(0, 0)).rotation == -60  # 120, half a turn on
    assert transform_object(obox, ROTATE_COUNTERCLOCKWISE, Vec2(0, 0)).rotation == -60
    # the same rectangle either way: its corners are where a turn of the corners puts them
    turned = transform_object(obox, ROTATE_CLOCKWISE, Vec2(100, 0))
    expected = sorted((round(100 - c.y, 9), round(c.x - 100, 9)) for c in obox.corners())
    assert sorted((round(c.x, 9), round(c.y, 9)) for c in turned.corners()) == expected


def test_tile_cells_turn_and_flip_with_the_grid():
    tiles = Tiles("t", (0, 0), 16, ("##.", "#.."))
    turned = transform_object(tiles, ROTATE_CLOCKWISE, Vec2(24, 16))
    assert turned.cells == ("##", ".#", "..")
    assert turned.bounds() == (8, -8, 40, 40)  # 3 x 2 cells become 2 x 3 about the same centre
    flipped = transform_object(tiles, FLIP_VERTICAL, Vec2(24, 16))
    assert flipped.cells == ("#..", "##.") and flipped.origin == Vec2(0, 0)
    ccw = transform_object(tiles, ROTATE_COUNTERCLOCKWISE, Vec2(24, 16))
    assert ccw.cells == ("..", "#.", "##")


def test_solid_cells_land_where_the_turned_points_do():
    tiles = Tiles("t", (32, 48), 8, ("#..#", ".##.", "#..."))
    pivot = Vec2(37, 51)
    for symmetry in SYMMETRIES:
        turned = transform_object(tiles, symmetry, pivot)
        offset = symmetry.offset(pivot)
        expected = set()
        for row, line in enumerate(tiles.cells):
            for col, ch in enumerate(line):
                if ch == "#":
                    centre = Vec2(32 + col * 8 + 4, 48 + row * 8 + 4)
                    expected.add(symmetry.point(centre, offset))
        got = {Vec2(r.origin.x + 4 + 8 * i, r.origin.y + 4 + 8 * j)
               for r in turned.solid_rects() for i in range(round(r.size.x / 8)) for j in range(round(r.size.y / 8))}
        assert got == expected, symmetry.name


def test_everything_but_geometry_is_kept():
    for symmetry in SYMMETRIES:
        for before, after in zip(sample(), transform_objects(sample(), symmetry)):
            assert (after.id, after.layer, after.type, after.properties, after.solid) == \
                (before.id, before.layer, before.type, before.properties, before.solid)


@pytest.mark.parametrize("symmetry, times", [(ROTATE_CLOCKWISE, 4), (ROTATE_COUNTERCLOCKWISE, 4),
                                             (FLIP_HORIZONTAL, 2), (FLIP_VERTICAL, 2)])
def test_a_whole_cycle_gives_back_exactly_the_same_objects(symmetry, times):
    objects = sample()
    pivot = selection_pivot(objects)
    current = objects
    for _ in range(times):
        current = transform_objects(current, symmetry, selection_pivot(current))
        assert selection_pivot(current) == pivot  # the selection turns in place
    assert current == objects


def test_opposite_turns_undo_each_other_exactly_for_snapped_coordinates():
    rng = random.Random(7)

    def coordinate():  # anything the snapping gives, down to 1/64 px, a million pixels out
        return rng.randint(-64_000_000, 64_000_000) / 64

    for _ in range(200):
        objects = [Wall("w", [(coordinate(), coordinate()) for _ in range(3)], 3.3),
                   Pillar("p", (coordinate(), coordinate()), 0.7)]
        pivot = selection_pivot(objects)
        there = transform_objects(objects, ROTATE_CLOCKWISE, pivot)
        assert transform_objects(there, ROTATE_COUNTERCLOCKWISE, pivot) == objects
        assert transform_objects(transform_objects(objects, FLIP_VERTICAL, pivot), FLIP_VERTICAL, pivot) == objects


def test_any_coordinate_is_rounded_once_at_most():
    rng = random.Random(8)
    for _ in range(200):
        wall = Wall("w", [(rng.uniform(-1e6, 1e6), rng.uniform(-1e6, 1e6)) for _ in range(2)], 3.3)
        pivot = selection_pivot([wall])
        back = transform_object(transform_object(wall, ROTATE_CLOCKWISE, pivot), ROTATE_COUNTERCLOCKWISE, pivot)
        for p, q in zip(back.points, wall.points):
            assert p.x == pytest.approx(q.x, rel=0, abs=1e-9) and p.y == pytest.approx(q.y, rel=0, abs=1e-9)


def test_grid_aligned_objects_about_a_grid_point_stay_on_the_grid():
    objects = [Box("a", (0, 0), (32, 16)), Box("b", (64, 16), (16, 48)), Wall("w", [(16, 40), (56, 40)], 8)]
    assert selection_pivot(objects) == Vec2(40, 32)
    for symmetry in SYMMETRIES:
        for obj in transform_objects(objects, symmetry):
            coords = [*obj.origin] if isinstance(obj, Box) else [c for p in obj.points for c in p]
            assert all(c % 8 == 0 for c in coords), (symmetry.name, obj)


def test_the_pivot_is_the_centre_of_the_selection_and_the_spawn():
    player = Player(spawn=(100, 100), radius=10)
    assert selection_pivot([Box("b", (0, 0), (20, 20))], player) == Vec2(55, 55)
    moved = transform_player(player, ROTATE_CLOCKWISE, Vec2(55, 55))
    assert moved.spawn == Vec2(10, 100) and moved.radius == player.radius


def test_reference_images_stay_as_they_are_and_do_not_count_for_the_pivot():
    image = Image("img", "art/a.png", (1000, 1000))
    box = Box("b", (0, 0), (20, 20))
    assert selection_pivot([image, box]) == Vec2(10, 10)
    assert transform_object(image, FLIP_HORIZONTAL, Vec2(10, 10)) is image


def test_nothing_to_turn_is_a_clear_error():
    with pytest.raises(ValueError, match="nothing selected"):
        selection_pivot([])
    with pytest.raises(ValueError, match="nothing selected"):
        selection_pivot([Image("img", "a.png", (0, 0))])


def test_a_rotation_that_is_not_a_number_is_refused_by_name():
    with pytest.raises(ValueError, match="^o: a rotation of nan degrees cannot be turned$"):
        transform_object(OrientedBox("o", (0, 0), (1, 1), float("nan")), ROTATE_CLOCKWISE, Vec2(0, 0))
