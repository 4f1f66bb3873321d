"""Flipping and turning objects by quarter turns about a pivot, exactly.

A flip or a quarter turn is one of the grid's own symmetries: an integer matrix
whose entries are -1, 0 or 1. Each new coordinate is then one old coordinate,
perhaps negated, plus a constant (``x' = -y + (px + py)``), never a sine or a
cosine, so a box on the grid lands on the grid, a quarter turn done four times
(or a flip done twice) gives back exactly the level it started from, and there
is no ``1e-16`` left over anywhere. That holds for every coordinate that is a
multiple of 1/1024 px (anything the grid or the snapping gives, to a billion
pixels); any other coordinate is rounded once, to the nearest number a float
holds, and never drifts further than that rounding.

What each kind does (y points down, a positive turn is clockwise on screen):

- walls, pillars, markers: their nodes, centres and positions move;
- boxes stay axis-aligned: a quarter turn swaps width and height about the
  box's new centre;
- oriented boxes: the centre moves and the rotation turns with them (a flip
  negates it); a rectangle looks the same after half a turn, so the rotation
  is kept within (-90, 90];
- tile grids: the cells are flipped or turned with the grid;
- reference images stay as they are (their size is the picture's, unknown here,
  and a picture cannot be shown mirrored): :func:`transformable` says so;
- the player's spawn moves (its body is never turned).

>>> from level_editor.core.level.model import Box
>>> box = Box("box-1", (240, 80), (64, 32))
>>> pivot = selection_pivot([box])
>>> pivot
Vec2(x=272.0, y=96.0)
>>> turned = transform_object(box, ROTATE_CLOCKWISE, pivot)
>>> turned.origin, turned.size
(Vec2(x=256.0, y=64.0), Vec2(x=32.0, y=64.0))
>>> back = box
>>> for _ in range(4):
...     back = transform_object(back, ROTATE_CLOCKWISE, pivot)
>>> back == box
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable, Optional, Sequence

from level_editor.core.collision.shapes import Vec2
from level_editor.core.level.model import (Box, Image, LevelObject, OrientedBox, Pillar, Player, Point, Sprite, Tiles,
                                          Wall)

__all__ = [
    "Symmetry",
    "FLIP_HORIZONTAL",
    "FLIP_VERTICAL",
    "ROTATE_CLOCKWISE",
    "ROTATE_COUNTERCLOCKWISE",
    "SYMMETRIES",
    "selection_pivot",
    "transform_object",
    "transform_objects",
    "transform_player",
    "transformable",
]

#: The pivot is rounded to a multiple of this (a thousandth of a pixel or less): then every coordinate a
#: symmetry computes is exact for any level within the limits, whatever the bounds' own rounding was.
PIVOT_STEP = 1.0 / 1024.0


@dataclass(frozen=True)
class Symmetry:
    """A flip or a quarter turn: ``(x, y) -> (xx*x + xy*y, yx*x + yy*y)`` about a pivot.

    Attributes
    ----------
    name : str
        What the designer calls it ("Flip horizontally"); also the undo label's verb and ending.
    verb, ending : str
        The undo label is ``f"{verb} {what} {ending}"``: "Flip 2 boxes horizontally".
    xx, xy, yx, yy : int
        The matrix, entries -1, 0 or 1.
    """

    name: str
    verb: str
    ending: str
    xx: int
    xy: int
    yx: int
    yy: int

    @property
    def mirrors(self) -> bool:
        """True for a flip (the matrix turns the plane over)."""
        return self.xx * self.yy - self.xy * self.yx < 0

    @property
    def swaps_axes(self) -> bool:
        """True for a quarter turn: widths become heights."""
        return self.xx == 0

    @property
    def degrees(self) -> float:
        """How far the x axis turns, in degrees (clockwise on screen): 0, 90, 180 or -90."""
        return {(1, 0): 0.0, (0, 1): 90.0, (-1, 0): 180.0, (0, -1): -90.0}[(self.xx, self.yx)]

    def point(self, p: Vec2, offset: Vec2) -> Vec2:
        """``p`` carried by the symmetry; ``offset`` is :meth:`offset` of the pivot."""
        return Vec2(self.xx * p.x + self.xy * p.y + offset.x, self.yx * p.x + self.yy * p.y + offset.y)

    def offset(self, pivot: Vec2) -> Vec2:
        """The constant that makes the symmetry keep ``pivot`` where it is."""
        px, py = pivot
        return Vec2(px - (self.xx * px + self.xy * py), py - (self.yx * px + self.yy * py))


FLIP_HORIZONTAL = Symmetry("Flip Horizontally", "Flip", "horizontally", -1, 0, 0, 1)
FLIP_VERTICAL = Symmetry("Flip Vertically", "Flip", "vertically", 1, 0, 0, -1)
#: +x turns towards +y: clockwise on screen, as the contract's positive rotation.
ROTATE_CLOCKWISE = Symmetry("Rotate Clockwise", "Rotate", "clockwise", 0, -1, 1, 0)
ROTATE_COUNTERCLOCKWISE = Symmetry("Rotate Counterclockwise", "Rotate", "counterclockwise", 0, 1, -1, 0)

SYMMETRIES = (FLIP_HORIZONTAL, FLIP_VERTICAL, ROTATE_CLOCKWISE, ROTATE_COUNTERCLOCKWISE)


def transformable(obj: LevelObject) -> bool:
    """Whether a flip or a turn changes ``obj``: everything but reference images (see the module's notes)."""
    return not isinstance(obj, Image)


def selection_pivot(objects: Iterable[LevelObject], player: Optional[Player] = None) -> Vec2:
    """The centre of the bounding box of ``objects`` (and of the player's body, when given).

    Rounded to :data:`PIVOT_STEP`, so the coordinates turned about it stay exact.

    >>> from level_editor.core.level.model import Pillar
    >>> selection_pivot([Pillar("p", (10, 10), 5), Pillar("q", (31, 10), 5)])
    Vec2(x=20.5, y=10.0)

    Raises
    ------
    ValueError
        When there is nothing to take the centre of.
    """
    boxes = [o.bounds() for o in objects if transformable(o)]
    if player is not None:
        boxes.append(player.bounds())
    if not boxes:
        raise ValueError("nothing selected to flip or turn")
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return Vec2(_on_step(x0 / 2 + x1 / 2), _on_step(y0 / 2 + y1 / 2))


def _on_step(value: float) -> float:
    return round(value / PIVOT_STEP) * PIVOT_STEP


def transform_objects(objects: Sequence[LevelObject], symmetry: Symmetry,
                      pivot: Optional[Vec2] = None) -> list[LevelObject]:
    """Each of ``objects`` flipped or turned about ``pivot`` (by default their :func:`selection_pivot`)."""
    if pivot is None:
        pivot = selection_pivot(objects)
    return [transform_object(o, symmetry, pivot) for o in objects]


def transform_player(player: Player, symmetry: Symmetry, pivot: Vec2) -> Player:
    """The player with its spawn carried by ``symmetry`` about ``pivot`` (its body is never turned)."""
    return replace(player, spawn=symmetry.point(player.spawn, symmetry.offset(pivot)))


def transform_object(obj: LevelObject, symmetry: Symmetry, pivot: Vec2) -> LevelObject:
    """``obj`` flipped or turned about ``pivot``; a reference image comes back unchanged.

    >>> from level_editor.core.level.model import OrientedBox, Wall
    >>> wall = Wall("wall-1", [(0, 0), (32, 0), (32, 16)], 8)
    >>> [tuple(p) for p in transform_object(wall, FLIP_HORIZONTAL, Vec2(16, 8)).points]
    [(32.0, 0.0), (0.0, 0.0), (0.0, 16.0)]
    >>> obox = OrientedBox("obox-1", (0, 0), (40, 10), 30)
    >>> transform_object(obox, FLIP_VERTICAL, Vec2(0, 0)).rotation
    -30.0
    >>> transform_object(obox, ROTATE_CLOCKWISE, Vec2(0, 0)).rotation
    -60.0
    """
    offset = symmetry.offset(pivot)
    point = symmetry.point
    if isinstance(obj, Wall):
        return replace(obj, points=tuple(point(p, offset) for p in obj.points))
    if isinstance(obj, Pillar):
        return replace(obj, center=point(obj.center, offset))
    if isinstance(obj, Point):
        return replace(obj, position=point(obj.position, offset))
    if isinstance(obj, OrientedBox):
        turned = -obj.rotation if symmetry.mirrors else obj.rotation
        try:
            rotation = _half_turn_range(turned + symmetry.degrees)
        except ValueError as e:
            raise ValueError(f"{obj.id}: {e}") from None
        return replace(obj, center=point(obj.center, offset), rotation=rotation)
    if isinstance(obj, Sprite):
        # A mirror of a turned picture is the mirrored picture turned the other way (flips apply before the turn).
        flip_x, flip_y, rotation = obj.flip_x, obj.flip_y, obj.rotation + symmetry.degrees
        if symmetry.mirrors:
            rotation = -obj.rotation
            flip_x, flip_y = (not flip_x, flip_y) if symmetry.xx < 0 else (flip_x, not flip_y)
        return replace(obj, center=point(obj.center, offset), rotation=_full_turn_range(rotation),
                       flip_x=flip_x, flip_y=flip_y)
    if isinstance(obj, Box):
        size = Vec2(obj.size.y, obj.size.x) if symmetry.swaps_axes else obj.size
        return replace(obj, origin=_min_corner(obj.bounds(), symmetry, offset), size=size)
    if isinstance(obj, Tiles):
        return replace(obj, origin=_min_corner(obj.bounds(), symmetry, offset), cells=_turn_cells(obj.cells, symmetry))
    if isinstance(obj, Image):
        return obj
    raise TypeError(f"{getattr(obj, 'id', obj)!r}: cannot flip or turn a {type(obj).__name__}")


def _min_corner(bounds, symmetry: Symmetry, offset: Vec2) -> Vec2:
    """The smallest corner of the box ``bounds`` after the symmetry (the other corners are its size away)."""
    x0, y0, x1, y1 = bounds
    a = symmetry.point(Vec2(x0, y0), offset)
    b = symmetry.point(Vec2(x1, y1), offset)
    return Vec2(min(a.x, b.x), min(a.y, b.y))


def _full_turn_range(degrees: float) -> float:
    """``degrees`` in (-180, 180] (a picture half a turn on is upside down, so only whole turns are dropped).

    >>> _full_turn_range(270.0), _full_turn_range(-180.0), _full_turn_range(-0.0)
    (-90.0, 180.0, 0.0)
    """
    d = math.fmod(degrees, 360.0)
    if d <= -180.0:
        d += 360.0
    elif d > 180.0:
        d -= 360.0
    return d + 0.0


def _half_turn_range(degrees: float) -> float:
    """``degrees`` moved by whole half turns into (-90, 90] (a rectangle looks the same half a turn on).

    >>> _half_turn_range(120.0), _half_turn_range(-90.0), _half_turn_range(270.0), _half_turn_range(-0.0)
    (-60.0, 90.0, 90.0, 0.0)
    """
    if not math.isfinite(degrees):
        raise ValueError(f"a rotation of {degrees} degrees cannot be turned")
    d = math.fmod(degrees, 180.0)
    if d > 90.0:
        d -= 180.0
    elif d <= -90.0:
        d += 180.0
    return d + 0.0  # no -0.0


def _turn_cells(cells: tuple[str, ...], symmetry: Symmetry) -> tuple[str, ...]:
    """The rows of a tile grid after the symmetry (rows top to bottom, one character per cell).

    >>> _turn_cells(("##.", "#.."), ROTATE_CLOCKWISE)
    ('##', '.#', '..')
    >>> _turn_cells(("##.", "#.."), FLIP_HORIZONTAL)
    ('.##', '..#')
    """
    if not cells:
        return cells
    rows, cols = len(cells), len(cells[0])
    if symmetry.swaps_axes:
        # new cell (c, r) of a cols x rows grid comes from the old cell the inverse matrix points at
        def source(col: int, row: int) -> str:
            # rotation clockwise: new (col, row) <- old (row, rows - 1 - col); counterclockwise the mirror of that
            if symmetry.yx == 1:
                return cells[rows - 1 - col][row]
            return cells[col][cols - 1 - row]
        return tuple("".join(source(col, row) for col in range(rows)) for row in range(cols))
    flip_x = symmetry.xx < 0
    flip_y = symmetry.yy < 0
    ordered = cells[::-1] if flip_y else cells
    return tuple(line[::-1] if flip_x else line for line in ordered)
