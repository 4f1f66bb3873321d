"""Format version 2: layers, types, custom properties, solid flags, tile grids, markers and images.

The contract's example (shared/CONTRACT.md section 1) loads; every version-2 problem of section 2 is reported
naming its object; version-1 files migrate with nothing lost; the sample saves byte for byte unchanged.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from level_editor.core.level.file_format import LevelFileError, dumps_level, load_level, parse_level
from level_editor.core.level.migrations import CURRENT_VERSION, migrate
from level_editor.core.level.model import DEFAULT_LAYER, Box, Image, Layer, ObjectType, Point, Ref, Tiles, Wall

ROOT = Path(__file__).resolve().parents[3]

CONTRACT_EXAMPLE = {
    "format": "level-editor.level",
    "version": 2,
    "name": "Demo",
    "grid": 16,
    "properties": {"music": "theme.ogg", "time_limit": 90, "night": False},
    "types": [
        {"name": "enemy", "color": "#e0503c", "properties": {"health": 3, "speed": 1.5}},
        {"name": "door", "color": "#3c8ce0", "properties": {"opened_by": {"ref": ""}}},
    ],
    "layers": [
        {"id": "art", "name": "Art", "visible": True, "locked": True},
        {"id": "walls", "name": "Walls", "visible": True, "locked": False},
        {"id": "things", "name": "Things", "visible": True, "locked": False},
    ],
    "player": {"spawn": [64, 64], "shape": "circle", "radius": 12, "speed": 240},
    "objects": [
        {"id": "backdrop", "kind": "image", "layer": "art", "path": "art/demo.png", "origin": [0, 0], "scale": 1,
         "opacity": 0.5},
        {"id": "wall-1", "kind": "wall", "layer": "walls", "points": [[0, 0], [320, 0], [320, 240]], "thickness": 8,
         "closed": False},
        {"id": "box-1", "kind": "box", "layer": "walls", "origin": [100, 100], "size": [64, 32]},
        {"id": "tiles-1", "kind": "tiles", "layer": "walls", "origin": [0, 256], "cell": 16,
         "cells": ["##....##", "########"]},
        {"id": "goblin-1", "kind": "point", "layer": "things", "type": "enemy", "position": [200, 80],
         "properties": {"health": 5}},
        {"id": "lever", "kind": "point", "layer": "things", "position": [40, 200]},
        {"id": "gate", "kind": "box", "layer": "walls", "type": "door", "origin": [240, 96], "size": [8, 48],
         "properties": {"opened_by": {"ref": "lever"}}},
        {"id": "exit", "kind": "box", "layer": "things", "type": "exit_zone", "solid": False,
         "origin": [280, 200], "size": [32, 32]},
    ],
    "hulls": {},
}


def example(**changes):
    d = copy.deepcopy(CONTRACT_EXAMPLE)
    d.update(changes)
    return d


def with_object(object_id, **changes):
    d = copy.deepcopy(CONTRACT_EXAMPLE)
    next(o for o in d["objects"] if o["id"] == object_id).update(changes)
    return d


def problems_of(data) -> list[str]:
    with pytest.raises(LevelFileError) as e:
        parse_level(data, "t.json")
    return [str(p) for p in e.value.problems]


def test_the_contract_example_loads_into_the_model():
    level = parse_level(CONTRACT_EXAMPLE)
    assert level.layers == (Layer("art", "Art", True, True), Layer("walls", "Walls"), Layer("things", "Things"))
    assert level.types[0] == ObjectType("enemy", "#e0503c", {"health": 3, "speed": 1.5})
    assert level.types[1].properties == {"opened_by": Ref("")}
    assert level.properties == {"music": "theme.ogg", "time_limit": 90, "night": False}
    backdrop, wall, box, tiles, goblin, lever, gate, exit_ = level.objects
    assert backdrop == Image("backdrop", "art/demo.png", (0, 0), 1, 0.5, layer="art")
    assert wall.layer == "walls" and isinstance(wall, Wall)
    assert tiles == Tiles("tiles-1", (0, 256), 16, ("##....##", "########"), layer="walls")
    assert goblin == Point("goblin-1", (200, 80), layer="things", type="enemy", properties={"health": 5})
    assert gate.properties == {"opened_by": Ref("lever")}
    assert exit_ == Box("exit", (280, 200), (32, 32), layer="things", type="exit_zone", solid=False)
    assert not exit_.solid and box.solid and not goblin.solid and not backdrop.solid


def test_an_integer_stays_an_integer_and_a_float_a_float():
    level = parse_level(example(properties={"lives": 3, "ratio": 3.0, "big": 2**53 + 1}))
    assert type(level.properties["lives"]) is int and type(level.properties["ratio"]) is float
    text = dumps_level(level)
    assert '"lives": 3,' in text and '"ratio": 3.0' in text and str(2**53 + 1) in text
    again = json.loads(text)["properties"]
    assert again == {"lives": 3, "ratio": 3.0, "big": 2**53 + 1} and type(again["ratio"]) is float


def test_properties_of_overlay_the_type_defaults_with_the_object_s_own():
    level = parse_level(CONTRACT_EXAMPLE)
    goblin = level.object_by_id("goblin-1")
    assert level.properties_of(goblin) == {"health": 5, "speed": 1.5}
    assert level.properties_of(level.object_by_id("gate")) == {"opened_by": Ref("lever")}
    assert level.properties_of(level.object_by_id("lever")) == {}


def test_the_file_stores_only_an_object_s_own_properties():
    saved = json.loads(dumps_level(parse_level(CONTRACT_EXAMPLE)))
    goblin = next(o for o in saved["objects"] if o["id"] == "goblin-1")
    assert goblin["properties"] == {"health": 5}
    assert saved["objects"] == CONTRACT_EXAMPLE["objects"]
    assert {k: saved[k] for k in ("properties", "types", "layers")} == \
        {k: CONTRACT_EXAMPLE[k] for k in ("properties", "types", "layers")}


def test_the_version_2_sample_uses_every_feature_and_saves_byte_for_byte_unchanged():
    path = ROOT / "levels" / "game_content.json"
    level = load_level(path)
    kinds = {o.kind for o in level.objects}
    assert kinds == {"wall", "box", "oriented_box", "circle", "tiles", "point", "image"}
    assert len(level.layers) >= 3 and any(layer.locked for layer in level.layers)
    assert level.types and level.properties
    assert any(not o.solid and o.kind in ("wall", "box", "circle") for o in level.objects)
    assert any(isinstance(v, Ref) and v.id for o in level.objects for v in o.properties.values())
    text = path.read_text(encoding="utf-8")
    assert dumps_level(level, json.loads(text)["hulls"]) == text


# --- version 1 ------------------------------------------------------------------------------------------------


def test_a_version_1_file_opens_on_one_layer_and_saves_as_the_current_version_with_nothing_lost():
    v1 = {"format": "level-editor.level", "version": 1, "name": "Old", "grid": 8, "game": {"deep": [1, [2]]},
          "player": {"spawn": [0, 0], "radius": 4, "team": "red"},
          "objects": [{"id": "b", "kind": "box", "origin": [10, 10], "size": [4, 4], "loot": {"gold": 3}},
                      {"id": "w", "kind": "wall", "points": [[0, 0], [9, 0]], "thickness": 2}]}
    level = parse_level(copy.deepcopy(v1))
    assert [layer.id for layer in level.layers] == [DEFAULT_LAYER]
    assert all(o.layer == DEFAULT_LAYER for o in level.objects)
    saved = json.loads(dumps_level(level))
    assert saved["version"] == CURRENT_VERSION and saved["game"] == {"deep": [1, [2]]} and saved["player"]["team"] == "red"
    assert saved["objects"][0]["loot"] == {"gold": 3} and saved["objects"][0]["layer"] == DEFAULT_LAYER
    assert parse_level(saved) == level


def test_a_version_1_sample_from_before_the_change_opens_unchanged_but_for_its_layer():
    old = json.loads((ROOT / "tests" / "core" / "level" / "v1" / "showcase.json").read_text())
    level = parse_level(old)
    saved = json.loads(dumps_level(level, old["hulls"]))
    for before, after in zip(old["objects"], saved["objects"]):
        assert after == {**before, "layer": DEFAULT_LAYER}
    assert saved["player"] == old["player"] and saved["hulls"] == old["hulls"]


def test_custom_data_nested_far_too_deep_migrates_then_is_refused_with_its_key():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    v1 = {"format": "level-editor.level", "version": 1, "player": {"spawn": [0, 0], "radius": 4},
          "objects": [], "nested": deep}
    assert migrate(v1)["nested"] is deep  # no copy, so no recursion
    with pytest.raises(LevelFileError) as e:
        parse_level(v1)
    assert [str(p) for p in e.value.problems] == [
        "-: custom data 'nested' is nested deeper than 200 levels (the most a level file may nest)"]


# --- what check must report (section 2), each naming its object -------------------------------------------------


@pytest.mark.parametrize("data, expected", [
    (with_object("box-1", layer="nowhere"), "box-1: layer 'nowhere' does not exist"),
    (with_object("box-1", layer=3), "box-1: layer must be non-empty text"),
    (example(layers=CONTRACT_EXAMPLE["layers"] + [{"id": "art", "name": "Again"}]),
     "layer art: duplicate layer id"),
    (example(layers=[]), "-: 'layers' must be a list of at least one layer"),
    (example(types=CONTRACT_EXAMPLE["types"] + [{"name": "enemy", "color": "#000000"}]),
     "type enemy: duplicate type name"),
    (example(types=[{"name": "enemy", "color": "red"}]), 'type enemy: color must be "#rrggbb"'),
    (with_object("tiles-1", cells=["##....##", "####"]), "tiles-1: cells row 2 has 4 cells, row 1 has 8"),
    (with_object("tiles-1", cells=["##..x.##"]), "tiles-1: cells row 1 has 'x' at column 5"),
    (with_object("tiles-1", cell=0), "tiles-1: cell must be greater than 0"),
    (with_object("goblin-1", properties={"loot": [1, 2]}), "goblin-1: property 'loot' must be text, a number"),
    (with_object("goblin-1", properties={"boss": None}), "goblin-1: property 'boss' must be text"),
    (with_object("goblin-1", properties={"x": {"ref": 5}}), "goblin-1: property 'x' must be text"),
    (with_object("goblin-1", properties={"": 1}), "goblin-1: properties: a property name must not be empty"),
    (example(properties={"music": {"file": "a.ogg"}}), "-: property 'music' must be text"),
    (with_object("backdrop", opacity=2), "backdrop: opacity must be between 0 and 1"),
    (with_object("backdrop", scale=0), "backdrop: scale must be greater than 0"),
    (with_object("exit", solid="no"), "exit: solid must be true or false"),
    (with_object("goblin-1", type=7), "goblin-1: type must be text"),
])
def test_each_version_2_problem_names_its_object(data, expected):
    assert any(m.startswith(expected) for m in problems_of(data)), problems_of(data)


def test_an_object_without_a_layer_is_a_problem_in_version_2():
    d = copy.deepcopy(CONTRACT_EXAMPLE)
    del d["objects"][2]["layer"]
    assert any(m.startswith("box-1: missing 'layer'") for m in problems_of(d))


def test_a_missing_picture_still_loads():
    level = parse_level(with_object("backdrop", path="art/not-there.png"))
    assert level.object_by_id("backdrop").path == "art/not-there.png"
