"""`level-editor simulate`: exit codes, one-line messages, traces identical across runs."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from level_editor.core.cli import main

LEVEL = "levels/showcase.json"


def replay(path, velocities=((240, 0), (240, 0), (0, -240), (100000, 100000), (-100000, 3)), dt=1 / 60):
    path.write_text(json.dumps({"format": "level-editor.replay", "version": 1, "dt": dt,
                                "velocities": [list(v) for v in velocities]}))
    return str(path)


def test_trace_to_stdout(tmp_path, capsys):
    assert main(["simulate", LEVEL, "--input", replay(tmp_path / "r.json")]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["format"] == "level-editor.trace" and data["version"] == 1
    spawn = json.load(open(LEVEL))["player"]["spawn"]
    assert data["start"] == [float(v) for v in spawn] and len(data["positions"]) == 5
    assert data["positions"][0] == [spawn[0] + 4.0, float(spawn[1])]
    assert out.err == ""


def test_trace_to_file_is_identical_across_runs(tmp_path, capsys):
    r = replay(tmp_path / "r.json", [(240 * (i % 7 - 3), 90000 * ((i % 5) - 2)) for i in range(200)])
    assert main(["simulate", LEVEL, "--input", r, "-o", str(tmp_path / "a.json")]) == 0
    assert main(["simulate", LEVEL, "--input", r, "-o", str(tmp_path / "b.json")]) == 0
    a = (tmp_path / "a.json").read_bytes()
    assert a == (tmp_path / "b.json").read_bytes()
    assert main(["simulate", LEVEL, "--input", r]) == 0
    assert capsys.readouterr().out.encode() == a
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "r.json"]


def test_separate_processes_give_the_same_trace(tmp_path):
    r = replay(tmp_path / "r.json", [(300 * ((i * 7) % 11 - 5), 300 * ((i * 3) % 7 - 3)) for i in range(150)])
    runs = [subprocess.run([sys.executable, "-c", "import sys; from level_editor.core.cli import main; sys.exit(main())",
                            "simulate", "levels/showcase_box_player.json", "--input", r],
                           capture_output=True, check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].startswith(b'{"format": "level-editor.trace"')


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not valid JSON: .* at line 1, column 2"),
    ('{"format": "level-editor.replay", "version": 7, "dt": 0.1, "velocities": []}', "version 7 is not supported"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0, "velocities": []}', '"dt" must be > 0'),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[1, NaN]]}', "contains NaN"),
    ('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [1, 2]}',
     r"velocities\[0\] must be a pair of numbers"),
    pytest.param('{"format": "level-editor.replay", "version": 1, "dt": 0.1, "velocities": [[1%s, 2]]}'
                 % ("0" * 400), r"r\.json: velocities\[0\] is not a pair of finite numbers", id="big-int"),
])
def test_bad_replay_exit_2_with_one_line(tmp_path, capsys, content, message):
    (tmp_path / "r.json").write_text(content)
    assert main(["simulate", LEVEL, "--input", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    import re
    assert re.search(message, err)


def test_missing_files_and_bad_levels_exit_2(tmp_path, capsys):
    r = replay(tmp_path / "r.json")
    assert main(["simulate", str(tmp_path / "nope.json"), "--input", r]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["simulate", LEVEL, "--input", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text('{"format": "level-editor.level", "version": 99}')
    assert main(["simulate", str(tmp_path / "bad.json"), "--input", r]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "99" in err


def test_bad_usage_exit_2(capsys):
    assert main(["simulate", LEVEL]) == 2
    assert "--input" in capsys.readouterr().err


def test_unwritable_output_exit_2(tmp_path, capsys):
    r = replay(tmp_path / "r.json")
    assert main(["simulate", LEVEL, "--input", r, "-o", str(tmp_path / "no" / "dir" / "t.json")]) == 2
    err = capsys.readouterr().err
    assert "cannot be written" in err and err.count("\n") == 1


def test_a_trace_without_areas_has_no_events_key(tmp_path, capsys):
    assert main(["simulate", LEVEL, "--input", replay(tmp_path / "r.json")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["format", "version", "start", "positions"]


AREAS_LEVEL = {
    "format": "level-editor.level", "version": 2, "name": "Areas", "grid": 16,
    "types": [{"name": "exit_zone", "color": "#40c070", "properties": {"next_level": "maze.json"}}],
    "layers": [{"id": "art", "name": "Art", "visible": True, "locked": True},
               {"id": "walls", "name": "Walls", "visible": True, "locked": False},
               {"id": "zones", "name": "Zones", "visible": False, "locked": True}],
    "player": {"spawn": [40, 40], "shape": "circle", "radius": 8, "speed": 60},
    "objects": [
        {"id": "backdrop", "kind": "image", "layer": "art", "path": "art/a.png", "origin": [0, 0], "scale": 4,
         "opacity": 0.5},
        {"id": "lever", "kind": "point", "layer": "walls", "position": [60, 40]},
        {"id": "exit", "kind": "box", "layer": "zones", "type": "exit_zone", "solid": False,
         "origin": [100, 20], "size": [20, 40]},
        {"id": "water", "kind": "tiles", "layer": "zones", "origin": [160, 32], "cell": 16, "cells": ["##"],
         "solid": False},
        {"id": "floor", "kind": "tiles", "layer": "walls", "origin": [0, 50], "cell": 16, "cells": ["#" * 20]},
    ],
    "hulls": {},
}


@pytest.mark.parametrize("shape", ["circle", "box"])
def test_trace_names_the_areas_entered_and_left(tmp_path, capsys, shape):
    level = dict(AREAS_LEVEL, player={"spawn": [40, 40], "shape": shape, "speed": 60,
                                      **({"radius": 8} if shape == "circle" else {"size": [16, 12]})})
    (tmp_path / "level.json").write_text(json.dumps(level))
    # 1 px a tick to the right, just above a solid tile floor.
    r = replay(tmp_path / "r.json", [(60, 0)] * 170)
    assert main(["simulate", str(tmp_path / "level.json"), "--input", r, "-o", str(tmp_path / "t.json")]) == 0
    data = json.loads((tmp_path / "t.json").read_text())
    # After tick i the centre is at x = 41 + i: the body (half width 8) touches x = 100 from tick 51, leaves
    # x = 120 behind at tick 88; the water (160 to 192) from tick 111 to tick 160. The lever and the picture
    # are not areas, and the floor is solid.
    assert data["events"] == [[51, "enter", "exit"], [88, "leave", "exit"], [111, "enter", "water"],
                              [160, "leave", "water"]]
    assert data["positions"][-1] == [210.0, 40.0]
    from level_editor.core.playtest.replay import load_trace

    assert load_trace(tmp_path / "t.json").events == tuple(tuple(e) for e in data["events"])
    assert capsys.readouterr().err == ""


def test_a_trace_with_events_is_identical_across_processes(tmp_path):
    # Into the healing pool first, then all over the courtyard.
    velocities = [(240, 60)] * 30 + [(300 * ((i * 7) % 11 - 5), 300 * ((i * 3) % 7 - 3)) for i in range(400)]
    r = replay(tmp_path / "r.json", velocities)
    runs = [subprocess.run([sys.executable, "-c", "import sys; from level_editor.core.cli import main; sys.exit(main())",
                            "simulate", "levels/game_content.json", "--input", r],
                           capture_output=True, check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    assert json.loads(runs[0])["events"][0][1:] == ["enter", "healing-pool"]


def test_a_replay_of_more_ticks_than_the_limit_is_refused_before_it_runs(tmp_path, capsys, monkeypatch):
    from level_editor.core.playtest import replay as replay_module

    monkeypatch.setattr(replay_module, "MAX_REPLAY_TICKS", 4)
    assert main(["simulate", LEVEL, "--input", replay(tmp_path / "r.json")]) == 2
    assert capsys.readouterr().err == (f"level-editor: {tmp_path / 'r.json'}: \"velocities\" has 5 ticks, more than "
                                       f"the 4 a replay may have\n")
