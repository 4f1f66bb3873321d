"""One wall of hundreds of thousands of nodes in the editor: ``python -m tests.benchmarks.bench_long_wall [--quick]``.

Issue 14 asks that a 300,000-node wall open in the editor without freezing it, and
issue 15 that no frame of panning or zooming take longer than 50 ms and that the
window never freeze for more than 100 ms at a time. Three walls of 2 units'
thickness, each in a level file of its own (as ``/tmp/w/dense.py`` writes them):

- ``zz05``: a zig-zag of teeth 40 units high, a node every half unit along x,
- ``zz2``: the same with a node every 2 units,
- ``walk``: a random walk of steps up to 10 units in x and y.

Each is opened in a real main window, with real mouse and wheel events, and timed:

- opening the file until the wall is on screen, and the longest gap of a 10 ms
  timer meanwhile (the longest the window froze),
- the longest gap of that timer while the level's check then runs on its worker
  thread, and the GUI thread's CPU time in that gap (near zero: the GUI thread
  was waiting for Python's global lock, held by one long call of the check),
- the slowest frame while zooming by wheel from the whole level to 400% and
  back, panning at every zoom,
- selecting the wall by a click and by a rubber band (from the press to the
  frame after the release),
- dragging it (the slowest mouse move of the drag, the release), undo of the drag,
  the first snap after it (the snap points of the wall brought up to date),
- the Edit Nodes tool on it (switching to it, and how many handle items it made),
  and dragging its middle node at 400% (the slowest mouse move),
- deleting it and undoing the delete.

Every figure is taken after the frame it causes is drawn (``viewport().repaint()``);
most steps also give the GUI thread's own CPU time (``time.thread_time``): on a
shared machine the wall-clock figure counts the time other processes had the cores.
Each level is measured in a process of its own; timings on a machine shared with
other work are noisy: ``--repeat N`` prints the range of N runs.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QPointF, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.benchmarks.bench_editor import (  # noqa: E402
    _mouse_move, _timed_frames, _wheel, bench_window, markdown_table,
)


def _frame(step, viewport) -> tuple[float, float]:
    """Seconds of one frame, wall-clock and CPU time of the GUI thread: ``step()``, then the repaint it causes.

    On a machine shared with other work the wall-clock time counts the time other
    processes had the cores; the CPU time is the GUI thread's own work (not the
    check of the level running meanwhile on a thread of its own).
    """
    app = QApplication.instance()
    app.processEvents()
    t, cpu = time.perf_counter(), time.thread_time()
    step()
    viewport.repaint()
    app.processEvents()
    return time.perf_counter() - t, time.thread_time() - cpu


def _frames(step, count: int, viewport) -> tuple[float, float]:
    """The slowest of ``count`` frames ``step(i)``: its wall-clock seconds and, apart, the most GUI CPU one took."""
    frames = [_frame(lambda: step(i), viewport) for i in range(count)]
    return max(f[0] for f in frames), max(f[1] for f in frames)


def _settle(window, meter: "FreezeMeter", limit_s: float = 120.0) -> tuple[float, float]:
    """Wait (serving events) until the level's background check is done; the meter's longest gap meanwhile."""
    app = QApplication.instance()
    meter.start()
    t = time.perf_counter()
    while time.perf_counter() - t < 0.5 or (window.checks.busy and time.perf_counter() - t < limit_s):
        app.processEvents()
        time.sleep(0.002)
    return meter.stop(), meter.longest_cpu

#: The keys of :func:`measure_long_wall`'s result, in table order, with what each one means.
KEYS = {
    "open_s": "open the file until the wall is on screen",
    "open_freeze_s": "longest freeze while opening (10 ms timer's largest gap)",
    "check_freeze_s": "longest freeze while the level's check runs in the background (10 ms timer)",
    "check_freeze_cpu_s": "the same, CPU time of the GUI thread in that gap",
    "zoom_frame_max_s": "slowest frame, wheel zoom whole level <-> 400%",
    "zoom_frame_cpu_s": "the same, CPU time of the GUI thread",
    "pan_frame_max_s": "slowest frame, panning at every zoom",
    "pan_frame_cpu_s": "the same, CPU time of the GUI thread",
    "click_select_s": "select by a click",
    "band_select_s": "select by a rubber band",
    "drag_step_s": "drag the wall: slowest mouse move",
    "drag_step_cpu_s": "the same, CPU time of the GUI thread",
    "drag_release_s": "drag the wall: the release",
    "drag_release_cpu_s": "the same, CPU time of the GUI thread",
    "undo_drag_s": "undo the drag",
    "undo_drag_cpu_s": "the same, CPU time of the GUI thread",
    "snap_after_change_s": "first snap after the undo (snap points brought up to date)",
    "snap_after_change_cpu_s": "the same, CPU time of the GUI thread",
    "node_tool_s": "switch to Edit Nodes on the selected wall",
    "node_tool_cpu_s": "the same, CPU time of the GUI thread",
    "node_drag_step_s": "Edit Nodes at 400%: slowest mouse move dragging one node",
    "node_drag_step_cpu_s": "the same, CPU time of the GUI thread",
    "delete_s": "delete the wall",
    "undo_delete_s": "undo the delete",
    "undo_delete_cpu_s": "the same, CPU time of the GUI thread",
}

#: Checks that ride along with the figures (not timings).
CHECKS = {
    "nodes": "nodes in the wall",
    "click_selected": "the click selected the wall (1: yes)",
    "band_selected": "the rubber band selected the wall (1: yes)",
    "drag_moved": "the drag moved the wall (1: yes)",
    "undo_restored": "undo of the drag gave it back (1: yes)",
    "node_handles": "handles Edit Nodes shows",
    "node_dragged": "dragging a node moved that node only (1: yes)",
    "delete_undone": "undo of the delete gave it back (1: yes)",
}

SHAPES = ("zz05", "zz2", "walk")
SIZES = (30_000, 100_000, 300_000)
QUICK_SIZES = (3_000,)

#: Wheel notches from the whole level to 400% are at most this many (each one a zoom of 1.25).
MAX_CLICKS = 60
#: Pans at each zoom, and mouse moves in the drag.
PANS_PER_ZOOM = 2
DRAG_MOVES = 6


def dense_points(n: int, shape: str) -> list[list[float]]:
    """The nodes of the ``shape`` wall of ``n`` nodes, as ``/tmp/w/dense.py`` makes them."""
    if shape == "zz05":
        return [[1000 + i * 0.5, 1000 + (i % 2) * 40] for i in range(n)]
    if shape == "zz2":
        return [[1000 + i * 2, 1000 + (i % 2) * 40] for i in range(n)]
    if shape == "walk":
        rng = random.Random(1)
        x = y = 5000.0
        points = []
        for _ in range(n):
            x += rng.uniform(-10, 10)
            y += rng.uniform(-10, 10)
            points.append([round(x, 2), round(y, 2)])
        return points
    raise ValueError(f"unknown wall shape {shape!r}: one of {', '.join(SHAPES)}")


def write_level(n: int, shape: str, path: str) -> None:
    """Write a level file holding one 2-unit-thick wall of ``n`` nodes of ``shape``."""
    doc = {"format": "level-editor.level", "version": 2, "name": "d", "grid": 32,
           "layers": [{"id": "main", "name": "Main", "visible": True, "locked": False}],
           "player": {"spawn": [0, 0], "shape": "circle", "radius": 12},
           "objects": [{"id": "dense-wall", "kind": "wall", "layer": "main", "points": dense_points(n, shape),
                        "thickness": 2, "closed": False}]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


class FreezeMeter:
    """A 10 ms timer that remembers the longest gap between its ticks (how long the event loop was held up)."""

    def __init__(self):
        self.longest = 0.0
        #: CPU time of the GUI thread within the longest gap (small: the thread was waiting, e.g. for the GIL)
        self.longest_cpu = 0.0
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if now - self._last > self.longest:
            self.longest, self.longest_cpu = now - self._last, cpu - self._last_cpu
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self.longest = self.longest_cpu = 0.0
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self._timer.start()

    def stop(self) -> float:
        QApplication.processEvents()
        self._tick()
        self._timer.stop()
        return self.longest


def _wall_pixel(window, wall_id: str):
    """A viewport pixel on the wall, nearest the middle of the view."""
    canvas, scene = window.canvas, window.scene
    view = canvas.viewport().rect()
    cx, cy = view.width() // 2, view.height() // 2
    for r in range(0, min(cx, cy)):
        for dx, dy in ((0, r), (0, -r), (r, 0), (-r, 0), (r, r), (-r, -r)):
            pixel = QPoint(cx + dx, cy + dy)
            if scene.object_at(canvas.mapToScene(pixel), 2 / canvas.zoom()) == wall_id:
                return pixel
    return None


def _empty_pixel_near(window, pixel: QPoint):
    """The viewport pixel nearest ``pixel``, at least 12 pixels from it, where nothing is (a rubber band starts there)."""
    canvas, scene = window.canvas, window.scene
    view = canvas.viewport().rect()
    for r in range(12, max(view.width(), view.height()), 4):
        for dx, dy in ((0, -r), (0, r), (-r, 0), (r, 0), (-r, -r), (r, r), (r, -r), (-r, r)):
            near = pixel + QPoint(dx, dy)
            if view.contains(near) and scene.object_at(canvas.mapToScene(near), 4 / canvas.zoom()) is None:
                return near
    return None


def _measure_node_drag(window, wall_id: str, out: dict) -> None:
    """Edit Nodes at 400% about the middle node of the wall: drag that node down, timing each mouse move."""
    app = QApplication.instance()
    canvas, viewport = window.canvas, window.canvas.viewport()
    wall = window.document.get(wall_id)
    index = len(wall.points) // 2
    node = wall.points[index]
    canvas.set_zoom(4.0, QPointF(node.x, node.y))
    canvas.centerOn(QPointF(node.x, node.y))
    app.processEvents()
    pixel = canvas.mapFromScene(QPointF(node.x, node.y))
    QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, pixel)
    app.processEvents()
    out["node_drag_step_s"], out["node_drag_step_cpu_s"] = _frames(
        lambda i: _mouse_move(viewport, pixel + QPoint(0, 10 * (i + 1))), DRAG_MOVES, viewport)
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, pixel + QPoint(0, 10 * DRAG_MOVES))
    app.processEvents()
    after = window.document.get(wall_id).points
    others_kept = after[:index] == wall.points[:index] and after[index + 1:] == wall.points[index + 1:]
    out["node_dragged"] = float(len(after) == len(wall.points) and after[index] != node and others_kept)
    window.undo_stack.undo()
    app.processEvents()
    canvas.fit_level()
    app.processEvents()


def measure_long_wall(path: str) -> dict[str, float]:
    """Open the level file ``path`` (one long wall) in a new main window and time the editor on it."""
    app = QApplication.instance()
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="long-wall-bench-") as tmp:
        window = bench_window(tmp)
        canvas = window.canvas
        viewport = canvas.viewport()

        meter = FreezeMeter()
        meter.start()
        t = time.perf_counter()
        if not window.open_file(path, ask=False):
            raise RuntimeError(f"the editor could not open {path}")
        canvas.fit_level()
        viewport.repaint()
        app.processEvents()
        out["open_s"] = time.perf_counter() - t
        out["open_freeze_s"] = meter.stop()
        # the check of the opened level runs on a thread of its own: does it hold up the GUI thread?
        out["check_freeze_s"], out["check_freeze_cpu_s"] = _settle(window, meter)
        wall = window.document.objects[0]
        wall_id = wall.id
        out["nodes"] = float(len(wall.points))

        # wheel zoom from the whole level to 400% about the middle of the wall and back, panning at every zoom
        canvas.fit_level()
        app.processEvents()
        middle = QPoint(viewport.width() // 2, viewport.height() // 2)
        clicks, z = 0, canvas.zoom()
        while z < 4.0 and clicks < MAX_CLICKS:
            z *= 1.25
            clicks += 1
        zooms, pans = [], []
        for notch in [1] * clicks + [-1] * clicks:
            zooms.append(_frame(lambda: _wheel(viewport, middle, notch), viewport))
            for i in range(PANS_PER_ZOOM):
                pans.append(_frame(lambda: canvas.pan_by(37 if i % 2 else -37, 23 if i % 2 else -23), viewport))
        out["zoom_frame_max_s"] = max(z[0] for z in zooms)
        out["zoom_frame_cpu_s"] = max(z[1] for z in zooms)
        out["pan_frame_max_s"] = max(p[0] for p in pans)
        out["pan_frame_cpu_s"] = max(p[1] for p in pans)

        window.set_tool(window.tool_named("SelectTool"))
        canvas.fit_level()
        app.processEvents()
        # a rubber band from the empty place nearest the wall across it
        start = _wall_pixel(window, wall_id)
        corner = _empty_pixel_near(window, start) if start is not None else None
        if corner is not None:
            past = start + (start - corner) * 0.25 + QPoint(10, 10)
            window.selection.set([])
            app.processEvents()
            t = time.perf_counter()
            QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, corner)
            for k in range(1, 5):
                _mouse_move(viewport, corner + (past - corner) * (k / 4))
                viewport.repaint()
            QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, past)
            viewport.repaint()
            app.processEvents()
            out["band_select_s"] = time.perf_counter() - t
            out["band_selected"] = float(window.selection.ids() == [wall_id])

        window.selection.set([])
        app.processEvents()
        start = _wall_pixel(window, wall_id)
        if start is not None:
            t = time.perf_counter()
            QTest.mouseClick(viewport, Qt.LeftButton, Qt.NoModifier, start)
            viewport.repaint()
            app.processEvents()
            out["click_select_s"] = time.perf_counter() - t
            out["click_selected"] = float(window.selection.ids() == [wall_id])

            before = window.document.get(wall_id)
            QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, start)
            app.processEvents()
            out["drag_step_s"], out["drag_step_cpu_s"] = _frames(
                lambda i: _mouse_move(viewport, start + QPoint(9 * (i + 1), 7 * (i + 1))), DRAG_MOVES, viewport)
            end = start + QPoint(9 * DRAG_MOVES, 7 * DRAG_MOVES)
            out["drag_release_s"], out["drag_release_cpu_s"] = _frames(
                lambda i: QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, end), 1, viewport)
            out["drag_moved"] = float(window.document.get(wall_id).points[0] != before.points[0])
            out["undo_drag_s"], out["undo_drag_cpu_s"] = _frames(lambda i: window.undo_stack.undo(), 1, viewport)
            out["undo_restored"] = float(window.document.get(wall_id) == before)
            snapper = window.context.snapper
            out["snap_after_change_s"], out["snap_after_change_cpu_s"] = _frames(
                lambda i: snapper.snap(canvas.mapToScene(start)), 1, viewport)

            window.selection.set([wall_id])
            app.processEvents()
            node_tool = window.tool_named("NodeTool")
            out["node_tool_s"], out["node_tool_cpu_s"] = _frames(lambda i: window.set_tool(node_tool), 1, viewport)
            out["node_handles"] = float(len(node_tool.handle_positions()))
            _measure_node_drag(window, wall_id, out)
            window.set_tool(window.tool_named("SelectTool"))
            window.selection.set([wall_id])
            app.processEvents()
            out["delete_s"] = _timed_frames(lambda i: window.delete_selection(), 1, viewport)[0]
            out["undo_delete_s"], out["undo_delete_cpu_s"] = _frames(lambda i: window.undo_stack.undo(), 1, viewport)
            out["delete_undone"] = float(window.document.get(wall_id) == before)

        window.close()
        window.deleteLater()
        app.processEvents()
    return out


def column_name(shape: str, n: int) -> str:
    return f"{shape} {n:,}"


def format_table(results: dict[str, list[dict]]) -> str:
    """A Markdown table: a row per key of :data:`KEYS` and :data:`CHECKS`, a column per wall measured."""
    return markdown_table(results, list(KEYS.items()) + list(CHECKS.items()))


def _measure_in_child(path: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_long_wall", "--file", path, "--json"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {path} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_long_wall",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None, help="node counts, comma separated (default 30000,100000,300000)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="wall shapes, comma separated (zz05,zz2,walk)")
    parser.add_argument("--quick", action="store_true", help=f"walls of {QUICK_SIZES[0]:,} nodes: a few seconds")
    parser.add_argument("--repeat", type=int, default=1, help="measure each wall this many times, print the range")
    parser.add_argument("--file", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.file:
        app = QApplication.instance() or QApplication([])  # noqa: F841 - kept alive while measuring
        print(json.dumps(measure_long_wall(args.file)))
        return 0

    sizes = QUICK_SIZES if args.quick else tuple(int(s) for s in (args.sizes or "").split(",") if s) or SIZES
    shapes = [s for s in args.shapes.split(",") if s]
    for shape in shapes:
        if shape not in SHAPES:
            parser.error(f"unknown wall shape {shape!r}: one of {', '.join(SHAPES)}")
    results: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory(prefix="long-wall-levels-") as tmp:
        for shape in shapes:
            for n in sizes:
                path = os.path.join(tmp, f"{shape}-{n}.json")
                write_level(n, shape, path)
                runs = results[column_name(shape, n)] = []
                for _ in range(max(1, args.repeat)):
                    runs.append(_measure_in_child(path))
                print(f"measured {column_name(shape, n)}", file=sys.stderr, flush=True)
    print(format_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
