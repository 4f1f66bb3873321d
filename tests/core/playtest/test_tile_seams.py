"""Tile grids are flat surfaces: the player slides along tile floors and walls, across the join of two grids and
the join of a grid and a box, without ever catching on a seam (seed 003: a run of boxes is one surface).

Every test drives the play-test's own :class:`~level_editor.core.playtest.simulation.Simulation` on a level, so it checks the
shapes the world is fed as well as the mover. The player presses diagonally into the surface at 240 px/s: once it
rests on the surface, every tick must advance exactly 240 * dt = 4 px along it (within 1e-9) and stay at the same
distance from it, bit for bit.
"""
from __future__ import annotations

import pytest

from level_editor.core.collision import overlaps
from level_editor.core.collision.mover import SKIN
from level_editor.core.level.model import Box, Level, Player, Tiles
from level_editor.core.playtest.simulation import Simulation

DT = 1.0 / 60.0
SPEED = 240.0
STEP = SPEED * DT
SHAPES = ("circle", "box")
HAIRS = (0.0, 1e-9, -1e-9)


def player(shape, spawn):
    return Player(spawn=spawn, shape=shape, radius=6, size=(12, 12), speed=SPEED)


def slide(level, velocity, ticks, along, seam):
    """Run the play-test; check the slide along axis ``along`` (0 = x, 1 = y) and that it crossed ``seam``."""
    sim = Simulation(level, dt=DT)
    positions = [sim.start] + [sim.step(velocity) for _ in range(ticks)]
    across = 1 - along
    rest = positions[-1][across]
    landed = next(i for i, p in enumerate(positions) if p[across] == rest)
    assert 0 < landed < ticks // 3, "the player must land early and then slide"
    # Resting on the surface: the distance to it never changes, bit for bit.
    assert all(p[across] == rest for p in positions[landed:])
    # The motion along the surface is never cut: not on landing, not at any seam.
    advances = [b[along] - a[along] for a, b in zip(positions, positions[1:])]
    assert advances == pytest.approx([STEP] * ticks, abs=1e-9)
    assert positions[landed][along] < seam - 2 * STEP and positions[-1][along] > seam + 2 * STEP
    shapes = list(level.collision_shapes())
    assert not any(overlaps(level.player.body_at(p), s) for p in positions for s in shapes)
    return positions


@pytest.mark.parametrize("shape", SHAPES)
def test_slides_along_a_tile_floor_without_catching(shape):
    # A row of solid cells, with an uneven underside so the grid is several rectangles.
    floor = Tiles("floor", (0, 100), 16, ("#" * 40, "#.##...#.." * 4))
    level = Level(player=player(shape, (40, 60)), objects=(floor,))
    positions = slide(level, (SPEED, SPEED), 90, along=0, seam=160)
    assert positions[-1].y == pytest.approx(100 - 6 - SKIN, abs=1e-9)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("cells", [("#",) * 40, ("##", "#.", "###", "#") * 10],
                         ids=["straight", "ragged-on-the-far-side"])
def test_slides_along_a_tile_wall_without_catching(shape, cells):
    # A ragged column is one rectangle per row: its near face has a seam at every cell.
    width = max(len(r) for r in cells)
    wall = Tiles("wall", (100, 0), 16, tuple(r.ljust(width, ".") for r in cells))
    level = Level(player=player(shape, (60, 40)), objects=(wall,))
    positions = slide(level, (SPEED, SPEED), 90, along=1, seam=160)
    assert positions[-1].x == pytest.approx(100 - 6 - SKIN, abs=1e-9)
    assert len(list(level.collision_shapes())) == (1 if cells[0] == "#" else 40)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("hair", HAIRS)
def test_slides_along_a_floor_of_two_tile_grids_side_by_side(shape, hair):
    left = Tiles("left", (0, 100), 16, ("#" * 20,))
    right = Tiles("right", (320, 100 + hair), 16, ("#" * 20,))
    level = Level(player=player(shape, (200, 60)), objects=(left, right))
    slide(level, (SPEED, SPEED), 90, along=0, seam=320)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("hair", HAIRS)
def test_slides_along_a_floor_of_two_tile_grids_leftwards(shape, hair):
    left = Tiles("left", (0, 100 + hair), 16, ("#" * 20,))
    right = Tiles("right", (320, 100), 16, ("#" * 20,))
    level = Level(player=player(shape, (440, 60)), objects=(left, right))
    sim = Simulation(level, dt=DT)
    xs = [sim.start.x] + [sim.step((-SPEED, SPEED)).x for _ in range(90)]
    assert [a - b for a, b in zip(xs, xs[1:])] == pytest.approx([STEP] * 90, abs=1e-9)
    assert xs[-1] < 320 - 2 * STEP


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("hair", HAIRS)
def test_slides_down_a_wall_of_two_tile_grids_stacked(shape, hair):
    top = Tiles("top", (100, 0), 16, ("#",) * 20)
    bottom = Tiles("bottom", (100 + hair, 320), 16, ("#",) * 20)
    level = Level(player=player(shape, (60, 200)), objects=(top, bottom))
    slide(level, (SPEED, SPEED), 90, along=1, seam=320)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("hair", HAIRS)
@pytest.mark.parametrize("order", ["grid-then-box", "box-then-grid"])
def test_slides_along_the_join_of_a_tile_grid_and_a_box(shape, hair, order):
    if order == "grid-then-box":
        objects = (Tiles("grid", (0, 100), 16, ("#" * 20,)), Box("box", (320, 100 + hair), (320, 16)))
    else:
        objects = (Box("box", (0, 100 + hair), (320, 16)), Tiles("grid", (320, 100), 16, ("#" * 20,)))
    level = Level(player=player(shape, (200, 60)), objects=objects)
    slide(level, (SPEED, SPEED), 90, along=0, seam=320)


@pytest.mark.parametrize("shape", SHAPES)
def test_slides_along_a_tile_floor_at_other_speeds_and_angles(shape):
    floor = Tiles("floor", (0.5, 100.25), 16, ("#" * 30,))
    joined = Tiles("more", (480.5, 100.25), 16, ("#" * 30,))
    level = Level(player=player(shape, (100, 90)), objects=(floor, joined))
    for vx, vy in ((600, 100), (1000, 3000), (90, 2000)):
        sim = Simulation(level, dt=DT)
        xs = [sim.start.x] + [sim.step((vx, vy)).x for _ in range(30)]
        ys = [sim.step((vx, vy)).y for _ in range(3)]
        assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([vx * DT] * 30, abs=1e-9)
        assert ys[0] == ys[1] == ys[2] == pytest.approx(100.25 - 6 - SKIN, abs=1e-9)
