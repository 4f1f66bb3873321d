"""The level as a game reads it: objects in file order, merged properties, references, types, shapes, read-only."""
from __future__ import annotations

import json

import pytest

from level_editor.core.level.model import Ref as ModelRef
from level_editor.core.level.reading import LevelFileError
from level_editor.core.runtime import GameObject, LevelError, Ref, load_level, loads_level
from tests.core.runtime.helpers import ROOT, SAMPLE_LEVELS

GAME_CONTENT = ROOT / "levels" / "game_content.json"


@pytest.fixture(scope="module")
def level():
    return load_level(GAME_CONTENT)


@pytest.mark.parametrize("path", SAMPLE_LEVELS, ids=[p.stem for p in SAMPLE_LEVELS])
def test_objects_are_the_files_in_file_order(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    level = load_level(path)
    assert level.name == raw["name"]
    assert [(o.id, o.kind, o.layer, o.type) for o in level.objects] == [
        (o["id"], o["kind"], o["layer"], o.get("type")) for o in raw["objects"]]
    # art (a sprite) is not solid unless the file says so; markers and pictures never are
    assert [o.solid for o in level.objects] == [o.get("solid", o["kind"] != "sprite") and o["kind"] not in
                                                ("point", "image") for o in raw["objects"]]
    assert level.layers == tuple(layer["id"] for layer in raw["layers"])
    assert level.spawn == tuple(float(v) for v in raw["player"]["spawn"])


def test_properties_are_the_types_defaults_overlaid_with_the_objects_own(level):
    assert dict(level.object("goblin-1").properties) == {"health": 5, "speed": 1.5}
    assert dict(level.object("goblin-2").properties) == {"health": 3, "speed": 1.5}
    assert dict(level.object("coin-1").properties) == {"value": 10}
    assert dict(level.object("coin-2").properties) == {"value": 25}
    assert dict(level.object("healing-pool").properties) == {"heal": 1.5}  # no type: its own only
    assert dict(level.object("lever").properties) == {}
    # an integer stays an integer, a float a float, a boolean a boolean
    health = level.object("goblin-1").properties["health"]
    assert type(health) is int and type(level.object("goblin-1").properties["speed"]) is float
    assert level.object("patrol").properties["loop"] is True
    assert dict(level.properties) == {"music": "courtyard.ogg", "time_limit": 90, "night": False, "gravity": 0.0}


def test_references_name_objects(level):
    opened_by = level.object("gate").properties["opened_by"]
    assert opened_by == Ref("lever") and isinstance(opened_by, ModelRef)
    assert level.object(opened_by.id) is level.object("lever")
    assert level.object(opened_by) is level.object("lever")  # a Ref is taken as its id
    assert level.object(level.object("patrol").properties["guard"]).id == "goblin-1"
    # the type's default, an empty reference, names nothing
    empty = loads_level(json.dumps({
        "format": "level-editor.level", "version": 2,
        "types": [{"name": "door", "color": "#3c8ce0", "properties": {"opened_by": {"ref": ""}}}],
        "layers": [{"id": "main", "name": "Main", "visible": True, "locked": False}],
        "player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60},
        "objects": [{"id": "d", "kind": "box", "layer": "main", "type": "door", "origin": [9, 9], "size": [4, 4]}]}))
    assert empty.object("d").properties["opened_by"] == Ref("")
    with pytest.raises(KeyError, match="no object with id ''"):
        empty.object(empty.object("d").properties["opened_by"])


def test_objects_of_type_in_file_order(level):
    assert [o.id for o in level.objects_of_type("enemy")] == ["goblin-1", "goblin-2"]
    assert [o.id for o in level.objects_of_type("pickup")] == ["coin-1", "coin-2"]
    assert level.objects_of_type("dragon") == ()
    assert level.objects_of_type("") == ()  # objects without a type are not of type ""
    assert level.object("lever").type is None


def test_an_unknown_id_is_a_key_error_naming_it(level):
    with pytest.raises(KeyError) as e:
        level.object("dragon-1")
    assert "'dragon-1'" in str(e.value) and "Courtyard" in str(e.value)
    with pytest.raises(KeyError, match="no object with id 7"):
        level.object(7)


def test_shapes_are_the_models_fields(level):
    raw = {o["id"]: o for o in json.loads(GAME_CONTENT.read_text(encoding="utf-8"))["objects"]}
    crate, ramp, fountain = level.object("crate"), level.object("ramp"), level.object("fountain")
    assert (crate.origin, crate.size) == (tuple(raw["crate"]["origin"]), tuple(raw["crate"]["size"]))
    assert crate.bounds == (96.0, 200.0, 160.0, 232.0)
    assert (ramp.center, ramp.half_extents, ramp.rotation) == ((480, 320), (48, 12), 30)
    assert len(ramp.corners()) == 4
    assert (fountain.center, fountain.radius) == ((520, 120), 20)
    courtyard = level.object("courtyard")
    assert courtyard.points == tuple(tuple(p) for p in raw["courtyard"]["points"])
    assert (courtyard.thickness, courtyard.closed) == (8, True)
    ledge = level.object("ledge")
    assert (ledge.origin, ledge.cell, ledge.cells) == ((400, 400), 16, ("######..", "########"))
    assert (ledge.rows, ledge.columns, ledge.is_solid(5, 0), ledge.is_solid(6, 0)) == (2, 8, True, False)
    assert level.object("lever").position == (64, 320)
    backdrop = level.object("backdrop")
    assert (backdrop.path, backdrop.origin, backdrop.scale, backdrop.opacity) == ("art/courtyard.png", (0, 0), 1, 0.5)
    # only the fields of its own kind
    assert (crate.one_way, crate.path) == (False, None)  # format version 3's fields: not one-way, stays put
    with pytest.raises(AttributeError, match="a box has no 'radius' \\(it has origin, size, one_way, path\\)"):
        crate.radius
    with pytest.raises(AttributeError):
        level.object("lever").moved  # the model's editing methods are not part of the view
    assert "radius" in dir(fountain) and "origin" not in dir(fountain)


def test_colors_come_from_the_types(level):
    assert level.object("exit").color == "#40c070"
    assert level.object("goblin-1").color == "#e0503c"
    assert level.object("crate").color is None  # no type


def test_the_level_cannot_be_changed_through_the_view(level):
    gate = level.object("gate")
    with pytest.raises(AttributeError, match="read-only"):
        gate.origin = (0, 0)
    with pytest.raises(AttributeError, match="read-only"):
        gate.id = "other"
    with pytest.raises(TypeError):
        gate.properties["opened_by"] = Ref("crate")
    with pytest.raises(TypeError):
        level.properties["music"] = "silence.ogg"
    with pytest.raises(AttributeError, match="read-only"):
        level.objects = ()
    assert isinstance(level.objects, tuple) and all(isinstance(o, GameObject) for o in level.objects)
    assert level.object("gate").properties["opened_by"] == Ref("lever")


def test_drawing_order_is_by_layer_then_file_order(level):
    order = [o.id for o in level.drawing_order()]
    assert order[0] == "backdrop"  # the art layer is at the bottom
    assert order.index("gate") < order.index("goblin-1")  # walls under things
    assert order.index("goblin-1") < order.index("exit")  # file order within a layer


def test_a_version_1_file_loads(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({
        "format": "level-editor.level", "version": 1, "name": "Old",
        "player": {"spawn": [0, 0], "shape": "box", "size": [10, 20], "speed": 100},
        "objects": [{"id": "p", "kind": "circle", "center": [50, 0], "radius": 10}]}))
    level = load_level(path)
    assert [(o.id, o.kind, o.layer, o.type, o.solid) for o in level.objects] == [("p", "circle", "main", None, True)]


def check_line(path, capsys) -> str:
    """The first line `level-editor check` prints for ``path``, without its severity marker."""
    from level_editor.core.cli import main

    main(["check", str(path)])
    return capsys.readouterr().out.splitlines()[0].replace(": error: ", ": ", 1)


@pytest.mark.parametrize("content, said", [
    (None, "no such file"),
    ("{ not json", "is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 3"),
    ('{"format": "level-editor.level", "version": 9}', "unknown version 9 of format 'level-editor.level'"),
    ('{"format": "something.else", "version": 1}', "unknown format 'something.else'"),
])
def test_a_file_that_does_not_load_is_a_level_error_naming_file_and_problem(tmp_path, capsys, content, said):
    path = tmp_path / "level.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(LevelError) as e:
        load_level(path)
    message = str(e.value)
    assert message.startswith(f"{path}: -: ") and said in message and "\n" not in message
    assert message == check_line(path, capsys)
    assert isinstance(e.value, LevelFileError) and e.value.source == str(path)
    assert e.value.__cause__ is None and e.value.__suppress_context__  # no chained traceback


def test_a_level_error_with_many_problems_is_one_line_that_counts_them(tmp_path, capsys):
    path = tmp_path / "level.json"
    path.write_text(json.dumps({
        "format": "level-editor.level", "version": 1,
        "player": {"spawn": [0, 0], "shape": "circle", "radius": -1, "speed": 60},
        "objects": [{"id": "a\nb", "kind": "box", "origin": [0, 0], "size": [0, 5]},
                    {"id": "c", "kind": "box", "origin": [0, 0], "size": [5, -5]}]}))
    with pytest.raises(LevelError) as e:
        load_level(path)
    assert len(e.value.problems) == 3
    assert str(e.value) == check_line(path, capsys) + " (and 2 more problems)"
    assert "\n" not in str(e.value)
    a_b = [p for p in e.value.problems if p.object_id == "a\nb"]
    assert a_b and "a\\nb" in str(LevelError(str(path), a_b))  # a line break in an id stays on one line


def test_loads_level_names_its_source():
    with pytest.raises(LevelError, match="^packed/level1.json: -: is not valid JSON"):
        loads_level("[", "packed/level1.json")
