"""Proofs of what art collides as, with shapely as the exact oracle and an independent reading of Tiled's flags.

Tiled's documentation of its flags: the diagonal flip (x and y swapped) is applied first, then the horizontal
flip (mirror left to right), then the vertical one (upside down); a tile is drawn with its bottom-left corner on
its cell's bottom-left corner. The oracle below follows those words with shapely's affine transforms, not the
matrices of :mod:`level_editor.core.level.art`.
"""
from __future__ import annotations

import itertools

import shapely
import shapely.affinity
from hypothesis import given, settings
from hypothesis import strategies as st

from level_editor.core.collision.shapes import OrientedRect, Rect
from level_editor.core.level.art import (FLIP_D, FLIP_X, FLIP_Y, NO_TILE, TileInfo, TileShape, Tileset, cell_flags,
                                         flipped_x, flipped_y, merged_rects, tile_number, turned)
from level_editor.core.level.model import Level, Sprite, Tiles

CELL = 16
FLAG_SETS = [0, FLIP_X, FLIP_Y, FLIP_D, FLIP_X | FLIP_Y, FLIP_X | FLIP_D, FLIP_Y | FLIP_D, FLIP_X | FLIP_Y | FLIP_D]

#: Tiled's TileLayer::rotate tables (src/libtiled/tilelayer.cpp): a cell's flags as H<<2 | V<<1 | D, turned
#: a quarter right (clockwise) or left, give these flags.
TILED_ROTATE_RIGHT = (5, 4, 1, 0, 7, 6, 3, 2)
TILED_ROTATE_LEFT = (3, 2, 7, 6, 1, 0, 5, 4)


def tiled_mask(value: int) -> int:
    h, v, d = cell_flags(value)
    return h << 2 | v << 1 | d


# Rectangles in a tile's own pixels: the whole tile, its top half, its bottom half, or any whole-pixel rect.
named_rects = st.sampled_from([((0, 0), (16, 16)), ((0, 0), (16, 8)), ((0, 8), (16, 8))])


@st.composite
def any_rect(draw, w=CELL, h=CELL):
    x = draw(st.integers(0, w - 1))
    y = draw(st.integers(0, h - 1))
    return ((x, y), (draw(st.integers(1, w - x)), draw(st.integers(1, h - y))))


@st.composite
def tilesets(draw):
    count = draw(st.integers(1, 6))
    tiles = {}
    for t in range(count):
        if draw(st.booleans()):
            rect = draw(st.one_of(named_rects, any_rect()))
            tiles[t] = TileInfo(collision=(TileShape("rect", rect),))
    return Tileset("ts", "T", (CELL, CELL), image="t.png", image_size=(CELL * count, CELL), columns=count,
                   count=count, tiles=tiles)


@st.composite
def painted_grids(draw):
    ts = draw(tilesets())
    columns, rows = draw(st.integers(1, 9)), draw(st.integers(1, 7))
    cell = st.one_of(st.just(NO_TILE),
                     st.builds(lambda t, f: t | f, st.integers(0, ts.count - 1), st.sampled_from(FLAG_SETS)))
    grid = tuple(tuple(draw(cell) for _ in range(columns)) for _ in range(rows))
    origin = (draw(st.integers(-64, 64)), draw(st.integers(-64, 64)))
    return ts, Tiles("g", origin, CELL, (), tileset="ts", tiles=grid)


def oracle_cell(ts: Tileset, value: int, x: float, y: float):
    """The shapely shape tile ``value`` collides as in the cell at ``(x, y)``, from Tiled's words."""
    info = ts.info(tile_number(value))
    if not info.collision:
        return None
    fx, fy, fd = cell_flags(value)
    w, h = ts.tile_size.x, ts.tile_size.y
    parts = []
    for shape in info.collision:
        (px, py), (pw, ph) = shape.points
        g = shapely.box(px, py, px + pw, py + ph)
        dw, dh = w, h
        if fd:
            g = shapely.affinity.affine_transform(g, [0, 1, 1, 0, 0, 0])  # x and y swapped
            dw, dh = h, w
        if fx:
            g = shapely.affinity.affine_transform(g, [-1, 0, 0, 1, dw, 0])
        if fy:
            g = shapely.affinity.affine_transform(g, [1, 0, 0, -1, 0, dh])
        parts.append(shapely.affinity.translate(g, x, y + CELL - dh))
    return shapely.union_all(parts)


def joined(parts):
    """The union of ``parts``, each grown by 1e-7 first: GEOS may drop one of two turned rectangles that share a
    side whose corners differ in the last bit (seen with two halves of a tile turned 30 degrees)."""
    return shapely.union_all([g.buffer(1e-7, join_style="mitre") for g in parts])


def as_geometry(shape):
    if isinstance(shape, Rect):
        return shapely.box(shape.origin.x, shape.origin.y, shape.origin.x + shape.size.x, shape.origin.y + shape.size.y)
    assert isinstance(shape, OrientedRect), shape
    return shapely.Polygon([(p.x, p.y) for p in shape.corners()])


@settings(max_examples=300, deadline=None)
@given(painted_grids())
def test_a_painted_grid_collides_as_the_union_of_its_cells_shapes_flipped_as_tiled_says(case):
    ts, grid = case
    level = Level(tilesets=(ts,), objects=(grid,))
    grid = level.objects[0]
    shapes = grid.collision_shapes()
    expected = [oracle_cell(ts, v, grid.origin.x + c * CELL, grid.origin.y + r * CELL)
                for r, row in enumerate(grid.tiles) for c, v in enumerate(row) if v >= 0]
    expected = shapely.union_all([g for g in expected if g is not None])
    got = shapely.union_all([as_geometry(s) for s in shapes])
    assert shapely.symmetric_difference(got, expected).area == 0
    # merged rectangles never overlap one another (a body resting on two would be pushed twice)
    boxes = [as_geometry(s) for s in shapes]
    for a, b in itertools.combinations(boxes, 2):
        assert a.intersection(b).area == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.builds(lambda x, y, w, h: Rect((x, y), (w, h)), st.integers(-40, 40), st.integers(-40, 40),
                          st.integers(1, 30), st.integers(1, 30)), max_size=25))
def test_merging_rectangles_never_changes_what_they_cover(rects):
    merged = merged_rects(rects)
    before = shapely.union_all([as_geometry(r) for r in rects])
    after = shapely.union_all([as_geometry(r) for r in merged])
    assert shapely.symmetric_difference(before, after).area == 0
    assert len(merged) <= len(rects)


@given(st.integers(0, 1000), st.sampled_from(FLAG_SETS))
def test_four_quarter_turns_and_two_flips_are_the_identity(tile, flags):
    value = tile | flags
    assert turned(turned(turned(turned(value)))) == value
    assert turned(turned(turned(turned(value, False), False), False), False) == value
    assert turned(turned(value), False) == value
    assert flipped_x(flipped_x(value)) == value
    assert flipped_y(flipped_y(value)) == value
    assert tile_number(turned(value)) == tile


def test_turning_matches_tileds_rotate_tables():
    for flags in FLAG_SETS:
        assert tiled_mask(turned(7 | flags)) == TILED_ROTATE_RIGHT[tiled_mask(flags)]
        assert tiled_mask(turned(7 | flags, clockwise=False)) == TILED_ROTATE_LEFT[tiled_mask(flags)]


def test_the_eight_flag_sets_are_a_group_made_by_a_turn_and_a_flip():
    made = {0}
    frontier = [0]
    while frontier:
        v = frontier.pop()
        for step in (turned, flipped_x):
            w = step(v)
            if w not in made:
                made.add(w)
                frontier.append(w)
    assert made == set(FLAG_SETS)
    # closed, with an inverse for each: composing any two stays among the eight
    for f in FLAG_SETS:
        assert flipped_y(f) in made and turned(f, False) in made
        assert flipped_y(f) == turned(turned(flipped_x(f)))  # upside down is mirrored and turned twice


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(named_rects, any_rect()), min_size=1, max_size=3),
       st.integers(4, 200), st.integers(4, 200), st.booleans(), st.booleans(),
       st.sampled_from([0.0, 90.0, 180.0, 270.0, 30.0, -45.0, 123.5]),
       st.integers(-300, 300), st.integers(-300, 300))
def test_a_solid_sprite_collides_where_its_tiles_shapes_go_scaled_flipped_and_turned(rects, w, h, fx, fy, rotation,
                                                                                     cx, cy):
    ts = Tileset("ts", "T", (CELL, CELL), image="t.png", image_size=(CELL, CELL), columns=1, count=1,
                 tiles={0: TileInfo(collision=tuple(TileShape("rect", r) for r in rects))})
    sprite = Sprite("s", (cx, cy), (w, h), rotation=rotation, flip_x=fx, flip_y=fy, tileset="ts", tile=0, solid=True)
    level = Level(tilesets=(ts,), objects=(sprite,))
    got = joined([as_geometry(s) for s in level.objects[0].collision_shapes()])
    parts = []
    for (px, py), (pw, ph) in rects:
        g = shapely.box(px, py, px + pw, py + ph)
        g = shapely.affinity.scale(g, w / CELL, h / CELL, origin=(0, 0))
        g = shapely.affinity.translate(g, -w / 2, -h / 2)
        g = shapely.affinity.scale(g, -1 if fx else 1, -1 if fy else 1, origin=(0, 0))
        # y points down, so shapely's counter-clockwise (y up) turn is a clockwise one on screen
        g = shapely.affinity.rotate(g, rotation, origin=(0, 0))
        parts.append(shapely.affinity.translate(g, cx, cy))
    expected = joined(parts)
    assert shapely.symmetric_difference(got, expected).area <= 1e-6 * max(expected.area, 1.0)
    # and a sprite that is not solid collides nowhere, whatever its tile says
    loose = Level(tilesets=(ts,), objects=(Sprite("s", (cx, cy), (w, h), tileset="ts", tile=0),))
    assert loose.objects[0].collision_shapes() == ()
