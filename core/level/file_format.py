"""Reading and writing level files (JSON, format ``level-editor.level`` version 2; version 1 is migrated).

The command line and the editor read and write files only through this module. It is the front of
:mod:`level_editor.core.level.format`, where each kind of object is described once (``fields``) and one
reader (``read``) and one writer (``write``) follow that description, as Tiled has one converter per
direction; ``text`` spells and lays out the JSON.

Loading checks structure, types and value ranges and reports every problem at once, each naming its
object; a file with any of these problems does not load. Geometry (crossing outlines, a spawn inside a
wall...) is the validator's job: such a level loads, and the validator says what is wrong with it.

Saving is atomic: the text goes to a temporary file beside the target, which then replaces it, so a
crash or a full disk never leaves half a level behind.

>>> from level_editor.core.level.model import Box, Level
>>> level = Level(objects=(Box("crate", (0, 0), (64, 32)),))
>>> loads_level(dumps_level(level)) == level
True
"""
from __future__ import annotations

from level_editor.core.level.format.fields import FORMAT, VERSION
from level_editor.core.level.format.read import load_level, loads_level, parse_level
from level_editor.core.level.format.text import dumps_json
from level_editor.core.level.format.write import (
    dumps_level,
    layer_to_dict,
    level_blocks,
    level_to_dict,
    object_to_dict,
    player_to_dict,
    properties_to_dict,
    property_to_json,
    save_level,
    type_to_dict,
)
from level_editor.core.level.reading import LevelFileError

__all__ = [
    "FORMAT",
    "VERSION",
    "LevelFileError",
    "load_level",
    "loads_level",
    "parse_level",
    "level_to_dict",
    "object_to_dict",
    "player_to_dict",
    "layer_to_dict",
    "type_to_dict",
    "property_to_json",
    "properties_to_dict",
    "dumps_level",
    "level_blocks",
    "save_level",
    "dumps_json",
]
