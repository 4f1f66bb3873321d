"""Every figure that matters at every size, in one command: ``python -m tests.benchmarks.bench_all``.

For generated levels (:func:`level_editor.core.level.generate.generate_level`: rooms, corridors,
wall chains, furniture) of 1,000, 10,000 and 100,000 objects it times

- saving the file (hulls computed, written atomically) and loading it back,
- validating the level and building its hulls,
- opening it in the editor (:func:`tests.benchmarks.bench_editor.measure_editor`, in a process
  of its own per size),
- a play-test tick and the play-test's start (building the collision world),
  with :func:`tests.benchmarks.bench_collision.benchmark_rows` on its constant-density levels,

prints one table, draws time against level size (log-log, one line per
measure) into a PNG, and reports the peak memory of ``level-editor check`` and
of the editor with the biggest level open, each run as a child process whose
own peak is read with ``os.wait4``
(through a small go-between process, see :data:`_GO_BETWEEN`)::

    python -m tests.benchmarks.bench_all                       # 1,000 / 10,000 / 100,000 objects (a few minutes)
    python -m tests.benchmarks.bench_all --quick -o /tmp/s.png # 100 and 1,000 objects
    python -m tests.benchmarks.bench_all --sizes 500 5000

The plot needs matplotlib (``pip install -e .[bench]``); without it the
table is still printed. It lives in editor/ because it measures the editor
too; core stays free of Qt.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (100, 1_000)
DEFAULT_PLOT = os.path.join("bench-out", "scaling.png")

#: The timed measures: key, label in the table and on the plot.
MEASURES = (
    ("load_s", "load the file"),
    ("validate_s", "validate + hulls"),
    ("save_s", "save (hulls, atomic)"),
    ("editor_open_s", "open in the editor"),
    ("playtest_start_s", "play-test start (world)"),
    ("tick_s", "play-test tick"),
)


@dataclass
class SizeResult:
    """Everything measured on one level size; times in seconds."""

    objects: int
    times: dict[str, float] = field(default_factory=dict)
    file_mb: float = 0.0
    problems: int = 0
    #: Peak memory of the editor benchmark's process (open, pan, zoom, move all, undo, save).
    editor_peak_mb: float = 0.0


@dataclass(frozen=True)
class ChildRun:
    """A finished child process: its exit code, what it printed, its own peak memory."""

    returncode: int
    stdout: str
    stderr: str
    peak_mb: float


#: A small go-between that starts the measured command and writes its rusage to a file. Linux counts the
#: memory a child was forked with (its parent's) in the child's ru_maxrss, so a child started straight from
#: this benchmark, grown big on 100,000 objects, would report the benchmark's size, not its own.
_GO_BETWEEN = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(f"{usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def run_child(cmd: Sequence[str], env: Optional[dict] = None) -> ChildRun:
    """Run ``cmd`` and read its own peak memory (``os.wait4`` in a small go-between process)."""
    with tempfile.TemporaryDirectory(prefix="bench-child-") as tmp, \
            tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        usage_file = os.path.join(tmp, "usage")
        proc = subprocess.Popen([sys.executable, "-c", _GO_BETWEEN, usage_file, *cmd], stdout=out, stderr=err,
                                env=env)
        proc.wait()
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
        try:
            with open(usage_file) as f:
                maxrss, returncode = (int(v) for v in f.read().split())
        except (OSError, ValueError):
            maxrss, returncode = 0, proc.returncode or 1
    # Linux reports KiB, macOS bytes.
    peak = maxrss / (1024 * 1024) if sys.platform == "darwin" else maxrss / 1024
    return ChildRun(returncode, stdout, stderr, peak)


def _timed(fn, *args):
    t = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - t


def measure_size(n: int, folder: str, seed: int = 1, ticks: int = 600, log=print) -> SizeResult:
    """Time saving, loading, validating, opening in the editor and a play-test on ``n`` objects."""
    from tests.benchmarks.bench_collision import benchmark_rows
    from level_editor.core.level.generate import generate_level
    from level_editor.core.checks.hulls import level_hulls
    from level_editor.core.level.file_format import load_level, save_level
    from level_editor.core.checks.validation import validate_level

    result = SizeResult(n)
    level = generate_level(n, seed=seed)
    path = os.path.join(folder, f"level-{n}.json")
    log(f"  {n:,} objects: save, load")
    _, result.times["save_s"] = _timed(save_level, level, path)
    result.file_mb = os.path.getsize(path) / 1e6
    loaded, result.times["load_s"] = _timed(load_level, path)
    if loaded != level:
        raise RuntimeError(f"{path} did not load back as it was saved")
    log(f"  {n:,} objects: validate + hulls")

    def validate_and_hulls():
        problems = list(validate_level(loaded))
        level_hulls(loaded)
        return problems

    problems, result.times["validate_s"] = _timed(validate_and_hulls)
    result.problems = len(problems)
    log(f"  {n:,} objects: editor (own process)")
    editor = editor_figures(n, seed)
    result.times["editor_open_s"] = editor["open_s"]
    result.editor_peak_mb = editor["child_peak_mb"]
    log(f"  {n:,} objects: play-test, {ticks} ticks")
    row, = benchmark_rows([n], shapes=("circle",), ticks=ticks, seed=seed)
    result.times["playtest_start_s"] = row.build_seconds
    result.times["tick_s"] = row.tick_seconds / row.ticks
    return result


def editor_figures(n: int, seed: int) -> dict:
    """:func:`tests.benchmarks.bench_editor.measure_editor` on a generated level of ``n`` objects, in a fresh process."""
    child = run_child([sys.executable, "-m", "tests.benchmarks.bench_all", "--editor-figures", str(n), "--seed", str(seed)])
    if child.returncode != 0:
        raise RuntimeError(f"the editor measurement of {n} objects failed:\n{child.stderr}")
    figures = json.loads(child.stdout.strip().splitlines()[-1])
    figures["child_peak_mb"] = child.peak_mb
    return figures


def peak_memory(path: str) -> dict[str, ChildRun]:
    """Peak memory of ``level-editor check PATH`` and of the editor with PATH open (each its own process)."""
    check = run_child([sys.executable, "-m", "level_editor.editor.launcher", "check", path])
    if check.returncode not in (0, 1):
        raise RuntimeError(f"level-editor check {path} failed:\n{check.stderr}{check.stdout}")
    editor = run_child([sys.executable, "-m", "tests.benchmarks.bench_all", "--open-only", path])
    if editor.returncode != 0:
        raise RuntimeError(f"the editor could not open {path}:\n{editor.stderr}")
    return {"check": check, "editor": editor}


def _open_only(path: str) -> int:
    """The editor with ``path`` open and drawn once, then gone: the child :func:`peak_memory` watches."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from level_editor.editor.window.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory(prefix="bench-all-") as tmp:
        window = MainWindow(settings=QSettings(os.path.join(tmp, "bench.ini"), QSettings.IniFormat))
        window.resize(1400, 900)
        window.show()
        if not window.open_file(path, ask=False):
            return 2
        window.canvas.fit_level()
        window.canvas.viewport().repaint()
        app.processEvents()
        objects = len(window.document)
        window.close()
    print(json.dumps({"objects": objects}))
    return 0


def _editor_figures_json(n: int, seed: int) -> int:
    from PySide6.QtWidgets import QApplication

    from level_editor.core.level.generate import generate_level
    from tests.benchmarks.bench_editor import measure_editor

    app = QApplication.instance() or QApplication(sys.argv[:1])
    figures = measure_editor(generate_level(n, seed=seed))
    print(json.dumps(figures))
    del app
    return 0


def format_time(seconds: float) -> str:
    """Seconds in the unit that reads best: ``850 µs``, ``12.3 ms``, ``4.56 s``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def format_table(results: Sequence[SizeResult]) -> str:
    """The figures as a Markdown table: one row per measure, one column per size."""
    head = "| measure | " + " | ".join(f"{r.objects:,} objects" for r in results) + " |"
    rule = "|---|" + "|".join("--:" for _ in results) + "|"
    lines = [head, rule]
    for key, label in MEASURES:
        lines.append(f"| {label} | " + " | ".join(format_time(r.times[key]) for r in results) + " |")
    lines.append("| file size | " + " | ".join(f"{r.file_mb:.1f} MB" for r in results) + " |")
    lines.append("| problems found | " + " | ".join(str(r.problems) for r in results) + " |")
    return "\n".join(lines)


def format_memory(objects: int, runs: dict[str, ChildRun], editor_session_mb: Optional[float]) -> str:
    lines = [
        f"| peak memory, {objects:,}-object level | MB |",
        "|---|--:|",
        f"| `level-editor check` (exit {runs['check'].returncode}) | {runs['check'].peak_mb:.0f} |",
        f"| editor with the level open | {runs['editor'].peak_mb:.0f} |",
    ]
    if editor_session_mb is not None:
        lines.append(f"| editor after the whole editor benchmark (open, pan, zoom, move all, undo, save) "
                     f"| {editor_session_mb:.0f} |")
    return "\n".join(lines)


def plot(results: Sequence[SizeResult], path: str) -> bool:
    """Draw time against level size, log-log, into ``path``; False when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r.objects for r in results]
    fig, ax = plt.subplots(figsize=(10, 5.5), dpi=110)
    markers = "osD^vP"
    for (key, label), marker in zip(MEASURES, markers):
        ax.loglog(sizes, [r.times[key] for r in results], marker=marker, label=label, linewidth=1.6)
    lo, hi = min(sizes), max(sizes)
    if hi > lo:  # a guide: what growing in proportion to the size looks like
        ref = max(r.times["load_s"] for r in results if r.objects == lo)
        ax.loglog([lo, hi], [ref, ref * hi / lo], color="0.6", linestyle=":", linewidth=1, label="∝ size (guide)")
    ax.axhline(1 / 60, color="0.45", linestyle="--", linewidth=1, label="one frame at 60 Hz")
    ax.set_xlabel("objects in the level")
    ax.set_ylabel("time (s)")
    ax.set_title("Level editor: time against level size")
    ax.set_xticks(sizes)
    ax.set_xticklabels([f"{s:,}" for s in sizes])
    ax.minorticks_off()
    ax.grid(True, which="major", linestyle="-", alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize=9, frameon=False)
    fig.tight_layout()
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return True


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(s.replace("_", "")) for s in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes must be whole numbers: {text!r}") from None
    if not sizes or any(s < 1 for s in sizes):
        raise argparse.ArgumentTypeError(f"sizes must be 1 or more: {text!r}")
    return sorted(set(sizes))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_all", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=_sizes, default=None, metavar="N[,N...]",
                        help="level sizes in objects (default 1000,10000,100000)")
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 objects only")
    parser.add_argument("-o", "--output", default=DEFAULT_PLOT, help=f"the plot (default {DEFAULT_PLOT})")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--ticks", type=int, default=600, help="play-test ticks per size (default 600)")
    parser.add_argument("--open-only", metavar="LEVEL", help=argparse.SUPPRESS)
    parser.add_argument("--editor-figures", type=int, metavar="N", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.open_only:
        return _open_only(args.open_only)
    if args.editor_figures is not None:
        return _editor_figures_json(args.editor_figures, args.seed)

    sizes = list(QUICK_SIZES) if args.quick else (args.sizes or list(SIZES))
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731 - progress, kept off the table
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-all-") as folder:
        results = []
        for n in sizes:
            results.append(measure_size(n, folder, args.seed, args.ticks, log))
        biggest = max(sizes)
        log(f"  peak memory on {biggest:,} objects")
        runs = peak_memory(os.path.join(folder, f"level-{biggest}.json"))
        session = results[-1].editor_peak_mb
    platform = os.environ.get("QT_QPA_PLATFORM", "the desktop")
    print(f"Generated levels (seed {args.seed}), Python {sys.version.split()[0]}, Qt platform {platform}, "
          f"{os.cpu_count()} CPUs; play-test: circle player, {args.ticks} ticks (tests.benchmarks.bench_collision levels)")
    print()
    print(format_table(results))
    print()
    print(format_memory(biggest, runs, session))
    print()
    if plot(results, args.output):
        print(f"plot: {args.output}")
    else:
        print("plot: not drawn, it needs matplotlib: pip install -e .[bench]")
    print(f"(took {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
