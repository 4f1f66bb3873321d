"""Upgrades of older level files to the current format version.

A migration takes the parsed JSON of version ``n`` and returns that of
version ``n + 1``. Loading walks the chain from the file's version up to the
current one, so a file of any known older version opens; versions newer than
this program, or with a gap in the chain, are refused with a message naming
them.

Version 1 is the first released format, so the registry is empty today. The
next format change adds ``MIGRATIONS[1] = _v1_to_v2`` and a sample in levels/.
"""
from __future__ import annotations

import copy
from typing import Callable, Mapping, Optional

Migration = Callable[[dict], dict]

#: The current level format version written by this program.
CURRENT_VERSION = 1

#: Version ``n`` -> function turning a version-``n`` document into version ``n + 1``.
MIGRATIONS: dict[int, Migration] = {}


class MigrationError(ValueError):
    """A document's version cannot be brought to the current one."""


def migrate(
    data: dict,
    registry: Optional[Mapping[int, Migration]] = None,
    current: Optional[int] = None,
) -> dict:
    """Return ``data`` upgraded to version ``current``; the input is never modified.

    ``registry`` and ``current`` default to this program's :data:`MIGRATIONS`
    and :data:`CURRENT_VERSION`.

    >>> migrate({"version": 1})["version"]
    1
    """
    registry = MIGRATIONS if registry is None else registry
    current = CURRENT_VERSION if current is None else current
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > current:
        raise MigrationError(f"version {version!r} is not one this program knows (it reads up to {current})")
    if version == current:
        return data
    doc = copy.deepcopy(data)
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
