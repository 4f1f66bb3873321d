"""Bounding hulls: exact on simple shapes, checked against shapely's own answers on every sample level."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
import shapely

from level_editor.core.checks.hulls import HULL_TOLERANCE, LEVEL_KEY, level_hulls
from level_editor.core.collision.shapes import Capsule, OrientedRect, Rect
from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Point, Sprite, Tiles, Wall
from level_editor.core.level.file_format import load_level

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "levels").glob("*.json"))

FINE = 256  # vertices per quarter turn of the reference shapes: 2e-5 of a radius from the real arc


def exact(obj):
    """A very fine shapely polygon of the object's real collision shape (inscribed, so inside it)."""
    if isinstance(obj, Wall):
        pts = [tuple(p) for p in obj.points]
        if obj.closed and len(pts) > 2:
            pts.append(pts[0])
        return shapely.LineString(pts).buffer(obj.thickness / 2, quad_segs=FINE)
    if isinstance(obj, Box):
        return shapely.box(obj.origin.x, obj.origin.y, obj.origin.x + obj.size.x, obj.origin.y + obj.size.y)
    if isinstance(obj, OrientedBox):
        return shapely.Polygon([tuple(c) for c in obj.corners()])
    if isinstance(obj, Sprite) or (isinstance(obj, Tiles) and obj.painted):
        return shapely.union_all([_exact_part(s) for s in obj.collision_shapes()]
                                 + [shapely.Polygon(corners) for corners in obj.enclosed_polygons()])
    if isinstance(obj, Tiles):
        return shapely.union_all(tile_cells(obj))
    return shapely.Point(*obj.center).buffer(obj.radius, quad_segs=FINE)


def _exact_part(shape):
    """Art's collision shapes: rectangles, turned rectangles, circles and a polygon's sides (segments)."""
    if isinstance(shape, Rect):
        return shapely.box(shape.origin.x, shape.origin.y, shape.origin.x + shape.size.x, shape.origin.y + shape.size.y)
    if isinstance(shape, OrientedRect):
        return shapely.Polygon([tuple(c) for c in shape.corners()])
    if isinstance(shape, Capsule):
        return shapely.LineString([tuple(shape.a), tuple(shape.b)]).buffer(shape.radius, quad_segs=FINE)
    return shapely.Point(*shape.center).buffer(shape.radius, quad_segs=FINE)


def tile_cells(tiles):
    """Every solid cell of a tile grid as its own square (no merging: the independent answer)."""
    o, c = tiles.origin, tiles.cell
    return [shapely.box(o.x + col * c, o.y + row * c, o.x + (col + 1) * c, o.y + (row + 1) * c)
            for row, line in enumerate(tiles.cells) for col, ch in enumerate(line) if ch == "#"]


def has_outline(obj):
    if isinstance(obj, Sprite) or (isinstance(obj, Tiles) and obj.painted):
        return bool(obj.collision_shapes())  # art covers only what it collides as
    return not isinstance(obj, (Point, Image)) and not (isinstance(obj, Tiles) and "#" not in "".join(obj.cells))


def polygon(points):
    return shapely.Polygon(points)


def disc(circle):
    # A polygon around the circle (circumscribed), so "covers" means the circle covers.
    r = circle["radius"] / math.cos(math.pi / (4 * FINE))
    return shapely.Point(*circle["center"]).buffer(r, quad_segs=FINE)


def assert_hull_of(h, shape):
    """Each of the four hulls contains the shape and is close to shapely's own smallest answer."""
    minx, miny, maxx, maxy = shape.bounds
    ax0, ay0, ax1, ay1 = h["aabb"]
    assert ax0 <= minx and ay0 <= miny and ax1 >= maxx and ay1 >= maxy
    assert max(minx - ax0, miny - ay0, ax1 - maxx, ay1 - maxy) < 2e-3

    hull = polygon(h["convex_hull"])
    assert hull.is_valid and hull.covers(shape)
    # Never further than the hull tolerance (plus rounding to the grid) from the exact convex hull.
    assert shapely.hausdorff_distance(hull, shapely.convex_hull(shape), densify=0.1) <= HULL_TOLERANCE + 3e-3

    assert disc(h["circle"]).covers(shape)
    assert h["circle"]["radius"] <= shapely.minimum_bounding_radius(shape) * 1.0015 + 2e-3

    rect = polygon(h["min_rect"])
    assert len(h["min_rect"]) == 4 and rect.covers(shape)
    smallest = shapely.buffer(shapely.oriented_envelope(shape), HULL_TOLERANCE + 3e-3, join_style="mitre")
    assert rect.area <= smallest.area * 1.005 + 0.01


# --------------------------------------------------------------------------- simple shapes, exact answers


def test_pillar_hulls_are_exact():
    h = level_hulls(Level(objects=[Pillar("p", (10, 20), 5)]))["p"]
    assert h["aabb"] == [5.0, 15.0, 15.0, 25.0]
    assert h["circle"] == {"center": [10.0, 20.0], "radius": 5.0}
    assert sorted(map(tuple, h["min_rect"])) == [(5.0, 15.0), (5.0, 25.0), (15.0, 15.0), (15.0, 25.0)]
    assert polygon(h["convex_hull"]).covers(exact(Pillar("p", (10, 20), 5)))
    # Every hull point lies just outside the circle, within the hull tolerance.
    for x, y in h["convex_hull"]:
        assert 5.0 <= math.hypot(x - 10, y - 20) <= 5.0 + HULL_TOLERANCE + 2e-3


def test_wall_hulls_include_the_round_ends_and_the_thickness():
    wall = Wall("w", [(0, 0), (10, 0)], 4)
    h = level_hulls(Level(objects=[wall]))["w"]
    assert h["aabb"] == [-2.0, -2.0, 12.0, 2.0]
    assert h["circle"] == {"center": [5.0, 0.0], "radius": 7.0}
    hull = polygon(h["convex_hull"])
    for point in [(-2, 0), (12, 0), (5, 2), (5, -2), (0 - math.sqrt(2), math.sqrt(2))]:
        assert hull.covers(shapely.Point(point))
    assert sorted(map(tuple, h["min_rect"])) == [(-2.0, -2.0), (-2.0, 2.0), (12.0, -2.0), (12.0, 2.0)]


def test_l_shaped_wall_circle_and_rectangle():
    wall = Wall("l", [(0, 0), (100, 0), (100, 60)], 8)
    h = level_hulls(Level(objects=[wall]))["l"]
    assert h["aabb"] == [-4.0, -4.0, 104.0, 64.0]
    # The smallest circle around the nodes has the diagonal as diameter; grown by the half thickness.
    assert h["circle"]["center"] == [50.0, 30.0]
    assert h["circle"]["radius"] == pytest.approx(math.hypot(100, 60) / 2 + 4, abs=1e-3)
    assert_hull_of(h, exact(wall))


def test_box_hulls_are_its_corners():
    h = level_hulls(Level(objects=[Box("b", (100, 100), (64, 32))]))["b"]
    assert h["aabb"] == [100.0, 100.0, 164.0, 132.0]
    assert sorted(map(tuple, h["convex_hull"])) == [(100.0, 100.0), (100.0, 132.0), (164.0, 100.0), (164.0, 132.0)]
    assert sorted(map(tuple, h["min_rect"])) == sorted(map(tuple, h["convex_hull"]))
    assert h["circle"] == {"center": [132.0, 116.0], "radius": pytest.approx(math.hypot(32, 16), abs=1e-3)}


def test_oriented_box_hulls_follow_its_rotation():
    obox = OrientedBox("o", (200, 150), (40, 10), 30)
    h = level_hulls(Level(objects=[obox]))["o"]
    corners = obox.corners()
    for got, want in zip(sorted(map(tuple, h["min_rect"])), sorted(map(tuple, corners))):
        assert got == pytest.approx(want, abs=2e-3)
    assert h["circle"]["center"] == [200.0, 150.0]
    assert h["circle"]["radius"] == pytest.approx(math.hypot(40, 10), abs=2e-3)
    assert_hull_of(h, exact(obox))


def test_level_hull_covers_every_object():
    objects = [Wall("w", [(0, 0), (300, 0)], 10), Pillar("p", (150, 200), 30), Box("b", (-50, 50), (20, 20)),
               OrientedBox("o", (320, 120), (30, 5), 60)]
    h = level_hulls(Level(objects=objects))
    union = shapely.union_all([exact(o) for o in objects])
    assert_hull_of(h[LEVEL_KEY], union)
    assert set(h) == {"w", "p", "b", "o", LEVEL_KEY}


def test_level_of_one_object_has_that_objects_hulls():
    h = level_hulls(Level(objects=[Pillar("p", (3, 4), 2)]))
    assert h[LEVEL_KEY]["circle"] == h["p"]["circle"]
    assert h[LEVEL_KEY]["aabb"] == h["p"]["aabb"]


def test_empty_level_has_no_hulls():
    assert level_hulls(Level()) == {}


def test_hulls_are_json_safe_and_rounded_to_three_decimals():
    h = level_hulls(load_level(SAMPLES[0]))
    text = json.dumps(dict(h), allow_nan=False)
    for token in text.replace("[", " ").replace("]", " ").replace(",", " ").replace("}", " ").split():
        if token[0].isdigit() or token[0] == "-":
            assert "e" not in token
            assert len(token.split(".")[1]) <= 3 if "." in token else True
            assert token != "-0.0"


# --------------------------------------------------------------------------- against shapely on the samples


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_level_hulls_match_shapely(path):
    lvl = load_level(path)
    h = level_hulls(lvl)
    shaped = [o for o in lvl.objects if has_outline(o)]
    assert set(h) == {o.id for o in shaped} | {LEVEL_KEY}
    for obj in shaped:
        assert_hull_of(h[obj.id], exact(obj))
    assert_hull_of(h[LEVEL_KEY], shapely.union_all([exact(o) for o in shaped]))


def test_random_objects_stay_inside_their_rounded_hulls():
    rnd = random.Random(7)
    objects = []
    for k in range(60):
        x, y = rnd.uniform(-500, 500), rnd.uniform(-500, 500)
        kind = k % 4
        if kind == 0:
            pts = [(x + rnd.uniform(-80, 80), y + rnd.uniform(-80, 80)) for _ in range(rnd.randint(2, 5))]
            objects.append(Wall(f"o{k}", pts, rnd.uniform(0.5, 20), closed=rnd.random() < 0.3))
        elif kind == 1:
            objects.append(Box(f"o{k}", (x, y), (rnd.uniform(0.3, 90), rnd.uniform(0.3, 90))))
        elif kind == 2:
            objects.append(OrientedBox(f"o{k}", (x, y), (rnd.uniform(0.3, 50), rnd.uniform(0.3, 50)),
                                       rnd.uniform(-180, 180)))
        else:
            objects.append(Pillar(f"o{k}", (x, y), rnd.uniform(0.2, 60)))
    h = level_hulls(Level(objects=objects))
    for obj in objects:
        assert_hull_of(h[obj.id], exact(obj))


def test_rows_array_reads_each_row_and_refuses_ragged_rows():
    """The hulls' numbers are gathered with np.fromiter (short hold of the interpreter lock): same values."""
    from level_editor.core.checks.hulls import _rows_array
    rows = [(1, 2.5, 3, 4), (5, 6, 7, 8.25)]
    assert _rows_array(rows, 4).tolist() == [[1.0, 2.5, 3.0, 4.0], [5.0, 6.0, 7.0, 8.25]]
    assert _rows_array([], 3).shape == (0, 3)
    with pytest.raises(ValueError):
        _rows_array([(1, 2, 3), (4, 5, 6, 7)], 4)


def test_hulls_from_the_objects_equal_hulls_from_the_outlines():
    from level_editor.core.checks.outlines import level_outlines
    from level_editor.core.level.generate import generate_level
    level = generate_level(300, seed=3)
    direct, via = level_hulls(level), level_hulls(level, level_outlines(level))
    assert sorted(direct) == sorted(via)
    for key in via:
        assert direct[key] == via[key]
