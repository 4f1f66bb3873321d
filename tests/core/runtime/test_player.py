"""The player a game steps: inputs as in a version 2 replay, checked; position, events, the top-down controller."""
from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from level_editor.core.playtest.simulation import Simulation
from level_editor.core.runtime import TICK, Player, load_level, loads_level
from tests.core.runtime.helpers import ROOT


def open_level(speed=60, objects=()):
    return loads_level(json.dumps({
        "format": "level-editor.level", "version": 2, "name": "Test",
        "layers": [{"id": "main", "name": "Main", "visible": True, "locked": False}],
        "player": {"spawn": [0, 0], "shape": "circle", "radius": 5, "speed": speed},
        "objects": list(objects)}))


def test_the_player_starts_at_the_spawn_with_the_levels_shape():
    level = load_level(ROOT / "levels" / "showcase_box_player.json")
    player = Player(level)
    assert player.position == (80.0, 80.0) and type(player.position.x) is float
    assert (player.shape, tuple(player.size), player.speed) == ("box", (24.0, 32.0), 200.0)
    assert (player.tick, player.events, player.inside, player.on_floor) == (0, [], (), False)
    assert player.controller == "top_down" and TICK == 1 / 60


def test_the_wished_velocity_is_speed_times_the_inputs():
    player = Player(open_level(speed=60))
    player.step(1, 0, False)
    assert player.position == (1.0, 0.0)  # 60 px/s for 1/60 s
    player.step(-0.5, 0.25, True)  # jump is ignored by the top-down player
    assert player.position == (1.0 - 0.5, 0.25)
    player.step(1, 1, 0)  # two keys: the diagonal is faster than one key, as in a replay
    assert player.position == (1.5, 1.25)
    assert player.tick == 3 and player.on_floor is False


def test_step_returns_this_ticks_events_and_events_keeps_them_all():
    level = open_level(objects=[{"id": "zone", "kind": "box", "layer": "main", "origin": [10, -5],
                                 "size": [3, 10], "solid": False}])
    player = Player(level)
    returned = [player.step(1, 0, 0) for _ in range(20)]
    # 1 px a tick, radius 5: the body touches x = 10 after tick 4 (x = 5) and leaves x = 13 after tick 18 (x = 19)
    assert [(n, r) for n, r in enumerate(returned) if r] == [(4, ((4, "enter", "zone"),)),
                                                               (18, ((18, "leave", "zone"),))]
    assert player.events == [(4, "enter", "zone"), (18, "leave", "zone")]
    player.events.clear()  # a copy: the player's record is not changed through it
    assert len(player.events) == 2


def test_walls_stop_the_player_as_in_the_play_test():
    level = open_level(speed=600, objects=[{"id": "wall", "kind": "wall", "layer": "main",
                                            "points": [[30, -50], [30, 50]], "thickness": 4}])
    player, simulation = Player(level), Simulation(level.model)
    for _ in range(10):
        player.step(1, 0.1, 0)
        simulation.step((600, 60))
        assert player.position == simulation.position
    assert player.position.x < 30 - 2 - 5


def test_a_player_may_start_elsewhere():
    player = Player(open_level(), start=(7, -3))
    assert player.position == (7.0, -3.0)


@pytest.mark.parametrize("args, message", [
    ((1.5, 0, 0), "move_x must be in [-1, 1], not 1.5"),
    ((0, -2, 0), "move_y must be in [-1, 1], not -2"),
    ((math.nan, 0, 0), "move_x must be a finite number in [-1, 1], not nan"),
    ((0, math.inf, 0), "move_y must be a finite number in [-1, 1], not inf"),
    ((0, -math.inf, 0), "move_y must be a finite number in [-1, 1], not -inf"),
    (("1", 0, 0), "move_x must be a number in [-1, 1], not '1'"),
    ((None, 0, 0), "move_x must be a number in [-1, 1], not None"),
    ((0, True, 0), "move_y must be a number in [-1, 1], not True"),
    ((0, 10 ** 400, 0), "move_y must be in [-1, 1], not 1000000000000000000000000000000000000..."),
    ((0, 0, 2), "jump must be 0 or 1, not 2"),
    ((0, 0, "yes"), "jump must be 0 or 1, not 'yes'"),
    ((0, 0, None), "jump must be 0 or 1, not None"),
])
def test_bad_inputs_are_refused_naming_the_argument(args, message):
    player = Player(open_level())
    player.step(1, 0, 0)
    with pytest.raises(ValueError) as e:
        player.step(*args)
    assert str(e.value) == message
    assert (player.tick, player.position) == (1, (1.0, 0.0))  # a refused step changes nothing


@pytest.mark.parametrize("args", [(1, -1, 1), (1.0, -1.0, 1.0), (0.5, 0, True), (0, 0, False),
                                  (Fraction(1, 2), 0, 0), (-0.0, 0.0, 0)])
def test_numbers_of_any_kind_in_range_are_taken(args):
    player = Player(open_level())
    player.step(*args)
    assert player.tick == 1 and player.position == (60 * float(args[0]) / 60, 60 * float(args[1]) / 60)


def test_player_takes_a_loaded_level():
    with pytest.raises(TypeError, match="load_level"):
        Player(str(ROOT / "levels" / "maze.json"))
