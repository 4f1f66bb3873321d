"""Level objects on the system clipboard, as a small JSON document.

The text is ``{"format": "level-editor.clipboard", "version": 1, "objects": [...]}``
with each object written by the level format's own ``object_to_dict`` (layer,
type and custom properties included), and read back through the level parser,
so a paste accepts exactly what a level file accepts (and reports the same
problems). ``"folder"`` names the folder of the level the objects were copied from (absent for a level
without a file): reference pictures' paths are relative to it, and a paste into a level in another folder
names the same pictures from there.
"""
from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Iterable, Optional, Sequence

from level_editor.core.level.model import Image, LevelObject
from level_editor.core.level.file_format import FORMAT, VERSION, LevelFileError, object_to_dict, parse_level

CLIPBOARD_FORMAT = "level-editor.clipboard"
CLIPBOARD_VERSION = 1

#: The layer of pasted objects that named none; the paste puts them on the current layer.
NO_LAYER = "\x00no-layer"


def objects_to_text(objects: Iterable[LevelObject], folder: Optional[str] = None) -> str:
    """The clipboard text for ``objects`` of a level whose pictures' paths are relative to ``folder``."""
    data = {
        "format": CLIPBOARD_FORMAT,
        "version": CLIPBOARD_VERSION,
        "objects": [object_to_dict(o) for o in objects],
    }
    if folder:
        data["folder"] = os.path.abspath(folder)
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


def objects_from_text(text: str) -> Sequence[LevelObject]:
    """The objects in clipboard ``text``.

    Raises
    ------
    ValueError
        When the text is not level objects from this editor (or they are invalid);
        the message says why.
    """
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError("the clipboard holds no level objects") from None
    if not isinstance(data, dict) or data.get("format") != CLIPBOARD_FORMAT:
        raise ValueError("the clipboard holds no level objects")
    if data.get("version") != CLIPBOARD_VERSION:
        raise ValueError(f"the clipboard holds objects of an unknown version {data.get('version')!r}")
    objects = data.get("objects")
    # The objects keep the ids of their layers; whether those exist where they are pasted is the paste's business.
    # Objects without one (copied from a version-1 editor) get the first layer of the level they are pasted into.
    if isinstance(objects, list):
        objects = [{**o, "layer": NO_LAYER} if isinstance(o, dict) and "layer" not in o else o for o in objects]
    layer_ids = sorted({o["layer"] for o in objects if isinstance(o, dict) and isinstance(o.get("layer"), str)
                        and o["layer"].strip()}) if isinstance(objects, list) else []
    level_data = {"format": FORMAT, "version": VERSION, "player": {"spawn": [0, 0], "radius": 1},
                  "layers": [{"id": i, "name": i} for i in layer_ids] or [{"id": "main", "name": "Main"}],
                  "objects": objects}
    try:
        level = parse_level(level_data, "clipboard")
    except LevelFileError as e:
        raise ValueError("the clipboard objects are not valid: " + "; ".join(str(p) for p in e.problems[:3])) from None
    folder = data.get("folder")
    if not isinstance(folder, str) or not os.path.isabs(folder):
        return level.objects  # copied from a level without a file (or an older editor): paths are as they are
    # the pictures' paths are relative to the level they came from: the paste moves them to its own folder
    return tuple(replace(o, folder=folder) if type(o) is Image and o.folder is None else o for o in level.objects)
