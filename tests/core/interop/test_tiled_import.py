"""The Tiled import on maps written by hand as Tiled writes them: shapes, turned and flipped objects, templates,
external tilesets, group layers, every tile data encoding, infinite maps, the player, references, and the notes
for what a level cannot hold."""
from __future__ import annotations

import base64
import gzip
import json
import math
import struct
import zlib

import pytest

from level_editor.core.interop.tiled_import import read_tiled, tiled_to_level
from level_editor.core.collision.shapes import Rect, Vec2
from level_editor.core.level.model import Box, Image, OrientedBox, Pillar, Point, Ref, Sprite, Wall


def tmj(layers, tilesets=(), properties=(), **more) -> dict:
    return {"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "width": 4, "height": 3,
            "infinite": False, "layers": list(layers), "tilesets": list(tilesets), "properties": list(properties),
            **more}


def group(objects, name="Things", **more) -> dict:
    return {"type": "objectgroup", "name": name, "objects": list(objects), **more}


def read(data: dict, tmp_path=None, name="hall.tmj"):
    if tmp_path is None:
        return tiled_to_level(data, "hall")
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return read_tiled(path)


def by_id(level) -> dict:
    return {o.id: o for o in level.objects}


def encode(gids, encoding, compression=None):
    if encoding == "csv":
        return ",".join(map(str, gids))
    raw = struct.pack(f"<{len(gids)}I", *gids)
    if compression == "zlib":
        raw = zlib.compress(raw)
    elif compression == "gzip":
        raw = gzip.compress(raw)
    return base64.b64encode(raw).decode()


SOLID_TILESET = {"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "tilecount": 4, "columns": 4,
                 "tiles": [{"id": 0, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 0, "width": 16,
                                                                  "height": 16}]}},
                           {"id": 2, "properties": [{"name": "collides", "type": "bool", "value": True}]}]}


def test_shapes_become_boxes_pillars_walls_and_markers():
    result = read(tmj([group([
        {"id": 1, "name": "crate", "x": 96, "y": 200, "width": 64, "height": 32},
        {"id": 2, "name": "fountain", "x": 500, "y": 100, "width": 40, "height": 40, "ellipse": True},
        {"id": 3, "name": "fence", "x": 10, "y": 20, "polyline": [{"x": 0, "y": 0}, {"x": 100, "y": 0}],
         "properties": [{"name": "thickness", "type": "float", "value": 6}]},
        {"id": 4, "name": "pond", "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}, {"x": 40, "y": 0}, {"x": 40, "y": 40}],
         "properties": [{"name": "thickness", "type": "int", "value": 4}]},
        {"id": 5, "name": "lever", "x": 64, "y": 320, "point": True},
    ])]))
    objs = by_id(result.level)
    assert objs["crate"] == Box("crate", (96, 200), (64, 32), layer="things")
    assert objs["fountain"] == Pillar("fountain", (520, 120), 20, layer="things")
    assert objs["fence"] == Wall("fence", [(10, 20), (110, 20)], 6, layer="things")
    assert objs["pond"] == Wall("pond", [(0, 0), (40, 0), (40, 40)], 4, closed=True, layer="things")
    assert objs["lever"] == Point("lever", (64, 320), layer="things")
    assert [(lay.id, lay.name) for lay in result.level.layers] == [("things", "Things")]


def test_turned_objects_turn_about_their_top_left_corner():
    r = math.radians(30)
    corner = (480 - 48 * math.cos(r) + 12 * math.sin(r), 320 - 48 * math.sin(r) - 12 * math.cos(r))
    result = read(tmj([group([
        {"id": 1, "name": "ramp", "x": corner[0], "y": corner[1], "width": 96, "height": 24, "rotation": 30},
        {"id": 2, "name": "ball", "x": 0, "y": 0, "width": 20, "height": 20, "ellipse": True, "rotation": 90},
        {"id": 3, "name": "arm", "x": 10, "y": 10, "polyline": [{"x": 0, "y": 0}, {"x": 10, "y": 0}],
         "rotation": 90, "properties": [{"name": "thickness", "type": "float", "value": 2}]},
    ])]))
    objs = by_id(result.level)
    assert isinstance(objs["ramp"], OrientedBox)
    assert tuple(objs["ramp"].center) == (480, 320) and objs["ramp"].rotation == 30
    assert tuple(objs["ramp"].half_extents) == (48, 12)
    assert tuple(objs["ball"].center) == (-10, 10)  # the circle swings round its top-left corner
    assert [tuple(p) for p in objs["arm"].points] == [(10, 10), (10, 20)]


def test_what_a_level_cannot_hold_is_named_one_line_per_object():
    result = read(tmj([group([
        {"id": 7, "name": "sign", "x": 0, "y": 0, "width": 80, "height": 20, "text": {"text": "Hello"}},
        {"id": 8, "name": "blob", "x": 0, "y": 0, "width": 40, "height": 20, "ellipse": True},
        {"id": 9, "name": "line", "x": 0, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 5, "y": 0}]},
    ])]))
    assert result.notes == (
        "object sign (id 7): text objects are left out",
        "object blob (id 8): ellipse 40x20 approximated as a pillar of radius 15",
        "1 polygon or polyline without a thickness property: its wall is 8 px thick",
        "no object of type player_spawn: the player starts at 64, 64",
    )
    objs = by_id(result.level)
    assert "sign" not in objs and objs["blob"] == Pillar("blob", (20, 10), 15, layer="things")
    assert objs["line"].thickness == 8


def test_tile_objects_become_sprites_placed_flipped_and_turned_as_tiled_draws_them():
    tileset = {"firstgid": 1, "name": "sprites", "tilewidth": 32, "tileheight": 32, "tilecount": 1, "columns": 1,
               "tiles": [{"id": 0, "type": "coin"}]}
    flipped = 1 | 0x80000000 | 0x40000000
    result = read(tmj([group([
        {"id": 1, "name": "coin", "gid": 1, "x": 10, "y": 50, "width": 32, "height": 32},
        {"id": 2, "name": "mirrored", "gid": flipped, "x": 100, "y": 100, "width": 64, "height": 16},
        {"id": 3, "name": "tilted", "gid": 1, "x": 0, "y": 0, "width": 20, "height": 10, "rotation": 90},
        {"id": 4, "name": "sized-by-tile", "gid": 1, "x": 0, "y": 32},
    ])], [tileset]))
    objs = by_id(result.level)
    # x, y is the bottom-left corner; the sprite keeps its centre
    assert objs["coin"] == Sprite("coin", (26, 34), (32, 32), tileset="sprites", tile=0, layer="things", type="coin")
    assert objs["mirrored"] == Sprite("mirrored", (132, 92), (64, 16), flip_x=True, flip_y=True, tileset="sprites",
                                      tile=0, layer="things", type="coin")
    tilted = objs["tilted"]
    assert isinstance(tilted, Sprite) and tilted.rotation == 90
    assert (tilted.center.x, tilted.center.y) == (pytest.approx(5), pytest.approx(10))
    assert objs["sized-by-tile"].size.x == 32
    assert not any(o.solid for o in result.level.objects)  # art: no collision shapes, no body
    assert result.level.tileset("sprites").tile_count() == 1


@pytest.mark.parametrize("encoding, compression", [
    ("csv", None), ("base64", None), ("base64", "zlib"), ("base64", "gzip"), ("array", None)])
def test_tile_layers_in_every_encoding_become_painted_grids_that_collide_where_their_tiles_do(encoding, compression):
    gids = [0, 1, 1, 0,
            0, 2, 3, 0,   # tile 2 (gid 2) has no collision, tile 3 (gid 3) collides by property
            0, 0, 0, 0]
    layer = {"type": "tilelayer", "name": "Ground", "width": 4, "height": 3,
             "data": gids if encoding == "array" else encode(gids, encoding, compression)}
    if encoding != "array":
        layer["encoding"] = encoding
    if compression:
        layer["compression"] = compression
    result = read(tmj([layer], [SOLID_TILESET]))
    (grid,) = result.level.objects
    assert (grid.tileset, tuple(grid.origin), grid.cell, grid.tiles) == ("t", (16, 0), 16, ((0, 0), (1, 2)))
    assert grid.layer == "ground" and grid.solid
    assert grid.collision_shapes() == (Rect(Vec2(16, 0), Vec2(32, 16)), Rect(Vec2(32, 16), Vec2(16, 16)))


def test_a_tile_layer_in_tmx_csv_base64_and_old_xml(tmp_path):
    gids = [0, 1, 1, 0, 0, 0, 3 | 0x80000000, 0, 0, 0, 0, 0]
    tileset = ('<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="4" columns="4">'
               '<tile id="0"><objectgroup><object id="1" x="0" y="0" width="16" height="16"/></objectgroup></tile>'
               '<tile id="2"><properties><property name="solid" type="bool" value="true"/></properties></tile>'
               '</tileset>')
    datas = {
        "csv": f'<data encoding="csv">\n{encode(gids, "csv")}\n</data>',
        "zlib": f'<data encoding="base64" compression="zlib">{encode(gids, "base64", "zlib")}</data>',
        "xml": "<data>" + "".join(f'<tile gid="{g}"/>' if g else "<tile/>" for g in gids) + "</data>",
    }
    for name, data in datas.items():
        (tmp_path / f"{name}.tmx").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="orthogonal" width="4" '
            f'height="3" tilewidth="16" tileheight="16">{tileset}<layer id="1" name="Floor" width="4" height="3">'
            f'{data}</layer></map>')
        (grid,) = read_tiled(tmp_path / f"{name}.tmx").level.objects
        # the flip flag is kept in the cell, as Tiled keeps it in the id
        assert (grid.origin.x, grid.origin.y, grid.tiles) == (16, 0, ((0, 0), (-1, 2 | 0x80000000))), name
        assert grid.cells == ("##", ".#")


def test_a_layer_property_makes_every_tile_solid_or_an_area():
    gids = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    plain = {"firstgid": 1, "name": "art", "tilewidth": 16, "tileheight": 16, "tilecount": 4, "columns": 4}
    solid = {"type": "tilelayer", "name": "Walls", "width": 4, "height": 3, "data": gids,
             "properties": [{"name": "collides", "type": "bool", "value": True}]}
    area = {"type": "tilelayer", "name": "Water", "width": 4, "height": 3, "data": gids,
            "properties": [{"name": "solid", "type": "bool", "value": False},
                           {"name": "depth", "type": "int", "value": 3}]}
    objs = by_id(read(tmj([solid, area], [plain])).level)
    assert objs["Walls"].solid and objs["Walls"].cells == ("#...", "....", "...#")
    assert not objs["Water"].solid and objs["Water"].properties == {"depth": 3}


def test_decoration_tiles_are_art_that_never_collides():
    layer = {"type": "tilelayer", "name": "Grass", "width": 4, "height": 3, "data": [2] * 12}
    result = read(tmj([layer], [SOLID_TILESET]))
    (grid,) = result.level.objects
    assert grid.tiles == ((1,) * 4,) * 3
    assert grid.collision_shapes() == ()
    assert result.notes == ("no object of type player_spawn: the player starts at 64, 64",)


def test_an_infinite_map_is_read_from_its_chunks():
    chunk = {"x": -16, "y": 16, "width": 16, "height": 16, "data": [0] * 256}
    chunk["data"][0] = 1
    chunk["data"][17] = 1
    far = {"x": 32, "y": 0, "width": 16, "height": 16, "data": encode([1] + [0] * 255, "base64", "zlib")}
    layer = {"type": "tilelayer", "name": "Ground", "chunks": [chunk], "width": 16, "height": 16,
             "startx": -16, "starty": 0}
    layer2 = {"type": "tilelayer", "name": "Far", "chunks": [far], "encoding": "base64", "compression": "zlib",
              "width": 16, "height": 16}
    objs = by_id(read(tmj([layer, layer2], [SOLID_TILESET], infinite=True)).level)
    assert objs["Ground"].origin == (-256, 256) and objs["Ground"].tiles == ((0, -1), (-1, 0))
    assert objs["Far"].origin == (512, 0) and objs["Far"].tiles == ((0,),)


def test_bigger_tiles_and_tile_offsets_are_placed_as_tiled_draws_them():
    big = {"firstgid": 1, "name": "big", "tilewidth": 32, "tileheight": 32, "tilecount": 1, "columns": 1,
           "tileoffset": {"x": 4, "y": 2},
           "tiles": [{"id": 0, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 0, "width": 32, "height": 32}]}}]}
    gids = [0] * 12
    gids[1 * 4 + 2] = 1  # map cell (2, 1): a 32 px tile drawn with its bottom-left at (32, 32), shifted by (4, 2)
    level = read(tmj([{"type": "tilelayer", "name": "Big", "width": 4, "height": 3, "data": gids}], [big])).level
    grid = by_id(level)["Big"]
    assert grid.cell == 16 and tuple(grid.origin) == (32, 16) and grid.tiles == ((0,),)
    assert tuple(level.tileset("big").offset) == (4, 2)
    assert grid.collision_shapes() == (Rect(Vec2(36, 2), Vec2(32, 32)),)


def test_tiles_that_are_not_square_become_boxes_with_a_note():
    wide = {"firstgid": 1, "name": "wide", "tilewidth": 32, "tileheight": 16, "tilecount": 1, "columns": 1,
            "tiles": [{"id": 0, "properties": [{"name": "solid", "type": "bool", "value": True}]}]}
    gids = [1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    result = read(tmj([{"type": "tilelayer", "name": "Shelf", "width": 4, "height": 3, "data": gids}], [wide],
                      tilewidth=32))
    boxes = [(tuple(o.origin), tuple(o.size)) for o in result.level.objects]
    assert boxes == [((0, 0), (32, 16)), ((64, 0), (64, 16))]
    assert result.notes[0] == "layer Shelf: the map's tiles are 32x16, not square: its tiles' pictures are left out"
    assert "its tiles are 32x16, not square: 2 boxes instead of a tile grid" in result.notes[1]


def test_groups_nest_their_layers_and_offsets():
    result = read(tmj([{"type": "group", "name": "World", "offsetx": 100, "offsety": 10, "locked": True,
                        "layers": [group([{"id": 1, "name": "crate", "x": 5, "y": 5, "width": 4, "height": 4}],
                                         name="Props", offsetx=1, visible=False)]}]))
    (crate,) = result.level.objects
    assert tuple(crate.origin) == (106, 15)
    (layer,) = result.level.layers
    assert (layer.id, layer.name, layer.visible, layer.locked) == ("world-props", "World/Props", False, True)


def test_image_layers_become_reference_images_relative_to_the_level(tmp_path):
    (tmp_path / "maps").mkdir()
    data = tmj([{"type": "imagelayer", "name": "Sketch", "image": "../art/sketch.png", "offsetx": 8, "offsety": 4,
                 "opacity": 0.5, "properties": [{"name": "scale", "type": "float", "value": 2}]}])
    path = tmp_path / "maps" / "m.tmj"
    path.write_text(json.dumps(data))
    (image,) = read_tiled(path, level_dir=str(tmp_path / "levels")).level.objects
    # the layer's opacity is the level layer's: the picture draws at it once
    assert image == Image("Sketch", "../art/sketch.png", (8, 4), 2.0, 1.0, layer="sketch")
    assert read_tiled(path).level.layers[0].opacity == 0.5
    (image,) = read_tiled(path, level_dir=str(tmp_path)).level.objects
    assert image.path == "art/sketch.png"


def test_templates_and_external_tilesets_are_resolved(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "tiles.tsx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tileset name="tiles" tilewidth="16" tileheight="16" tilecount="2" '
        'columns="2"><image source="tiles.png" width="32" height="16"/><tile id="1"><objectgroup>'
        '<object id="1" x="0" y="0" width="16" height="16"/></objectgroup></tile></tileset>')
    (tmp_path / "sprites.tsj").write_text(json.dumps(
        {"type": "tileset", "name": "sprites", "tilewidth": 64, "tileheight": 32, "tilecount": 1, "columns": 1,
         "objectalignment": "center"}))
    (tmp_path / "templates" / "door.tx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<template><object name="door" type="door" width="8" height="48">'
        '<properties><property name="locked" type="bool" value="true"/><property name="key" value="red"/>'
        '</properties></object></template>')
    (tmp_path / "templates" / "lamp.tj").write_text(json.dumps(
        {"type": "template", "tileset": {"firstgid": 1, "source": "../sprites.tsj"},
         "object": {"name": "lamp", "gid": 1, "width": 64, "height": 32}}))
    (tmp_path / "map.tmx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="orthogonal" width="2" height="1" '
        'tilewidth="16" tileheight="16"><tileset firstgid="1" source="tiles.tsx"/>'
        '<layer id="1" name="Floor" width="2" height="1"><data encoding="csv">2,1</data></layer>'
        '<objectgroup id="2" name="Things">'
        '<object id="3" template="templates/door.tx" x="40" y="0"><properties>'
        '<property name="key" value="blue"/></properties></object>'
        '<object id="4" template="templates/door.tx" name="back door" x="80" y="0" width="10"/>'
        '<object id="5" template="templates/lamp.tj" x="100" y="100"/>'
        '</objectgroup></map>')
    result = read_tiled(tmp_path / "map.tmx")
    objs = by_id(result.level)
    floor = objs["Floor"]
    assert (tuple(floor.origin), floor.tiles, floor.tileset) == ((0, 0), ((1, 0),), "tiles")
    assert floor.collision_shapes() == (Rect(Vec2(0, 0), Vec2(16, 16)),)  # tile 1 collides, tile 0 not
    assert result.level.tileset("tiles").image == "tiles.png"
    assert objs["door"] == Box("door", (40, 0), (8, 48), layer="things", type="door",
                               properties={"locked": True, "key": "blue"})
    assert objs["back door"].size == (10, 48) and objs["back door"].properties == {"locked": True, "key": "red"}
    # the template's tile is in the template's own tileset, which aligns tile objects at their centre
    assert objs["lamp"] == Sprite("lamp", (100, 100), (64, 32), tileset="sprites", tile=0, layer="things")


def test_missing_templates_and_tilesets_are_notes_not_failures(tmp_path):
    data = tmj([{"type": "tilelayer", "name": "Floor", "width": 1, "height": 1, "data": [1]},
                group([{"id": 1, "template": "nowhere.tx", "x": 0, "y": 0},
                       {"id": 2, "name": "crate", "x": 0, "y": 0, "width": 4, "height": 4}])],
               [{"firstgid": 1, "source": "gone.tsx"}])
    result = read(data, tmp_path)
    assert [o.id for o in result.level.objects] == ["crate"]
    assert result.notes[:4] == ("tileset gone.tsx is missing: its tiles count as not solid",
                                "layer Floor: 1 tiles have ids that no tileset holds; left out",
                                "template nowhere.tx is missing",
                                "object (unnamed) (id 1): its template nowhere.tx cannot be read; left out")


def test_a_missing_file_with_a_gzip_beside_it_is_read_from_there(tmp_path):
    """Debian ships Tiled's examples gzip-packed (objs.tsx.gz) while the maps name objs.tsx."""
    (tmp_path / "t.tsx.gz").write_bytes(gzip.compress(
        b'<tileset name="t" tilewidth="16" tileheight="16"><tile id="0"><properties>'
        b'<property name="solid" type="bool" value="true"/></properties></tile></tileset>'))
    data = tmj([{"type": "tilelayer", "name": "Floor", "width": 1, "height": 1, "data": [1]}],
               [{"firstgid": 1, "source": "t.tsx"}])
    result = read(data, tmp_path)
    assert result.notes == ("no object of type player_spawn: the player starts at 64, 64",)
    grid = result.level.objects[0]
    assert grid.tiles == ((0,),) and grid.collision_shapes() == (Rect(Vec2(0, 0), Vec2(16, 16)),)


def test_the_player_spawn_object_is_the_player():
    result = read(tmj([group([
        {"id": 1, "name": "hero", "type": "player_spawn", "x": 80, "y": 40, "point": True,
         "properties": [{"name": "shape", "type": "string", "value": "box"},
                        {"name": "box_width", "type": "float", "value": 20},
                        {"name": "box_height", "type": "int", "value": 30},
                        {"name": "speed", "type": "float", "value": 300},
                        {"name": "lives", "type": "int", "value": 3}]},
        {"id": 2, "name": "second", "type": "player_spawn", "x": 0, "y": 0, "point": True},
    ])]))
    p = result.level.player
    assert (tuple(p.spawn), p.shape, tuple(p.size), p.speed) == ((80, 40), "box", (20, 30), 300)
    assert result.notes == ("object hero (id 1): property lives is left out (the player has no custom properties)",)
    assert [o.id for o in result.level.objects] == ["second"]


def test_object_references_resolve_to_ids_and_other_property_types_to_text():
    result = read(tmj([group([
        {"id": 1, "name": "lever", "x": 0, "y": 0, "point": True},
        {"id": 2, "name": "gate", "x": 0, "y": 0, "width": 8, "height": 8,
         "properties": [{"name": "opened_by", "type": "object", "value": 1},
                        {"name": "nothing", "type": "object", "value": 0},
                        {"name": "gone", "type": "object", "value": 99},
                        {"name": "tint", "type": "color", "value": "#ff00ff00"},
                        {"name": "script", "type": "file", "value": "open.lua"},
                        {"name": "body", "type": "class", "value": {"mass": 3}}]},
    ])], properties=[{"name": "first", "type": "object", "value": 2}]))
    gate = by_id(result.level)["gate"]
    assert gate.properties == {"opened_by": Ref("lever"), "nothing": Ref(""), "gone": Ref(""),
                               "tint": "#ff00ff00", "script": "open.lua"}
    assert result.level.properties == {"first": Ref("gate")}
    assert result.notes[:2] == (
        "object gate (id 2): property gone refers to object 99, which is not in the level: it refers to nothing now",
        "object gate (id 2): property body is a class value; left out")


def test_names_become_unique_ids():
    result = read(tmj([group([
        {"id": 1, "name": "guard", "x": 0, "y": 0, "point": True},
        {"id": 2, "name": "guard", "x": 1, "y": 0, "point": True},
        {"id": 3, "name": "", "x": 2, "y": 0, "point": True},
        {"id": 4, "name": "", "x": 0, "y": 0, "width": 2, "height": 2},
    ])]))
    assert [o.id for o in result.level.objects] == ["guard", "guard-2", "point-1", "box-1"]
    assert "object guard (id 2): another object is already called guard; its id is guard-2" in result.notes


def test_types_of_a_foreign_map_are_listed_with_a_default_colour():
    result = read(tmj([group([{"id": 1, "name": "a", "type": "enemy", "x": 0, "y": 0, "point": True},
                              {"id": 2, "name": "b", "class": "npc", "x": 0, "y": 0, "point": True}])]))
    assert [(t.name, t.color) for t in result.level.types] == [("enemy", "#a0a0a0"), ("npc", "#a0a0a0")]
    assert by_id(result.level)["b"].type == "npc"  # Tiled 1.9 and newer call it class


def test_the_level_is_named_after_the_map_and_its_grid_is_the_tile_size(tmp_path):
    result = read(tmj([], tilewidth=24, tileheight=24), tmp_path, "cellar.tmj")
    assert (result.level.name, result.level.grid) == ("cellar", 24)
    assert [lay.id for lay in result.level.layers] == ["main"]


def _spawn_errors(level) -> list[str]:
    from level_editor.core.checks.validation import validate_level

    return [str(p) for p in validate_level(level) if p.is_error]


def test_a_map_without_a_spawn_whose_default_spot_is_in_a_box_starts_the_player_on_a_free_spot(tmp_path):
    data = tmj([group([{"id": 4, "name": "box-4", "x": 32, "y": 32, "width": 96, "height": 64},
                       {"id": 5, "name": "wall", "x": 0, "y": 140, "polyline": [{"x": 0, "y": 0}, {"x": 300, "y": 0}],
                        "properties": [{"name": "thickness", "type": "float", "value": 8}]}])], width=20, height=12)
    result = read(data)
    spawn = result.level.player.spawn
    assert result.notes == (f"no object of type player_spawn: the player starts at {spawn.x:g}, {spawn.y:g}, a free "
                            f"spot near 64, 64, where it would overlap box-4",)
    assert _spawn_errors(result.level) == []  # the level exports and play-tests
    assert read(data).level.player.spawn == spawn  # the same map, the same spot
    assert abs(spawn.x - 64) + abs(spawn.y - 64) <= 96  # near the default spot, inside the map
    assert 0 <= spawn.x <= 320 and 0 <= spawn.y <= 192
    out = tmp_path / "m.json"
    from level_editor.core.cli import main

    (tmp_path / "m.tmj").write_text(json.dumps(data))
    assert main(["import", str(tmp_path / "m.tmj"), "-o", str(out)]) == 0
    assert main(["export", str(out), "-o", str(tmp_path / "again.tmx")]) == 0


def test_a_map_filled_with_solid_tiles_but_one_corner_starts_the_player_there():
    cells = [1] * (10 * 10)
    for col, row in ((8, 8), (9, 8), (8, 9), (9, 9)):
        cells[row * 10 + col] = 0
    data = tmj([{"type": "tilelayer", "name": "Rock", "width": 10, "height": 10, "data": cells,
                 "properties": [{"name": "solid", "type": "bool", "value": True}]}],
               [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "tilecount": 1, "columns": 1,
                 "image": "t.png", "imagewidth": 16, "imageheight": 16}], width=10, height=10)
    result = read(data)
    spawn = result.level.player.spawn
    assert 128 + 12 < spawn.x <= 160 - 12 and 128 + 12 < spawn.y <= 160 - 12  # in the free corner, on the map
    assert _spawn_errors(result.level) == []
    assert result.notes[-1].startswith(f"no object of type player_spawn: the player starts at {spawn.x:g}, {spawn.y:g}")


def test_without_a_player_spawn_an_object_called_player_or_hero_gives_the_spot():
    """A map of someone else's names its player its own way: the first object named or typed player or hero
    (any case) gives the spawn, at its middle; a note says so. A real player_spawn still wins."""
    hero = {"id": 3, "name": "Hero", "type": "", "x": 20, "y": 10, "point": True}
    crate = {"id": 4, "name": "crate", "type": "hero_helper", "x": 0, "y": 0, "width": 4, "height": 4}
    result = read(tmj([group([crate, hero])], width=40, height=30))
    assert result.level.player.spawn == (20, 10)
    assert result.notes == ("no object of type player_spawn; object Hero stands in for it: the player starts "
                            "at 20, 10",)
    # a rectangle is a solid box here: the player starts beside it, and the note says where and why
    typed = {"id": 3, "name": "knight", "type": "player", "x": 100, "y": 10, "width": 8, "height": 12}
    result = read(tmj([group([typed])], width=40, height=30))
    spot = result.level.player.spawn
    assert spot != (104, 16) and abs(spot.x - 104) <= 48 and abs(spot.y - 16) <= 48
    assert result.notes[0].startswith("no object of type player_spawn; object knight (type player) stands in for "
                                      f"it: the player starts at {spot.x:g}, {spot.y:g}, a free spot near 104, 16")
    spawn = {"id": 5, "name": "start", "type": "player_spawn", "x": 200, "y": 50, "point": True}
    result = read(tmj([group([hero, spawn])], width=40, height=30))
    assert result.level.player.spawn == (200, 50) and result.notes == ()
