"""What validation says about the objects' data: references, types, reference pictures and empty tile grids."""
from __future__ import annotations

import struct
import zlib

import pytest

from level_editor.core.checks.check import add_hulls, check_level
from level_editor.core.checks.validation import picture_problem, validate_level
from level_editor.core.level.model import Box, Image, Layer, Level, ObjectType, Player, Point, Ref, Tiles, Wall
from level_editor.core.level.problems import ERROR, LEVEL_ID, WARNING

LAYERS = (Layer("art", "Art", locked=True), Layer("walls", "Walls"), Layer("things", "Things", visible=False))

TYPES = (ObjectType("enemy", "#e0503c", {"health": 3}),
         ObjectType("door", "#3c8ce0", {"opened_by": Ref("")}))


def level(*objects, properties=None, types=TYPES):
    return Level(player=Player(spawn=(-500, -500)), objects=objects, layers=LAYERS, types=types,
                 properties=properties or {})


def found(lvl, severity=None, object_id=None, base_dir=None):
    return [p for p in validate_level(lvl, base_dir=base_dir)
            if (severity is None or p.severity == severity) and (object_id is None or p.object_id == object_id)]


def png_bytes() -> bytes:
    """The smallest thing that starts like a PNG: the signature and an IHDR chunk (1 x 1, RGBA)."""
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk


JPEG_BYTES = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"


# --------------------------------------------------------------------------- references


@pytest.mark.parametrize("layer", ["walls", "things", "art"])
def test_reference_to_an_object_that_does_not_exist_is_an_error_naming_both(layer):
    gate = Box("gate", (240, 96), (8, 48), layer=layer, type="door", properties={"opened_by": Ref("lever2")})
    lvl = level(Point("lever", (40, 200), layer="things"), gate)
    errors = found(lvl, ERROR)
    assert [str(p) for p in errors] == ["gate: property 'opened_by' refers to 'lever2', which does not exist"]
    assert errors[0].location is not None


def test_references_to_objects_on_other_layers_and_to_none_are_fine():
    lvl = level(Point("lever", (40, 200), layer="things"),
                Box("gate", (240, 96), (8, 48), layer="walls", type="door", properties={"opened_by": Ref("lever")}),
                Point("sign", (0, 0), layer="art", properties={"points_at": Ref("gate"), "text": "lever2"}),
                Box("plain", (0, 300), (8, 8), layer="walls", type="door"),  # the type's default: Ref("")
                properties={"first_door": Ref("gate"), "boss": Ref("")})
    assert found(lvl, ERROR) == []
    assert found(lvl, WARNING) == []


def test_a_reference_may_point_at_its_own_object():
    assert found(level(Point("loop", (0, 0), properties={"next": Ref("loop")})), ERROR) == []


def test_the_levels_own_reference_to_a_missing_object_is_an_error_of_the_level():
    errors = found(level(Point("lever", (0, 0)), properties={"boss": Ref("dragon"), "music": "dragon"}), ERROR)
    assert len(errors) == 1 and errors[0].object_id == LEVEL_ID
    assert errors[0].message == "the level's property 'boss' refers to 'dragon', which does not exist"


def test_a_types_default_reference_to_a_missing_object_is_reported_once_naming_the_type():
    types = (ObjectType("door", "#3c8ce0", {"opened_by": Ref("master-lever")}),)
    doors = [Box(f"door-{k}", (k * 50, 0), (8, 48), type="door") for k in range(3)]
    errors = found(level(*doors, types=types), ERROR)
    assert [(p.object_id, p.message) for p in errors] == [
        (LEVEL_ID, "type 'door': default property 'opened_by' refers to 'master-lever', which does not exist")]


def test_every_missing_reference_is_reported_in_level_order():
    lvl = level(Point("a", (0, 0), layer="things", properties={"x": Ref("nope"), "y": Ref("a")}),
                Wall("b", [(0, 0), (10, 0)], 4, layer="walls", properties={"z": Ref("gone")}))
    assert [str(p) for p in found(lvl, ERROR)] == [
        "a: property 'x' refers to 'nope', which does not exist",
        "b: property 'z' refers to 'gone', which does not exist"]


# --------------------------------------------------------------------------- types


@pytest.mark.parametrize("layer", ["things", "walls"])
def test_an_object_of_a_type_the_level_does_not_list_is_a_warning(layer):
    lvl = level(Point("goblin-1", (200, 80), layer=layer, type="enmy"))
    warnings = found(lvl, WARNING, "goblin-1")
    assert [p.message for p in warnings] == ["type 'enmy' is not one of the level's types"]
    assert str(warnings[0]) == "goblin-1: warning: type 'enmy' is not one of the level's types"
    assert found(lvl, ERROR) == []


def test_objects_of_listed_types_and_without_a_type_are_fine():
    lvl = level(Point("goblin-1", (200, 80), layer="things", type="enemy"),
                Box("gate", (0, 0), (8, 48), layer="walls", type="door"), Point("plain", (9, 9)))
    assert found(lvl, WARNING) == []


def test_a_level_without_types_warns_for_every_typed_object():
    lvl = level(Point("g1", (0, 0), type="enemy"), Point("g2", (9, 0), type="enemy"), types=())
    assert [p.object_id for p in found(lvl, WARNING)] == ["g1", "g2"]


# --------------------------------------------------------------------------- reference pictures


def backdrop(path="art/demo.png", oid="backdrop"):
    return Image(oid, path, (0, 0), layer="art", opacity=0.5)


def test_a_missing_picture_is_a_warning_naming_the_image_and_its_path(tmp_path):
    warnings = found(level(backdrop()), WARNING, base_dir=str(tmp_path))
    assert len(warnings) == 1 and warnings[0].object_id == "backdrop"
    assert "'art/demo.png'" in warnings[0].message and "is not there" in warnings[0].message
    assert str(tmp_path) in warnings[0].message


@pytest.mark.parametrize("content", [png_bytes(), JPEG_BYTES], ids=["png", "jpeg"])
def test_a_png_or_jpeg_picture_next_to_the_level_is_fine(tmp_path, content):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "demo.png").write_bytes(content)
    assert found(level(backdrop()), base_dir=str(tmp_path), severity=WARNING) == []
    assert picture_problem(str(tmp_path), "art/demo.png") is None


@pytest.mark.parametrize("content,words", [
    (b"", "not a PNG or JPEG"),
    (b"\x89PNG\r\n\x1a\n", "not a PNG or JPEG"),  # the signature alone: cut off before its first chunk
    (b"GIF89a\x01\x00\x01\x00", "not a PNG or JPEG"),
    (b"<html>not found</html>", "not a PNG or JPEG"),
], ids=["empty", "signature-only", "gif", "text"])
def test_a_file_that_is_not_a_png_or_jpeg_is_a_warning(tmp_path, content, words):
    (tmp_path / "picture.png").write_bytes(content)
    warnings = found(level(backdrop("picture.png")), WARNING, base_dir=str(tmp_path))
    assert len(warnings) == 1 and words in warnings[0].message and "'picture.png'" in warnings[0].message


def test_a_folder_or_a_path_that_cannot_be_opened_is_a_warning(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "plain.png").write_bytes(png_bytes())
    lvl = level(backdrop("art", "folder"), backdrop("plain.png/inner.png", "under-a-file"), backdrop("", "empty"))
    by_id = {p.object_id: p.message for p in found(lvl, WARNING, base_dir=str(tmp_path))}
    assert "is a folder" in by_id["folder"]
    assert "'plain.png/inner.png'" in by_id["under-a-file"] and "cannot be read" in by_id["under-a-file"]
    assert "path is empty" in by_id["empty"]


def test_pictures_are_looked_for_relative_to_the_level_and_each_image_is_named(tmp_path):
    (tmp_path / "levels").mkdir()
    (tmp_path / "shared.png").write_bytes(png_bytes())
    lvl = level(backdrop("../shared.png", "found"), backdrop("shared.png", "lost-1"), backdrop("shared.png", "lost-2"))
    assert [p.object_id for p in found(lvl, WARNING, base_dir=str(tmp_path / "levels"))] == ["lost-1", "lost-2"]


def test_pictures_are_not_looked_at_without_the_levels_folder():
    assert found(level(backdrop("no/such/file.png")), WARNING) == []


def test_check_level_takes_the_levels_folder_and_keeps_it_for_the_hulls(tmp_path):
    lvl = level(backdrop(), Box("crate", (100, 100), (10, 10), layer="walls"))
    assert [p.object_id for p in check_level(lvl).problems if p.severity == WARNING] == []
    result = check_level(lvl, base_dir=str(tmp_path))
    assert [p.object_id for p in result.problems if p.severity == WARNING] == ["backdrop"]
    assert result.base_dir == str(tmp_path)
    # Without outlines, add_hulls checks again: still with the pictures.
    again = add_hulls(type(result)(lvl, result.problems, None, None, str(tmp_path)))
    assert [p.object_id for p in again.problems if p.severity == WARNING] == ["backdrop"]
    assert sorted(again.hulls) == ["crate", "level"]


# --------------------------------------------------------------------------- tile grids without solid cells


@pytest.mark.parametrize("cells", [(), ("....", "...."), ("",)], ids=["no-rows", "all-empty", "empty-row"])
def test_a_tile_grid_without_solid_cells_is_a_warning(cells):
    lvl = level(Tiles("tiles-1", (0, 256), 16, cells, layer="walls"))
    warnings = found(lvl, WARNING, "tiles-1")
    assert len(warnings) == 1 and "no solid cells" in warnings[0].message
    assert found(lvl, ERROR) == []
    assert "tiles-1" not in check_level(lvl, with_hulls=True).hulls


def test_a_tile_grid_with_a_solid_cell_is_fine():
    assert found(level(Tiles("tiles-1", (0, 256), 16, ("....", "..#."), layer="walls")), WARNING) == []


# --------------------------------------------------------------------------- names Tiled's loaders keep

def test_property_names_tiled_loaders_keep_are_warned_about_saying_what_export_does():
    lvl = level(Box("crate", (0, 0), (16, 16), layer="walls", properties={"name": "Crate", "name_": "x", "hp": 1}),
                Point("goblin", (40, 0), layer="things", type="boss"),
                Point("flag", (80, 0), layer="things", properties={"count": 3}),  # only an object layer keeps it
                Tiles("floor", (0, 64), 16, ("##",), layer="walls", properties={"count": 3}),
                properties={"width": 640, "music": "a.ogg"},
                types=TYPES + (ObjectType("boss", "#ff0000", {"type": "orc", "health": 9}),))
    warnings = [str(p) for p in found(lvl, WARNING) if "Tiled" in p.message]
    keep = "has a name Tiled's loaders keep for themselves (pytmx refuses such a map): the Tiled export writes it as"
    assert warnings == [
        f"-: warning: the level's property 'width' {keep} 'width_', and importing the map brings it back as 'width'",
        f"-: warning: type 'boss': default property 'type' {keep} 'type_', and importing the map brings it back as "
        f"'type' on its objects",
        f"crate: warning: property 'name' {keep} 'name__', and importing the map brings it back as 'name'",
        f"floor: warning: property 'count' {keep} 'count_', and importing the map brings it back as 'count'",
    ]
    assert not [p for p in found(lvl) if p.is_error]
