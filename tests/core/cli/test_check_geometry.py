"""`check` and `export` on real files with geometry problems: lines, exit codes, nothing written on errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from level_editor.core.cli import main
from level_editor.core.level.schema import level_schema

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = level_schema()


def write(tmp_path, objects, spawn=(100, 100), name="level.json", player=None):
    d = {
        "format": "level-editor.level", "version": 1, "name": "Test", "grid": 16,
        "player": player or {"spawn": list(spawn), "shape": "circle", "radius": 12, "speed": 240},
        "objects": objects, "hulls": {},
    }
    p = tmp_path / name
    p.write_text(json.dumps(d))
    return p


BORDER = {"id": "border", "kind": "wall", "layer": "main", "points": [[0, 0], [400, 0], [400, 300], [0, 300]],
          "thickness": 8, "closed": True}

ERRORS = [
    {"id": "dup", "kind": "wall", "layer": "main", "points": [[50, 200], [50, 200], [150, 200]], "thickness": 4, "closed": False},
    {"id": "bowtie", "kind": "wall", "layer": "main", "points": [[200, 50], [300, 150], [300, 50], [200, 150]], "thickness": 4,
     "closed": True},
    {"id": "crate", "kind": "box", "layer": "main", "origin": [112, 80], "size": [30, 30]},  # touches the player at x = 112
]

WARNINGS = [
    {"id": "two", "kind": "wall", "layer": "main", "points": [[320, 200], [360, 200]], "thickness": 4, "closed": True},
    {"id": "slip", "kind": "wall", "layer": "main", "points": [[100, 250], [100, 310]], "thickness": 4, "closed": False},
    {"id": "pillar-a", "kind": "circle", "layer": "main", "center": [200, 250], "radius": 10},
    {"id": "pillar-b", "kind": "circle", "layer": "main", "center": [225, 250], "radius": 10},
]


def lines_of(out):
    return out.strip().splitlines()


def test_check_prints_every_geometry_error_as_path_id_message(tmp_path, capsys):
    p = write(tmp_path, [BORDER, *ERRORS, *WARNINGS])
    assert main(["check", "--verbose", str(p)]) == 1
    lines = lines_of(capsys.readouterr().out)
    assert f"{p}: dup: error: segment 1 has zero length: nodes 1 and 2 are at the same place, near (50, 200)" in lines
    assert f"{p}: bowtie: error: this closed wall's outline crosses itself near (250, 100)" in lines
    assert f"{p}: player: error: the player overlaps crate at its spawn; move the spawn or the object" in lines
    assert any(line.startswith(f"{p}: two: warning: is marked closed but has only 2 nodes") for line in lines)
    assert any(line.startswith(f"{p}: border: warning: crosses wall slip near (100, 300)") for line in lines)
    assert any(line.startswith(f"{p}: pillar-a: warning: leaves a gap of 5 px to pillar-b") for line in lines)
    assert lines[-1].startswith(f"{p}: -: info: the spawn is in an enclosed area: the free space around it is "
                                "closed off on all sides")
    # Errors come before warnings, which come before the information.
    kinds = ["info" if ": info: " in line else "warning" if ": warning: " in line else "error" for line in lines]
    assert kinds == sorted(kinds, key=["error", "warning", "info"].index)
    assert len(lines) == 7


def test_check_with_only_warnings_exits_0_and_still_prints_them(tmp_path, capsys):
    p = write(tmp_path, [BORDER, *WARNINGS])
    assert main(["check", str(p)]) == 0
    lines = lines_of(capsys.readouterr().out)
    assert sum(": warning: " in line for line in lines) == 3
    assert all(line.startswith(f"{p}: ") for line in lines)


def test_check_clean_level_prints_its_one_line_summary_and_exits_0(tmp_path, capsys):
    p = write(tmp_path, [BORDER])
    assert main(["check", str(p)]) == 0
    assert capsys.readouterr().out == f"{p}: ok (1 object, 0 warnings)\n"


def test_check_with_warnings_says_how_many_and_strict_fails_on_them(tmp_path, capsys):
    p = write(tmp_path, [BORDER, *WARNINGS])
    assert main(["check", str(p)]) == 0
    assert lines_of(capsys.readouterr().out)[-1] == f"{p}: ok (5 objects, 3 warnings)"
    assert main(["check", "--strict", str(p)]) == 1
    lines = lines_of(capsys.readouterr().out)
    assert len(lines) == 3 and all(": warning: " in line for line in lines)
    clean = write(tmp_path, [BORDER], name="clean.json")
    assert main(["check", "--strict", str(clean)]) == 0


def test_check_json_lists_each_file_with_its_problems(tmp_path, capsys):
    p = write(tmp_path, [BORDER, *ERRORS, *WARNINGS])
    clean = write(tmp_path, [BORDER], name="clean.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["check", "--format", "json", str(p), str(clean), str(broken)]) == 2
    report = json.loads(capsys.readouterr().out)
    assert [(f["path"], f["status"], f["objects"], f["errors"], f["warnings"]) for f in report] == [
        (str(p), "problems", 8, 3, 3), (str(clean), "ok", 1, 0, 0), (str(broken), "unreadable", None, 1, 0)]
    assert {"path": str(p), "object_id": "bowtie", "severity": "error",
            "message": "this closed wall's outline crosses itself near (250, 100)"} in report[0]["problems"]
    assert report[2]["problems"][0]["message"].startswith("is not valid JSON: Expecting property name")


def test_check_verbose_adds_the_information_line(tmp_path, capsys):
    p = write(tmp_path, [BORDER])
    assert main(["check", "-v", str(p)]) == 0
    info, summary = lines_of(capsys.readouterr().out)
    assert info.startswith(f"{p}: -: info: the spawn is in an enclosed area: the free space around it is closed off "
                           "on all sides")
    assert summary == f"{p}: ok (1 object, 0 warnings)"


def test_check_box_player_touching_a_wall(tmp_path, capsys):
    player = {"spawn": [100, 100], "shape": "box", "size": [24, 32], "speed": 200}
    wall = {"id": "ledge", "kind": "wall", "layer": "main", "points": [[50, 120], [150, 120]], "thickness": 8, "closed": False}
    p = write(tmp_path, [BORDER, wall], player=player)  # the box reaches y = 116, the wall's side too
    assert main(["check", str(p)]) == 1
    assert f"{p}: player: error: the player overlaps ledge at its spawn; move the spawn or the object" in lines_of(
        capsys.readouterr().out)


def test_export_writes_hulls_for_every_object_and_the_level(tmp_path, capsys):
    pillar = {"id": "pillar", "kind": "circle", "layer": "main", "center": [300, 200], "radius": 16}
    p = write(tmp_path, [BORDER, pillar])
    out = tmp_path / "out.json"
    assert main(["export", str(p), "-o", str(out)]) == 0
    d = json.loads(out.read_text())
    jsonschema.validate(d, SCHEMA)
    assert set(d["hulls"]) == {"border", "pillar", "level"}
    assert d["hulls"]["pillar"]["aabb"] == [284, 184, 316, 216]
    assert d["hulls"]["pillar"]["circle"] == {"center": [300, 200], "radius": 16}
    assert d["hulls"]["border"]["aabb"] == [-4, -4, 404, 304]
    assert d["hulls"]["level"]["aabb"] == [-4, -4, 404, 304]
    assert d["objects"] == [BORDER, pillar]


def test_export_refuses_a_level_with_errors_and_writes_nothing(tmp_path, capsys):
    p = write(tmp_path, [BORDER, *ERRORS])
    out = tmp_path / "out.json"
    assert main(["export", str(p), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "has errors; nothing written" in err
    assert f"{p}: bowtie: error: this closed wall's outline crosses itself near (250, 100)" in err
    assert not out.exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["level.json"]


def test_export_with_errors_leaves_an_existing_output_untouched(tmp_path):
    p = write(tmp_path, [BORDER, *ERRORS])
    out = tmp_path / "out.json"
    out.write_text("previous export")
    assert main(["export", str(p), "-o", str(out)]) == 1
    assert out.read_text() == "previous export"


def test_export_with_warnings_still_writes(tmp_path):
    p = write(tmp_path, [BORDER, *WARNINGS])
    out = tmp_path / "out.json"
    assert main(["export", str(p), "-o", str(out)]) == 0
    assert set(json.loads(out.read_text())["hulls"]) == {"border", "two", "slip", "pillar-a", "pillar-b", "level"}


@pytest.mark.parametrize("command", ["check", "export"])
def test_installed_command_end_to_end(tmp_path, command):
    p = write(tmp_path, [BORDER, *ERRORS])
    args = [command, str(p)] + (["-o", str(tmp_path / "out.json")] if command == "export" else [])
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", *args], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 1
    text = r.stdout + r.stderr
    assert "Traceback" not in text
    assert f"{p}: dup: error: segment 1 has zero length" in text
    assert not (tmp_path / "out.json").exists()
