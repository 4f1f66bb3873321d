"""Bounding rectangles and circles, their merging, and bounded shape groups.

A bound is a cheap shape that contains a costly one: test the bounds first
and most far-apart pairs are settled without the exact test (the book's
"Bounding Shapes" and "Shape Grouping" chapters). Every finite shape has an
axis-aligned bounding :class:`~level_editor.core.collision.shapes.Rect` and a bounding
:class:`~level_editor.core.collision.shapes.Circle`; an infinite :class:`~level_editor.core.collision.shapes.Line` has
neither and raises ``ValueError``.

The rectangles are the tightest axis-aligned ones. The circles follow the
book: centred on the middle of the bounding rectangle, just large enough.
That is the smallest circle for a single point, segment, circle, rectangle,
oriented rectangle or capsule, but not always for a group.

>>> from level_editor.core.collision.shapes import Vec2, Segment, Capsule
>>> bounding_rect(Capsule(Vec2(0, 0), Vec2(10, 0), 2))
Rect(origin=Vec2(x=-2.0, y=-2.0), size=Vec2(x=14.0, y=4.0))
>>> bounding_circle(Segment(Vec2(0, 0), Vec2(6, 8)))
Circle(center=Vec2(x=3.0, y=4.0), radius=5.0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Union

from level_editor.core.collision.geometry import rotation_cos_sin
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2

__all__ = [
    "bounding_rect",
    "bounding_circle",
    "enlarge_rect",
    "merge_rects",
    "merge_circles",
    "BoundedShapeGroup",
    "group_overlaps",
]


def _extent_rect(x0: float, y0: float, x1: float, y1: float) -> Rect:
    return Rect(Vec2(x0, y0), Vec2(x1 - x0, y1 - y0))


def _no_bound(shape, what: str):
    raise ValueError(f"a Line is infinite and has no bounding {what}: {shape!r}")


# --------------------------------------------------------------------------
# Bounding rectangles
# --------------------------------------------------------------------------

def _rect_of_point(p: Vec2) -> Rect:
    return Rect(p, Vec2(0.0, 0.0))


def _rect_of_segment(s: Segment) -> Rect:
    (ax, ay), (bx, by) = s.a, s.b
    return _extent_rect(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def _rect_of_circle(c: Circle) -> Rect:
    (x, y), r = c.center, c.radius
    return _extent_rect(x - r, y - r, x + r, y + r)


def _rect_of_oriented_rect(o: OrientedRect) -> Rect:
    # Same as enlarging by the four corners (the book's way), without them:
    # the corners reach hx|cos| + hy|sin| from the centre along x.
    co, si = rotation_cos_sin(o.rotation)
    hx, hy = o.half_extents
    ex = hx * abs(co) + hy * abs(si)
    ey = hx * abs(si) + hy * abs(co)
    x, y = o.center
    return _extent_rect(x - ex, y - ey, x + ex, y + ey)


def _rect_of_capsule(k: Capsule) -> Rect:
    (ax, ay), (bx, by), r = k.a, k.b, k.radius
    return _extent_rect(min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r)


_RECT_OF = {
    Vec2: _rect_of_point,
    Segment: _rect_of_segment,
    Circle: _rect_of_circle,
    Rect: lambda r: r,
    OrientedRect: _rect_of_oriented_rect,
    Capsule: _rect_of_capsule,
    Line: lambda line: _no_bound(line, "rectangle"),
}


def _lookup(table, shape, what: str):
    fn = table.get(type(shape))
    if fn is not None:
        return fn
    for kind, fn in table.items():
        if isinstance(shape, kind):
            return fn
    raise TypeError(f"no bounding {what} for {type(shape).__name__}")


def bounding_rect(shape) -> Rect:
    """The smallest axis-aligned rectangle containing ``shape``.

    Parameters
    ----------
    shape : Vec2, Segment, Circle, Rect, OrientedRect, Capsule or BoundedShapeGroup

    Returns
    -------
    Rect
        A point gives a rectangle of size zero; a ``Rect`` is its own bound.

    Raises
    ------
    ValueError
        For a ``Line``, which is infinite.

    Examples
    --------
    >>> from level_editor.core.collision.shapes import Vec2, OrientedRect
    >>> bounding_rect(OrientedRect(Vec2(0, 0), Vec2(2, 1), 90))
    Rect(origin=Vec2(x=-1.0, y=-2.0), size=Vec2(x=2.0, y=4.0))
    """
    return _lookup(_RECT_OF, shape, "rectangle")(shape)


def enlarge_rect(r: Rect, p) -> Rect:
    """``r`` grown as little as possible to contain point ``p``.

    Examples
    --------
    >>> enlarge_rect(Rect(Vec2(0, 0), Vec2(2, 2)), Vec2(5, -1))
    Rect(origin=Vec2(x=0.0, y=-1.0), size=Vec2(x=5.0, y=3.0))
    """
    (x0, y0), (x1, y1) = r.min, r.max
    px, py = p
    return _extent_rect(min(x0, px), min(y0, py), max(x1, px), max(y1, py))


def merge_rects(rects: Iterable[Rect]) -> Rect:
    """The smallest rectangle containing all of ``rects``.

    Raises
    ------
    ValueError
        When ``rects`` is empty (the book returns a zero rectangle at the
        origin, which would wrongly claim the origin).

    Examples
    --------
    >>> merge_rects([Rect(Vec2(0, 0), Vec2(1, 1)), Rect(Vec2(3, -2), Vec2(1, 1))])
    Rect(origin=Vec2(x=0.0, y=-2.0), size=Vec2(x=4.0, y=3.0))
    """
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for r in rects:
        (ax, ay), (w, h) = r.origin, r.size
        x0 = min(x0, ax)
        y0 = min(y0, ay)
        x1 = max(x1, ax + w)
        y1 = max(y1, ay + h)
    if x0 == math.inf:
        raise ValueError("merge_rects() needs at least one rectangle")
    return _extent_rect(x0, y0, x1, y1)


# --------------------------------------------------------------------------
# Bounding circles
# --------------------------------------------------------------------------

def _reach_from(shape, cx: float, cy: float) -> float:
    """The largest distance from (cx, cy) to a point of ``shape``."""
    if isinstance(shape, Vec2):
        return math.hypot(shape[0] - cx, shape[1] - cy)
    if isinstance(shape, Circle):
        return math.hypot(shape.center[0] - cx, shape.center[1] - cy) + shape.radius
    if isinstance(shape, (Segment, Capsule)):
        (ax, ay), (bx, by) = shape.a, shape.b
        ends = max(math.hypot(ax - cx, ay - cy), math.hypot(bx - cx, by - cy))
        return ends + shape.radius if isinstance(shape, Capsule) else ends
    if isinstance(shape, Rect):
        (x0, y0), (x1, y1) = shape.min, shape.max
        return math.hypot(max(cx - x0, x1 - cx), max(cy - y0, y1 - cy))
    if isinstance(shape, OrientedRect):
        co, si = rotation_cos_sin(shape.rotation)
        hx, hy = shape.half_extents
        vx = shape.center[0] - cx
        vy = shape.center[1] - cy
        # The farthest corner, measured in the box's own frame.
        lx = abs(vx * co + vy * si) + hx
        ly = abs(vy * co - vx * si) + hy
        return math.hypot(lx, ly)
    if isinstance(shape, BoundedShapeGroup):
        return max(_reach_from(s, cx, cy) for s in shape.shapes)
    if isinstance(shape, Line):
        _no_bound(shape, "circle")
    raise TypeError(f"no bounding circle for {type(shape).__name__}")


def _circle_around(shapes) -> Circle:
    """The book's hull circle: centred on the bounding rectangle, just large enough."""
    rect = merge_rects(bounding_rect(s) for s in shapes)
    cx, cy = rect.center
    return Circle(Vec2(cx, cy), max(_reach_from(s, cx, cy) for s in shapes))


def bounding_circle(shape) -> Circle:
    """A circle containing ``shape``, centred on its bounding rectangle.

    For one point, segment, circle, rectangle, oriented rectangle or capsule
    this is the smallest such circle (an oriented rectangle's is its centre
    and the length of its half extents, as in the book).

    Raises
    ------
    ValueError
        For a ``Line``, which is infinite.

    Examples
    --------
    >>> from level_editor.core.collision.shapes import Vec2, Rect, OrientedRect
    >>> bounding_circle(Rect(Vec2(0, 0), Vec2(6, 8)))
    Circle(center=Vec2(x=3.0, y=4.0), radius=5.0)
    >>> bounding_circle(OrientedRect(Vec2(1, 1), Vec2(3, 4), 30)).radius
    5.0
    """
    if isinstance(shape, Circle):
        return shape
    if isinstance(shape, BoundedShapeGroup):
        return shape.circle
    if isinstance(shape, Line):
        _no_bound(shape, "circle")
    if isinstance(shape, OrientedRect):
        # Independent of the rotation, so exactly the book's formula.
        return Circle(shape.center, math.hypot(*shape.half_extents))
    return _circle_around((shape,))


def merge_circles(circles: Iterable[Circle]) -> Circle:
    """A circle containing all of ``circles`` (the book's ``circles_circle_hull``).

    Centred on the middle of their bounding rectangle; not always the
    smallest possible, as the book says, but simple and fast.

    Raises
    ------
    ValueError
        When ``circles`` is empty.

    Examples
    --------
    >>> merge_circles([Circle(Vec2(0, 0), 1), Circle(Vec2(10, 0), 1)])
    Circle(center=Vec2(x=5.0, y=0.0), radius=6.0)
    """
    circles = tuple(circles)
    if not circles:
        raise ValueError("merge_circles() needs at least one circle")
    return _circle_around(circles)


# --------------------------------------------------------------------------
# Bounded shape groups
# --------------------------------------------------------------------------

Bound = Union[Rect, Circle]

# Relative growth of a group's bound: far above rounding (2**-52), far below
# anything a player could see.
_HAIR = 2.0 ** -40


@dataclass(frozen=True, slots=True)
class BoundedShapeGroup:
    """Several shapes acting as one body, behind one bound that is tested first.

    Build one with :meth:`around`; ``bound`` is the group's bounding ``Rect``
    or ``Circle`` and must contain every member. ``around`` grows the bound
    by a hair (about 1e-12 of the coordinates) so that rounding in the
    overlap tests never lets the bound reject a member that only touches.
    Members may be groups themselves.

    Examples
    --------
    >>> from level_editor.core.collision.shapes import Vec2, Circle, Rect
    >>> car = BoundedShapeGroup.around([Rect(Vec2(0, 0), Vec2(4, 2)), Circle(Vec2(1, 2), 1)])
    >>> [round(v, 9) for v in car.rect.max]
    [4.0, 3.0]
    >>> group_overlaps(car, Circle(Vec2(20, 20), 1))
    False
    """

    shapes: tuple
    bound: Bound

    @staticmethod
    def around(shapes: Iterable, bound: str = "rect") -> "BoundedShapeGroup":
        """Group ``shapes`` behind their bounding ``"rect"`` or ``"circle"``.

        Raises
        ------
        ValueError
            For no shapes, a ``Line`` among them, or an unknown ``bound``.
        """
        shapes = tuple(shapes)
        if not shapes:
            raise ValueError("a bounded shape group needs at least one shape")
        if bound == "rect":
            r = merge_rects(bounding_rect(s) for s in shapes)
            (x0, y0), (x1, y1) = r.min, r.max
            pad = _HAIR * (1.0 + max(abs(x0), abs(y0), abs(x1), abs(y1)))
            return BoundedShapeGroup(shapes, _extent_rect(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
        if bound == "circle":
            c = _circle_around(shapes)
            (cx, cy), r = c.center, c.radius
            pad = _HAIR * (1.0 + abs(cx) + abs(cy) + r)
            return BoundedShapeGroup(shapes, Circle(c.center, r + pad))
        raise ValueError(f"bound must be 'rect' or 'circle', not {bound!r}")

    @property
    def rect(self) -> Rect:
        """The group's bounding rectangle (of the bound, when that is a circle)."""
        return bounding_rect(self.bound)

    @property
    def circle(self) -> Circle:
        """The group's bounding circle (of the bound, when that is a rectangle)."""
        return bounding_circle(self.bound)


def group_overlaps(a, b) -> bool:
    """Like :func:`~level_editor.core.collision.overlap.overlaps`, where either side may be a group.

    A group's bound is tested first; only when it overlaps the other side are
    the members tested, one by one, stopping at the first that overlaps.

    Examples
    --------
    >>> from level_editor.core.collision.shapes import Vec2, Circle, Segment
    >>> g = BoundedShapeGroup.around([Circle(Vec2(0, 0), 1), Circle(Vec2(6, 0), 1)], "circle")
    >>> group_overlaps(g, Vec2(3, 0))   # inside the bound, between the members
    False
    >>> group_overlaps(Segment(Vec2(6, -5), Vec2(6, 5)), g)
    True
    """
    if isinstance(a, BoundedShapeGroup):
        if isinstance(b, BoundedShapeGroup):
            if not overlaps(a.bound, b.bound):
                return False
        elif not overlaps(a.bound, b):
            return False
        return any(group_overlaps(member, b) for member in a.shapes)
    if isinstance(b, BoundedShapeGroup):
        return group_overlaps(b, a)
    return overlaps(a, b)


_RECT_OF[BoundedShapeGroup] = lambda g: g.rect
