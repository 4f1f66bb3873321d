"""levels/platformer.json plays as a platformer: steered from the spawn to the exit (over the hill, on the moving
platform across the pit, up the lift), and that run is the same in `simulate` and in the game runtime, bit for bit."""
from __future__ import annotations

import json

from level_editor.core.cli import main as cli_main
from level_editor.core.runtime import TICK, Player, load_level
from tests.core.runtime.helpers import ROOT, play, simulate, write_replay

LEVEL = ROOT / "levels" / "platformer.json"


def steer_to_the_exit() -> tuple[list, Player]:
    """Inputs that take the player from the spawn to the exit, worked out while playing (as a player would)."""
    level = load_level(LEVEL)
    player = Player(level)
    mover, lift = level.object("mover").path, level.object("lift").path
    inputs: list = []

    def do(tick, times=1):
        for _ in range(times):
            player.step(*tick)
            inputs.append(tick)

    def offset(path):  # where a moving object is after the last tick
        return path.offset_after(player.tick - 1, TICK)

    while player.position.x < 686:  # over the hill to the edge of the pit
        do((1, 0, 0))
    do((0, 0, 0), 20)
    while not offset(mover).x < 2:  # the moving platform at its near end
        do((0, 0, 0))
    do((1, 0, 1), 12)  # jump onto it
    do((0, 0, 0), 20)
    assert player.on_floor and 712 < player.position.x < 850, "rides the moving platform"
    while offset(mover).x < 118:
        do((0, 0, 0))
    do((1, 0, 1), 20)  # jump off its far end
    while not player.on_floor:
        do((1, 0, 0))
    while player.position.x < 1260:  # up the ramp, to the lift
        do((1, 0, 0))
    do((0, 0, 0), 20)
    while not offset(lift).y > -2:
        do((0, 0, 0))
    do((1, 0, 1), 10)  # onto the lift
    do((0, 0, 0), 30)
    assert player.on_floor and 1300 < player.position.x < 1396, "rides the lift"
    while offset(lift).y > -240:  # up above the high ledge
        do((0, 0, 0))
    for _ in range(200):
        do((1, 0, 0))
        if any(event == (player.tick - 1, "enter", "exit") for event in player.events):
            break
    return inputs, player


def test_the_sample_platformer_is_played_from_the_spawn_to_the_exit_and_simulate_agrees(tmp_path):
    inputs, steered = steer_to_the_exit()
    assert (steered.tick - 1, "enter", "exit") in steered.events
    ours, player = play(LEVEL, inputs)
    theirs = simulate(LEVEL, inputs, tmp_path)
    assert ours == theirs
    trace = json.loads(theirs)
    assert len(trace["on_floor"]) == len(inputs) and trace["on_floor"][-1] is True
    assert 0 < trace["on_floor"].count(False) < len(inputs) / 2  # jumps and falls, mostly on floors
    assert trace["events"][-1] == [len(inputs) - 1, "enter", "exit"]


def test_a_version_1_replay_of_a_platformer_level_is_exit_2_with_one_line(tmp_path, capsys):
    replay = tmp_path / "v1.json"
    replay.write_text(json.dumps({"format": "level-editor.replay", "version": 1, "dt": TICK,
                                  "velocities": [[240, 0]] * 3}))
    assert cli_main(["simulate", str(LEVEL), "--input", str(replay)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "version 1 replay" in err and "platformer" in err


def test_a_platformer_replay_with_a_bad_tick_is_exit_2_naming_it(tmp_path, capsys):
    replay = write_replay(tmp_path / "bad.json", [(1, 0, 0), (0, 0, 2)])
    assert cli_main(["simulate", str(LEVEL), "--input", str(replay)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "inputs[1]" in err
