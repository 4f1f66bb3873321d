"""Playing on art: painted tiles collide through their tiles' collision shapes (a half-cell tile is stood on at
that height), art without shapes is passed through, and sticker-knight's hero stands and runs on the map's bodies."""
from __future__ import annotations

from dataclasses import replace

import pytest

from level_editor.core.collision.planes import SKIN
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.level.art import FLIP_Y, TileInfo, TileShape, Tileset
from level_editor.core.level.model import Box, Level, Player, Sprite, Tiles
from level_editor.core.playtest.platformer import Platformer
from tests.core.interop.tiled_examples import examples_copy

SHAPES = ("box", "circle")
CELL = 32.0
HALF = {"box": 15.0, "circle": 12.0}

#: tile 0: collides in its bottom half; tile 1: over its whole square; tile 2: art, no collision;
#: tile 3: a slope rising to the right at 30 degrees (a polygon)
TILESET = Tileset("ground", "Ground", (32, 32), image="ground.png", image_size=(128, 32), columns=4, count=4, tiles={
    0: TileInfo(collision=(TileShape("rect", ((0, 16), (32, 16))),)),
    1: TileInfo(collision=(TileShape("rect", ((0, 0), (32, 32))),)),
    3: TileInfo(collision=(TileShape("polygon", ((0, 32), (32, 32 - 32 * 0.5773502691896257), (32, 32))),)),
})


def level(shape: str, rows, spawn, *more) -> Level:
    grid = Tiles("ground", (0, 100), CELL, (), tileset="ground", tiles=rows)
    player = Player(spawn=spawn, shape=shape, size=(20, 30), radius=12, controller="platformer")
    return Level(player=player, objects=(grid, *more), tilesets=(TILESET,))


def settle(body: Platformer, ticks: int = 120) -> Platformer:
    for _ in range(ticks):
        body.step(0, 0, False)
    return body


@pytest.mark.parametrize("shape", SHAPES)
def test_a_tile_whose_collision_is_the_bottom_half_is_stood_on_at_that_height(shape):
    body = settle(Platformer(level(shape, ((0, 0, 0),), (48.0, 40.0))))
    assert body.on_floor
    # the cell spans y 100..132; its shape is the lower half, so the floor is at y 116
    assert body.y + HALF[shape] == pytest.approx(116.0, abs=SKIN * 2)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_same_tile_upside_down_is_stood_on_at_the_top_of_its_cell(shape):
    body = settle(Platformer(level(shape, ((0 | FLIP_Y,) * 3,), (48.0, 40.0))))
    assert body.on_floor and body.y + HALF[shape] == pytest.approx(100.0, abs=SKIN * 2)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_run_of_half_height_tiles_is_walked_without_catching_on_a_seam(shape):
    body = settle(Platformer(level(shape, ((0,) * 40,), (20.0, 40.0))))
    xs = []
    for _ in range(250):
        body.step(1, 0, False)
        assert body.on_floor
        xs.append(body.x)
    assert {round(b - a, 9) for a, b in zip(xs, xs[1:])} == {4.0}


@pytest.mark.parametrize("shape", SHAPES)
def test_art_without_collision_is_fallen_through_onto_what_collides_below(shape):
    floor = Box("floor", (-100, 300), (400, 20))
    body = settle(Platformer(level(shape, ((2, 2, 2),), (48.0, 40.0), floor)), 200)
    assert body.on_floor and body.y + HALF[shape] == pytest.approx(300.0, abs=SKIN * 2)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_slope_tile_is_walked_up_as_a_slope(shape):
    # the slope tile (rising 18.5 px over its 32) sits on the ground row: walked up and over, never blocked
    body = settle(Platformer(level(shape, ((-1, 3, -1), (1, 1, 1)), (16.0, 60.0))))
    assert body.y + HALF[shape] == pytest.approx(132.0, abs=SKIN * 2)
    highest = body.y
    for _ in range(40):
        body.step(1, 0, False)
        if body.on_floor:
            highest = min(highest, body.y)
    assert body.x > 70  # over the slope, not stopped at its foot
    assert highest + HALF[shape] < 132.0 - 12  # climbed most of the way up it, standing


@pytest.mark.parametrize("shape", SHAPES)
def test_a_sprite_collides_only_when_solid(shape):
    crate = Sprite("crate", (48, 80), (64, 32), tileset="ground", tile=2)
    art = settle(Platformer(level(shape, ((1, 1, 1),), (48.0, 20.0), crate)))
    assert art.y + HALF[shape] == pytest.approx(100.0, abs=SKIN * 2)  # passed through the crate to the tiles
    solid = settle(Platformer(level(shape, ((1, 1, 1),), (48.0, 20.0), replace(crate, solid=True))))
    assert solid.y + HALF[shape] == pytest.approx(64.0, abs=SKIN * 2)  # stands on the crate's top


@pytest.mark.parametrize("shape", SHAPES)
def test_a_one_way_painted_grid_is_landed_on_from_above_and_jumped_through_from_below(shape):
    grid = Tiles("ledge", (0, 40), CELL, (), tileset="ground", tiles=((1, 1, 1),), one_way=True)
    body = settle(Platformer(level(shape, ((1, 1, 1),), (48.0, 80.0), grid)))
    assert body.y + HALF[shape] == pytest.approx(100.0, abs=SKIN * 2)  # under the ledge, on the ground
    body.step(0, 0, True)
    for _ in range(60):
        body.step(0, 0, True)
        if body.on_floor and body.y < 60:
            break
    settle(body, 60)
    assert body.on_floor and body.y + HALF[shape] == pytest.approx(40.0, abs=SKIN * 2)  # landed on the ledge


def test_sticker_knights_hero_stands_and_runs_on_the_maps_ground(tmp_path):
    path = examples_copy(tmp_path) / "sticker-knight" / "map" / "sandbox.tmx"
    level = read_tiled(path, level_dir=str(tmp_path)).level
    hero = level.object_by_id("hero")
    player = replace(level.player, spawn=hero.center, shape="box", size=(60, 150), controller="platformer")
    body = Platformer(level.with_player(player))
    settle(body)
    assert body.on_floor
    ground = body.y + 75  # the hero's feet
    below = [o for o in level.objects if o.solid and o.bounds()[1] == pytest.approx(ground, abs=1)]
    assert below and all(o.properties.get("bodyType") == "static" for o in below)  # a body, not art
    top = body.y
    body.step(0, 0, True)
    for _ in range(20):
        body.step(0, 0, True)
        top = min(top, body.y)
    assert top < ground - 75 - 60  # jumped (nothing above the hero at the start)
    settle(body)
    assert body.on_floor
    x0 = body.x
    for _ in range(120):
        body.step(1, 0, False)
    assert body.on_floor and body.x > x0 + 400  # ran right over the ground, past the scenery
