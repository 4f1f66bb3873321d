"""Editor figures at scale: ``python -m editor.bench [--objects N]``.

Opens a level of N objects (10,000 by default) in a real main window and
times what a designer feels: opening, drawing the whole view, pan and zoom
frames, picking, select all, moving everything as one undo step, and undo.
It runs once per scene configuration (item index and item cache) so the
choice made in editor/scene.py stays a measured one, and prints a table.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, QRectF, QSettings, QTemporaryDir, Qt  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsScene  # noqa: E402

from core.level import Box, Level, OrientedBox, Pillar, Player, Wall  # noqa: E402


def big_level(n: int) -> Level:
    """``n`` objects, a quarter of each kind, on a square grid of 48-unit cells."""
    side = max(1, int(n ** 0.5 + 0.999))
    objects = []
    for i in range(n):
        x, y = (i % side) * 48.0, (i // side) * 48.0
        k = i % 4
        if k == 0:
            objects.append(Wall(f"wall-{i}", [(x, y), (x + 32, y), (x + 32, y + 24)], 6, False))
        elif k == 1:
            objects.append(Box(f"box-{i}", (x + 4, y + 4), (32, 24)))
        elif k == 2:
            objects.append(OrientedBox(f"obox-{i}", (x + 20, y + 20), (16, 6), (i * 7) % 180))
        else:
            objects.append(Pillar(f"pillar-{i}", (x + 20, y + 20), 12))
    return Level(name=f"{n} objects", grid=16, player=Player(spawn=(-64, -64)), objects=tuple(objects))


def _ms(seconds: float) -> float:
    return seconds * 1000.0


def _frames(canvas, step, count: int) -> float:
    """Median milliseconds of ``count`` frames: ``step(i)`` then whatever repaint Qt does for it."""
    times = []
    app = QApplication.instance()
    app.processEvents()
    for i in range(count):
        t = time.perf_counter()
        step(i)
        app.processEvents()
        times.append(time.perf_counter() - t)
    return _ms(statistics.median(times))


def measure(n: int, index, cache, settings_dir: str) -> dict[str, float]:
    from editor.main_window import MainWindow

    app = QApplication.instance()
    out: dict[str, float] = {}
    window = MainWindow(settings=QSettings(os.path.join(settings_dir, "bench.ini"), QSettings.IniFormat))
    window.ask_unsaved_changes = lambda: "discard"
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    level = big_level(n)

    t = time.perf_counter()
    window.scene.setItemIndexMethod(index)
    window._set_level(level, None)
    for item in window.scene.object_items():
        item.setCacheMode(cache)
    app.processEvents()
    out["open level (ms)"] = _ms(time.perf_counter() - t)

    scene, canvas = window.scene, window.canvas
    image = QImage(1600, 1000, QImage.Format_ARGB32_Premultiplied)
    t = time.perf_counter()
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing)
    scene.render(painter, QRectF(image.rect()), scene.level_rect())
    painter.end()
    out["draw whole level to QImage (ms)"] = _ms(time.perf_counter() - t)

    canvas.fit_level()
    app.processEvents()
    out["frame, whole level in view (ms)"] = _frames(canvas, lambda i: canvas.viewport().update(), 5)
    out["pan frame, whole level (ms)"] = _frames(canvas, lambda i: canvas.pan_by(12 if i % 2 else -12, 8), 10)
    base = canvas.zoom()
    out["zoom frame, whole level (ms)"] = _frames(
        canvas, lambda i: canvas.set_zoom(base * (1.25 if i % 2 == 0 else 1.0)), 10)
    canvas.set_zoom(1.0)
    canvas.centerOn(level.objects[n // 2].bounds()[0], level.objects[n // 2].bounds()[1])
    app.processEvents()
    out["pan frame at 100% (ms)"] = _frames(canvas, lambda i: canvas.pan_by(24 if i % 2 else -24, 16), 20)

    picks = [QPointF((i * 37) % 4800, (i * 53) % 4800) for i in range(500)]
    t = time.perf_counter()
    for p in picks:
        scene.object_at(p, 4.0)
    out["pick under cursor (ms)"] = _ms((time.perf_counter() - t) / len(picks))

    t = time.perf_counter()
    window.select_all()
    app.processEvents()
    out["select all (ms)"] = _ms(time.perf_counter() - t)

    tool = window.tool
    first = level.objects[1]  # a box: press inside it
    start = QPointF(first.origin.x + 8, first.origin.y + 8)
    moves = 10
    t = time.perf_counter()
    tool.mouse_pressed(start, Qt.LeftButton, Qt.NoModifier)
    for i in range(1, moves + 1):
        tool.mouse_moved(start + QPointF(16 * i, 16 * i), Qt.LeftButton, Qt.NoModifier)
    tool.mouse_released(start + QPointF(16 * moves, 16 * moves), Qt.LeftButton, Qt.NoModifier)
    app.processEvents()
    elapsed = time.perf_counter() - t
    steps = window.undo_stack.count()
    moved = window.document.objects[1].origin.x - first.origin.x
    out["move all: one drag step (ms)"] = _ms(elapsed / moves)
    out["move all: undo steps"] = float(steps)
    out["move all: moved by (units)"] = moved

    t = time.perf_counter()
    window.undo_stack.undo()
    app.processEvents()
    out["undo the move (ms)"] = _ms(time.perf_counter() - t)
    out["undo restored the level"] = float(window.document.level == level)

    window.close()
    window.deleteLater()
    app.processEvents()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m editor.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=10000, help="how many objects (default 10000)")
    parser.add_argument("--quick", action="store_true", help="only the configuration the editor uses")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    configs = [("BSP index, no cache", QGraphicsScene.BspTreeIndex, QGraphicsItem.NoCache)]
    if not args.quick:
        configs += [
            ("no index, no cache", QGraphicsScene.NoIndex, QGraphicsItem.NoCache),
            ("BSP index, device cache", QGraphicsScene.BspTreeIndex, QGraphicsItem.DeviceCoordinateCache),
        ]
    tmp = QTemporaryDir()
    results = [(name, measure(args.objects, index, cache, tmp.path())) for name, index, cache in configs]
    rows = list(results[0][1])
    width = max(len(r) for r in rows)
    print(f"editor figures, {args.objects} objects, platform {app.platformName()}")
    print(" " * width + "".join(f" | {name:>24}" for name, _ in results))
    print("-" * width + "".join("-+-" + "-" * 24 for _ in results))
    for row in rows:
        print(f"{row:<{width}}" + "".join(f" | {res[row]:>24.2f}" for _, res in results))
    print("(the editor uses the first column's configuration)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
