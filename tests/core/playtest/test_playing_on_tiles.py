"""Playing on tiles: a platformer player stands, walks and lands on what a painted grid's tiles and sprites collide
as, and passes through art that does not collide. Both player shapes (a 20 x 30 box and a circle of radius 12),
driven through the play-test's own :class:`~level_editor.core.playtest.simulation.Simulation`."""
from __future__ import annotations

import math
import subprocess
import sys

import pytest

from level_editor.core.collision.planes import SKIN
from level_editor.core.level.art import FLIP_Y, TileInfo, TileShape, Tileset
from level_editor.core.level.file_format import save_level
from level_editor.core.level.model import Box, Level, Player, Sprite, Tiles
from level_editor.core.playtest.simulation import Simulation

SHAPES = ("box", "circle")
CELL = 32
SPEED = 240.0
DT = 1.0 / 60.0
SLOPE_RISE = CELL * 2 * math.tan(math.radians(30))  # over a 64 px tile

DECO, HALF, FULL, SLOPE = 0, 1, 2, 3
ART = Tileset("art", "Art", (CELL, CELL), image="art.png", image_size=(4 * CELL, CELL), columns=4, count=4, tiles={
    HALF: TileInfo(collision=(TileShape("rect", ((0, CELL / 2), (CELL, CELL / 2))),)),
    FULL: TileInfo(collision=(TileShape("rect", ((0, 0), (CELL, CELL))),)),
})
# A slope tile twice the cell: drawn on its cell's bottom-left corner, it rises 30 degrees over 64 px.
SLOPES = Tileset("slopes", "Slopes", (2 * CELL, 2 * CELL), image="slopes.png", image_size=(2 * CELL, 2 * CELL),
                 columns=1, count=1, tiles={0: TileInfo(collision=(TileShape("polygon", (
                     (0, 2 * CELL), (2 * CELL, 2 * CELL - SLOPE_RISE), (2 * CELL, 2 * CELL))),))})


def half_height(shape: str) -> float:
    return 15.0 if shape == "box" else 12.0


def play(shape: str, *objects, spawn=(40.0, 20.0), floor_y=400.0) -> Simulation:
    player = Player(spawn=spawn, shape=shape, size=(20, 30), radius=12, speed=SPEED, controller="platformer")
    floor = Box("floor", (-2000, floor_y), (6000, 40))  # below everything: where a player that passes through lands
    return Simulation(Level(player=player, objects=(floor, *objects), tilesets=(ART, SLOPES)), dt=DT)


def grid(rows, origin=(0, 100), gid="g", **fields) -> Tiles:
    return Tiles(gid, origin, CELL, (), tileset=fields.pop("tileset", "art"), tiles=tuple(rows), **fields)


def settle(sim: Simulation, ticks: int = 120, inputs=(0, 0, False)) -> None:
    for _ in range(ticks):
        sim.step_inputs(*inputs)


def bottom(sim: Simulation, shape: str) -> float:
    return sim.position.y + half_height(shape)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_bottom_half_tile_is_stood_on_at_its_half_line(shape):
    sim = play(shape, grid([(HALF,) * 4]))
    settle(sim)
    assert sim.on_floor
    assert bottom(sim, shape) == pytest.approx(100 + CELL / 2 - SKIN, abs=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_same_tile_upside_down_is_stood_on_at_the_top_of_its_cell(shape):
    sim = play(shape, grid([(HALF | FLIP_Y,) * 4]))
    settle(sim)
    assert sim.on_floor
    assert bottom(sim, shape) == pytest.approx(100 - SKIN, abs=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_run_of_40_half_height_tiles_is_walked_at_exactly_speed_dt_per_tick(shape):
    sim = play(shape, grid([(HALF,) * 40]), spawn=(20.0, 60.0))
    settle(sim)
    settle(sim, 30, (1, 0, False))  # up to full speed
    xs = []
    for _ in range(200):  # across more than 30 seams
        sim.step_inputs(1, 0, False)
        assert sim.on_floor
        assert bottom(sim, shape) == pytest.approx(100 + CELL / 2 - SKIN, abs=1e-6)
        xs.append(sim.position.x)
    assert {round(b - a, 9) for a, b in zip(xs, xs[1:])} == {round(SPEED * DT, 9)}
    assert xs[-1] < 40 * CELL


@pytest.mark.parametrize("shape", SHAPES)
def test_a_tile_with_a_30_degree_polygon_is_walked_up_as_a_slope(shape):
    ground = grid([(FULL,) * 12], origin=(0, 164), gid="ground")
    slope = grid([(0,)], origin=(5 * CELL, 132), gid="slope", tileset="slopes")  # rises from x=160 to x=224
    sim = play(shape, ground, slope, spawn=(40.0, 100.0))
    settle(sim)
    path = []
    for _ in range(60):
        sim.step_inputs(1, 0, False)
        path.append((sim.position.x, sim.position.y, sim.on_floor))
    on_slope = [(x, y, f) for x, y, f in path if 5 * CELL + 24 < x < 7 * CELL - 24]
    assert len(on_slope) >= 3
    assert all(f for _, _, f in on_slope), "never leaves the slope while walking up it"
    rises = [(y0 - y1) / (x1 - x0) for (x0, y0, _), (x1, y1, _) in zip(on_slope, on_slope[1:])]
    assert rises == pytest.approx([math.tan(math.radians(30))] * len(rises), abs=0.02)


@pytest.mark.parametrize("shape", SHAPES)
def test_an_art_only_grid_is_passed_through(shape):
    sim = play(shape, grid([(DECO,) * 6] * 2))
    settle(sim, 200)
    assert sim.on_floor and bottom(sim, shape) == pytest.approx(400 - SKIN, abs=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_sprite_is_passed_through_unless_solid_and_a_solid_one_is_stood_on(shape):
    cloud = Sprite("cloud", (40, 120), (128, 40), picture="cloud.png")
    sim = play(shape, cloud)
    settle(sim, 200)
    assert bottom(sim, shape) == pytest.approx(400 - SKIN, abs=1e-6)
    crate = Sprite("crate", (40, 120), (128, 40), picture="crate.png", solid=True)
    sim = play(shape, crate)
    settle(sim)
    assert sim.on_floor and bottom(sim, shape) == pytest.approx(100 - SKIN, abs=1e-6)
    # a solid sprite of a half tile: stood on where its tile collides, not at its picture's top
    ledge = Sprite("ledge", (40, 116), (128, 32), tileset="art", tile=HALF, solid=True)
    sim = play(shape, ledge)
    settle(sim)
    assert sim.on_floor and bottom(sim, shape) == pytest.approx(116 - SKIN, abs=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_one_way_painted_grid_is_landed_on_from_above_only(shape):
    ledge = grid([(FULL,) * 6], origin=(-64, 300), one_way=True)
    sim = play(shape, ledge, spawn=(40.0, 200.0))
    settle(sim)
    assert sim.on_floor and bottom(sim, shape) == pytest.approx(300 - SKIN, abs=1e-6)
    sim = play(shape, ledge, spawn=(40.0, 380.0), floor_y=400.0)
    settle(sim, 60)
    assert bottom(sim, shape) == pytest.approx(400 - SKIN, abs=1e-6)  # under it, on the floor
    # from below: a jump higher than the 100 px up to it goes through it and lands on it
    high = Player(spawn=(40.0, 380.0), shape=shape, size=(20, 30), radius=12, speed=SPEED, controller="platformer",
                  jump_height=160.0)
    sim = Simulation(Level(player=high, objects=(Box("floor", (-2000, 400), (6000, 40)), ledge), tilesets=(ART,)),
                     dt=DT)
    settle(sim, 60)
    settle(sim, 40, (0, 0, True))
    settle(sim, 120)
    assert sim.on_floor and bottom(sim, shape) == pytest.approx(300 - SKIN, abs=1e-6)


RUN_WITHOUT_SHAPELY = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('shapely', 'numpy', 'PySide6'):
            raise ImportError('blocked: ' + name)
sys.meta_path.insert(0, Block())
from level_editor.core.runtime import Player, load_level
level = load_level(sys.argv[1])
player = Player(level)
for _ in range(120):
    player.step(0, 0, False)
assert player.on_floor, player.position
print(player.position.y)
"""


def test_the_runtime_loads_and_plays_a_level_with_art_without_shapely_or_qt(tmp_path):
    path = tmp_path / "art.json"
    player = Player(spawn=(40.0, 20.0), shape="box", size=(20, 30), speed=SPEED, controller="platformer")
    save_level(Level(player=player, tilesets=(ART,), objects=(
        grid([(HALF,) * 4, (DECO, FULL, FULL, DECO)]),
        Sprite("cloud", (40, 40), (64, 32), tileset="art", tile=DECO))), str(path))
    r = subprocess.run([sys.executable, "-c", RUN_WITHOUT_SHAPELY, str(path)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout) == pytest.approx(100 + CELL / 2 - SKIN - 15, abs=1e-6)
