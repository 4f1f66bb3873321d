"""The one rule for turning an oriented box by its rotation handle (select tool and oriented box tool).

The handle stands above the box's top edge, so at rotation 0 it points up
(towards -y, the screen's up); a rotation is clockwise on screen, in degrees,
always in (-180, 180]: half a turn is 180, never -180.
"""
from __future__ import annotations

import math
from typing import Optional

#: Shift turns in steps of this many degrees.
ROTATION_STEP = 15.0

#: Without Shift the angle is kept to a tenth of a degree, what a designer reads in the inspector.
ROTATION_PRECISION = 1


def normalized_angle(degrees: float) -> float:
    """``degrees`` as the same direction in (-180, 180].

    >>> normalized_angle(190), normalized_angle(-180), normalized_angle(-360)
    (-170.0, 180.0, 0.0)
    """
    a = math.fmod(degrees, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return a + 0.0  # no -0.0


def handle_rotation(center: tuple[float, float], point: tuple[float, float], snap: bool = False) -> Optional[float]:
    """The rotation of a box whose rotation handle is dragged about ``center`` to ``point``.

    Parameters
    ----------
    center, point : (x, y)
        The box's centre and where the handle is now, in level units.
    snap : bool
        Turn in :data:`ROTATION_STEP` steps (the Shift key).

    Returns
    -------
    float or None
        Degrees in (-180, 180]; None when ``point`` is the centre (no direction).

    Examples
    --------
    >>> handle_rotation((0, 0), (0, -10)), handle_rotation((0, 0), (10, 0)), handle_rotation((0, 0), (0, 10))
    (0.0, 90.0, 180.0)
    >>> handle_rotation((0, 0), (10, 3)), handle_rotation((0, 0), (10, 3), snap=True)
    (106.7, 105.0)
    """
    dx, dy = point[0] - center[0], point[1] - center[1]
    if dx == 0 and dy == 0:
        return None
    angle = math.degrees(math.atan2(dy, dx)) + 90.0  # atan2 is 0 pointing right; the handle points up
    if snap:
        angle = round(angle / ROTATION_STEP) * ROTATION_STEP
    else:
        angle = round(angle, ROTATION_PRECISION)
    return normalized_angle(angle)
