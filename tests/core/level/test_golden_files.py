"""Golden files: every writer path gives the same bytes, every reader path the same level and the same refusals.

``golden/every_kind.json`` is a level with every kind of object, properties, references, types, custom data,
non-solid objects, numbers that are hard to write (0.1 + 0.2, -0.0, 1e-06, 2**53 + 1), a lone surrogate, a long
wall and its hulls; ``golden/refusals.json`` holds the problems of several hundred broken copies of it (each field
of each kind missing, of the wrong type, not finite, negative, too large; unknown kinds, duplicate ids, bad layers,
types, properties and references, a broken player). Both were written by the file format before it followed one
description per kind (issue 22), and are the format's promise: same bytes, same messages, whichever path.

Regenerate them only when the format changes on purpose (a new version), and review the diff:

    python -m tests.core.level.test_golden_files --write
"""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from level_editor.core.checks.check import level_hulls_only
from level_editor.core.level.file_format import (
    LevelFileError, dumps_json, dumps_level, level_blocks, load_level, loads_level, object_to_dict, parse_level,
    save_level,
)
from level_editor.core.level.format import read, write
from level_editor.core.level.format.fields import PLAYER_SETTINGS
from level_editor.core.level.motion import MovePath
from level_editor.core.level.model import (
    Box, Image, Layer, Level, ObjectType, OrientedBox, Pillar, Player, Point, Ref, Tiles, Wall,
)

GOLDEN = Path(__file__).resolve().parent / "golden"
LEVEL_FILE = GOLDEN / "every_kind.json"
REFUSALS_FILE = GOLDEN / "refusals.json"


def every_kind_level() -> Level:
    """The golden level, built from the model (so the writer is tested on objects it did not read)."""
    long_wall = [(i * 3.25, (i % 7) * 0.1 - 40.0) for i in range(1000)]
    objects = (
        Image("backdrop", "art/demo ü.png", (0, 0), 0.5, 0.25, layer="art"),
        Wall("wall-1", [(0, 0), (320, 0), (320, 240)], 8, layer="walls"),
        Wall("ring", [(0.1 + 0.2, -0.0), (1e-06, 50), (40, 50.5)], 2.5, True, layer="walls", solid=False),
        Box("box-1", (100, 100), (64, 32), layer="walls"),
        Box("gate", (240, 96), (8, 48), layer="walls", type="door", properties={"opened_by": Ref("lever")}),
        Box("exit", (280, 200), (32, 32), layer="things", type="exit_zone", solid=False),
        OrientedBox("obox-1", (200, 150), (40, 10), 30, layer="walls"),
        OrientedBox("spin", (-500.125, 7), (1 / 3, 2e-06), -720.5, layer="walls",
                    extra={"material": {"friction": 0.2, "tags": ["ice", None]}}),
        Pillar("pillar-1", (260, 60), 16, layer="walls"),
        Pillar("lamp", (10, 10), 1e-06, layer="things", type="lamp", solid=False, extra={"glow": [1, {"x": None}]}),
        Tiles("tiles-1", (0, 256), 16, ("##....##", "########"), layer="walls"),
        Tiles("water", (-64, 300.5), 8.5, ("..##", "####"), layer="things", solid=False),
        Point("goblin-1", (200, 80), layer="things", type="enemy",
              properties={"health": 5, "name": "Gob ü 箱", "boss": True, "big": 2**53 + 1, "ratio": 3.0,
                          "home": Ref("")}),
        Point("lever", (40, 200), layer="things"),
        Point("kiste-\ud800", (1e7, -1e7), layer="things", type="t\udfff"),
        Wall("long", long_wall, 3, layer="walls"),
        Box("lift", (400, 300), (96, 16), layer="walls", one_way=True, path=MovePath(((0, 0), (0, -160)), 60)),
        Pillar("saw", (500, 100.5), 12, layer="walls", path=MovePath(((0, 0), (40, 0), (40, 40.25)), 30.5, "loop")),
        OrientedBox("ramp", (600, 200), (48, 4), -30, layer="walls", one_way=True),
    )
    return Level(
        name="Every kind ü 箱 \U0001F600", grid=8.5,
        player=Player(spawn=(64, 64), shape="box", radius=9, size=(20, 30), speed=180.5, extra={"skin": "blue"},
                      controller="platformer", jump_height=96, acceleration=2000.5, floor_max_angle=50),
        objects=objects,
        extra={"game": {"music": "a.ogg", "n": [1, 2.5, None, True]}, "author": "ann"},
        layers=(Layer("art", "Art", True, True), Layer("walls", "Walls"), Layer("things", "Things", False, False,
                                                                                   {"tint": "#ff0000"})),
        types=(ObjectType("enemy", "#e0503c", {"health": 3, "speed": 1.5}),
               ObjectType("door", "#3c8ce0", {"opened_by": Ref("")}, {"sound": "creak"})),
        properties={"music": "theme.ogg", "time_limit": 90, "night": False, "ratio": 0.1, "start": Ref("lever")},
    )


# --- the broken copies -----------------------------------------------------------------------------------------

#: Wrong values, each meeting a different check somewhere (type, pair, nodes, cells, sign, limits, finiteness).
BAD_VALUES = {
    "null": None, "text": "x", "blank": " ", "true": True, "object": {}, "pair with text": [1, "a"],
    "three numbers": [1, 2, 3], "minus one": -1, "zero": 0, "tiny": 5e-324, "beyond the limit": 2e7,
    "too many digits": 10**400, "NaN": float("nan"), "infinity": float("inf"), "one node": [[0, 0]],
    "node beyond the limit": [[0, 0], [1e100, 1]], "bad cell": ["#x"], "uneven rows": ["##", "#"],
    "one and a half": 1.5, "bad reference": {"ref": 5},
}


def _small_document() -> dict:
    """The golden level's JSON without the long wall and the hulls (broken copies of it stay small)."""
    doc = json.loads(LEVEL_FILE.read_text(encoding="utf-8"))
    doc["objects"] = [o for o in doc["objects"] if o["id"] != "long"]
    doc["hulls"] = {}
    return doc


def broken_copies() -> dict[str, dict]:
    """Each broken copy of the golden level, by a name that says what is broken."""
    base = _small_document()
    out = {"nothing broken": base}

    def changed(change) -> dict:
        doc = copy.deepcopy(base)
        change(doc)
        return doc

    first_of_each_kind = {o["kind"]: i for i, o in reversed(list(enumerate(base["objects"])))}
    for i in sorted(first_of_each_kind.values()):
        obj = base["objects"][i]
        for key in dict.fromkeys(list(obj) + ["solid", "properties", "mystery"]):
            if key in obj:
                out[f"{obj['id']}: {key} missing"] = changed(lambda d: d["objects"][i].pop(key))
            for name, value in BAD_VALUES.items():
                out[f"{obj['id']}: {key} {name}"] = changed(lambda d: d["objects"][i].__setitem__(key, value))
        out[f"{obj['id']}: not an object"] = changed(lambda d: d["objects"].__setitem__(i, [obj["id"]]))
        if i:
            out[f"{obj['id']}: id of the one before"] = changed(
                lambda d: d["objects"][i].__setitem__("id", base["objects"][i - 1]["id"]))
        out[f"{obj['id']}: on a layer that does not exist"] = changed(
            lambda d: d["objects"][i].__setitem__("layer", "nowhere"))
    for kind in ("triangle", 3, None, ["box"]):
        out[f"box-1: kind {kind!r}"] = changed(lambda d: d["objects"][3].__setitem__("kind", kind))
    lift = next(i for i, o in enumerate(base["objects"]) if o["id"] == "lift")
    bad_paths = {"one point": {"points": [[0, 0]], "speed": 1}, "speed zero": {"points": [[0, 0], [1, 1]], "speed": 0},
                 "mode sideways": {"points": [[0, 0], [1, 1]], "speed": 1, "mode": "sideways"},
                 "no speed": {"points": [[0, 0], [1, 1]]}, "a stranger": {"points": [[0, 0], [1, 1]], "speed": 1,
                                                                          "wait": 2}}
    for name, value in list(BAD_VALUES.items()) + list(bad_paths.items()):
        out[f"lift: path {name}"] = changed(lambda d: d["objects"][lift].__setitem__("path", value))
    for name in ("null", "text", "zero"):
        out[f"lift: one_way {name}"] = changed(lambda d: d["objects"][lift].__setitem__("one_way", BAD_VALUES[name]))
    for kind, key in (("circle", "one_way"), ("point", "one_way"), ("point", "path"), ("image", "one_way")):
        i = first_of_each_kind[kind]
        out[f"{base['objects'][i]['id']}: {key} on a {kind}"] = changed(
            lambda d: d["objects"][i].__setitem__(key, True))
    for key in ("spawn", "shape", "radius", "size", "speed", "controller") + tuple(s.name for s in PLAYER_SETTINGS):
        out[f"player: {key} missing"] = changed(lambda d: d["player"].pop(key, None))
        for name, value in list(BAD_VALUES.items()) + [("circle", "circle"), ("triangle", "triangle"),
                                                        ("top_down", "top_down"), ("ninety", 90)]:
            out[f"player: {key} {name}"] = changed(lambda d: d["player"].__setitem__(key, value))
    for section in ("layers", "types"):
        for i, item in enumerate(base[section]):
            for key in list(item) + ["mystery"]:
                if key in item:
                    out[f"{section}[{i}]: {key} missing"] = changed(lambda d: d[section][i].pop(key))
                for name in ("null", "text", "blank", "true", "object", "NaN"):
                    out[f"{section}[{i}]: {key} {name}"] = changed(
                        lambda d: d[section][i].__setitem__(key, BAD_VALUES[name]))
            out[f"{section}[{i}]: twice"] = changed(lambda d: d[section].append(copy.deepcopy(d[section][i])))
    for key in ("format", "version", "name", "grid", "properties", "types", "layers", "player", "objects", "game"):
        out[f"top: {key} missing"] = changed(lambda d: d.pop(key))
        for name in ("null", "text", "true", "object", "zero", "beyond the limit", "NaN", "too many digits"):
            out[f"top: {key} {name}"] = changed(lambda d: d.__setitem__(key, BAD_VALUES[name]))
    return out


def _outcome(read_it):
    """True when the level loads, else its problems, one string each."""
    try:
        read_it()
    except LevelFileError as e:
        return [str(p) for p in e.problems]
    return True


def refusals() -> dict:
    """What loading each broken copy gives (through the standard library's reader and the model checks)."""
    return {name: _outcome(lambda: parse_level(copy.deepcopy(doc), "golden.json"))
            for name, doc in broken_copies().items()}


# --- the tests -------------------------------------------------------------------------------------------------


def test_every_writer_path_writes_the_golden_bytes(tmp_path, monkeypatch):
    golden = LEVEL_FILE.read_bytes()
    level = every_kind_level()
    hulls = level_hulls_only(level).hulls  # as a save computes them: arrays that write themselves
    assert dumps_level(level, hulls).encode("utf-8") == golden
    assert b"".join(b if isinstance(b, bytes) else b.encode("utf-8") for b in level_blocks(level, hulls)) == golden
    save_level(level, tmp_path / "saved.json", hulls)
    assert (tmp_path / "saved.json").read_bytes() == golden
    as_dict = json.loads(golden)["hulls"]  # a plain dict of hulls: written by msgspec
    assert dumps_level(level, as_dict).encode("utf-8") == golden
    monkeypatch.setattr(write, "_OBJECTS_PER_BLOCK", 3)  # block boundaries between objects change nothing
    assert dumps_level(level, hulls).encode("utf-8") == golden


def test_each_object_s_line_is_its_dict_written_on_one_line():
    """The line writer (written out from the description) and the dict writer give the same text, object by object."""
    lines = LEVEL_FILE.read_text(encoding="utf-8").splitlines()
    start = lines.index('  "objects": [') + 1
    level = every_kind_level()
    written = [line.strip().rstrip(",") for line in lines[start:start + len(level.objects)]]
    assert written == [dumps_json(object_to_dict(o)) for o in level.objects]


def test_every_reader_path_reads_the_golden_level(monkeypatch):
    level = every_kind_level()
    text = LEVEL_FILE.read_text(encoding="utf-8")
    found = [load_level(LEVEL_FILE), loads_level(text)]
    monkeypatch.setattr(read, "DECODE_BATCH", 3)
    monkeypatch.setattr(read, "DECODE_BATCH_BYTES", 10)
    found.append(loads_level(text.encode("utf-8")))  # msgspec's decoder, a few objects per batch
    monkeypatch.setattr(read, "_msgspec", None)
    found.append(loads_level(text))  # the checking reader alone
    for got in found:
        assert got == level  # -0.0 was written as 0, equal to it
        assert [repr(o) for o in got.objects] == [repr(o) for o in found[0].objects]  # floats stay floats


@pytest.mark.parametrize("fast", [True, False], ids=["msgspec first", "checking reader alone"])
def test_every_broken_copy_is_refused_with_the_golden_messages(fast, monkeypatch):
    if not fast:
        monkeypatch.setattr(read, "_msgspec", None)
    expected = json.loads(REFUSALS_FILE.read_text(encoding="utf-8"))
    copies = broken_copies()
    assert sorted(copies) == sorted(expected)
    for name, doc in copies.items():
        text = json.dumps(doc, allow_nan=True)
        got = [_outcome(lambda: parse_level(copy.deepcopy(doc), "golden.json")),
               _outcome(lambda: loads_level(text, "golden.json")),
               _outcome(lambda: loads_level(text.encode("utf-8"), "golden.json"))]
        assert got == [expected[name]] * 3, name


def test_the_broken_copies_cover_every_kind_and_both_outcomes():
    expected = json.loads(REFUSALS_FILE.read_text(encoding="utf-8"))
    kinds = {o["kind"] for o in _small_document()["objects"]}
    assert kinds == {"wall", "box", "oriented_box", "circle", "tiles", "point", "image"}
    broken = {name.split(":")[0] for name, outcome in expected.items() if outcome is not True}
    assert {"backdrop", "wall-1", "box-1", "obox-1", "pillar-1", "tiles-1", "goblin-1", "player", "top"} <= broken
    loads = [name for name, outcome in expected.items() if outcome is True]
    assert 50 < len(loads) < len(expected) / 2


def _write() -> None:  # pragma: no cover - run by hand, see the module's docstring
    GOLDEN.mkdir(exist_ok=True)
    level = every_kind_level()
    save_level(level, LEVEL_FILE, level_hulls_only(level).hulls)
    lines = [f"{json.dumps(name)}: {json.dumps(outcome)}" for name, outcome in refusals().items()]
    REFUSALS_FILE.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")  # a case per line
    print(f"wrote {LEVEL_FILE} and {REFUSALS_FILE}")


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] != ["--write"]:
        raise SystemExit(__doc__)
    _write()
