"""Maps that are broken, hostile or of a kind a level cannot be: a refusal that names the file, or a note per
object, never a traceback."""
from __future__ import annotations

import base64
import gzip
import os
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from level_editor.core.interop import tiled_files
from level_editor.core.interop.tiled_common import TiledImportError
from level_editor.core.interop.tiled_import import read_tiled, tiled_to_level
from level_editor.core.interop.tiled_tiles import MAX_LAYER_TILES
from level_editor.core.level.file_format import dumps_level, loads_level



def tmj(layers=(), **more) -> dict:
    return {"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "width": 2,
            "height": 2, "layers": list(layers), "tilesets": [], **more}

from tests.core.interop.helpers import refusal, write

TMX_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'


@pytest.mark.parametrize("content, expected", [
    (b"\x00\x01 not a map", "is neither XML nor JSON, so not a Tiled map"),
    ("", "is neither XML nor JSON, so not a Tiled map"),
    ("<map><layer></map>", "is not valid XML: mismatched tag at line 1, column 15"),
    ('{"type": "map", "layers": [', "is not valid JSON: Expecting value at line 1, column 28"),
    ("[1, 2]", "is JSON but not a Tiled map (not an object)"),
    ('{"hello": 1}', "has no layers and no tile size, so it is not a Tiled map"),
    ("<svg/>", "is XML but not a Tiled map (its root element is <svg>)"),
    ('<tileset name="t" tilewidth="8" tileheight="8"/>', "is a Tiled tileset, not a map"),
    ('{"format": "level-editor.level", "version": 2}', "is a level file, not a Tiled map"),
    (b"\x1f\x8b\x08\x00garbage", "is gzip-packed but does not unpack"),
])
def test_files_that_are_not_maps_are_refused_in_one_line(tmp_path, content, expected):
    assert refusal(write(tmp_path, "bad.tmx", content)).startswith(expected)


def test_a_missing_file_or_a_folder_is_refused(tmp_path):
    assert refusal(str(tmp_path / "nowhere.tmx")) == "no such file"
    assert refusal(str(tmp_path)) == "is a folder, not a map"


@pytest.mark.parametrize("orientation", ["isometric", "staggered", "hexagonal"])
def test_other_orientations_are_refused_by_name(tmp_path, orientation):
    path = write(tmp_path, "iso.tmx", f'{TMX_HEAD}<map orientation="{orientation}" tilewidth="64" tileheight="32" '
                                      'width="1" height="1"/>')
    assert refusal(path) == f"{orientation} maps are not supported: only orthogonal maps become levels"


def test_entity_expansion_is_refused_and_a_plain_doctype_is_read(tmp_path):
    laughs = (TMX_HEAD + '<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
              '<map orientation="orthogonal" tilewidth="16" tileheight="16"><properties>'
              '<property name="x" value="&b;"/></properties></map>')
    assert refusal(write(tmp_path, "laughs.tmx", laughs)).startswith("declares XML entities")
    subset = TMX_HEAD + '<!DOCTYPE map [<!ATTLIST map x CDATA "1">]><map orientation="orthogonal"/>'
    assert refusal(write(tmp_path, "subset.tmx", subset)).startswith("has a DOCTYPE with its own declarations")
    external = TMX_HEAD + ('<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n<map orientation="orthogonal" '
                           'tilewidth="16" tileheight="16" width="1" height="1"/>')
    assert read_tiled(write(tmp_path, "old.tmx", external)).level.grid == 16


def test_not_finite_or_enormous_coordinates_leave_the_object_out_with_a_note(tmp_path):
    text = ('{"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "layers": ['
            '{"type": "objectgroup", "name": "o", "objects": ['
            '{"id": 1, "name": "nan", "x": NaN, "y": 0, "width": 1, "height": 1},'
            '{"id": 2, "name": "inf", "x": 1e999, "y": 0, "width": 1, "height": 1},'
            '{"id": 3, "name": "huge", "x": 1.7e308, "y": 0, "width": 1e308, "height": 1e308, "ellipse": true},'
            '{"id": 4, "name": "far", "x": 1e300, "y": 0, "width": 1, "height": 1},'
            '{"id": 5, "name": "ok", "x": 1e6, "y": -1e6, "width": 1, "height": 1}]}]}')
    result = read_tiled(write(tmp_path, "odd.tmj", text))
    assert [o.id for o in result.level.objects] == ["ok"]
    assert result.notes[:4] == (
        "object nan (id 1): its position, size or rotation is not a finite number; left out",
        "object inf (id 2): its position, size or rotation is not a finite number; left out",
        "object huge (id 3): its position or size is beyond a level's limits (±1e+07 px); left out",
        "object far (id 4): its position or size is beyond a level's limits (±1e+07 px); left out")
    loads_level(dumps_level(result.level))  # what it kept, a level file can hold


def test_not_finite_numbers_in_tmx_too(tmp_path):
    text = (TMX_HEAD + '<map orientation="orthogonal" tilewidth="16" tileheight="16"><objectgroup name="o">'
            '<object id="1" name="a" x="nan" y="0" width="4" height="4"/>'
            '<object id="2" name="b" x="12abc" y="0"><point/></object>'
            '<object id="3" name="c" x="0" y="0"><polygon points="0,0 5,inf 3,3"/></object>'
            '<object id="4" name="d" x="0" y="0"><properties><property name="f" type="float" value="nan"/>'
            '<property name="i" type="int" value="many"/></properties><point/></object>'
            '</objectgroup></map>')
    result = read_tiled(write(tmp_path, "odd.tmx", text))
    assert [o.id for o in result.level.objects] == ["d"] and result.level.objects[0].properties == {}
    assert len([n for n in result.notes if "left out" in n]) == 5


@pytest.mark.parametrize("layer, expected", [
    ({"data": "AAAA", "encoding": "base64", "compression": "zstd"},
     "its tile data is zstd-compressed, which Python cannot unpack"),
    ({"data": "!!!!", "encoding": "base64"}, "its base64 tile data does not decode"),
    ({"data": base64.b64encode(b"not zlib").decode(), "encoding": "base64", "compression": "zlib"},
     "its zlib tile data does not unpack"),
    ({"data": base64.b64encode(zlib.compress(b"\0" * 12)).decode(), "encoding": "base64", "compression": "zlib"},
     "its tile data holds 3 tiles, not 4"),
    ({"data": [1, 2, 3]}, "its tile data holds 3 tiles, not 4"),
    ({"data": "1,2,x,4", "encoding": "csv"}, "its CSV tile data holds something that is not a tile id"),
    ({"data": [1, 2, 3, -4]}, "its tile data holds a tile id that is not one"),
    ({"data": "AAAA", "encoding": "hex"}, "unknown tile data encoding 'hex'"),
    ({"data": "AAAA", "encoding": "base64", "compression": "lz4"}, "unknown tile data compression 'lz4'"),
])
def test_tile_data_that_does_not_decode_is_refused(tmp_path, layer, expected):
    data = tmj([{"type": "tilelayer", "name": "Ground", "width": 2, "height": 2, **layer}])
    assert refusal(write(tmp_path, "m.tmj", data)).startswith(f"layer Ground: {expected}")


def test_a_tile_layer_larger_than_the_limit_is_refused_before_it_is_read(tmp_path):
    side = int(MAX_LAYER_TILES ** 0.5) + 1
    data = tmj([{"type": "tilelayer", "name": "Huge", "width": side, "height": side,
                 "data": base64.b64encode(zlib.compress(b"\0" * 16)).decode(), "encoding": "base64",
                 "compression": "zlib"}])
    assert refusal(write(tmp_path, "m.tmj", data)) == (f"layer Huge: {side}x{side} tiles, more than the "
                                                       f"{MAX_LAYER_TILES} a layer may have")


def test_a_zlib_bomb_stops_at_the_size_the_layer_needs(tmp_path):
    bomb = base64.b64encode(zlib.compress(b"\0" * 50_000_000)).decode()  # 50 MB of zeros in 50 kB
    data = tmj([{"type": "tilelayer", "name": "Bomb", "width": 2, "height": 2, "data": bomb, "encoding": "base64",
                 "compression": "zlib"}])
    assert refusal(write(tmp_path, "m.tmj", data)) == "layer Bomb: its tile data holds more than 4 tiles"


def test_a_gzip_packed_map_that_unpacks_too_far_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_files, "MAX_UNPACKED_BYTES", 1000)
    path = write(tmp_path, "m.tmx.gz", gzip.compress(b" " * 5000 + b"<map/>"))
    assert refusal(path) == "unpacks to more than 0 MiB; refused"


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_files, "MAX_FILE_BYTES", 10)
    message = refusal(write(tmp_path, "m.tmj", tmj()))
    assert message.startswith("is ") and message.endswith(" bytes, more than the 10 bytes a map may be; refused")


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "fifo"])
def test_a_device_or_a_named_pipe_is_refused_at_once(tmp_path, special):
    if special == "fifo":
        special = str(tmp_path / "m.tmj")
        os.mkfifo(special)  # no writer: opening it for reading the usual way would wait for ever
    assert refusal(special) in ("is a device, not a map", "is a named pipe, not a map")


def test_groups_nested_without_end_are_refused(tmp_path):
    layer: dict = {"type": "objectgroup", "name": "deep", "objects": []}
    for _ in range(100):
        layer = {"type": "group", "name": "g", "layers": [layer]}
    assert refusal(write(tmp_path, "m.tmj", tmj([layer]))) == "group layers nested more than 64 deep; refused"


@pytest.mark.parametrize("layers", [{"a": 1}, "walls", 7])
def test_a_group_whose_layers_is_not_a_list_is_blamed_on_the_group_by_name(tmp_path, layers):
    group = {"type": "group", "name": "Castle", "layers": [
        {"type": "group", "name": "Keep", "layers": layers}]}
    ok = {"type": "objectgroup", "name": "Things", "objects": []}
    assert refusal(write(tmp_path, "m.tmj", tmj([ok, group]))) == "group layer Castle/Keep: 'layers' is not a list"


def test_json_nested_without_end_is_refused(tmp_path):
    assert refusal(write(tmp_path, "m.tmj", "[" * 100000 + "]" * 100000)).startswith("is not valid JSON")


def test_unknown_layers_ids_out_of_any_tileset_and_odd_entries_are_notes():
    data = tmj([{"type": "hologram", "name": "H"},
                {"type": "tilelayer", "name": "T", "width": 2, "height": 1, "data": [7, 0]},
                {"type": "imagelayer", "name": "Empty", "image": ""},
                {"type": "objectgroup", "name": "O", "objects": [
                    "not an object", {"id": 1, "name": "r", "x": 0, "y": 0, "width": 5, "height": 0},
                    {"id": 2, "name": "z", "x": 0, "y": 0, "width": 0, "height": 0},
                    {"id": 3, "name": "one", "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}]},
                    {"id": 4, "name": "e", "x": 0, "y": 0, "width": 0, "height": 0, "ellipse": True}]}])
    result = tiled_to_level(data, "m")
    assert result.notes == (
        "layer H: a layer of type 'hologram' is left out",
        "layer T: 1 tiles have ids that no tileset holds; left out",
        "layer Empty: an image layer without a picture is left out",
        "object r (id 1): a rectangle 5x0 has no area; left out",
        "object z (id 2): a rectangle of no size became a point",
        "object one (id 3): a polygon of 1 point is left out",
        "object e (id 4): an ellipse of no size is left out",
        "no object of type player_spawn: the player starts at 64, 64",
    )
    assert [o.kind for o in result.level.objects] == ["point"]


def test_a_broken_bookkeeping_property_is_a_note():
    data = tmj(properties=[{"name": "level-editor", "type": "string", "value": "{not json"}])
    assert tiled_to_level(data, "m").notes[0] == ("the map: its 'level-editor' property is not the export's "
                                                  "bookkeeping; left out")


# Anything shaped roughly like a map: every field may hold any JSON value.
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40),
                      st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                          max_leaves=12)
keys = st.sampled_from(["id", "name", "type", "x", "y", "width", "height", "rotation", "gid", "ellipse", "point",
                        "polygon", "polyline", "text", "template", "properties", "visible", "data", "encoding",
                        "compression", "chunks", "layers", "objects", "image", "offsetx", "offsety", "opacity",
                        "value"])
fuzzy_dict = st.dictionaries(keys, json_value, max_size=8)
fuzzy_object = st.fixed_dictionaries({"x": st.floats(-1e9, 1e9)}, optional={
    "id": st.integers(0, 9), "width": json_value, "height": json_value, "gid": st.integers(0, 2**32 - 1),
    "ellipse": st.booleans(), "point": st.booleans(), "polygon": json_value, "polyline": json_value,
    "properties": st.lists(st.fixed_dictionaries({"name": st.text(max_size=4), "type": st.sampled_from(
        ["int", "float", "bool", "string", "object", "color", "class", "nonsense"]), "value": json_value}),
        max_size=3),
    "rotation": json_value, "type": json_value, "name": json_value})
fuzzy_layer = st.one_of(
    fuzzy_dict.map(lambda d: {**d, "type": "tilelayer"}),
    st.lists(fuzzy_object, max_size=4).map(lambda objs: {"type": "objectgroup", "name": "o", "objects": objs}),
    fuzzy_dict.map(lambda d: {**d, "type": "imagelayer"}),
    fuzzy_dict.map(lambda d: {**d, "type": "group", "layers": []}))


@settings(max_examples=300)
@given(st.lists(fuzzy_layer, max_size=4), st.lists(fuzzy_dict, max_size=2), json_value)
def test_any_map_shaped_data_gives_a_level_or_a_refusal(layers, tilesets, properties):
    data = tmj(layers, tilesets=[{**t, "firstgid": 1} for t in tilesets], properties=properties)
    try:
        result = tiled_to_level(data, "fuzz")
    except TiledImportError as e:
        assert "\n" not in str(e)
        return
    loads_level(dumps_level(result.level))  # whatever came out is a level file that loads


def test_what_the_loader_would_refuse_is_left_out_with_a_note_so_the_level_always_opens(tmp_path):
    text = ('{"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "layers": ['
            '{"type": "objectgroup", "name": "o", "objects": ['
            '{"id": 1, "name": "speck", "x": 0, "y": 0, "width": 1e-9, "height": 1},'
            '{"id": 2, "name": "crate", "x": 5, "y": 5, "width": 16, "height": 16}]}]}')
    result = read_tiled(write(tmp_path, "tiny.tmj", text))
    assert [o.id for o in result.level.objects] == ["crate"]
    assert "object speck: size[0] is 1e-09, smaller than the smallest allowed, 1e-06; left out" in result.notes
    assert loads_level(dumps_level(result.level)) == result.level
