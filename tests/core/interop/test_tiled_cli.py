"""`level-editor export ... .tmj/.tmx` and `level-editor import`: exit codes, one-line messages, notes on stderr."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from level_editor.core.cli import main
from level_editor.core.level.file_format import load_level
from level_editor.core.level.pictures import pictures_moved

from tests.core.interop.helpers import ROOT, assert_same_level

GAME = ROOT / "levels" / "game_content.json"


def cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name, fmt, first", [("court.tmx", None, "<?xml"), ("court.tmj", None, "{"),
                                               ("court.json", "tmx", "<?xml"), ("court.xml", "tmj", "{")])
def test_export_writes_a_tiled_map_by_ending_or_format(tmp_path, capsys, name, fmt, first):
    args = ["export", GAME, "-o", tmp_path / name] + (["--format", fmt] if fmt else [])
    code, out, err = cli(capsys, *args)
    assert (code, out, err) == (0, "", "")
    assert (tmp_path / name).read_text().startswith(first)
    assert (tmp_path / "court.tiles-16.png").exists()


def test_export_format_level_writes_a_level_whatever_the_ending(tmp_path, capsys):
    code, _, _ = cli(capsys, "export", GAME, "-o", tmp_path / "x.tmj", "--format", "level")
    # written in another folder, its picture is named from there
    assert code == 0 and load_level(tmp_path / "x.tmj") == pictures_moved(load_level(GAME), str(GAME.parent),
                                                                           str(tmp_path))


def test_export_then_import_gives_the_level_back(tmp_path, capsys):
    for fmt in ("tmx", "tmj"):
        assert cli(capsys, "export", GAME, "-o", tmp_path / f"court.{fmt}")[0] == 0
        code, out, err = cli(capsys, "import", tmp_path / f"court.{fmt}", "-o", tmp_path / f"back-{fmt}.json")
        assert (code, out, err) == (0, "", "")
        back = load_level(tmp_path / f"back-{fmt}.json")
        original = load_level(GAME)
        # the level is in another folder now: its picture's path leads to the same file from there
        assert (tmp_path / back.objects[0].path).resolve() == (ROOT / "levels" / "art" / "courtyard.png").resolve()
        assert_same_level(back.with_objects(o for o in back.objects if o.kind != "image"),
                          original.with_objects(o for o in original.objects if o.kind != "image"))
        data = json.loads((tmp_path / f"back-{fmt}.json").read_text())
        assert data["hulls"]["crate"]["aabb"] == [96.0, 200.0, 160.0, 232.0]


def test_import_rewrites_picture_paths_for_where_the_level_goes(tmp_path, capsys):
    (tmp_path / "maps").mkdir()
    assert cli(capsys, "export", GAME, "-o", tmp_path / "maps" / "court.tmj")[0] == 0
    assert cli(capsys, "import", tmp_path / "maps" / "court.tmj", "-o", ROOT / "levels" / "_tmp_back.json")[0] == 0
    try:
        back = load_level(ROOT / "levels" / "_tmp_back.json")
        assert back == load_level(GAME)  # every number, the picture's path too: the same folder as before
    finally:
        (ROOT / "levels" / "_tmp_back.json").unlink()


def test_an_invalid_level_is_not_exported(tmp_path, capsys):
    d = json.loads(GAME.read_text())
    d["objects"][1]["thickness"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    code, _, err = cli(capsys, "export", bad, "-o", tmp_path / "out.tmx")
    assert code == 1 and not (tmp_path / "out.tmx").exists()
    assert err == f"{bad}: courtyard: error: thickness must be greater than 0 (it is -1)\n"
    d["objects"][1]["thickness"] = 8
    d["objects"][2]["properties"] = {"key": {"ref": "nobody"}}
    bad.write_text(json.dumps(d))
    code, _, err = cli(capsys, "export", bad, "-o", tmp_path / "out.tmx")
    assert code == 1 and not (tmp_path / "out.tmx").exists()
    assert err.splitlines()[-1] == f"level-editor: {bad} has errors; nothing written"


def test_a_level_the_map_cannot_hold_is_not_exported(tmp_path, capsys):
    d = json.loads((ROOT / "levels" / "room_with_door.json").read_text())
    d["objects"][0]["properties"] = {"thickness": 3}
    lvl = tmp_path / "clash.json"
    lvl.write_text(json.dumps(d))
    code, _, err = cli(capsys, "export", lvl, "-o", tmp_path / "out.tmj")
    assert code == 1 and not (tmp_path / "out.tmj").exists()
    assert err.splitlines() == [
        f"{lvl}: room: property 'thickness' has the name the Tiled export gives the thickness; rename it to export",
        f"level-editor: {lvl} cannot be a Tiled map; nothing written"]


def test_export_to_a_folder_that_does_not_exist_is_exit_2(tmp_path, capsys):
    code, _, err = cli(capsys, "export", GAME, "-o", tmp_path / "no" / "out.tmx")
    assert code == 2 and len(err.splitlines()) == 1 and "could not save" in err


def test_import_names_what_a_level_cannot_hold_on_stderr(tmp_path, capsys):
    m = tmp_path / "m.tmj"
    m.write_text(json.dumps({"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16,
                             "layers": [{"type": "objectgroup", "name": "o", "objects": [
                                 {"id": 4, "name": "sign", "x": 0, "y": 0, "text": {"text": "hi"}},
                                 {"id": 5, "name": "blob", "x": 0, "y": 0, "width": 40, "height": 20,
                                  "ellipse": True}]}]}))
    code, out, err = cli(capsys, "import", m, "-o", tmp_path / "level.json")
    assert code == 0 and out == ""
    assert err.splitlines() == [f"{m}: object sign (id 4): text objects are left out",
                                f"{m}: object blob (id 5): ellipse 40x20 approximated as a pillar of radius 15",
                                f"{m}: no object of type player_spawn: the player starts at 64, 64"]
    assert [o.id for o in load_level(tmp_path / "level.json").objects] == ["blob"]


@pytest.mark.parametrize("content, message", [
    ("not a map", "is neither XML nor JSON, so not a Tiled map"),
    ('<map orientation="isometric" tilewidth="64" tileheight="32"/>',
     "isometric maps are not supported: only orthogonal maps become levels"),
])
def test_import_of_what_is_no_map_is_exit_2_and_writes_nothing(tmp_path, capsys, content, message):
    m = tmp_path / "m.tmx"
    m.write_text(content)
    code, out, err = cli(capsys, "import", m, "-o", tmp_path / "level.json")
    assert (code, out, err) == (2, "", f"level-editor: {m}: {message}\n")
    assert not (tmp_path / "level.json").exists()


def test_import_bad_usage_is_exit_2(tmp_path, capsys):
    code, _, err = cli(capsys, "import", tmp_path / "m.tmx")
    assert code == 2 and "the following arguments are required: -o/--output" in err
    code, _, err = cli(capsys, "export", GAME, "-o", tmp_path / "x.tmx", "--format", "svg")
    assert code == 2 and "invalid choice: 'svg'" in err


def test_the_installed_command_knows_import():
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "--help"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0 and "level-editor import MAP.tmj -o LEVEL.json" in r.stdout
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "import", "nowhere.tmx", "-o", "x.json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert (r.returncode, r.stderr) == (2, "level-editor: nowhere.tmx: no such file\n")
