"""Tileset commands: a tileset change is a level change that undoes exactly and reaches the grids using it."""
from __future__ import annotations

import os

import pytest

from level_editor.core.collision.shapes import Rect
from level_editor.core.level.art import TileInfo, TileShape, Tileset
from level_editor.core.level.document import ChangeKind, LevelDocument
from level_editor.core.level.model import Level, Tiles
from level_editor.editor.commands.tilesets import (
    add_tileset_command, collision_choice_of, collision_shapes_for, new_tileset, remove_tileset_command,
    set_tile_collision_command,
)

GROUND = Tileset("ground", "Ground", (16, 16), image="ground.png", image_size=(64, 32), columns=4, count=8,
                 tiles={1: TileInfo(type="grass", properties={"slippery": True})})
FLOOR = Tiles("floor", (0, 0), 16, (), tileset="ground", tiles=((1, 1, 0),))


def document(*objects) -> LevelDocument:
    return LevelDocument(Level(tilesets=(GROUND,), objects=objects))


def test_new_tileset_names_the_picture_from_the_levels_folder(tmp_path):
    picture = str(tmp_path / "art" / "Ground Tiles.png")
    ts = new_tileset(picture, str(tmp_path), (16, 16), (64, 32), 0, 0, ["ground-tiles"])
    assert (ts.id, ts.name, ts.image, ts.columns, ts.count) == ("ground-tiles-2", "Ground Tiles",
                                                                "art/Ground Tiles.png", 4, 8)
    assert ts.folder == str(tmp_path)
    elsewhere = new_tileset(picture, str(tmp_path / "levels"), (16, 16), (64, 32), 0, 0, ())
    assert elsewhere.image == "../art/Ground Tiles.png"
    unsaved = new_tileset(picture, None, (16, 16), (64, 32), 0, 0, ())
    assert unsaved.image == picture.replace(os.sep, "/")


def test_new_tileset_refuses_a_cut_with_no_whole_tile(tmp_path):
    with pytest.raises(ValueError, match="no 128 x 16 tile fits in the 64 x 32 picture"):
        new_tileset(str(tmp_path / "a.png"), None, (128, 16), (64, 32), 0, 0, ())


def test_add_and_remove_undo_exactly():
    doc = LevelDocument(Level())
    before = doc.level
    add = add_tileset_command(doc, GROUND)
    add.redo()
    assert doc.level.tilesets == (GROUND,)
    remove = remove_tileset_command(doc, "ground")
    remove.redo()
    assert doc.level == before
    remove.undo()
    add.undo()
    assert doc.level == before


def test_a_tileset_in_use_is_not_removed():
    doc = document(FLOOR)
    with pytest.raises(ValueError, match=r"tileset 'Ground' is used by 1 object \(floor\): delete them first"):
        remove_tileset_command(doc, "ground")


def test_a_collision_change_keeps_the_tiles_other_info_and_reaches_the_grids():
    doc = document(FLOOR)
    seen = []
    doc.subscribe(seen.append)
    assert doc.get("floor").collision_shapes() == ()
    command = set_tile_collision_command(doc, "ground", 1, collision_shapes_for("Top half", (16, 16)), "Top half")
    command.redo()
    info = doc.level.tileset("ground").info(1)
    assert info.type == "grass" and info.properties == {"slippery": True}
    assert doc.get("floor").collision_shapes() == (Rect((0, 0), (32, 8)),)
    assert [c.kind for c in seen] == [ChangeKind.PROPERTIES, ChangeKind.CHANGED]
    assert [o.id for o in seen[1].objects] == ["floor"]  # views draw the grid anew
    command.undo()
    assert doc.level.tileset("ground") == GROUND and doc.get("floor").collision_shapes() == ()


def test_collision_choices_read_back():
    size = (16, 16)
    for choice in ("None", "Full", "Top half", "Bottom half"):
        assert collision_choice_of(collision_shapes_for(choice, size), size) == choice
    assert collision_choice_of(collision_shapes_for("Rectangle", size, (1, 2, 3, 4)), size) == "Rectangle"
    assert collision_choice_of((TileShape("ellipse", ((0, 0), (4, 4))),), size) == ""


@pytest.mark.parametrize("rect", [(0, 0, 17, 4), (-1, 0, 4, 4), (0, 14, 4, 4), (0, 0, 0, 4), (0, 0, 4, -2)])
def test_a_rectangle_outside_the_tile_or_not_positive_is_refused(rect):
    with pytest.raises(ValueError):
        collision_shapes_for("Rectangle", (16, 16), rect)
