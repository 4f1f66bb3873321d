"""What a game imports: load a level, read its objects, and move its player with the play-test's own code.

::

    from level_editor.core.runtime import load_level, Player, LevelError

    level = load_level("levels/game_content.json")   # any version; a bad file raises LevelError
    for thing in level.objects_of_type("enemy"):
        spawn_enemy(thing.position, thing.properties["health"])
    player = Player(level)                            # at the spawn
    events = player.step(move_x, move_y, jump)        # one tick of 1/60 s; the areas entered and left

:meth:`Player.step` runs :class:`level_editor.core.playtest.simulation.Simulation`,
the code the editor's play-test (F5) and ``level-editor simulate`` run: the
ticks of a replay fed to ``step`` give the trace ``simulate`` writes for it,
bit for bit. Nothing here loads Qt or shapely, so a game depends on the
collision code and the file reader only.

Objects are read-only views of the level's objects: the fields a game needs
(:attr:`GameObject.id`, ``kind``, ``layer``, ``type``, ``solid``, the merged
``properties``) and the geometry fields of their kind as the level file names
them (a box's ``origin`` and ``size``, a wall's ``points``...; see
:class:`GameObject`), so a game can draw them.

>>> import json
>>> text = json.dumps({
...     "format": "level-editor.level", "version": 2, "name": "Tiny",
...     "types": [{"name": "exit_zone", "color": "#40c070", "properties": {"next_level": "maze.json"}}],
...     "layers": [{"id": "main", "name": "Main", "visible": True, "locked": False}],
...     "player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60},
...     "objects": [
...         {"id": "wall", "kind": "box", "layer": "main", "origin": [-20, 20], "size": [40, 8]},
...         {"id": "exit", "kind": "box", "layer": "main", "type": "exit_zone", "solid": False,
...          "origin": [8, -10], "size": [20, 20]}]})
>>> level = loads_level(text, "tiny.json")  # load_level(path) reads a file
>>> [(o.id, o.kind, o.type, o.solid) for o in level.objects]
[('wall', 'box', None, True), ('exit', 'box', 'exit_zone', False)]
>>> level.object("exit").properties["next_level"], level.object("exit").origin
('maze.json', Vec2(x=8.0, y=-10.0))
>>> player = Player(level)
>>> for _ in range(4):
...     print(player.step(1, 0, False))  # right at 60 px/s: 1 px a tick; the exit is touched at x = 3
()
()
((2, 'enter', 'exit'),)
()
>>> player.position, player.events
(Vec2(x=4.0, y=0.0), [(2, 'enter', 'exit')])
>>> for _ in range(30):
...     _ = player.step(0, 1, False)  # down into the wall: stopped a hair short of it (its top is at y = 20)
>>> round(player.position.y, 2)
15.0
"""
from __future__ import annotations

import os
import re
from types import MappingProxyType
from typing import Mapping, Optional, Union

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level import file_format
from level_editor.core.level.model import Level as LevelModel, Ref
from level_editor.core.level.reading import LevelFileError
from level_editor.core.playtest.replay import input_problem
from level_editor.core.playtest.simulation import DEFAULT_DT, Simulation

__all__ = ["TICK", "LevelError", "Ref", "GameObject", "Level", "Player", "load_level", "loads_level"]

#: The length of one :meth:`Player.step` (s): the play-test's fixed tick, 1/60 s.
TICK = DEFAULT_DT

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class LevelError(LevelFileError):
    """A level file that cannot be read, is not JSON, or is not a valid level.

    ``str()`` is one line, the file and its first problem as ``level-editor
    check`` words it (``PATH: OBJECT-ID: message``, ``-`` for the level itself),
    with how many more there are. ``problems`` lists them all; ``source`` is the
    path; ``unreadable`` is true when the file could not be read or parsed at all.

    >>> try:
    ...     loads_level('{"format": "level-editor.level", "version": 99}', "old.json")
    ... except LevelError as e:
    ...     print(e)
    old.json: -: unknown version 99 of format 'level-editor.level': this program reads versions 1 to 3
    """

    def _message(self) -> str:
        if not self.problems:
            return f"{self.source}: not a valid level"
        more = len(self.problems) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        # ids and names in a hostile file may hold line breaks: the message stays one line
        text = f"{self.source}: {self.problems[0]}{tail}"
        return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def load_level(path: Union[str, os.PathLike]) -> "Level":
    """Read the level file at ``path`` (any version: older ones are migrated as the editor migrates them).

    The file is checked as the editor and ``level-editor check`` check it when
    they read it (structure, types, ranges, references); geometry is not
    validated here (that needs shapely): run ``level-editor check`` on your
    levels when you build the game.

    Raises
    ------
    LevelError
        When the file is missing, cannot be read, is not JSON or is not a valid level.
    """
    try:
        return Level(file_format.load_level(path), folder=os.path.dirname(os.path.abspath(os.fspath(path))))
    except LevelFileError as e:
        raise LevelError(e.source, e.problems, e.unreadable) from None


def loads_level(text: Union[str, bytes], source: str = "<level>", folder: Optional[str] = None) -> "Level":
    """A level from the text of a level file (a level packed in the game's own archive); ``source`` names it, and
    ``folder`` is where its pictures' paths start (:meth:`Level.picture_path`; None: the current folder).

    >>> loads_level('{"format": "level-editor.level", "version": 1, "name": "Empty", '
    ...             '"player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60}, "objects": []}').name
    'Empty'

    Raises
    ------
    LevelError
        As :func:`load_level`.
    """
    try:
        return Level(file_format.loads_level(text, source), folder=folder)
    except LevelFileError as e:
        raise LevelError(e.source, e.problems, e.unreadable) from None


#: The fields (and a few helpers) each kind of object shows, named as in the level file.
_GEOMETRY: dict[str, tuple[str, ...]] = {
    "wall": ("points", "thickness", "closed", "one_way", "path"),
    "box": ("origin", "size", "one_way", "path"),
    "oriented_box": ("center", "half_extents", "rotation", "corners", "one_way", "path"),
    "circle": ("center", "radius", "path"),
    "tiles": ("origin", "cell", "cells", "rows", "columns", "is_solid", "one_way", "path", "tileset", "tiles",
              "tile_at", "painted_tiles"),
    "sprite": ("center", "size", "rotation", "flip_x", "flip_y", "opacity", "tileset", "tile", "picture",
               "corners"),
    "point": ("position",),
    "image": ("path", "origin", "scale", "opacity"),
}


class GameObject:
    """One object of a level, read-only: what it is, its properties, and its shape.

    Every object has ``id``, ``kind`` (``"wall"``, ``"box"``,
    ``"oriented_box"``, ``"circle"`` (a pillar), ``"tiles"``, ``"sprite"``,
    ``"point"`` (a marker) or ``"image"``), ``layer`` (a layer id), ``type``
    (the game's name for it, or None), ``solid`` (False for an area the player
    passes through, a marker, an image, and a sprite that is only art),
    ``properties``, ``color`` and ``bounds``.

    The shape is the kind's fields as the level file names them, points as
    ``Vec2`` (a tuple ``(x, y)`` of floats), y pointing down:

    ============  ==================================================================
    wall          ``points`` (the nodes), ``thickness``, ``closed``
    box           ``origin`` (the top-left corner), ``size``
    oriented_box  ``center``, ``half_extents``, ``rotation`` (degrees, clockwise on
                  screen), ``corners()``
    circle        ``center``, ``radius``
    tiles         ``origin``, ``cell`` (side of a cell), ``cells`` (rows of ``#``
                  solid and ``.`` empty), ``rows``, ``columns``, ``is_solid(col, row)``;
                  a grid that paints a tileset's tiles: ``tileset`` (its id; ``""``
                  for plain cells), ``tiles`` (rows of cells: a tile's number with
                  Tiled's flip bits, -1 for none), ``tile_at(col, row)``, and
                  ``painted_tiles()``: each tile placed and flipped as the editor
                  draws it (:class:`~level_editor.core.level.art.PaintedTile`)
    sprite        ``center``, ``size`` (its picture is stretched to it), ``rotation``
                  (degrees, clockwise on screen, about the centre), ``flip_x``,
                  ``flip_y`` (mirrored before it is turned), ``opacity``, ``corners()``;
                  its picture is the tile ``tile`` of tileset ``tileset``, or (no
                  tileset) the file ``picture`` (relative to the level file)
    point         ``position``
    image         ``path`` (relative to the level file), ``origin``, ``scale``, ``opacity``
    ============  ==================================================================

    >>> level = loads_level('{"format": "level-editor.level", "version": 1, '
    ...     '"player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60}, '
    ...     '"objects": [{"id": "pillar-1", "kind": "circle", "center": [40, 8], "radius": 6}]}')
    >>> pillar = level.object("pillar-1")
    >>> pillar
    GameObject(id='pillar-1', kind='circle', layer='main', type=None)
    >>> pillar.center, pillar.radius, pillar.bounds
    (Vec2(x=40.0, y=8.0), 6.0, (34.0, 2.0, 46.0, 14.0))
    >>> pillar.origin
    Traceback (most recent call last):
    ...
    AttributeError: a circle has no 'origin' (it has center, radius, path)
    >>> pillar.radius = 7
    Traceback (most recent call last):
    ...
    AttributeError: level objects are read-only ('radius')
    """

    __slots__ = ("_object", "_properties", "_color")

    def __init__(self, obj, properties: Mapping, color: Optional[str]):
        object.__setattr__(self, "_object", obj)
        object.__setattr__(self, "_properties", MappingProxyType(properties))
        object.__setattr__(self, "_color", color)

    @property
    def id(self) -> str:
        """The object's id, unique in its level."""
        return self._object.id

    @property
    def kind(self) -> str:
        """What it is, as the file says: wall, box, oriented_box, circle, tiles, point or image."""
        return self._object.kind

    @property
    def layer(self) -> str:
        """The id of its layer (:attr:`Level.layers` lists them bottom to top)."""
        return self._object.layer

    @property
    def type(self) -> Optional[str]:
        """The game's name for what the object is ("enemy", "door"), or None when it has none."""
        return self._object.type or None

    @property
    def solid(self) -> bool:
        """Whether the player collides with it: False for an area it passes through, a marker or an image."""
        return bool(self._object.solid)

    @property
    def properties(self) -> Mapping:
        """Its custom properties: its type's defaults overlaid with its own (read-only).

        Values are ``str``, ``int``, ``float``, ``bool``, or a :class:`Ref` whose
        ``id`` names another object (``""`` for none).
        """
        return self._properties

    @property
    def color(self) -> Optional[str]:
        """Its type's display colour (``"#rrggbb"``), or None when it has no type or the level does not list it."""
        return self._color

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(min_x, min_y, max_x, max_y)`` of the whole shape (a wall with its thickness; an image: its origin)."""
        return self._object.bounds()

    def __getattr__(self, name: str):
        if name.startswith("_"):  # a slot not set yet (a copy being made): no recursion through _object
            raise AttributeError(name)
        fields = _GEOMETRY.get(self._object.kind, ())
        if name in fields:
            return getattr(self._object, name)
        raise AttributeError(f"a {self._object.kind} has no {name!r} (it has {', '.join(fields)})")

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"level objects are read-only ({name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"level objects are read-only ({name!r})")

    def __dir__(self):
        return sorted({*super().__dir__(), *_GEOMETRY.get(self._object.kind, ())})

    def __repr__(self) -> str:
        return f"GameObject(id={self.id!r}, kind={self.kind!r}, layer={self.layer!r}, type={self.type!r})"


class Level:
    """A loaded level, read-only: its objects, layers and properties (:func:`load_level` makes one).

    Attributes
    ----------
    name : str
        The level's name.
    objects : tuple of GameObject
        Every object, in file order.
    layers : tuple of str
        The layer ids, bottom to top (objects draw in layer order, then file order: :meth:`drawing_order`);
        :meth:`layer` gives a layer's name, ``visible`` and ``opacity``.
    tilesets : Mapping of str to Tileset
        The tilesets by id (:class:`level_editor.core.level.art.Tileset`, read-only): a tile's picture is
        ``picture_of(tile)`` (a path relative to the level file: :meth:`picture_path`), the part
        ``source_rect(tile)`` of it, drawn at ``tile_picture_size(tile)``; ``info(tile)`` has its ``type``,
        ``properties`` and ``collision`` shapes.
    size : Vec2 or None
        The level's size when it has one (a map imported from Tiled keeps the map's): what a game shows.
    background : str or None
        Its background colour (``"#rrggbb"``), when it has one.
    folder : str or None
        The level file's folder, where its pictures' paths start (:meth:`picture_path`).
    properties : Mapping
        The level's own custom properties (read-only).
    spawn : Vec2
        Where the player starts.
    model : level_editor.core.level.model.Level
        The immutable model the editor edits, for what this view does not show.

    >>> level = loads_level('{"format": "level-editor.level", "version": 1, '
    ...     '"player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": 60}, '
    ...     '"objects": [{"id": "box-1", "kind": "box", "origin": [40, 0], "size": [8, 8]}]}')
    >>> level.object("door")
    Traceback (most recent call last):
    ...
    KeyError: "no object with id 'door' in level 'Untitled'"
    """

    __slots__ = ("model", "objects", "folder", "_by_id")

    def __init__(self, model: LevelModel, folder: Optional[str] = None):
        if not isinstance(model, LevelModel):
            raise TypeError(f"Level wraps a level_editor.core.level.model.Level, not {type(model).__name__} "
                            f"(use load_level(path))")
        colors = {t.name: t.color for t in model.types}
        objects = tuple(GameObject(o, model.properties_of(o), colors.get(o.type)) for o in model.objects)
        object.__setattr__(self, "model", model)
        object.__setattr__(self, "objects", objects)
        object.__setattr__(self, "folder", folder)
        object.__setattr__(self, "_by_id", {o.id: o for o in objects})

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a level is read-only ({name!r})")

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def layers(self) -> tuple[str, ...]:
        return tuple(layer.id for layer in self.model.layers)

    @property
    def properties(self) -> Mapping:
        return MappingProxyType(self.model.properties)

    @property
    def tilesets(self) -> Mapping:
        return MappingProxyType({t.id: t for t in self.model.tilesets})

    @property
    def size(self) -> Optional[Vec2]:
        return self.model.size

    @property
    def background(self) -> Optional[str]:
        return self.model.background or None

    def layer(self, layer_id: str):
        """The layer of this id (:class:`level_editor.core.level.model.Layer`: ``name``, ``visible``, ``opacity``).

        The editor's ``render`` leaves hidden layers out and draws each layer's art at its opacity; a game may too.

        Raises
        ------
        KeyError
            When the level has no layer of that id.
        """
        for layer in self.model.layers:
            if layer.id == layer_id:
                return layer
        raise KeyError(f"no layer with id {layer_id!r} in level {self.name!r}")

    def picture_path(self, path: str) -> str:
        """Where a picture named in the level (an image's, a sprite's or a tileset's path, relative to the level
        file) is on disk: joined to the level file's folder (for :func:`loads_level`, its ``folder``)."""
        if os.path.isabs(path):
            return path
        return os.path.join(self.folder or "", *path.split("/"))

    @property
    def spawn(self) -> Vec2:
        return self.model.player.spawn

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(min_x, min_y, max_x, max_y)`` of every object and the player at the spawn."""
        return self.model.bounds()

    def object(self, object_id: Union[str, Ref]) -> GameObject:
        """The object with this id (or the one a :class:`Ref` property names).

        Raises
        ------
        KeyError
            When the level has no object of that id (an empty reference names none).
        """
        key = object_id.id if isinstance(object_id, Ref) else object_id
        try:
            return self._by_id[key]
        except (KeyError, TypeError):
            raise KeyError(f"no object with id {key!r} in level {self.name!r}") from None

    def objects_of_type(self, type_name: str) -> tuple[GameObject, ...]:
        """The objects whose ``type`` is ``type_name``, in file order (none: an empty tuple)."""
        return tuple(o for o in self.objects if o.type == type_name)

    def drawing_order(self) -> tuple[GameObject, ...]:
        """The objects in the order to draw them, as the editor and ``render`` draw them: by layer, bottom to top;
        on a layer its images first (pictures traced over stay under what is drawn on them), then the rest; each
        in file order."""
        return tuple(self._by_id[o.id] for o in self.model.drawing_order())

    def __repr__(self) -> str:
        return f"<Level {self.name!r}: {len(self.objects)} objects>"


class Player:
    """The level's player, moved one fixed tick at a time by the play-test's own simulation.

    Parameters
    ----------
    level : Level
        A level from :func:`load_level`.
    start : (x, y), optional
        Where the player starts (the spawn by default), as a replay's ``start``.

    The player moves with the level's controller: top-down (it moves freely
    at the level's ``speed``, slides along walls and never overlaps them;
    ``on_floor`` is always False and ``jump`` is ignored) or platformer
    (gravity, runs at ``speed``, jumps; see
    :mod:`level_editor.core.playtest.platformer`).

    >>> level = loads_level('{"format": "level-editor.level", "version": 1, '
    ...     '"player": {"spawn": [10, 20], "shape": "box", "size": [8, 12], "speed": 120}, "objects": []}')
    >>> player = Player(level)
    >>> player.shape, player.size, player.position
    ('box', Vec2(x=8.0, y=12.0), Vec2(x=10.0, y=20.0))
    >>> player.step(0.5, -1, True)
    ()
    >>> player.position, player.tick, player.on_floor
    (Vec2(x=11.0, y=18.0), 1, False)
    >>> player.step(2, 0, False)
    Traceback (most recent call last):
    ...
    ValueError: move_x must be in [-1, 1], not 2
    """

    __slots__ = ("level", "_simulation", "_speed")

    def __init__(self, level: Level, start=None):
        if not isinstance(level, Level):
            raise TypeError(f"Player takes a level from load_level(), not {type(level).__name__}")
        self.level = level
        self._simulation = Simulation(level.model, start=start, dt=TICK)
        self._speed = level.model.player.speed

    def step(self, move_x: float, move_y: float, jump=False) -> tuple[tuple[int, str, str], ...]:
        """Advance one tick of :data:`TICK` seconds with what the player presses; returns this tick's events.

        Parameters
        ----------
        move_x, move_y : float
            The stick, or the arrow keys as -1, 0 or 1: finite numbers in [-1, 1].
            The player wishes to move at ``speed * (move_x, move_y)`` px/s (so a
            diagonal of two keys is faster than one key, as in a version 2 replay).
        jump : bool or 0 or 1
            Whether the jump button is held (ignored by the top-down player).

        Returns
        -------
        tuple of (tick, "enter" | "leave", object id)
            The areas (non-solid objects) the player's shape started or stopped
            overlapping in this tick: the leaves first, then the enters, each in
            file order. Usually empty. :attr:`events` keeps them all.

        Raises
        ------
        ValueError
            When an input is not a number or out of range; the message names it.
        """
        problem = input_problem(move_x, move_y, jump)
        if problem is not None:
            raise ValueError(problem)
        events = self._simulation.events
        before = len(events)
        self._simulation.step_inputs(move_x, move_y, jump)
        return tuple(events[before:])

    @property
    def position(self) -> Vec2:
        """The centre of the player's shape: a ``Vec2``, which is the tuple ``(x, y)`` of floats."""
        return self._simulation.position

    @property
    def on_floor(self) -> bool:
        """Whether the player stands on a floor after the last tick (never, for the top-down player)."""
        return self._simulation.on_floor

    @property
    def events(self) -> list[tuple[int, str, str]]:
        """Every ``(tick, "enter" | "leave", object id)`` so far, in order (a copy)."""
        return list(self._simulation.events)

    @property
    def tick(self) -> int:
        """How many ticks have run (the next step is tick number ``tick``)."""
        return self._simulation.tick

    @property
    def inside(self) -> tuple[str, ...]:
        """The ids of the areas the player overlaps now, in file order."""
        return self._simulation.inside

    @property
    def controller(self) -> str:
        """How the player moves: ``"top_down"``."""
        return "top_down"

    @property
    def shape(self) -> str:
        """``"circle"`` (see :attr:`radius`) or ``"box"`` (see :attr:`size`; never rotated)."""
        return self.level.model.player.shape

    @property
    def radius(self) -> float:
        return self.level.model.player.radius

    @property
    def size(self) -> Vec2:
        """Width and height of a box player."""
        return self.level.model.player.size

    @property
    def speed(self) -> float:
        """Top speed in px/s."""
        return self._speed

    def __repr__(self) -> str:
        x, y = self.position
        return f"<Player at ({x}, {y}) after {self.tick} ticks>"
