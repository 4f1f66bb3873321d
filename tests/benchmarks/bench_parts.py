"""The editor's parts at scale, without a window: ``python -m tests.benchmarks.bench_parts [--sizes 10000,100000]``.

What the tests check does the right thing at any size, this times at sizes where speed shows (issue 22 moved
these figures here out of the tests, where a busy machine made them fail):

- layers on the canvas (editor/canvas/scene.py): locking a layer, hiding a layer of one object, renaming a layer,
  restacking two layers, on a scene of N boxes, and how many items each change touched,
- the object list (editor/panels/object_list.py): filtering by a name, sorting by name,
- problem badges (editor/panels/problem_badges.py): one object in a thousand wrong, then every object wrong,
- snapping (editor/canvas/snapping.py): one snap among N boxes and walls, and one step of a drag (a move of one
  object pushed as a command, then a snap beside it),
- a closed wall of N / 5 nodes: making its item, and its outline (a minute in QPainterPath.simplified() once).

Times are the best of ``--runs`` runs (3 by default), on whatever else the machine is doing: compare columns
of one run. ``--quick`` measures small sizes in a few seconds (what CI runs, see test_bench_parts.py);
``--repeat N`` measures N times and prints each figure's range.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from dataclasses import replace

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QGraphicsScene  # noqa: E402

from level_editor.core.level.document import LevelDocument  # noqa: E402
from level_editor.core.level.model import Box, Layer, Level, Wall  # noqa: E402
from level_editor.core.level.problems import ERROR, WARNING, Problem  # noqa: E402
from tests.benchmarks.bench_editor import _cell  # noqa: E402

#: The keys of :func:`measure_parts`'s result, in table order, with what each one means (seconds).
KEYS = {
    "layer_lock_s": "lock a layer (nothing on screen changes)",
    "layer_hide_s": "hide a layer holding one object",
    "layer_rename_s": "rename a layer",
    "layer_restack_s": "restack two layers (every object's place)",
    "list_filter_s": "object list: filter by a name",
    "list_sort_s": "object list: sort by name, descending",
    "badges_some_s": "problem badges: one object in 1,000 wrong",
    "badges_all_s": "problem badges: every object wrong",
    "snap_s": "snap: one query",
    "snap_drag_step_s": "snap: one drag step (move one object, snap beside it)",
    "ring_item_s": "a closed wall of N / 5 nodes: make its item",
    "ring_outline_s": "a closed wall of N / 5 nodes: its outline (the first shape())",
}

#: Checks that ride along with the figures (not timings).
CHECKS = {
    "objects": "objects",
    "layer_lock_touched": "items the lock touched",
    "layer_hide_touched": "items the hide touched",
    "layer_rename_touched": "items the rename touched",
    "list_filter_rows": "rows the filter left",
    "badges_all_shown": "badges shown with every object wrong",
}

SIZES = (10_000, 100_000)
QUICK_SIZES = (500, 2_000)


def _best(function, runs: int) -> float:
    """The shortest of ``runs`` calls of ``function()``, in seconds."""
    best = math.inf
    for _ in range(runs):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def _boxes(n: int, layer_of=lambda i: "") -> tuple:
    return tuple(Box(f"box-{i}", ((i % 400) * 20.0, (i // 400) * 20.0), (10.0, 10.0), layer=layer_of(i))
                 for i in range(n))


def measure_layers(n: int, runs: int) -> dict:
    """Layer changes on a scene of ``n`` boxes, one of them alone on the bottom layer; items touched by each."""
    from level_editor.editor.canvas.scene import LevelScene
    from level_editor.editor.items.layer_item import LayerItem

    layers = (Layer("small", "Small"), Layer("big", "Big"))
    doc = LevelDocument(Level(layers=layers, objects=_boxes(n, lambda i: "big" if i else "small")))
    scene = LevelScene(doc)
    item_class = type(scene.item("box-0"))
    touched: list[str] = []  # an object's id, or "layer:" and a layer's id (the parent item of its objects)
    real = {(cls, name): getattr(cls, name) for cls in (item_class, LayerItem) for name in ("setVisible", "setZValue")}

    def counting(cls, name):
        def call(item, value):
            touched.append(getattr(item, "object_id", None) or f"layer:{item.layer_id}")
            return real[cls, name](item, value)
        return call

    out: dict = {}

    def timed(key, change_to, back_to):
        """Best of ``runs``: the change (timed), then back (not timed); items touched by the first change."""
        best = math.inf
        for run in range(runs):
            touched.clear()
            started = time.perf_counter()
            doc.set_layers(change_to)
            best = min(best, time.perf_counter() - started)
            if run == 0:
                out[key.replace("_s", "_touched")] = float(len(set(touched)))
            doc.set_layers(back_to)
        out[key] = best

    for cls, name in real:
        setattr(cls, name, counting(cls, name))
    try:
        small, big = doc.level.layers
        timed("layer_lock_s", [small, replace(big, locked=True)], [small, big])
        timed("layer_hide_s", [replace(small, visible=False), big], [small, big])
        timed("layer_rename_s", [replace(small, name="Tiny"), big], [small, big])
        timed("layer_restack_s", [big, small], [small, big])
    finally:
        for (cls, name), function in real.items():
            setattr(cls, name, function)
    del out["layer_restack_touched"]
    scene.clear()
    return out


def measure_object_list(n: int, runs: int) -> dict:
    from level_editor.editor.panels.object_list import NAME, ObjectListModel

    objects = tuple(Box(f"box-{i}", (i * 20.0, 0.0), (10.0, 10.0), type="crate" if i % 10 else "") for i in range(n))
    model = ObjectListModel(LevelDocument(Level(objects=objects)))
    name = f"box-{n // 10 - 1}"
    out = {"list_filter_s": _best(lambda: (model.set_filter(""), model.set_filter(name)), runs)}
    out["list_filter_rows"] = float(model.rowCount())
    model.set_filter("")
    out["list_sort_s"] = _best(lambda: (model.sort(NAME, Qt.AscendingOrder), model.sort(NAME, Qt.DescendingOrder)),
                               runs)
    return out


def measure_badges(n: int, runs: int) -> dict:
    from level_editor.editor.panels.problem_badges import ProblemBadges

    document = LevelDocument(Level(objects=_boxes(n)))
    scene = QGraphicsScene()
    badges = ProblemBadges(document, scene)
    some = [Problem(f"box-{i}", "too close", WARNING) for i in range(0, n, 1000)]
    everything = [Problem(f"box-{i}", "bad", ERROR if i % 2 else WARNING) for i in range(n)]
    out = {"badges_some_s": _best(lambda: (badges.show_problems(None), badges.show_problems(some)), runs),
           "badges_all_s": _best(lambda: (badges.show_problems(None), badges.show_problems(everything)), runs)}
    out["badges_all_shown"] = float(len(badges))
    badges.show_problems(None)
    return out


def measure_snapping(n: int, runs: int) -> dict:
    from level_editor.editor.canvas.context import EditorContext
    from level_editor.editor.commands.objects import AddObjectsCommand, ChangeObjectsCommand

    rng = random.Random(7)
    side = 8000.0 * math.sqrt(n / 10_000)  # the density of 10,000 objects on 8,000 x 8,000
    objects = []
    for i in range(n):
        x, y = rng.uniform(0, side), rng.uniform(0, side)
        if i % 2:
            objects.append(Box(f"box-{i}", (x, y), (rng.uniform(4, 40), rng.uniform(4, 40))))
        else:
            objects.append(Wall(f"wall-{i}", [(x, y), (x + 30, y), (x + 30, y + 20)], 4))
    doc = LevelDocument(Level(name="snap", grid=16))
    scene = QGraphicsScene()
    ctx = EditorContext(doc, scene)
    ctx.push(AddObjectsCommand(doc, objects))
    ctx.snap(QPointF(0, 0))  # the points are gathered once
    queries = [QPointF(rng.uniform(0, side), rng.uniform(0, side)) for _ in range(200)]
    out = {"snap_s": _best(lambda: [ctx.snap(q) for q in queries], runs) / len(queries)}
    moving = [objects[n // 2 + 1]]

    def drag(steps=50):
        for _ in range(steps):
            current = moving[-1]
            moved = current.moved(1, 0)
            ctx.push(ChangeObjectsCommand(doc, [current], [moved], "Move box", gesture=123456))
            ctx.snap(QPointF(moved.origin.x + 1, moved.origin.y + 1), exclude=[moved.id])
            moving.append(moved)

    out["snap_drag_step_s"] = _best(drag, runs) / 50
    ctx.undo_stack.clear()
    del scene
    return out


def measure_ring(n: int, runs: int) -> dict:
    from level_editor.editor.items.wall_item import WallItem

    nodes = max(3, n // 5)

    def ring(radius: float) -> Wall:
        return Wall("ring", [(radius * math.cos(2 * math.pi * i / nodes), radius * math.sin(2 * math.pi * i / nodes))
                             for i in range(nodes)], 8, True)

    wall = ring(2000.0)
    out = {"ring_item_s": _best(lambda: WallItem(wall), runs)}
    best = math.inf
    for run in range(runs):
        item = WallItem(ring(2000.0 + run + 1))  # a ring of its own each run: outlines of equal walls are shared
        started = time.perf_counter()
        item.shape()
        best = min(best, time.perf_counter() - started)
    out["ring_outline_s"] = best
    return out


def measure_parts(n: int, runs: int = 3) -> dict:
    """Every figure of :data:`KEYS` and :data:`CHECKS` at ``n`` objects (seconds; best of ``runs``)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])  # noqa: F841 - kept while measuring
    out = {"objects": float(n)}
    for measure in (measure_layers, measure_object_list, measure_badges, measure_snapping, measure_ring):
        out.update(measure(n, runs))
    return out


def format_table(results: dict[str, list[dict]]) -> str:
    """A Markdown table: a row per key of :data:`KEYS` and :data:`CHECKS`, a column per size measured."""
    names = list(results)
    lines = ["| measure | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for key, label in list(KEYS.items()) + list(CHECKS.items()):
        lines.append(f"| {label} | " + " | ".join(_cell(key, results[n]) for n in names) + " |")
    return "\n".join(lines)


def column_name(n: int) -> str:
    return f"{n:,} objects"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_parts", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None, help="object counts, comma separated (default 10000,100000)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SIZES[0]} and {QUICK_SIZES[1]} objects, one run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure, the best kept (default 3)")
    parser.add_argument("--repeat", type=int, default=1, help="measure each size this many times, print the range")
    args = parser.parse_args(argv)
    if args.sizes:
        sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    else:
        sizes = list(QUICK_SIZES if args.quick else SIZES)
    if not sizes or any(n <= 0 for n in sizes) or args.runs < 1:
        parser.error("--sizes takes positive object counts, e.g. 10000,100000, and --runs at least 1")
    runs = 1 if args.quick else args.runs
    results = {column_name(n): [measure_parts(n, runs) for _ in range(max(1, args.repeat))] for n in sizes}
    print(f"the editor's parts, best of {runs} run(s), {max(1, args.repeat)} measurement(s) per size")
    print()
    print(format_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
