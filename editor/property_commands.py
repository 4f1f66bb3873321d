"""Undo commands for custom properties and object types, and the references between objects.

Every change a designer makes to a property or a type is one of these commands
(or a :class:`~editor.commands.ChangeObjectsCommand` /
:class:`~editor.commands.ChangeLevelPropertiesCommand` built here), so it undoes
exactly. Changes that touch several parts of the document at once (deleting an
object and clearing the references to it; renaming a type on every object that
has it) are one command, hence one undo step.

References are ``Ref`` values in three places: an object's own properties, the
level's properties and a type's default properties. :func:`find_references`
lists them and :func:`retarget_steps` points them elsewhere (or at nothing).

>>> from core.level.model import Box, Level, ObjectType, Point, Ref
>>> level = Level(objects=(Point("lever", (0, 0)), Box("gate", (0, 0), (8, 8), properties={"opened_by": Ref("lever")})),
...               types=(ObjectType("door", properties={"opened_by": Ref("lever")}),))
>>> [r.describe() for r in find_references(level, {"lever"})]
["gate's opened_by", "type door's default opened_by"]
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Optional, Sequence

from PySide6.QtGui import QUndoCommand

from core.level.document import LevelDocument
from core.level.model import LevelObject, ObjectType, Ref
from editor.commands import ChangeLevelPropertiesCommand, ChangeObjectsCommand

__all__ = [
    "Reference",
    "find_references",
    "retargeted",
    "retarget_steps",
    "StepsCommand",
    "ChangeTypesCommand",
    "same_types",
    "same_values",
]

#: Where a reference sits: on an object, on the level, or in a type's defaults.
OBJECT, LEVEL, TYPE = "object", "level", "type"


@dataclass(frozen=True)
class Reference:
    """One custom property that points at an object.

    holder
        The object's id (``where == "object"``), the type's name (``"type"``) or ``""`` (the level).
    """

    where: str
    holder: str
    name: str
    target: str

    def describe(self) -> str:
        """How a designer reads it: ``gate's opened_by``, ``the level's boss``, ``type door's default opened_by``."""
        if self.where == LEVEL:
            return f"the level's {self.name}"
        if self.where == TYPE:
            return f"type {self.holder}'s default {self.name}"
        return f"{self.holder}'s {self.name}"


def _refs_in(properties: Mapping, targets) -> list[tuple[str, str]]:
    return [(k, v.id) for k, v in properties.items() if isinstance(v, Ref) and v.id in targets]


def find_references(level, targets: Iterable[str], skip_objects: Iterable[str] = ()) -> list[Reference]:
    """Every property of the level, its objects (except ``skip_objects``) and its types that points at ``targets``."""
    targets = set(targets) - {""}
    skip = set(skip_objects)
    found = []
    for obj in level.objects:
        if obj.id not in skip:
            found += [Reference(OBJECT, obj.id, k, t) for k, t in _refs_in(obj.properties, targets)]
    found += [Reference(LEVEL, "", k, t) for k, t in _refs_in(level.properties, targets)]
    for object_type in level.types:
        found += [Reference(TYPE, object_type.name, k, t) for k, t in _refs_in(object_type.properties, targets)]
    return found


def retargeted(properties: Mapping, mapping: Mapping[str, str]) -> dict:
    """``properties`` with every reference to a key of ``mapping`` pointing at its value (``""``: at nothing).

    >>> retargeted({"a": Ref("lever"), "b": 3}, {"lever": ""})
    {'a': Ref(id=''), 'b': 3}
    """
    return {k: Ref(mapping[v.id]) if isinstance(v, Ref) and v.id in mapping else v for k, v in properties.items()}


def retarget_steps(document: LevelDocument, mapping: Mapping[str, str],
                   skip_objects: Iterable[str] = ()) -> list[QUndoCommand]:
    """Commands (to run as steps of one :class:`StepsCommand`) that point references elsewhere.

    ``mapping`` is ``{old id: new id}``; a new id of ``""`` clears the reference.
    Objects in ``skip_objects`` are left alone (they are being deleted or edited by the caller).
    """
    level = document.level
    refs = find_references(level, mapping, skip_objects)
    steps: list[QUndoCommand] = []
    holders = list(dict.fromkeys(r.holder for r in refs if r.where == OBJECT))
    if holders:
        old = [document.get(i) for i in holders]
        new = [replace(o, properties=retargeted(o.properties, mapping)) for o in old]
        steps.append(ChangeObjectsCommand(document, old, new, "Change references"))
    if any(r.where == LEVEL for r in refs):
        steps.append(ChangeLevelPropertiesCommand(document, "Change references",
                                                  properties=retargeted(level.properties, mapping)))
    if any(r.where == TYPE for r in refs):
        types = [replace(t, properties=retargeted(t.properties, mapping)) for t in level.types]
        steps.append(ChangeTypesCommand(document, types, "Change references"))
    return steps


class StepsCommand(QUndoCommand):
    """Several commands as one undo step: redone in order, undone in reverse order."""

    def __init__(self, text: str, steps: Sequence[QUndoCommand]):
        super().__init__(text)
        self._steps = tuple(s for s in steps if s is not None)
        self.setObsolete(not self._steps)

    def redo(self):
        for step in self._steps:
            step.redo()

    def undo(self):
        for step in reversed(self._steps):
            step.undo()


class ChangeTypesCommand(QUndoCommand):
    """Replace the level's object types; optionally replace objects with them in the same step.

    ``objects`` is ``(old objects, new objects)``: a type renamed on every object
    that has it, or objects whose type is cleared. The types change first, then
    the objects (undo: the objects, then the types).
    """

    def __init__(self, document: LevelDocument, types: Sequence[ObjectType], text: str,
                 objects: Optional[tuple[Sequence[LevelObject], Sequence[LevelObject]]] = None):
        super().__init__(text)
        self._doc = document
        self._old_types = document.level.types
        self._new_types = tuple(types)
        old, new = objects if objects is not None else ((), ())
        if len(old) != len(new):
            raise ValueError("ChangeTypesCommand needs one new object per old one")
        self._old_objects = tuple(old)
        self._new_objects = tuple(new)
        self.setObsolete(same_types(self._old_types, self._new_types) and self._new_objects == self._old_objects)

    def redo(self):
        self._doc.set_types(self._new_types)
        if self._new_objects:
            self._doc.replace_objects([o.id for o in self._old_objects], self._new_objects)

    def undo(self):
        if self._new_objects:
            self._doc.replace_objects([n.id for n in self._new_objects], self._old_objects)
        self._doc.set_types(self._old_types)


def same_types(a: Sequence[ObjectType], b: Sequence[ObjectType]) -> bool:
    """The same types in the same order, down to the types of their default values."""
    return len(a) == len(b) and all(x == y and same_values(x.properties, y.properties) for x, y in zip(a, b))


def same_values(a: Mapping, b: Mapping) -> bool:
    """The same properties in the same order, as a game reads them (Python's ``==`` finds ``1 == True == 1.0``).

    >>> {"n": 3} == {"n": 3.0}, same_values({"n": 3}, {"n": 3.0})
    (True, False)
    """
    return list(a) == list(b) and all(type(a[k]) is type(b[k]) and a[k] == b[k] for k in a)
