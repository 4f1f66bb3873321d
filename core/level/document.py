"""The open level as an editable, observable document (no Qt).

The document holds an immutable :class:`~level_editor.core.level.model.Level` and replaces
values in it. Only the editor's undo commands call the mutating methods; views
subscribe and update themselves from the :class:`Change` they are sent (the
model never knows a widget exists).

>>> from level_editor.core.level.model import Box
>>> doc = LevelDocument()
>>> seen = []
>>> doc.subscribe(seen.append)
>>> doc.insert_objects([(0, Box("box-1", (0, 0), (10, 10)))])
>>> seen[0].kind is ChangeKind.ADDED, [o.id for o in seen[0].objects]
(True, ['box-1'])
"""
from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, replace
from enum import Enum
from operator import attrgetter
from typing import Callable, Iterable, Optional, Sequence

from level_editor.core.level.art import Tileset
from level_editor.core.level.model import Image, Layer, Level, LevelObject, ObjectType, Player, Sprite, unique_id
from level_editor.core.level.pictures import moves_with_level, picture_moved, pictures_moved

__all__ = ["Change", "ChangeKind", "LevelDocument"]

_ID = attrgetter("id")


class ChangeKind(Enum):
    """The kinds of change a document announces."""

    #: Objects were inserted (``Change.objects``).
    ADDED = "added"
    #: Objects were removed (``Change.objects``, as they were).
    REMOVED = "removed"
    #: Objects were replaced: ``Change.old`` and ``Change.objects`` pair up one to one (an id may change).
    CHANGED = "changed"
    #: The player changed (``Change.objects`` holds the new player, ``Change.old`` the old one).
    PLAYER = "player"
    #: The level's name, grid, custom properties or extra data changed.
    PROPERTIES = "properties"
    #: The layers changed (added, removed, renamed, reordered, shown, hidden, locked).
    LAYERS = "layers"
    #: The object types changed (their names, colours or default properties).
    TYPES = "types"
    #: A whole new level: views rebuild from scratch.
    RESET = "reset"


@dataclass(frozen=True)
class Change:
    """What changed in the document.

    kind
        A :class:`ChangeKind`; it says what ``objects`` and ``old`` hold.
    moved_by
        For a ``CHANGED`` of objects that only moved, all by one offset: that ``(dx, dy)``. Each of ``objects``
        is then its ``old`` one moved by it, with everything else as it was (Tiled's ``MapObjectsChangeEvent``
        with only its position property), so a listener need look at nothing else: 100,000 objects moved (a
        drag, its undo, its redo) cost it no comparison. ``None``: anything about the objects may have changed.

    >>> from level_editor.core.level.model import Box
    >>> doc = LevelDocument(Level(objects=(Box("b", (0, 0), (4, 4)),)))
    >>> seen = []
    >>> doc.subscribe(seen.append)
    >>> doc.replace_objects(["b"], [doc.get("b").moved(3, 0)], moved_by=(3, 0))
    >>> doc.replace_objects(["b"], [Box("b", (3, 0), (8, 8))])
    >>> [change.moved_by for change in seen]
    [(3, 0), None]
    """

    kind: ChangeKind
    objects: tuple = ()
    old: tuple = ()
    moved_by: Optional[tuple[float, float]] = None


class LevelDocument:
    """A level being edited, with change notifications."""

    def __init__(self, level: Optional[Level] = None):
        self._level = level if level is not None else Level()
        # where the pictures' paths are relative to: the level file's folder now, and the one it was opened from
        # (pictures that name no folder of their own were made there)
        self._folder: Optional[str] = None
        self._opened_in: Optional[str] = None
        self._index: dict[str, int] = {}
        self._listeners: list[Callable[[Change], None]] = []
        self._reindex()

    # -- reading -----------------------------------------------------------
    @property
    def level(self) -> Level:
        return self._level

    @property
    def objects(self) -> tuple[LevelObject, ...]:
        return self._level.objects

    @property
    def player(self) -> Player:
        return self._level.player

    def get(self, object_id: str) -> Optional[LevelObject]:
        i = self._index.get(object_id)
        return None if i is None else self._level.objects[i]

    def index_of(self, object_id: str) -> int:
        return self._index[object_id]

    def __contains__(self, object_id: str) -> bool:
        return object_id in self._index

    def __len__(self) -> int:
        return len(self._level.objects)

    @property
    def folder(self) -> Optional[str]:
        """The folder the pictures' paths are relative to: the level file's (None: the level has no file yet)."""
        return self._folder

    def new_id(self, kind: str, also_taken: Iterable[str] = ()) -> str:
        """A fresh id such as ``wall-3`` that no object (nor ``also_taken``) uses."""
        taken = set(self._index)
        taken.update(also_taken)
        return unique_id(kind, taken)

    # -- observing ---------------------------------------------------------
    def subscribe(self, callback: Callable[[Change], None]) -> None:
        self._listeners.append(callback)

    def unsubscribe(self, callback: Callable[[Change], None]) -> None:
        self._listeners.remove(callback)

    def _emit(self, change: Change) -> None:
        for callback in list(self._listeners):
            callback(change)

    def _reindex(self) -> None:
        self._index = {obj.id: i for i, obj in enumerate(self._level.objects)}

    # -- changing (undo commands only) -------------------------------------
    def reset(self, level: Level, folder: Optional[str] = None) -> None:
        """Replace the whole level (New, Open); ``folder``: the folder its pictures' paths are relative to (the
        level file's, None for a level without a file)."""
        self._level = level
        self._folder = self._opened_in = os.path.abspath(folder) if folder else None
        self._reindex()
        self._emit(Change(ChangeKind.RESET))

    def move_to(self, folder: Optional[str]) -> None:
        """The level's file is now in ``folder`` (Save As): its pictures' paths become relative to it, as the file
        written there holds them.

        Part of saving, not an undo step: undo and redo bring back pictures relative to the folder they were
        made in, and :meth:`insert_objects` and :meth:`replace_objects` move them here on the way in, so no step
        brings back a path that names no picture from here.
        """
        folder = os.path.abspath(folder) if folder else None
        if folder == self._folder:
            return
        old, previous, self._folder = self._level, self._folder, folder
        moved = pictures_moved(old, previous, folder)
        if moved is old:
            return
        changed = [(a, b) for a, b in zip(old.objects, moved.objects) if a is not b]
        self._level = moved
        self._emit(Change(ChangeKind.CHANGED, tuple(b for _, b in changed), tuple(a for a, _ in changed)))

    def _here(self, objects: Sequence[LevelObject]) -> Sequence[LevelObject]:
        """``objects`` with their pictures named from this level's folder (a picture made before a Save As, or
        in another level's folder, names it from there)."""
        kinds = set(map(type, objects))  # in C (~10 ms at 100,000): a move of everything comes here
        if Image not in kinds and Sprite not in kinds:
            return objects
        here, home = self._folder, self._opened_in
        return [picture_moved(o, home, here) if moves_with_level(o) and (o.folder or home) != here else o
                for o in objects]

    def insert_objects(self, placed: Sequence[tuple[int, LevelObject]]) -> None:
        """Insert objects at the given indices (ascending; each index counts the ones inserted before it)."""
        ordered = sorted(placed, key=lambda p: p[0])
        ordered = list(zip([i for i, _ in ordered], self._here([obj for _, obj in ordered])))
        layer_ids = {layer.id for layer in self._level.layers}
        homeless = next((obj for _, obj in ordered if obj.layer not in layer_ids), None)
        if homeless is not None:
            raise ValueError(f"{homeless.id} is on layer {homeless.layer!r}, which does not exist")
        new_ids = [obj.id for _, obj in ordered]
        clash = next((i for i in new_ids if i in self._index), None)
        if clash is None and len(set(new_ids)) != len(new_ids):
            clash = next(i for i in new_ids if new_ids.count(i) > 1)
        if clash is not None:
            # Checked before anything changes: a refused insert leaves the document exactly as it was.
            raise ValueError(f"an object called {clash!r} already exists")
        objs = list(self._level.objects)
        for index, obj in ordered:
            objs.insert(index, obj)
        self._level = self._level.with_objects(objs)
        self._reindex()
        self._emit(Change(ChangeKind.ADDED, tuple(obj for _, obj in ordered)))

    def append_objects(self, objects: Sequence[LevelObject]) -> list[tuple[int, LevelObject]]:
        """Add objects on top of the others; returns where they went (for undo)."""
        start = len(self._level.objects)
        placed = [(start + i, obj) for i, obj in enumerate(objects)]
        self.insert_objects(placed)
        return placed

    def remove_objects(self, ids: Iterable[str]) -> list[tuple[int, LevelObject]]:
        """Remove objects by id; returns ``(index, object)`` pairs that re-insert them exactly."""
        wanted = set(ids)
        missing = wanted - set(self._index)
        if missing:
            raise KeyError(f"no object called {sorted(missing)[0]!r}")
        removed = [(i, obj) for i, obj in enumerate(self._level.objects) if obj.id in wanted]
        self._level = self._level.with_objects(obj for obj in self._level.objects if obj.id not in wanted)
        self._reindex()
        self._emit(Change(ChangeKind.REMOVED, tuple(obj for _, obj in removed)))
        return removed

    def replace_objects(self, old_ids: Sequence[str], new_objects: Sequence[LevelObject],
                        moved_by: Optional[tuple[float, float]] = None) -> None:
        """Put ``new_objects[i]`` where the object ``old_ids[i]`` is (ids may change, must stay unique).

        ``moved_by``: the caller's word that each new object is the one it replaces moved by this ``(dx, dy)``
        and nothing else; the change announced says so (:attr:`Change.moved_by`). Not checked: looking would
        cost what moving 100,000 objects did.
        """
        if len(old_ids) != len(new_objects):
            raise ValueError("replace_objects needs one new object per old id")
        new_objects = self._here(new_objects)
        # C loops throughout (map over the index and the list): a move of 100,000 objects comes through here
        current = self._level.objects
        if len(old_ids) == len(current) and list(old_ids) == list(map(_ID, current)):
            # every object, in file order (a drag of everything, its undo and redo): nothing to look up
            objs, old = list(new_objects), current
        else:
            places = list(map(self._index.__getitem__, old_ids))
            objs = list(current)
            old = tuple(map(objs.__getitem__, places))
            deque(map(objs.__setitem__, places, new_objects), maxlen=0)
        # the ids stay unique when none changes (a move, a resize): only a rename needs the check
        renamed = list(map(_ID, new_objects)) != list(old_ids)
        if renamed and moved_by is not None:
            raise ValueError("objects that only moved keep their ids")
        if renamed:
            ids = [o.id for o in objs]
            if len(set(ids)) != len(ids):
                raise ValueError("replacing these objects would give two objects the same id")
        self._level = self._level.with_objects(objs)
        if renamed:
            self._reindex()
        self._emit(Change(ChangeKind.CHANGED, tuple(new_objects), old, None if moved_by is None else tuple(moved_by)))

    def set_player(self, player: Player) -> None:
        old = self._level.player
        self._level = self._level.with_player(player)
        self._emit(Change(ChangeKind.PLAYER, (player,), (old,)))

    def set_properties(self, **changes) -> None:
        """Change level-wide values: ``name``, ``grid``, ``properties`` (the level's custom ones) or ``extra``."""
        unknown = set(changes) - {"name", "grid", "properties", "extra"}
        if unknown:
            raise TypeError(f"not a level property: {sorted(unknown)[0]}")
        self._level = replace(self._level, **changes)
        self._emit(Change(ChangeKind.PROPERTIES))

    def set_layers(self, layers: Sequence[Layer]) -> None:
        """Replace the layers (bottom to top). Every object's layer must be one of them; at least one layer.

        Removing a layer with objects on it is two steps for the caller: remove the
        objects, then the layer (so each step undoes exactly).
        """
        layers = tuple(layers)
        ids = [layer.id for layer in layers]
        if not layers:
            raise ValueError("a level needs at least one layer")
        if len(set(ids)) != len(ids):
            raise ValueError("two layers would have the same id")
        stranded = next((o for o in self._level.objects if o.layer not in ids), None)
        if stranded is not None:
            raise ValueError(f"{stranded.id} is on layer {stranded.layer!r}, which would no longer exist")
        old = self._level.layers
        self._level = replace(self._level, layers=layers)
        self._emit(Change(ChangeKind.LAYERS, layers, old))

    def set_tilesets(self, tilesets: Sequence[Tileset]) -> None:
        """Replace the tilesets (ids unique). The level binds them into its grids and sprites again, and the
        objects whose art changed are announced as changed (the same objects) so that views draw them anew."""
        tilesets = tuple(tilesets)
        ids = [t.id for t in tilesets]
        if len(set(ids)) != len(ids):
            raise ValueError("two tilesets would have the same id")
        old = {t.id: t for t in self._level.tilesets}
        new = {t.id: t for t in tilesets}
        touched = {i for i in set(old) | set(new) if old.get(i) is not new.get(i)}
        self._level = replace(self._level, tilesets=tilesets)
        users = tuple(o for o in self._level.objects if getattr(o, "tileset", "") in touched)
        for obj in users:
            if obj.tileset not in new:  # binding only sets the art of tilesets that are there
                object.__setattr__(obj, "art", None)
        self._emit(Change(ChangeKind.PROPERTIES))
        if users:
            self._emit(Change(ChangeKind.CHANGED, users, users))

    def set_types(self, types: Sequence[ObjectType]) -> None:
        """Replace the object types (names must stay unique)."""
        types = tuple(types)
        names = [t.name for t in types]
        if len(set(names)) != len(names):
            raise ValueError("two types would have the same name")
        old = self._level.types
        self._level = replace(self._level, types=types)
        self._emit(Change(ChangeKind.TYPES, types, old))
