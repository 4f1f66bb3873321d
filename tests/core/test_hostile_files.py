"""Hostile files through the whole headless path: ``check``, ``export`` (.json and .tmx), ``simulate`` and ``import``.

Issue 14 item 7. Every file here is made by :func:`hostile_corpus` inside the test's temporary folder (nothing big
is committed): numbers across the whole float range, wrong types everywhere, deep nesting, a 300,000-node wall, walls
whose nodes are all one point, a named pipe, a folder, ``/dev/zero``, a sparse file over the size limit, truncated
JSON, a byte order mark, duplicate keys and huge strings. For each, every command ends as CONTRACT.md section 2 says:
the documented exit code, a message of one line per problem that names the object where there is one, never a
traceback, never a hang. tests/editor/documents/test_hostile_opens.py opens the same corpus in the editor's window.
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import signal
import stat
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from level_editor.core.cli import main
from level_editor.core.level.limits import MAX_FILE_BYTES
from tests.benchmarks.bench_validation import dense_wall

ROOT = Path(__file__).resolve().parents[2]

#: A command still running after this many seconds is taken to hang (on a pipe, on /dev/zero): the bound only
#: ends the wait, it is no speed requirement (bench_validation and bench_files time the big files).
HANG_SECONDS = 60.0

#: A small valid level of format version 2, with an object of each kind the collision core knows.
BASE_V2 = {
    "format": "level-editor.level", "version": 2, "name": "Hostile", "grid": 16, "properties": {}, "types": [],
    "layers": [{"id": "main", "name": "Main", "visible": True, "locked": False}],
    "player": {"spawn": [48, 48], "shape": "circle", "radius": 12, "speed": 240},
    "objects": [
        {"id": "wall-1", "kind": "wall", "layer": "main", "points": [[0, 200], [160, 200], [160, 320]],
         "thickness": 8, "closed": False},
        {"id": "box-1", "kind": "box", "layer": "main", "origin": [240, 80], "size": [64, 32]},
        {"id": "obox-1", "kind": "oriented_box", "layer": "main", "center": [400, 240], "half_extents": [40, 10],
         "rotation": 30},
        {"id": "pillar-1", "kind": "circle", "layer": "main", "center": [240, 320], "radius": 16},
    ],
    "hulls": {},
}


def _v1(doc: dict) -> dict:
    """The same level as format version 1 (no layers, no layer on the objects)."""
    doc = copy.deepcopy(doc)
    doc["version"] = 1
    for key in ("properties", "types", "layers"):
        doc.pop(key, None)
    for obj in doc["objects"]:
        obj.pop("layer", None)
    return doc


BASE_V1 = _v1(BASE_V2)

REPLAY = {"format": "level-editor.replay", "version": 1, "dt": 1 / 60,
          "velocities": [[240, 0], [0, 240], [-1e6, 3e5], [0, 0]]}

#: What a hostile file must do (CONTRACT.md section 2), as exit codes of (check, export, simulate):
#: "loads" (a valid level), "invalid" (a level that loads but that check finds errors in: nothing is exported, the
#: play-test still runs), "problems" (JSON that is not a valid level) or "unreadable" (not a readable JSON file).
LOADS, INVALID, PROBLEMS, UNREADABLE = "loads", "invalid", "problems", "unreadable"
EXITS = {LOADS: (0, 0, 0), INVALID: (1, 1, 0), PROBLEMS: (1, 1, 2), UNREADABLE: (2, 2, 2)}


@dataclass
class Hostile:
    """One hostile file: how to make it, what it must do, and the object its messages must name (if any)."""

    name: str
    make: Callable[[Path], None]
    outcome: str
    names: Optional[str] = None  # an object id that check's error line must name
    marks: list = field(default_factory=list)


def _json(doc, **kwargs) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_text(json.dumps(doc, allow_nan=True, **kwargs), encoding="utf-8")
    return make


def _text(text: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(text, encoding="utf-8")


def _bytes(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def _with(base: dict, index: Optional[int], **changes) -> dict:
    """``base`` with one object's (or, without ``index``, the level's) keys changed; ``None`` deletes a key."""
    doc = copy.deepcopy(base)
    target = doc if index is None else doc["objects"][index]
    for key, value in changes.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = value
    return doc


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _deep(base: dict, depth: int) -> Callable[[Path], None]:
    """``base`` with ``depth`` nested arrays in an unknown top-level key (written by hand: json.dumps recurses)."""
    text = json.dumps(base)
    return _text(text[:-1] + f', "game_data": {_nested(depth)}}}')


def _long_wall(nodes: int) -> dict:
    """A level whose one wall is ``nodes`` nodes a pixel apart, stepping 20 px every 500, far from the spawn."""
    points = [[1000 + i, 1000 + (i // 500) % 2 * 20] for i in range(nodes)]
    return _with(BASE_V2, None, objects=[{"id": "long-wall", "kind": "wall", "layer": "main", "points": points,
                                          "thickness": 2, "closed": False}])


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _sparse_over_limit(path: Path) -> None:
    with open(path, "wb") as f:
        f.write(b'{"format": "level-editor.level", "version": 2, "name": "big", "pad": "')
        f.truncate(MAX_FILE_BYTES + 1)


def hostile_corpus() -> list[Hostile]:
    """Every hostile file of the fuzz, made on demand (``make(path)``) so nothing big lives in the repository."""
    v2, v1 = BASE_V2, BASE_V1
    valid = json.dumps(v2)
    cases = [
        # numbers across the whole float range
        Hostile("coordinate-1e308", _json(_with(v2, 1, origin=[1e308, 80])), PROBLEMS, "box-1"),
        Hostile("coordinate-minus-1e308-v1", _json(_with(v1, 3, center=[240, -1e308])), PROBLEMS, "pillar-1"),
        Hostile("size-1e-320", _json(_with(v2, 1, size=[1e-320, 32])), PROBLEMS, "box-1"),
        Hostile("radius-5e-324", _json(_with(v2, 3, radius=5e-324)), PROBLEMS, "pillar-1"),
        Hostile("thickness-1e308", _json(_with(v2, 0, thickness=1e308)), PROBLEMS, "wall-1"),
        Hostile("negative-zero", _json(_with(v2, 1, origin=[-0.0, -0.0])), LOADS),
        # each number within the limits, the far corner past them (1.8e7): the loader takes it, as Tiled would
        Hostile("origin-plus-size-past-the-limit", _json(_with(v2, 1, origin=[9e6, 9e6], size=[9e6, 9e6])), LOADS),
        Hostile("origin-plus-size-float-overflow", _json(_with(v2, 1, origin=[1.7e308, 0], size=[1.7e308, 1])),
                PROBLEMS, "box-1"),
        Hostile("nan-and-infinity", _json(_with(v2, 2, center=[float("nan"), float("inf")])), PROBLEMS, "obox-1"),
        Hostile("rotation-1e308", _json(_with(v2, 2, rotation=1e308)), LOADS),  # any finite angle turns
        Hostile("integer-beyond-float", _text(valid.replace('"radius": 16', '"radius": ' + "9" * 400)),
                PROBLEMS, "pillar-1"),
        Hostile("player-speed-1e308", _json(_with(v2, None, player={**v2["player"], "speed": 1e308})), PROBLEMS),
        Hostile("grid-1e-320", _json(_with(v2, None, grid=1e-320)), PROBLEMS),
        # wrong types everywhere
        Hostile("points-a-string", _json(_with(v2, 0, points="0,0 1,1")), PROBLEMS, "wall-1"),
        Hostile("points-of-strings", _json(_with(v2, 0, points=[["0", "0"], ["1", "1"]])), PROBLEMS, "wall-1"),
        Hostile("thickness-a-string", _json(_with(v2, 0, thickness="8")), PROBLEMS, "wall-1"),
        Hostile("closed-a-string", _json(_with(v2, 0, closed="yes")), PROBLEMS, "wall-1"),
        Hostile("size-an-object", _json(_with(v2, 1, size={"w": 1, "h": 2})), PROBLEMS, "box-1"),
        Hostile("size-three-numbers", _json(_with(v2, 1, size=[1, 2, 3])), PROBLEMS, "box-1"),
        Hostile("size-a-boolean-pair", _json(_with(v2, 1, size=[True, True])), PROBLEMS, "box-1"),
        Hostile("half-extents-null", _json(_with(v2, 2, half_extents=[None, None])), PROBLEMS, "obox-1"),
        Hostile("id-a-number", _json(_with(v2, 3, id=5)), PROBLEMS),
        Hostile("kind-a-list", _json(_with(v2, 3, kind=["circle"])), PROBLEMS, "pillar-1"),
        Hostile("layer-a-number", _json(_with(v2, 1, layer=3)), PROBLEMS, "box-1"),
        Hostile("objects-an-object", _json(_with(v2, None, objects={"a": 1})), PROBLEMS),
        Hostile("object-a-string", _json(_with(v2, None, objects=["box"])), PROBLEMS),
        Hostile("player-a-list", _json(_with(v2, None, player=[1, 2])), PROBLEMS),
        Hostile("layers-a-number", _json(_with(v2, None, layers=3)), PROBLEMS),
        Hostile("name-a-number", _json(_with(v2, None, name=7)), PROBLEMS),
        Hostile("version-a-string", _json(_with(v2, None, version="2")), PROBLEMS),
        Hostile("version-99", _json(_with(v2, None, version=99)), PROBLEMS),
        Hostile("properties-a-list", _json(_with(v2, None, properties=[1])), PROBLEMS),
        Hostile("a-json-array", _text("[1, 2, 3]"), PROBLEMS),
        Hostile("a-json-string", _text('"level"'), PROBLEMS),
        Hostile("json-null", _text("null"), PROBLEMS),
        # deep nesting in an unknown key (the game's own data)
        Hostile("nesting-600-v2", _deep(v2, 600), PROBLEMS),
        Hostile("nesting-600-v1", _deep(v1, 600), PROBLEMS),
        Hostile("nesting-100000-v2", _deep(v2, 100_000), PROBLEMS),
        Hostile("nesting-100000-v1", _deep(v1, 100_000), PROBLEMS),
        # huge node counts and degenerate walls
        Hostile("wall-300000-nodes", _json(_long_wall(300_000)), LOADS),
        Hostile("wall-all-one-point", _json(_with(v2, 0, points=[[50, 250]] * 1000)), INVALID, "wall-1"),
        Hostile("closed-wall-all-one-point-v1", _json(_with(v1, 0, points=[[50, 250]] * 3, closed=True)),
                INVALID, "wall-1"),
        Hostile("wall-one-node", _json(_with(v2, 0, points=[[0, 0]])), PROBLEMS, "wall-1"),
        # things that are not level files
        Hostile("named-pipe", _fifo, UNREADABLE),
        Hostile("folder", _folder, UNREADABLE),
        Hostile("dev-zero", _dev_zero, UNREADABLE),
        Hostile("over-the-size-limit", _sparse_over_limit, UNREADABLE),
        Hostile("empty-file", _bytes(b""), UNREADABLE),
        Hostile("truncated-json", _text(valid[: len(valid) // 2]), UNREADABLE),
        Hostile("truncated-in-a-string", _text(valid[: valid.index("wall-1") + 3]), UNREADABLE),
        Hostile("not-utf8", _bytes(b'{"format": "level-editor.level", "name": "\xff\xfe\x80"}'), UNREADABLE),
        Hostile("nul-bytes", _bytes(b"\x00" * 4096), UNREADABLE),
        Hostile("utf8-bom", _bytes(b"\xef\xbb\xbf" + valid.encode()), LOADS),
        Hostile("utf16-bom", _bytes(b"\xff\xfe" + valid.encode("utf-16-le")), UNREADABLE),
        Hostile("duplicate-keys", _text(valid.replace('"radius": 16', '"radius": 16, "radius": -1')),
                PROBLEMS, "pillar-1"),
        Hostile("duplicate-ids", _json(_with(v2, 1, id="wall-1")), PROBLEMS, "wall-1"),
        Hostile("huge-string-id", _json(_with(v2, 1, id="b" * 2_000_000)), LOADS),
        Hostile("huge-string-name", _json(_with(v2, None, name="n" * 5_000_000)), LOADS),
        Hostile("huge-string-in-unknown-key", _json(_with(v2, None, game_data="x" * 20_000_000)), LOADS),
        Hostile("lone-surrogate", _text(valid.replace('"Hostile"', '"\\ud800"')), LOADS),
    ]
    return cases


CORPUS = hostile_corpus()


def make_file(folder: Path, case: Hostile) -> Path:
    path = folder / f"{case.name}.json"
    case.make(path)
    return path


def run_cli(argv: list[str], seconds: float = HANG_SECONDS) -> tuple[int, str]:
    """``level_editor.core.cli.main(argv)`` in process: (exit code, everything it printed).

    Run on a thread, so a command that blocks (a pipe opened for reading, a device read for ever) fails the
    test after ``seconds`` instead of hanging it; a blocked reader of a named pipe is let go by opening the pipe
    for writing.
    """
    out, err = io.StringIO(), io.StringIO()
    result: dict = {}

    def run() -> None:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                result["code"] = main(argv)
            except BaseException as e:  # noqa: BLE001 - recorded and failed below
                result["raised"] = e

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        for arg in argv:  # a reader blocked on a pipe: give it an end of file
            if os.path.exists(arg) and stat.S_ISFIFO(os.stat(arg).st_mode):
                os.close(os.open(arg, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(30)
        pytest.fail(f"{argv} did not finish within {seconds} s: it hangs")
    if "raised" in result:
        raise AssertionError(f"{argv} raised {result['raised']!r}") from result["raised"]
    return result["code"], out.getvalue() + err.getvalue()


def assert_clean_message(argv, said: str) -> None:
    """No traceback, no catch-all failure, and every line of one-line size (never a whole file echoed)."""
    assert "Traceback" not in said, (argv, said[:2000])
    assert " failed: " not in said, (argv, said[:2000])  # level_editor.core.cli's catch-all: an unforeseen exception
    for line in said.splitlines():
        assert len(line) < 2000, (argv, line[:300] + "…")


def _id(case: Hostile):
    return pytest.param(case, id=case.name, marks=case.marks)


@pytest.fixture(scope="module")
def replay_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "replay.json"
    path.write_text(json.dumps(REPLAY))
    return path


@pytest.mark.parametrize("case", [_id(c) for c in CORPUS])
def test_hostile_file_through_check_export_simulate_and_import(tmp_path, replay_path, case):
    path = make_file(tmp_path, case)
    said_all = []
    check, export, simulate = EXITS[case.outcome]
    runs = [
        (["check", str(path)], check),
        (["export", str(path), "-o", str(tmp_path / "out.json")], export),
        (["export", str(path), "-o", str(tmp_path / "out.tmx")], export),
        (["simulate", str(path), "--input", str(replay_path), "-o", str(tmp_path / "trace.json")], simulate),
    ]
    for argv, expected in runs:
        code, said = run_cli(argv)
        assert_clean_message(argv, said)
        assert code == expected, (case.name, argv[0], code, said[:2000])
        if code != 0:
            assert said.strip(), (case.name, argv[0], "no message")
            if case.names is not None:  # every command that refuses it says which object is at fault
                assert case.names in said, (case.name, argv[0], said[:2000])
        said_all.append(said)
        if argv[0] == "export" and code != 0:
            assert not Path(argv[-1]).exists(), (case.name, "a failed export wrote its output")
        if argv[0] == "simulate" and code == 0:
            trace = json.loads((tmp_path / "trace.json").read_text())
            assert len(trace["positions"]) == len(REPLAY["velocities"])
    if case.names is not None:  # the object is named in check's words: "PATH: OBJECT-ID: error: message"
        assert any(f": {case.names}: error: " in line for line in said_all[0].splitlines()), said_all[0][:2000]
    # the same file given as a Tiled map: refused in words (it is not a map), exit 2, never a traceback
    tiled = path
    if path.is_file() and not path.is_symlink():
        tiled = tmp_path / f"{case.name}-as-map.tmj"
        os.link(path, tiled)
    argv = ["import", str(tiled), "-o", str(tmp_path / "imported.json")]
    code, said = run_cli(argv)
    assert_clean_message(argv, said)
    assert code == 2, (case.name, "import", code, said[:2000])
    assert said.strip()
    assert not (tmp_path / "imported.json").exists()


def _dense_zig_zag(nodes: int) -> dict:
    """One wall of ``nodes`` nodes, half a pixel apart in x and 40 px up and down, 2 px thick (never crossing)."""
    return _dense_wall("zig-zag 0.5 px", nodes)


def _dense_wall(shape: str, nodes: int) -> dict:
    """One wall of ``nodes`` nodes, 2 px thick, of one of the benchmark's dense shapes (``--dense``)."""
    points, closed = dense_wall(shape, nodes)
    return _with(BASE_V2, None, objects=[{"id": "dense-wall", "kind": "wall", "layer": "main", "points": points,
                                          "thickness": 2, "closed": closed}])


def _cap_memory() -> None:
    """In the child: at most 3 GB of address space, so the run cannot take the shared machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))


#: A dense wall's command may take this many seconds of CPU (the kernel stops it there: the limit holds however
#: busy the shared machine is). Measured 1 to 9 CPU seconds each at 300,000 nodes on the shared machine (two
#: cores, load 9 to 10, which slows CPU seconds too); pairing every near segment (before issue 14) took 10 to 50
#: CPU seconds and more, or ran out of memory under the cap (which the exit code and the words catch too).
DENSE_CPU_SECONDS = 20

#: ... and this many seconds of wall clock, against a hang only (on a busy machine a CPU second takes five).
DENSE_WALL_SECONDS = 300


def _cap_dense() -> None:
    """In the child: the memory cap and :data:`DENSE_CPU_SECONDS` of CPU."""
    import resource

    _cap_memory()
    resource.setrlimit(resource.RLIMIT_CPU, (DENSE_CPU_SECONDS, DENSE_CPU_SECONDS + 5))


def _run_capped(argv: list[str]) -> subprocess.CompletedProcess:
    """``level-editor ARGV`` in a process of its own under the memory and CPU caps (see :func:`_cap_dense`)."""
    try:  # a process of its own, killed at the limits (a thread could not be stopped)
        done = subprocess.run([sys.executable, "-c", "import sys; from level_editor.core.cli import main; sys.exit(main())",
                               *argv], cwd=ROOT, capture_output=True, text=True, timeout=DENSE_WALL_SECONDS,
                              preexec_fn=_cap_dense)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{argv} did not finish within {DENSE_WALL_SECONDS} s")
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        pytest.fail(f"{argv} took more than {DENSE_CPU_SECONDS} s of CPU")
    return done


def test_a_dense_300000_node_wall_checks_in_seconds(tmp_path):
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(_dense_zig_zag(300_000)))
    argv = ["check", str(path)]
    done = _run_capped(argv)
    assert_clean_message(argv, done.stdout + done.stderr)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok (1 object, 0 warnings)" in done.stdout  # every segment overlaps the next ones: no room anywhere


#: The dense walls of 300,000 nodes, 2 px thick, around the default 24 px player: what export says of each (its
#: exit code and words of its report; no words: no problem at all). Export runs the very check ``check`` runs
#: (check_level) and prints its problems, then makes the hulls and writes the level: one command covers both.
DENSE_SHAPES = {
    "zig-zag 2 px": (0, []),
    "random walk": (0, ["this wall crosses itself", "comes within", "more narrow passages within this wall"]),
    "spiral": (0, ["comes within 1 px of itself"]),
    "back and forth": (0, ["this wall crosses itself near (1005, 1000)"]),  # its first run touches its third
    "closed circle": (0, []),
    "comb": (0, ["comes within 2 px of itself"]),
    "every node twice": (1, ["dense-wall: error: segment 1 has zero length", "more segments have zero length"]),
    "one point": (1, ["dense-wall: error: segment 1 has zero length", "more segments have zero length"]),
}


@pytest.mark.parametrize("shape", list(DENSE_SHAPES))
def test_a_dense_300000_node_wall_checks_and_exports_in_seconds(tmp_path, shape):
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(_dense_wall(shape, 300_000)))
    code, words = DENSE_SHAPES[shape]
    out = tmp_path / "out.json"
    argv = ["export", str(path), "-o", str(out)]
    done = _run_capped(argv)
    said = done.stdout + done.stderr
    assert_clean_message(argv, said)
    assert done.returncode == code, said
    for word in words:
        assert word in said, said
    if not words:
        assert said == "", said
    assert len(said.splitlines()) <= 25, said  # a wall's passages with itself beyond 10 are one line
    if code == 0:
        written = json.loads(out.read_text())
        assert len(written["objects"][0]["points"]) == 300_000 and written["hulls"], said
    else:
        assert not out.exists()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["box-1", "pillar-1", "obox-1", "wall-1"]),
       st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e308, -1e308, 1e-320, 5e-324, -0.0]),
       st.booleans())
def test_any_float_in_any_number_checks_in_one_line_naming_the_object(tmp_path_factory, object_id, number, v1):
    """Hypothesis: one number of one object replaced by any float; check ends 0 or 1 and never fails otherwise."""
    doc = copy.deepcopy(BASE_V1 if v1 else BASE_V2)
    obj = next(o for o in doc["objects"] if o["id"] == object_id)
    key = {"box-1": "size", "pillar-1": "radius", "obox-1": "rotation", "wall-1": "points"}[object_id]
    if key == "size":
        obj["size"] = [number, 32]
    elif key == "points":
        obj["points"][1] = [number, 200]
    else:
        obj[key] = number
    folder = tmp_path_factory.mktemp("float")
    path = folder / "level.json"
    path.write_text(json.dumps(doc, allow_nan=True))
    code, said = run_cli(["check", str(path)])
    assert_clean_message(["check"], said)
    assert code in (0, 1), said
    if code == 1:
        assert any(object_id in line for line in said.splitlines()), said
