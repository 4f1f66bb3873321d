"""Debug drawing of a play-test tick through a small interface the application implements.

Box2D's way (``b2DebugDraw``): the core never draws. It knows *what* is worth
seeing after a tick, the broad-phase candidates, the contacts with their
normals, the slide direction, the body swept along its path, and hands each
piece to a :class:`DebugDraw` that the application implements with whatever
it draws with (the editor uses a ``QPainter``). Every call carries a *role*
(one of :data:`ROLES`) instead of a colour, so the application picks the
look.

>>> from level_editor.core.level.model import Level, Player, Box
>>> from level_editor.core.playtest.simulation import Simulation
>>> sim = Simulation(Level(player=Player(spawn=(0, 0), radius=5), objects=(Box("b", (8, -50), (10, 100)),)))
>>> _ = sim.step((600, 0))
>>> rec = RecordingDraw()
>>> draw_tick(sim.last, sim.world, rec)
>>> sorted({role for _, role, _ in rec.calls})
['candidate', 'contact', 'normal', 'path', 'slide', 'swept']
"""
from __future__ import annotations

from typing import Protocol, Sequence

from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Segment, Vec2

__all__ = ["ROLES", "INSIDE", "CANDIDATE", "SWEPT", "PATH", "CONTACT", "NORMAL", "SLIDE", "PUSH", "FLOOR", "SNAP",
           "DebugDraw", "RecordingDraw", "draw_shape", "draw_tick"]

INSIDE = "inside"        #: an area (a non-solid object: a trigger) the player is in at the end of the tick
CANDIDATE = "candidate"  #: a collider the broad phase handed to the narrow phase
SWEPT = "swept"          #: the player's body swept along one piece of its path
PATH = "path"            #: the centre's path during the tick
CONTACT = "contact"      #: a contact point
NORMAL = "normal"        #: a contact normal (arrow from the contact point)
SLIDE = "slide"          #: the direction the player slid in (arrow from its centre)
PUSH = "push"            #: a push out of an overlap at the start of the tick
FLOOR = "floor"          #: a platformer's floor normal (arrow from under its feet)
SNAP = "snap"            #: a platformer's snap probe: how far below it looked for a floor
ROLES = (INSIDE, CANDIDATE, SWEPT, PATH, CONTACT, NORMAL, SLIDE, PUSH, FLOOR, SNAP)

#: Length of normal arrows, level units.
NORMAL_LENGTH = 16.0
#: Length of the slide arrow, level units.
SLIDE_LENGTH = 28.0


class DebugDraw(Protocol):
    """What an application implements to show the core's debug drawing.

    All coordinates are level units (y down). Outlines only: the shapes are
    drawn over the level, which must stay visible underneath.
    """

    def draw_polygon(self, points: Sequence[Vec2], role: str) -> None:
        """A closed outline through ``points``."""

    def draw_circle(self, center: Vec2, radius: float, role: str) -> None:
        """A circle outline."""

    def draw_capsule(self, a: Vec2, b: Vec2, radius: float, role: str) -> None:
        """Every point within ``radius`` of segment ``a``-``b``, outlined."""

    def draw_segment(self, a: Vec2, b: Vec2, role: str) -> None:
        """A line from ``a`` to ``b``."""

    def draw_arrow(self, tail: Vec2, head: Vec2, role: str) -> None:
        """A line from ``tail`` to ``head`` with an arrowhead at ``head``."""

    def draw_point(self, p: Vec2, role: str) -> None:
        """A dot that stays the same size on screen at any zoom."""


class RecordingDraw:
    """A :class:`DebugDraw` that only records its calls as ``(method, role, arguments)``: for tests."""

    def __init__(self):
        self.calls: list[tuple[str, str, tuple]] = []

    def draw_polygon(self, points, role):
        self.calls.append(("polygon", role, (tuple(points),)))

    def draw_circle(self, center, radius, role):
        self.calls.append(("circle", role, (center, radius)))

    def draw_capsule(self, a, b, radius, role):
        self.calls.append(("capsule", role, (a, b, radius)))

    def draw_segment(self, a, b, role):
        self.calls.append(("segment", role, (a, b)))

    def draw_arrow(self, tail, head, role):
        self.calls.append(("arrow", role, (tail, head)))

    def draw_point(self, p, role):
        self.calls.append(("point", role, (p,)))

    def of_role(self, role: str) -> list[tuple[str, tuple]]:
        return [(m, args) for m, r, args in self.calls if r == role]


def draw_shape(shape, role: str, draw: DebugDraw) -> None:
    """Outline one collision shape of the level."""
    if isinstance(shape, Capsule):
        draw.draw_capsule(shape.a, shape.b, shape.radius, role)
    elif isinstance(shape, Circle):
        draw.draw_circle(shape.center, shape.radius, role)
    elif isinstance(shape, Rect):
        x0, y0, w, h = shape.origin.x, shape.origin.y, shape.size.x, shape.size.y
        draw.draw_polygon((Vec2(x0, y0), Vec2(x0 + w, y0), Vec2(x0 + w, y0 + h), Vec2(x0, y0 + h)), role)
    elif isinstance(shape, OrientedRect):
        draw.draw_polygon(shape.corners(), role)
    elif isinstance(shape, Segment):
        draw.draw_segment(shape.a, shape.b, role)
    elif isinstance(shape, Vec2):
        draw.draw_point(shape, role)
    else:
        raise TypeError(f"cannot draw a {type(shape).__name__}")


def draw_tick(tick, world, draw: DebugDraw) -> None:
    """Draw what happened during one tick (a :class:`level_editor.core.playtest.simulation.TickDebug`).

    In drawing order: the areas the player is inside (lit up), the candidates,
    the swept body, the centre's path, a push-out, the contacts with their
    normals, and the slide direction.
    """
    inside = set(tick.inside)
    if inside:
        for area in world.areas:
            if area.object_id in inside:
                draw_shape(area.shape, INSIDE, draw)
    for i in tick.candidates:
        draw_shape(world.colliders[i].shape, CANDIDATE, draw)
    for piece in tick.swept:
        if isinstance(piece, Capsule):
            draw.draw_capsule(piece.a, piece.b, piece.radius, SWEPT)
        else:
            draw.draw_polygon(piece, SWEPT)
    for a, b in zip(tick.path, tick.path[1:]):
        draw.draw_segment(a, b, PATH)
    push = tick.pushed_out
    if push.x != 0.0 or push.y != 0.0:
        draw.draw_arrow(tick.start, Vec2(tick.start.x + push.x, tick.start.y + push.y), PUSH)
    for c in tick.contacts:
        draw.draw_point(c.point, CONTACT)
        draw.draw_arrow(c.point, Vec2(c.point.x + c.normal.x * NORMAL_LENGTH,
                                      c.point.y + c.normal.y * NORMAL_LENGTH), NORMAL)
    if tick.slide is not None:
        e, s = tick.end, tick.slide
        draw.draw_arrow(e, Vec2(e.x + s.x * SLIDE_LENGTH, e.y + s.y * SLIDE_LENGTH), SLIDE)
    body = getattr(tick, "platformer", None)
    if body is not None:
        hy = world.half_extents[1]
        if body.snap_from is not None:  # from under the feet
            draw.draw_segment(Vec2(body.snap_from.x, body.snap_from.y + hy), Vec2(body.snap_to.x, body.snap_to.y + hy),
                              SNAP)
        if body.floor_normal is not None:
            n = body.floor_normal
            foot = Vec2(tick.end.x, tick.end.y + hy)
            draw.draw_arrow(foot, Vec2(foot.x + n.x * NORMAL_LENGTH * 2, foot.y + n.y * NORMAL_LENGTH * 2), FLOOR)
