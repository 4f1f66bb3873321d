"""Fuzzing the loader: random and mutated level files give a clear error or a valid level, never a traceback."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from level_editor.core.level.model import Level
from level_editor.core.level.file_format import LevelFileError, dumps_level, load_level, loads_level

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = [json.loads(p.read_text()) for p in sorted((ROOT / "levels").glob("*.json"))]

odd_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -0.0, 1e-320, 5e-324, 1e308, -1e308, 2**63, 2**64 + 1]),
)
json_leaf = st.one_of(st.none(), st.booleans(), numbers, odd_text, st.text(min_size=1000, max_size=5000))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(odd_text, inner, max_size=5)), max_leaves=25)


def _check(text: str) -> None:
    """The loader's whole promise: a Level that survives a round trip, or a LevelFileError with problems."""
    try:
        level = loads_level(text, "fuzz.json")
    except LevelFileError as e:
        assert e.problems and all(p.message for p in e.problems)
        assert str(e)
        return
    assert isinstance(level, Level)
    assert loads_level(dumps_level(level)) == level


def _paths(doc, prefix=()):
    """Every place in a JSON document (for mutation)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


def _set(doc, path, value):
    if not path:
        return value
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return doc


def _delete(doc, path):
    if not path:
        return doc
    node = doc
    for k in path[:-1]:
        node = node[k]
    del node[path[-1]]
    return doc


fuzz = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fuzz
@given(json_value)
def test_arbitrary_json_values(value):
    _check(json.dumps(value))


@fuzz
@given(st.sampled_from(SAMPLES), st.data())
def test_mutated_sample_levels(sample, data):
    doc = copy.deepcopy(sample)
    for _ in range(data.draw(st.integers(1, 4))):
        paths = list(_paths(doc))
        path = data.draw(st.sampled_from(paths))
        if path and data.draw(st.booleans()):
            doc = _delete(doc, path)
        else:
            doc = _set(doc, path, data.draw(json_value))
    _check(json.dumps(doc, allow_nan=True))


@fuzz
@given(st.sampled_from(SAMPLES), st.floats(0, 1))
def test_truncated_files(sample, fraction):
    text = json.dumps(sample)
    _check(text[: int(len(text) * fraction)])


@fuzz
@given(st.sampled_from(SAMPLES), odd_text)
def test_odd_unicode_ids_round_trip(sample, new_id):
    doc = copy.deepcopy(sample)
    doc["objects"][0]["id"] = new_id
    _check(json.dumps(doc, ensure_ascii=False))


@fuzz
@given(st.binary(max_size=200))
def test_random_bytes(tmp_path_factory, blob):
    p = tmp_path_factory.mktemp("fuzz") / "blob.json"
    p.write_bytes(blob)
    try:
        load_level(p)
    except LevelFileError as e:
        assert e.problems


def test_deep_nesting_is_a_clear_error():
    for depth in (10, 1000, 100_000):
        text = '{"format": "level-editor.level", "version": 1, "deep": ' + "[" * depth + "]" * depth + "}"
        _check(text)


def test_huge_and_tiny_numbers():
    doc = copy.deepcopy(SAMPLES[0])
    doc["objects"][0]["thickness"] = 1e-300
    doc["player"]["speed"] = 1e300
    doc["player"]["spawn"] = [1e15, -1e15]
    _check(json.dumps(doc))


def test_very_long_strings():
    doc = copy.deepcopy(SAMPLES[0])
    doc["name"] = "n" * 1_000_000
    doc["objects"][0]["id"] = "w" * 100_000
    _check(json.dumps(doc))


# --- the whole path: whatever loads also checks, exports (level and Tiled) and simulates, each in one line ----------


#: What was pressed (version 2): plays both controllers, so every sample level, top-down or platformer.
REPLAY = json.dumps({"format": "level-editor.replay", "version": 2, "dt": 1 / 60,
                     "inputs": [[1, 0, 0], [1, -1, 1], [0, 0, 0], [-1, 0.5, 1]]})


def _whole_path(folder: Path, text: str) -> None:
    """``check``, ``export`` (level and TMX) and ``simulate`` of ``text``: exit codes as documented, no traceback."""
    import contextlib
    import io

    from level_editor.core.cli import main

    level_path, replay_path = folder / "level.json", folder / "replay.json"
    level_path.write_text(text, encoding="utf-8", errors="surrogatepass")
    replay_path.write_text(REPLAY)
    runs = [(["check", str(level_path)], {0, 1, 2}),
            (["export", str(level_path), "-o", str(folder / "out.json")], {0, 1, 2}),
            (["export", str(level_path), "-o", str(folder / "out.tmx")], {0, 1, 2}),
            (["simulate", str(level_path), "--input", str(replay_path), "-o", str(folder / "trace.json")], {0, 2})]
    try:
        loads_level(text)
        loaded = True
    except LevelFileError:
        loaded = False
    for argv, codes in runs:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        said = out.getvalue() + err.getvalue()
        assert code in codes, (argv, code, said)
        assert "Traceback" not in said and " failed: " not in said, (argv, said)  # no unexpected exception
        if loaded and argv[0] == "check":
            assert code in (0, 1), said  # a level that loads is checked, whatever it holds
        if loaded and argv[0] == "simulate":
            assert code == 0 or said.startswith("level-editor: cannot simulate"), said


whole_path = settings(max_examples=40, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@whole_path
@given(st.sampled_from(SAMPLES), st.data())
def test_mutated_sample_levels_check_export_and_simulate(tmp_path_factory, sample, data):
    doc = copy.deepcopy(sample)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        path = data.draw(st.sampled_from(paths))
        if path and data.draw(st.booleans()):
            doc = _delete(doc, path)
        else:
            doc = _set(doc, path, data.draw(json_value))
    _whole_path(tmp_path_factory.mktemp("whole"), json.dumps(doc, allow_nan=True))


@whole_path
@given(st.sampled_from(SAMPLES), st.lists(st.floats(allow_nan=False), min_size=1, max_size=6), st.data())
def test_any_float_anywhere_in_a_sample_checks_exports_and_simulates(tmp_path_factory, sample, floats, data):
    doc = copy.deepcopy(sample)
    numbers = [p for p in _paths(doc) if p and isinstance(_get(doc, p), (int, float))
               and not isinstance(_get(doc, p), bool) and p[0] not in ("version", "hulls")]
    for value in floats:
        doc = _set(doc, data.draw(st.sampled_from(numbers)), value)
    _whole_path(tmp_path_factory.mktemp("floats"), json.dumps(doc))


def _get(doc, path):
    for k in path:
        doc = doc[k]
    return doc
