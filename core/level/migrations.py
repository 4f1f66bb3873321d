"""Upgrades of older level files to the current format version.

A migration takes the parsed JSON of version ``n`` and returns that of
version ``n + 1``. Loading walks the chain from the file's version up to the
current one, so a file of any known older version opens; versions newer than
this program, or with a gap in the chain, are refused with a message naming
them.

Version 2 added layers, object types, custom properties, non-solid objects,
tile grids, markers and reference images; a version-1 level becomes a
version-2 level with every object on one layer. Version 3 added the platformer
player, one-way floors and moving objects; a version-2 level is a version-3
level as it is (its player stays top-down).
"""
from __future__ import annotations

from typing import Callable, Mapping, Optional

Migration = Callable[[dict], dict]

#: The current level format version written by this program.
CURRENT_VERSION = 3

#: From this version on, the migrations leave ``objects`` as they are: the reader takes them as current ones.
OBJECTS_AS_CURRENT_FROM = 2

#: The one layer a version-1 level's objects go to.
V1_LAYER = {"id": "main", "name": "Main", "visible": True, "locked": False}


def _v1_to_v2(doc: dict) -> dict:
    """Version 1 to 2: one layer holding every object; unknown keys stay where they were.

    >>> _v1_to_v2({"version": 1, "objects": [{"id": "b", "kind": "box"}]})["objects"]
    [{'id': 'b', 'kind': 'box', 'layer': 'main'}]
    """
    doc["version"] = 2
    doc.setdefault("layers", [dict(V1_LAYER)])
    objects = doc.get("objects")
    if isinstance(objects, list):
        for obj in objects:
            if isinstance(obj, dict) and "layer" not in obj:
                obj["layer"] = V1_LAYER["id"]
    return doc


def _v2_to_v3(doc: dict) -> dict:
    """Version 2 to 3: nothing moves. Version 3 only adds (the platformer player, one-way floors, moving objects),
    and a player without a ``controller`` is top-down, as every version 2 player is.

    >>> _v2_to_v3({"version": 2, "player": {"spawn": [0, 0]}})
    {'version': 3, 'player': {'spawn': [0, 0]}}
    """
    doc["version"] = 3
    return doc


#: Version ``n`` -> function turning a version-``n`` document into version ``n + 1``.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3}


class MigrationError(ValueError):
    """A document's version cannot be brought to the current one."""


def migrate(
    data: dict,
    registry: Optional[Mapping[int, Migration]] = None,
    current: Optional[int] = None,
) -> dict:
    """Return ``data`` upgraded to version ``current``; the input is never modified.

    A migration may change the document's top-level keys and the keys of each
    object in ``objects``; those are copied before the first step. Anything
    deeper (a game's own nested data) is shared with the input, never copied:
    copying it would cost time and, nested deeply enough, Python's recursion limit.

    ``registry`` and ``current`` default to this program's :data:`MIGRATIONS`
    and :data:`CURRENT_VERSION`.

    >>> migrate({"version": 1})["layers"][0]["id"]
    'main'
    >>> migrate({"version": 2})["version"]
    3
    """
    registry = MIGRATIONS if registry is None else registry
    current = CURRENT_VERSION if current is None else current
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > current:
        raise MigrationError(f"version {version!r} is not one this program knows (it reads up to {current})")
    if version == current:
        return data
    doc = dict(data)
    if isinstance(doc.get("objects"), list):
        doc["objects"] = [dict(o) if isinstance(o, dict) else o for o in doc["objects"]]
    while doc["version"] < current:
        step = registry.get(doc["version"])
        if step is None:
            raise MigrationError(
                f"version {doc['version']} cannot be upgraded to {current}: no migration from it"
            )
        before = doc["version"]
        doc = step(doc)
        if doc.get("version") != before + 1:
            raise MigrationError(f"the migration from version {before} did not produce version {before + 1}")
    return doc
