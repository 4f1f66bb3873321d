"""Custom properties named as pytmx's own attributes (``name``, ``type``, ``x``, ``opacity``, ``width``...): the
export keeps them under a name pytmx accepts, pytmx loads the map, and the import brings them back unchanged."""
from __future__ import annotations

import logging

import pytest

from level_editor.core.interop.tiled_export import write_tiled
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.level.loader_names import loader_reserved
from level_editor.core.level.model import Box, Image, Layer, Level, ObjectType, Pillar, Player, Point, Tiles, Wall

from tests.core.interop.helpers import assert_same_level

pytmx = pytest.importorskip("pytmx", reason="pytmx is in the test extras: pip install -e '.[test]'")
logging.getLogger("pytmx").setLevel(logging.CRITICAL)  # it warns that pygame is missing

DUNDERS = ["__init__", "__class__", "__dict__", "__len__"]


def plain_level(props=None, level_props=None) -> Level:
    """One object of every kind (a tile grid as map tiles and one as tile objects), each with ``props``."""
    p = props or {}
    return Level(
        grid=16, player=Player(spawn=(400, 400)), properties=dict(level_props or {}),
        layers=(Layer("walls", "Walls"), Layer("art", "Art")),
        types=(ObjectType("enemy", "#e0503c", dict(p)),),
        objects=(Wall("wall", ((0, 0), (64, 0)), 8, layer="walls", properties=dict(p)),
                 Box("box", (100, 100), (16, 16), layer="walls", properties=dict(p)),
                 Pillar("pillar", (200, 40), 8, layer="walls", properties=dict(p)),
                 Point("goblin", (300, 40), layer="walls", type="enemy"),
                 Tiles("grid", (0, 160), 16, ("##",), layer="art", properties=dict(p)),
                 Tiles("odd-grid", (0, 240), 10, ("#.",), layer="art", properties=dict(p)),
                 Image("picture", "art/x.png", (0, 300), layer="art", properties=dict(p))))


def pytmx_names() -> dict[str, set[str]]:
    """Every attribute name of each pytmx element of a loaded map (pytmx refuses a property named as any it
    has when it reads the properties), from pytmx itself: map, object, object layer, tile layer, image layer."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "plain.tmx"
        write_tiled(plain_level(), path)
        tiled = pytmx.TiledMap(str(path))
    layers = {type(layer).__name__: layer for layer in tiled.layers}
    obj = next(o for o in tiled.objects if o.name == "box")
    elements = {"map": tiled, "object": obj, "objectgroup": layers["TiledObjectGroup"],
                "tilelayer": layers["TiledTileLayer"], "imagelayer": layers["TiledImageLayer"]}
    return {k: {n for n in dir(e) if not n.startswith("__")} | set(DUNDERS) for k, e in elements.items()}


NAMES = pytmx_names()


def test_pytmx_loads_a_map_whose_objects_and_level_use_every_name_pytmx_keeps_and_they_come_back(tmp_path):
    every = sorted(set().union(*NAMES.values()))
    props = {name: i for i, name in enumerate(every)}
    props["name_"] = "mine"  # the name a rename would take is taken: the rename takes the next one
    level = plain_level(props, level_props=props)
    for fmt in ("tmx", "tmj"):
        out = tmp_path / f"m.{fmt}"
        assert write_tiled(level, out, level_dir=str(tmp_path)) == ()
        if fmt == "tmx":
            tiled = pytmx.TiledMap(str(out))  # it refused the whole map: "Reserved names ... are not allowed"
            box = next(o for o in tiled.objects if o.name == "box")
            assert (box.x, box.y, box.width) == (100, 100, 16)  # its attributes are its own, not the properties
            assert box.properties["name__"] == props["name"] and box.properties["name_"] == "mine"
            assert tiled.properties["width_"] == props["width"] and tiled.tilewidth == 16
        back = read_tiled(out, level_dir=str(tmp_path))
        assert back.notes == ()
        assert_same_level(back.level, level)  # every property under its own name, in its order


@pytest.mark.parametrize("element, kinds", [("object", ["wall", "box", "oriented_box", "circle", "point"]),
                                            ("objectgroup", ["tiles"]), ("tilelayer", ["tiles"]),
                                            ("imagelayer", ["image"]), ("map", ["level"])])
def test_every_name_pytmx_refuses_on_an_element_is_reserved_for_what_it_carries(element, kinds):
    """Our list against pytmx's own: a name pytmx refuses and we write as it is would be a map it cannot load."""
    refused = {n for n in NAMES[element] if n not in ("points",)}  # pytmx sets .points after reading properties
    for kind in kinds:
        assert {n for n in refused if not loader_reserved(kind, n)} == set()
    assert not loader_reserved("box", "health") and not loader_reserved("box", "count")
