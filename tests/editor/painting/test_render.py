"""``render`` pixel by pixel: tiles with every flip, tilesets cut right, sprites, layers, colours, the command."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y, TileInfo, Tileset
from level_editor.core.level.file_format import save_level
from level_editor.core.level.model import (Box, Image, Layer, Level, ObjectType, Pillar, Point, Sprite, Tiles,
                                           Wall)
from level_editor.core.work import background_call
from level_editor.editor import launcher
from level_editor.editor.painting.level_painter import KIND_COLORS, PASSABLE_ALPHA, TRIGGER_COLOR
from level_editor.editor.painting.render import RenderError, render_level

from tests.editor.painting.art import (BLACK, COLORS, GAP, MARK, WHITE, near, rgb, rgba, tile_picture,
                                       tileset_picture)

T = 16


@pytest.fixture
def folder(tmp_path, qapp):
    tileset_picture(tmp_path / "tiles.png", T, columns=4, rows=2)
    return tmp_path


def tiles_set(**kw) -> Tileset:
    fields = dict(image="tiles.png", image_size=(4 * T, 2 * T), columns=4, count=8)
    fields.update(kw)
    return Tileset("ts", "Tiles", (T, T), **fields)


def grid(rows, cell=T, origin=(0, 0), **kw) -> Tiles:
    return Tiles(kw.pop("id", "g"), origin, cell, (), tileset=kw.pop("tileset", "ts"), tiles=rows, **kw)


def corners(image: QImage, x0: int, y0: int, size: int = T) -> dict:
    """What colour each corner of the cell at ``(x0, y0)`` shows: ``{"TL": (r, g, b), ...}``."""
    m = MARK // 2
    at = {"TL": (m, m), "TR": (size - 1 - m, m), "BL": (m, size - 1 - m), "BR": (size - 1 - m, size - 1 - m)}
    return {name: rgba(image, x0 + x, y0 + y)[:3] for name, (x, y) in at.items()}


# Where marks A (white, top-left) and B (black, top-right) land, as Tiled draws the flags: the diagonal flip
# (x and y swapped) first, then mirrored left to right, then upside down.
FLAGS_LAND = [
    (0, "TL", "TR"),
    (FLIP_X, "TR", "TL"),
    (FLIP_Y, "BL", "BR"),
    (FLIP_X | FLIP_Y, "BR", "BL"),
    (FLIP_D, "TL", "BL"),
    (FLIP_D | FLIP_X, "TR", "BR"),  # Tiled's quarter turn clockwise
    (FLIP_D | FLIP_Y, "BL", "TL"),  # ...anticlockwise
    (FLIP_D | FLIP_X | FLIP_Y, "BR", "TR"),
]


@pytest.mark.parametrize("flags, a, b", FLAGS_LAND, ids=lambda v: hex(v) if isinstance(v, int) else v)
def test_each_flip_lands_its_marks_where_tiled_puts_them(folder, flags, a, b):
    level = Level(tilesets=(tiles_set(),), objects=(grid(((2 | flags,),)),))
    image = render_level(level, str(folder))
    assert image.size().toTuple() == (T, T)
    seen = corners(image, 0, 0)
    assert seen[a] == rgb(WHITE) and seen[b] == rgb(BLACK), seen
    others = set(seen) - {a, b}
    assert all(seen[c] == rgb(COLORS[2]) for c in others), seen


def test_margin_and_spacing_cut_each_tile_and_nothing_between(tmp_path, qapp):
    tileset_picture(tmp_path / "spaced.png", T, columns=4, rows=2, margin=3, spacing=2)
    ts = tiles_set(image="spaced.png", image_size=(6 + 4 * T + 6, 6 + 2 * T + 2), margin=3, spacing=2)
    level = Level(tilesets=(ts,), objects=(grid((tuple(range(8)),)),))
    image = render_level(level, str(tmp_path))
    assert image.size().toTuple() == (8 * T, T)
    for n in range(8):
        assert corners(image, n * T, 0) == {"TL": rgb(WHITE), "TR": rgb(BLACK), "BL": rgb(COLORS[n]),
                                            "BR": rgb(COLORS[n])}
    assert not any(rgba(image, x, y)[:3] == rgb(GAP) for x in range(8 * T) for y in range(T))


def test_the_transparent_colour_is_clear(tmp_path, qapp):
    tileset_picture(tmp_path / "tiles.png", T, columns=4, rows=2)
    level = Level(tilesets=(tiles_set(transparent="#c82828"),), objects=(grid(((0, 1),)),))  # tile 0's colour
    image = render_level(level, str(tmp_path))
    assert rgba(image, T // 2, T // 2)[3] == 0
    assert rgba(image, 1, 1) == (255, 255, 255, 255)  # its marks stay
    assert rgba(image, T + T // 2, T // 2) == rgb(COLORS[1]) + (255,)


def test_a_collection_draws_each_picture_bottom_aligned_at_its_size(tmp_path, qapp):
    tile_picture(tmp_path / "short.png", T, T, COLORS[3])
    tile_picture(tmp_path / "tall.png", T, 2 * T, COLORS[4])
    ts = Tileset("ts", "Things", (T, T), tiles={
        0: TileInfo(image="short.png", image_size=(T, T)), 5: TileInfo(image="tall.png", image_size=(T, 2 * T))})
    level = Level(size=(2 * T, 3 * T), tilesets=(ts,), objects=(grid(((-1, -1), (-1, -1), (0, 5))),))
    image = render_level(level, str(tmp_path))
    assert rgba(image, T // 2, 2 * T + T // 2)[:3] == rgb(COLORS[3])
    assert rgba(image, T // 2, T + T // 2)[3] == 0
    # the tall tile stands on its cell's bottom and reaches a cell up
    assert rgba(image, T + T // 2, T + T // 2)[:3] == rgb(COLORS[4])
    assert rgba(image, T + 1, T + 1)[:3] == rgb(WHITE)
    assert rgba(image, T + T // 2, T // 2)[3] == 0


def test_tiles_larger_than_the_cell_stand_on_its_bottom_left_corner(folder):
    level = Level(size=(3 * 8, 3 * 8), tilesets=(tiles_set(),), objects=(grid(((-1, -1, -1), (-1, -1, -1),
                                                                                (1, -1, -1)), cell=8),))
    image = render_level(level, str(folder))
    # cell (0, 2) spans y 16..24; the 16 px tile spans y 8..24 and x 0..16
    assert rgba(image, 1, 9)[:3] == rgb(WHITE)
    assert rgba(image, 14, 9)[:3] == rgb(BLACK)
    assert rgba(image, 8, 20)[:3] == rgb(COLORS[1])
    assert rgba(image, 8, 4)[3] == 0 and rgba(image, 20, 20)[3] == 0


def test_the_tileset_offset_shifts_every_tile(folder):
    level = Level(size=(3 * T, 3 * T), tilesets=(tiles_set(offset=(5, -3)),),
                  objects=(grid(((0,),), origin=(T, T)),))
    image = render_level(level, str(folder))
    assert rgba(image, T + 5 + 1, T - 3 + 1)[:3] == rgb(WHITE)
    assert rgba(image, T + 4, T + 8)[3] == 0
    assert rgba(image, 2 * T + 4, T + 8)[:3] == rgb(COLORS[0])


def sprite_level(folder, *sprites, size=(64, 64)) -> QImage:
    tile_picture(folder / "pic.png", T, T, COLORS[2])
    return render_level(Level(size=size, tilesets=(tiles_set(),), objects=sprites), str(folder))


def test_a_sprite_is_stretched_to_its_size(folder):
    image = sprite_level(folder, Sprite("s", (32, 32), (64, 32), picture="pic.png"))
    # the 4 px mark is stretched 4 times across (16 px) and twice down (8 px)
    assert rgba(image, 1, 17)[:3] == rgb(WHITE) and rgba(image, 12, 21)[:3] == rgb(WHITE)
    assert rgba(image, 18, 17)[:3] == rgb(COLORS[2]) and rgba(image, 5, 26)[:3] == rgb(COLORS[2])
    assert rgba(image, 32, 14)[3] == 0 and rgba(image, 32, 49)[3] == 0


def test_a_sprite_of_a_tile_turned_a_quarter_and_flipped(folder):
    image = sprite_level(folder, Sprite("q", (16, 16), (T, T), tileset="ts", tile=3, rotation=90),
                         Sprite("f", (48, 16), (T, T), tileset="ts", tile=3, flip_x=True),
                         Sprite("v", (16, 48), (T, T), tileset="ts", tile=3, flip_y=True))
    assert corners(image, 8, 8)["TR"] == rgb(WHITE) and corners(image, 8, 8)["BR"] == rgb(BLACK)
    assert corners(image, 40, 8)["TR"] == rgb(WHITE) and corners(image, 40, 8)["TL"] == rgb(BLACK)
    assert corners(image, 8, 40)["BL"] == rgb(WHITE) and corners(image, 8, 40)["BR"] == rgb(BLACK)


def test_a_sprite_turned_30_degrees_covers_its_turned_rectangle(folder):
    image = sprite_level(folder, Sprite("s", (32, 32), (48, 8), picture="pic.png", rotation=30))
    assert rgba(image, 32, 32)[:3] == rgb(COLORS[2])
    # along its turned long axis (clockwise on screen: down to the right), beyond its unturned half-height
    assert rgba(image, 32 + 17, 32 + 10)[3] == 255
    assert rgba(image, 32 + 20, 32)[3] == 0  # where it would be unturned


def test_a_sprite_draws_at_its_opacity(folder):
    image = sprite_level(folder, Sprite("s", (32, 32), (32, 32), picture="pic.png", opacity=0.5))
    assert abs(rgba(image, 32, 32)[3] - 128) <= 2


def two_boxes(layers, **kw) -> Level:
    return Level(layers=layers, objects=(Box("low", (0, 0), (20, 20), layer="a"),
                                         Box("high", (10, 0), (20, 20), layer="b", type="enemy")),
                 types=(ObjectType("enemy", "#e0503c"),), **kw)


def test_layers_draw_bottom_to_top_whatever_the_file_order(qapp):
    image = render_level(two_boxes((Layer("a", "A"), Layer("b", "B"))), None)
    assert rgba(image, 15, 10)[:3] == (0xe0, 0x50, 0x3c)
    image = render_level(two_boxes((Layer("b", "B"), Layer("a", "A"))), None)
    assert rgba(image, 15, 10)[:3] == rgb(KIND_COLORS["box"])


def test_a_hidden_layer_is_left_out_and_a_layers_opacity_applies(qapp):
    image = render_level(two_boxes((Layer("a", "A"), Layer("b", "B", visible=False))), None)
    assert image.size().toTuple() == (20, 20)
    assert rgba(image, 15, 10)[:3] == rgb(KIND_COLORS["box"])
    image = render_level(two_boxes((Layer("a", "A"), Layer("b", "B", opacity=0.5))), None)
    assert abs(rgba(image, 25, 10)[3] - 128) <= 2
    assert rgba(image, 5, 10) == rgb(KIND_COLORS["box"]) + (255,)


def test_the_background_colour_fills_the_level(qapp):
    level = Level(size=(40, 30), background="#103050", objects=(Box("b", (0, 0), (10, 10)),))
    image = render_level(level, None)
    assert image.size().toTuple() == (40, 30)
    assert rgba(image, 30, 20) == (0x10, 0x30, 0x50, 255)


def test_shapes_in_their_types_colour_or_their_kinds_and_areas_see_through(qapp):
    level = Level(types=(ObjectType("lava", "#ff8000"),), objects=(
        Box("typed", (0, 0), (10, 10), type="lava"),
        Box("plain", (20, 0), (10, 10)),
        Pillar("round", (45, 5), 5),
        Wall("wall", [(60, 5), (80, 5)], 6),
        Box("zone", (0, 20), (10, 10), solid=False),
        Box("lava-zone", (20, 20), (10, 10), type="lava", solid=False),
        Point("marker", (90, 40))))
    image = render_level(level, None)
    assert rgba(image, 5, 5) == (255, 128, 0, 255)
    assert rgba(image, 25, 5) == rgb(KIND_COLORS["box"]) + (255,)
    assert rgba(image, 45, 5) == rgb(KIND_COLORS["circle"]) + (255,)
    assert rgba(image, 70, 5) == rgb(KIND_COLORS["wall"]) + (255,)
    assert rgba(image, 70, 9)[3] == 0  # a 6 px wall's outline ends 3 px from its line
    assert near(rgba(image, 5, 25), rgb(TRIGGER_COLOR) + (PASSABLE_ALPHA,), 3)
    assert near(rgba(image, 25, 25), (255, 128, 0, PASSABLE_ALPHA), 3)
    # the marker draws nothing, and the picture ends at the wall's end (the marker has no size)
    assert image.width() == 83


def test_a_reference_picture_at_its_scale_and_opacity(tmp_path, qapp):
    tile_picture(tmp_path / "ref.png", 10, 10, COLORS[5])
    level = Level(objects=(Image("ref", "ref.png", (0, 0), scale=2.0, opacity=0.5),))
    image = render_level(level, str(tmp_path))
    assert image.size().toTuple() == (20, 20)
    assert near(rgba(image, 15, 15), rgb(COLORS[5]) + (128,), 3)


def test_scale_2_doubles_the_picture(folder):
    level = Level(tilesets=(tiles_set(),), objects=(grid(((0, 1), (2, 3))),))
    one, two = render_level(level, str(folder)), render_level(level, str(folder), 2.0)
    assert two.size().toTuple() == (2 * one.width(), 2 * one.height())
    assert rgba(two, 2 * T + T, 2 * T + T)[:3] == rgba(one, T + T // 2, T + T // 2)[:3] == rgb(COLORS[3])


def test_nothing_to_draw_is_a_clear_refusal(qapp):
    with pytest.raises(RenderError, match="draws nothing"):
        render_level(Level(objects=(Point("p", (0, 0)),)), None)


# -- the command ------------------------------------------------------------------------------------------------

def saved(folder, level: Level, name: str = "level.json") -> str:
    path = folder / name
    save_level(level, str(path))
    return str(path)


def test_render_writes_the_png(folder, capsys):
    path = saved(folder, Level(tilesets=(tiles_set(),), objects=(grid(((0, 1 | FLIP_X),)),)))
    out = folder / "out.png"
    assert launcher.main(["render", path, "-o", str(out), "--scale", "2"]) == 0
    image = QImage(str(out))
    assert image.size().toTuple() == (4 * T, 2 * T)
    assert rgba(image, 2, 2)[:3] == rgb(WHITE)
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []  # no temporary left behind


def test_an_invalid_level_is_exit_1_with_its_problems_and_nothing_written(folder, capsys):
    path = saved(folder, Level(objects=(Box("crate", (50, 50), (30, 30)),)))  # over the player's spawn
    out = folder / "out.png"
    assert launcher.main(["render", path, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: player: error: the player overlaps crate" in err and "has errors; nothing written" in err
    assert not out.exists()
    # a file that loads with errors of its own (two objects of one id) is exit 1 too
    path = saved(folder, Level(objects=(Box("a", (100, 0), (10, 10)), Box("a", (120, 0), (10, 10)))), "dup.json")
    assert launcher.main(["render", path, "-o", str(out)]) == 1
    assert f"{path}: a: error: duplicate id" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("args, says", [
    (["--scale", "0"], "must be a number more than 0"),
    (["--scale", "-1"], "must be a number more than 0"),
    (["--scale", "big"], "not a number: 'big'"),
    (["--scale", "nan"], "must be a number more than 0"),
    (["--scale", "100000"], "larger than Qt can hold"),
])
def test_bad_scales_are_exit_2_in_one_line(folder, capsys, args, says):
    path = saved(folder, Level(objects=(Box("b", (100, 0), (100, 100)),)))
    out = folder / "out.png"
    assert launcher.main(["render", path, "-o", str(out)] + args) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_unreadable_levels_are_exit_2(folder, capsys):
    (folder / "broken.json").write_text('{"format": ')
    assert launcher.main(["render", str(folder / "broken.json"), "-o", str(folder / "o.png")]) == 2
    assert "broken.json" in capsys.readouterr().err
    assert launcher.main(["render", str(folder / "nowhere.json"), "-o", str(folder / "o.png")]) == 2
    assert launcher.main(["render", str(folder / "nowhere.json")]) == 2  # no -o
    assert not (folder / "o.png").exists()


def test_a_missing_picture_is_a_warning_and_the_rest_is_drawn(folder, capsys):
    lost = Tileset("lost", "Lost", (T, T), image="lost.png", image_size=(T, T), columns=1, count=1)
    level = Level(tilesets=(tiles_set(), lost), objects=(
        grid(((0,),)), Image("ref", "gone.png", (0, 0)), Box("b", (20, 0), (10, 10)),
        grid(((0, 0),), id="g2", origin=(0, 20), tileset="lost")))
    path = saved(folder, level)
    out = folder / "out.png"
    assert launcher.main(["render", path, "-o", str(out)]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines.count(f"{path}: g2: warning: picture lost.png of tileset 'lost' is missing") == 1
    assert len([line for line in lines if line.startswith(f"{path}: ref: warning:") and "gone.png" in line]) == 1
    image = QImage(str(out))
    assert image.size().toTuple() == (2 * T, 20 + T)  # the grid of the lost tileset still counts
    assert rgba(image, 1, 1)[:3] == rgb(WHITE) and rgba(image, 25, 5)[:3] == rgb(KIND_COLORS["box"])


def test_render_runs_with_no_display(folder):
    path = saved(folder, Level(tilesets=(tiles_set(),), objects=(grid(((0,),)),)))
    out = folder / "out.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "render", path, "-o", str(out)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert QImage(str(out)).size().toTuple() == (T, T)


def test_help_names_render(capsys):
    assert launcher.main(["--help"]) == 0
    assert "level-editor render LEVEL.json -o OUT.png" in capsys.readouterr().out


def test_the_kind_colours_are_the_canvas_items_own():
    from level_editor.editor.items import box_item, oriented_box_item, pillar_item, tiles_item, wall_item
    from level_editor.editor.items.object_item import PASSABLE_FILL_ALPHA, TRIGGER_COLOR as CANVAS_TRIGGER

    assert KIND_COLORS == {"wall": wall_item.WallItem.FILL, "box": box_item.BoxItem.FILL,
                           "oriented_box": oriented_box_item.OrientedBoxItem.FILL,
                           "circle": pillar_item.PillarItem.FILL, "tiles": tiles_item.TilesItem.FILL}
    assert TRIGGER_COLOR == CANVAS_TRIGGER and PASSABLE_ALPHA == PASSABLE_FILL_ALPHA


@pytest.mark.skipif(not background_call.FORK, reason="the check is forked on Linux only")
def test_the_command_checks_in_another_process_while_it_draws(folder):
    """As the ``level-editor`` command runs it: the check (NumPy, shapely) runs in a forked child while this process
    loads Qt and draws; its problems still come back, and an invalid level is still refused with nothing written."""
    bad = saved(folder, Level(objects=(Box("crate", (50, 50), (30, 30)),)), "bad.json")  # over the spawn
    good = saved(folder, Level(objects=(Image("ref", "gone.png", (0, 0)), Box("b", (20, 0), (10, 10)))))
    program = ("import sys; from level_editor.editor import launcher; code = launcher.main(sys.argv[1:]); "
               "print(code, 'shapely' in sys.modules, 'numpy' in sys.modules)")
    for path, out, code in ((bad, folder / "bad.png", "1"), (good, folder / "good.png", "0")):
        r = subprocess.run([sys.executable, "-c", program, "render", path, "-o", str(out)],
                           capture_output=True, text=True, timeout=120)
        assert r.stdout.split() == [code, "False", "False"], r.stderr  # checked, but not here
        assert out.exists() == (code == "0")
    # the installed command leaves without tearing Qt down: every line it printed still arrives
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "render", bad, "-o", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and f"{bad}: player: error: the player overlaps crate" in r.stderr
    assert r.stderr.rstrip().endswith("has errors; nothing written")
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "render", good, "-o", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and f"{good}: ref: warning:" in r.stderr and "gone.png" in r.stderr


def test_without_fork_the_check_runs_on_a_thread_and_still_refuses_an_invalid_level(folder, capsys, monkeypatch):
    """Windows and macOS have no safe fork: the same command checks on a thread beside the drawing."""
    monkeypatch.setattr(background_call, "FORK", False)
    started = []
    real = background_call.ThreadCall.__init__

    def counted(self, work):
        started.append(work)
        real(self, work)

    monkeypatch.setattr(background_call.ThreadCall, "__init__", counted)
    bad = saved(folder, Level(objects=(Box("crate", (50, 50), (30, 30)),)), "bad.json")
    out = folder / "out.png"
    assert launcher.main(["render", bad, "-o", str(out)]) == 1
    assert f"{bad}: player: error: the player overlaps crate" in capsys.readouterr().err and not out.exists()
    good = saved(folder, Level(tilesets=(tiles_set(),), objects=(grid(((0,),)),)), "good.json")
    assert launcher.main(["render", good, "-o", str(out)]) == 0 and out.exists()
    assert len(started) == 2


def test_a_missing_picture_file_of_a_sprite_is_said_once_and_one_there_but_unreadable_is_said_too(folder, capsys):
    """check names a sprite's picture file that is not there; render adds nothing to it. A file that is there,
    looks like a PNG and cannot be drawn is render's to say."""
    (folder / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + b"garbage")
    level = Level(objects=(Sprite("gone", (100, 20), (16, 16), picture="gone.png"),
                           Sprite("bad", (140, 20), (16, 16), picture="broken.png")))
    path = saved(folder, level)
    assert launcher.main(["render", path, "-o", str(folder / "out.png")]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith(path)]
    assert [line for line in lines if ": gone: " in line] == [
        f"{path}: gone: warning: the picture 'gone.png' is not there (looked for {folder / 'gone.png'})"]
    assert [line for line in lines if ": bad: " in line] == [f"{path}: bad: warning: picture broken.png is unreadable"]
