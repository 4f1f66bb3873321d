"""The collision library: shapes, overlap tests, sweeps, the broad phase and the mover.

Pure Python: no shapely, no numpy, no Qt (import-linter checks it). Its one
public face is this package::

    from level_editor.core.collision import Vec2, Line, Segment, Circle, Rect, OrientedRect, Capsule, overlaps, cast

>>> overlaps(Circle(Vec2(0, 0), 5), Rect(Vec2(5, -1), Vec2(2, 2)))  # touching counts
True
>>> cast(Circle(Vec2(0, 0), 1), Vec2(10, 0), Segment(Vec2(5, -5), Vec2(5, 5)))
0.4

Inside, one file per topic (as Box2D's ``hull.c``, ``distance.c``): ``shapes``
(the seven value types), ``geometry`` (plain-float helpers), ``overlap`` (one
function per pair, the book's tests), ``rounded`` (every shape as a convex
core plus a radius), ``sweep`` (exact first contact of a moving circle or box),
``bounds`` (bounding boxes and circles), ``broadphase`` (a grid of bounds),
``world`` (a level's obstacles grown by the player's body), ``planes`` (how
contact planes clip a motion) and ``mover`` (move and slide the player for
one tick).
"""
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2
from level_editor.core.collision.sweep import cast

__all__ = ["Vec2", "Line", "Segment", "Circle", "Rect", "OrientedRect", "Capsule", "overlaps", "cast"]
