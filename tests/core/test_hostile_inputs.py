"""Hostile inputs to the command line beyond issue 14's list: outputs that are pipes, the inputs themselves or out of
range, and names that would break a message over lines. Each ends in one line and an exit code, never a traceback,
never a hang, and no input is ever written over."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from level_editor.core.cli import MAX_GENERATED, main
from tests.waiting import never_waits_on

LEVELS = Path(__file__).resolve().parents[2] / "levels"
REPLAY = {"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[10, 0], [0, 10]]}
MAP = {"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "layers": [
    {"type": "objectgroup", "name": "things", "objects": [{"id": 1, "name": "crate", "x": 0, "y": 0, "width": 8,
                                                           "height": 8},
                                                          {"id": 2, "type": "player_spawn", "x": 40, "y": 40,
                                                           "point": True}]}]}


@pytest.fixture
def files(tmp_path):
    level = tmp_path / "level.json"
    shutil.copy(LEVELS / "showcase.json", level)
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps(REPLAY))
    tiled = tmp_path / "map.tmj"
    tiled.write_text(json.dumps(MAP))
    return level, replay, tiled


def one_line_error(capsys, code: int, argv) -> str:
    assert main([str(a) for a in argv]) == code
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("command", ["export", "export-tmj", "import", "simulate"])
def test_an_output_that_is_a_named_pipe_nobody_reads_is_refused_at_once(files, tmp_path, capsys, command):
    level, replay, tiled = files
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    argv = {"export": ["export", level, "-o", pipe],
            "export-tmj": ["export", level, "-o", pipe, "--format", "tmj"],
            "import": ["import", tiled, "-o", pipe],
            "simulate": ["simulate", level, "--input", replay, "-o", pipe]}[command]
    with never_waits_on(pipe):
        line = one_line_error(capsys, 2, argv)
    assert str(pipe) in line and "a named pipe that no program is reading" in line


def test_a_named_pipe_with_a_reader_gets_the_level(files, tmp_path):
    level, _, _ = files
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    reader = subprocess.Popen([sys.executable, "-c", f"import sys; sys.stdout.write(open({str(pipe)!r}).read())"],
                              stdout=subprocess.PIPE)
    deadline = time.monotonic() + 20
    code = None
    while time.monotonic() < deadline:  # until the reader has opened its end
        code = subprocess.run([sys.executable, "-m", "level_editor.core.cli", "export", str(level), "-o", str(pipe)],
                              capture_output=True, cwd=Path(__file__).resolve().parents[2]).returncode
        if code == 0:
            break
        time.sleep(0.2)
    out, _ = reader.communicate(timeout=30)
    assert code == 0 and json.loads(out)["format"] == "level-editor.level"


def test_simulate_never_writes_its_trace_over_the_level_or_the_replay(files, capsys):
    level, replay, _ = files
    before = level.read_bytes(), replay.read_bytes()
    for output, what in ((level, "level"), (replay, "replay"), (level.parent / "." / level.name, "level")):
        line = one_line_error(capsys, 2, ["simulate", level, "--input", replay, "-o", output])
        assert line == f"level-editor: {output}: is the {what} itself; nothing written (name another output file)"
    assert (level.read_bytes(), replay.read_bytes()) == before


def test_import_never_writes_the_level_over_its_map(files, capsys):
    _, _, tiled = files
    before = tiled.read_bytes()
    line = one_line_error(capsys, 2, ["import", tiled, "-o", tiled])
    assert line.endswith("is the map itself; nothing written (name another output file)")
    assert tiled.read_bytes() == before


def test_export_writes_a_map_never_over_its_level_but_the_level_with_hulls_in_place(files, capsys):
    level, _, _ = files
    before = level.read_bytes()
    line = one_line_error(capsys, 2, ["export", level, "-o", level, "--format", "tmx"])
    assert line.endswith("is the level itself; nothing written (name another output file)")
    assert level.read_bytes() == before
    assert main(["export", str(level), "-o", str(level)]) == 0  # the same level, its hulls filled in
    assert json.loads(level.read_text())["format"] == "level-editor.level"


@pytest.mark.parametrize("argv, message", [
    (["-n", str(MAX_GENERATED + 1)], f"at most {MAX_GENERATED:,} objects, not {MAX_GENERATED + 1:,}"),
    (["-n", "1" + "0" * 5000], "a number of 5001 digits is too large"),
    (["-n", "x" * 5000], "not a whole number: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
    (["-n", "3", "--seed", "1" + "0" * 5000], "a number of 5001 digits is too large"),
])
def test_generate_refuses_a_count_it_could_never_finish_in_a_short_line(tmp_path, capsys, argv, message):
    line = one_line_error(capsys, 2, ["generate", *argv, "-o", tmp_path / "g.json"])
    assert line.endswith(message) and len(line) < 120
    assert not (tmp_path / "g.json").exists()


def test_names_with_line_breaks_in_a_map_stay_on_one_line_per_note(tmp_path, capsys):
    data = {"type": "map", "tilewidth": 16, "tileheight": 16, "layers": [
        {"type": "objectgroup", "name": "a\nb", "objects": [{"id": 1, "name": "x\ny\u2028z", "text": {}}]}]}
    path = tmp_path / "m.tmj"
    path.write_text(json.dumps(data))
    assert main(["import", str(path), "-o", str(tmp_path / "out.json")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert f"{path}: object x\\ny\\u2028z (id 1): text objects are left out" in err


def test_a_refusal_naming_a_layer_with_a_line_break_is_one_line(tmp_path, capsys):
    data = {"type": "map", "tilewidth": 16, "tileheight": 16, "layers": [
        {"type": "objectgroup", "name": "a\nb", "objects": 5}]}
    path = tmp_path / "m.tmj"
    path.write_text(json.dumps(data))
    line = one_line_error(capsys, 2, ["import", path, "-o", tmp_path / "out.json"])
    assert line == f"level-editor: {path}: layer a\\nb: 'objects' is not a list"


def test_a_recovery_folder_that_cannot_be_made_is_a_save_error_in_words(tmp_path):
    from level_editor.core.level.atomic import LevelSaveError
    from level_editor.core.level.model import Level
    from level_editor.core.level.recovery import list_copies, write_recovery

    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    for folder, why in ((blocker, "a file is there, not a folder"), (blocker / "recovery", "Not a directory")):
        with pytest.raises(LevelSaveError) as e:
            write_recovery(str(folder), Level(), None, "s1")
        assert str(e.value) == f"could not make the recovery folder {folder}: {why}"
        assert list_copies(str(folder)) == []


def test_recovery_copies_that_are_pipes_folders_or_garbage_are_not_offered(tmp_path):
    from level_editor.core.level.recovery import SUFFIX, list_copies

    os.mkfifo(tmp_path / f"pipe{SUFFIX}")
    (tmp_path / f"folder{SUFFIX}").mkdir()
    (tmp_path / f"empty{SUFFIX}").write_bytes(b"")
    (tmp_path / f"binary{SUFFIX}").write_bytes(bytes(range(256)) * 1000)
    (tmp_path / f"deep{SUFFIX}").write_text("[" * 100_000 + "\n{}")
    (tmp_path / f"long{SUFFIX}").write_text('{"format": "' + "x" * 200_000 + '"}\n{}')
    with never_waits_on(tmp_path / f"pipe{SUFFIX}"):
        assert list_copies(str(tmp_path)) == []


def test_a_replay_of_far_more_pairs_than_ticks_allowed_is_refused_before_it_is_parsed(tmp_path, capsys, monkeypatch):
    from level_editor.core.playtest import replay

    monkeypatch.setattr(replay, "MAX_REPLAY_TICKS", 100)
    pairs = ",".join(["[1e-300, 1e-300]"] * 1200)
    path = tmp_path / "replay.json"
    path.write_text('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [' + pairs + "]}")
    line = one_line_error(capsys, 2, ["simulate", LEVELS / "showcase.json", "--input", path])
    assert line == f"level-editor: {path}: holds 1,201 lists, more than a replay of the most ticks has (100 [x, y] pairs)"
    # fewer than that many lists, more ticks than allowed: counted after parsing, as before
    path.write_text('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": ['
                    + ",".join(["[0, 0]"] * 101) + "]}")
    line = one_line_error(capsys, 2, ["simulate", LEVELS / "showcase.json", "--input", path])
    assert line.endswith('"velocities" has 101 ticks, more than the 100 a replay may have')


@pytest.mark.parametrize("command", ["export", "import", "simulate", "generate"])
@pytest.mark.parametrize("output, why", [("", "names no file"), ("x.json/", "names no file (it ends in a slash: a folder)")])
def test_an_output_path_that_names_no_file_is_bad_usage(files, tmp_path, capsys, command, output, why):
    level, replay, tiled = files
    output = f"{tmp_path}/{output}" if output else output
    argv = {"export": ["export", level], "import": ["import", tiled], "simulate": ["simulate", level, "--input", replay],
            "generate": ["generate", "-n", "3"]}[command] + ["-o", output]
    line = one_line_error(capsys, 2, argv)
    assert line == f"level-editor: error: -o/--output {output!r} {why}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["level.json", "map.tmj", "replay.json"]
