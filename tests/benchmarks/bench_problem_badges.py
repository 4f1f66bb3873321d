"""Problem badges at scale: ``python -m tests.benchmarks.bench_problem_badges [--objects 100000]``.

Opens a generated level in a real main window and times, with 0, 100 and 2,000
badges on the canvas: showing the check's results, a repaint of the canvas, a
pick under the cursor (``LevelScene.object_at``) and a zoom step. ``--compare``
also times the same badges made with ``ItemIgnoresTransformations`` (Qt's usual
way to keep an item's size on screen), which the editor does not use: Qt tests
such items on every scene query, outside its index (see
editor/items/problem_badge_item.py). Timings are the best of a few runs; on a
shared machine they are noisy, so compare columns of one run.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication, QGraphicsItem  # noqa: E402

from level_editor.core.level.generate import generate_level  # noqa: E402
from level_editor.core.level.problems import ERROR, WARNING, Problem  # noqa: E402


def _best(function, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=100_000)
    parser.add_argument("--compare", action="store_true", help="also time ItemIgnoresTransformations badges")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv)
    from level_editor.editor.window.main_window import MainWindow

    window = MainWindow(settings=QSettings(os.devnull, QSettings.IniFormat))
    window.resize(1280, 800)
    window.show()
    level = generate_level(args.objects, seed=1)
    window.set_level(level)
    app.processEvents()
    window.checks.close()  # no more checks: their results would replace the ones timed here
    ids = [o.id for o in level.objects]
    anchor = level.objects[len(ids) // 2].bounds()
    modes = [("scaled with the zoom (the editor's)", False)] + ([("ItemIgnoresTransformations", True)]
                                                               if args.compare else [])
    print(f"{args.objects:,} objects")
    print(f"{'badges':>7} {'how':<36} {'show ms':>8} {'repaint ms':>10} {'pick us':>8} {'zoom step ms':>12}")
    for label, ignore in modes:
        for count in (0, 100, 2000):
            window.canvas.set_zoom(1.0)
            window.canvas.centerOn(QPointF(anchor[0], anchor[1]))
            problems = [Problem(ids[i * (len(ids) // max(count, 1))], "bad", ERROR if i % 2 else WARNING)
                        for i in range(count)]
            window.problems_dock.set_problems([])
            started = time.perf_counter()
            window.problems_dock.set_problems(problems)
            if ignore:
                for oid in window.problems_dock.badges.ids():
                    badge = window.problems_dock.badges.badge(oid)
                    badge.setScale(1.0)
                    badge.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
            app.processEvents()
            shown = time.perf_counter() - started
            repaint = _best(window.canvas.viewport().repaint, 5)
            spot = QPointF(anchor[0] + 1, anchor[1] + 1)
            pick = _best(lambda: [window.scene.object_at(spot, 2.0) for _ in range(50)], 3) / 50
            zooms = iter([0.5, 1.0] * 10)
            zoom = _best(lambda: window.canvas.set_zoom(next(zooms)), 6) if not ignore else float("nan")
            print(f"{count:>7} {label:<36} {shown * 1e3:>8.1f} {repaint * 1e3:>10.1f} {pick * 1e6:>8.1f} "
                  f"{zoom * 1e3:>12.1f}")
    window.problems_dock.set_problems([])
    window.close()


if __name__ == "__main__":
    main()
