"""Exporting a level's art to Tiled: its tilesets, painted grids and sprites, drawn by Tiled's own renderer
(tmxrasterizer) where our model says they are, and read back by pytmx, Tiled itself and our import."""
from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from level_editor.core.interop.tiled_export import level_to_tiled, write_tiled
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.interop.tmx import parse_xml, tmx_map
from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y, TileInfo, TileShape, Tileset, cell_matrix
from level_editor.core.level.model import Layer, Level, Player, Sprite, Tiles

from tests.core.interop.art_maps import (BLUE, GREEN, MARGIN, MARK, RED, SPACING, TILE, png, rasterize,
                                         tileset_picture)
from tests.core.interop.helpers import assert_same_level, needs_tiled, run_tiled

np = pytest.importorskip("numpy")

EIGHT = (0, FLIP_X, FLIP_Y, FLIP_X | FLIP_Y, FLIP_D, FLIP_D | FLIP_X, FLIP_D | FLIP_Y, FLIP_D | FLIP_X | FLIP_Y)


def marks(image: str = "tiles.png", **more) -> Tileset:
    """The tileset of ``art_maps.tileset_picture``: tile 0 marked, 1 green, 2 a half-height floor."""
    tiles = {0: TileInfo(type="marker", properties={"weight": 2.5, "name": "mark"}),
             1: TileInfo(collision=(TileShape("rect", ((0, 0), (16, 16))),)),
             2: TileInfo(collision=(TileShape("rect", ((0, 8), (16, 8))), TileShape("ellipse", ((2, 2), (4, 4))),
                                    TileShape("polygon", ((0, 0), (8, 0), (0, 8)))))}
    return Tileset("marks", "Marks", (TILE, TILE), image=image, margin=MARGIN, spacing=SPACING, columns=2,
                   count=4, transparent="#ff00ff", tiles=tiles, **more)


def pixels(path: Path) -> "np.ndarray":
    from tests.picture_diff import picture_array
    return picture_array(path)


def colour_at(picture, x: float, y: float) -> tuple:
    return tuple(int(v) for v in picture[int(y), int(x)])


def is_(colour, expected, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def drawn(level: Level, folder: Path, fmt: str = "tmx"):
    tileset_picture(folder)
    path = folder / f"art.{fmt}"
    notes = write_tiled(level, path, level_dir=str(folder))
    return pixels(rasterize(path, folder / "drawn.png")), notes


def cell_point(value: int, x: float, y: float, left: float, bottom: float) -> tuple[float, float]:
    """Where the tile's own point (x, y) lands when the cell ``value`` draws it with its bottom-left corner at
    (left, bottom): the model's matrix, about the tile's centre."""
    a, b, c, d = cell_matrix(value)
    h = TILE / 2
    px, py = x - h, y - h
    return left + h + a * px + b * py, bottom - TILE + h + c * px + d * py


@pytest.mark.parametrize("cell", [16, 24], ids=["tile layer", "tile objects"])
def test_each_flip_and_turn_puts_the_marked_corner_where_the_model_says(tmp_path, cell):
    """A grid on the map's tiles is a tile layer (its origin off the tiles: the layer's offset); a grid of other
    cells becomes tile objects. Either way Tiled draws each of the 8 flags as our model does."""
    row = []
    for flags in EIGHT:
        row += [flags, -1]
    grid = Tiles("floor", (8, 24), cell, (), tileset="marks", tiles=(tuple(row),))
    # two grids of 16 px elsewhere make 16 px the map's tile size (the most common cell) beside one of 24 px
    others = tuple(Tiles(f"other-{i}", (32 * i, 200), 16, (), tileset="marks", tiles=((1,),)) for i in range(2))
    level = Level(objects=(grid, *others), tilesets=(marks(),), size=(420, 240), player=Player(spawn=(400, 220)))
    picture, notes = drawn(level, tmp_path)
    assert any("floor" in n and "tile objects" in n for n in notes) == (cell != 16)
    for i, flags in enumerate(EIGHT):
        left, bottom = 8 + 2 * i * cell, 24 + cell
        on_mark = cell_point(flags, MARK[0] / 2, MARK[1] / 2, left, bottom)
        across = cell_point(flags, MARK[1] / 2, MARK[0] - 0.5, left, bottom)  # the mark turned would be here
        far = cell_point(flags, TILE - 3, TILE - 3, left, bottom)
        assert is_(colour_at(picture, *on_mark), RED), (i, on_mark)
        assert is_(colour_at(picture, *across), BLUE), (i, across)
        assert is_(colour_at(picture, *far), BLUE), (i, far)


def test_a_turned_flipped_stretched_sprite_lands_on_the_models_corners(tmp_path):
    (tmp_path / "crate.png").write_bytes(png(20, 10, lambda x, y: RED if x < 10 else GREEN))
    sprites = (Sprite("marked", (110, 70), (48, 32), rotation=30, flip_x=True, tileset="marks", tile=0),
               Sprite("crate", (240, 90), (60, 40), rotation=-45, flip_y=True, picture="crate.png"),
               Sprite("upside", (330, 60), (32, 32), rotation=180, flip_x=True, flip_y=True, tileset="marks", tile=0))
    level = Level(objects=sprites, tilesets=(marks(),), size=(400, 160), player=Player(spawn=(390, 150)))
    picture, notes = drawn(level, tmp_path)
    assert notes == ()
    marked, crate, upside = sprites
    for sprite in (marked, upside):
        sx, sy = sprite.size.x / TILE, sprite.size.y / TILE
        assert is_(colour_at(picture, *sprite.to_level(MARK[0] / 2 * sx, MARK[1] / 2 * sy)), RED), sprite.id
        assert is_(colour_at(picture, *sprite.to_level(MARK[1] / 2 * sx, (MARK[0] + 2) * sy)), BLUE), sprite.id
        assert is_(colour_at(picture, *sprite.to_level((TILE - 2) * sx, (TILE - 2) * sy)), BLUE), sprite.id
    for x, y, expected in ((8, 20, RED), (52, 20, GREEN), (4, 4, RED), (56, 36, GREEN)):
        assert is_(colour_at(picture, *crate.to_level(x, y)), expected), (x, y)
    outside = marked.to_level(-4, -4)
    assert colour_at(picture, *outside)[3] == 0  # nothing beyond the sprite's corners


def test_layer_opacity_halves_the_alpha_and_a_hidden_layer_is_not_drawn(tmp_path):
    layers = (Layer("ground", "Ground", opacity=0.5), Layer("ghosts", "Ghosts", visible=False), Layer("top", "Top"))
    objects = (Tiles("half", (0, 0), 16, (), tileset="marks", tiles=((1, 1),), layer="ground"),
               Tiles("hidden", (0, 32), 16, (), tileset="marks", tiles=((1, 1),), layer="ghosts"),
               Sprite("shown", (72, 40), (16, 16), tileset="marks", tile=1, layer="top"),
               Sprite("gone", (104, 40), (16, 16), tileset="marks", tile=1, layer="ghosts"))
    level = Level(objects=objects, tilesets=(marks(),), layers=layers, size=(160, 64), player=Player(spawn=(150, 60)))
    picture, _ = drawn(level, tmp_path)
    assert abs(colour_at(picture, 8, 8)[3] - 128) <= 3 and is_(colour_at(picture, 8, 8)[:3], GREEN[:3])
    assert colour_at(picture, 8, 40)[3] == 0 and colour_at(picture, 104, 40)[3] == 0
    assert colour_at(picture, 72, 40) == GREEN


@needs_tiled
def test_the_background_colour_and_the_levels_size_make_the_maps(tmp_path):
    """Tiled keeps the colour (its 1.8 tmxrasterizer draws no map background, so Tiled's own re-save is asked)."""
    level = Level(objects=(Sprite("s", (8, 8), (16, 16), tileset="marks", tile=1),), tilesets=(marks(),),
                  size=(100, 50), background="#336699", player=Player(spawn=(90, 40)))
    data = level_to_tiled(level).data
    assert (data["width"], data["height"], data["tilewidth"]) == (7, 4, 16)  # 100 x 50 px, rounded up
    picture, _ = drawn(level, tmp_path)
    assert picture.shape[:2] == (64, 112) and colour_at(picture, 8, 8) == GREEN
    run_tiled(tmp_path / "art.tmx", tmp_path / "again.tmj")
    assert json.loads((tmp_path / "again.tmj").read_text())["backgroundcolor"] == "#336699"


def art_level() -> Level:
    collection = Tileset("props", "Props", (20, 10), tiles={
        3: TileInfo(image="crate.png", image_size=(20, 10), type="crate",
                    collision=(TileShape("rect", ((0, 0), (20, 10))),))})
    objects = (Tiles("floor", (0, 48), 16, (), tileset="marks", tiles=((2, 2 | FLIP_X, -1), (1, -1, 0 | FLIP_D))),
               Tiles("deco", (5, 7), 16, (), tileset="marks", tiles=((0,),)),
               Sprite("box", (100, 20), (40, 20), rotation=15, tileset="props", tile=3, solid=True, opacity=0.5),
               Sprite("pic", (150, 30), (20, 10), picture="crate.png", flip_y=True))
    return Level(objects=objects, tilesets=(marks(offset=(2, -3), image_size=(36, 36)), collection), size=(200, 100),
                 background="#102030", player=Player(spawn=(180, 20)))


def test_tilesets_are_written_with_their_pictures_shapes_types_and_properties(tmp_path):
    tileset_picture(tmp_path)
    (tmp_path / "crate.png").write_bytes(png(20, 10, lambda x, y: RED))
    (tmp_path / "maps").mkdir()
    for fmt in ("tmj", "tmx"):
        out = tmp_path / "maps" / f"art.{fmt}"
        assert write_tiled(art_level(), out, level_dir=str(tmp_path)) == ()
        data = json.loads(out.read_text()) if fmt == "tmj" else tmx_map(parse_xml(out.read_bytes(), "art.tmx"))
        marks_ts, props_ts, pictures = data["tilesets"][:3]
        assert (marks_ts["firstgid"], props_ts["firstgid"], pictures["firstgid"]) == (1, 5, 9)
        if fmt == "tmx":  # our TMX reader keeps only the picture's path: the rest from the element
            image = _tmx_image(out)
            marks_ts.update(imagewidth=int(image.get("width")), imageheight=int(image.get("height")),
                            transparentcolor="#" + image.get("trans"))
        assert marks_ts["image"] == "../tiles.png" and (marks_ts["imagewidth"], marks_ts["imageheight"]) == (36, 36)
        assert [marks_ts[k] for k in ("tilewidth", "tileheight", "margin", "spacing", "columns", "tilecount")] == [
            16, 16, 1, 2, 2, 4]
        assert marks_ts["tileoffset"] == {"x": 2, "y": -3}
        assert marks_ts["transparentcolor"] == "#ff00ff"
        tiles = {t["id"]: t for t in marks_ts["tiles"]}
        assert tiles[0]["type"] == "marker"
        assert {p["name"]: (p["type"], str(p["value"])) for p in tiles[0]["properties"]} == {
            "weight": ("float", "2.5"), "name": ("string", "mark")}
        shapes = tiles[2]["objectgroup"]["objects"]
        assert [(float(s["y"]), float(s["height"])) for s in shapes[:1]] == [(8, 16 / 2)]
        assert shapes[1].get("ellipse") is True and [(float(p["x"]), float(p["y"])) for p in shapes[2]["polygon"]] == [
            (0, 0), (8, 0), (0, 8)]
        assert props_ts["columns"] == 0 and props_ts["tiles"][0]["id"] == 3
        assert props_ts["tiles"][0]["image"] == "../crate.png" and float(props_ts["tiles"][0]["imagewidth"]) == 20
        assert pictures["tiles"] == [{"id": 0, "image": "../crate.png", "imagewidth": 20, "imageheight": 10}]
        group = data["layers"][0]
        floor = group["layers"][0]
        assert floor["name"] == "floor"
        gids = [int(g) for g in (floor["data"] if fmt == "tmj" else floor["data"].replace("\n", "").split(","))]
        width = data["width"]
        assert gids[3 * width:3 * width + 3] == [3, 3 | FLIP_X, 0] and gids[4 * width:4 * width + 3] == [2, 0, 1 | FLIP_D]
        objects = [o for layer in group["layers"] if layer["type"] == "objectgroup" for o in layer["objects"]]
        box, pic = [o for o in objects if o["name"] in ("box", "pic")]
        assert int(box["gid"]) == 5 + 3 and int(pic["gid"]) == 9 | FLIP_Y
        box_props = {p["name"]: str(p["value"]).lower() for p in box["properties"]}
        assert box_props["solid"] == "true" and box_props["opacity"] == "0.5"


def _tmx_image(tmx: Path):
    import xml.etree.ElementTree as ET
    return ET.parse(tmx).getroot().find("tileset/image")


def test_several_grids_on_one_layer_are_one_tile_layer_each_named_by_their_ids():
    level = art_level()
    data = level_to_tiled(level).data
    names = [(child["type"], child["name"]) for child in data["layers"][0]["layers"]]
    assert names[:2] == [("tilelayer", "floor"), ("tilelayer", "deco")]
    deco = data["layers"][0]["layers"][1]
    assert (deco["offsetx"], deco["offsety"]) == (5, 7)  # an origin off the map's tiles


def test_a_missing_tileset_picture_still_exports_with_a_note_naming_it(tmp_path):
    level = Level(objects=(Tiles("floor", (0, 0), 16, (), tileset="marks", tiles=((1,),)),),
                  tilesets=(marks(),), player=Player(spawn=(40, 40)))
    notes = write_tiled(level, tmp_path / "art.tmj", level_dir=str(tmp_path))
    assert len(notes) == 1 and "tileset marks" in notes[0] and "'tiles.png' is missing" in notes[0]
    ts = json.loads((tmp_path / "art.tmj").read_text())["tilesets"][0]
    assert (ts["image"], ts["imagewidth"], ts["imageheight"]) == ("tiles.png", 36, 36)  # what its tiles need


def test_pytmx_loads_the_art_and_tiled_resaves_it(tmp_path):
    pytmx = pytest.importorskip("pytmx")
    logging.getLogger("pytmx").setLevel(logging.CRITICAL)
    tileset_picture(tmp_path)
    (tmp_path / "crate.png").write_bytes(png(20, 10, lambda x, y: RED))
    for fmt in ("tmx", "tmj"):
        out = tmp_path / f"art.{fmt}"
        write_tiled(art_level(), out, level_dir=str(tmp_path))
        if fmt == "tmx":
            tiled = pytmx.TiledMap(str(out))
            floor = tiled.get_layer_by_name("floor")
            assert sum(1 for _x, _y, gid in floor.iter_data() if gid) == 4
            box = tiled.get_object_by_name("box")
            assert box.properties["solid"] is True and box.properties["opacity"] == 0.5
            assert tiled.get_tile_properties_by_gid(box.gid)["type"] == "crate"
    if shutil.which("tiled") is None:
        pytest.skip("Tiled is not installed here")
    for fmt in ("tmx", "tmj"):
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        r = subprocess.run([shutil.which("tiled"), "--export-map", str(tmp_path / f"art.{fmt}"),
                            str(tmp_path / f"again{fmt}.tmj")], capture_output=True, text=True, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        again = json.loads((tmp_path / f"again{fmt}.tmj").read_text())
        marks_ts, props_ts, pictures = again["tilesets"]
        assert (marks_ts["name"], props_ts["name"], pictures["name"]) == ("Marks", "Props", "level-editor pictures")
        tiles = {t["id"]: t for t in marks_ts["tiles"]}
        assert tiles[0]["type"] == "marker" and props_ts["tiles"][0]["type"] == "crate"  # Tiled 1.8 reads "type"
        assert len(tiles[2]["objectgroup"]["objects"]) == 3
        assert (marks_ts["tileoffset"], marks_ts["transparentcolor"]) == ({"x": 2, "y": -3}, "#ff00ff")


@pytest.mark.parametrize("fmt", ["tmx", "tmj"])
def test_a_level_with_art_comes_back_as_itself(tmp_path, fmt):
    tileset_picture(tmp_path)
    (tmp_path / "crate.png").write_bytes(png(20, 10, lambda x, y: RED))
    level = art_level()
    write_tiled(level, tmp_path / f"art.{fmt}", level_dir=str(tmp_path))
    back = read_tiled(tmp_path / f"art.{fmt}", level_dir=str(tmp_path)).level
    assert_same_level(back, level)
    assert back.tilesets == level.tilesets and back.size == level.size and back.background == level.background


def ours(level: Level, folder: Path, width: int, height: int):
    """The level drawn by our own painters (the canvas's and ``render``'s), layer by layer, in file order."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter

    from level_editor.editor.painting.sprites import paint_sprite
    from level_editor.editor.painting.tiles import paint_tiles

    image = QImage(width, height, QImage.Format_ARGB32_Premultiplied)
    image.fill(Qt.transparent)
    painter = QPainter(image)
    for obj in level.drawing_order():
        layer = level.layer(obj.layer)
        if not layer.visible:
            continue
        painter.save()
        painter.setOpacity(layer.opacity)
        if isinstance(obj, Tiles):
            painter.translate(obj.origin.x, obj.origin.y)
            paint_tiles(painter, obj, str(folder))
        elif isinstance(obj, Sprite):
            painter.translate(obj.center.x, obj.center.y)
            paint_sprite(painter, obj, str(folder))
        painter.restore()
    painter.end()
    return image


@pytest.mark.parametrize("offset", [(0, 0), (2, -3)], ids=["no tile offset", "tile offset"])
def test_tiled_draws_our_export_as_we_draw_the_level(tmp_path, qapp, offset):
    """Grids on the map's tiles and off them, tiles of another size than their cells, the 8 flags, sprites of a
    tileset and of a picture file, turned, flipped and stretched, and a translucent layer, in file order."""
    from tests.picture_diff import differing_share

    (tmp_path / "crate.png").write_bytes(png(20, 10, lambda x, y: RED if x < 10 else GREEN))
    layers = (Layer("back", "Back", opacity=0.6), Layer("front", "Front"))
    row = tuple(v for flags in EIGHT for v in (flags, 1 | flags))
    objects = (Tiles("floor", (8, 24), 16, (), tileset="marks", tiles=(row, tuple(reversed(row))), layer="back"),
               Tiles("coarse", (3, 90), 20, (), tileset="marks", tiles=(row,), layer="front"),
               Sprite("marked", (110, 150), (48, 32), rotation=30, flip_x=True, tileset="marks", tile=0,
                      layer="front"),
               Tiles("over", (96, 144), 16, (), tileset="marks", tiles=((2, 2, 2),), layer="front"),
               Sprite("crate", (240, 150), (60, 40), rotation=-45, flip_y=True, picture="crate.png", layer="front"))
    level = Level(objects=objects, tilesets=(marks(offset=offset),), layers=layers, size=(340, 200),
                  player=Player(spawn=(330, 190)))
    tileset_picture(tmp_path)
    write_tiled(level, tmp_path / "art.tmx", level_dir=str(tmp_path))
    theirs = pixels(rasterize(tmp_path / "art.tmx", tmp_path / "tiled.png", "--hide-layer", "Player"))
    height, width = theirs.shape[:2]
    mine = ours(level, tmp_path, width, height)
    mine.save(str(tmp_path / "ours.png"))
    assert (pixels(tmp_path / "ours.png")[..., 3] > 0).mean() > 0.1  # there is art to compare
    assert differing_share(tmp_path / "tiled.png", mine) < 0.001


def test_level_editor_export_writes_the_art_with_pictures_named_from_the_maps_folder(tmp_path, capsys):
    """As a user runs it: a saved level with art in its own folder, exported into another; Tiled finds the pictures
    (its drawing shows them), and a missing picture is a warning line naming it, the map still written."""
    from level_editor.core.cli import main
    from level_editor.core.level.file_format import dumps_level

    levels, maps = tmp_path / "levels", tmp_path / "maps"
    (levels / "art").mkdir(parents=True)
    maps.mkdir()
    tileset_picture(levels / "art")
    ghosts = Tileset("ghosts", "Ghosts", (16, 16), tiles={0: TileInfo(image="art/ghost.png", image_size=(16, 16))})
    level = Level(objects=(Tiles("floor", (0, 32), 16, (), tileset="marks", tiles=((1, 1, 1),)),
                           Tiles("haunt", (64, 0), 16, (), tileset="ghosts", tiles=((0,),))),
                  tilesets=(marks(image="art/tiles.png"), ghosts), size=(96, 48), player=Player(spawn=(80, 40)))
    (levels / "hall.json").write_text(dumps_level(level))
    code = main(["export", str(levels / "hall.json"), "-o", str(maps / "hall.tmx")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "tileset ghosts tile 0: the picture 'art/ghost.png' is missing" in err
    root = parse_xml((maps / "hall.tmx").read_bytes(), "hall.tmx")
    assert [i.get("source") for i in root.iter("image")] == ["../levels/art/tiles.png", "../levels/art/ghost.png"]
    picture = pixels(rasterize(maps / "hall.tmx", tmp_path / "hall.png"))
    assert all(colour_at(picture, x, 40) == GREEN for x in (8, 24, 40))


def test_art_the_level_does_not_hold_is_refused_naming_the_object():
    """Loading refuses these; a level made in code is still checked, each problem on its own line."""
    from level_editor.core.interop.tiled_common import TiledExportError

    level = Level(objects=(Sprite("lost", (8, 8), (16, 16), tileset="nowhere", tile=0),
                           Sprite("beyond", (8, 8), (16, 16), tileset="marks", tile=9),
                           Tiles("floor", (0, 0), 16, (), tileset="gone", tiles=((0, 0),))),
                  tilesets=(marks(),))
    with pytest.raises(TiledExportError) as caught:
        level_to_tiled(level)
    assert caught.value.problems == ["lost: tileset 'nowhere' does not exist",
                                     "beyond: tile 9 is not in tileset 'marks'",
                                     "floor: tileset 'gone' does not exist"]


EXAMPLE_MAPS = ("desert.tmx", "sewers.tmx", "perspective_walls.tmx", "sewer_automap/sewers.tmx",
                "sticker-knight/map/sandbox.tmx.gz", "sticker-knight/map/sandbox2.tmx.gz")


@pytest.mark.parametrize("name", EXAMPLE_MAPS)
def test_tiled_draws_our_export_of_its_example_maps_as_it_draws_the_originals(tmp_path, name):
    """Tiled's example maps, imported and exported again: tmxrasterizer draws both alike."""
    import gzip

    from tests.core.interop.helpers import EXAMPLES
    from tests.picture_diff import differing_share

    source = EXAMPLES / name
    if not source.exists():
        pytest.skip(f"{source} is not installed here (Tiled's example maps come with Debian's tiled package)")
    folder = tmp_path / "original"
    shutil.copytree(source.parent, folder)
    original = folder / source.name
    if original.name.endswith(".gz"):
        for packed in folder.glob("*.gz"):
            packed.with_suffix("").write_bytes(gzip.decompress(packed.read_bytes()))
        original = original.with_suffix("")
    level = read_tiled(original, level_dir=str(tmp_path)).level
    write_tiled(level, tmp_path / "ours.tmx", level_dir=str(tmp_path))
    theirs = rasterize(original, tmp_path / "theirs.png")
    ours_ = rasterize(tmp_path / "ours.tmx", tmp_path / "ours.png")
    assert differing_share(theirs, ours_) < 0.02


def level_of_tile_map(path: Path) -> Level:
    """The level a map of tile layers only is, made here from Tiled's own numbers (not by our import, whose art
    is another piece of work): each tileset as it is, each layer's tiles of each tileset a painted grid."""
    from level_editor.core.interop.png import png_size
    from level_editor.core.interop.tiled_tiles import layer_tiles
    from level_editor.core.level.art import columns_of

    root = parse_xml(path.read_bytes(), path.name)
    tw, th = int(root.get("tilewidth")), int(root.get("tileheight"))
    tilesets, firsts = [], []
    for el in root.findall("tileset"):
        folder = path.parent
        firsts.append(int(el.get("firstgid")))
        if el.get("source"):
            folder = (path.parent / el.get("source")).parent
            el = parse_xml((path.parent / el.get("source")).read_bytes(), el.get("source"))
        image = el.find("image")
        picture = os.path.relpath(folder / image.get("source"), path.parent).replace(os.sep, "/")
        iw, ih = png_size((path.parent / picture).read_bytes()[:24])
        w, h = int(el.get("tilewidth")), int(el.get("tileheight"))
        margin, spacing = int(el.get("margin", 0)), int(el.get("spacing", 0))
        columns = columns_of(iw, w, margin, spacing)
        count = columns * columns_of(ih, h, margin, spacing)
        offset = el.find("tileoffset")
        tilesets.append(Tileset(f"ts-{len(tilesets)}", el.get("name"), (w, h), image=picture, image_size=(iw, ih),
                                margin=margin, spacing=spacing, columns=columns, count=count,
                                offset=(int(offset.get("x")), int(offset.get("y"))) if offset is not None else (0, 0),
                                transparent="#" + image.get("trans") if image.get("trans") else ""))
    layers, objects = [], []
    for i, (el, layer) in enumerate(zip(root.findall("layer"), tmx_map(root)["layers"])):
        layers.append(Layer(f"layer-{i}", el.get("name"), visible=el.get("visible", "1") != "0",
                            opacity=float(el.get("opacity", 1))))
        cells: dict[int, dict] = {}
        for col, row, gid in layer_tiles(layer, path.name):
            plain = gid & 0x0FFFFFFF
            k = max(j for j, first in enumerate(firsts) if first <= plain)
            cells.setdefault(k, {})[(col, row)] = (plain - firsts[k]) | (gid & 0xE0000000)
        for k, painted in sorted(cells.items()):
            grid = Tiles(f"layer-{i}-{k}", (0, 0), tw, (), tileset=tilesets[k].id, tiles=((-1,),), layer=layers[-1].id)
            objects.append(grid.with_tiles(painted))
    width, height = int(root.get("width")) * tw, int(root.get("height")) * th
    return Level(objects=objects, tilesets=tuple(tilesets), layers=tuple(layers), size=(width, height),
                 player=Player(spawn=(-1000, -1000)))


@pytest.mark.parametrize("name", ["desert.tmx", "sewers.tmx", "perspective_walls.tmx", "sewer_automap/sewers.tmx"])
def test_tiled_draws_our_export_of_its_tile_maps_as_it_draws_the_originals(tmp_path, name):
    """Tiled's example tile maps made into levels here, exported: tmxrasterizer draws the export as the original
    (tile sizes other than the map's, tile offsets, margins and spacing, a transparent colour, layer opacity)."""
    from tests.core.interop.helpers import EXAMPLES
    from tests.picture_diff import differing_share

    source = EXAMPLES / name
    if not source.exists():
        pytest.skip(f"{source} is not installed here (Tiled's example maps come with Debian's tiled package)")
    folder = tmp_path / "examples"
    shutil.copytree(EXAMPLES, folder)  # sewer_automap's map names a picture in the folder above it
    original = folder / name
    level = level_of_tile_map(original)
    write_tiled(level, original.parent / "ours.tmx", level_dir=str(original.parent))
    theirs = rasterize(original, tmp_path / "theirs.png")
    ours_ = rasterize(original.parent / "ours.tmx", tmp_path / "ours.png", "--hide-layer", "Player")
    assert differing_share(theirs, ours_) < 0.001
