"""Tiled's example maps come in with their art: tilesets, painted grids, sprites, layer opacity, size and
background, and only what the map makes a body collides."""
from __future__ import annotations

import base64
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

import pytest

from level_editor.core.checks.check import check_level
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.level.file_format import save_level
from tests.core.interop.tiled_examples import MAPS, examples_copy


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    return examples_copy(tmp_path_factory.mktemp("tiled"))


def _gids(tmx_layer) -> list[int]:
    """A TMX layer's global ids, decoded here (base64 + zlib, or csv) as an oracle independent of the importer."""
    data = tmx_layer.find("data")
    if data.get("encoding") == "csv":
        return [int(v) for v in re.split(r"[,\s]+", data.text.strip())]
    raw = base64.b64decode(data.text.strip())
    if data.get("compression") == "zlib":
        raw = zlib.decompress(raw)
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


@pytest.mark.parametrize("name", sorted(MAPS))
def test_each_example_map_imports_checks_clean_and_exports(examples, tmp_path, name):
    level_path = tmp_path / f"{name}.json"
    done = subprocess.run([sys.executable, "-m", "level_editor.core.cli", "import", str(examples / MAPS[name]),
                           "-o", str(level_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    level = read_tiled(examples / MAPS[name], level_dir=str(tmp_path)).level
    assert level.tilesets and level.size is not None
    errors = [p for p in check_level(level, base_dir=str(tmp_path)).problems if p.severity == "error"]
    assert errors == []
    for end in ("json", "tmx"):
        done = subprocess.run([sys.executable, "-m", "level_editor.core.cli", "export", str(level_path), "-o",
                               str(tmp_path / f"out.{end}")], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_desert_is_one_painted_grid_of_the_maps_tiles(examples, tmp_path):
    level = read_tiled(examples / "desert.tmx", level_dir=str(tmp_path)).level
    assert tuple(level.size) == (1280, 1280)
    (grid,) = level.objects
    (tileset,) = level.tilesets
    assert (tileset.id, tileset.tile_size, tileset.margin, tileset.spacing, tileset.columns, tileset.count) == (
        "desert", (32, 32), 1, 1, 8, 48)
    # relative to where the level goes
    assert tileset.image.endswith("/tmw_desert_spacing.png") and (tmp_path / tileset.image).is_file()
    layer = ET.parse(examples / "desert.tmx").getroot().find("layer")
    gids = _gids(layer)
    assert grid.tileset == "desert" and (grid.columns, grid.rows) == (40, 40) and tuple(grid.origin) == (0, 0)
    assert [v for row in grid.tiles for v in row] == [g - 1 if g else -1 for g in gids]
    assert grid.collision_shapes() == ()  # art: the desert's tiles have no collision shapes


def test_sewers_keep_their_layer_opacity_and_transparent_colour(examples, tmp_path):
    level = read_tiled(examples / "sewers.tmx", level_dir=str(tmp_path)).level
    assert [(layer.name, layer.opacity) for layer in level.layers] == [("Bottom", 1.0), ("Top", 0.49)]
    assert level.tilesets[0].transparent == "#ff00ff"
    assert tuple(level.size) == (1200, 1200)


def test_perspective_walls_keep_their_tile_offset_and_tall_tiles(examples, tmp_path):
    level = read_tiled(examples / "perspective_walls.tmx", level_dir=str(tmp_path)).level
    (tileset,) = level.tilesets
    assert tuple(tileset.offset) == (-32, 0) and tuple(tileset.tile_size) == (64, 64)
    assert {o.cell for o in level.objects} == {31}
    assert tileset.info(13).properties == {"door": "true"}


def test_sticker_knight_collides_only_where_the_game_has_bodies(examples, tmp_path):
    path = examples / "sticker-knight" / "map" / "sandbox.tmx"
    level = read_tiled(path, level_dir=str(tmp_path)).level
    root = ET.parse(path).getroot()
    objects = root.iter("object")
    static = sum(1 for o in objects for p in o.iter("property")
                 if p.get("name") == "bodyType" and p.get("value") == "static")
    assert static == 18 and len(level.objects) == 114
    solid = [o for o in level.objects if o.solid]
    assert len(solid) == static
    assert all(o.properties.get("bodyType") == "static" for o in solid)
    sprites = [o for o in level.objects if o.kind == "sprite"]
    assert len(sprites) == 112 and not any(o.solid for o in sprites if o.layer in ("parallax", "shading", "above"))
    assert level.background == "#27b99a" and tuple(level.size) == (2528, 1440)
    hero = level.object_by_id("hero")
    assert (hero.kind, hero.tileset, hero.tile, tuple(hero.center), tuple(hero.size)) == (
        "sprite", "objs", 21, (109, 899.5), (128, 160))
    assert tuple(level.player.spawn) == (109, 899.5)  # no player_spawn: the hero stands in for the player
    assert level.tileset("objs").is_collection and level.tileset("objs").info(21).image.endswith("hero.png")
    assert [layer.opacity for layer in level.layers if layer.name == "shading"] == [0.36]


def test_sandbox2_without_a_spawn_exports(examples, tmp_path):
    path = examples / "sticker-knight" / "map" / "sandbox2.tmx"
    result = read_tiled(path, level_dir=str(tmp_path))
    save_level(result.level, tmp_path / "s2.json")
    done = subprocess.run([sys.executable, "-m", "level_editor.core.cli", "export", str(tmp_path / "s2.json"), "-o",
                           str(tmp_path / "s2.tmx")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
