"""Format version 3 through Tiled: one-way floors (a bool property ``one_way`` a game reads), moving objects' paths
(kept in the bookkeeping) and the platformer player (its controller and settings as properties) come back as they
were; settings typed in Tiled are checked as the level file checks them."""
from __future__ import annotations

import json

import pytest

from level_editor.core.interop.tiled_export import dumps_tmj, level_to_tiled
from level_editor.core.interop.tiled_import import tiled_to_level
from level_editor.core.interop.tmx import dumps_tmx, parse_xml, tmx_map
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Tiles, Wall
from level_editor.core.level.motion import MovePath
from tests.core.interop.helpers import assert_same_level


def objects(layers):
    """Every object of the map's object layers, group layers' too."""
    for layer in layers:
        yield from layer.get("objects", ())
        yield from objects(layer.get("layers", ()))


def through(level: Level, fmt: str):
    data = level_to_tiled(level, "m").data
    parsed = tmx_map(parse_xml(dumps_tmx(data).encode("utf-8"), "m.tmx")) if fmt == "tmx" else \
        json.loads(dumps_tmj(data))
    return data, tiled_to_level(parsed, "m")


LIFT = MovePath(((0, 0), (0, -160.5)), 60)
LOOP = MovePath(((0, 0), (40, 0), (40, 40)), 33.25, "loop")
V3 = Level(
    player=Player(spawn=(10, -300), shape="box", size=(20, 30), controller="platformer", jump_height=96.5,
                  acceleration=2400, air_control=0.25, floor_max_angle=50),
    objects=(
        Box("ledge", (0, 0), (96, 8), one_way=True),
        Box("lift", (200, 0), (96, 16), path=LIFT),
        OrientedBox("ramp", (400, 0), (48, 4), -30, one_way=True, path=LOOP),
        Wall("slanted", [(500, 0), (600, -40)], 6, one_way=True),
        Pillar("saw", (700, 0), 12, path=LOOP),
        Tiles("floor", (0, 64), 16, ("####", "####"), one_way=True, path=LIFT),
    ),
)


@pytest.mark.parametrize("fmt", ["tmj", "tmx"])
def test_one_way_floors_paths_and_the_platformer_come_back(fmt):
    data, result = through(V3, fmt)
    assert result.notes == ()
    assert result.level == V3
    assert_same_level(result.level, V3)
    player = next(o for o in objects(data["layers"]) if o["type"] == "player_spawn")
    props = {p["name"]: p["value"] for p in player["properties"]}
    assert props["controller"] == "platformer" and props["jump_height"] == 96.5 and "deceleration" not in props
    ledge = next(o for o in objects(data["layers"]) if o["name"] == "ledge")
    assert {"name": "one_way", "type": "bool", "value": True} in ledge["properties"]


@pytest.mark.parametrize("fmt", ["tmj", "tmx"])
def test_a_top_down_player_keeps_its_platformer_settings_for_later(fmt):
    level = Level(player=Player(spawn=(0, 0), jump_height=120, coyote_time=0.2))
    _, result = through(level, fmt)
    assert result.notes == () and result.level.player == level.player


def test_settings_typed_in_tiled_are_checked_as_the_file_checks_them():
    data = level_to_tiled(V3, "m").data
    player = next(o for o in objects(data["layers"]) if o["type"] == "player_spawn")
    for p in player["properties"]:
        if p["name"] == "jump_time":
            p["value"] = 0
        if p["name"] == "controller":
            p["value"] = "flying"
    result = tiled_to_level(json.loads(dumps_tmj(data)), "m")
    assert result.level.player.jump_time == 0.4 and result.level.player.controller == "top_down"
    assert any("jump_time must be more than 0 (it is 0)" in n for n in result.notes)
    assert any("controller" in n and "flying" in n for n in result.notes)
