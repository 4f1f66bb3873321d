"""Immutable 2D shape values for the collision core.

Units are pixels, y points down, angles are degrees and a positive rotation
turns +x towards +y (clockwise on screen, like ``QGraphicsItem.setRotation``).

Every shape is a frozen value: safe to keep inside an undo command, to hash
and to share between threads. Where a point is meant a shape takes a
:class:`Vec2`; plain ``(x, y)`` tuples are converted on construction.

>>> Circle(Vec2(0, 0), 2).radius
2.0
>>> Vec2(1, 2) + Vec2(3, 4)
Vec2(x=4, y=6)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Union

__all__ = [
    "Vec2",
    "Line",
    "Segment",
    "Circle",
    "Rect",
    "OrientedRect",
    "Capsule",
    "Shape",
    "as_vec2",
    "rotation_cos_sin",
]


# cos and sin of the quarter turns, exact: cos(radians(90)) is 6e-17, not 0,
# which would make an oriented box turned by 90 degrees miss an exact touch.
_QUARTER_TURNS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


def rotation_cos_sin(degrees: float) -> tuple[float, float]:
    """Cosine and sine of a rotation in degrees, exact for multiples of 90.

    Parameters
    ----------
    degrees : float
        The rotation; positive turns +x towards +y.

    Returns
    -------
    tuple of float
        ``(cos, sin)``; the local x axis of a shape turned by ``degrees`` is
        ``(cos, sin)`` and its local y axis ``(-sin, cos)``.

    Examples
    --------
    >>> rotation_cos_sin(90)
    (0.0, 1.0)
    >>> rotation_cos_sin(-180)
    (-1.0, 0.0)
    """
    quarters, rest = divmod(degrees, 90.0)
    if rest == 0.0:
        return _QUARTER_TURNS[int(quarters) % 4]
    r = math.radians(degrees)
    return math.cos(r), math.sin(r)


class Vec2(NamedTuple):
    """A 2D vector, and also the point shape.

    A ``NamedTuple`` so that it is immutable, hashable, cheap to create and
    unpacks as ``x, y = v``. Arithmetic is vector arithmetic (``+`` adds,
    it does not concatenate as a plain tuple would).

    >>> Vec2(3, 4).length()
    5.0
    >>> Vec2(1, 0).rotated(90).y
    1.0
    """

    x: float
    y: float

    def __add__(self, other):  # type: ignore[override]
        return Vec2(self.x + other[0], self.y + other[1])

    def __radd__(self, other):
        return Vec2(other[0] + self.x, other[1] + self.y)

    def __sub__(self, other):
        return Vec2(self.x - other[0], self.y - other[1])

    def __rsub__(self, other):
        return Vec2(other[0] - self.x, other[1] - self.y)

    def __mul__(self, k):  # type: ignore[override]
        return Vec2(self.x * k, self.y * k)

    __rmul__ = __mul__  # type: ignore[assignment]

    def __truediv__(self, k):
        return Vec2(self.x / k, self.y / k)

    def __neg__(self):
        return Vec2(-self.x, -self.y)

    def __pos__(self):
        return self

    def dot(self, other) -> float:
        return self.x * other[0] + self.y * other[1]

    def cross(self, other) -> float:
        """The z of the 3D cross product; > 0 when ``other`` is clockwise on screen."""
        return self.x * other[1] - self.y * other[0]

    def length(self) -> float:
        return math.hypot(self.x, self.y)

    def length_squared(self) -> float:
        return self.x * self.x + self.y * self.y

    def normalized(self) -> "Vec2":
        """Unit vector in the same direction; the zero vector stays zero."""
        n = math.hypot(self.x, self.y)
        if n == 0.0:
            return Vec2(0.0, 0.0)
        return Vec2(self.x / n, self.y / n)

    def perpendicular(self) -> "Vec2":
        """This vector turned by +90 degrees (towards +y)."""
        return Vec2(-self.y, self.x)

    def rotated(self, degrees: float) -> "Vec2":
        """Turned by ``degrees`` about the origin, +x towards +y."""
        c, s = rotation_cos_sin(degrees)
        return Vec2(self.x * c - self.y * s, self.x * s + self.y * c)

    def is_finite(self) -> bool:
        return math.isfinite(self.x) and math.isfinite(self.y)


def as_vec2(p) -> Vec2:
    """``p`` as a :class:`Vec2` of floats (accepts any 2-sequence)."""
    if type(p) is Vec2 and type(p.x) is float and type(p.y) is float:
        return p
    x, y = p
    return Vec2(float(x), float(y))


@dataclass(frozen=True, slots=True)
class Line:
    """An infinite line through ``base`` along ``direction`` (not necessarily unit)."""

    base: Vec2
    direction: Vec2

    def __post_init__(self):
        object.__setattr__(self, "base", as_vec2(self.base))
        object.__setattr__(self, "direction", as_vec2(self.direction))


@dataclass(frozen=True, slots=True)
class Segment:
    """The line segment from ``a`` to ``b`` (``a == b`` is a point)."""

    a: Vec2
    b: Vec2

    def __post_init__(self):
        object.__setattr__(self, "a", as_vec2(self.a))
        object.__setattr__(self, "b", as_vec2(self.b))


@dataclass(frozen=True, slots=True)
class Circle:
    """A disc: every point within ``radius`` of ``center``."""

    center: Vec2
    radius: float

    def __post_init__(self):
        object.__setattr__(self, "center", as_vec2(self.center))
        object.__setattr__(self, "radius", float(self.radius))


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle; ``origin`` is its minimum corner, ``size`` its width and height."""

    origin: Vec2
    size: Vec2

    def __post_init__(self):
        object.__setattr__(self, "origin", as_vec2(self.origin))
        object.__setattr__(self, "size", as_vec2(self.size))

    @property
    def min(self) -> Vec2:
        return self.origin

    @property
    def max(self) -> Vec2:
        return Vec2(self.origin.x + self.size.x, self.origin.y + self.size.y)

    @property
    def center(self) -> Vec2:
        return Vec2(self.origin.x + self.size.x * 0.5, self.origin.y + self.size.y * 0.5)

    @staticmethod
    def from_center(center, half_extents) -> "Rect":
        c, h = as_vec2(center), as_vec2(half_extents)
        return Rect(Vec2(c.x - h.x, c.y - h.y), Vec2(2.0 * h.x, 2.0 * h.y))


@dataclass(frozen=True, slots=True)
class OrientedRect:
    """A rectangle turned by ``rotation`` degrees about its ``center``.

    ``half_extents`` are half the width and height before turning.
    """

    center: Vec2
    half_extents: Vec2
    rotation: float

    def __post_init__(self):
        object.__setattr__(self, "center", as_vec2(self.center))
        object.__setattr__(self, "half_extents", as_vec2(self.half_extents))
        object.__setattr__(self, "rotation", float(self.rotation))

    def axes(self) -> tuple[Vec2, Vec2]:
        """The unit local x and y axes in world space (exact at multiples of 90 degrees)."""
        c, s = rotation_cos_sin(self.rotation)
        return Vec2(c, s), Vec2(-s, c)

    def corners(self) -> tuple[Vec2, Vec2, Vec2, Vec2]:
        """The four corners, in order around the rectangle."""
        ux, uy = self.axes()
        hx, hy = self.half_extents
        c = self.center
        ex = Vec2(ux.x * hx, ux.y * hx)
        ey = Vec2(uy.x * hy, uy.y * hy)
        return (c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey)


@dataclass(frozen=True, slots=True, init=False)
class Capsule:
    """One wall segment with thickness: every point within ``radius`` of segment ``a``-``b``."""

    a: Vec2
    b: Vec2
    radius: float

    # Written out rather than generated with a __post_init__: a big level makes one per wall
    # segment (hundreds of thousands) when a play-test starts, and this sets each field once.
    def __init__(self, a, b, radius):
        _set = object.__setattr__
        _set(self, "a", a if type(a) is Vec2 and type(a[0]) is float and type(a[1]) is float else as_vec2(a))
        _set(self, "b", b if type(b) is Vec2 and type(b[0]) is float and type(b[1]) is float else as_vec2(b))
        _set(self, "radius", radius if type(radius) is float else float(radius))


Shape = Union[Vec2, Line, Segment, Circle, Rect, OrientedRect, Capsule]
