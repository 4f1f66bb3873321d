"""The JSON Schema in resources/ describes every sample level and what save writes."""
import json
from pathlib import Path

import jsonschema
import pytest

from core.level.file_format import dumps_level, load_level

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "resources" / "level.schema.json").read_text())
LEVELS = sorted((ROOT / "levels").glob("*.json"))


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_every_sample_level_matches_the_schema(path):
    jsonschema.validate(json.loads(path.read_text()), SCHEMA)


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_what_save_writes_matches_the_schema(path):
    jsonschema.validate(json.loads(dumps_level(load_level(path))), SCHEMA)


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(format="other"),
    lambda d: d["objects"][0].update(thickness=0),
    lambda d: d["objects"][0].update(kind="triangle"),
    lambda d: d["player"].pop("spawn"),
    lambda d: d["objects"][0].update(points=[[0, 0]]),
])
def test_schema_rejects_bad_levels(mutate):
    d = json.loads(LEVELS[0].read_text())
    mutate(d)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(d, SCHEMA)
