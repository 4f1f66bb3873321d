"""The Tiled export: each object as the Tiled object that draws the same shape, typed properties, references,
layers, tile grids, pictures and the player, in TMJ and TMX."""
from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
import zlib

import pytest
import shapely

from level_editor.core.interop.map_text import BLOCK_CHARS
from level_editor.core.interop.png import PNG_SIGNATURE, png_size, png_tiles
from level_editor.core.interop.tiled_common import BOOKKEEPING, TiledExportError
from level_editor.core.interop.tiled_export import dumps_tmj, level_to_tiled, tiled_format, tmj_blocks, write_tiled
from level_editor.core.interop.tmx import dumps_tmx, tmx_blocks
from level_editor.core.level.file_format import load_level
from level_editor.core.level.generate import generate_level
from level_editor.core.level.model import (
    Box,
    Image,
    Layer,
    Level,
    ObjectType,
    OrientedBox,
    Pillar,
    Player,
    Point,
    Ref,
    Tiles,
    Wall,
)

from tests.core.interop.helpers import ROOT


def objects_of(data: dict) -> dict:
    """Every map object by name, through group layers."""
    out = {}

    def walk(layers):
        for layer in layers:
            if layer["type"] == "group":
                walk(layer["layers"])
            elif layer["type"] == "objectgroup":
                for obj in layer["objects"]:
                    out[obj.get("name") or f"#{obj['id']}"] = obj
    walk(data["layers"])
    return out


def layers_of(data: dict) -> dict:
    out = {}

    def walk(layers):
        for layer in layers:
            out[layer["name"]] = layer
            if layer["type"] == "group":
                walk(layer["layers"])
    walk(data["layers"])
    return out


def props(obj: dict) -> dict:
    return {p["name"]: (p["type"], p["value"]) for p in obj.get("properties", [])}


def book(obj: dict) -> dict:
    p = props(obj).get(BOOKKEEPING)
    return json.loads(p[1]) if p else {}


def test_each_kind_becomes_the_tiled_object_of_its_shape():
    level = Level(grid=16, objects=(
        Box("crate", (96, 200), (64, 32)),
        OrientedBox("ramp", (480, 320), (48, 12), 30),
        Pillar("fountain", (520, 120), 20),
        Wall("fence", [(10, 20), (110, 20), (110, 70)], 6),
        Wall("pond", [(0, 0), (40, 0), (40, 40)], 4, closed=True),
        Point("lever", (64, 320)),
    ))
    objs = objects_of(level_to_tiled(level).data)
    crate = objs["crate"]
    assert (crate["x"], crate["y"], crate["width"], crate["height"], crate["rotation"]) == (96, 200, 64, 32, 0)
    ramp = objs["ramp"]
    # Tiled turns a rectangle about its top-left corner: x, y is that corner after the turn
    r = math.radians(30)
    assert ramp["x"] == pytest.approx(480 - 48 * math.cos(r) + 12 * math.sin(r))
    assert ramp["y"] == pytest.approx(320 - 48 * math.sin(r) - 12 * math.cos(r))
    assert (ramp["width"], ramp["height"], ramp["rotation"]) == (96, 24, 30)
    fountain = objs["fountain"]
    assert fountain["ellipse"] is True and (fountain["x"], fountain["y"], fountain["width"], fountain["height"]) == (
        500, 100, 40, 40)
    fence = objs["fence"]
    # a wall is the polygon of its outline, so Tiled draws its thickness; its nodes are in the bookkeeping
    assert (fence["x"], fence["y"]) == (10, 20) and "polyline" not in fence
    assert book(fence)["nodes"] == [[0, 0], [100, 0], [100, 50]] and "closed" not in book(fence)
    assert props(fence)["thickness"] == ("float", 6.0)
    assert book(objs["pond"])["nodes"] == [[0, 0], [40, 0], [40, 40]] and book(objs["pond"])["closed"] is True
    for wall in level.objects[3:5]:
        o = objs[wall.id]
        drawn = shapely.Polygon([(o["x"] + p["x"], o["y"] + p["y"]) for p in o["polygon"]]).buffer(0)
        chain = shapely.LinearRing(wall.points) if wall.closed else shapely.LineString(wall.points)
        exact = chain.buffer(wall.thickness / 2, quad_segs=64)
        assert drawn.symmetric_difference(exact).area < 0.02 * exact.area  # the wall's area, hole and all
        assert drawn.covers(chain.buffer(wall.thickness / 2 * 0.9)) and exact.buffer(0.01).covers(drawn)
    assert objs["lever"]["point"] is True and (objs["lever"]["x"], objs["lever"]["y"]) == (64, 320)


def test_the_top_left_corner_of_a_turned_rectangle_turns_back_to_the_centre():
    """Tiled's own rule, applied by hand: the centre is the corner plus the half size turned by the rotation."""
    for rotation in (0.5, 30, 90, 135, -30, 180, 359):
        data = level_to_tiled(Level(objects=(OrientedBox("o", (100, 50), (20, 5), rotation),))).data
        o = objects_of(data)["o"]
        r = math.radians(o["rotation"])
        cx = o["x"] + o["width"] / 2 * math.cos(r) - o["height"] / 2 * math.sin(r)
        cy = o["y"] + o["width"] / 2 * math.sin(r) + o["height"] / 2 * math.cos(r)
        assert (cx, cy) == (pytest.approx(100), pytest.approx(50))


def test_ids_types_and_typed_properties_with_type_defaults_resolved():
    level = Level(
        types=(ObjectType("enemy", "#e0503c", {"health": 3, "speed": 1.5, "boss": False}),),
        properties={"music": "theme.ogg", "time_limit": 90, "night": False, "gravity": 9.81},
        objects=(Point("goblin", (1, 2), type="enemy", properties={"health": 5}),),
    )
    data = level_to_tiled(level).data
    goblin = objects_of(data)["goblin"]
    assert goblin["name"] == "goblin" and goblin["type"] == "enemy"
    assert props(goblin) == {"health": ("int", 5), "speed": ("float", 1.5), "boss": ("bool", False)}
    map_props = props(data)
    assert {k: v for k, v in map_props.items() if k != BOOKKEEPING} == {
        "music": ("string", "theme.ogg"), "time_limit": ("int", 90), "night": ("bool", False),
        "gravity": ("float", 9.81)}


def test_an_own_property_equal_to_its_types_default_is_marked_own():
    level = Level(types=(ObjectType("enemy", properties={"health": 3}),),
                  objects=(Point("a", (0, 0), type="enemy", properties={"health": 3}),
                           Point("b", (0, 0), type="enemy")))
    objs = objects_of(level_to_tiled(level).data)
    assert book(objs["a"]) == {"own": ["health"]}
    assert book(objs["b"]) == {}


def test_references_point_at_the_tiled_id_of_their_object():
    level = Level(objects=(
        Point("lever", (40, 200)),
        Box("gate", (240, 96), (8, 48), properties={"opened_by": Ref("lever"), "key": Ref("")}),
    ), properties={"first": Ref("gate")})
    data = level_to_tiled(level).data
    objs = objects_of(data)
    assert props(objs["gate"])["opened_by"] == ("object", objs["lever"]["id"])
    assert props(objs["gate"])["key"] == ("object", 0)
    assert props(data)["first"] == ("object", objs["gate"]["id"])


def test_areas_are_marked_not_solid_and_solid_objects_say_nothing():
    level = Level(objects=(Box("exit", (0, 0), (8, 8), solid=False), Box("crate", (0, 0), (8, 8)),
                           Wall("route", [(0, 0), (9, 9)], 2, solid=False)))
    objs = objects_of(level_to_tiled(level).data)
    assert props(objs["exit"])["solid"] == ("bool", False)
    assert props(objs["route"])["solid"] == ("bool", False)
    assert "solid" not in props(objs["crate"])


def test_layers_keep_order_names_visibility_and_lock():
    level = Level(layers=(Layer("art", "Art", locked=True), Layer("walls", "Walls"),
                          Layer("hidden", "Hidden", visible=False)),
                  objects=(Box("b", (0, 0), (1, 1), layer="walls"),))
    layers = level_to_tiled(level).data["layers"]
    assert [(x["name"], x["visible"], x.get("locked", False)) for x in layers] == [
        ("Art", True, True), ("Walls", True, False), ("Hidden", False, False), ("Player", True, False)]
    assert [book(x).get("layer") for x in layers[:3]] == ["art", "walls", "hidden"]


def test_the_player_is_a_point_on_a_layer_of_its_own_on_top():
    level = Level(player=Player((96, 80), "box", size=(24, 32), speed=200))
    data = level_to_tiled(level).data
    top = data["layers"][-1]
    assert book(top) == {"player": True}
    (player,) = top["objects"]
    assert (player["name"], player["type"], player["point"], player["x"], player["y"]) == (
        "player", "player_spawn", True, 96, 80)
    assert props(player) == {"shape": ("string", "box"), "box_width": ("float", 24.0),
                             "box_height": ("float", 32.0), "speed": ("float", 200.0)}


def test_a_tile_grid_is_a_tile_layer_of_a_generated_tileset_with_a_collision_tile():
    level = Level(grid=16, objects=(
        Tiles("floor", (144, 400), 16, ("##..", "####")),
        Tiles("zone", (0, 0), 16, ("#",), solid=False),
    ))
    tiled = level_to_tiled(level, "hall")
    data = tiled.data
    (ts,) = data["tilesets"]
    assert (ts["tilewidth"], ts["tileheight"], ts["tilecount"], ts["image"]) == (16, 16, 2, "hall.tiles-16.png")
    solid_tile = ts["tiles"][0]
    assert solid_tile["objectgroup"]["objects"][0]["width"] == 16  # Tiled's collision editor shows it
    assert png_size(tiled.files["hall.tiles-16.png"]) == (32, 16)
    layers = layers_of(data)
    floor = layers["floor"]
    assert floor["type"] == "tilelayer" and (floor["width"], floor["height"]) == (data["width"], data["height"])
    w = floor["width"]
    cell = {(i % w, i // w) for i, g in enumerate(floor["data"]) if g}
    assert cell == {(9, 25), (10, 25), (9, 26), (10, 26), (11, 26), (12, 26)}
    assert {g for g in floor["data"] if g} == {ts["firstgid"]}
    zone = layers["zone"]
    assert props(zone)["solid"] == ("bool", False) and {g for g in zone["data"] if g} == {ts["firstgid"] + 1}


def test_a_grid_off_the_cell_boundary_keeps_its_origin_in_the_layer_offset():
    data = level_to_tiled(Level(grid=16, objects=(Tiles("t", (20, 7), 16, ("#",)),))).data
    t = layers_of(data)["t"]
    assert (t["offsetx"], t["offsety"]) == (4, 7)
    assert t["data"].index(1) == 1  # column 1, row 0


def test_cells_a_whole_multiple_of_the_map_tile_are_bigger_tiles_anchored_bottom_left():
    data = level_to_tiled(Level(grid=16, objects=(Tiles("big", (64, 32), 32, ("#",)),))).data
    t = layers_of(data)["big"]
    w = t["width"]
    (index,) = [i for i, g in enumerate(t["data"]) if g]
    # the 32 px tile covers x 64..96, y 32..64: Tiled draws it from the bottom-left of map cell (4, 3)
    assert (index % w, index // w) == (4, 3)
    assert [ts["tilewidth"] for ts in data["tilesets"]] == [32]


def test_cells_that_are_no_whole_multiple_of_the_map_tile_become_tile_objects():
    data = level_to_tiled(Level(grid=16, objects=(Tiles("odd", (5, 5), 10, ("#.#",)),))).data
    layer = layers_of(data)["odd"]
    assert layer["type"] == "objectgroup" and book(layer)["tiles"] == "objects"
    assert [(o["x"], o["y"], o["width"], o["height"]) for o in layer["objects"]] == [(5, 15, 10, 10),
                                                                                      (25, 15, 10, 10)]
    assert all(o["gid"] for o in layer["objects"])


def test_a_reference_image_is_an_image_layer_with_its_scale_as_a_property(tmp_path):
    level = Level(objects=(Image("backdrop", "art/court.png", (10, 20), scale=2.0, opacity=0.5),))
    data = level_to_tiled(level, level_dir=str(tmp_path), map_dir=str(tmp_path / "maps")).data
    image = layers_of(data)["backdrop"]
    assert image["type"] == "imagelayer" and image["image"] == "../art/court.png"
    assert (image["offsetx"], image["offsety"], image["opacity"]) == (10, 20, 0.5)
    assert props(image)["scale"] == ("float", 2.0)


def test_a_property_named_as_what_the_export_writes_is_refused():
    for obj in (Wall("w", [(0, 0), (1, 1)], 2, properties={"thickness": 3}),
                Box("b", (0, 0), (1, 1), properties={"solid": True}),
                Image("i", "a.png", (0, 0), properties={"scale": 2}),
                Point("p", (0, 0), properties={BOOKKEEPING: "x"})):
        with pytest.raises(TiledExportError) as e:
            level_to_tiled(Level(objects=(obj,)))
        assert e.value.problems[0].startswith(f"{obj.id}: property ")


def test_an_integer_outside_32_bits_is_written_with_a_note():
    tiled = level_to_tiled(Level(properties={"seed": 2**40}))
    assert props(tiled.data)["seed"] == ("int", 2**40)
    assert tiled.notes == ("-: property 'seed' = 1099511627776 is outside Tiled's 32-bit integers: Tiled itself "
                           "will change it when it saves the map",)


def test_tmx_is_the_same_map_in_xml():
    level = load_level(ROOT / "levels" / "game_content.json")
    data = level_to_tiled(level, "game_content").data
    root = ET.fromstring(dumps_tmx(data))
    assert root.tag == "map" and root.get("orientation") == "orthogonal" and root.get("tilewidth") == "16"
    names = [o.get("name") for o in root.iter("object") if o.get("name")]
    assert sorted(names) == sorted([o.id for o in level.objects if o.kind not in ("tiles", "image")] + ["player"])
    gate = next(o for o in root.iter("object") if o.get("name") == "gate")
    assert gate.get("type") == "door"
    opened_by = gate.find("properties/property[@name='opened_by']")
    lever = next(o for o in root.iter("object") if o.get("name") == "lever")
    assert opened_by.get("type") == "object" and opened_by.get("value") == lever.get("id")
    floor = next(x for x in root.iter("layer") if x.get("name") == "floor")
    assert floor.find("data").get("encoding") == "csv"
    assert root.find("group[@name='Art']").get("locked") == "1"


def test_tmx_refuses_text_xml_cannot_carry_and_tmj_writes_it():
    level = Level(objects=(Point("bell\x07", (0, 0)),))
    with pytest.raises(TiledExportError) as e:
        dumps_tmx(level_to_tiled(level).data)
    assert "bell\x07: the name holds characters XML cannot carry" in e.value.problems[0]
    assert json.loads(dumps_tmj(level_to_tiled(level).data))["layers"][0]["objects"][0]["name"] == "bell\x07"


def test_the_bookkeeping_survives_xml_even_with_control_characters():
    level = Level(extra={"note": "line\x01"})
    text = dumps_tmx(level_to_tiled(level).data)
    root = ET.fromstring(text)
    bk = root.find(f"properties/property[@name='{BOOKKEEPING}']").get("value")
    assert json.loads(bk)["extra"] == {"note": "line\x01"}


def test_write_tiled_writes_the_map_and_its_tileset_picture(tmp_path):
    level = load_level(ROOT / "levels" / "game_content.json")
    notes = write_tiled(level, tmp_path / "court.tmx", level_dir=str(ROOT / "levels"))
    assert notes == ()
    assert (tmp_path / "court.tmx").read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<map ')
    png = (tmp_path / "court.tiles-16.png").read_bytes()
    assert png.startswith(PNG_SIGNATURE)
    image = ET.parse(tmp_path / "court.tmx").getroot().find(".//imagelayer/image")
    assert (tmp_path / image.get("source")).resolve() == (ROOT / "levels" / "art" / "courtyard.png").resolve()


def test_tiled_format_by_ending_or_by_name():
    assert tiled_format("a.tmj") == "tmj" and tiled_format("a.TMX") == "tmx"
    assert tiled_format("a.json") is None and tiled_format("a.json", "tmx") == "tmx"
    assert tiled_format("a.tmj", "level") is None


def test_png_tiles_is_a_valid_png_of_the_asked_size():
    data = png_tiles(3, [(1, 2, 3, 255), (4, 5, 6, 7)])
    assert png_size(data) == (6, 3)
    # IHDR: 8-bit RGBA; IDAT unpacks to one filter byte and 6 pixels of 4 bytes per row
    idat_len = int.from_bytes(data[33:37], "big")
    raw = zlib.decompress(data[41:41 + idat_len])
    assert len(raw) == 3 * (1 + 6 * 4)
    row = 1 + 6 * 4
    assert raw[row + 1 + 4 * 4:row + 1 + 5 * 4] == bytes((4, 5, 6, 7))  # middle row, second tile, inside its border
    assert raw[1:5] == bytes((0, 1, 1, 255))  # the top row is the border: the colour darkened
    with pytest.raises(ValueError):
        png_tiles(0, [(0, 0, 0, 0)])


def test_a_big_map_s_text_is_made_in_blocks_that_join_to_the_whole():
    # the editor writes a map on a worker thread beside its window: each step of the text is short
    data = level_to_tiled(generate_level(3000, seed=4)).data
    for blocks, whole in ((list(tmj_blocks(data)), dumps_tmj(data)), (list(tmx_blocks(data)), dumps_tmx(data))):
        assert "".join(blocks) == whole
        assert len(blocks) > len(whole) // (2 * BLOCK_CHARS)
        assert max(map(len, blocks)) < 2 * BLOCK_CHARS
