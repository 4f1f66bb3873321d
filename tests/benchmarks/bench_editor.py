"""Editor figures at scale: ``python -m tests.benchmarks.bench_editor [--sizes 10000,100000] [--quick]``.

Opens generated levels (:func:`level_editor.core.level.generate.generate_level`: rooms, corridors,
wall chains, furniture) in a real main window and times what a designer feels,
with real mouse and wheel events on the canvas:

- opening the file (read, items built, drawn until the canvas shows every object),
- saving it through the window's own save, and Export As a Tiled map (TMX),
- the longest the window froze during each of those three: a 10 ms timer runs
  through the operation and the largest gap between its ticks is the longest
  time the window answered nothing (:class:`FreezeWatch`),
- select all (and its redraw),
- one mouse move of a drag of everything (the slowest of the drag's moves), the
  release, then undo and redo of that move (each with its redraw),
- the slowest frame of wheel zooming from the whole level to 100% and back, and
  of panning with the whole level in view and at 100%,
- the process's peak memory, and that of the background check's process (level_editor.core.work.background_call).

Every figure is taken after the frame it causes is drawn (``viewport().repaint()``).
Each size runs in a process of its own, so its peak memory is its own; the level
file is written beforehand by another process. ``--quick`` measures small levels
in a few seconds (what CI runs, see test_bench_editor.py); ``--compare`` also runs
the scene index and item cache configurations the editor did not choose, so that
choice stays a measured one. ``--repeat N`` measures each size N times and prints
the range, for a machine shared with other work.

:func:`measure_editor` is the per-level measurement other benchmarks import.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from typing import Optional, Union

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QEventLoop, QPoint, QPointF, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtGui import QMouseEvent, QWheelEvent  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsScene  # noqa: E402

from level_editor.core.level.file_format import save_level  # noqa: E402
from level_editor.core.level.generate import generate_level  # noqa: E402
from level_editor.core.level.model import Level  # noqa: E402

#: The keys of :func:`measure_editor`'s result, in table order, with what each one means.
KEYS = {
    "open_s": "open the file until every object is on screen",
    "save_s": "save (the window's save)",
    "open_freeze_s": "longest freeze of the window while opening",
    "save_freeze_s": "longest freeze of the window while saving",
    "export_s": "Export As a Tiled map (TMX)",
    "export_freeze_s": "longest freeze of the window while exporting",
    "select_all_s": "select all",
    "move_step_s": "drag everything: slowest mouse move",
    "move_release_s": "drag everything: the release",
    "undo_move_s": "undo the move",
    "redo_move_s": "redo the move",
    "zoom_frame_max_s": "slowest frame, wheel zoom whole level <-> 100%",
    "pan_frame_full_max_s": "slowest frame, panning the whole level",
    "pan_frame_max_s": "slowest frame, panning at 100%",
    "pick_s": "pick under the cursor",
    "open_rss_mb": "peak memory once open and drawn",
    "edit_rss_mb": "peak memory after zoom, pan, select, drag, undo, redo",
    "peak_rss_mb": "peak memory of the process, save included",
    "export_rss_mb": "peak memory of the process, Export As included",
    "check_rss_mb": "peak memory of the background check's process (forked: the level's pages are shared)",
}

#: Checks that ride along with the figures (not timings).
CHECKS = {
    "objects": "objects in the level",
    "moved_objects": "objects the drag moved",
    "move_undo_steps": "undo steps the drag made",
    "undo_restored": "undo gave the level back (1: yes)",
}

#: Viewport size the figures are taken at.
WINDOW_SIZE = (1400, 900)

SIZES = (10_000, 100_000)
QUICK_SIZES = (200, 2_000)

#: How often the freeze watch's timer ticks (ms): a gap between ticks longer than this is the window frozen.
TICK_MS = 10

#: Mouse moves in the drag, and wheel and pan steps.
DRAG_MOVES = 8
PAN_STEPS = 12


def big_level(n: int, seed: int = 1) -> Level:
    """A generated level of ``n`` objects (rooms, corridors, furniture)."""
    return generate_level(n, seed=seed)


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory of this process so far (``RUSAGE_CHILDREN``: of its largest ended child), in MB."""
    peak = resource.getrusage(who).ru_maxrss
    # Linux reports KiB, macOS bytes
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


class FreezeWatch:
    """The longest time the GUI thread answered no event while the ``with`` block ran, in seconds.

    A :data:`TICK_MS` timer runs through the block; the largest gap between two of its ticks (from the
    start to the first tick, and from the last tick to the end, included) is how long the window could
    not repaint or take a click. A block that never returns to the event loop freezes it all along.

    >>> app = QApplication.instance() or QApplication([])
    >>> with FreezeWatch() as watch:
    ...     time.sleep(0.05)
    >>> watch.longest >= 0.05
    True
    """

    def __init__(self):
        self.longest = 0.0
        #: Every gap between ticks, in order (the last one ends with the block).
        self.gaps: list[float] = []
        self._last = 0.0
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.setTimerType(Qt.PreciseTimer)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self.longest = max(self.longest, now - self._last)
        self._last = now

    def __enter__(self) -> "FreezeWatch":
        self.longest = 0.0
        self.gaps = []
        self._last = time.perf_counter()
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.stop()
        self._tick()


def _timed_frames(step, count: int, viewport) -> list[float]:
    """Seconds of ``count`` frames: ``step(i)``, then the repaint it causes."""
    app = QApplication.instance()
    app.processEvents()
    times = []
    for i in range(count):
        t = time.perf_counter()
        step(i)
        viewport.repaint()
        app.processEvents()
        times.append(time.perf_counter() - t)
    return times


def _wheel(viewport, pixel: QPoint, clicks: int) -> None:
    """One wheel turn of ``clicks`` notches (positive: zoom in) over ``pixel`` of the canvas."""
    pos = QPointF(pixel)
    event = QWheelEvent(pos, QPointF(viewport.mapToGlobal(pixel)), QPoint(), QPoint(0, 120 * clicks),
                        Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(viewport, event)


def _mouse_move(viewport, pixel: QPoint, buttons=Qt.LeftButton) -> None:
    # QTest.mouseMove does not carry held buttons on every Qt version (tests/editor/helpers.py)
    event = QMouseEvent(QEvent.MouseMove, QPointF(pixel), QPointF(viewport.mapToGlobal(pixel)), Qt.NoButton,
                        buttons, Qt.NoModifier)
    QApplication.sendEvent(viewport, event)


def _object_pixel(window) -> Optional[QPoint]:
    """A viewport pixel over an object near the middle of the view (where a drag of everything starts)."""
    canvas, scene = window.canvas, window.scene
    view = canvas.viewport().rect()
    cx, cy = view.width() // 2, view.height() // 2
    for r in range(0, min(cx, cy), 3):
        for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r), (r, r), (-r, -r)):
            pixel = QPoint(cx + dx, cy + dy)
            found = scene.object_at(canvas.mapToScene(pixel), 0.0)
            if found is not None and found != "player":
                return pixel
    return None


def bench_window(folder: str):
    """A main window of :data:`WINDOW_SIZE` on screen, its settings kept in ``folder``; it never asks a question
    nor shows an error."""
    from level_editor.editor.window.main_window import MainWindow

    window = MainWindow(settings=QSettings(os.path.join(folder, "bench.ini"), QSettings.IniFormat))
    window.ask_unsaved_changes = lambda: "discard"
    window.show_error = lambda *a, **k: None
    window.resize(*WINDOW_SIZE)
    window.show()
    QApplication.instance().processEvents()
    return window


def measure_editor(level: Union[Level, str], index=None, cache=None, frames: int = PAN_STEPS) -> dict[str, float]:
    """Open ``level`` (a :class:`Level`, or the path of a level file) in a new main window and time the editor.

    Returns seconds under the keys of :data:`KEYS` (``peak_rss_mb`` in MB) plus
    the checks in :data:`CHECKS`. ``index`` and ``cache`` override the scene's
    item index method and the items' cache mode (for comparing configurations);
    by default the editor's own choice is measured. Needs a ``QApplication``.
    """
    app = QApplication.instance()
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="editor-bench-") as tmp:
        if isinstance(level, Level):
            path = os.path.join(tmp, "level.json")
            save_level(level, path)
            del level
        else:
            path = level
        window = bench_window(tmp)
        scene, canvas = window.scene, window.canvas
        viewport = canvas.viewport()
        if index is not None:
            scene.setItemIndexMethod(index)

        t = time.perf_counter()
        with FreezeWatch() as watch:
            if not window.open_file(path, ask=False):
                raise RuntimeError(f"the editor could not open {path}")
            if cache is not None:
                for item in scene.object_items():
                    item.setCacheMode(cache)
            viewport.repaint()
            app.processEvents()
            # until every object is on screen: a big level's picture is painted in slices after the first frame
            give_up = time.perf_counter() + 60
            while not canvas.settled() and time.perf_counter() < give_up:
                app.processEvents(QEventLoop.WaitForMoreEvents)
        out["open_s"] = time.perf_counter() - t
        out["open_freeze_s"] = watch.longest
        out["open_rss_mb"] = peak_rss_mb()
        out["objects"] = float(len(window.document))
        opened = window.document.level

        # wheel zoom: from the whole level in to 100% around the middle, and back out
        canvas.fit_level()
        app.processEvents()
        middle = QPoint(viewport.width() // 2, viewport.height() // 2)
        clicks, z = 0, canvas.zoom()
        while z < 1.0 and clicks < 60:
            z *= 1.25
            clicks += 1
        sweep = [1] * clicks + [-1] * clicks or [1, -1]
        out["zoom_frame_max_s"] = max(_timed_frames(lambda i: _wheel(viewport, middle, sweep[i]), len(sweep), viewport))

        canvas.fit_level()
        app.processEvents()
        out["pan_frame_full_max_s"] = max(_timed_frames(
            lambda i: canvas.pan_by(40 if i % 2 else -40, 30 if i % 2 else -30), frames, viewport))

        canvas.set_zoom(1.0)
        app.processEvents()
        out["pan_frame_max_s"] = max(_timed_frames(
            lambda i: canvas.pan_by(60 if (i // 4) % 2 else -60, 40 if (i // 4) % 2 else -40), frames, viewport))

        r = scene.level_rect()
        picks = [QPointF(r.left() + r.width() * ((i * 0.37) % 1.0), r.top() + r.height() * ((i * 0.53) % 1.0))
                 for i in range(200)]
        t = time.perf_counter()
        for p in picks:
            scene.object_at(p, 4.0)
        out["pick_s"] = (time.perf_counter() - t) / len(picks)

        canvas.fit_level()
        app.processEvents()
        t = time.perf_counter()
        window.select_all()
        viewport.repaint()
        app.processEvents()
        out["select_all_s"] = time.perf_counter() - t

        window.set_tool(window.tool_named("SelectTool"))
        start = _object_pixel(window)
        if start is not None:
            steps_before = window.undo_stack.count()
            QTest.mouseMove(viewport, start)
            QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, start)
            app.processEvents()
            moves = _timed_frames(lambda i: _mouse_move(viewport, start + QPoint(9 * (i + 1), 7 * (i + 1))),
                                  DRAG_MOVES, viewport)
            out["move_step_s"] = max(moves)
            end = start + QPoint(9 * DRAG_MOVES, 7 * DRAG_MOVES)
            out["move_release_s"] = _timed_frames(
                lambda i: QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, end), 1, viewport)[0]
            out["move_undo_steps"] = float(window.undo_stack.count() - steps_before)
            out["moved_objects"] = float(sum(a is not b for a, b in zip(opened.objects, window.document.objects)))
            out["undo_move_s"] = _timed_frames(lambda i: window.undo_stack.undo(), 1, viewport)[0]
            out["undo_restored"] = float(window.document.level.objects == opened.objects)
            out["redo_move_s"] = _timed_frames(lambda i: window.undo_stack.redo(), 1, viewport)[0]

        out["edit_rss_mb"] = peak_rss_mb()
        t = time.perf_counter()
        window.ask_save_path = lambda: os.path.join(tmp, "saved.json")  # Save As, answered at once
        with FreezeWatch() as watch:
            if not window.save_as():
                raise RuntimeError("the editor could not save the level")
        out["save_s"] = time.perf_counter() - t
        out["save_freeze_s"] = watch.longest
        out["peak_rss_mb"] = peak_rss_mb()
        window.ask_export_path = lambda: os.path.join(tmp, "exported.tmx")
        window.show_notes = lambda *a, **k: None
        t = time.perf_counter()
        with FreezeWatch() as watch:
            if not window.export_as():
                raise RuntimeError("the editor could not export the level")
        out["export_s"] = time.perf_counter() - t
        out["export_freeze_s"] = watch.longest
        out["export_rss_mb"] = peak_rss_mb()
        # the background check of the saved level, to its end (a small level's edits came too fast for one)
        end = time.perf_counter() + 120
        while window.checks.busy and time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.005)
        out["check_rss_mb"] = peak_rss_mb(resource.RUSAGE_CHILDREN) or None

        window.close()
        window.deleteLater()
        app.processEvents()
    return out


def _format(key: str, value) -> str:
    if value is None:
        return "-"
    if key.endswith("_mb"):
        return f"{value:.0f} MB"
    if key.endswith("_s"):
        ms = value * 1000.0
        if ms < 10:
            return f"{ms:.2f} ms"
        return f"{ms:.0f} ms" if ms < 1000 else f"{value:.2f} s"
    return f"{value:g}"


def _cell(key: str, runs: list[dict]) -> str:
    """One figure, or the range over repeated runs (``lowest - highest``)."""
    values = [r[key] for r in runs if r.get(key) is not None]
    if not values:
        return "-"
    low, high = min(values), max(values)
    if len(values) == 1 or _format(key, low) == _format(key, high):
        return _format(key, low)
    return f"{_format(key, low)} - {_format(key, high)}"


def markdown_table(results: dict[str, list[dict]], measures: list[tuple[str, str]]) -> str:
    """A Markdown table: a row per ``(key, label)`` of ``measures``, a column per name in ``results`` (the
    runs measured under it: one figure, or their range)."""
    names = list(results)
    lines = ["| measure | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for key, label in measures:
        lines.append(f"| {label} | " + " | ".join(_cell(key, results[n]) for n in names) + " |")
    return "\n".join(lines)


def table_row(lines: list[str], label: str) -> list[str]:
    """The cells of the row ``label`` in the lines of a :func:`markdown_table`."""
    row = next(line for line in lines if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in row.strip("|").split("|")[1:]]


def format_table(results: dict[str, list[dict]]) -> str:
    """A Markdown table: a row per key of :data:`KEYS` and :data:`CHECKS`, a column per measured level."""
    return markdown_table(results, list(KEYS.items()) + list(CHECKS.items()))


def column_name(n: int) -> str:
    return f"{n:,} objects"


_CONFIGS = {
    "editor": (None, None),
    "no index": (QGraphicsScene.NoIndex, None),
    "device cache": (None, QGraphicsItem.DeviceCoordinateCache),
}


def sprite_level(n: int, folder: str, seed: int = 1) -> Level:
    """A level of ``n`` sprites of the sample meadow tileset's tiles in rows, a third of them turned and a fifth
    mirrored (the tileset's picture is copied into ``folder``, where the level is to be written)."""
    import random
    import shutil

    from level_editor.core.level.file_format import load_level
    from level_editor.core.level.model import Player, Sprite

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.makedirs(os.path.join(folder, "art"), exist_ok=True)
    shutil.copy(os.path.join(root, "levels", "art", "meadow.png"), os.path.join(folder, "art", "meadow.png"))
    sample = load_level(os.path.join(root, "levels", "tiles_and_sprites.json"))
    rng = random.Random(seed)
    side = max(1, round(n ** 0.5))
    sprites = tuple(Sprite(f"sprite-{i}", ((i % side) * 40 + 20, (i // side) * 40 + 20), (32, 32),
                           rotation=rng.choice((15.0, 30.0, 90.0)) if i % 3 == 0 else 0.0, flip_x=i % 5 == 0,
                           tileset="meadow", tile=rng.choice((4, 5, 6, 7)), layer="things") for i in range(n))
    return Level(name=f"{n} sprites", layers=sample.layers, tilesets=sample.tilesets, objects=sprites,
                 player=Player(spawn=(-100, -100), radius=12))


def _write_level(n: int, seed: int, path: str, art: bool = False) -> None:
    """Write the generated level of ``n`` objects (``art``: sprites) in a process of its own (its memory is not the
    editor's)."""
    maker = ("from tests.benchmarks.bench_editor import sprite_level; import os; level = sprite_level(int(sys.argv[1]), "
             "os.path.dirname(sys.argv[3]), seed=int(sys.argv[2]))" if art else
             "from level_editor.core.level.generate import generate_level; "
             "level = generate_level(int(sys.argv[1]), seed=int(sys.argv[2]))")
    code = f"import sys; from level_editor.core.level.file_format import save_level; {maker}; save_level(level, sys.argv[3])"
    subprocess.run([sys.executable, "-c", code, str(n), str(seed), path], check=True)


def _measure_in_child(path: str, config: str, frames: int) -> dict:
    """Run one measurement in a fresh process, so its peak memory is its own."""
    cmd = [sys.executable, "-m", "tests.benchmarks.bench_editor", "--file", path, "--config", config,
           "--frames", str(frames), "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {path} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_editor", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None, help="object counts, comma separated (default 10000,100000)")
    parser.add_argument("--quick", action="store_true", help=f"small levels ({QUICK_SIZES[0]} and {QUICK_SIZES[1]} "
                        "objects) and fewer frames: a few seconds")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--sprites", action="store_true",
                        help="levels of sprites (the sample meadow tileset's tiles, a third turned) instead")
    parser.add_argument("--repeat", type=int, default=1, help="measure each size this many times, print the range")
    parser.add_argument("--compare", action="store_true",
                        help="also measure the scene index and item cache the editor did not choose")
    parser.add_argument("--config", default="editor", choices=sorted(_CONFIGS), help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    parser.add_argument("--frames", type=int, default=PAN_STEPS, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.json:
        app = QApplication.instance() or QApplication(sys.argv[:1])
        index, cache = _CONFIGS[args.config]
        print(json.dumps(measure_editor(args.file, index, cache, frames=args.frames)))
        del app
        return 0

    if args.sizes:
        sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    else:
        sizes = list(QUICK_SIZES if args.quick else SIZES)
    if not sizes or any(n <= 0 for n in sizes):
        parser.error("--sizes takes positive object counts, e.g. 10000,100000")
    frames = 4 if args.quick else args.frames
    configs = list(_CONFIGS) if args.compare else ["editor"]
    platform = os.environ.get("QT_QPA_PLATFORM", "the desktop")
    with tempfile.TemporaryDirectory(prefix="editor-bench-levels-") as tmp:
        paths = {}
        for n in sizes:
            paths[n] = os.path.join(tmp, f"level-{n}.json")
            _write_level(n, args.seed, paths[n], art=args.sprites)
        for config in configs:
            results = {column_name(n): [_measure_in_child(paths[n], config, frames) for _ in range(max(1, args.repeat))]
                       for n in sizes}
            kind = "levels of sprites" if args.sprites else "generated levels"
            print(f"editor figures ({config}), {kind}, seed {args.seed}, window {WINDOW_SIZE[0]}x"
                  f"{WINDOW_SIZE[1]}, platform {platform}, {max(1, args.repeat)} run(s) per size")
            print()
            print(format_table(results))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
