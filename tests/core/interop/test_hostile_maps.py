"""Hostile Tiled maps beyond issue 14's list: each gets a one-line refusal naming the file, or a level with a note per
object, never a traceback, never a hang. The maps are made here, none is stored."""
from __future__ import annotations

import base64
import zlib

import pytest

from level_editor.core.interop import tiled_import
from level_editor.core.interop.tiled_import import read_tiled, tiled_to_level
from level_editor.core.interop.tiled_tiles import MAX_LAYER_TILES
from level_editor.core.interop.tmx import MAX_XML_DEPTH
from tests.core.interop.helpers import refusal, write

TMX_HEAD = '<?xml version="1.0" encoding="UTF-16"?>'
SOLID_TILESET = {"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16,
                 "tiles": [{"id": 0, "properties": [{"name": "solid", "type": "bool", "value": True}]}]}



def tmj(layers=(), tilesets=(), **more) -> dict:
    return {"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "width": 2,
            "height": 2, "layers": list(layers), "tilesets": list(tilesets), **more}


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_entities_in_utf16_without_a_byte_order_mark_are_refused_too(tmp_path, encoding):
    # A search of the text for "<!ENTITY" does not see it in UTF-16 without a BOM; the parser does.
    laughs = (TMX_HEAD + '<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
              '<map orientation="orthogonal" tilewidth="16" tileheight="16"><objectgroup name="&b;"/></map>')
    xxe = (TMX_HEAD + '<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           '<map orientation="orthogonal" tilewidth="16" tileheight="16"><objectgroup name="&x;"/></map>')
    for name, text in (("laughs.tmx", laughs), ("xxe.tmx", xxe)):
        data = text.encode(encoding)
        if encoding == "utf-16-be":
            data = b"\xfe\xff" + data  # big-endian XML needs its mark to be XML at all
        assert refusal(write(tmp_path, name, data)).startswith("declares XML entities")


def _nested(tag_open: str, tag_close: str, depth: int) -> str:
    return tag_open * depth + tag_close * depth


@pytest.mark.parametrize("depth", [MAX_XML_DEPTH + 2, 100_000])
def test_group_layers_nested_without_end_in_tmx_are_refused_in_words(tmp_path, depth):
    text = ('<map orientation="orthogonal" tilewidth="16" tileheight="16">'
            + _nested('<group name="g">', "</group>", depth) + "</map>")
    assert refusal(write(tmp_path, "deep.tmx", text)) == f"group layers nested more than {MAX_XML_DEPTH} deep; refused"


def test_class_properties_nested_without_end_are_refused_in_words(tmp_path):
    text = ('<map orientation="orthogonal" tilewidth="16" tileheight="16"><properties>'
            + _nested('<property name="p" type="class"><properties>', "</properties></property>", 5000)
            + "</properties></map>")
    assert refusal(write(tmp_path, "deep.tmx", text)) == f"class properties nested more than {MAX_XML_DEPTH} deep; refused"


def test_groups_as_deep_as_the_limit_are_read(tmp_path):
    text = ('<map orientation="orthogonal" tilewidth="16" tileheight="16">'
            + _nested('<group name="g">', "</group>", 40)
            + '<objectgroup name="o"><object id="1" x="1" y="2" width="3" height="4"/></objectgroup></map>')
    # (the objects are at the top: 40 empty groups and an object layer)
    level = read_tiled(write(tmp_path, "ok.tmx", text)).level
    assert [(o.kind, tuple(o.origin)) for o in level.objects] == [("box", (1.0, 2.0))]


@pytest.mark.parametrize("tilesets, layers", [
    ([{**SOLID_TILESET, "tiles": [{"id": 0, "properties": 5, "objectgroup": [1]}]}], None),
    ([{**SOLID_TILESET, "tiles": 7}], None),
    ([{**SOLID_TILESET, "tiles": "abc", "tileoffset": [1]}], None),
    (5, None),
    ({"a": 1}, None),
])
def test_lists_that_are_not_lists_in_tilesets_leave_the_tiles_out_with_a_note(tilesets, layers):
    data = tmj([{"type": "tilelayer", "name": "floor", "width": 2, "height": 1, "data": [1, 1]}])
    data["tilesets"] = tilesets
    result = tiled_to_level(data)
    assert result.level.objects == ()
    assert any("floor" in note for note in result.notes)


def test_templates_with_properties_of_any_shape_give_the_object(tmp_path):
    write(tmp_path, "int.tj", {"type": "template", "object": {"width": 4, "height": 4, "properties": 5}})
    write(tmp_path, "names.tj", {"type": "template", "object": {"width": 4, "height": 4,
                                                                "properties": [{"name": [1], "value": 1}]}})
    path = write(tmp_path, "map.tmj", tmj([{"type": "objectgroup", "name": "o", "objects": [
        {"id": 1, "name": "a", "template": "int.tj", "x": 1, "y": 1, "properties": {"a": 1}},
        {"id": 2, "name": "b", "template": "names.tj", "x": 9, "y": 1,
         "properties": [{"name": {}, "value": 2}, {"name": "keep", "type": "int", "value": 3}]}]}]))
    level = read_tiled(path).level
    assert [(o.id, o.kind, dict(o.properties)) for o in level.objects] == [("a", "box", {}),
                                                                           ("b", "box", {"keep": 3})]


@pytest.mark.parametrize("kind", [["map"], {"a": 1}, 5])
def test_a_map_whose_type_is_not_text_is_refused_in_one_line(tmp_path, kind):
    assert refusal(write(tmp_path, "m.tmj", tmj(type=kind))).startswith("is of type ")


def test_base64_tile_data_that_is_not_text_is_refused_in_words(tmp_path):
    layer = {"type": "tilelayer", "name": "t", "width": 2, "height": 1, "encoding": "base64", "data": {"a": 1}}
    assert refusal(write(tmp_path, "m.tmj", tmj([layer]))) == "layer t: its base64 tile data is not text"


def test_a_layer_of_more_solid_tiles_than_a_level_may_have_is_refused_while_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_import, "MAX_TILE_CELLS", 99)
    packed = base64.b64encode(zlib.compress(b"\1\0\0\0" * 100)).decode()
    layer = {"type": "tilelayer", "name": "floor", "width": 10, "height": 10, "encoding": "base64",
             "compression": "zlib", "data": packed}
    assert refusal(write(tmp_path, "m.tmj", tmj([layer], [SOLID_TILESET]))) == (
        "layer floor: more than 99 tiles, the most cells a level may have; refused")
    layer["data"] = base64.b64encode(zlib.compress(b"\1\0\0\0" * 99 + b"\0" * 4)).decode()
    level = read_tiled(write(tmp_path, "ok.tmj", tmj([layer], [SOLID_TILESET]))).level
    assert sum(row.count("#") for row in level.objects[0].cells) == 99


def test_tiles_of_the_maps_size_land_in_the_same_cells_as_any_other_tile():
    # the quick way (a tile of the map's size) and the general one (a tile twice as wide) agree on where cells are
    tilesets = [{"firstgid": 1, "name": "a", "tilewidth": 16, "tileheight": 16, "tileoffset": {"x": 3, "y": -5},
                 "tiles": [{"id": 0, "properties": [{"name": "solid", "type": "bool", "value": True}]}]}]
    layer = {"type": "tilelayer", "name": "t", "width": 3, "height": 2, "offsetx": 8.5, "offsety": -40,
             "data": [1, 0, 1, 0, 1, 0]}
    grid = tiled_to_level(tmj([layer], tilesets)).level.objects[0]
    assert (grid.kind, tuple(grid.origin), grid.cell, grid.cells) == ("tiles", (8.5, -40.0), 16.0, ("#.#", ".#."))
    # the tileset's offset moves its tiles, and their collision with them
    assert [tuple(r.origin) for r in grid.collision_shapes()] == [(11.5, -45.0), (43.5, -45.0), (27.5, -29.0)]


def test_tiles_too_far_away_to_compute_with_are_left_out_with_a_note():
    tilesets = [{**SOLID_TILESET, "tiles": [{"id": 0, "imagewidth": 8, "imageheight": 8,
                                              "properties": [{"name": "solid", "type": "bool", "value": True}]}]}]
    layer = {"type": "tilelayer", "name": "far", "properties": [{"name": "solid", "type": "bool", "value": True}],
             "chunks": [{"x": 10 ** 300, "y": 0, "width": 1, "height": 1, "data": [1]}]}
    result = tiled_to_level(tmj([layer], tilesets, tilewidth=1e300))
    assert "layer far: 1 tiles lie too far away to compute with; left out" in result.notes


def test_a_property_value_a_level_cannot_hold_is_named_briefly_on_one_line():
    props = [{"name": "big", "type": "bool", "value": 10 ** 400}, {"name": "text", "type": "int", "value": "a\n" * 10 ** 5}]
    result = tiled_to_level(tmj(properties=props))
    notes = [n for n in result.notes if "property" in n]
    assert len(notes) == 2 and all(len(n) < 160 and "\n" not in n for n in notes)


def test_a_player_of_sizes_or_speeds_beyond_a_levels_limits_keeps_the_defaults_with_notes():
    spawn = {"id": 1, "name": "hero", "type": "player_spawn", "x": 1e300, "y": 5, "point": True, "properties": [
        {"name": "radius", "type": "float", "value": 1e308}, {"name": "speed", "type": "int", "value": 10 ** 30},
        {"name": "shape", "type": "string", "value": ["x"]}]}
    result = tiled_to_level(tmj([{"type": "objectgroup", "name": "o", "objects": [spawn]}]))
    player, default = result.level.player, tiled_import.Player()
    assert (player.spawn, player.radius, player.speed, player.shape) == (default.spawn, default.radius,
                                                                           default.speed, "circle")
    assert len([n for n in result.notes if n.startswith("object hero (id 1): ")]) == 4


@pytest.mark.parametrize("width, shown", [(10 ** 400, "inf"), (1e308, "1e+308"), (2 ** 40, "1.09951e+12")])
def test_a_layer_too_large_names_its_size_briefly(tmp_path, width, shown):
    layer = {"type": "tilelayer", "name": "t", "width": width, "height": 1, "data": [1]}
    assert refusal(write(tmp_path, "m.tmj", tmj([layer]))) == (
        f"layer t: {shown}x1 tiles, more than the {MAX_LAYER_TILES} a layer may have")


def test_an_empty_or_unreadable_tileset_path_is_named_once(tmp_path):
    path = write(tmp_path, "m.tmj", tmj([{"type": "tilelayer", "name": "t", "width": 1, "height": 1, "data": [1]}],
                                        [{"firstgid": 1, "source": ""}, {"firstgid": 2, "source": "/proc/self/mem"}]))
    notes = read_tiled(path).notes
    assert "tileset '' cannot be read: is a folder, not a map" in notes
    assert not any("cannot be read: cannot be read" in n for n in notes)
