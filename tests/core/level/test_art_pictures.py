"""Tilesets', collection tiles' and sprites' pictures follow their level into another folder, as images' do."""
from __future__ import annotations

import json
import subprocess
import sys

from level_editor.core.level.art import TileInfo, Tileset
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.level.model import Level, Sprite, Tiles
from level_editor.core.level.pictures import picture_moved, pictures_moved, tileset_moved
from level_editor.core.level.recovery import load_recovery, write_recovery


def _level() -> Level:
    sheet = Tileset("ground", "Ground", (16, 16), image="art/ground.png", image_size=(32, 16), columns=2, count=2)
    things = Tileset("things", "Things", (16, 16), tiles={
        0: TileInfo(image="art/rock.png", image_size=(16, 16)),
        1: TileInfo(image="/pictures/tree.png", image_size=(16, 32))})
    return Level(tilesets=(sheet, things), objects=(
        Tiles("g", (0, 0), 16, (), tileset="ground", tiles=((0, 1),)),
        Sprite("cloud", (50, 50), (32, 16), picture="art/cloud.png"),
        Sprite("rock", (80, 50), (16, 16), tileset="things", tile=0)))


def _pictures(level: Level) -> dict:
    found = {t.id: t.image for t in level.tilesets if t.image}
    found.update({f"{t.id}/{n}": i.image for t in level.tilesets for n, i in t.tiles.items() if i.image})
    found.update({o.id: o.picture for o in level.objects if isinstance(o, Sprite) and o.picture})
    return found


def test_a_level_moved_names_its_tilesets_tiles_and_sprites_pictures_from_the_new_folder():
    moved = pictures_moved(_level(), "/game/levels", "/game/other/deep")
    assert _pictures(moved) == {"ground": "../../levels/art/ground.png",
                                "things/0": "../../levels/art/rock.png",
                                "things/1": "/pictures/tree.png",  # absolute: stays
                                "cloud": "../../levels/art/cloud.png"}
    # the painted grid and the tile sprite keep their tiles, bound to the moved tilesets
    assert moved.objects[0].art is moved.tilesets[0] and moved.objects[2].art is moved.tilesets[1]
    assert _pictures(pictures_moved(moved, "/game/other/deep", "/game/levels")) == _pictures(_level())
    same = _level()
    assert pictures_moved(same, "/game/levels", "/game/levels") is same
    assert _pictures(pictures_moved(_level(), "/game/levels", None))["ground"] == "/game/levels/art/ground.png"


def test_a_tileset_or_sprite_that_knows_its_folder_is_named_from_it():
    ts = Tileset("t", "T", (8, 8), image="a.png", count=1, folder="/x")
    assert tileset_moved(ts, "/elsewhere", "/y").image == "../x/a.png"
    assert tileset_moved(ts, "/elsewhere", "/x") is ts
    sprite = Sprite("s", (0, 0), (8, 8), picture="a.png", folder="/x")
    assert picture_moved(sprite, "/elsewhere", "/y").picture == "../x/a.png"


def test_a_sprite_pasted_from_a_level_in_another_folder_is_named_from_this_one_and_a_tile_sprite_is_left():
    doc = LevelDocument()
    doc.reset(Level(), "/game/other")
    doc.append_objects([Sprite("pasted", (0, 0), (8, 8), picture="art/cloud.png", folder="/game/levels"),
                        Sprite("tile", (0, 0), (8, 8), tileset="ground", tile=1, folder="/game/levels")])
    assert doc.get("pasted").picture == "../levels/art/cloud.png"
    assert doc.get("tile").picture == "" and doc.get("tile").tile == 1


def test_save_as_moves_the_documents_tileset_pictures():
    doc = LevelDocument()
    doc.reset(_level(), "/game/levels")
    doc.move_to("/game/other")
    assert _pictures(doc.level)["ground"] == "../levels/art/ground.png"
    assert _pictures(doc.level)["cloud"] == "../levels/art/cloud.png"


def test_a_recovery_copy_names_art_pictures_from_the_levels_own_folder(tmp_path):
    recovery = str(tmp_path / "recovery")
    path = write_recovery(recovery, _level(), None, "s1", pictures_folder="/game/maps")
    assert _pictures(load_recovery(path))["ground"] == "/game/maps/art/ground.png"
    assert _pictures(load_recovery(path))["things/0"] == "/game/maps/art/rock.png"
    path = write_recovery(recovery, _level(), "/game/levels/castle.json", "s2", pictures_folder="/game/levels")
    assert _pictures(load_recovery(path)) == _pictures(_level())


def test_export_into_another_folder_names_the_same_art_pictures_from_there(tmp_path):
    (tmp_path / "levels").mkdir()
    (tmp_path / "out").mkdir()
    source = tmp_path / "levels" / "l.json"
    save_level(_level(), str(source))
    out = tmp_path / "out" / "l.json"
    r = subprocess.run([sys.executable, "-m", "level_editor.core.cli", "export", str(source), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["tilesets"][0]["image"] == "../levels/art/ground.png"
    assert _pictures(load_level(str(out)))["cloud"] == "../levels/art/cloud.png"
