"""levels/tiles_and_sprites.json plays as a platformer on its painted tiles: up the slope onto the plank ledges
(stood on at their half line), down the far slope, over the solid crate with a jump, under the upside-down
planks and through the decoration and clouds; the game runtime and the play-test agree tick for tick. The sample
is made by tests/make_tiles_and_sprites.py, and that script makes it again exactly."""
from __future__ import annotations

import pytest

from level_editor.core.collision.planes import SKIN
from level_editor.core.level.file_format import load_level as load_model
from level_editor.core.playtest.simulation import Simulation
from level_editor.core.runtime import Player, load_level
from tests.core.runtime.helpers import ROOT
from tests.make_tiles_and_sprites import level as made_level

LEVEL = ROOT / "levels" / "tiles_and_sprites.json"
HALF_HEIGHT = 15.0


def steer(player) -> tuple[list, list]:
    """Right along the level, one jump before the crate: the inputs, as a scripted replay holds them, and the
    player's ``(x, y, on_floor)`` after each."""
    inputs, trail = [], []

    def do(tick, times=1):
        for _ in range(times):
            player.step(*tick)
            inputs.append(tick)
            trail.append((player.position.x, player.position.y, player.on_floor))

    do((0, 0, False), 30)  # land
    while player.position.x < 720:
        do((1, 0, False))
    do((1, 0, True), 14)  # over the crate
    for _ in range(400):
        if player.position.x > 1440:
            break
        do((1, 0, False))
    do((0, 0, False), 30)
    return inputs, trail


def test_a_scripted_run_walks_up_onto_the_ledges_jumps_the_crate_and_reaches_the_far_end():
    player = Player(load_level(LEVEL))
    inputs, trail = steer(player)
    assert player.position.x > 1440 and player.on_floor
    assert player.position.y + HALF_HEIGHT == pytest.approx(320 - SKIN, abs=1e-6)  # back on the ground
    on_ledges = [(x, y, f) for x, y, f in trail if 11 * 32 + 12 < x < 15 * 32 - 12]
    assert on_ledges and all(f and y + HALF_HEIGHT == pytest.approx(304 - SKIN, abs=1e-6) for x, y, f in on_ledges)
    over_crate = [y for x, y, _ in trail if 24 * 32 - 10 <= x <= 25 * 32 + 10]
    assert max(y + HALF_HEIGHT for y in over_crate) <= 288  # above the crate's top while over it
    assert not any(y + HALF_HEIGHT > 320 for _, y, _ in trail)  # never sank into the ground
    # and the play-test plays the same inputs to the same places, bit for bit
    sim = Simulation(load_model(str(LEVEL)))
    for (x, y, f), tick in zip(trail, inputs):
        sim.step_inputs(*tick)
        assert (sim.position.x, sim.position.y, sim.on_floor) == (x, y, f)


def test_the_sample_is_what_its_script_makes():
    assert load_model(str(LEVEL)) == made_level()
