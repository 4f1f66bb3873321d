"""The writer: a level as the file's JSON, each object as its kind's description says (:mod:`.fields`).

An object is written as a dict (:func:`object_to_dict`, for the clipboard, the Tiled exporter and custom
data) or, when saving, straight as its line of the file (:func:`object_line`), from the same description:
the line writer is written out from it once, at import, so that saving 100,000 objects makes no dict and no
list per point. Both give the same text.
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Callable, Optional

from level_editor.core.level.atomic import LevelSaveError, write_blocks_atomic
from level_editor.core.level.collector import paused_collector
from level_editor.core.level.format.fields import FORMAT, KINDS, PLAYER_SETTINGS, VERSION, Kind
from level_editor.core.level.number_text import file_number
from level_editor.core.level.format.text import (
    TRUE_FALSE, NotPlain, NumberTexts, escape_surrogates, hull_blocks, nodes_text, one_line, pt, quote, rows_text,
)
from level_editor.core.level.limits import MAX_NESTING
from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.art import TileInfo, Tileset
from level_editor.core.level.model import Layer, Level, ObjectType, Player, Ref

__all__ = ["dict_writer", "line_writer", "object_to_dict", "object_line", "property_to_json", "properties_to_dict",
           "player_to_dict", "layer_to_dict", "tileset_to_dict", "type_to_dict", "level_to_dict", "level_blocks", "dumps_level",
           "save_level"]

def property_to_json(value) -> Any:
    """A custom property's JSON value (an object reference becomes ``{"ref": ID}``).

    >>> property_to_json(Ref("lever")), property_to_json(3)
    ({'ref': 'lever'}, 3)
    """
    return {"ref": value.id} if isinstance(value, Ref) else value


def properties_to_dict(properties) -> dict:
    return {k: property_to_json(v) for k, v in properties.items()}


def dict_writer(kinds: Mapping[str, Kind]) -> Callable[[Any], dict]:
    """The function that writes an object of ``kinds`` as its JSON object (:func:`object_to_dict` of every kind)."""
    # per model class: whether it may be non-solid, and what to write of each field
    by_class = {kind.model: (kind.solid, tuple((f.name, f.value.to_json, f.omit_default, f.default, f.omit)
                                               for f in kind.fields), kind.keys, kind.solid_default)
                for kind in kinds.values()}

    def object_to_dict(obj) -> dict:
        """The JSON object for one level object: the common keys, its kind's fields, then its unknown keys.

        >>> from level_editor.core.level.model import Box
        >>> object_to_dict(Box("b", (0, 0), (64, 32.5), solid=False))
        {'id': 'b', 'kind': 'box', 'layer': 'main', 'origin': [0, 0], 'size': [64, 32.5], 'solid': False}
        """
        try:
            solid, fields, known, solid_default = by_class[obj.__class__]
        except KeyError:
            raise TypeError(f"not a level object: {type(obj).__name__}") from None
        d: dict[str, Any] = {"id": obj.id, "kind": obj.kind, "layer": obj.layer}
        if obj.type:
            d["type"] = obj.type
        for name, to_json, omit_default, default, omit in fields:
            value = getattr(obj, name)
            if (omit_default and value == default) or (omit is not None and omit(obj)):
                continue
            d[name] = value if to_json is None else to_json(value)
        if solid and obj.solid != solid_default:
            d["solid"] = obj.solid
        if obj.properties:
            d["properties"] = properties_to_dict(obj.properties)
        for k, v in obj.extra.items():
            if k not in known:  # custom data under a key the file knows (never read from a file) is not written
                d[k] = v
        return d

    return object_to_dict


def line_writer(kinds: Mapping[str, Kind], object_to_dict: Callable[[Any], dict]) -> Callable:
    """The function that writes an object of ``kinds`` as its line of the file: ``one_line(object_to_dict(obj))``.

    It is written out as Python from the description, one f-string per kind with the numbers looked up in
    ``n`` (a :class:`~.text.NumberTexts`), and compiled once: a loop over the fields, calling each value's
    writer, took a quarter longer to save 100,000 objects, and a dict per object (the general path) half as
    long again (dataclasses writes ``__init__`` the same way, for the same reason). Numbers that are not plain
    floats, custom data under a key the file knows or not named by text, and kinds with a value that has no
    text of its own take the general path, ``object_to_dict``: the same text.
    """
    known = frozenset().union(*(kind.keys for kind in kinds.values()))
    scope: dict[str, Any] = {"quote": quote, "TRUE_FALSE": TRUE_FALSE, "nodes_text": nodes_text,
                             "rows_text": rows_text, "NotPlain": NotPlain, "one_line": one_line,
                             "object_to_dict": object_to_dict, "properties_to_dict": properties_to_dict,
                             "extra_text": lambda extra: _extra_text(extra, known)}
    lines = ["def object_line(obj, n):",
             "    cls = obj.__class__",
             "    try:",
             """        line = f'{{"id": {quote(obj.id)}, "kind": "{obj.kind}", "layer": {quote(obj.layer)}'""",
             "        if obj.type:",
             """            line += f', "type": {quote(obj.type)}'"""]
    branch = "if"
    for i, kind in enumerate(kinds.values()):
        if any(f.value.text is None or f.omit is not None for f in kind.fields) or not kind.solid_default:
            continue
        for f in kind.fields:
            scope.update(f.value.scope)
        scope[f"cls_{i}"] = kind.model
        text = {f.name: f', {quote(f.name)}: {f.value.text.replace("$v", f"obj.{f.name}")}' for f in kind.fields}
        lines.append(f"        {branch} cls is cls_{i}:")
        lines.append(f"            line += f'{''.join(text[f.name] for f in kind.fields if not f.omit_default)}'")
        for f in kind.fields:
            if f.omit_default:
                scope[f"default_{i}_{f.name}"] = f.default
                lines += [f"            if obj.{f.name} != default_{i}_{f.name}:",
                          f"                line += f'{text[f.name]}'"]
        if kind.solid:
            lines += ["            if not obj.solid:",
                      """                line += ', "solid": false'"""]
        branch = "elif"
    lines += ["        else:",
              "            return one_line(object_to_dict(obj))",
              "        if obj.properties:",
              """            line += f', "properties": {one_line(properties_to_dict(obj.properties))}'""",
              "        if obj.extra:",
              "            extra = extra_text(obj.extra)",
              "            if extra is None:",
              "                return one_line(object_to_dict(obj))",
              "            line += extra",
              "    except NotPlain:",
              "        return one_line(object_to_dict(obj))",
              "    return line + '}'"]
    source = "\n".join(lines)
    exec(compile(source, f"<line writer of {', '.join(kinds)}>", "exec"), scope)
    writer = scope["object_line"]
    writer.source = source  # what was compiled, for whoever debugs it
    return writer


def _extra_text(extra: Mapping, known: frozenset) -> Optional[str]:
    """An object's custom data as the end of its line (``, "key": value`` each), or None for the general path.

    None when a key is one the file knows (the dict writer leaves such custom data out, a rule best left to
    it) or is not text (json spells those its own way); neither comes from reading a file.
    """
    if not known.isdisjoint(extra) or not all(k.__class__ is str for k in extra):
        return None
    return "".join([f", {quote(k)}: {one_line(v)}" for k, v in extra.items()])


#: Every kind's writers: ``object_to_dict(obj)``, and ``object_line(obj, n)``, its line of the file.
object_to_dict = dict_writer(KINDS)
object_line = line_writer(KINDS, object_to_dict)


_DEFAULT_PLAYER = Player()


def player_to_dict(player: Player) -> dict:
    d: dict[str, Any] = {"spawn": pt(player.spawn), "shape": player.shape}
    # The value in use always; the other one only when it is not the default (it was in the file, or was
    # set before the shape was switched), so the file keeps it and says no more than it needs to.
    active, other = ("size", "radius") if player.shape == "box" else ("radius", "size")
    values = {"radius": file_number(player.radius), "size": pt(player.size)}
    d[active] = values[active]
    if getattr(player, other) != getattr(_DEFAULT_PLAYER, other):
        d[other] = values[other]
    d["speed"] = file_number(player.speed)
    # The platformer's settings: all of them for a platformer (the file says how it plays), and for a
    # top-down player those set to something else than the default (kept for switching back, as the size).
    platformer = player.controller != "top_down"
    if platformer:
        d["controller"] = player.controller
    for setting in PLAYER_SETTINGS:
        value = getattr(player, setting.name)
        if (platformer and value is not None) or value != setting.default:
            d[setting.name] = file_number(value)
    for k, v in player.extra.items():
        d.setdefault(k, v)
    return d


def layer_to_dict(layer: Layer) -> dict:
    d: dict[str, Any] = {"id": layer.id, "name": layer.name, "visible": layer.visible, "locked": layer.locked}
    if layer.opacity != 1.0:
        d["opacity"] = file_number(layer.opacity)
    for k, v in layer.extra.items():
        d.setdefault(k, v)
    return d


def _tile_to_dict(number: int, info: TileInfo) -> dict:
    d: dict[str, Any] = {"tile": number}
    if info.image:
        d["image"] = info.image
        if info.image_size is not None:
            d["image_size"] = pt(info.image_size)
    if info.type:
        d["type"] = info.type
    if info.collision:
        d["collision"] = [s.to_json() for s in info.collision]
    if info.properties:
        d["properties"] = properties_to_dict(info.properties)
    for k, v in info.extra.items():
        d.setdefault(k, v)
    return d


def tileset_to_dict(tileset: Tileset) -> dict:
    """The tileset as the file's JSON object."""
    d: dict[str, Any] = {"id": tileset.id, "name": tileset.name}
    if tileset.image:
        d["image"] = tileset.image
        if tileset.image_size is not None:
            d["image_size"] = pt(tileset.image_size)
    d["tile_size"] = pt(tileset.tile_size)
    if tileset.image:
        d.update(margin=tileset.margin, spacing=tileset.spacing, columns=tileset.columns, count=tileset.count)
    if tileset.offset != Vec2(0.0, 0.0):
        d["offset"] = pt(tileset.offset)
    if tileset.transparent:
        d["transparent"] = tileset.transparent
    if tileset.tiles:
        d["tiles"] = [_tile_to_dict(n, tileset.tiles[n]) for n in sorted(tileset.tiles)]
    for k, v in tileset.extra.items():
        d.setdefault(k, v)
    return d


def type_to_dict(object_type: ObjectType) -> dict:
    d: dict[str, Any] = {"name": object_type.name, "color": object_type.color,
                         "properties": properties_to_dict(object_type.properties)}
    for k, v in object_type.extra.items():
        d.setdefault(k, v)
    return d


def level_to_dict(level: Level, hulls: Optional[dict] = None) -> dict:
    """The level as a JSON-ready dict, ``hulls`` included (``{}`` when not given)."""
    return _level_dict(level, [object_to_dict(o) for o in level.objects], hulls)


def _level_dict(level: Level, objects: list, hulls: Optional[dict]) -> dict:
    d: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "name": level.name,
        "grid": file_number(level.grid),
        "properties": properties_to_dict(level.properties),
        "types": [type_to_dict(t) for t in level.types],
        "layers": [layer_to_dict(layer) for layer in level.layers],
    }
    # version 3's art, written only when there is some (a level without it saves as before)
    if level.tilesets:
        d["tilesets"] = [tileset_to_dict(t) for t in level.tilesets]
    if level.size is not None:
        d["size"] = pt(level.size)
    if level.background:
        d["background"] = level.background
    d.update({
        "player": player_to_dict(level.player),
        "objects": objects,
        "hulls": hulls if hulls is not None else {},
    })
    for k, v in level.extra.items():
        d.setdefault(k, v)
    return d


def dumps_level(level: Level, hulls: Optional[Mapping] = None) -> str:
    """The level as JSON text: one object per line, so diffs of level files stay readable.

    The objects, layers and types one per line; the ``hulls`` too, one object's per line.
    Numbers are the shortest decimals that read back as the same floats (whole ones without ``.0``).

    Raises
    ------
    ValueError
        When custom data cannot be written (nested deeper than Python's json goes, or not finite);
        :func:`save_level` turns it into a :class:`~level_editor.core.level.atomic.LevelSaveError`.

    Examples
    --------
    >>> print(dumps_level(Level(name="Tiny")))  # doctest: +NORMALIZE_WHITESPACE
    {
      "format": "level-editor.level",
      "version": 3,
      "name": "Tiny",
      "grid": 16,
      "properties": {},
      "types": [],
      "layers": [
        {"id": "main", "name": "Main", "visible": true, "locked": false}
      ],
      "player": {"spawn": [64, 64], "shape": "circle", "radius": 12, "speed": 240},
      "objects": [],
      "hulls": {}
    }
    """
    return "".join(b.decode("utf-8") if isinstance(b, bytes) else b for b in level_blocks(level, hulls))


#: Objects per block of :func:`level_blocks`.
_OBJECTS_PER_BLOCK = 4096


def level_blocks(level: Level, hulls: Optional[Mapping] = None) -> Iterator[str | bytes]:
    """The text of :func:`dumps_level` in blocks (str, or bytes in UTF-8), made as they are asked for.

    A save writes each block as it comes (:func:`level_editor.core.level.atomic.write_blocks_atomic`), so a level of
    100,000 objects is never whole in memory, as text or as dicts. The collector is paused while a
    block is made.

    Raises
    ------
    ValueError
        As :func:`dumps_level`, when the block with the faulty custom data is made.
    """
    blocks = _level_blocks(level, hulls)
    while True:
        # paused while each block is made, never across a yield: a write that fails half-way leaves this
        # generator suspended until it is collected, and the collector must not stay off meanwhile
        with paused_collector():
            block = next(blocks, None)
        if block is None:
            return
        yield block


def _level_blocks(level: Level, hulls: Optional[Mapping]) -> Iterator[str | bytes]:
    d = _level_dict(level, [], None)
    parts = ["{"]
    try:
        for k, v in d.items():
            if k in ("types", "layers", "tilesets") and v:
                # one type and one layer per line, as objects: a diff shows which one changed
                parts.append(f"  {one_line(k)}: [")
                parts.append(",\n".join("    " + one_line(item) for item in v))
                parts.append("  ],")
            elif k not in ("objects", "hulls"):
                parts.append(f"  {one_line(k)}: {one_line(v)},")
        objects = level.objects
        if objects:
            parts.append('  "objects": [\n')
            yield escape_surrogates("\n".join(parts))
            for first in range(0, len(objects), _OBJECTS_PER_BLOCK):
                block = objects[first:first + _OBJECTS_PER_BLOCK]
                numbers = NumberTexts()  # per block: the numbers of 100,000 objects would take 60 MB
                text = ",\n".join(["    " + object_line(o, numbers) for o in block])
                yield escape_surrogates(text if first == 0 else ",\n" + text)
            parts = ["\n  ],"]
        else:
            parts.append('  "objects": [],')
        if hulls:  # the megabytes of hulls as they are made, not copied into a line first
            parts.append('  "hulls": {\n')
            yield escape_surrogates("\n".join(parts))
            for block in hull_blocks(hulls):
                yield escape_surrogates(block) if isinstance(block, str) else block
            parts = ["\n  }"]
        else:
            parts.append('  "hulls": {}')
    except RecursionError:
        raise ValueError(f"custom data is nested deeper than {MAX_NESTING} levels; it cannot be written") from None
    parts.append("}\n")
    yield escape_surrogates("\n".join(parts))


def save_level(
    level: Level,
    path: str | os.PathLike,
    hulls: Optional[dict] = None,
) -> None:
    """Write ``level`` to ``path`` atomically, with ``hulls`` as given (``{}`` when not given).

    The hulls are computed by the caller (:func:`level_editor.core.checks.check.check_level`):
    the file format knows nothing of shapely.

    Raises
    ------
    LevelSaveError
        When the file cannot be written. The old file, if any, is left whole.
    """
    try:
        write_blocks_atomic(path, level_blocks(level, hulls))
    except ValueError as e:
        raise LevelSaveError(f"could not save {os.fspath(path)}: {e}") from None
