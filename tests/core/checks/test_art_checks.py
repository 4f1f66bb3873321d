"""Checks and hulls read art as it collides: a painted grid as its tiles' collision shapes, a sprite only when solid,
and the pictures art names are warnings when missing, never errors."""
from __future__ import annotations

import shapely

from level_editor.core.checks.check import check_level
from level_editor.core.checks.hulls import LEVEL_KEY, level_hulls
from level_editor.core.checks.outlines import level_outlines
from level_editor.core.level.art import FLIP_Y, TileInfo, TileShape, Tileset
from level_editor.core.level.model import Level, Player, Sprite, Tiles
from level_editor.core.level.problems import ERROR, WARNING

HALF = TileInfo(collision=(TileShape("rect", ((0, 8), (16, 8))),))  # the bottom half of the cell
FULL = TileInfo(collision=(TileShape("rect", ((0, 0), (16, 16))),))
SLOPE = TileInfo(collision=(TileShape("polygon", ((0, 16), (16, 0), (16, 16))),))


def tileset(**tiles) -> Tileset:
    numbered = {int(k[1:]): v for k, v in tiles.items()}
    return Tileset("ts", "Tiles", (16, 16), image="art/ts.png", image_size=(64, 16), columns=4, count=4,
                   tiles=numbered)


def level(objects, spawn=(200, 200), tilesets=None, radius=6.0) -> Level:
    return Level(player=Player(spawn=spawn, radius=radius), objects=tuple(objects),
                 tilesets=(tileset(t1=HALF, t2=FULL, t3=SLOPE),) if tilesets is None else tilesets)


def grid(rows, origin=(0, 0), gid="g") -> Tiles:
    return Tiles(gid, origin, 16, (), tileset="ts", tiles=rows)


def errors(result):
    return [p for p in result.problems if p.severity == ERROR]


def test_a_painted_grid_outlines_as_the_union_of_its_tiles_collision_shapes():
    lv = level([grid(((1, 1, 0, 2), (2, 1 | FLIP_Y, 3, -1)))])
    o = level_outlines(lv)
    expected = shapely.union_all([shapely.box(r.origin.x, r.origin.y, r.origin.x + r.size.x, r.origin.y + r.size.y)
                                  for r in lv.objects[0].collision_shapes() if hasattr(r, "size")])
    # tile 0 has no shapes: the cell at (2, 0) covers nothing; the slope (3) fills its triangle
    slope = shapely.Polygon([(32, 32), (48, 16), (48, 32)])
    assert o.outlines[0].covers(expected)
    assert o.outlines[0].buffer(-0.6).within(shapely.union_all([expected, slope]))
    assert not o.outlines[0].intersects(shapely.box(33, 1, 47, 7))  # the empty top of tile 0's cell
    assert o.outlines[0].covers(shapely.Point(44, 28))  # inside the slope


def test_the_spawn_in_the_free_top_half_of_a_half_tile_is_fine_and_in_its_bottom_half_is_not():
    free = check_level(level([grid(((1, 1, 1),))], spawn=(24, 2), radius=5))
    assert errors(free) == []
    assert not any("inside" in p.message or "overlaps" in p.message for p in free.problems)
    blocked = check_level(level([grid(((1, 1, 1),))], spawn=(24, 12), radius=5))
    assert [p.message for p in errors(blocked)] == ["the player overlaps g at its spawn; move the spawn or the object"]


def test_the_spawn_on_the_free_bottom_half_of_an_upside_down_half_tile_is_fine():
    flipped = check_level(level([grid(((1 | FLIP_Y,) * 3,))], spawn=(24, 13), radius=2))
    assert errors(flipped) == []
    assert errors(check_level(level([grid(((1 | FLIP_Y,) * 3,))], spawn=(24, 3), radius=2)))


def test_an_art_only_grid_has_no_outline_and_no_hull_and_the_spawn_may_be_on_it():
    lv = level([grid(((0, 0, 0), (0, 0, 0)))], spawn=(24, 16))
    result = check_level(lv, with_hulls=True)
    assert errors(result) == []
    assert not any("inside" in p.message for p in result.problems)
    assert "g" not in result.hulls and level_outlines(lv).ids == []


def test_sprites_collide_only_when_solid():
    cloud = Sprite("cloud", (24, 24), (32, 16), picture="art/cloud.png")
    crate = Sprite("crate", (24, 24), (32, 16), picture="art/crate.png", solid=True)
    assert errors(check_level(level([cloud], spawn=(24, 24)))) == []
    result = check_level(level([crate], spawn=(24, 24)), with_hulls=True)
    assert [p.message for p in errors(result)] == ["the player overlaps crate at its spawn; move the spawn or the object"]
    assert result.hulls["crate"]["aabb"] == [8.0, 16.0, 40.0, 32.0]
    assert "cloud" not in check_level(level([cloud]), with_hulls=True).hulls


def test_a_solid_sprite_of_a_half_tile_collides_only_where_its_tile_does():
    lv = level([Sprite("ledge", (32, 32), (64, 64), tileset="ts", tile=1, solid=True)], spawn=(32, 8))
    assert errors(check_level(lv)) == []
    h = level_hulls(lv)
    assert h["ledge"]["aabb"] == [0.0, 32.0, 64.0, 64.0]


def test_the_whole_level_hull_holds_painted_and_sprite_collision():
    lv = level([grid(((2, 2),), origin=(0, 0)),
                Sprite("crate", (300, 300), (20, 20), picture="crate.png", solid=True),
                Sprite("cloud", (900, -900), (20, 20), picture="cloud.png")])
    h = level_hulls(lv)
    assert h[LEVEL_KEY]["aabb"] == [0.0, 0.0, 310.0, 310.0]


def test_two_half_tiles_facing_each_other_leave_a_passage_the_cells_would_not():
    # upside-down halves on top, halves below: 16 px free between them where the cells say none
    lv = level([grid(((1 | FLIP_Y,) * 6, (1,) * 6))], spawn=(48, 16), radius=4)
    result = check_level(lv)
    assert errors(result) == []
    assert not any("inside" in p.message for p in result.problems)


def test_missing_art_pictures_are_warnings_naming_the_tileset_or_sprite(tmp_path):
    collection = Tileset("things", "Things", (16, 16),
                         tiles={0: TileInfo(image="art/rock.png", image_size=(16, 16)),
                                1: TileInfo(image="art/tree.png", image_size=(16, 32))})
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "tree.png").write_bytes(b"not a picture")
    lv = level([Sprite("cloud", (500, 500), (16, 16), picture="art/cloud.png")],
               tilesets=(tileset(), collection))
    result = check_level(lv, base_dir=str(tmp_path))
    messages = sorted(p.message for p in result.problems if "picture" in p.message)
    assert all(p.severity == WARNING for p in result.problems if "picture" in p.message)
    assert messages == sorted([
        f"the picture 'art/cloud.png' is not there (looked for {tmp_path}/art/cloud.png)",
        f"tileset 'ts': the picture 'art/ts.png' is not there (looked for {tmp_path}/art/ts.png)",
        f"tileset 'things' (tile 0): the picture 'art/rock.png' is not there (looked for {tmp_path}/art/rock.png)",
        "tileset 'things' (tile 1): the picture 'art/tree.png' is not a PNG or JPEG file",
    ])
    assert [p.object_id for p in result.problems if "cloud.png" in p.message] == ["cloud"]
