"""The example game, run headless from scripted key presses: it plays what `level-editor simulate` plays for the
same keys as a version 2 replay, bit for bit, reports the areas, and says how to install pygame when it is missing."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.core.runtime.helpers import ROOT, simulate

pytest.importorskip("pygame")  # part of the test extras; a plain install of the package runs without it

DEMO = "level_editor.core.examples.pygame_demo"
GAME_CONTENT = ROOT / "levels" / "game_content.json"

#: The keys each direction reads, written out here rather than taken from the demo: the test checks its handling.
DIRECTIONS = {"right": (1, 0), "d": (1, 0), "left": (-1, 0), "a": (-1, 0),
              "down": (0, 1), "s": (0, 1), "up": (0, -1), "w": (0, -1)}


def inputs_for(script, ticks):
    """The version 2 replay's ticks that the script's key presses stand for (the keys as of each tick)."""
    held = set()
    inputs = []
    for tick in range(ticks):
        for at, what, key in script:
            if at == tick:
                (held.add if what == "down" else held.discard)(key)
        dirs = {DIRECTIONS[k] for k in held if k in DIRECTIONS}
        move_x = any(d == (1, 0) for d in dirs) - any(d == (-1, 0) for d in dirs)
        move_y = any(d == (0, 1) for d in dirs) - any(d == (0, -1) for d in dirs)
        inputs.append([move_x, move_y, int("space" in held)])
    return inputs


def run_demo(tmp_path, level, script=None, *args, env=None):
    command = [sys.executable, "-m", DEMO, str(level), *args]
    if script is not None:
        (tmp_path / "keys.json").write_text(json.dumps(script))
        command += ["--script", str(tmp_path / "keys.json")]
    environment = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **(env or {})}
    return subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=120)


#: Through the healing pool, along the crate, down to the exit (arrows and WASD mixed, opposite keys held together,
#: a press and release in one tick, jump held now and then).
TO_THE_EXIT = [
    [0, "down", "right"], [0, "down", "s"], [10, "up", "s"], [40, "down", "a"], [60, "up", "a"],
    [90, "down", "space"], [100, "up", "space"], [120, "down", "down"], [121, "up", "right"],
    [180, "down", "d"], [180, "up", "d"], [181, "down", "right"], [260, "up", "down"], [262, "down", "s"],
    [300, "down", "w"], [330, "up", "w"], [420, "up", "right"], [420, "up", "s"], [421, "down", "d"],
    [421, "down", "down"], [560, "up", "down"], [560, "down", "up"], [600, "up", "up"],
]


@pytest.mark.parametrize("window", ["960x640", "320x240"])  # the level fits; the camera follows the player
def test_a_scripted_game_plays_what_simulate_plays(tmp_path, window):
    ticks = 650
    r = run_demo(tmp_path, GAME_CONTENT, TO_THE_EXIT, "--ticks", str(ticks), "--trace", "trace.json",
                 "--window", window)
    assert r.returncode == 0, r.stderr
    played = (tmp_path / "trace.json").read_text(encoding="utf-8").strip()
    assert played == simulate(GAME_CONTENT, inputs_for(TO_THE_EXIT, ticks), tmp_path)
    trace = json.loads(played)
    assert len(trace["positions"]) == ticks
    events = trace["events"]
    assert (tick_of(events, "enter", "healing-pool") < tick_of(events, "leave", "healing-pool")
            < tick_of(events, "enter", "exit"))
    # each event printed on a line of its own, as it happened
    types = {"exit": " (exit_zone)", "patrol": " (route)"}
    assert r.stdout.splitlines() == [f"tick {t}: {what} {i}{types.get(i, '')}" for t, what, i in events]
    assert r.stderr == ""


def tick_of(events, what, object_id):
    return next(t for t, w, i in events if (w, i) == (what, object_id))


def test_a_box_player_on_another_level(tmp_path):
    script = [[0, "down", "right"], [0, "down", "up"], [50, "up", "up"], [50, "down", "s"], [200, "down", "a"]]
    level = ROOT / "levels" / "showcase_box_player.json"
    r = run_demo(tmp_path, level, script, "--ticks", "300", "--trace", "trace.json")
    assert r.returncode == 0, r.stderr
    played = (tmp_path / "trace.json").read_text(encoding="utf-8").strip()
    assert played == simulate(level, inputs_for(script, 300), tmp_path)
    assert r.stdout == ""  # no areas there


def test_escape_ends_the_game(tmp_path):
    r = run_demo(tmp_path, GAME_CONTENT, [[0, "down", "left"], [25, "down", "escape"]], "--ticks", "500",
                 "--trace", "trace.json")
    assert r.returncode == 0, r.stderr
    trace = json.loads((tmp_path / "trace.json").read_text(encoding="utf-8"))
    assert len(trace["positions"]) == 25
    assert trace["positions"][-1][0] < trace["start"][0]


def test_without_pygame_it_says_how_to_install_it(tmp_path):
    code = ("import runpy, sys\n"
            "sys.modules['pygame'] = None  # as if it were not installed\n"
            f"sys.argv = ['pygame_demo', {str(GAME_CONTENT)!r}]\n"
            f"runpy.run_module({DEMO!r}, run_name='__main__')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1 and 'pip install "level-editor[game]"' in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("level_text, script, said", [
    ("{oops", None, "-: is not valid JSON"),
    (None, "[[0, \"down\", \"no-such-key\"]]", "entry 0: 'no-such-key' is not a key name pygame knows"),
    (None, "[[-1, \"down\", \"a\"]]", "entry 0 must be [tick, \"down\" or \"up\", key]"),
    (None, "{\"keys\": []}", "a key script is a list"),
    (None, "[[0, \"down\"", "is not valid JSON"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, level_text, script, said):
    level = GAME_CONTENT
    if level_text is not None:
        level = tmp_path / "bad.json"
        level.write_text(level_text)
    args = []
    if script is not None:
        (tmp_path / "keys.json").write_text(script)
        args = ["--script", "keys.json"]
    r = run_demo(tmp_path, level, None, *args, "--ticks", "5")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and said in r.stderr and r.stderr.startswith("pygame_demo: ")
    assert "Traceback" not in r.stderr
