"""Reference pictures follow their level into another folder (core/level/pictures.py, LevelDocument.move_to)."""
from __future__ import annotations

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Image, Level
from level_editor.core.level.pictures import picture_moved, pictures_moved
from level_editor.core.level.recovery import load_recovery, write_recovery


def _picture(level: Level, object_id: str = "backdrop") -> str:
    return next(o.path for o in level.objects if o.id == object_id)


def _level() -> Level:
    return Level(objects=(Image("backdrop", "art/courtyard.png", (0, 0)), Image("sketch", "/pictures/s.png", (0, 0)),
                          Box("box-1", (0, 0), (8, 8))))


def test_a_level_moved_names_its_pictures_from_the_new_folder_and_absolute_ones_stay():
    moved = pictures_moved(_level(), "/game/levels", "/game/other/deep")
    assert [o.path for o in moved.objects if isinstance(o, Image)] == ["../../levels/art/courtyard.png",
                                                                        "/pictures/s.png"]
    assert pictures_moved(moved, "/game/other/deep", "/game/levels") == _level()  # and back again
    same = _level()
    assert pictures_moved(same, "/game/levels", "/game/levels") is same
    assert _picture(pictures_moved(_level(), "/game/levels", None)) == "/game/levels/art/courtyard.png"


def test_a_picture_that_knows_its_folder_is_named_from_it_whatever_the_level_says():
    image = Image("i", "a.png", (0, 0), folder="/x")
    assert picture_moved(image, "/elsewhere", "/y").path == "../x/a.png"
    assert picture_moved(image, "/elsewhere", "/x") is image


def test_pictures_that_come_back_by_undo_after_the_level_moved_are_named_from_its_new_folder():
    doc = LevelDocument()
    doc.reset(_level(), "/game/levels")
    deleted = doc.remove_objects(["backdrop"])  # what an undo command keeps
    doc.move_to("/game/other")
    assert doc.folder == "/game/other"
    doc.insert_objects(deleted)
    assert doc.get("backdrop").path == "../levels/art/courtyard.png"
    before = doc.get("backdrop")
    doc.move_to("/game/levels")
    assert doc.get("backdrop").path == "art/courtyard.png"
    doc.replace_objects(["backdrop"], [before.moved(4, 0)])  # a move made while the level was elsewhere
    assert doc.get("backdrop").path == "art/courtyard.png" and doc.get("backdrop").origin.x == 4


def test_a_picture_pasted_from_a_level_in_another_folder_is_named_from_this_one():
    doc = LevelDocument()
    doc.reset(Level(), "/game/other")
    doc.append_objects([Image("pasted", "art/courtyard.png", (0, 0), folder="/game/levels")])
    assert doc.get("pasted").path == "../levels/art/courtyard.png"


def test_a_recovery_copy_names_pictures_from_the_level_s_own_folder(tmp_path):
    recovery = str(tmp_path / "recovery")
    # an imported map never saved: pictures relative to the map's folder, the copy in the recovery folder
    path = write_recovery(recovery, _level(), None, "s1", pictures_folder="/game/maps")
    assert _picture(load_recovery(path)) == "/game/maps/art/courtyard.png"
    # a saved level: named from its own folder, as its file names them
    path = write_recovery(recovery, _level(), "/game/levels/castle.json", "s2", pictures_folder="/game/levels")
    assert _picture(load_recovery(path)) == "art/courtyard.png"


def test_a_check_made_where_the_level_was_says_where_its_moved_pictures_are_looked_for(tmp_path):
    from level_editor.core.checks.check import check_level, pictures_looked_for_in

    (tmp_path / "levels").mkdir()
    (tmp_path / "other").mkdir()
    level = Level(objects=(Image("backdrop", "art/gone.png", (0, 0)), Box("box-1", (100, 100), (8, 8))))
    before = check_level(level, with_hulls=True, base_dir=str(tmp_path / "levels"))
    moved = pictures_moved(level, str(tmp_path / "levels"), str(tmp_path / "other"))
    after = pictures_looked_for_in(before, moved, str(tmp_path / "other"))
    fresh = check_level(moved, base_dir=str(tmp_path / "other"))
    assert after.level is moved and after.hulls == before.hulls and after.base_dir == str(tmp_path / "other")
    assert sorted(p.message for p in after.problems) == sorted(p.message for p in fresh.problems)
    assert any("'../levels/art/gone.png'" in p.message for p in after.problems)
    assert not any("'art/gone.png'" in p.message for p in after.problems)
