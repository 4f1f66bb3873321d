"""The documented limits (core/level/limits.py) as the loader enforces them, and what reading refuses before it reads.

Every refusal names its object and says why in one line; nothing a hostile file holds reaches shapely, the
simulation or Python's json writer as a number or a nesting they cannot take.
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from level_editor.core.cli import main
from level_editor.core.level import limits, reading
from level_editor.core.level.format import checks, read
from level_editor.core.level.file_format import LevelFileError, dumps_level, load_level, loads_level, parse_level
from level_editor.core.level.migrations import migrate
from level_editor.core.level.reading import read_file_bytes
from tests.waiting import never_waits_on

ROOT = Path(__file__).resolve().parents[3]


def level(*objects, **player):
    return {"format": "level-editor.level", "version": 2, "layers": [{"id": "main", "name": "Main"}],
            "player": {"spawn": [0, 0], "radius": 8, **player}, "objects": list(objects)}


def box(oid="box-1", origin=(100, 100), size=(10, 10)):
    return {"id": oid, "kind": "box", "layer": "main", "origin": list(origin), "size": list(size)}


def problems(data) -> list[str]:
    with pytest.raises(LevelFileError) as e:
        parse_level(data)
    return [str(p) for p in e.value.problems]


# --- numbers -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("huge", [1e200, -1e250, 1.7976931348623157e308, 10**300, 2e7])
def test_a_coordinate_beyond_the_limit_is_refused_naming_the_object(huge):
    assert problems(level(box(origin=(huge, 0)))) == [
        f"box-1: origin[0] is {float(huge):g}, beyond the limit of 1e+07 either way"]


@pytest.mark.parametrize("obj, expected", [
    (box(size=(1e308, 2)), "box-1: size[0] is 1e+308, larger than the largest allowed, 1e+07"),
    (box(origin=(1e7, 1e7), size=(1.7e308, 1)), "box-1: size[0] is 1.7e+308, larger than the largest allowed, 1e+07"),
    ({"id": "p", "kind": "circle", "layer": "main", "center": [0, 0], "radius": 1e300},
     "p: radius is 1e+300, larger than the largest allowed, 1e+07"),
    ({"id": "w", "kind": "wall", "layer": "main", "points": [[0, 0], [1, 1]], "thickness": 5e-324},
     "w: thickness is 4.94066e-324, smaller than the smallest allowed, 1e-06"),
    ({"id": "o", "kind": "oriented_box", "layer": "main", "center": [0, 0], "half_extents": [1e9, 1]},
     "o: half_extents[0] is 1e+09, larger than the largest allowed, 1e+07"),
    ({"id": "t", "kind": "tiles", "layer": "main", "origin": [0, 0], "cell": 1e6, "cells": ["#" * 20]},
     "t: the grid is 20 x 1 cells of 1e+06, larger than the largest size allowed, 1e+07"),
    ({"id": "w", "kind": "wall", "layer": "main", "points": [[0, 0], [1e100, 1]], "thickness": 2},
     "w: points[1][0] is 1e+100, beyond the limit of 1e+07 either way"),
])
def test_sizes_beyond_the_limits_are_refused_naming_the_object(obj, expected):
    assert problems(level(obj)) == [expected]


def test_the_player_s_size_and_speed_have_limits():
    assert problems(level(speed=1e300, radius=1e30)) == [
        "player: radius is 1e+30, larger than the largest allowed, 1e+07",
        "player: speed is 1e+300, larger than the largest allowed, 1e+06",
    ]
    assert problems(level(shape="box", size=[1e8, 1], spawn=[0, -1e8])) == [
        "player: spawn[1] is -1e+08, beyond the limit of 1e+07 either way",
        "player: size[0] is 1e+08, larger than the largest allowed, 1e+07",
    ]


def test_node_counts_per_wall_and_per_level(monkeypatch):
    over = {"id": "w", "kind": "wall", "layer": "main", "points": [[i, 0] for i in range(500_001)], "thickness": 2}
    expected = ["w: a wall may have at most 500,000 nodes, this one has 500,001"]
    assert problems(level(over)) == expected  # msgspec's check of the dict refuses it too, and the reader says why
    with pytest.raises(LevelFileError) as e:
        loads_level(json.dumps(level(over)).encode())  # and so does msgspec's decoder
    assert [str(p) for p in e.value.problems] == expected
    # Smaller limits, for the checking reader alone (msgspec's types hold the real ones).
    monkeypatch.setattr(read, "_msgspec", None)
    monkeypatch.setattr(checks, "MAX_WALL_NODES", 5)
    monkeypatch.setattr(read, "MAX_LEVEL_NODES", 8)
    wall = {"id": "w", "kind": "wall", "layer": "main", "points": [[i, 0] for i in range(6)], "thickness": 2}
    assert problems(level(wall)) == ["w: a wall may have at most 5 nodes, this one has 6"]
    walls = [dict(wall, id=f"w{i}", points=[[i, 0], [i, 5], [i + 1, 5]]) for i in range(3)]
    assert problems(level(*walls)) == ["-: the walls have 9 nodes in all, more than the 8 a level may have"]


def test_a_level_a_million_pixels_from_the_origin_checks_exports_and_simulates(tmp_path, capsys):
    far = 1_000_000.0
    data = level(box(origin=(far + 40, far)), box("box-2", origin=(-far, -far), size=(64, 32)), spawn=[far, far])
    path = tmp_path / "far.json"
    path.write_text(json.dumps(data))
    assert main(["check", str(path)]) == 0
    assert main(["export", str(path), "-o", str(tmp_path / "out.json")]) == 0
    hulls = json.loads((tmp_path / "out.json").read_text())["hulls"]
    assert hulls["box-1"]["aabb"] == [far + 40, far, far + 50, far + 10]
    assert main(["export", str(path), "-o", str(tmp_path / "out.tmj")]) == 0
    replay = tmp_path / "r.json"
    replay.write_text(json.dumps({"format": "level-editor.replay", "version": 1, "dt": 0.1,
                                  "velocities": [[240, 0]] * 5}))
    capsys.readouterr()
    assert main(["simulate", str(path), "--input", str(replay)]) == 0
    trace = json.loads(capsys.readouterr().out)
    assert trace["positions"][0] == [far + 24, far] and trace["positions"][-1][0] < far + 40 - 8 + 1e-6


# --- nesting -------------------------------------------------------------------------------------------------------


def nested(depth: int):
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [150, 600, 990])
@pytest.mark.parametrize("version", [1, 2])
def test_custom_data_nested_deep_loads_or_is_refused_naming_its_key(depth, version):
    data = level(dict(box(), mine=nested(depth)))
    data["version"] = version
    if depth <= limits.MAX_NESTING:
        loaded = parse_level(copy.deepcopy(data))
        assert loads_level(dumps_level(loaded)) == loaded  # saved and read back
    else:
        assert problems(data) == [f"box-1: custom data 'mine' is nested deeper than {limits.MAX_NESTING} levels "
                                  f"(the most a level file may nest)"]


@pytest.mark.parametrize("depth", [1100, 5000, 100_000])
@pytest.mark.parametrize("version", [0, 1, 2])
def test_text_nested_deeper_than_python_reads_is_a_problem_with_line_and_column(depth, version):
    text = ('{"format": "level-editor.level", "version": %d, "layers": [{"id": "main", "name": "Main"}],\n'
            '"player": {"spawn": [0, 0], "radius": 8}, "objects": [],\n"mine": %s%s}' % (version, "[" * depth,
                                                                                     "]" * depth))
    with pytest.raises(LevelFileError) as e:
        loads_level(text)
    assert [str(p) for p in e.value.problems] == [
        "-: custom data nested deeper than 200 levels at line 3, column 209 (the most a level file may nest)"]
    assert not e.value.unreadable


def test_migrating_deep_custom_data_copies_nothing_deep():
    data = level(dict(box(), mine=nested(50_000)))
    data["version"] = 1
    assert migrate(data)["objects"][0]["mine"] is data["objects"][0]["mine"]


# --- reading: regular files only, never blocking, never too much ---------------------------------------------------


def test_a_named_pipe_without_a_writer_is_refused_at_once(tmp_path):
    fifo = tmp_path / "level.json"
    os.mkfifo(fifo)
    with never_waits_on(fifo), pytest.raises(LevelFileError) as e:
        load_level(fifo)
    assert e.value.unreadable and [str(p) for p in e.value.problems] == ["-: is a named pipe, not a level file"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_unread(device):
    with pytest.raises(LevelFileError) as e:
        read_file_bytes(device, "replay")
    assert e.value.reason == "is a device, not a replay"


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 5000)
    monkeypatch.setattr(os, "read", lambda *a: pytest.fail("read a file over the limit"))
    with pytest.raises(LevelFileError) as e:
        read_file_bytes(path, "level file", limit=4096)
    assert e.value.reason == "is 5000 bytes, more than the 4096 bytes a level file may be; refused"
    assert reading.mib(limits.MAX_FILE_BYTES) == "256 MiB"


def test_the_head_of_a_large_file_may_be_read(tmp_path):
    path = tmp_path / "copy.json"
    path.write_bytes(b"{}\n" + b" " * 10_000)
    assert read_file_bytes(path, "recovery copy", limit=100, head=3) == b"{}\n"


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "folder"])
def test_every_command_refuses_special_files_with_exit_2_and_one_line(tmp_path, special):
    if special == "fifo":
        special = tmp_path / "x.json"
        os.mkfifo(special)
    elif special == "folder":
        special = tmp_path
    good = ROOT / "levels" / "room_with_door.json"
    out = tmp_path / "out.json"
    calls = [["check", special], ["export", special, "-o", out], ["simulate", special, "--input", special],
             ["simulate", good, "--input", special], ["import", special, "-o", out]]
    for call in calls:
        r = subprocess.run([sys.executable, "-m", "level_editor.core.cli", *map(str, call)], capture_output=True, text=True,
                           timeout=60, cwd=ROOT)
        lines = (r.stdout + r.stderr).splitlines()
        assert r.returncode == 2 and len(lines) == 1 and "Traceback" not in lines[0], (call, r)
        assert any(w in lines[0] for w in ("named pipe", "device", "folder")), lines
    assert not out.exists()


# --- the whole path, for numbers across the float range ------------------------------------------------------------


anything = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**400), 10**400),
                     st.sampled_from([1e7, -1e7, 1e7 + 1e-9, 1e-6, 5e-324, 1.7976931348623157e308]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(anything, min_size=9, max_size=9), st.sampled_from(["box", "circle", "oriented_box", "wall"]))
def test_any_numbers_give_a_level_that_checks_exports_and_simulates_or_a_clear_refusal(tmp_path, capsys, n, kind):
    shapes = {
        "box": {"origin": [n[0], n[1]], "size": [n[2], n[3]]},
        "circle": {"center": [n[0], n[1]], "radius": n[2]},
        "oriented_box": {"center": [n[0], n[1]], "half_extents": [n[2], n[3]], "rotation": n[4]},
        "wall": {"points": [[n[0], n[1]], [n[2], n[3]], [n[4], n[5]]], "thickness": n[6]},
    }
    data = level(dict({"id": "thing", "kind": kind, "layer": "main"}, **shapes[kind]), spawn=[n[7], n[8]])
    path = tmp_path / "level.json"
    path.write_text(json.dumps(data))
    code = main(["check", str(path)])
    out = capsys.readouterr().out
    assert "Traceback" not in out and code in (0, 1)
    if code == 1 and any(w in out for w in ("beyond the limit", "larger than the largest", "smaller than the")):
        return
    replay = tmp_path / "r.json"
    replay.write_text(json.dumps({"format": "level-editor.replay", "version": 1, "dt": 1 / 60,
                                  "velocities": [[1e6, -1e6], [240, 0]]}))
    assert main(["export", str(path), "-o", str(tmp_path / "out.json")]) in (0, 1)
    assert main(["export", str(path), "-o", str(tmp_path / "out.tmx")]) in (0, 1)
    assert main(["simulate", str(path), "--input", str(replay), "-o", str(tmp_path / "t.json")]) in (0, 2)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
