"""Undo commands for the level's tilesets: add one, remove one, set a tile's collision.

A tileset change is a change of the level (its ``tilesets``); the level binds the new tilesets into the grids
and sprites that use them, so a tile's new collision shapes collide at once. Each command keeps the whole tuple
of tilesets before and after, so undo puts back exactly what was there.

>>> from level_editor.core.level.model import Level
>>> doc = LevelDocument(Level())
>>> ts = new_tileset("/art/Desert Tiles.png", None, (32, 32), (265, 199), 1, 1, ())
>>> (ts.id, ts.columns, ts.count, ts.image)
('desert-tiles', 8, 48, '/art/Desert Tiles.png')
>>> command = SetTilesetsCommand(doc, (ts,), "Add tileset 'Desert Tiles'")
>>> command.redo(); [t.id for t in doc.level.tilesets]
['desert-tiles']
>>> command.undo(); doc.level.tilesets
()
"""
from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Callable, Iterable, Mapping, Optional, Sequence

from PySide6.QtGui import QUndoCommand

from level_editor.core.level.art import TileShape, Tileset, columns_of
from level_editor.core.level.document import LevelDocument
from level_editor.core.level.kinds import plural
from level_editor.editor.commands.properties import _DictSource

__all__ = ["SetTilesetsCommand", "new_tileset", "add_tileset_command", "remove_tileset_command",
           "tileset_users", "COLLISION_CHOICES", "collision_shapes_for", "collision_choice_of",
           "set_tile_collision_command", "set_tile_type_command", "TileProperties"]

#: The collision choices of a tile, in the order the dock lists them.
COLLISION_CHOICES = ("None", "Full", "Top half", "Bottom half", "Rectangle")


class SetTilesetsCommand(QUndoCommand):
    """Replace the level's tilesets with ``tilesets``; undo puts back the ones before."""

    def __init__(self, document: LevelDocument, tilesets: Sequence[Tileset], text: str):
        super().__init__(text)
        self._doc = document
        self._old = document.level.tilesets
        self._new = tuple(tilesets)
        self.setObsolete(self._new == self._old)

    def redo(self):
        self._doc.set_tilesets(self._new)

    def undo(self):
        self._doc.set_tilesets(self._old)


def _slug(name: str) -> str:
    """A tileset id from a file name: lower case words joined by hyphens.

    >>> _slug("tmw_desert spacing"), _slug("???")
    ('tmw_desert-spacing', 'tileset')
    """
    words = re.findall(r"[A-Za-z0-9_]+", name)
    return "-".join(w.lower() for w in words) or "tileset"


def new_tileset(picture: str, folder: Optional[str], tile_size, image_size, margin: int, spacing: int,
                taken: Iterable[str]) -> Tileset:
    """A tileset cutting the picture at ``picture`` (a full path) into tiles of ``tile_size``.

    Its id comes from the file name, made unique among ``taken``; its ``image`` is named as a level in
    ``folder`` stores pictures (relative to its file; absolute without a folder); columns and count are the
    whole tiles that fit.
    Raises ValueError (saying why) when no tile fits.
    """
    tw, th = (int(v) for v in tile_size)
    iw, ih = (int(v) for v in image_size)
    if tw <= 0 or th <= 0:
        raise ValueError("the tile width and height must be at least 1 pixel")
    if margin < 0 or spacing < 0:
        raise ValueError("the margin and spacing cannot be negative")
    columns = columns_of(iw, tw, margin, spacing)
    rows = columns_of(ih, th, margin, spacing)
    if columns * rows == 0:
        raise ValueError(f"no {tw} x {th} tile fits in the {iw} x {ih} picture with margin {margin} and "
                         f"spacing {spacing}")
    stem = os.path.splitext(os.path.basename(picture))[0]
    base = _slug(stem)
    taken = set(taken)
    tileset_id, n = base, 2
    while tileset_id in taken:
        tileset_id, n = f"{base}-{n}", n + 1
    return Tileset(tileset_id, stem, (tw, th), image=_stored_path(picture, folder),
                   image_size=(iw, ih), margin=margin, spacing=spacing, columns=columns, count=columns * rows,
                   folder=folder)


def _stored_path(picture: str, folder: Optional[str]) -> str:
    """How a level in ``folder`` names the picture: relative, forward slashes (as reference pictures are named,
    editor/documents/reference_images.py); absolute without a folder or a relative way there."""
    full = os.path.abspath(picture)
    if folder:
        try:
            full = os.path.relpath(full, folder)
        except ValueError:  # another drive: there is no relative path
            pass
    return full.replace(os.sep, "/")


def add_tileset_command(document: LevelDocument, tileset: Tileset) -> SetTilesetsCommand:
    return SetTilesetsCommand(document, document.level.tilesets + (tileset,), f"Add tileset '{tileset.name}'")


def tileset_users(document: LevelDocument, tileset_id: str) -> list[str]:
    """The ids of the tile grids and sprites that draw the tileset ``tileset_id``."""
    return [o.id for o in document.objects if getattr(o, "tileset", "") == tileset_id]


def remove_tileset_command(document: LevelDocument, tileset_id: str) -> SetTilesetsCommand:
    """Remove the tileset; refused (ValueError naming them) while tile grids or sprites use it: erase or delete
    them first, so no grid is left painting tiles the level no longer has."""
    tileset = document.level.tileset(tileset_id)
    if tileset is None:
        raise ValueError(f"the level has no tileset '{tileset_id}'")
    users = tileset_users(document, tileset_id)
    if users:
        shown = ", ".join(users[:3]) + (", ..." if len(users) > 3 else "")
        raise ValueError(f"tileset '{tileset.name}' is used by {plural(len(users), 'object')} ({shown}): "
                         f"delete them first")
    kept = tuple(t for t in document.level.tilesets if t.id != tileset_id)
    return SetTilesetsCommand(document, kept, f"Remove tileset '{tileset.name}'")


def collision_shapes_for(choice: str, tile_size, rect=None) -> tuple[TileShape, ...]:
    """The collision shapes of a tile of ``tile_size`` for one of :data:`COLLISION_CHOICES`.

    ``rect`` is ``(x, y, w, h)`` in the tile's pixels for "Rectangle"; ValueError says what is wrong with it.

    >>> [s.points[1].y for s in collision_shapes_for("Top half", (32, 32))]
    [16.0]
    >>> collision_shapes_for("Rectangle", (32, 32), (30, 0, 8, 8))
    Traceback (most recent call last):
    ...
    ValueError: the rectangle 30, 0, 8 x 8 does not fit in the 32 x 32 tile
    """
    w, h = (float(v) for v in tile_size)
    if choice == "None":
        return ()
    if choice == "Full":
        return (TileShape("rect", ((0, 0), (w, h))),)
    if choice == "Top half":
        return (TileShape("rect", ((0, 0), (w, h / 2))),)
    if choice == "Bottom half":
        return (TileShape("rect", ((0, h / 2), (w, h / 2))),)
    if choice == "Rectangle":
        x, y, rw, rh = (float(v) for v in rect)
        if rw <= 0 or rh <= 0:
            raise ValueError(f"the rectangle's width and height must be positive, not {rw:g} x {rh:g}")
        if x < 0 or y < 0 or x + rw > w or y + rh > h:
            raise ValueError(f"the rectangle {x:g}, {y:g}, {rw:g} x {rh:g} does not fit in the {w:g} x {h:g} tile")
        return (TileShape("rect", ((x, y), (rw, rh))),)
    raise ValueError(f"not a collision choice: {choice!r}")


def collision_choice_of(shapes: Sequence[TileShape], tile_size) -> str:
    """Which of :data:`COLLISION_CHOICES` the shapes are ("Rectangle" for one other rectangle, "" for anything
    else, such as an ellipse or several shapes made in Tiled)."""
    for choice in COLLISION_CHOICES[:4]:
        if tuple(shapes) == collision_shapes_for(choice, tile_size):
            return choice
    if len(shapes) == 1 and shapes[0].kind == "rect":
        return "Rectangle"
    return ""


def set_tile_collision_command(document: LevelDocument, tileset_id: str, tile: int,
                               shapes: Sequence[TileShape], choice: str) -> SetTilesetsCommand:
    """Give tile ``tile`` of the tileset these collision shapes, keeping the tile's other info."""
    tilesets = list(document.level.tilesets)
    i = next(k for k, t in enumerate(tilesets) if t.id == tileset_id)
    tileset = tilesets[i]
    info = tileset.info(tile)
    tilesets[i] = tileset.with_tile(tile, replace(info, collision=tuple(shapes)))
    return SetTilesetsCommand(document, tilesets, f"Set collision of tile {tile} of '{tileset.name}' to {choice}")


def _with_info(document: LevelDocument, tileset_id: str, tile: int, text: str, **changes) -> SetTilesetsCommand:
    tilesets = list(document.level.tilesets)
    i = next(k for k, t in enumerate(tilesets) if t.id == tileset_id)
    tilesets[i] = tilesets[i].with_tile(tile, replace(tilesets[i].info(tile), **changes))
    return SetTilesetsCommand(document, tilesets, text)


def set_tile_type_command(document: LevelDocument, tileset_id: str, tile: int, type_name: str) -> SetTilesetsCommand:
    """Give tile ``tile`` the type ``type_name`` (the game's name for what it is), keeping its other info."""
    name = document.level.tileset(tileset_id).name
    text = f"Set type of tile {tile} of '{name}' to {type_name}" if type_name else \
        f"Clear type of tile {tile} of '{name}'"
    return _with_info(document, tileset_id, tile, text, type=type_name)


class TileProperties(_DictSource):
    """The custom properties of one tile of a tileset; ``which()`` says which: ``(tileset id, tile)``."""

    def __init__(self, context, which: Callable[[], Optional[tuple[str, int]]]):
        super().__init__(context)
        self._which = which

    @property
    def subject(self) -> str:
        which = self._which()
        return f"tile {which[1]} of {which[0]}" if which else "tile"

    def _read(self) -> Mapping:
        which = self._which()
        tileset = self.document.level.tileset(which[0]) if which else None
        return tileset.info(which[1]).properties if tileset is not None else {}

    def _write(self, properties: dict, label: str) -> None:
        which = self._which()
        if which is not None:
            self.context.push(_with_info(self.document, which[0], which[1], label, properties=properties))
