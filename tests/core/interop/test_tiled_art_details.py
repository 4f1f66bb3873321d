"""Art details of the Tiled import on maps written here: a tile's own collision shape, flip flags, a turned tile
object against pytmx, and broken tilesets named in one line."""
from __future__ import annotations

import subprocess
import sys

import pytest

from level_editor.core.collision.shapes import Rect, Vec2
from level_editor.core.interop.png import png_tiles
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.level.art import FLIP_X, FLIP_Y, TileShape

pytmx = pytest.importorskip("pytmx", reason="pytmx is the oracle of where Tiled puts a turned tile object")

TILESET = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="Bricks" tilewidth="16" tileheight="16" tilecount="2" columns="2">
 <image source="bricks.png" width="32" height="16"/>
 <tile id="1"><objectgroup><object id="1" x="0" y="8" width="16" height="8"/></objectgroup></tile>
</tileset>
"""

MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="2" tilewidth="16"
     tileheight="16" infinite="0" nextlayerid="3" nextobjectid="2">
 <tileset firstgid="1" source="{tileset}"/>
 <layer id="1" name="Ground" width="4" height="2">
  <data encoding="csv">
0,2,{flip_y},1,
{flip_x},0,0,{beyond}
</data>
 </layer>
 <objectgroup id="2" name="Things">
  <object id="1" name="crate" gid="{object_gid}" x="100" y="200" width="64" height="32" rotation="30"/>
 </objectgroup>
</map>
"""


def _write(folder, tileset="bricks.tsx", beyond=0, tileset_text=TILESET, picture=True):
    if picture:
        (folder / "bricks.png").write_bytes(png_tiles(16, [(200, 80, 40, 255), (90, 90, 90, 255)]))
    (folder / "bricks.tsx").write_text(tileset_text)
    path = folder / "hall.tmx"
    path.write_text(MAP.format(tileset=tileset, flip_y=2 | FLIP_Y, flip_x=1 | FLIP_X, beyond=beyond,
                               object_gid=2 | FLIP_X))
    return path


def test_a_half_cell_collision_rectangle_is_the_tiles_shape_and_the_grid_collides_only_there(tmp_path):
    level = read_tiled(_write(tmp_path), level_dir=str(tmp_path)).level
    bricks = level.tileset("bricks")
    assert bricks.info(1).collision == (TileShape("rect", ((0, 8), (16, 8))),)
    (grid,) = [o for o in level.objects if o.kind == "tiles"]
    # tile 1 at column 1 keeps its lower half; flipped upside down at column 2 it is the upper half
    assert sorted(grid.collision_shapes(), key=lambda r: r.origin.x) == [
        Rect(Vec2(16, 8), Vec2(16, 8)), Rect(Vec2(32, 0), Vec2(16, 8))]


def test_flipped_tiles_keep_their_flags(tmp_path):
    level = read_tiled(_write(tmp_path), level_dir=str(tmp_path)).level
    (grid,) = [o for o in level.objects if o.kind == "tiles"]
    assert grid.tiles == ((-1, 1, 1 | FLIP_Y, 0), (0 | FLIP_X, -1, -1, -1))


def test_a_turned_tile_object_lands_where_pytmx_puts_its_corners(tmp_path):
    path = _write(tmp_path)
    level = read_tiled(path, level_dir=str(tmp_path)).level
    crate = level.object_by_id("crate")
    assert (crate.kind, crate.tileset, crate.tile, crate.flip_x, crate.flip_y) == ("sprite", "bricks", 1, True, False)
    tiled = pytmx.TiledMap(str(path), load_all_tiles=False).get_object_by_name("crate")
    # pytmx gives a tile object's top-left as Tiled's y minus its height; Tiled turns it about its bottom-left
    pivot = pytmx.pytmx.Point(tiled.x, tiled.y + tiled.height)
    unturned = [pytmx.pytmx.Point(x, y) for x, y in ((tiled.x, tiled.y), (tiled.x + tiled.width, tiled.y),
                                                      (tiled.x + tiled.width, tiled.y + tiled.height),
                                                      (tiled.x, tiled.y + tiled.height))]
    expected = pytmx.pytmx.rotate(unturned, pivot, tiled.rotation)
    assert (tiled.x, tiled.y + tiled.height, tiled.rotation) == (100, 200, 30)
    for ours, theirs in zip(crate.corners(), expected):
        assert ours.x == pytest.approx(theirs[0]) and ours.y == pytest.approx(theirs[1])


def _import(tmp_path, path):
    return subprocess.run([sys.executable, "-m", "level_editor.core.cli", "import", str(path), "-o",
                           str(tmp_path / "hall.json")], capture_output=True, text=True)


def test_a_missing_picture_is_one_line_naming_the_tileset(tmp_path):
    done = _import(tmp_path, _write(tmp_path, picture=False))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    lines = [line.removeprefix(f"{tmp_path}/") for line in done.stderr.splitlines() if "bricks.png" in line]
    assert lines == ["hall.tmx: tileset Bricks: its picture bricks.png is missing; its tiles show as placeholders "
                     "until it is there"]


def test_tiles_beyond_the_tileset_are_one_line_naming_layer_and_tileset(tmp_path):
    done = _import(tmp_path, _write(tmp_path, beyond=3))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "hall.tmx: layer Ground: 1 tile beyond the last tile of tileset Bricks; left out" in done.stderr


def test_a_broken_tsx_is_one_line_naming_it(tmp_path):
    done = _import(tmp_path, _write(tmp_path, tileset_text='<tileset name="Bricks" tilewidth="16"'))
    assert "Traceback" not in done.stderr
    assert [line.removeprefix(f"{tmp_path}/") for line in done.stderr.splitlines() if "bricks.tsx" in line] == [
        "hall.tmx: tileset bricks.tsx cannot be read: is not valid XML: unclosed token at line 1, column 1"]


def test_desert_cells_are_the_gids_pytmx_reads_minus_firstgid(tmp_path):
    from tests.core.interop.tiled_examples import examples_copy
    path = examples_copy(tmp_path) / "desert.tmx"
    level = read_tiled(path, level_dir=str(tmp_path)).level
    (grid,) = level.objects
    tiled = pytmx.TiledMap(str(path), load_all_tiles=False)
    layer = tiled.get_layer_by_name("Ground")
    firstgid = tiled.tilesets[0].firstgid
    # pytmx renumbers tiles as it loads them: tiledgidmap takes them back to the map's own ids
    expected = [[tiled.tiledgidmap[g] - firstgid if g else -1 for g in row] for row in layer.data]
    assert (grid.tileset, len(expected), len(expected[0])) == ("desert", 40, 40)
    assert [list(row) for row in grid.tiles] == expected


def test_what_a_level_cannot_show_of_the_art_is_noted_one_line_each(tmp_path):
    import json
    (tmp_path / "bricks.png").write_bytes(png_tiles(16, [(200, 80, 40, 255), (90, 90, 90, 255)]))
    (tmp_path / "sky.png").write_bytes(png_tiles(16, [(40, 80, 200, 255)]))
    data = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 1, "tilewidth": 16, "tileheight": 16,
            "backgroundcolor": "#80112233",
            "tilesets": [{"firstgid": 1, "name": "Bricks", "tilewidth": 16, "tileheight": 16, "tilecount": 2,
                          "columns": 2, "image": "bricks.png", "imagewidth": 32, "imageheight": 16}],
            "layers": [{"type": "imagelayer", "name": "Sky", "image": "sky.png", "repeatx": True, "parallaxx": 0.5},
                       {"type": "tilelayer", "name": "Ground", "width": 2, "height": 1,
                        "data": [1 | 0x10000000, 2]}]}
    path = tmp_path / "hall.tmj"
    path.write_text(json.dumps(data))
    result = read_tiled(path, level_dir=str(tmp_path))
    assert result.level.background == "#112233"
    (grid,) = [o for o in result.level.objects if o.kind == "tiles"]
    assert grid.tiles == ((0, 1),)
    notes = [n for n in result.notes if "player" not in n]
    assert notes == [
        "layer Sky: its parallax factor 0.5, 1 is left out (a level's layers scroll together)",
        "layer Sky: its picture repeats along x in Tiled; the level shows it once",
        "layer Ground: 1 tile carries the hexagonal 120-degree turn, which an orthogonal level does not have; "
        "drawn unturned",
        "the map's background colour #80112233 is partly transparent: the level's is #112233, opaque"]
