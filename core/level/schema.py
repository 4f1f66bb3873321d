"""The level file's JSON Schema, shipped inside the package (``core/level/schemas/``).

Read with :mod:`importlib.resources`, so it is found the same way in a checkout,
an editable install and an installed wheel.
"""
from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from level_editor.core.level.migrations import CURRENT_VERSION

__all__ = ["level_schema", "schema_file_name"]


def schema_file_name(version: int = CURRENT_VERSION) -> str:
    """The schema's file name for format ``version``, e.g. ``level-v1.schema.json``."""
    return f"level-v{version}.schema.json"


def level_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the level format this program writes, parsed into a fresh dict.

    Every format version bump needs its schema file next to this one (a missing one raises
    ``FileNotFoundError`` naming it).

    Examples
    --------
    >>> level_schema()["properties"]["format"]
    {'const': 'level-editor.level'}
    """
    resource = files("level_editor.core.level") / "schemas" / schema_file_name()
    if not resource.is_file():
        raise FileNotFoundError(f"the level schema {schema_file_name()} is missing from core/level/schemas")
    return json.loads(resource.read_text(encoding="utf-8"))
