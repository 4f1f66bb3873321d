"""A painted grid's outline, built cell by cell, is exactly the union of its collision shapes and enclosed areas;
its collision shapes, made for all cells at once, are exactly those made cell by cell; a plain grid joined block by
block is exactly the union of its cells."""
from __future__ import annotations

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from level_editor.core.checks import painted, validation
from level_editor.core.checks.outlines import _tile_outline, level_outlines, polygons_of, shape_polygons
from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y, TileInfo, TileShape, Tileset, painted_shapes
from level_editor.core.level.art_grid import grid_shapes
from level_editor.core.checks.validation import validate_level
from level_editor.core.level.model import Box, Level, Player, Tiles, Wall

FLIPS = (0, FLIP_X, FLIP_Y, FLIP_D, FLIP_X | FLIP_Y, FLIP_X | FLIP_D, FLIP_Y | FLIP_D, FLIP_X | FLIP_Y | FLIP_D)
CELL = 16


def tile_infos(w: float, h: float) -> dict:
    """Tiles of every kind a designer draws: full, half, a small box and two boxes overlapping, a slope, a circle,
    an ellipse, a box poking out of the tile, a polygon with a dent, and one without collision (tile 0)."""
    return {
        1: TileInfo(collision=(TileShape("rect", ((0, 0), (w, h))),)),
        2: TileInfo(collision=(TileShape("rect", ((0, h / 2), (w, h / 2))),)),
        3: TileInfo(collision=(TileShape("polygon", ((0, h), (w, 0), (w, h))),)),
        4: TileInfo(collision=(TileShape("rect", ((3, 2), (5, 7))), TileShape("rect", ((6, 0), (w - 6, 4))))),
        5: TileInfo(collision=(TileShape("ellipse", ((2, 2), (8, 8))),)),
        6: TileInfo(collision=(TileShape("ellipse", ((0, 0), (w, h / 2))), TileShape("rect", ((0, h - 3), (w, 3))))),
        7: TileInfo(collision=(TileShape("rect", ((-4, h - 6), (w + 8, 6))),)),
        8: TileInfo(collision=(TileShape("polygon", ((0, 0), (w, 0), (w / 2, h / 2), (w, h), (0, h))),)),
    }


@st.composite
def painted_grids(draw):
    """A small painted grid: tiles of the cell's size or larger, offsets, origins off the whole numbers, flips."""
    w, h = draw(st.sampled_from([(CELL, CELL), (CELL, CELL), (2 * CELL, 2 * CELL), (CELL, 2 * CELL), (24, 12)]))
    offset = draw(st.sampled_from([(0, 0), (0, 0), (3, -2), (-0.5, 8)]))
    tileset = Tileset("ts", "Tiles", (w, h), image="art/ts.png", image_size=(w * 4, h * 3), columns=4, count=12,
                      tiles=tile_infos(w, h), offset=offset)
    kinds = draw(st.lists(st.integers(0, 8), min_size=1, max_size=4, unique=True))
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cell = st.one_of(st.just(-1), st.builds(lambda t, f: t | f, st.sampled_from(kinds), st.sampled_from(FLIPS)))
    tiles = tuple(tuple(draw(cell) for _ in range(cols)) for _ in range(rows))
    origin = draw(st.sampled_from([(0, 0), (32, -48), (0.25, 7.5), (-1000.1, 3.3)]))
    size = draw(st.sampled_from([16.0, 16.0, 10.0, 7.5]))
    return Level(objects=(Tiles("g", origin, size, (), tileset="ts", tiles=tiles),), tilesets=(tileset,)).objects[0]


def union_of_shapes(grid):
    return shapely.union_all(shape_polygons(grid))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(painted_grids(), st.sampled_from([1, 2, 3, 32]))
def test_the_painted_outline_is_the_union_of_the_collision_shapes_and_enclosed_areas(grid, block):
    expected = union_of_shapes(grid)
    saved = painted.BLOCK
    painted.BLOCK = block  # small blocks: the parts on the blocks' sides go up several times
    try:
        fast = painted.painted_outline(grid, polygons_of)
    finally:
        painted.BLOCK = saved
    if expected.is_empty:
        assert fast is None
        return
    assert fast is not None, "the coverage was refused: the slow way was taken"
    assert fast.is_valid
    # equal up to the last bit of a coordinate: the cells' sides come from whole cell numbers
    assert fast.symmetric_difference(expected).area <= 1e-9 * max(1.0, expected.area)
    assert shapely.bounds(fast).tolist() == pytest.approx(shapely.bounds(expected).tolist(), abs=1e-9)


def test_a_slope_beside_a_full_tile_keeps_the_thousandth_of_a_pixel_its_sides_are_drawn_with():
    ts = Tileset("ts", "Tiles", (16, 16), image="art/ts.png", image_size=(64, 48), columns=4, count=12,
                 tiles=tile_infos(16, 16))
    grid = Level(objects=(Tiles("g", (0, 0), 16, (), tileset="ts", tiles=((3, 1, -1, 3 | FLIP_X),)),),
                 tilesets=(ts,)).objects[0]
    outline = _tile_outline(grid)
    expected = union_of_shapes(grid)
    assert outline.symmetric_difference(expected).area < 1e-12
    assert outline.covers(shapely.Point(12, 12))  # inside the slope: no free space
    assert outline.covers(shapely.Point(47.9995, 8))  # the turned slope's side reaches a thousandth into the gap
    assert not outline.covers(shapely.Point(47.99, 8))
    assert outline.covers(shapely.Point(16, 1)) and outline.covers(shapely.Point(20, 15))  # slope and full tile meet


def test_a_painted_outline_is_a_multipolygon_of_its_separate_parts_with_their_holes():
    ts = Tileset("ts", "Tiles", (16, 16), image="art/ts.png", image_size=(64, 48), columns=4, count=12,
                 tiles=tile_infos(16, 16))
    ring = ((1, 1, 1, -1, 2), (1, -1, 1, -1, -1), (1, 1, 1, -1, 2))
    grid = Level(objects=(Tiles("g", (0, 0), 16, (), tileset="ts", tiles=ring),), tilesets=(ts,)).objects[0]
    outline = level_outlines(Level(objects=(grid,), tilesets=(ts,))).outlines[0]
    assert outline.geom_type == "MultiPolygon" and len(outline.geoms) == 3  # the ring, two half tiles apart
    assert sorted(len(p.interiors) for p in outline.geoms) == [0, 0, 1]
    assert outline.area == 8 * 256 + 2 * 128


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(painted_grids(), st.booleans())
def test_a_grids_shapes_made_at_once_are_those_made_cell_by_cell_to_the_last_bit_and_in_order(grid, ragged):
    rows = grid.tiles
    if ragged:  # rows of a grid read from a file may be short
        rows = tuple(row[:max(0, len(row) - k % 3)] for k, row in enumerate(rows))
    args = (grid.art, rows, grid.origin.x, grid.origin.y, grid.cell)
    assert grid_shapes(*args) == painted_shapes(*args)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=1, max_size=30), min_size=1, max_size=30),
       st.sampled_from([1, 2, 5, 32]), st.sampled_from([(0, 0), (0.1, -7.3)]))
def test_a_plain_grid_joined_block_by_block_is_the_union_of_its_cells(cells, block, origin):
    rows = tuple("".join("#" if on else "." for on in row) for row in cells)
    grid = Tiles("g", origin, 16, rows)
    if not any("#" in row for row in rows):
        return
    expected = shapely.union_all([shapely.box(r.origin.x, r.origin.y, r.origin.x + r.size.x, r.origin.y + r.size.y)
                                  for r in grid.solid_rects()])
    saved = painted.BLOCK
    painted.BLOCK = block
    try:
        joined = _tile_outline(grid)
    finally:
        painted.BLOCK = saved
    assert joined.is_valid
    assert joined.symmetric_difference(expected).area <= 1e-9 * max(1.0, expected.area)


@st.composite
def rooms_of_tiles(draw):
    """A level of a painted grid (or a plain one) with a wall and a box beside it, the player somewhere on it."""
    grid = draw(painted_grids())
    if draw(st.booleans()):
        grid = Tiles("g", grid.origin, grid.cell, grid.cells)
    x0, y0, x1, y1 = grid.bounds()
    others = []
    if draw(st.booleans()):
        others.append(Wall("w", [(x0 - 12, y0 - 9), (x1 + 5, y0 - 9), (x1 + 5, y1 + 7)], draw(st.sampled_from([2, 0.5]))))
    if draw(st.booleans()):
        others.append(Box("b", (x0 - 20, y0), (14, y1 - y0)))
    fx, fy = draw(st.floats(0.05, 0.95)), draw(st.floats(0.05, 0.95))
    spawn = (x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))
    player = draw(st.sampled_from([Player(spawn=spawn, radius=2.0), Player(spawn=spawn, radius=5.0),
                                   Player(spawn=spawn, shape="box", size=(6, 10))]))
    return Level(player=player, objects=(grid, *others), tilesets=(grid.art,) if grid.art else ())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rooms_of_tiles())
def test_the_spawn_area_read_from_a_grids_outline_is_what_its_pieces_say(level):
    found = [str(p) for p in validate_level(level)]
    saved = validation.TILES
    validation.TILES = -1  # no object is a grid: every piece's ring goes into the network, as before
    try:
        before = [str(p) for p in validate_level(level)]
    finally:
        validation.TILES = saved
    assert found == before


def test_two_ellipses_that_touch_at_a_point_make_a_valid_outline():
    """Side by side, two 32 x 16 ellipses of tiles larger than the 16 px cells touch at one point: the coverage
    union makes one ring touching itself there, which must come out valid (two polygons, the same area)."""
    ts = Tileset("ts", "Tiles", (32, 32), image="art/ts.png", image_size=(128, 96), columns=4, count=12,
                 tiles={6: TileInfo(collision=(TileShape("ellipse", ((0, 0), (32, 16))),
                                               TileShape("rect", ((0, 29), (32, 3)))))})
    grid = Level(tilesets=(ts,), objects=(Tiles("g", (0, 0), 16, (), tileset="ts",
                                                tiles=((6 | FLIP_X, -1, 6 | FLIP_X),)),)).objects[0]
    fast = painted.painted_outline(grid, polygons_of)
    expected = union_of_shapes(grid)
    assert fast.is_valid
    assert shapely.symmetric_difference(fast, expected).area <= 1e-6 * expected.area
