"""Convex polygons grown by a radius: the one shape every sweep works on.

Box2D's shape cast idea: each collision shape is a convex *core* (a point, a
segment or a convex polygon) plus a *radius* (a circle is a point with a
radius, a wall segment a segment with one). Two such shapes touch exactly when
the distance between their cores equals the sum of their radii, so moving
shape A against shape B is the same question as moving the single point
"A's centre" against the *configuration obstacle* ``core(B) (+) -core(A)``
(a Minkowski sum, still a convex polygon) grown by ``radius(A) + radius(B)``.
That is the tutorial's "shrink the player to a point and grow the box by its
size", made exact for every pair of shapes.

:class:`RoundedPolygon` holds such a grown convex polygon as bare floats,
precomputed once, and answers the two questions the controller asks every
tick: how far is a point from it (:meth:`~RoundedPolygon.gap`) and where does
a ray first touch it (:meth:`~RoundedPolygon.ray`). Both are closed-form, so
they are exact up to rounding at any speed: nothing can tunnel.

Orientation: polygon vertices are ordered so that consecutive edges turn with
a positive cross product (``Vec2.cross``), and an edge ``e = b - a`` has the
outward unit normal ``(e.y, -e.x) / |e|``. This holds for y pointing down as
well as up; only the name of the turn (clockwise on screen) changes.

>>> square = RoundedPolygon([(0, 0), (10, 0), (10, 10), (0, 10)], 1.0)
>>> square.gap(15.0, 5.0)[0]
4.0
>>> round(square.ray(-10.0, 5.0, 20.0, 0.0, 1.0)[0], 6)
0.45
"""
from __future__ import annotations

import math

__all__ = ["convex_hull", "RoundedPolygon"]

#: A ray longer than this (px, |dx| + |dy|) is cast at a power-of-two scale:
#: squared, it would overflow a float (about 1.8e308) together with the
#: level's coordinates.
_HUGE_MOTION = 2.0 ** 400


def convex_hull(points) -> list[tuple[float, float]]:
    """The convex hull of ``points``, without repeated or collinear vertices.

    Andrew's monotone chain. The result turns with a positive cross product;
    it has 1 vertex for a single point and 2 for points on one line.

    Examples
    --------
    >>> convex_hull([(0, 0), (2, 0), (1, 0), (2, 2), (0, 2), (1, 1)])
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    >>> convex_hull([(3, 3), (1, 1), (2, 2)])
    [(1, 1), (3, 3)]
    """
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def turn(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], p) <= 0.0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], p) <= 0.0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    if len(hull) < 2:
        # All points on one line: the hull is the segment between its ends.
        return [pts[0], pts[-1]]
    return hull


class RoundedPolygon:
    """A convex polygon (or segment, or point) grown by ``radius``.

    Parameters
    ----------
    points : iterable of (float, float)
        Any points; the polygon is their convex hull.
    radius : float
        How far the polygon is grown (0 for a sharp polygon).

    Notes
    -----
    A segment is kept as a two-sided polygon with two opposite faces, so the
    same face loop serves points, segments and polygons alike.

    Examples
    --------
    >>> capsule = RoundedPolygon([(0, 0), (10, 0)], 2.0)
    >>> capsule.gap(5.0, -5.0)
    (3.0, 0.0, -1.0)
    """

    __slots__ = ("xs", "ys", "count", "faces", "planes", "radius", "bounds")

    def __init__(self, points, radius: float = 0.0):
        hull = convex_hull((float(x), float(y)) for x, y in points)
        if not hull:
            raise ValueError("a rounded polygon needs at least one point")
        self._take(hull, radius)

    @classmethod
    def from_hull(cls, hull: list, radius: float = 0.0) -> "RoundedPolygon":
        """The polygon of vertices that already are what :func:`convex_hull` returns for them, in its order.

        For callers that know their hull (a box's corners, a segment's ends
        in sorted order): the same polygon as ``RoundedPolygon(hull, radius)``,
        without sorting and scanning the points again.

        >>> RoundedPolygon.from_hull([(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)], 1.0).faces == \\
        ...     RoundedPolygon([(2, 1), (0, 0), (0, 1), (2, 0)], 1.0).faces
        True
        """
        polygon = cls.__new__(cls)
        polygon._take(hull, radius)
        return polygon

    def _take(self, hull: list, radius: float) -> None:
        xs, ys = zip(*hull)
        self.xs = xs
        self.ys = ys
        self.count = n = len(hull)
        self.radius = float(radius)
        faces = []
        if n >= 2:
            hypot = math.hypot
            for (ax, ay), (bx, by) in zip(hull, hull[1:] + hull[:1]):
                ex, ey = bx - ax, by - ay
                length = hypot(ex, ey)
                # (ax, ay, ex, ey, nx, ny, |e|^2, |e|)
                # + 0.0 turns -0.0 into 0.0 so that normals print and compare cleanly.
                faces.append((ax, ay, ex, ey, ey / length + 0.0, -ex / length + 0.0, ex * ex + ey * ey, length))
        self.faces = tuple(faces)
        # The sharp shape as half-planes (ax, ay, nx, ny), for rays with no
        # radius; a segment also gets its two end caps.
        planes = [(f[0], f[1], f[4], f[5]) for f in faces]
        if n == 2:
            f = faces[0]
            ux, uy = f[2] / f[7], f[3] / f[7]
            planes.append((hull[1][0], hull[1][1], ux, uy))
            planes.append((hull[0][0], hull[0][1], -ux, -uy))
        self.planes = tuple(planes)
        r = self.radius
        self.bounds = (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)

    def __repr__(self) -> str:
        pts = ", ".join(f"({x!r}, {y!r})" for x, y in zip(self.xs, self.ys))
        return f"RoundedPolygon([{pts}], {self.radius!r})"

    def vertices(self) -> list[tuple[float, float]]:
        """The core's vertices, in order."""
        return list(zip(self.xs, self.ys))

    def gap(self, px: float, py: float) -> tuple[float, float, float]:
        """Signed distance from a point to the grown shape, and the normal there.

        Returns
        -------
        (gap, nx, ny)
            ``gap`` is the distance to the grown surface (< 0 inside, 0 on
            it); ``(nx, ny)`` the unit normal pointing from the shape towards
            the point, i.e. the direction that increases the gap fastest.
        """
        g, nx, ny, _ = self.closest(px, py)
        return g, nx, ny

    def closest(self, px: float, py: float) -> tuple[float, float, float, int]:
        """:meth:`gap`, plus which feature of the core is closest.

        Returns
        -------
        (gap, nx, ny, face)
            ``face`` is the index in :attr:`faces` of the face whose inside is
            closest (a flat contact), or -1 when a vertex is (a round contact,
            centred on ``(px, py) - n * (gap + radius)``).
        """
        r = self.radius
        if self.count == 1:
            dx = px - self.xs[0]
            dy = py - self.ys[0]
            d = math.hypot(dx, dy)
            if d == 0.0:
                return -r, 0.0, -1.0, -1
            return d - r, dx / d, dy / d, -1
        best = -math.inf
        best_face = 0
        faces = self.faces
        for k, face in enumerate(faces):
            s = face[4] * (px - face[0]) + face[5] * (py - face[1])
            if s > best:
                best = s
                best_face = k
        if best <= 0.0 and self.count > 2:
            face = faces[best_face]
            return best - r, face[4], face[5], best_face
        # Outside the core (or beside a segment): the nearest point lies on a
        # face the point is in front of, either inside that face or at an end.
        dist = math.inf
        nx = ny = 0.0
        feature = -1
        for k, face in enumerate(faces):
            ax, ay, ex, ey, fnx, fny, ee, _ = face
            qx = px - ax
            qy = py - ay
            s = fnx * qx + fny * qy
            if s < 0.0 or (s == 0.0 and k != best_face):
                continue
            u = qx * ex + qy * ey
            if u <= 0.0:
                d = math.hypot(qx, qy)
                if d < dist:
                    dist, nx, ny, feature = d, qx / d if d else fnx, qy / d if d else fny, -1
            elif u >= ee:
                qx -= ex
                qy -= ey
                d = math.hypot(qx, qy)
                if d < dist:
                    dist, nx, ny, feature = d, qx / d if d else fnx, qy / d if d else fny, -1
            elif s < dist:
                # Inside the face: its own normal, exactly, so sliding along a
                # flat face never picks up a tilt from rounding.
                dist, nx, ny, feature = s, fnx, fny, k
        return dist - r, nx, ny, feature

    def ray(self, px: float, py: float, dx: float, dy: float, radius: float | None = None,
            graze: float = 0.0):
        """Where the point ``p + t d`` first touches the shape, for ``t >= 0``.

        Parameters
        ----------
        px, py : float
            Start of the ray; should be outside the shape grown by ``radius``
            (a start inside or on it reports ``t = 0``).
        dx, dy : float
            Direction and length of the ray; ``t = 1`` is its end.
        radius : float, optional
            Grow the core by this instead of :attr:`radius` (the controller
            adds its skin here).
        graze : float, optional
            Ignore a rounded corner that the whole line enters by no more than
            this depth (the controller passes a fraction of its skin, so that
            sliding past a corner sitting a hair proud of the surface, as at
            the seam of two boxes misaligned by 1e-7 px, is not a contact).

        Returns
        -------
        (t, nx, ny) or None
            The first touch, unbounded above (compare ``t`` with 1 yourself),
            and the unit surface normal there; None when the line misses.
        """
        r = self.radius if radius is None else radius
        m = abs(dx) + abs(dy)
        if m > _HUGE_MOTION:
            # Squares of the motion would overflow (and lose every corner):
            # cast along the motion scaled by a power of two, which is exact,
            # and scale the time back.
            # (m itself may be infinite when each part is finite: take the larger part's exponent)
            if not (math.isfinite(dx) and math.isfinite(dy)):
                raise ValueError(f"a ray's direction must be finite, got ({dx}, {dy})")
            e = -math.frexp(max(abs(dx), abs(dy)))[1] - 1
            hit = self.ray(px, py, math.ldexp(dx, e), math.ldexp(dy, e), r, graze)
            return None if hit is None else (math.ldexp(hit[0], e), hit[1], hit[2])
        if r == 0.0 and self.count > 1:
            return self._ray_sharp(px, py, dx, dy)
        best_t = math.inf
        bnx = bny = 0.0
        # Offset faces, strictly within their ends: past an end the rounded
        # corner takes over, and it joins the face without a crack.
        for ax, ay, ex, ey, fnx, fny, ee, _ in self.faces:
            den = fnx * dx + fny * dy
            if den >= 0.0:
                continue
            s = fnx * (px - ax) + fny * (py - ay) - r
            if s < 0.0:
                continue
            t = s / -den
            if t >= best_t:
                continue
            u = (px + t * dx - ax) * ex + (py + t * dy - ay) * ey
            if u < 0.0 or u > ee:
                continue
            best_t, bnx, bny = t, fnx, fny
        a = dx * dx + dy * dy
        if a > 0.0:
            rr = r * r
            # disc / a is r^2 - (distance from the corner to the line)^2, so a
            # line entering the corner's disc by at most ``graze`` has
            # disc <= a * graze * (2 r - graze).
            shallow = a * graze * (2.0 * r - graze) if 0.0 < graze < r else 0.0
            for vx, vy in zip(self.xs, self.ys):
                fx = px - vx
                fy = py - vy
                b = fx * dx + fy * dy
                if b >= 0.0:
                    continue
                c = fx * fx + fy * fy - rr
                disc = b * b - a * c
                if disc < 0.0 or (shallow and disc <= shallow):
                    continue
                # The smaller root, in the form that does not cancel.
                t = c / (-b + math.sqrt(disc))
                if t < 0.0:
                    t = 0.0
                if t >= best_t:
                    continue
                hx = fx + t * dx
                hy = fy + t * dy
                h = math.hypot(hx, hy)
                if h > 0.0:
                    best_t, bnx, bny = t, hx / h, hy / h
                else:
                    n = math.sqrt(a)
                    best_t, bnx, bny = t, -dx / n, -dy / n
        if best_t == math.inf:
            return None
        return best_t, bnx, bny

    def _ray_sharp(self, px, py, dx, dy):
        """Ray against the sharp polygon: clip the ray by every half-plane.

        Cyrus-Beck clipping has no cracks: a ray through a corner enters by
        one face exactly where it leaves the other's outside, with no slack.
        """
        t_enter = -math.inf
        t_exit = math.inf
        nx = ny = 0.0
        for ax, ay, fnx, fny in self.planes:
            s = fnx * (px - ax) + fny * (py - ay)
            den = fnx * dx + fny * dy
            if den == 0.0:
                if s > 0.0:
                    return None
                continue
            t = s / -den
            if den < 0.0:
                if t > t_enter:
                    t_enter, nx, ny = t, fnx, fny
            elif t < t_exit:
                t_exit = t
        if t_enter > t_exit or t_exit < 0.0:
            return None
        if t_enter <= 0.0:
            g, gnx, gny = self.gap(px, py)
            return 0.0, gnx, gny
        return t_enter, nx, ny
