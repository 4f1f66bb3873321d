"""The level JSON Schema (core/level/schemas, read by core.level.schema) describes every sample level and what save
writes."""
import json
from pathlib import Path

import jsonschema
import pytest

from core.level.file_format import dumps_level, load_level
from core.level.migrations import CURRENT_VERSION
from core.level.schema import level_schema, schema_file_name

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = level_schema()
LEVELS = sorted((ROOT / "levels").glob("*.json"))


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_is_the_current_format_version_s_and_ships_in_the_package():
    assert SCHEMA["properties"]["version"] == {"const": CURRENT_VERSION}
    assert (ROOT / "core" / "level" / "schemas" / schema_file_name()).is_file()
    assert schema_file_name(1) == "level-v1.schema.json"


def test_each_call_gives_a_fresh_schema():
    level_schema()["properties"].clear()
    assert level_schema() == SCHEMA


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_every_sample_level_matches_the_schema(path):
    jsonschema.validate(json.loads(path.read_text()), SCHEMA)


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_what_save_writes_matches_the_schema(path):
    jsonschema.validate(json.loads(dumps_level(load_level(path))), SCHEMA)


def _by_id(d, object_id):
    return next(o for o in d["objects"] if o["id"] == object_id)


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(format="other"),
    lambda d: _by_id(d, "courtyard").update(thickness=0),
    lambda d: _by_id(d, "courtyard").update(kind="triangle"),
    lambda d: d["player"].pop("spawn"),
    lambda d: _by_id(d, "courtyard").update(points=[[0, 0]]),
    lambda d: d.update(layers=[]),
    lambda d: _by_id(d, "crate").pop("layer"),
    lambda d: _by_id(d, "floor").update(cells=["##x#"]),
    lambda d: _by_id(d, "gate").update(properties={"opened_by": {"ref": 3}}),
    lambda d: _by_id(d, "gate").update(properties={"list": [1, 2]}),
    lambda d: d["types"][0].update(color="red"),
    lambda d: _by_id(d, "backdrop").update(opacity=1.5),
    lambda d: _by_id(d, "exit").update(solid="no"),
])
def test_schema_rejects_bad_levels(mutate):
    d = json.loads((ROOT / "levels" / "game_content.json").read_text())
    jsonschema.validate(d, SCHEMA)
    mutate(d)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(d, SCHEMA)


def test_version_1_has_its_own_schema_beside_version_2():
    from importlib.resources import files

    v1 = json.loads((files("core.level") / "schemas" / schema_file_name(1)).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(v1)
    old = json.loads((ROOT / "tests" / "core" / "level" / "v1" / "showcase.json").read_text())
    jsonschema.validate(old, v1)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(old, SCHEMA)
