"""Loading and saving level files: round trips, every class of bad input, atomic saves."""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from level_editor.core.level.atomic import LevelSaveError, write_text_atomic
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Point, Ref, Wall
from level_editor.core.level.file_format import (
    FORMAT,
    LevelFileError,
    dumps_level,
    level_to_dict,
    load_level,
    loads_level,
    object_to_dict,
    parse_level,
    player_to_dict as player_dict,
    save_level,
)

LEVELS = sorted(Path(__file__).resolve().parents[3].joinpath("levels").glob("*.json"))

GOOD = {
    "format": "level-editor.level",
    "version": 1,
    "name": "Demo",
    "grid": 16,
    "player": {"spawn": [64, 64], "shape": "circle", "radius": 12, "speed": 240},
    "objects": [
        {"id": "wall-1", "kind": "wall", "points": [[0, 0], [320, 0], [320, 240]], "thickness": 8, "closed": False},
        {"id": "box-1", "kind": "box", "origin": [100, 100], "size": [64, 32]},
        {"id": "obox-1", "kind": "oriented_box", "center": [200, 150], "half_extents": [40, 10], "rotation": 30},
        {"id": "pillar-1", "kind": "circle", "center": [260, 60], "radius": 16},
    ],
    "hulls": {},
}


def doc(**changes):
    d = copy.deepcopy(GOOD)
    d.update(changes)
    return d


def with_object(index, **changes):
    d = copy.deepcopy(GOOD)
    d["objects"][index].update(changes)
    return d


def problems_of(data) -> list[str]:
    with pytest.raises(LevelFileError) as e:
        parse_level(data, "t.json")
    return [str(p) for p in e.value.problems]


# --- good input -------------------------------------------------------------


def test_contract_example_loads_into_the_model():
    level = parse_level(GOOD)
    assert level.name == "Demo" and level.grid == 16
    assert level.player == Player(spawn=(64, 64), shape="circle", radius=12, speed=240)
    wall, box, obox, pillar = level.objects
    assert wall == Wall("wall-1", [(0, 0), (320, 0), (320, 240)], 8, False)
    assert box == Box("box-1", (100, 100), (64, 32))
    assert obox == OrientedBox("obox-1", (200, 150), (40, 10), 30)
    assert pillar == Pillar("pillar-1", (260, 60), 16)


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_every_sample_level_round_trips_unchanged(path, tmp_path):
    level = load_level(path)
    out = tmp_path / "again.json"
    save_level(level, out, hulls={})
    assert load_level(out) == level
    original = json.loads(path.read_text())
    again = json.loads(out.read_text())
    original.pop("hulls"), again.pop("hulls")
    assert again == original


def test_there_are_at_least_three_sample_levels():
    names = {p.stem for p in LEVELS}
    assert {"room_with_door", "maze", "showcase"} <= names


def test_unknown_keys_survive_a_round_trip():
    data = doc(game={"music": "a.ogg", "nested": [1, {"x": None}]}, author="ann")
    data["objects"][1]["tag"] = "lava"
    data["objects"][0]["material"] = {"friction": 0.2}
    data["player"]["skin"] = "blue"
    level = parse_level(data)
    again = json.loads(dumps_level(level))
    assert again["game"] == data["game"] and again["author"] == "ann"
    assert again["objects"][1]["tag"] == "lava"
    assert again["objects"][0]["material"] == {"friction": 0.2}
    assert again["player"]["skin"] == "blue"
    assert parse_level(again) == level


def test_box_player_loads_and_saves_its_size():
    data = doc(player={"spawn": [10, 20], "shape": "box", "size": [24, 32], "speed": 200})
    level = parse_level(data)
    assert level.player.shape == "box" and level.player.size == (24, 32)
    assert level_to_dict(level)["player"] == data["player"]


def test_hulls_in_a_file_are_ignored_on_load():
    a = parse_level(doc(hulls={"box-1": {"aabb": [0, 0, 1, 1]}}))
    b = parse_level(doc(hulls={}))
    assert a == b


def test_utf8_bom_and_unicode_ids_load(tmp_path):
    data = with_object(1, id="kiste-ü-箱")
    p = tmp_path / "u.json"
    p.write_bytes(b"\xef\xbb\xbf" + json.dumps(data, ensure_ascii=False).encode())
    assert load_level(p).objects[1].id == "kiste-ü-箱"


# --- bad input: one test per class named in the contract --------------------


def test_malformed_json_reports_line_and_column():
    text = '{\n  "format": "level-editor.level",\n  "version": 1,\n  oops\n}'
    with pytest.raises(LevelFileError) as e:
        loads_level(text, "bad.json")
    assert e.value.unreadable
    assert "line 4, column 3" in str(e.value)


def test_unknown_format_is_refused_naming_format_and_version():
    msgs = problems_of(doc(format="tiled.map", version=3))
    assert len(msgs) == 1 and "'tiled.map'" in msgs[0] and "3" in msgs[0]


def test_unknown_version_is_refused_naming_both():
    msgs = problems_of(doc(version=99))
    assert len(msgs) == 1 and "99" in msgs[0] and FORMAT in msgs[0]


def test_missing_format_is_refused():
    data = doc()
    del data["format"]
    assert "unknown format None" in problems_of(data)[0]


def test_non_object_document_is_refused():
    assert "JSON object" in problems_of([1, 2, 3])[0]


@pytest.mark.parametrize("field,value,expected", [
    ("points", None, "wall-1: missing 'points'"),
    ("thickness", "thick", "wall-1: thickness must be a number, not text"),
    ("closed", "yes", "wall-1: closed must be true or false"),
    ("points", [[0, 0], [1, "a"]], "wall-1: points[1][1] must be a number"),
    ("points", [[0, 0], [1, 2, 3]], "wall-1: points[1] must be a pair of numbers"),
])
def test_missing_or_wrong_typed_wall_fields(field, value, expected):
    data = copy.deepcopy(GOOD)
    if value is None:
        del data["objects"][0][field]
    else:
        data["objects"][0][field] = value
    assert any(m.startswith(expected) for m in problems_of(data)), problems_of(data)


def test_missing_fields_of_each_kind_are_named():
    data = copy.deepcopy(GOOD)
    del data["objects"][1]["size"]
    del data["objects"][2]["half_extents"]
    del data["objects"][3]["radius"]
    msgs = problems_of(data)
    assert any(m.startswith("box-1: missing 'size'") for m in msgs)
    assert any(m.startswith("obox-1: missing 'half_extents'") for m in msgs)
    assert any(m.startswith("pillar-1: missing 'radius'") for m in msgs)


def test_booleans_are_not_numbers():
    assert problems_of(with_object(3, radius=True)) == ["pillar-1: radius must be a number, not true/false"]


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_are_errors(token):
    text = json.dumps(GOOD).replace('"radius": 16', f'"radius": {token}')
    with pytest.raises(LevelFileError) as e:
        loads_level(text)
    assert [str(p) for p in e.value.problems] == [
        f"pillar-1: radius must be a finite number, not {float(token.replace('Infinity', 'inf'))}"
    ]


@pytest.mark.parametrize("index,field,value", [
    (0, "thickness", 0), (0, "thickness", -8), (1, "size", [64, 0]), (1, "size", [-1, 5]),
    (2, "half_extents", [0, 10]), (3, "radius", -16), (3, "radius", 0),
])
def test_non_positive_sizes_radii_and_thickness(index, field, value):
    msgs = problems_of(with_object(index, **{field: value}))
    assert len(msgs) == 1 and "must be greater than 0" in msgs[0]
    assert msgs[0].startswith(GOOD["objects"][index]["id"] + ": " + field)


def test_player_problems_name_the_player():
    msgs = problems_of(doc(player={"spawn": [0, "x"], "shape": "triangle", "speed": -1}))
    assert "player: spawn[1] must be a number, not text" in msgs
    assert any(m.startswith("player: shape must be") and "triangle" in m for m in msgs)
    assert "player: speed must be greater than 0 (it is -1)" in msgs


def test_wall_with_fewer_than_two_nodes():
    assert "wall-1: a wall needs at least 2 nodes, this one has 1" in problems_of(with_object(0, points=[[0, 0]]))


def test_duplicate_ids():
    msgs = problems_of(with_object(2, id="box-1"))
    assert msgs == ["box-1: duplicate id: another object is already called 'box-1'"]


def test_unknown_kind():
    msgs = problems_of(with_object(1, kind="triangle"))
    assert len(msgs) == 1 and msgs[0].startswith('box-1: unknown kind "triangle"')


def test_missing_id_names_the_object_by_position():
    data = copy.deepcopy(GOOD)
    del data["objects"][1]["id"]
    assert problems_of(data) == ["objects[1]: missing 'id' (every object needs a unique text id)"]


def test_every_problem_is_reported_at_once():
    data = copy.deepcopy(GOOD)
    data["objects"][0]["thickness"] = -1
    data["objects"][1]["size"] = "big"
    data["objects"][3]["radius"] = float("nan")
    data["player"]["speed"] = "fast"
    msgs = problems_of(data)
    assert len(msgs) == 4


def test_unreadable_paths(tmp_path):
    with pytest.raises(LevelFileError) as e:
        load_level(tmp_path / "missing.json")
    assert e.value.unreadable and "no such file" in str(e.value)
    with pytest.raises(LevelFileError) as e:
        load_level(tmp_path)
    assert e.value.unreadable and "folder" in str(e.value)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(LevelFileError) as e:
        load_level(binary)
    assert e.value.unreadable and "UTF-8" in str(e.value)


# --- saving ----------------------------------------------------------------


def test_save_writes_finite_json_that_loads_back(tmp_path):
    level = parse_level(GOOD)
    p = tmp_path / "out.json"
    save_level(level, p, hulls={})
    assert load_level(p) == level
    assert not [f for f in os.listdir(tmp_path) if f != "out.json"], "no temporary file is left behind"


def test_failed_save_mid_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    p = tmp_path / "level.json"
    save_level(parse_level(GOOD), p, hulls={})
    before = p.read_bytes()

    real_write = os.write

    def half_then_full(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full)
    bigger = parse_level(GOOD).with_objects([Box(f"b{i}", (i, 0), (1, 1)) for i in range(50)])
    with pytest.raises(LevelSaveError) as e:
        save_level(bigger, p, hulls={})
    assert "No space left on device" in str(e.value) and str(p) in str(e.value)
    assert (e.value.reason, e.value.errno) == ("no-space", 28)
    assert p.read_bytes() == before
    assert os.listdir(tmp_path) == ["level.json"], "the temporary file is cleaned up"


def test_failed_replace_leaves_the_old_file_whole(tmp_path, monkeypatch):
    p = tmp_path / "level.json"
    save_level(parse_level(GOOD), p, hulls={})
    before = p.read_bytes()

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(LevelSaveError):
        save_level(Level(), p, hulls={})
    assert p.read_bytes() == before
    assert os.listdir(tmp_path) == ["level.json"]


def test_save_into_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(LevelSaveError) as e:
        write_text_atomic(tmp_path / "nope" / "x.json", "{}")
    assert "could not save" in str(e.value)


def test_save_writes_the_hulls_it_is_given(tmp_path):
    p = tmp_path / "h.json"
    save_level(parse_level(GOOD), p, hulls={"level": {"aabb": [0, 0, 1, 1]}})
    assert json.loads(p.read_text())["hulls"] == {"level": {"aabb": [0, 0, 1, 1]}}


def test_save_without_hulls_writes_none(tmp_path):
    """The file format computes nothing: hulls come from level_editor.core.checks (shapely), a layer above."""
    p = tmp_path / "h.json"
    save_level(parse_level(GOOD), p)
    assert json.loads(p.read_text())["hulls"] == {}


def test_whole_numbers_are_written_without_a_fraction():
    text = dumps_level(parse_level(GOOD))
    assert '"spawn": [64, 64]' in text and '"rotation": 30' in text


# --- numbers and text that Python's json reads but a level file cannot hold ---


@pytest.mark.parametrize("value", [10**400, -(10**309)])
def test_integers_too_large_for_a_float_are_a_clear_problem(value):
    text = json.dumps(GOOD).replace('"radius": 16', f'"radius": {value}')
    with pytest.raises(LevelFileError) as e:
        loads_level(text)
    [problem] = e.value.problems
    assert str(problem).startswith("pillar-1: radius must be a finite number")
    assert "too large" in str(problem)


def test_a_number_with_thousands_of_digits_is_a_clear_problem():
    text = json.dumps(GOOD).replace('"grid": 16', '"grid": ' + "9" * 5000)
    with pytest.raises(LevelFileError) as e:
        loads_level(text)
    [problem] = e.value.problems
    assert str(problem).startswith("-: grid must be a finite number")


@pytest.mark.parametrize("where,expected", [
    ("top", "-: custom data 'game' holds a number that is not finite (NaN)"),
    ("player", "player: custom data 'skin' holds a number that is not finite (Infinity)"),
    ("object", "box-1: custom data 'tag' holds a number that is not finite (-Infinity)"),
])
def test_non_finite_numbers_in_custom_data_are_refused_on_load(where, expected):
    data = copy.deepcopy(GOOD)
    if where == "top":
        data["game"] = {"scores": [1, float("nan")]}
    elif where == "player":
        data["player"]["skin"] = float("inf")
    else:
        data["objects"][1]["tag"] = {"deep": [[float("-inf")]]}
    with pytest.raises(LevelFileError) as e:
        loads_level(json.dumps(data))
    assert [str(p) for p in e.value.problems] == [expected]


def test_lone_surrogates_in_text_save_and_load_back(tmp_path):
    # "\ud800" is valid JSON that no UTF-8 file can hold as a character; it is written escaped.
    data = doc(name="half \ud800 pair", game={"\udc00key": "\udfff"})
    data["objects"][1]["id"] = "box-\ud83d"
    level = parse_level(data)
    p = tmp_path / "s.json"
    save_level(level, p, hulls={})
    assert load_level(p) == level
    assert json.loads(p.read_text(encoding="utf-8"))["game"] == {"\udc00key": "\udfff"}


def test_text_outside_ascii_is_written_as_itself():
    text = dumps_level(parse_level(doc(name="Kiste ü 箱 \U0001F600")))
    assert '"name": "Kiste ü 箱 \U0001F600"' in text


def test_an_object_without_an_id_is_not_also_a_duplicate():
    data = copy.deepcopy(GOOD)
    del data["objects"][1]["id"]
    data["objects"][2]["id"] = "objects[1]"
    assert problems_of(data) == ["objects[1]: missing 'id' (every object needs a unique text id)"]


def test_saving_through_a_symbolic_link_writes_the_file_it_points_to(tmp_path):
    real = tmp_path / "real.json"
    save_level(parse_level(GOOD), real, hulls={})
    link = tmp_path / "link.json"
    link.symlink_to(real)
    save_level(parse_level(doc(name="Changed")), link, hulls={})
    assert link.is_symlink()
    assert load_level(real).name == "Changed"


def test_saving_to_a_named_pipe_writes_into_it_and_keeps_the_pipe(tmp_path):
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()), daemon=True)
    reader.start()
    save_level(parse_level(GOOD), pipe, hulls={})
    reader.join(10)
    assert json.loads(got[0])["name"] == "Demo"
    assert pipe.is_fifo()


def test_a_whole_version_written_as_a_float_is_that_version():
    # JSON has one number type: 1.0 is 1 (the shipped JSON Schema agrees); 1.5 is no version.
    assert parse_level(doc(version=1.0)) == parse_level(GOOD)
    msgs = problems_of(doc(version=1.5))
    assert len(msgs) == 1 and "1.5" in msgs[0] and FORMAT in msgs[0]
    assert "True" in problems_of(doc(version=True))[0]


def test_the_player_shape_not_in_use_keeps_its_value_through_a_round_trip():
    data = doc(player={"spawn": [10, 20], "shape": "circle", "radius": 9, "size": [30, 40], "speed": 200})
    level = parse_level(data)
    assert level.player.radius == 9 and level.player.size == (30, 40)
    assert level_to_dict(level)["player"] == data["player"]
    # Switching to a box (as the inspector does) starts from the file's size.
    from dataclasses import replace
    boxed = replace(level.player, shape="box")
    assert boxed.body_at(boxed.spawn).size == (30, 40)
    assert player_dict(boxed) == {"spawn": [10, 20], "shape": "box", "size": [30, 40], "radius": 9, "speed": 200}


def test_default_values_of_the_shape_not_in_use_are_not_written():
    level = parse_level(doc())
    assert set(level_to_dict(level)["player"]) == {"spawn", "shape", "radius", "speed"}


def test_a_bad_value_for_the_shape_not_in_use_is_still_an_error():
    msgs = problems_of(doc(player={"spawn": [0, 0], "shape": "circle", "radius": 5, "size": [0, 3]}))
    assert msgs == ["player: size[0] must be greater than 0 (it is 0)"]


# --- the fast reader and writer (issue 15) -------------------------------------------------------------------------


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_the_fast_path_reads_every_object_as_the_checking_path_does(path, monkeypatch):
    from level_editor.core.level.format import read
    from level_editor.core.level.generate import generate_level

    texts = [path.read_text(encoding="utf-8"), dumps_level(generate_level(400, seed=3))]
    decoded = [loads_level(t.encode()) for t in texts]  # msgspec decodes the objects, in batches
    converted = [loads_level(t) for t in texts]  # the standard library decodes, msgspec checks each object
    monkeypatch.setattr(read, "_msgspec", None)  # the checking reader alone
    checked = [loads_level(t) for t in texts]
    assert decoded == converted == checked
    for fast in (decoded, converted):
        assert [[type(o) for o in lv.objects] for lv in fast] == [[type(o) for o in lv.objects] for lv in checked]
        for a, b in zip(fast, checked):
            for x, y in zip(a.objects, b.objects):
                assert repr(x) == repr(y)  # floats stay floats, -0.0 stays -0.0


def test_plain_objects_never_reach_the_checking_reader(monkeypatch):
    """msgspec takes every plain object (as bytes are decoded, and as a dict): the checking reader reads the rest."""
    from level_editor.core.level.format import read
    from level_editor.core.level.generate import generate_level

    checked = []
    real = read.read_object
    monkeypatch.setattr(read, "read_object", lambda index, raw, r: checked.append(raw) or real(index, raw, r))
    level = generate_level(400, seed=3)
    text = dumps_level(level)
    assert loads_level(text.encode()) == loads_level(text) == level
    assert checked == []
    unusual = dict(json.loads(text), objects=[object_to_dict(o) for o in level.objects[:3]] + [
        {"id": "t", "kind": "tiles", "layer": "main", "origin": [0, 0], "cell": 8, "cells": ["#"]}])
    unusual["objects"][1]["properties"] = {"health": 3}
    loads_level(json.dumps(unusual))
    assert [o["id"] for o in checked] == [level.objects[1].id, "t"]


@pytest.mark.parametrize("extra", [{"tag": "lava", "deep": [1, {"x": None}]}, {"type": "enemy"}, {"origin": [5, 5]},
                                   {"solid": False, "mine": 1}, {1: "one"}, {"properties": {"a": 1}}])
@pytest.mark.parametrize("properties", [{}, {"health": 3, "door": Ref("gate")}])
def test_each_object_s_line_is_its_dict_on_one_line_whatever_its_custom_data(extra, properties):
    from level_editor.core.level.format.text import NumberTexts, dumps_json
    from level_editor.core.level.format.write import object_line

    for obj in (Box("b", (0.5, 1), (2, 3), extra=extra, properties=properties),
                Point("p", (0, 0), extra=extra, properties=properties)):
        assert object_line(obj, NumberTexts()) == dumps_json(object_to_dict(obj))


def test_hulls_are_one_object_per_line_and_the_rest_stays_as_it_was():
    level = parse_level(GOOD)
    hulls = {o.id: {"aabb": [0.5, 1.0, 2.0, 3.25]} for o in level.objects}
    hulls["level"] = {"aabb": [0.0, 0.0, 1.0, 1.0]}
    text = dumps_level(level, hulls)
    lines = text.splitlines()
    start = lines.index('  "hulls": {')
    assert lines[start + 1:-2] == [f'    "{o.id}": {{"aabb":[0.5,1.0,2.0,3.25]}},' for o in level.objects] + [
        '    "level": {"aabb":[0.0,0.0,1.0,1.0]}']
    assert lines[-2:] == ["  }", "}"]
    assert json.loads(text)["hulls"] == hulls
    assert dumps_level(level, {}).splitlines()[-2] == '  "hulls": {}'


def test_malformed_hulls_are_still_malformed_json_with_line_and_column():
    text = dumps_level(parse_level(GOOD), {"level": {"aabb": [0, 0, 1, 1]}}).replace('"aabb":[0,0,1,1]', '"aabb":[0,0,')
    with pytest.raises(LevelFileError) as e:
        loads_level(text)
    assert e.value.unreadable and "is not valid JSON" in str(e.value) and "at line" in str(e.value)


def test_numbers_are_written_as_the_shortest_decimal_that_reads_back_the_same():
    level = parse_level(GOOD).with_objects([Box("b", (0.1 + 0.2, 64.0), (1e-6, 1 / 3)), Box("c", (-0.0, 2.5), (1, 1))])
    text = dumps_level(level)
    assert '"origin": [0.30000000000000004, 64], "size": [1e-06, 0.3333333333333333]' in text
    assert loads_level(text) == level


def test_a_save_of_custom_data_python_cannot_write_is_a_save_error_not_a_traceback(tmp_path):
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    level = parse_level(GOOD).with_objects([Box("b", (0, 0), (1, 1), extra={"mine": deep})])
    with pytest.raises(LevelSaveError) as e:
        save_level(level, tmp_path / "x.json")
    assert str(e.value) == f"could not save {tmp_path / 'x.json'}: custom data is nested deeper than 200 levels; " \
                           f"it cannot be written"
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize("oid, layer, ok", [(" box", "main", True), ("box", "main", True), ("  ", "main", False),
                                            ("box", " ", False), ("", "main", False), ("\u3000x", "main", True)])
def test_each_reading_path_agrees_on_blank_ids_and_layers(oid, layer, ok, monkeypatch):
    from level_editor.core.level.format import read

    data = copy.deepcopy(GOOD)
    data["version"] = 2  # the objects of the current version are the ones msgspec checks as it reads
    data["layers"] = [{"id": layer, "name": "L"}] if layer.strip() else [{"id": "main", "name": "L"}]
    data["objects"] = [{"id": oid, "kind": "box", "layer": layer, "origin": [0, 0], "size": [1, 2]}]
    text = json.dumps(data)
    answers = []
    for source in (text.encode(), text, None):  # msgspec's decoder, msgspec's check of a dict, the checking reader
        if source is None:
            monkeypatch.setattr(read, "_msgspec", None)
            source = text
        try:
            answers.append(loads_level(source))
        except LevelFileError as e:
            answers.append([str(p) for p in e.problems])
    assert answers[0] == answers[1] == answers[2]
    assert isinstance(answers[0], Level) == ok


def test_a_long_object_list_is_read_in_batches_with_the_same_objects_and_the_same_errors(monkeypatch):
    """msgspec reads a long list a few objects per call (the editor's window answers between), to the same end."""
    from level_editor.core.level.format import read
    from level_editor.core.level.generate import generate_level

    text = dumps_level(generate_level(400, seed=5)).encode()  # bytes: read by msgspec
    whole = loads_level(text)
    calls = []
    real = read._OBJECTS_DECODER

    class Counting:
        def decode(self, raw):
            calls.append(1)
            return real.decode(raw)

    monkeypatch.setattr(read, "_OBJECTS_DECODER", Counting())
    monkeypatch.setattr(read, "DECODE_BATCH", 7)
    monkeypatch.setattr(read, "DECODE_BATCH_BYTES", 100)
    batched = loads_level(text)
    assert batched == whole and [repr(o) for o in batched.objects] == [repr(o) for o in whole.objects]
    assert len(calls) > 400 // 7  # the objects went in batches
    # an object msgspec refuses in a late batch: the checking reader says what is wrong with it, as without batches
    bad = json.loads(text)
    late = max(i for i, o in enumerate(bad["objects"]) if o["kind"] == "box")
    bad["objects"][late]["size"] = "wide"
    with pytest.raises(LevelFileError) as batched_error:
        loads_level(json.dumps(bad).encode())
    monkeypatch.setattr(read, "DECODE_BATCH_BYTES", 1 << 40)
    with pytest.raises(LevelFileError) as whole_error:
        loads_level(json.dumps(bad).encode())
    assert [str(p) for p in batched_error.value.problems] == [str(p) for p in whole_error.value.problems]
    assert late > 7 and bad["objects"][late]["id"] in str(batched_error.value.problems[0])
