"""The `level-editor` command as build scripts call it: exit codes and messages, never a traceback."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from level_editor.editor.launcher import main

ROOT = Path(__file__).resolve().parents[3]
LEVELS = sorted((ROOT / "levels").glob("*.json"))


def run(*args, cwd=None):
    """Run the real installed entry point in a fresh process."""
    return subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=120)


def good_level():
    return json.loads((ROOT / "levels" / "room_with_door.json").read_text())


def test_help_lists_every_command():
    r = run("--help")
    assert r.returncode == 0
    for word in ("check", "export", "simulate", "LEVEL.json"):
        assert word in r.stdout


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("level-editor ")


def test_check_all_sample_levels_is_clean():
    r = run("check", *LEVELS)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_check_reports_one_line_per_problem_with_path_and_id(tmp_path):
    d = good_level()
    d["objects"][0]["thickness"] = -2
    d["objects"][1]["kind"] = "hexagon"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(d))
    r = run("check", p)
    assert r.returncode == 1
    lines = r.stdout.strip().splitlines()
    assert f"{p}: room: error: thickness must be greater than 0 (it is -2)" in lines
    assert any(line.startswith(f"{p}: corridor-left: error: unknown kind \"hexagon\"") for line in lines)
    assert len(lines) == 2


def test_check_malformed_json_exits_2_with_line_and_column(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text('{"format": "level-editor.level",\n "version": 1,,\n}')
    r = run("check", p)
    assert r.returncode == 2
    assert r.stdout.strip() == f"{p}: -: error: is not valid JSON: Expecting property name enclosed in double quotes at line 2, column 15"


def test_check_missing_file_exits_2(tmp_path):
    r = run("check", tmp_path / "nope.json")
    assert r.returncode == 2 and r.stdout.strip() == f"{tmp_path / 'nope.json'}: -: error: no such file"
    assert "Traceback" not in r.stderr


def test_check_worst_result_wins_over_several_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[")
    invalid = tmp_path / "invalid.json"
    d = good_level()
    d["version"] = 5
    invalid.write_text(json.dumps(d))
    assert main(["check", str(LEVELS[0]), str(invalid)]) == 1
    assert main(["check", str(LEVELS[0]), str(invalid), str(bad)]) == 2


def test_check_unknown_format_message_names_format_and_version(tmp_path, capsys):
    p = tmp_path / "other.json"
    p.write_text(json.dumps({"format": "tiled", "version": 1.2}))
    assert main(["check", str(p)]) == 1
    out = capsys.readouterr().out
    assert "'tiled'" in out and "1.2" in out


@pytest.mark.parametrize("argv", [["check"], ["export", "x.json"], ["--nope"], ["export", "a.json", "-o"]])
def test_bad_usage_exits_2_with_one_line(argv, capsys):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err


def test_export_writes_hulls(tmp_path):
    out = tmp_path / "out.json"
    r = run("export", ROOT / "levels" / "showcase.json", "-o", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["format"] == "level-editor.level"
    assert "level" in data["hulls"] and "crate-1" in data["hulls"]


def test_export_refuses_invalid_level_and_writes_nothing(tmp_path):
    d = good_level()
    d["objects"][2]["points"] = [[0, 0]]
    src = tmp_path / "in.json"
    src.write_text(json.dumps(d))
    out = tmp_path / "out.json"
    r = run("export", src, "-o", out)
    assert r.returncode == 1
    assert "corridor-right: error: a wall needs at least 2 nodes" in r.stderr
    assert not out.exists()


def test_export_unreadable_input_exits_2(tmp_path):
    r = run("export", tmp_path / "missing.json", "-o", tmp_path / "o.json")
    assert r.returncode == 2 and not (tmp_path / "o.json").exists()


def test_export_into_missing_folder_exits_2_without_traceback(tmp_path):
    r = run("export", LEVELS[0], "-o", tmp_path / "no" / "such" / "dir.json")
    assert r.returncode == 2
    assert "could not save" in r.stderr and "Traceback" not in r.stderr


def test_export_does_not_modify_the_source(tmp_path):
    src = tmp_path / "src.json"
    shutil.copy(ROOT / "levels" / "maze.json", src)
    before = src.read_bytes()
    assert main(["export", str(src), "-o", str(tmp_path / "o.json")]) == 0
    assert src.read_bytes() == before


def test_opening_a_folder_as_a_level_is_a_clear_error(tmp_path, capsys):
    assert main([str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_installed_console_script_exists():
    exe = shutil.which("level-editor")
    assert exe, "pip install -e . puts level-editor on the PATH"
    r = subprocess.run([exe, "check", str(LEVELS[0])], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0


def level_with_problems(tmp_path, name="bad.json", first_id="box-1"):
    """A level whose check prints many lines: a box on the spawn, then 3000 more boxes."""
    d = good_level()
    spawn = d["player"]["spawn"]
    d["objects"] = [{"id": first_id if i == 0 else f"box-{i}", "kind": "box", "origin": spawn, "size": [0, 4]}
                    for i in range(3000)]
    p = tmp_path / name
    p.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    return p


def run_into_closed_pipe(*args):
    """Run with stdout a pipe nobody reads any more (`level-editor ... | head -0`)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", *map(str, args)], cwd=ROOT,
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)


def test_a_reader_that_stops_early_is_no_error(tmp_path):
    bad = level_with_problems(tmp_path)
    r = run_into_closed_pipe("check", LEVELS[0], bad, LEVELS[0])
    assert (r.returncode, r.stderr) == (1, "")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    r = run_into_closed_pipe("check", bad, broken)
    assert (r.returncode, r.stderr) == (2, ""), "the exit code still tells the worst file"


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["--version"]])
def test_help_into_a_closed_pipe_is_no_error(args):
    r = run_into_closed_pipe(*args)
    assert (r.returncode, r.stderr) == (0, "")


def test_a_path_that_is_not_utf8_is_printed_as_its_own_bytes(tmp_path):
    raw = os.fsencode(tmp_path) + b"/caf\xe9.json"
    with open(raw, "w") as f:
        f.write("{")
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "check", raw], cwd=ROOT, env=env,
                       capture_output=True, timeout=120)
    assert r.returncode == 2 and r.stderr == b""
    assert r.stdout.startswith(raw + b": -: error: is not valid JSON")
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "export", raw + b"x", "-o", raw], cwd=ROOT,
                       env=env, capture_output=True, timeout=120)
    assert r.returncode == 2 and b"Traceback" not in r.stderr and raw + b"x: -: error: no such file" in r.stderr


def test_ids_a_terminal_cannot_show_are_escaped_not_a_traceback(tmp_path):
    p = level_with_problems(tmp_path, first_id="kiste-ü-箱")
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "check", str(p)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stderr == ""
    assert f"{p}: kiste-\\xfc-\\u7bb1: error: size[0] must be greater than 0 (it is 0)" in r.stdout.splitlines()


def test_reading_errors_are_one_line_each(tmp_path, monkeypatch, capsys):
    p = tmp_path / "locked.json"
    p.write_text(json.dumps(good_level()))
    real_open = os.open

    def deny(path, *a, **k):
        if str(path) == str(p):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr(os, "open", deny)
    assert main(["check", str(p), str(tmp_path)]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"{p}: -: error: cannot be read: Permission denied",
        f"{tmp_path}: -: error: is a folder, not a level file",
    ]


def test_export_to_a_folder_exits_2_and_leaves_it_alone(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    assert main(["export", str(LEVELS[0]), "-o", str(out)]) == 2
    assert capsys.readouterr().err.strip() == f"level-editor: could not save {out}: Is a directory"
    assert out.is_dir() and not any(out.iterdir()) and sorted(os.listdir(tmp_path)) == ["out"]


def test_export_into_another_folder_names_the_same_pictures_from_there(tmp_path):
    out = tmp_path / "other" / "my_level.json"
    out.parent.mkdir()
    r = run("export", ROOT / "levels" / "game_content.json", "-o", out)
    assert r.returncode == 0, r.stderr
    picture = next(o["path"] for o in json.loads(out.read_text())["objects"] if o["kind"] == "image")
    assert (out.parent / picture).resolve() == (ROOT / "levels" / "art" / "courtyard.png").resolve()
    r = run("check", "--strict", out)
    assert r.returncode == 0 and "0 warnings" in r.stdout, r.stdout
