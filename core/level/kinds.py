"""The object kinds in the designer's words: one table for names, undo labels and new ids.

The file's ``kind`` strings are the contract (``circle`` stays ``circle`` in a
level file); everything a designer reads says what the thing is: a round
obstacle is a *pillar* in the tool, the inspector, the object list, the undo
labels and the ids the editor gives new objects.

>>> kind_name("circle"), id_prefix("oriented_box")
('Pillar', 'obox')
>>> from level_editor.core.level.model import Box, Pillar
>>> objects_label("Add", [Pillar("pillar-1", (0, 0), 5)])
'Add pillar'
>>> objects_label("Move", [Box("a", (0, 0), (1, 1)), Box("b", (2, 0), (1, 1))])
'Move 2 boxes'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

__all__ = ["Kind", "KINDS", "kind_name", "id_prefix", "objects_label", "plural", "natural_key"]


@dataclass(frozen=True)
class Kind:
    """How the editor names one kind of object.

    Attributes
    ----------
    kind : str
        The ``kind`` written in level files.
    name : str
        The designer's word, capitalised, for titles and lists ("Oriented box").
    noun : str
        The same word in a sentence ("oriented box").
    nouns : str
        Its plural ("oriented boxes").
    id_prefix : str
        New objects of this kind get ids ``<id_prefix>-<n>``.
    """

    kind: str
    name: str
    noun: str
    nouns: str
    id_prefix: str


KINDS: dict[str, Kind] = {k.kind: k for k in (
    Kind("wall", "Wall", "wall", "walls", "wall"),
    Kind("box", "Box", "box", "boxes", "box"),
    Kind("oriented_box", "Oriented box", "oriented box", "oriented boxes", "obox"),
    Kind("circle", "Pillar", "pillar", "pillars", "pillar"),
    Kind("tiles", "Tile grid", "tile grid", "tile grids", "tiles"),
    Kind("point", "Marker", "marker", "markers", "point"),
    Kind("image", "Reference image", "reference image", "reference images", "image"),
    Kind("sprite", "Sprite", "sprite", "sprites", "sprite"),
)}


def kind_name(kind: str) -> str:
    """The designer's name of a file ``kind`` (the kind itself when unknown)."""
    k = KINDS.get(kind)
    return k.name if k else kind


def id_prefix(kind: str) -> str:
    """The prefix of new ids for objects of ``kind``."""
    k = KINDS.get(kind)
    return k.id_prefix if k else kind


def plural(n: int, word: str) -> str:
    """``1 object``, ``3 objects``.

    >>> plural(1, "object"), plural(3, "object")
    ('1 object', '3 objects')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_DIGITS = re.compile(r"\d+")


def natural_key(text: str) -> str:
    """How lists of ids sort: ``goblin-2`` before ``goblin-10``, whatever the case (runs of digits padded to
    one width: a string compares fastest).

    >>> sorted(["goblin-10", "Goblin-2", "box"], key=natural_key)
    ['box', 'Goblin-2', 'goblin-10']
    """
    return _DIGITS.sub(lambda m: m.group().zfill(24), text.lower())


def objects_label(verb: str, objects: Sequence) -> str:
    """A readable undo label: ``Add wall``, ``Move 3 pillars``, ``Delete 2 objects``."""
    kinds = {o.kind for o in objects}
    if len(objects) == 1:
        k = KINDS.get(objects[0].kind)
        return f"{verb} {k.noun if k else 'object'}"
    if len(kinds) == 1 and next(iter(kinds)) in KINDS:
        return f"{verb} {len(objects)} {KINDS[next(iter(kinds))].nouns}"
    return f"{verb} {plural(len(objects), 'object')}"
