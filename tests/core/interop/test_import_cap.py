"""Issue 23, item 8: the tile work of one map's import is capped (as the level limits cap a level), and an import
can be stopped while it reads. A map of 20 zlib layers of 4096 x 4096 tiles that do not collide (1.7 MB) took over
a minute to import, with no way out."""
from __future__ import annotations

import pytest

from level_editor.core.interop import ImportCancelled, tiled_import
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.interop.tiled_tiles import MAX_MAP_TILES
from tests.core.interop.helpers import hostile_map, refusal


def test_a_hostile_map_of_tiles_that_cannot_collide_is_read_without_reading_its_tiles(tmp_path):
    path = hostile_map(tmp_path, layers=20, side=4096)
    read = []

    result = read_tiled(path, stop=lambda: read.append(1) and False)

    assert result.level.objects == ()
    assert [n for n in result.notes if "left out unread" in n] == [
        f"layer floor {i}: its 16,777,216 tiles are left out unread: no tile of the map's tilesets collides, and the "
        f"map's tile layers hold more than the {MAX_MAP_TILES:,} tiles an import reads" for i in range(1, 21)]
    assert len(read) < 100  # asked between layers, never once per block of tiles: no tile was read


def test_a_map_whose_layers_can_collide_is_refused_at_the_layer_that_passes_the_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_import, "MAX_MAP_TILES", 2 * 16 * 16 + 10)
    path = hostile_map(tmp_path, layers=3, side=16, gid=0, collides=True)

    assert refusal(path) == ("layer floor 3: its 256 tiles bring the tiles to read to 768, more than the 522 an "
                             "import reads; refused (its tiles can collide, so it cannot be left out; split the map "
                             "or make it smaller)")


def test_over_the_cap_a_layer_that_cannot_collide_is_left_out_and_the_others_are_read(tmp_path, monkeypatch):
    monkeypatch.setattr(tiled_import, "MAX_MAP_TILES", 300)
    path = hostile_map(tmp_path, layers=2, side=16, gid=1)  # 512 tiles, none colliding
    result = read_tiled(path)
    assert sum("left out unread" in n for n in result.notes) == 2

    solid = hostile_map(tmp_path, "solid.tmj", layers=1, side=16, gid=1, collides=True)  # 256 tiles: under it
    result = read_tiled(solid)
    assert [o.kind for o in result.level.objects] == ["tiles"]
    assert not any("left out unread" in n for n in result.notes)


def test_under_the_cap_a_map_is_read_as_before(tmp_path):
    result = read_tiled(hostile_map(tmp_path, layers=2, side=16, gid=1))
    assert [n for n in result.notes if n.startswith("layer")] == []
    # every tile is read: the layers are art that never collides
    assert [(o.id, len(o.tiles), o.collision_shapes()) for o in result.level.objects] == [
        ("floor 1", 16, ()), ("floor 2", 16, ())]


def test_an_import_stops_inside_a_layer_once_asked_to(tmp_path):
    # one layer of 4096 x 4096 empty cells, which can collide: every cell is looked at (about 3 s)
    path = hostile_map(tmp_path, layers=1, side=4096, gid=0, collides=True)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) >= 5

    with pytest.raises(ImportCancelled):
        read_tiled(path, stop=stop)
    assert len(asked) == 5  # it stopped at the first look that said so, a few blocks of tiles into the layer


def test_an_import_that_is_never_stopped_gives_the_same_level(tmp_path):
    path = hostile_map(tmp_path, layers=2, side=16, gid=1, collides=True)
    assert read_tiled(path, stop=lambda: False) == read_tiled(path)
