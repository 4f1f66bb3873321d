"""The example game, run headless from scripted key presses: it plays what `level-editor simulate` plays for the
same keys as a version 2 replay, bit for bit, reports the areas, and says how to install pygame when it is missing."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from level_editor.core.runtime import Player, load_level
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


def _frame_and_render(tmp_path, level_path, window=None):
    """The game's first frame of ``level_path`` (``window``: the level's size) and ``level-editor render``'s
    picture."""
    import pygame

    raw = json.loads(level_path.read_text(encoding="utf-8"))
    width, height = window or raw["size"]
    frame, rendered = tmp_path / "frame.png", tmp_path / "render.png"
    r = run_demo(tmp_path, level_path, None, "--ticks", "1", "--window", f"{width}x{height}", "--screenshot",
                 str(frame))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = subprocess.run([sys.executable, "-m", "level_editor.editor.launcher", "render", str(level_path), "-o",
                        str(rendered)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stderr
    return pygame.image.load(str(frame)), pygame.image.load(str(rendered))


def _differing(frame, rendered, spawn, skip_top=30) -> float:
    """The share of pixels (every other one) that differ by more than 24 in a channel, leaving out the text
    at the top and the player around ``spawn``."""
    assert frame.get_size() == rendered.get_size()
    width, height = frame.get_size()
    differ = total = 0
    for y in range(skip_top, height, 2):
        for x in range(0, width, 2):
            if abs(x - spawn[0]) < 30 and abs(y - spawn[1]) < 40:
                continue
            a, b = frame.get_at((x, y)), rendered.get_at((x, y))
            total += 1
            differ += max(abs(a[i] - b[i]) for i in range(3)) > 24
    return differ / total


def test_the_game_draws_the_levels_art_as_render_draws_it(tmp_path):
    """Tiles cut from the tileset with every flip, sprites stretched and mirrored at their opacity, the
    background: the example game (the runtime's art, drawn with pygame) shows what the editor renders."""
    level_path = ROOT / "levels" / "tiles_and_sprites.json"
    frame, rendered = _frame_and_render(tmp_path, level_path)
    assert _differing(frame, rendered, (64, 290)) < 0.01
    assert frame.get_at((784, 304))[:3] == rendered.get_at((784, 304))[:3]  # the crate's middle, tile 6


def test_hidden_layers_layer_opacity_turned_sprites_and_picture_files_as_render(tmp_path):
    shutil.copytree(ROOT / "levels" / "art", tmp_path / "art")
    raw = json.loads((ROOT / "levels" / "tiles_and_sprites.json").read_text(encoding="utf-8"))
    for layer in raw["layers"]:
        if layer["id"] == "sky":
            layer["visible"] = False  # the clouds are left out
        if layer["id"] == "ground":
            layer["opacity"] = 0.5
    for thing in raw["objects"]:
        if thing["id"] == "crate":
            thing.update(rotation=30, flip_y=True, size=[48, 40])
    raw["objects"].append({"id": "poster", "kind": "sprite", "layer": "things", "center": [400, 150],
                           "size": [256, 128], "rotation": -90, "flip_x": True, "opacity": 0.7,
                           "picture": "art/meadow.png"})
    level_path = tmp_path / "variant.json"
    level_path.write_text(json.dumps(raw), encoding="utf-8")
    frame, rendered = _frame_and_render(tmp_path, level_path)
    assert _differing(frame, rendered, (64, 290)) < 0.02
    sky = frame.get_at((160, 80))[:3]
    assert sky == rendered.get_at((160, 80))[:3] == (0x9f, 0xd4, 0xf0)  # where cloud-0 was: only the background


def test_a_window_smaller_than_the_level_shows_the_part_around_the_player(tmp_path):
    """The camera follows the player into the middle of the level: the game draws only the tiles in view, and
    they are the same part of ``render``'s picture."""
    shutil.copytree(ROOT / "levels" / "art", tmp_path / "art")
    raw = json.loads((ROOT / "levels" / "tiles_and_sprites.json").read_text(encoding="utf-8"))
    raw["player"]["spawn"] = [768, 250]  # above the crate
    level_path = tmp_path / "middle.json"
    level_path.write_text(json.dumps(raw), encoding="utf-8")
    frame, rendered = _frame_and_render(tmp_path, level_path, window=(400, 200))
    player = Player(load_level(level_path))
    player.step(0, 0, False)  # the frame drawn after one tick: the camera keeps the player in the middle
    part = rendered.subsurface((round(player.position.x - 200), round(player.position.y - 100), 400, 200))
    assert _differing(frame, part, (200, 100)) < 0.01


def test_moving_platforms_are_drawn_where_their_path_has_taken_them(tmp_path):
    """The platforms the player rides move in the game's picture as they move in the simulation."""
    import pygame

    from level_editor.core.examples.pygame_demo import KIND_COLORS, Camera, level_area
    from level_editor.core.runtime import TICK

    path = ROOT / "levels" / "platformer.json"
    ticks, window = 60, (1600, 700)
    frame = tmp_path / "frame.png"
    r = run_demo(tmp_path, path, None, "--ticks", str(ticks), "--window", f"{window[0]}x{window[1]}",
                 "--screenshot", str(frame))
    assert r.returncode == 0, r.stderr
    picture = pygame.image.load(str(frame))
    level = load_level(path)
    player = Player(level)
    for _ in range(ticks):
        player.step(0, 0, False)
    camera = Camera(level_area(level), window)
    camera.follow(player.position)
    for name in ("mover", "lift"):
        box = level.object(name)
        dx, dy = box.path.offset_after(ticks - 1, TICK)
        assert (dx, dy) != (0, 0)
        start = camera.to_screen((box.origin.x + 2, box.origin.y + 2))
        now = camera.to_screen((box.origin.x + dx + box.size.x / 2, box.origin.y + dy + box.size.y / 2))
        assert picture.get_at(now)[:3] == KIND_COLORS["box"], name
        assert picture.get_at(start)[:3] != KIND_COLORS["box"], name  # it has left where it started
