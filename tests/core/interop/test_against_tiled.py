"""The maps `export` writes, read by the real clients: Tiled converts them both ways and what it writes imports back
as the same level; pytmx loads them with every object, name and typed property; Tiled's own example maps import.

Tiled runs headless (Qt offscreen). Where it is not installed these tests skip, saying so; .ci/run installs it.
"""
from __future__ import annotations

import gzip
import logging
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from level_editor.core.interop.tiled_common import TiledImportError
from level_editor.core.interop.tiled_export import write_tiled
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.interop.png import png_size
from level_editor.core.level.file_format import dumps_level, load_level, loads_level
from level_editor.core.level.model import Image, Ref, Tiles

from tests.core.interop.helpers import EXAMPLES, LEVELS, assert_same_level, needs_tiled, run_tiled

#: Tiled 1.8 writes TMX coordinates with 6 significant digits (444.43078 -> 444.431); its JSON keeps 15.
THROUGH_TILED = 0.01


def export(level_path: Path, folder: Path, fmt: str) -> Path:
    out = folder / f"ours.{fmt}"
    write_tiled(load_level(level_path), out, level_dir=str(level_path.parent))
    return out


def imported(path: Path, level_path: Path):
    result = read_tiled(path, level_dir=str(level_path.parent))
    assert result.notes == ()
    return result.level


@needs_tiled
@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
@pytest.mark.parametrize("route", ["tmj>tmx", "tmx>tmj", "tmj>tmx>tmj", "tmx>tmx"])
def test_what_tiled_writes_of_our_map_imports_as_the_same_level(tmp_path, path, route):
    steps = route.split(">")
    current = export(path, tmp_path, steps[0])
    for i, fmt in enumerate(steps[1:]):
        target = tmp_path / f"theirs{i}.{fmt}"
        run_tiled(current, target)
        current = target
    assert_same_level(imported(current, path), load_level(path), THROUGH_TILED, ordered=False)  # Tiled sorts them


@needs_tiled
def test_tiled_keeps_layers_locks_types_references_and_non_solid_areas(tmp_path):
    path = LEVELS[[p.name for p in LEVELS].index("game_content.json")]
    run_tiled(export(path, tmp_path, "tmx"), tmp_path / "theirs.tmj")
    level = imported(tmp_path / "theirs.tmj", path)
    assert [(layer.id, layer.locked) for layer in level.layers] == [("art", True), ("walls", False),
                                                                    ("things", False)]
    by_id = {o.id: o for o in level.objects}
    assert by_id["gate"].properties == {"opened_by": Ref("lever")}
    assert by_id["patrol"].properties == {"guard": Ref("goblin-1")} and not by_id["patrol"].solid
    assert [t.color for t in level.types][:2] == ["#e0503c", "#3c8ce0"]
    assert isinstance(by_id["floor"], Tiles) and by_id["ledge"].cells == ("######..", "########")
    assert isinstance(by_id["backdrop"], Image) and by_id["backdrop"].opacity == 0.5


@needs_tiled
def test_tiled_renders_our_map(tmp_path):
    rasterizer = shutil.which("tmxrasterizer")
    if rasterizer is None:
        pytest.skip("tmxrasterizer (shipped with Tiled) is not installed here")
    path = LEVELS[[p.name for p in LEVELS].index("game_content.json")]
    ours = export(path, tmp_path, "tmx")
    r = subprocess.run([rasterizer, str(ours), str(tmp_path / "ours.png")], capture_output=True, text=True,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=120)
    assert r.returncode == 0, r.stderr
    width, height = png_size((tmp_path / "ours.png").read_bytes())
    assert width >= 640 and height >= 470  # the courtyard, 640 x 480, and its walls


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.name)
def test_pytmx_loads_our_tmx_with_every_object_name_and_typed_property(tmp_path, path):
    pytmx = pytest.importorskip("pytmx", reason="pytmx is in the test extras: pip install -e '.[test]'")
    logging.getLogger("pytmx").setLevel(logging.CRITICAL)  # it warns that pygame is missing
    level = load_level(path)
    ours = export(path, tmp_path, "tmx")
    tiled = pytmx.TiledMap(str(ours))
    objects = {}
    for group in tiled.objectgroups:
        for obj in group:
            if obj.name:  # pytmx also lists the tileset's collision rectangle as an object layer (a pytmx quirk)
                objects[obj.name] = obj
    tiled_ids = {o.name: o.id for o in objects.values()}
    for obj in level.objects:
        if isinstance(obj, (Tiles, Image)):
            continue
        loaded = objects[obj.id]
        assert (loaded.type or "") == obj.type
        for name, value in level.properties_of(obj).items():
            expected = tiled_ids[value.id] if isinstance(value, Ref) and value.id else (
                0 if isinstance(value, Ref) else value)
            assert loaded.properties[name] == expected and type(loaded.properties[name]) is type(expected), name
        if obj.kind == "sprite":  # art: not solid unless it says so
            assert loaded.properties.get("solid", False) is obj.solid
        elif obj.kind != "point" and not obj.solid:
            assert loaded.properties["solid"] is False
    player = objects["player"]
    assert (player.type, player.x, player.y) == ("player_spawn", level.player.spawn.x, level.player.spawn.y)
    assert player.properties["speed"] == level.player.speed
    level_props = {k: v for k, v in tiled.properties.items() if k != "level-editor"}
    assert level_props == {k: v for k, v in level.properties.items()}
    layer_names = {layer.name for layer in tiled.layers}
    for obj in level.objects:
        if isinstance(obj, (Tiles, Image)):
            assert obj.id in layer_names
    for grid in (o for o in level.objects if isinstance(o, Tiles)):
        layer = tiled.get_layer_by_name(grid.id)
        solid = sum(row.count("#") for row in grid.cells)
        assert sum(1 for _x, _y, gid in layer.iter_data() if gid) == solid


def _examples():
    return sorted(p for p in EXAMPLES.rglob("*") if p.name.endswith((".tmx", ".tmx.gz", ".tmj", ".json"))
                  and "tiled-project" not in p.name) if EXAMPLES.is_dir() else []


@pytest.mark.skipif(not _examples(), reason=f"Tiled's example maps are not installed here ({EXAMPLES}; "
                                            "they come with Debian's tiled package)")
@pytest.mark.parametrize("path", _examples(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_tiled_example_maps_import_or_are_refused_by_name(tmp_path, path):
    raw = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    head = raw[:2000].decode("utf-8", "replace")
    orthogonal = 'orientation="orthogonal"' in head or '"orientation":"orthogonal"' in head.replace(" ", "")
    if not orthogonal:
        with pytest.raises(TiledImportError) as e:
            read_tiled(path, level_dir=str(tmp_path))
        assert "maps are not supported: only orthogonal maps become levels" in str(e.value)
        return
    result = read_tiled(path, level_dir=str(tmp_path))
    loads_level(dumps_level(result.level))  # a level file that loads
    assert result.level.layers
    assert all(n and "\n" not in n for n in result.notes)
    assert not any("is missing" in n or "cannot be read" in n for n in result.notes)  # templates, tilesets found


@needs_tiled
def test_the_sticker_knight_map_with_templates_and_tile_objects_comes_through(tmp_path):
    path = EXAMPLES / "sticker-knight" / "map" / "sandbox.tmx.gz"
    if not path.exists():
        pytest.skip(f"{path} is not installed here")
    result = read_tiled(path, level_dir=str(tmp_path))
    by_id = {o.id: o for o in result.level.objects}
    assert by_id["hero"].type == "hero" and tuple(by_id["hero"].size) == (128, 160)  # from templates/hero.tx
    assert sum(o.type == "coin" for o in result.level.objects) >= 3  # diamond.tx instances
    assert any(o.kind == "sprite" and o.rotation for o in result.level.objects)  # turned tile objects, as sprites
    assert all("body is art" in n or "already called" in n or "player_spawn" in n for n in result.notes)


def _pixel_at(bmp: bytes, x: int, y: int) -> bytes:
    """The pixel (x, y) of a 24- or 32-bit BMP as Qt writes it (rows bottom-up unless the height is negative)."""
    import struct

    start, = struct.unpack_from("<I", bmp, 10)
    width, height, _, bits = struct.unpack_from("<iiHH", bmp, 18)
    size = bits // 8
    stride = (width * size + 3) // 4 * 4
    row = y if height < 0 else abs(height) - 1 - y
    return bmp[start + row * stride + x * size: start + row * stride + (x + 1) * size]


def test_tiled_draws_a_wall_as_thick_as_it_is(tmp_path):
    """tmxrasterizer, Tiled's own renderer: a 24 px wall covers 10 px beside its nodes, not a hairline."""
    from level_editor.core.level.model import Level, Player, Wall

    rasterizer = shutil.which("tmxrasterizer")
    if rasterizer is None:
        pytest.skip("tmxrasterizer is not installed here (it comes with Tiled)")
    level = Level(player=Player(spawn=(300, 300)), objects=(Wall("long", ((40, 100), (360, 100)), 24),
                                                            Wall("ring", ((100, 180), (220, 180), (220, 300), (100, 300)),
                                                                 24, closed=True)))
    write_tiled(level, tmp_path / "walls.tmx")
    r = subprocess.run([rasterizer, str(tmp_path / "walls.tmx"), str(tmp_path / "walls.bmp")], capture_output=True,
                       text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=120)
    assert r.returncode == 0, r.stderr
    bmp = (tmp_path / "walls.bmp").read_bytes()
    empty = _pixel_at(bmp, 2, 2)

    def drawn(x, y):
        return _pixel_at(bmp, x, y) != empty

    assert all(drawn(200, y) for y in (90, 100, 110))  # across the wall: all of it drawn
    assert not drawn(200, 80) and not drawn(200, 120)  # beyond its thickness: nothing
    assert drawn(160, 185) and not drawn(160, 240)  # the closed wall: its hole stays open


@needs_tiled
def test_tiled_reads_the_object_types_written_beside_the_map(tmp_path):
    """Tiled's object types file (its name, colour and typed default properties), as Tiled itself reads it: with
    it as the user's object types, Tiled fills in the defaults of an object of that type (--resolve-types...)."""
    import json
    import xml.etree.ElementTree as ET

    level = load_level(LEVELS[[p.name for p in LEVELS].index("game_content.json")])
    write_tiled(level, tmp_path / "court.tmx")
    types_file = tmp_path / "court.objecttypes.xml"
    project = json.loads((tmp_path / "court.tiled-project").read_text())
    assert project["objectTypesFile"] == "court.objecttypes.xml"
    colours = {t.get("name"): t.get("color") for t in ET.parse(types_file).getroot()}
    assert colours == {"player_spawn": "#46c85a", **{t.name: t.color for t in level.types}}

    data = tmp_path / "data" / "tiled"  # where Tiled 1.8 keeps the user's object types
    data.mkdir(parents=True)
    shutil.copy(types_file, data / "objecttypes.xml")
    bare = {"type": "map", "version": "1.8", "orientation": "orthogonal", "renderorder": "right-down", "width": 4,
            "height": 4, "tilewidth": 16, "tileheight": 16, "infinite": False, "nextlayerid": 2,
            "nextobjectid": 3, "tilesets": [], "layers": [
                {"id": 1, "name": "T", "type": "objectgroup", "visible": True, "opacity": 1, "x": 0, "y": 0,
                 "draworder": "index", "objects": [
                     {"id": 1, "name": "g", "type": "enemy", "x": 1, "y": 1, "width": 0, "height": 0,
                      "rotation": 0, "visible": True, "point": True},
                     {"id": 2, "name": "c", "type": "route", "x": 1, "y": 1, "width": 0, "height": 0,
                      "rotation": 0, "visible": True, "point": True}]}]}
    (tmp_path / "bare.tmj").write_text(json.dumps(bare))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    r = subprocess.run([shutil.which("tiled"), "--resolve-types-and-properties", "--export-map",
                        str(tmp_path / "bare.tmj"), str(tmp_path / "resolved.tmj")], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    objs = json.loads((tmp_path / "resolved.tmj").read_text())["layers"][0]["objects"]
    assert objs[0]["properties"] == [{"name": "health", "type": "int", "value": 3},
                                     {"name": "speed", "type": "float", "value": 1.5}]
    assert objs[1]["properties"] == [{"name": "loop", "type": "bool", "value": True}]
