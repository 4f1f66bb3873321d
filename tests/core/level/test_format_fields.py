"""The one description of each kind (core/level/format/fields.py) drives the reader and the writer.

A field a later version adds (``one_way``, as in format version 3) is one line of the description: the checking
reader words its refusals, msgspec checks it as it decodes, and both writers write it, with no other change.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import ClassVar, Mapping

import msgspec
import pytest

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level import model
from level_editor.core.level.file_format import LevelFileError, loads_level, parse_level
from level_editor.core.level.format import read
from level_editor.core.level.format.fields import (
    EXTENT, FLAG, KINDS, POSITION, Field, Kind, check_against_the_model,
)
from level_editor.core.level.format.read import Reader, object_builder, read_object, struct_types
from level_editor.core.level.format.text import NumberTexts, dumps_json
from level_editor.core.level.format.write import dict_writer, line_writer


@dataclass(frozen=True, slots=True)
class Ledge:
    """A box a platformer player lands on from above (version 3's ``one_way``), for this test only."""

    id: str
    origin: Vec2
    size: Vec2
    extra: Mapping = field(default_factory=dict)
    layer: str = "main"
    type: str = ""
    properties: Mapping = field(default_factory=dict)
    solid: bool = True
    one_way: bool = False  # the new field

    kind: ClassVar[str] = "ledge"


LEDGE = Kind("ledge", Ledge, (
    Field("origin", POSITION, "its minimum corner [x, y]", Vec2(0.0, 0.0)),
    Field("size", EXTENT, "[width, height]", Vec2(1.0, 1.0)),
    Field("one_way", FLAG, default=False, omit_default=True),  # <- the one line
))
KINDS_WITH_LEDGE = {**KINDS, "ledge": LEDGE}


@pytest.fixture
def trusted_ledge(monkeypatch):
    monkeypatch.setitem(model.TRUSTED_MAKERS, Ledge, model._maker(Ledge))


def _read_checked(raw: dict):
    problems = []
    obj, _ = read_object(0, raw, Reader(problems), KINDS_WITH_LEDGE)
    return obj, [str(p) for p in problems]


def test_a_new_field_is_read_checked_and_written_from_its_one_line(trusted_ledge):
    to_dict = dict_writer(KINDS_WITH_LEDGE)
    to_line = line_writer(KINDS_WITH_LEDGE, to_dict)
    structs = struct_types(KINDS_WITH_LEDGE)
    build = object_builder(KINDS_WITH_LEDGE, structs)
    for one_way in (True, False):
        ledge = Ledge("ledge-1", Vec2(0.0, 64.0), Vec2(96.0, 8.0), one_way=one_way)
        line = to_line(ledge, NumberTexts())
        assert line == dumps_json(to_dict(ledge))  # both writers, the same text
        assert ('"one_way": true' in line) == one_way  # written only when it is not its default
        raw = json.loads(line)
        assert _read_checked(raw) == (ledge, [])  # the checking reader
        assert build(msgspec.json.decode(line.encode(), type=structs["ledge"])) == ledge  # msgspec's decoder
        assert build(msgspec.convert(raw, structs["ledge"])) == ledge  # msgspec's check of a dict


def test_a_new_field_s_refusal_is_worded_by_the_one_reader(trusted_ledge):
    raw = {"id": "ledge-1", "kind": "ledge", "layer": "main", "origin": [0, 64], "size": [96, 8], "one_way": "yes"}
    obj, problems = _read_checked(raw)
    assert problems == ["ledge-1: one_way must be true or false, not text"]
    with pytest.raises(msgspec.ValidationError):  # the fast path leaves it to the reader, which says the above
        msgspec.convert(raw, struct_types(KINDS_WITH_LEDGE)["ledge"])


def test_a_model_field_the_file_does_not_describe_is_an_error_at_import():
    without = Kind("ledge", Ledge, LEDGE.fields[:2])
    with pytest.raises(TypeError, match="one_way"):
        check_against_the_model({"ledge": without})
    check_against_the_model(KINDS_WITH_LEDGE)


def test_msgspec_checks_the_kinds_whose_every_value_it_can_check():
    # tiles hold values only the checking reader reads (rows of cells, painted rows); a sprite's check across its
    # fields (one picture) is an expression the fast path tests too
    assert sorted(read.STRUCTS) == ["box", "circle", "image", "oriented_box", "point", "sprite", "wall"]
    for kind, struct in read.STRUCTS.items():
        names = set(struct.__struct_fields__)
        assert names == {"id", "layer", "type"} | {f.name for f in KINDS[kind].fields} | (
            {"solid"} if KINDS[kind].solid else set())


# --- one rule per field on every path ------------------------------------------------------------------------------


def _level(obj: dict) -> dict:
    return {"format": "level-editor.level", "version": 2, "layers": [{"id": "main", "name": "Main"}],
            "player": {"spawn": [0, 0], "radius": 8}, "objects": [obj]}


def _every_path(data: dict, monkeypatch) -> list:
    text = json.dumps(data, allow_nan=True)
    out = []
    for source in (text.encode(), text, data, None):
        if source is None:
            monkeypatch.setattr(read, "_msgspec", None)
            source = text
        try:
            level = parse_level(source) if isinstance(source, dict) else loads_level(source)
            out.append(repr(level.objects))
        except LevelFileError as e:
            out.append([str(p) for p in e.problems])
    monkeypatch.undo()
    return out


@pytest.mark.parametrize("rotation", [30, 1e8, -1e300, 1.7976931348623157e308])
@pytest.mark.parametrize("custom", [False, True], ids=["plain", "with properties"])
def test_a_rotation_is_any_finite_number_on_every_path(rotation, custom, monkeypatch):
    """Until issue 22 the checking reader alone held rotations to 1e7 (an object with properties or custom data
    was refused where a plain one loaded); the JSON Schema and msgspec's types say any finite number."""
    obox = {"id": "o", "kind": "oriented_box", "layer": "main", "center": [0, 0], "half_extents": [4, 2],
            "rotation": rotation}
    if custom:
        obox["properties"] = {"speed": 2}
    answers = _every_path(_level(obox), monkeypatch)
    assert answers == [answers[0]] * 4 and isinstance(answers[0], str), answers
    assert f"rotation={float(rotation)!r}" in answers[0]


SPRITE = {"id": "s", "kind": "sprite", "layer": "main", "center": [10, 20], "size": [32, 16]}
TILESET = {"id": "t", "name": "T", "image": "t.png", "image_size": [64, 32], "tile_size": [32, 32], "columns": 2,
           "count": 2}


@pytest.mark.parametrize("fields", [
    {"picture": "hero.png"}, {"tileset": "t", "tile": 1}, {"tileset": "t"},
    {"picture": "hero.png", "rotation": 30, "flip_x": True, "flip_y": False, "opacity": 0.25, "solid": True},
    {"picture": ""}, {"picture": "   "}, {"tileset": "", "picture": "a.png"}, {"tileset": "t", "picture": "a.png"},
    {}, {"picture": "a.png", "opacity": 2}, {"picture": "a.png", "opacity": -0.1}, {"tileset": "t", "tile": -1},
    {"tileset": "t", "tile": 1.0}, {"tileset": "t", "tile": True}, {"tileset": "t", "tile": 2**40},
    {"picture": 7}, {"picture": "a.png", "solid": "yes"}, {"picture": "a.png", "size": [0, 16]},
], ids=lambda f: json.dumps(f))
def test_a_sprite_reads_the_same_on_every_path(fields, monkeypatch):
    """Sprites take msgspec's fast path (issue 25): every value and the one-picture rule give the same level, or
    the same problems, on msgspec's path and on the checking reader's."""
    data = dict(_level(dict(SPRITE, **fields)), version=3, tilesets=[TILESET])
    answers = _every_path(data, monkeypatch)
    assert answers == [answers[0]] * 4, answers


@pytest.mark.parametrize("fields", [{}, {"path": ""}, {"path": " "}, {"opacity": 1.5}, {"scale": 0}])
def test_an_image_reads_the_same_on_every_path(fields, monkeypatch):
    image = dict({"id": "i", "kind": "image", "layer": "main", "path": "ref.png", "origin": [0, 0]}, **fields)
    answers = _every_path(_level(image), monkeypatch)
    assert answers == [answers[0]] * 4, answers


@pytest.mark.parametrize("token, shown", [("NaN", "nan"), ("Infinity", "inf"), ("-Infinity", "-inf")])
def test_a_rotation_that_is_not_finite_is_refused_on_every_path(token, shown, monkeypatch):
    obox = {"id": "o", "kind": "oriented_box", "layer": "main", "center": [0, 0], "half_extents": [4, 2],
            "rotation": float(shown)}
    answers = _every_path(_level(obox), monkeypatch)
    assert answers == [[f"o: rotation must be a finite number, not {shown}"]] * 4


def test_the_shipped_json_schema_names_each_kind_s_fields_as_the_description_does():
    """The JSON Schema in the package is written by hand for people and other tools; it says what the description says."""
    from level_editor.core.level.schema import level_schema

    defs = level_schema()["$defs"]
    for name, kind in KINDS.items():
        schema = defs["point_marker" if name == "point" else name]  # "point" is the schema's [x, y]
        assert set(schema["properties"]) - {"solid", "kind"} == {f.name for f in kind.fields}, name
        assert set(schema.get("required", ())) - {"kind"} == {f.name for f in kind.fields if f.missing}, name
