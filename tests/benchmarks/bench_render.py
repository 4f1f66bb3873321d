"""``level-editor render`` beside Tiled's ``tmxrasterizer`` on the same maps: ``python -m tests.benchmarks.bench_render``.

Each pair is a level and the Tiled map it stands for (an imported map and its original); each command is run end
to end as a user runs it (a new process, reading the file, drawing, writing the PNG) several times at scale 1 and
2, and the table gives the median wall time of each and their ratio::

    python -m tests.benchmarks.bench_render LEVEL.json MAP.tmx [LEVEL2.json MAP2.tmx ...] [--runs 5]
    python -m tests.benchmarks.bench_render      # a 100 x 100 map of Tiled's desert tiles, written as both
    python -m tests.benchmarks.bench_render --examples   # Tiled's example maps, each imported as a level

The README's figures come from the Python of a fresh virtual environment with the wheel installed (``pip install
dist/level_editor-*.whl``, run from the checkout so ``tests`` is found): an editable install starts slower.

Without pairs it writes one itself: a painted grid as a level and as a TMX map (:func:`write_tmx`), with Tiled's
``tmw_desert_spacing.png`` (or a generated picture of its layout).
"""
from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Sequence

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import level_editor.core  # noqa: E402  (after the platform is chosen)
import level_editor.editor  # noqa: E402

SCALES = (1.0, 2.0)


def write_tmx(path: str, rows: Sequence[Sequence[int]], tile: int, image: str, image_size: tuple[int, int],
              columns: int, count: int, margin: int = 0, spacing: int = 0) -> str:
    """Write a Tiled map (TMX) of one tile layer painting ``rows`` (our painted cells: tile number with Tiled's
    flip bits, -1 empty) with one tileset cut from ``image``; returns ``path``."""
    height, width = len(rows), len(rows[0])
    lines = ",\n".join(",".join(str(0 if v < 0 else (v + 1) & 0xFFFFFFFF) for v in row) for row in rows)
    text = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="{width}" \
height="{height}" tilewidth="{tile}" tileheight="{tile}" infinite="0" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" name="art" tilewidth="{tile}" tileheight="{tile}" spacing="{spacing}" margin="{margin}" \
tilecount="{count}" columns="{columns}">
  <image source="{image}" width="{image_size[0]}" height="{image_size[1]}"/>
 </tileset>
 <layer id="1" name="ground" width="{width}" height="{height}">
  <data encoding="csv">
{lines}
</data>
 </layer>
</map>
"""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def desert_pair(folder: str, cells: int = 100) -> tuple[str, str]:
    """A level and a TMX map of the same ``cells`` x ``cells`` painted grid of desert tiles, in ``folder``."""
    from dataclasses import replace

    from level_editor.core.level.file_format import save_level
    from tests.benchmarks.bench_canvas_tiles import tile_level, tileset_file

    tileset_file(folder)
    level = tile_level(cells)
    level = replace(level, size=(cells * 32, cells * 32))
    level_path = os.path.join(folder, "desert.json")
    save_level(level, level_path)
    map_path = write_tmx(os.path.join(folder, "desert.tmx"), level.objects[0].tiles, 32, "desert.png", (265, 199),
                         8, 48, margin=1, spacing=1)
    return level_path, map_path


def example_pairs(folder: str) -> list[tuple[str, str]]:
    """Tiled's example maps (copied, unpacked) and the levels ``level-editor import`` makes of them, in ``folder``."""
    from pathlib import Path

    from level_editor.core.interop.tiled_import import read_tiled
    from level_editor.core.level.file_format import save_level
    from tests.core.interop.tiled_examples import EXAMPLES, MAPS

    if not EXAMPLES.is_dir():
        raise SystemExit(f"Tiled's example maps are not installed here ({EXAMPLES}: apt-get install tiled)")
    import gzip
    target = Path(folder) / "examples"
    shutil.copytree(EXAMPLES, target)
    for packed in target.rglob("*.gz"):
        packed.with_suffix("").write_bytes(gzip.decompress(packed.read_bytes()))
    pairs = []
    for name, rel in MAPS.items():
        level_path = os.path.join(folder, f"{name}.json")
        save_level(read_tiled(target / rel, level_dir=folder).level, level_path)
        pairs.append((level_path, str(target / rel)))
    return pairs


def timed(command: list[str], runs: int) -> float:
    """The median wall time of ``command`` over ``runs`` runs, in seconds (it must succeed)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        r = subprocess.run(command, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - start)
        if r.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return statistics.median(times)


def measure(pairs: Sequence[tuple[str, str]], runs: int, out_folder: str) -> list[tuple]:
    rasterizer = shutil.which("tmxrasterizer")
    ours = [sys.executable, "-m", "level_editor.editor.launcher", "render"]
    rows = []
    for level, tmx in pairs:
        for scale in SCALES:
            mine = timed(ours + [level, "-o", os.path.join(out_folder, "ours.png"), "--scale", f"{scale:g}"], runs)
            theirs = (timed([rasterizer, "--scale", f"{scale:g}", tmx, os.path.join(out_folder, "theirs.png")], runs)
                      if rasterizer else float("nan"))
            rows.append((os.path.basename(level), os.path.basename(tmx), scale, mine, theirs))
    return rows


def table(rows) -> str:
    lines = [f"{'level':<24}{'map':<24}{'scale':>6}{'render s':>10}{'tmxrasterizer s':>17}{'ratio':>7}"]
    for level, tmx, scale, mine, theirs in rows:
        lines.append(f"{level:<24}{tmx:<24}{scale:>6g}{mine:>10.3f}{theirs:>17.3f}{mine / theirs:>7.2f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="LEVEL.json MAP.tmx", help="pairs of a level and its map")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5; the median counts)")
    parser.add_argument("--cells", type=int, default=100, help="without pairs: cells across the written map")
    parser.add_argument("--examples", action="store_true", help="Tiled's example maps, each imported as a level")
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give the files in pairs: LEVEL.json MAP.tmx")
    if shutil.which("tmxrasterizer") is None:
        print("tmxrasterizer (shipped with Tiled) is not installed: only our times are measured")
    # as pip does when it installs the wheel: without the compiled modules every run compiles the package anew
    # (PYTHONDONTWRITEBYTECODE keeps them from being written as they are used)
    for package in (level_editor.core, level_editor.editor):
        compileall.compile_dir(os.path.dirname(os.path.abspath(package.__file__)), quiet=1)
    folder = tempfile.mkdtemp(prefix="bench-render-")
    try:
        pairs = list(zip(args.files[::2], args.files[1::2]))
        if args.examples:
            pairs += example_pairs(folder)
        pairs = pairs or [desert_pair(folder, args.cells)]
        print(f"median wall time of {args.runs} runs, each command end to end (a new process)")
        print(table(measure(pairs, args.runs, folder)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
