"""Our ``render`` of a level beside Tiled's ``tmxrasterizer`` drawing the same map written as TMX by hand.

Skips, saying so, where ``tmxrasterizer`` (shipped with Tiled) is not installed.
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from level_editor.core.level.art import FLIP_D, FLIP_X, FLIP_Y
from level_editor.core.level.model import Level, Tiles
from level_editor.editor.painting.render import render_level

from tests.benchmarks.bench_render import write_tmx
from tests.editor.painting.art import tileset_picture
from tests.editor.painting.test_render import T, tiles_set
from tests.picture_diff import differing_share

RASTERIZER = shutil.which("tmxrasterizer")
needs_rasterizer = pytest.mark.skipif(RASTERIZER is None, reason="tmxrasterizer (shipped with Tiled) is not installed")

FLAGS = (0, FLIP_X, FLIP_Y, FLIP_X | FLIP_Y, FLIP_D, FLIP_D | FLIP_X, FLIP_D | FLIP_Y, FLIP_D | FLIP_X | FLIP_Y)
#: A 8 x 5 map: every tile in every flip, and a few empty cells.
ROWS = tuple(tuple(-1 if (c + 2 * r) % 7 == 6 else ((c + r) % 8) | FLAGS[(c + 3 * r) % 8] for c in range(8))
             for r in range(5))


def tiled_picture(tmp_path, scale: float):
    from PySide6.QtGui import QImage

    out = tmp_path / f"theirs-{scale:g}.png"
    r = subprocess.run([RASTERIZER, "--scale", f"{scale:g}", str(tmp_path / "map.tmx"), str(out)],
                       capture_output=True, text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=120)
    assert r.returncode == 0, r.stderr
    return QImage(str(out))


@needs_rasterizer
@pytest.mark.parametrize("scale, most", [(1.0, 0.0), (2.0, 0.005)])
def test_render_draws_flipped_tiles_of_a_spaced_tileset_as_tmxrasterizer(tmp_path, qapp, scale, most):
    tileset_picture(tmp_path / "tiles.png", T, columns=4, rows=2, margin=2, spacing=3)
    size = (4 + 4 * T + 9, 4 + 2 * T + 3)
    write_tmx(str(tmp_path / "map.tmx"), ROWS, T, "tiles.png", size, 4, 8, margin=2, spacing=3)
    level = Level(size=(8 * T, 5 * T), tilesets=(tiles_set(image_size=size, margin=2, spacing=3),),
                  objects=(Tiles("g", (0, 0), T, (), tileset="ts", tiles=ROWS),))
    ours = render_level(level, str(tmp_path), scale)
    theirs = tiled_picture(tmp_path, scale)
    assert ours.size() == theirs.size()
    # pixel for pixel at scale 1; at 2 the smoothing at tiles' edges may differ a little
    share = differing_share(ours, theirs, tolerance=8)
    assert share <= most
