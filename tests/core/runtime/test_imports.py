"""A game imports the runtime, loads a level and steps its player without loading Qt or shapely."""
from __future__ import annotations

import subprocess
import sys

from tests.core.runtime.helpers import SAMPLE_LEVELS

GAME = r'''
import sys
from level_editor.core.runtime import Player, load_level
import level_editor.core.examples.pygame_demo  # the example game's module too (pygame itself is imported late)
steps = 0
for path in sys.argv[1:]:
    level = load_level(path)
    for thing in level.objects:
        thing.properties, thing.bounds
    player = Player(level)
    for n in range(120):
        player.step((n % 3) - 1, 1 if n < 60 else -1, n % 2)
        steps += 1
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"PySide6", "shapely", "shiboken6", "pygame"})
print(steps, loaded)
'''


def test_the_runtime_loads_neither_qt_nor_shapely(tmp_path):
    # From an empty folder, so nothing of the checkout is importable by accident.
    r = subprocess.run([sys.executable, "-c", GAME, *map(str, SAMPLE_LEVELS)], capture_output=True, text=True,
                       cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(120 * len(SAMPLE_LEVELS)), "[]"]


def test_the_check_sees_shapely_when_it_is_loaded(tmp_path):
    # The same check, with shapely loaded through the validator: it would say so.
    r = subprocess.run([sys.executable, "-c", "import level_editor.core.checks.check\n" + GAME,
                        str(SAMPLE_LEVELS[0])], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[1:] == ["['shapely']"]
