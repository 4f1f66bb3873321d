"""Tile grids' outlines and hulls (against shapely's union of every single cell), and markers and pictures without."""
from __future__ import annotations

import random

import pytest
import shapely

from level_editor.core.checks.check import check_level
from level_editor.core.checks.hulls import LEVEL_KEY, level_hulls
from level_editor.core.checks.outlines import TILES, level_outlines
from level_editor.core.level.model import Box, Image, Level, Pillar, Player, Point, Tiles, Wall
from tests.core.checks.test_hulls import assert_hull_of, disc, exact, polygon, tile_cells


def random_cells(rnd, columns, rows, fill=0.5):
    return tuple("".join("#" if rnd.random() < fill else "." for _ in range(columns)) for _ in range(rows))


GRIDS = [
    Tiles("floor", (0, 256), 16, ("##....##", "########")),
    Tiles("ring", (-32, -32), 16, ("#####", "#...#", "#.#.#", "#...#", "#####")),
    Tiles("apart", (10, 10), 8, ("#...", "....", "...#")),
    Tiles("one", (3.25, -7.5), 12.5, ("#",)),
    Tiles("odd", (0.1, 0.7), 0.3, (".#.#", "####", "#..#")),  # corners off the grid of thousandths
    Tiles("random", (100, 40), 10, random_cells(random.Random(3), 23, 17)),
]


@pytest.mark.parametrize("tiles", GRIDS, ids=lambda t: t.id)
def test_a_tile_grids_outline_is_exactly_the_union_of_its_solid_cells(tiles):
    o = level_outlines(Level(objects=[tiles]))
    assert o.kinds.tolist() == [TILES] and o.rounding.tolist() == [0.0]
    outline = o.outlines[0]
    cells = shapely.union_all(tile_cells(tiles))
    assert outline.is_valid
    assert shapely.equals(outline, cells)
    assert shapely.symmetric_difference(outline, cells).area == 0
    assert o.aabb[0].tolist() == list(cells.bounds)


@pytest.mark.parametrize("tiles", GRIDS, ids=lambda t: t.id)
def test_a_tile_grids_hulls_contain_every_solid_cell(tiles):
    h = level_hulls(Level(objects=[tiles]))
    assert set(h) == {tiles.id, LEVEL_KEY}
    cells = tile_cells(tiles)
    union = shapely.union_all(cells)
    assert_hull_of(h[tiles.id], union)  # each hull covers the cells and is close to shapely's smallest
    hull, rect, circle = polygon(h[tiles.id]["convex_hull"]), polygon(h[tiles.id]["min_rect"]), disc(h[tiles.id]["circle"])
    for cell in cells:
        assert hull.covers(cell) and rect.covers(cell) and circle.covers(cell)
    x0, y0, x1, y1 = h[tiles.id]["aabb"]
    assert all(x0 <= c.bounds[0] and y0 <= c.bounds[1] and c.bounds[2] <= x1 and c.bounds[3] <= y1 for c in cells)


def test_a_tile_grid_on_whole_pixels_has_exact_hulls():
    h = level_hulls(Level(objects=[Tiles("floor", (0, 256), 16, ("##....##", "########"))]))["floor"]
    assert h["aabb"] == [0.0, 256.0, 128.0, 288.0]
    assert sorted(map(tuple, h["convex_hull"])) == [(0.0, 256.0), (0.0, 288.0), (128.0, 256.0), (128.0, 288.0)]
    assert sorted(map(tuple, h["min_rect"])) == sorted(map(tuple, h["convex_hull"]))
    assert h["circle"]["center"] == [64.0, 272.0]
    assert h["circle"]["radius"] == pytest.approx((64 ** 2 + 16 ** 2) ** 0.5, abs=1e-3)


def test_a_non_solid_tile_grid_has_the_same_hulls():
    cells = ("#..", ".##")
    solid = level_hulls(Level(objects=[Tiles("t", (0, 0), 16, cells)]))
    area = level_hulls(Level(objects=[Tiles("t", (0, 0), 16, cells, solid=False)]))
    assert solid == area


def test_points_and_images_have_no_hulls_and_the_levels_hull_covers_the_rest():
    objects = [Tiles("tiles", (0, 256), 16, ("##....##", "########")), Point("far-marker", (5000, 5000)),
               Image("backdrop", "art/demo.png", (-3000, -3000), scale=4), Wall("w", [(0, 0), (300, 0)], 8),
               Pillar("p", (150, 120), 20), Box("zone", (280, 200), (32, 32), solid=False)]
    h = level_hulls(Level(objects=objects))
    assert set(h) == {"tiles", "w", "p", "zone", LEVEL_KEY}
    shaped = [o for o in objects if not isinstance(o, (Point, Image))]
    assert_hull_of(h[LEVEL_KEY], shapely.union_all([exact(o) for o in shaped]))
    # The marker and the picture's corner lie far outside: they are not part of the level's hulls.
    assert not polygon(h[LEVEL_KEY]["convex_hull"]).covers(shapely.Point(5000, 5000))


def test_a_level_of_markers_and_pictures_only_has_no_hulls_and_no_outlines():
    lvl = Level(objects=[Point("coin", (0, 0)), Image("art", "a.png", (0, 0)), Tiles("blank", (0, 0), 16, ("..",))])
    assert len(level_outlines(lvl)) == 0
    assert level_hulls(lvl) == {}
    result = check_level(lvl, with_hulls=True)
    assert result.hulls == {} and not result.errors


def test_a_big_tile_grid_is_checked():
    # 200 x 200 cells, half of them solid at random: the worst case, no long runs of cells (how long it takes, about
    # a quarter of a second: the "random" grids of tests/benchmarks/bench_validation.py --cells)
    tiles = Tiles("big", (0, 0), 16, random_cells(random.Random(5), 200, 200))
    result = check_level(Level(player=Player(spawn=(-100, -100)), objects=[tiles]), with_hulls=True)
    assert not result.errors and set(result.hulls) == {"big", LEVEL_KEY}
    hull = polygon(result.hulls["big"]["convex_hull"])
    assert hull.covers(result.outlines.outlines[0])
