"""The play-test's world: only solid objects collide, tile grids as their merged rectangles, and areas are found
near the player through a broad phase of their own."""
from __future__ import annotations

import random

import pytest

from level_editor.core.collision import Capsule, Circle, Line, OrientedRect, Rect, Vec2, overlaps
from level_editor.core.collision.world import World
from level_editor.core.level.model import Box, Image, Layer, Level, OrientedBox, Pillar, Player, Point, Tiles, Wall

SHAPES = ("circle", "box")


def player(shape="circle", spawn=(0, 0)):
    return Player(spawn=spawn, shape=shape, radius=5, size=(10, 6))


def one_of_each(solid):
    return (
        Wall("wall", ((0, 0), (50, 0), (50, 40)), 4, solid=solid),
        Box("box", (100, 0), (20, 10), solid=solid),
        OrientedBox("obox", (200, 0), (10, 5), 30, solid=solid),
        Pillar("pillar", (300, 0), 8, solid=solid),
        Tiles("tiles", (400, 0), 16, ("##.#", "####"), solid=solid),
    )


def test_only_solid_objects_collide():
    level = Level(player=player(), objects=(
        *one_of_each(True), *(o.with_id(o.id + "-area") for o in one_of_each(False)),
        Point("lever", (100, 5)), Image("art", "art/level.png", (0, 0))))
    world = World.from_level(level)
    assert [c.object_id for c in world.colliders] == ["wall", "wall", "box", "obox", "pillar", "tiles", "tiles", "tiles"]
    assert [s for s in level.collision_shapes()] == [c.shape for c in world.colliders]
    assert [a.object_id for a in world.areas] == ["wall-area", "wall-area", "box-area", "obox-area", "pillar-area",
                                                 "tiles-area", "tiles-area", "tiles-area"]
    assert [a.index for a in world.areas] == list(range(8))


def test_markers_and_images_are_neither_colliders_nor_areas():
    level = Level(player=player(), objects=(Point("lever", (0, 0)), Image("art", "a.png", (-10, -10))))
    world = World.from_level(level)
    assert world.colliders == () and world.areas == ()
    assert world.areas_at(0, 0) == ()


def test_a_tile_grid_collides_as_its_merged_rectangles():
    tiles = Tiles("t", (16, 32), 16, ("####", "##.#", "##.#"))
    world = World.from_level(Level(player=player(), objects=(tiles,)))
    assert [c.shape for c in world.colliders] == [
        Rect(Vec2(16, 32), Vec2(64, 16)), Rect(Vec2(16, 48), Vec2(32, 32)), Rect(Vec2(64, 48), Vec2(16, 32))]
    assert all(c.object_id == "t" for c in world.colliders)


def test_an_empty_tile_grid_has_no_shapes():
    world = World.from_level(Level(player=player(), objects=(Tiles("t", (0, 0), 16, ("....",)),)))
    assert world.colliders == () and world.areas == ()


def test_hidden_and_locked_layers_still_collide_and_their_areas_still_count():
    layers = (Layer("main", "Main"), Layer("hidden", "Hidden", visible=False), Layer("locked", "Locked", locked=True))
    level = Level(player=player(), layers=layers, objects=(
        Box("a", (10, 0), (5, 5), layer="hidden"),
        Box("b", (20, 0), (5, 5), layer="locked"),
        Box("c", (-10, -10), (20, 20), layer="hidden", solid=False),
    ))
    world = World.from_level(level)
    assert [c.object_id for c in world.colliders] == ["a", "b"]
    assert world.areas_at(0, 0) == ("c",)


def test_areas_are_not_in_the_colliders_broad_phase():
    level = Level(player=player(), objects=(Box("zone", (-50, -50), (100, 100), solid=False),))
    world = World.from_level(level)
    assert len(world) == 0 and world.near_indices(-100, -100, 100, 100) == []
    assert world.areas_at(0, 0) == ("zone",)


@pytest.mark.parametrize("shape", SHAPES)
def test_touching_an_area_counts(shape):
    level = Level(player=player(shape), objects=(Box("zone", (10, -20), (10, 40), solid=False),))
    world = World.from_level(level)
    assert world.areas_at(5, 0) == ("zone",)  # the body's right side lies on the zone's left side
    assert world.areas_at(25, 0) == ("zone",)
    assert world.areas_at(5 - 1e-9, 0) == ()
    assert world.areas_at(25 + 1e-9, 0) == ()


def test_an_area_with_many_shapes_is_reported_once_in_object_order():
    level = Level(player=player(), objects=(
        Tiles("grid", (-16, -16), 16, ("#.", ".#"), solid=False),  # two cells meeting at (0, 0)
        Wall("path", ((-20, 0), (0, 0), (20, 0)), 2, solid=False),
        Box("first", (-1, -1), (2, 2), solid=False),
    ))
    world = World.from_level(level)
    assert [a.object_id for a in world.areas] == ["grid", "grid", "path", "path", "first"]
    assert world.areas_at(0, 0) == ("grid", "path", "first")
    assert world.areas_at(0, 30) == ()


def test_a_world_without_areas_answers_at_once():
    world = World([Rect(Vec2(0, 0), Vec2(10, 10))], Circle(Vec2(0, 0), 2))
    assert world.areas == () and world.areas_at(5, 5) == ()


def test_an_infinite_line_is_refused_as_an_area():
    with pytest.raises(TypeError, match="area 0"):
        World([], Circle(Vec2(0, 0), 1), areas=[("l", Line(Vec2(0, 0), Vec2(1, 0)))])


@pytest.mark.parametrize("shape", SHAPES)
def test_body_at_is_the_players_body_there(shape):
    p = player(shape)
    world = World.from_level(Level(player=p))
    for x, y in ((0, 0), (12.5, -3.25), (1e6 + 0.1, -7e5)):
        assert world.body_at(x, y) == p.body_at((x, y))


@pytest.mark.parametrize("shape", SHAPES)
def test_areas_at_agrees_with_testing_every_area(shape):
    rng = random.Random(7)
    shapes = []
    for n in range(300):
        c = Vec2(rng.uniform(0, 400), rng.uniform(0, 400))
        k = n % 4
        if k == 0:
            shapes.append(Rect(c, Vec2(rng.uniform(1, 30), rng.uniform(1, 30))))
        elif k == 1:
            shapes.append(OrientedRect(c, Vec2(rng.uniform(1, 15), rng.uniform(1, 15)), rng.uniform(0, 360)))
        elif k == 2:
            shapes.append(Circle(c, rng.uniform(1, 15)))
        else:
            shapes.append(Capsule(c, c + Vec2(rng.uniform(-30, 30), rng.uniform(-30, 30)), rng.uniform(0.5, 4)))
    body = Circle(Vec2(0, 0), 6) if shape == "circle" else Rect(Vec2(-6, -4), Vec2(12, 8))
    world = World([], body, areas=[(f"a{n // 2}", s) for n, s in enumerate(shapes)])
    for _ in range(2000):
        x, y = rng.uniform(-10, 410), rng.uniform(-10, 410)
        b = world.body_at(x, y)
        expected = tuple(dict.fromkeys(a.object_id for a in world.areas if overlaps(b, a.shape)))
        assert world.areas_at(x, y) == expected
