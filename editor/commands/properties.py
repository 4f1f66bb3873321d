"""What an edit of a custom property or an object type does: the undo commands, and the values they hold.

Every change a designer makes to a property or a type is one of these commands
(or a :class:`~level_editor.editor.commands.objects.ChangeObjectsCommand` /
:class:`~level_editor.editor.commands.objects.ChangeLevelPropertiesCommand` built here), so it undoes
exactly. Changes that touch several parts of the document at once (deleting an
object and clearing the references to it; renaming a type on every object that
has it) are one command, hence one undo step.

A :class:`PropertySource` is what a properties table edits: the selected
objects (:class:`ObjectProperties`: their types' defaults overlaid with their
own), the level (:class:`LevelProperties`) or a type's defaults
(:class:`TypeProperties`). Typed text becomes a value of the property's kind
(:func:`parse_value`): an integer stays an ``int``.

>>> parse_value("integer", "3", "health"), parse_value("float", "3", "speed")
(3, 3.0)
>>> parse_value("integer", "1.5", "health")
Traceback (most recent call last):
ValueError: health must be a whole number

References are ``Ref`` values in three places: an object's own properties, the
level's properties and a type's default properties. :func:`find_references`
lists them and :func:`retarget_steps` points them elsewhere (or at nothing).

>>> from level_editor.core.level.model import Box, Level, ObjectType, Point
>>> level = Level(objects=(Point("lever", (0, 0)), Box("gate", (0, 0), (8, 8), properties={"opened_by": Ref("lever")})),
...               types=(ObjectType("door", properties={"opened_by": Ref("lever")}),))
>>> [r.describe() for r in find_references(level, {"lever"})]
["gate's opened_by", "type door's default opened_by"]
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import math
import re
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Optional, Sequence

from PySide6.QtGui import QUndoCommand

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import LevelObject, ObjectType, Ref
from level_editor.editor.commands.objects import ChangeLevelPropertiesCommand, ChangeObjectsCommand
from level_editor.core.level.limits import MAX_NAME_LENGTH, MAX_PROPERTY_FLOAT, MAX_PROPERTY_INTEGER, name_shape_problem

__all__ = [
    "PROPERTY_KINDS", "KIND_NAMES", "NONE_TEXT", "kind_of", "default_for", "value_text", "parse_value", "name_problem",
    "PropertyRow", "PropertySource", "ObjectProperties", "LevelProperties", "TypeProperties",
    "Reference",
    "find_references",
    "retargeted",
    "retarget_steps",
    "StepsCommand",
    "ChangeTypesCommand",
    "same_types",
    "same_values",
    "id_problem",
    "rename_command",
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


# -- custom property values -----------------------------------------------------------------------------
#: The kinds of value a custom property holds, in the order the "add" list offers them.
PROPERTY_KINDS = ("string", "integer", "float", "boolean", "object")
#: Their names as a designer reads them.
KIND_NAMES = {"string": "string", "integer": "integer", "float": "float", "boolean": "boolean",
              "object": "object reference"}
#: How a reference to nothing reads.
NONE_TEXT = "(none)"


def kind_of(value) -> str:
    """The kind of a property value (``bool`` before ``int``: ``True`` is a boolean, not the number 1).

    >>> [kind_of(v) for v in ("a", 3, 3.0, True, Ref("x"))]
    ['string', 'integer', 'float', 'boolean', 'object']
    """
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, Ref):
        return "object"
    return "string"


def default_for(kind: str):
    """The value a new property of ``kind`` starts with."""
    return {"string": "", "integer": 0, "float": 0.0, "boolean": False, "object": Ref("")}[kind]


def value_text(value) -> str:
    """A value as the table and the undo labels show it; a float always looks like one.

    >>> value_text(3), value_text(3.0), value_text(0.1 + 0.2), value_text(True), value_text(Ref(""))
    ('3', '3.0', '0.3', 'true', '(none)')
    """
    kind = kind_of(value)
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "object":
        return value.id or NONE_TEXT
    if kind == "float":
        text = f"{value:.10g}"
        return text if any(c in text for c in ".enai") else text + ".0"
    return str(value)


def parse_value(kind: str, text: str, name: str):
    """The value typed as ``text`` into a property ``name`` of ``kind``; ValueError says why it is refused.

    >>> parse_value("float", "1e999", "speed")
    Traceback (most recent call last):
    ValueError: speed must be a finite number
    >>> parse_value("boolean", "yes", "night")
    Traceback (most recent call last):
    ValueError: night must be true or false
    """
    t = text.strip()
    if kind == "string":
        return text
    if kind == "integer":
        if not re.fullmatch(r"[+-]?\d+", t):
            raise ValueError(f"{name} must be a whole number")
        if len(t.lstrip("+-")) > 16 or abs(int(t)) > MAX_PROPERTY_INTEGER:
            raise ValueError(f"{name} must be from -{MAX_PROPERTY_INTEGER:,} to {MAX_PROPERTY_INTEGER:,}")
        return int(t)
    if kind == "float":
        try:
            v = float(t)
        except ValueError:
            raise ValueError(f"{name} must be a number") from None
        if not math.isfinite(v):
            raise ValueError(f"{name} must be a finite number")
        if abs(v) > MAX_PROPERTY_FLOAT:
            raise ValueError(f"{name} must be from -{MAX_PROPERTY_FLOAT:,.0f} to {MAX_PROPERTY_FLOAT:,.0f}")
        return v
    if kind == "boolean":
        if t.lower() in ("true", "false"):
            return t.lower() == "true"
        raise ValueError(f"{name} must be true or false")
    if kind == "object":
        return Ref("" if t == NONE_TEXT else t)
    raise ValueError(f"unknown kind of property: {kind}")


def name_problem(name: str, taken, subject: str) -> Optional[str]:
    """Why ``name`` cannot be a new property's name, or None.

    >>> name_problem(" ", [], "gate"), name_problem("hp", ["hp"], "gate"), name_problem("hp", [], "gate")
    ('a property needs a name', 'gate already has a property called hp', None)
    """
    if (problem := name_shape_problem(name, "property")) is not None:
        return problem
    return f"{subject} already has a property called {name}" if name in taken else None


# -- what a properties table edits ----------------------------------------------------------------------
@dataclass(frozen=True)
class PropertyRow:
    """One line of the table.

    own
        Some object shown has its own value (not only its type's default).
    has_default / default / origin
        A type gives this property a default (``origin`` names the type).
    mixed
        The objects shown hold different values (several selected).
    """

    name: str
    value: object
    own: bool = True
    has_default: bool = False
    default: object = None
    origin: str = ""
    mixed: bool = False

    @property
    def kind(self) -> str:
        return kind_of(self.value)

    @property
    def inherited(self) -> bool:
        """Shown from the type: no object has its own value yet."""
        return self.has_default and not self.own

    @property
    def overridden(self) -> bool:
        return self.has_default and self.own

    @property
    def removable(self) -> bool:
        """Only a property of the object itself can be removed; a type's property is reset instead."""
        return not self.has_default


class PropertySource(ABC):
    """What a properties table edits (an interface: objects, the level, a type); every edit is one undo command."""

    #: The subject of the undo labels: "goblin-1", "level", "type enemy", "3 objects".
    subject = ""

    def __init__(self, context):
        self.context = context
        self.document = context.document

    @abstractmethod
    def rows(self) -> list[PropertyRow]:
        """Implemented by each kind of source."""

    def names(self) -> list[str]:
        return [r.name for r in self.rows()]

    @abstractmethod
    def set_value(self, name: str, value) -> None:
        """Implemented by each kind of source."""

    @abstractmethod
    def add(self, name: str, value) -> None:
        """Implemented by each kind of source."""

    @abstractmethod
    def remove(self, name: str) -> None:
        """Implemented by each kind of source."""

    @abstractmethod
    def rename(self, old: str, new: str) -> None:
        """Implemented by each kind of source."""

    def reset(self, name: str) -> None:
        """Back to the type's default (only objects have one)."""

    # labels shared by every source
    def _set_label(self, name: str, value) -> str:
        return f"Set {name} of {self.subject} to {value_text(value)}"

    def _add_label(self, name: str) -> str:
        return f"Add property {name} to {self.subject}"

    def _remove_label(self, name: str) -> str:
        return f"Remove property {name} from {self.subject}"

    def _rename_label(self, old: str, new: str) -> str:
        return f"Rename property {old} of {self.subject} to {new}"


def _renamed_key(properties: Mapping, old: str, new: str) -> dict:
    """``properties`` with the key ``old`` called ``new``, in the same place."""
    return {(new if k == old else k): v for k, v in properties.items()}


class _DictSource(PropertySource):
    """A source backed by one dict of properties (the level's, a type's defaults)."""

    @abstractmethod
    def _read(self) -> Mapping:
        """The dict of properties this source shows."""

    @abstractmethod
    def _write(self, properties: dict, label: str) -> None:
        """Replace that dict with ``properties`` as one undo step named ``label``."""

    def rows(self) -> list[PropertyRow]:
        return [PropertyRow(k, v) for k, v in self._read().items()]

    def set_value(self, name: str, value) -> None:
        old = self._read()
        if name not in old or same_values({name: old[name]}, {name: value}):
            return
        self._write({**old, name: value}, self._set_label(name, value))

    def add(self, name: str, value) -> None:
        old = self._read()
        if name not in old:
            self._write({**old, name: value}, self._add_label(name))

    def remove(self, name: str) -> None:
        old = self._read()
        if name in old:
            self._write({k: v for k, v in old.items() if k != name}, self._remove_label(name))

    def rename(self, old_name: str, new_name: str) -> None:
        old = self._read()
        if old_name in old and new_name not in old:
            self._write(_renamed_key(old, old_name, new_name), self._rename_label(old_name, new_name))


class LevelProperties(_DictSource):
    """The level's own custom properties."""

    subject = "level"

    def _read(self) -> Mapping:
        return self.document.level.properties

    def _write(self, properties: dict, label: str) -> None:
        self.context.push(ChangeLevelPropertiesCommand(self.document, label, properties=properties))


class TypeProperties(_DictSource):
    """An object type's default properties; ``name()`` says which type (the Types editor's current one)."""

    def __init__(self, context, name: Callable[[], str]):
        super().__init__(context)
        self._name = name

    @property
    def subject(self) -> str:
        return f"type {self._name()}"

    def _read(self) -> Mapping:
        t = self.document.level.object_type(self._name())
        return t.properties if t is not None else {}

    def _write(self, properties: dict, label: str) -> None:
        name = self._name()
        types = [replace(t, properties=properties) if t.name == name else t for t in self.document.level.types]
        self.context.push(ChangeTypesCommand(self.document, types, label))


class ObjectProperties(PropertySource):
    """The custom properties of one or several objects: their types' defaults overlaid with their own.

    With several objects the table shows the properties they all have, and an
    edit sets it on all of them in one undo step.
    """

    def __init__(self, context, ids):
        super().__init__(context)
        self.ids = list(ids)

    @property
    def subject(self) -> str:
        return self.ids[0] if len(self.ids) == 1 else f"{len(self.ids)} objects"

    def objects(self) -> list:
        return [o for o in (self.document.get(i) for i in self.ids) if o is not None]

    def rows(self) -> list[PropertyRow]:
        level = self.document.level
        first = next((o for o in map(self.document.get, self.ids) if o is not None), None)
        if first is None or not level.properties_of(first):
            return []  # only names every object has are shown, and the first has none (100,000 objects unread)
        objs = self.objects()
        merged = [level.properties_of(o) for o in objs]
        types = [level.object_type(o.type) for o in objs]
        rows = []
        for name in merged[0]:
            if not all(name in m for m in merged[1:]):
                continue
            values = [m[name] for m in merged]
            origins = list(dict.fromkeys(t.name for t in types if t is not None and name in t.properties))
            default = next((t.properties[name] for t in types if t is not None and name in t.properties), None)
            rows.append(PropertyRow(
                name, values[0], own=any(name in o.properties for o in objs), has_default=bool(origins),
                default=default, origin=", ".join(origins),
                mixed=any(not same_values({name: v}, {name: values[0]}) for v in values[1:])))
        return rows

    def _change(self, edit: Callable, label: str) -> None:
        """``edit(object, merged properties) -> new own properties or None`` for each object; one command."""
        level = self.document.level
        old, new = [], []
        for obj in self.objects():
            own = edit(obj, level.properties_of(obj))
            if own is not None and not same_values(own, obj.properties):
                old.append(obj)
                new.append(replace(obj, properties=own))
        if new:
            self.context.push(ChangeObjectsCommand(self.document, old, new, label))

    def set_value(self, name: str, value) -> None:
        def edit(obj, merged):
            if name in merged and same_values({name: merged[name]}, {name: value}):
                return None
            return {**obj.properties, name: value}

        self._change(edit, self._set_label(name, value))

    def add(self, name: str, value) -> None:
        self._change(lambda obj, merged: None if name in merged else {**obj.properties, name: value},
                     self._add_label(name))

    def remove(self, name: str) -> None:
        self._change(lambda obj, merged: {k: v for k, v in obj.properties.items() if k != name},
                     self._remove_label(name))

    def rename(self, old_name: str, new_name: str) -> None:
        self._change(lambda obj, merged: _renamed_key(obj.properties, old_name, new_name)
                     if old_name in obj.properties and new_name not in merged else None,
                     self._rename_label(old_name, new_name))

    def reset(self, name: str) -> None:
        level = self.document.level
        origins = list(dict.fromkeys(o.type for o in self.objects()))
        whose = f"type {origins[0]}" if len(origins) == 1 else "their types"

        def edit(obj, merged):
            t = level.object_type(obj.type)
            if t is None or name not in t.properties or name not in obj.properties:
                return None
            return {k: v for k, v in obj.properties.items() if k != name}

        self._change(edit, f"Reset {name} of {self.subject} to the default of {whose}")


# -- renaming an object ---------------------------------------------------------------------------------
def id_problem(document: LevelDocument, text: str, current: str = "") -> Optional[str]:
    """Why ``text`` cannot be the id of the object now called ``current``, or None.

    >>> from level_editor.core.level.model import Box, Level, Point
    >>> doc = LevelDocument(Level(objects=(Point("lever", (0, 0)), Box("gate", (0, 0), (8, 8)))))
    >>> id_problem(doc, "gate", "lever"), id_problem(doc, " ", "lever"), id_problem(doc, "lever", "lever")
    ("another object is already called 'gate'", 'an id cannot be empty', None)
    """
    if not text.strip():
        return "an id cannot be empty"
    if text != text.strip():
        return "an id cannot start or end with a space"
    if len(text) > MAX_NAME_LENGTH:
        return f"an id is at most {MAX_NAME_LENGTH} characters"
    if not text.isprintable():
        return "an id cannot hold a line break, a tab or another control character"
    if text == "player":
        return "'player' is the player's name"
    if text != current and text in document:
        return f"another object is already called {text!r}"
    return None


def rename_command(document: LevelDocument, old_id: str, new_id: str) -> Optional[QUndoCommand]:
    """One undo step that renames an object and points every reference to it at the new id.

    None when there is nothing to rename; ValueError (saying why) when ``new_id`` is refused.

    >>> from level_editor.core.level.model import Box, Level, Point
    >>> doc = LevelDocument(Level(objects=(Point("lever", (0, 0)),
    ...                                    Box("gate", (0, 0), (8, 8), properties={"opened_by": Ref("lever")}))))
    >>> command = rename_command(doc, "lever", "switch")
    >>> command.text(), command.redo(), doc.get("gate").properties["opened_by"]
    ('Rename lever to switch', None, Ref(id='switch'))
    """
    obj = document.get(old_id)
    if obj is None or new_id == old_id:
        return None
    problem = id_problem(document, new_id, old_id)
    if problem is not None:
        raise ValueError(problem)
    label = f"Rename {old_id} to {new_id}"
    renamed = obj.with_id(new_id)
    renamed = replace(renamed, properties=retargeted(renamed.properties, {old_id: new_id}))
    rename = ChangeObjectsCommand(document, [obj], [renamed], label)
    if not find_references(document.level, {old_id}, skip_objects={old_id}):
        return rename
    return StepsCommand(label, [rename, *retarget_steps(document, {old_id: new_id}, {old_id})])
