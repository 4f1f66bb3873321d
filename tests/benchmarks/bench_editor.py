"""Editor figures at scale: ``python -m tests.benchmarks.bench_editor [--sizes 1000,10000,100000]``.

Opens generated levels (:func:`core.level.generate.generate_level`: rooms, corridors,
wall chains, furniture) in a real main window and times what a designer feels:
opening the file, drawing the whole level, pan and zoom frames, picking under
the cursor, select all, moving everything as one undo step, undoing it and
saving; then the process's peak memory. Each size runs in a process of its
own so its peak memory is its own. ``--compare`` also runs the scene index and
item cache configurations the editor did not choose, so that choice stays a
measured one.

:func:`measure_editor` is the per-level measurement other benchmarks import.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsScene  # noqa: E402

from core.level.generate import generate_level  # noqa: E402
from core.level.model import Box, Level  # noqa: E402
from core.level.file_format import save_level  # noqa: E402

#: The keys of :func:`measure_editor`'s result, in table order, with what each one means.
KEYS = {
    "open_s": "open the file: load, build the items, first frame",
    "full_view_s": "redraw with the whole level in view",
    "full_view_image_s": "draw the whole level in view to a QImage",
    "pan_frame_s": "pan frame at 100%",
    "pan_frame_full_s": "pan frame, whole level in view",
    "zoom_frame_s": "zoom frame, whole level in view",
    "zoom_frame_100_s": "zoom frame at 100%",
    "zoom_sweep_max_s": "slowest frame, wheel zoom from whole level to 100%",
    "pick_s": "pick under the cursor",
    "select_all_s": "select all (and its redraw)",
    "move_all_s": "move all: one drag step",
    "move_all_gesture_s": "move all: press, 10 drag steps, release",
    "undo_move_s": "undo the move (and its redraw)",
    "save_s": "save",
    "open_rss_mb": "peak memory once the level is open and drawn (MB)",
    "peak_rss_mb": "peak memory of the process, save included (MB)",
}

#: Checks that ride along with the figures (not timings).
CHECKS = ("objects", "moved_objects", "move_undo_steps", "undo_restored")

#: Viewport size the figures are taken at.
WINDOW_SIZE = (1400, 900)


def big_level(n: int, seed: int = 1) -> Level:
    """A generated level of ``n`` objects (rooms, corridors, furniture)."""
    return generate_level(n, seed=seed)


def _frames(step, count: int) -> list[float]:
    """Seconds of ``count`` frames: ``step(i)``, then the repaint Qt does for it."""
    app = QApplication.instance()
    app.processEvents()
    times = []
    for i in range(count):
        t = time.perf_counter()
        step(i)
        app.processEvents()
        times.append(time.perf_counter() - t)
    return times


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def measure_editor(level: Level, index=None, cache=None, frames: int = 10) -> dict[str, float]:
    """Open ``level`` in a new main window and time the editor at its size.

    Returns seconds under the keys of :data:`KEYS` (``peak_rss_mb`` in MB) plus
    the checks in :data:`CHECKS`: ``objects``, ``moved_objects`` (how many the
    drag moved: all of them), ``move_undo_steps`` (1 when moving everything was
    one undo step) and ``undo_restored`` (1 when undo gave back the level exactly). Frame figures are medians of ``frames``
    frames. ``index`` and ``cache`` override the scene's item index method and
    the items' cache mode (for comparing configurations); by default the
    editor's own choice is measured. Needs a ``QApplication``.
    """
    from editor.main_window import MainWindow

    app = QApplication.instance()
    out: dict[str, float] = {"objects": float(len(level.objects))}
    with tempfile.TemporaryDirectory(prefix="editor-bench-") as tmp:
        path = os.path.join(tmp, "level.json")
        save_level(level, path)
        window = MainWindow(settings=QSettings(os.path.join(tmp, "bench.ini"), QSettings.IniFormat))
        window.ask_unsaved_changes = lambda: "discard"
        window.show_error = lambda *a, **k: None
        window.resize(*WINDOW_SIZE)
        window.show()
        app.processEvents()
        scene, canvas = window.scene, window.canvas
        if index is not None:
            scene.setItemIndexMethod(index)

        t = time.perf_counter()
        window.open_file(path, ask=False)
        if cache is not None:
            for item in scene.object_items():
                item.setCacheMode(cache)
        canvas.viewport().repaint()
        app.processEvents()
        out["open_s"] = time.perf_counter() - t
        out["open_rss_mb"] = peak_rss_mb()
        level = window.document.level

        canvas.fit_level()
        app.processEvents()
        out["full_view_s"] = statistics.median(_frames(lambda i: canvas.viewport().repaint(), frames))

        def draw_image(i):
            # the canvas's own paint, into a pixmap, as a QImage (what a screenshot or a test sees)
            image = canvas.viewport().grab().toImage()
            assert isinstance(image, QImage) and not image.isNull()

        out["full_view_image_s"] = statistics.median(_frames(draw_image, max(3, frames // 2)))
        out["pan_frame_full_s"] = statistics.median(
            _frames(lambda i: canvas.pan_by(12 if i % 2 else -12, 8 if i % 2 else -8), frames))
        base = canvas.zoom()
        out["zoom_frame_s"] = statistics.median(
            _frames(lambda i: canvas.set_zoom(base * (1.25 if i % 2 == 0 else 1.0)), frames))

        # wheel steps from the whole level to 100%, as a designer zooms in on a room
        canvas.set_zoom(base)
        app.processEvents()
        steps = []
        z = base
        while z < 1.0:
            z = min(1.0, z * 1.25)
            steps.append(z)
        sweep = _frames(lambda i: canvas.set_zoom(steps[i]), len(steps)) if steps else [0.0]
        out["zoom_sweep_max_s"] = max(sweep)

        middle = level.objects[len(level.objects) // 2].bounds() if level.objects else (0, 0, 0, 0)
        canvas.set_zoom(1.0)
        canvas.centerOn((middle[0] + middle[2]) / 2, (middle[1] + middle[3]) / 2)
        app.processEvents()
        out["pan_frame_s"] = statistics.median(
            _frames(lambda i: canvas.pan_by(24 if i % 2 else -24, 16 if i % 2 else -16), 2 * frames))
        out["zoom_frame_100_s"] = statistics.median(
            _frames(lambda i: canvas.set_zoom(1.25 if i % 2 == 0 else 1.0), frames))

        r = scene.level_rect()
        picks = [QPointF(r.left() + r.width() * ((i * 0.37) % 1.0), r.top() + r.height() * ((i * 0.53) % 1.0))
                 for i in range(500)]
        t = time.perf_counter()
        for p in picks:
            scene.object_at(p, 4.0)
        out["pick_s"] = (time.perf_counter() - t) / len(picks)

        canvas.fit_level()
        app.processEvents()
        t = time.perf_counter()
        window.select_all()
        app.processEvents()
        out["select_all_s"] = time.perf_counter() - t

        tool = window.tool_named("SelectTool")
        window.set_tool(tool)
        # a box in the middle of the level, far from the spawn, picked as the drag's handle
        boxes = [o for o in level.objects if isinstance(o, Box)]
        box = boxes[len(boxes) // 2] if boxes else None
        moves = 10
        if box is not None:
            start = QPointF(box.origin.x + box.size.x / 2, box.origin.y + box.size.y / 2)
            steps_before = window.undo_stack.count()
            t = time.perf_counter()
            tool.mouse_pressed(start, Qt.LeftButton, Qt.NoModifier)
            step_times = []
            for i in range(1, moves + 1):
                s = time.perf_counter()
                tool.mouse_moved(start + QPointF(16 * i, 16 * i), Qt.LeftButton, Qt.NoModifier)
                app.processEvents()
                step_times.append(time.perf_counter() - s)
            tool.mouse_released(start + QPointF(16 * moves, 16 * moves), Qt.LeftButton, Qt.NoModifier)
            app.processEvents()
            out["move_all_gesture_s"] = time.perf_counter() - t
            out["move_all_s"] = statistics.median(step_times)
            out["move_undo_steps"] = float(window.undo_stack.count() - steps_before)
            out["moved_objects"] = float(sum(a != b for a, b in zip(level.objects, window.document.objects)))

            t = time.perf_counter()
            window.undo_stack.undo()
            app.processEvents()
            out["undo_move_s"] = time.perf_counter() - t
            out["undo_restored"] = float(window.document.level == level)

        t = time.perf_counter()
        window.save_as = lambda: False
        window._save_to(os.path.join(tmp, "saved.json"))
        out["save_s"] = time.perf_counter() - t
        out["peak_rss_mb"] = peak_rss_mb()

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
        return f"{ms:.2f} ms" if ms < 10 else f"{ms:.0f} ms"
    return f"{value:g}"


def print_table(results: dict[str, dict], title: str) -> None:
    """One column per measured level (or configuration), one row per key."""
    rows = list(KEYS) + [c for c in CHECKS]
    labels = {k: f"{k:<19} {KEYS.get(k, '')}" for k in rows}
    width = max(len(v) for v in labels.values())
    names = list(results)
    col = max(12, *(len(n) for n in names))
    print(title)
    print(" " * width + "".join(f" | {n:>{col}}" for n in names))
    print("-" * width + "".join("-+-" + "-" * col for _ in names))
    for k in rows:
        print(f"{labels[k]:<{width}}" + "".join(f" | {_format(k, results[n].get(k)):>{col}}" for n in names))


_CONFIGS = {
    "editor": (None, None),
    "no index": (QGraphicsScene.NoIndex, None),
    "device cache": (None, QGraphicsItem.DeviceCoordinateCache),
}


def _measure_in_child(size: int, config: str, seed: int) -> dict:
    """Run one measurement in a fresh process, so its peak memory is its own."""
    cmd = [sys.executable, "-m", "tests.benchmarks.bench_editor", "--sizes", str(size), "--config", config,
           "--seed", str(seed), "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_editor", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000", help="object counts, comma separated (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--compare", action="store_true",
                        help="also measure the scene index and item cache the editor did not choose")
    parser.add_argument("--config", default="editor", choices=sorted(_CONFIGS), help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print one JSON line (one size only)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    if args.json:
        app = QApplication.instance() or QApplication(sys.argv[:1])
        index, cache = _CONFIGS[args.config]
        result = measure_editor(big_level(sizes[0], args.seed), index, cache)
        print(json.dumps(result))
        del app
        return 0

    configs = list(_CONFIGS) if args.compare else ["editor"]
    platform = os.environ.get("QT_QPA_PLATFORM", "the desktop")
    for config in configs:
        results = {f"{n:,} objects": _measure_in_child(n, config, args.seed) for n in sizes}
        print_table(results, f"editor figures ({config}), generated levels, seed {args.seed}, "
                             f"window {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]}, platform {platform}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
