"""Playing inputs both ways: through the game runtime, and as a version 2 replay through `level-editor simulate`."""
from __future__ import annotations

import json
from pathlib import Path

from level_editor.core.cli import main as cli_main
from level_editor.core.playtest.replay import Trace, dumps_trace
from level_editor.core.runtime import TICK, Player, load_level

ROOT = Path(__file__).resolve().parents[3]
#: Every sample level: each is a fixture of these tests.
SAMPLE_LEVELS = sorted((ROOT / "levels").glob("*.json"))


def write_replay(path: Path, inputs, start=None) -> Path:
    data = {"format": "level-editor.replay", "version": 2, "dt": TICK}
    if start is not None:
        data["start"] = list(start)
    data["inputs"] = [list(tick) for tick in inputs]
    path.write_text(json.dumps(data))
    return path


def simulate(level_path, inputs, folder: Path, start=None) -> str:
    """The trace `level-editor simulate` writes for the inputs as a version 2 replay (its text)."""
    replay = write_replay(folder / "replay.json", inputs, start)
    out = folder / "trace.json"
    assert cli_main(["simulate", str(level_path), "--input", str(replay), "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8").strip()


def play(level_path, inputs, start=None) -> tuple[str, Player]:
    """The same inputs through ``Player.step``, written as simulate writes a trace (shortest round-trip floats:
    equal texts are equal floats, bit for bit, -0.0 included), and the player."""
    level = load_level(level_path)
    player = Player(level, start=start)
    first = player.position
    positions, floors = [], []
    for move_x, move_y, jump in inputs:
        player.step(move_x, move_y, jump)
        positions.append(player.position)
        floors.append(player.on_floor)
    platformer = level.model.player.controller == "platformer"
    return dumps_trace(Trace(first, tuple(positions), tuple(player.events),
                             tuple(floors) if platformer else None)), player
