"""The documented limits of a level: the largest numbers, files and walls the tools accept.

Every limit here is enforced where the data comes in (the loader, the schema, the editor's fields), and
reported like any other problem: the object's id and a sentence. The numbers are chosen so that every
computation on a level that passes them (outlines, hulls, sweeps, squared distances) stays finite and
exact enough, while staying far above any real level.

>>> MAX_COORDINATE >= 1_000_000
True
>>> MAX_COORDINATE ** 2 * 16 < 1e300   # squared distances of the largest level stay finite
True
"""
from __future__ import annotations

from typing import Optional

#: The largest absolute value of any coordinate (nodes, origins, centres, the spawn), in pixels.
#: Ten million pixels: a level a million pixels from the origin keeps sub-micro-pixel precision.
MAX_COORDINATE = 10_000_000.0

#: The largest size, half extent, radius or wall thickness, in pixels.
MAX_SIZE = 10_000_000.0

#: The smallest size, radius or thickness that is still a shape (below it, geometry degenerates).
MIN_SIZE = 1e-6

#: The largest player speed, in pixels per second.
MAX_SPEED = 1_000_000.0

#: The largest file the tools read, in bytes. A level of 100,000 objects with its hulls is about 30 MB.
MAX_FILE_BYTES = 256 * 1024 * 1024

#: The most nodes in one wall, and in the whole level.
MAX_WALL_NODES = 500_000
MAX_LEVEL_NODES = 2_000_000

#: The most points of one moving object's path.
MAX_PATH_POINTS = 10_000

#: The grid spacing the editor accepts, in pixels (Tiled limits its tile size to 1..9999).
MIN_GRID = 1.0
MAX_GRID = 9999.0

#: The most cells in all the tile grids of a level (a 1000 x 1000 grid): a solid grid of this size checks in about
#: 3 s and 1.1 GB; 2000 x 2000 (4,000,000 cells) took 2.8 GB and ran out of memory under a 3 GB cap.
MAX_TILE_CELLS = 1_000_000

#: The largest scale of a reference picture.
MAX_IMAGE_SCALE = 10_000.0

#: How deep a game's own data (unknown keys, layers', types' and objects' extra data) may nest.
#: Python's json reader and writer recurse once per level; far below their limit of about 1000.
MAX_NESTING = 200

#: The most ticks a replay may hold (over four hours of play at 60 ticks a second).
MAX_REPLAY_TICKS = 1_000_000

# Custom properties and names: what the editor's fields accept (a file may hold more; the game reads it as written).
#: The largest custom property integer: every game's number type holds it exactly (JavaScript's safe integers).
MAX_PROPERTY_INTEGER = 2 ** 53 - 1
#: The largest custom property number (a float): far above any sensible value, far below overflow.
MAX_PROPERTY_FLOAT = 1e15
#: The longest id, name or property name a field accepts.
MAX_NAME_LENGTH = 200


def name_shape_problem(name: str, noun: str) -> Optional[str]:
    """Why ``name`` cannot name a ``noun`` whatever else is called what (empty, too long, spaces), or None.

    >>> name_shape_problem(" ", "property"), name_shape_problem(" boss", "type"), name_shape_problem("hp", "property")
    ('a property needs a name', "a type's name cannot start or end with a space", None)
    """
    if not name.strip():
        return f"a {noun} needs a name"
    if len(name) > MAX_NAME_LENGTH:
        return f"a {noun}'s name is at most {MAX_NAME_LENGTH} characters"
    if name != name.strip():
        return f"a {noun}'s name cannot start or end with a space"
    return None
