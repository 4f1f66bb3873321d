"""A level's art as a game reads it: tilesets, painted tiles placed and flipped as the editor draws them, sprites,
layers' visibility and opacity, the level's size and background, and where each picture is on disk."""
from __future__ import annotations

import json

import pytest

from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y
from level_editor.core.runtime import load_level, loads_level
from tests.core.runtime.helpers import ROOT

TILES_AND_SPRITES = ROOT / "levels" / "tiles_and_sprites.json"
LAYERS = [{"id": "main", "name": "Main", "visible": True, "locked": False}]


@pytest.fixture(scope="module")
def level():
    return load_level(TILES_AND_SPRITES)


def test_the_level_shows_its_size_background_tilesets_and_layers(level):
    assert level.size == (1536, 384) and level.background == "#9fd4f0"
    meadow = level.tilesets["meadow"]
    assert (meadow.tile_size, meadow.columns, meadow.count) == ((32, 32), 4, 8)
    assert level.picture_path(meadow.picture_of(6)) == str(ROOT / "levels" / "art" / "meadow.png")
    assert meadow.source_rect(6) == (64, 32, 32, 32)  # the crate: column 2 of row 1
    assert [c.kind for c in meadow.info(2).collision] == ["rect"]
    sky = level.layer("sky")
    assert (sky.name, sky.visible, sky.opacity) == ("Sky", True, 1.0)
    with pytest.raises(KeyError, match="no layer with id 'clouds'"):
        level.layer("clouds")
    with pytest.raises(TypeError):
        level.tilesets["new"] = meadow  # read-only


def test_a_sprite_shows_its_picture_place_and_flips(level):
    crate = level.object("crate")
    assert (crate.kind, crate.solid, crate.tileset, crate.tile, crate.picture) == ("sprite", True, "meadow", 6, "")
    assert (crate.center, crate.size, crate.rotation, crate.opacity) == ((784, 304), (32, 32), 0.0, 1.0)
    assert crate.corners()[0] == (768, 288)
    cloud = level.object("cloud-1")
    assert (cloud.flip_x, cloud.flip_y, cloud.opacity, cloud.solid) == (True, False, 0.9, False)
    with pytest.raises(AttributeError, match="a sprite has no 'radius'"):
        cloud.radius


def test_painted_tiles_are_placed_and_flipped_as_the_editor_draws_them(level):
    ground = level.object("ground")
    assert ground.tileset == "meadow" and ground.tile_at(0, 1) == 1 | FLIP_X | FLIP_D
    tiles = ground.painted_tiles()
    assert len(tiles) == 96  # two full rows of 48
    first_of_row_1 = tiles[48]
    assert (first_of_row_1.column, first_of_row_1.row, first_of_row_1.tile) == (0, 1, 1)
    assert (first_of_row_1.flip_x, first_of_row_1.flip_y, first_of_row_1.flip_diagonal) == (True, False, True)
    assert (first_of_row_1.x, first_of_row_1.y, first_of_row_1.width, first_of_row_1.height) == (0, 352, 32, 32)
    ledge = level.object("high-ledge").painted_tiles()
    assert [(t.tile, t.flip_y, t.x, t.y) for t in ledge] == [(2, True, 960 + 32 * i, 192) for i in range(4)]
    decoration = level.object("decoration")
    assert len(decoration.painted_tiles()) == sum(v >= 0 for v in decoration.tiles[0])  # empty cells left out


def test_a_tile_larger_than_its_cell_stands_on_the_cells_bottom_left_corner_shifted_by_the_offset():
    text = json.dumps({
        "format": "level-editor.level", "version": 3, "name": "Tall", "layers": LAYERS,
        "tilesets": [{"id": "t", "name": "T", "image": "t.png", "image_size": [64, 96], "tile_size": [32, 48],
                      "columns": 2, "count": 4, "offset": [3, -2]}],
        "player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60},
        "objects": [{"id": "g", "kind": "tiles", "layer": "main", "origin": [100, 200], "cell": 16, "tileset": "t",
                     "tiles": [[-1, 3], [FLIP_D | 2, FLIP_Y | 1]]}]})
    level = loads_level(text, "tall.json", folder="/game/levels")
    placed = [(t.column, t.row, t.tile, t.x, t.y, t.width, t.height) for t in level.object("g").painted_tiles()]
    assert placed == [
        (1, 0, 3, 100 + 16 + 3, 200 + 16 - 2 - 48, 32, 48),
        (0, 1, 2, 100 + 3, 200 + 32 - 2 - 32, 48, 32),  # turned: as wide as the tile is tall
        (1, 1, 1, 100 + 16 + 3, 200 + 32 - 2 - 48, 32, 48),
    ]
    assert level.picture_path("t.png") == "/game/levels/t.png"
    assert level.picture_path("/abs/t.png") == "/abs/t.png"


def test_a_plain_grid_paints_nothing_and_a_sprite_of_a_file_names_it():
    text = json.dumps({
        "format": "level-editor.level", "version": 3, "name": "Plain", "layers": LAYERS,
        "player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60},
        "objects": [{"id": "g", "kind": "tiles", "layer": "main", "origin": [0, 40], "cell": 16, "cells": ["##"]},
                    {"id": "s", "kind": "sprite", "layer": "main", "center": [50, 50], "size": [20, 10], "rotation": 30,
                     "flip_y": True, "picture": "art/hero.png"}]})
    level = loads_level(text)
    grid, sprite = level.object("g"), level.object("s")
    assert grid.tileset == "" and grid.painted_tiles() == () and grid.is_solid(1, 0)
    assert (sprite.picture, sprite.tileset, sprite.rotation, sprite.flip_y) == ("art/hero.png", "", 30.0, True)
    assert level.picture_path(sprite.picture) == "art/hero.png"  # no folder given: the current one


def test_drawing_order_is_the_editors_images_first_on_their_layer():
    text = json.dumps({
        "format": "level-editor.level", "version": 3, "name": "Order",
        "layers": [{"id": "a", "name": "A", "visible": True, "locked": False},
                   {"id": "b", "name": "B", "visible": False, "locked": False, "opacity": 0.5}],
        "player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60},
        "objects": [{"id": "box", "kind": "box", "layer": "b", "origin": [40, 0], "size": [8, 8]},
                    {"id": "ref", "kind": "image", "layer": "b", "path": "ref.png", "origin": [0, 0]},
                    {"id": "low", "kind": "box", "layer": "a", "origin": [60, 0], "size": [8, 8]}]})
    level = loads_level(text)
    assert [o.id for o in level.drawing_order()] == ["low", "ref", "box"]
    assert (level.layer("b").visible, level.layer("b").opacity) == (False, 0.5)
    assert level.size is None and level.background is None
