"""A sprite's bounds: the extent of its turned picture's corners, worked out directly (a level of 100,000 sprites
asks for every one as it opens), exact at right angles."""
from __future__ import annotations

from hypothesis import given, strategies as st

from level_editor.core.level.model import Sprite

coordinates = st.floats(-1e5, 1e5, allow_nan=False)
sides = st.floats(0.01, 5000, allow_nan=False)


@given(coordinates, coordinates, sides, sides, st.floats(-720, 720, allow_nan=False))
def test_the_bounds_are_the_corners_extent(x, y, w, h, rotation):
    sprite = Sprite("s", (x, y), (w, h), rotation=rotation)
    corners = sprite.corners()
    extent = (min(p.x for p in corners), min(p.y for p in corners),
              max(p.x for p in corners), max(p.y for p in corners))
    scale = max(abs(x), abs(y), w, h, 1.0)
    assert all(abs(a - b) <= 1e-12 * scale for a, b in zip(sprite.bounds(), extent))


@given(coordinates, coordinates, sides, sides, st.sampled_from([-270, -180, -90, 0, 90, 180, 270, 360, 450]),
       st.booleans(), st.booleans())
def test_at_right_angles_the_bounds_are_exactly_the_corners_extent(x, y, w, h, rotation, flip_x, flip_y):
    sprite = Sprite("s", (x, y), (w, h), rotation=rotation, flip_x=flip_x, flip_y=flip_y)
    corners = sprite.corners()
    assert sprite.bounds() == (min(p.x for p in corners), min(p.y for p in corners),
                               max(p.x for p in corners), max(p.y for p in corners))
