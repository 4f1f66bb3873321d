"""Level files at scale, beside the standard library: ``python -m tests.benchmarks.bench_files``.

For generated levels of 10,000 and 100,000 objects, exported once so that the
file carries its hulls (as every saved level does), it prints one table:

- the file's size,
- the reference: the standard library's ``json.load`` of the same file,
- our load (:func:`level_editor.core.level.file_format.load_level`: checked, with the model built),
- ``level-editor check`` and ``level-editor export`` as the build scripts run them,
- the editor's save path: hulls computed as the editor's save computes them for a large level not
  checked yet (:func:`level_editor.core.checks.check.level_hulls_only`; its problems are found afterwards, in the
  background) and the file written (:func:`level_editor.core.level.file_format.save_level`, streamed),

each as a child process of its own (so the times include starting Python and its imports, the same for the
reference), with its wall time and its own peak memory (``os.wait4``, see
:func:`tests.benchmarks.bench_all.run_child`), the best of ``--repeat`` runs; and for ``check`` and ``export``
the time per object at the largest size over the time per object at the smallest (1.0: linear).

    python -m tests.benchmarks.bench_files                  # 10,000 and 100,000 objects, best of 3
    python -m tests.benchmarks.bench_files --sizes 1000 10000 --repeat 1

Timings taken while other work runs on the machine are noisy: repeat, and compare the columns of one run.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Optional, Sequence

from tests.benchmarks.bench_all import run_child

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIZES = (10_000, 100_000)

#: Each measured step, run as ``python -c STEP PATH OUT``; it prints the seconds it took as its last line.
_TIMED = """
import sys, time
t = time.perf_counter()
{body}
print(time.perf_counter() - t)
"""

STEPS = {
    "json_load": _TIMED.format(body="import json\nwith open(sys.argv[1], 'rb') as f:\n    json.load(f)"),
    "load": _TIMED.format(body="from level_editor.core.level.file_format import load_level\nload_level(sys.argv[1])"),
    "save": """
import sys, time
from level_editor.core.level.file_format import load_level, save_level
from level_editor.core.checks.check import level_hulls_only
level = load_level(sys.argv[1])
t = time.perf_counter()
save_level(level, sys.argv[2], hulls=level_hulls_only(level).hulls)
print(time.perf_counter() - t)
""",
}


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run(cmd: Sequence[str], repeat: int) -> tuple[float, float, float]:
    """Best wall time (s), its own peak memory (MB) and the time the step printed (s, NaN when none)."""
    best = None
    for _ in range(repeat):
        started = time.perf_counter()
        child = run_child(cmd, env=_env())
        wall = time.perf_counter() - started
        if child.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} failed (exit {child.returncode}): {child.stderr.strip()[-500:]}")
        try:
            inner = float(child.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            inner = float("nan")
        if best is None or wall < best[0]:
            best = (wall, child.peak_mb, inner)
    return best


def measure(n: int, folder: str, repeat: int, log=print) -> dict:
    """Every figure for a generated level of ``n`` objects (the file written and exported in ``folder``)."""
    raw = os.path.join(folder, f"raw-{n}.json")
    path = os.path.join(folder, f"level-{n}.json")
    cli = [sys.executable, "-m", "level_editor.core.cli"]
    log(f"{n:,} objects: generating and exporting the file")
    _run(cli + ["generate", "-n", str(n), "-o", raw], 1)
    _run(cli + ["export", raw, "-o", path], 1)
    out = os.path.join(folder, f"out-{n}.json")
    row = {"objects": n, "file_mb": os.path.getsize(path) / 2**20}
    for key in ("json_load", "load"):
        log(f"  {key}")
        row[key] = _run([sys.executable, "-c", STEPS[key], path, out], repeat)
    log("  check")
    row["check"] = _run(cli + ["check", path], repeat)
    log("  export")
    row["export"] = _run(cli + ["export", path, "-o", out], repeat)
    log("  save (hulls + write)")
    row["save"] = _run([sys.executable, "-c", STEPS["save"], path, out], repeat)
    return row


def table(rows: list[dict]) -> str:
    """The results as a Markdown table (times in s, memory in MB), with the per-object ratios below."""
    head = ("| objects | file | `json.load` (reference) | our load | `check` | `export` | editor save: hulls + write |\n"
            "|---:|---:|---:|---:|---:|---:|---:|")
    lines = [head]
    for r in rows:
        cells = [f"{r['objects']:,}", f"{r['file_mb']:.1f} MB"]
        for key in ("json_load", "load", "check", "export"):
            wall, peak, _ = r[key]
            cells.append(f"{wall:.2f} s / {peak:.0f} MB")
        wall, peak, inner = r["save"]
        cells.append(f"{inner:.2f} s (process {wall:.2f} s / {peak:.0f} MB)")
        lines.append("| " + " | ".join(cells) + " |")
    if len(rows) >= 2:
        small, large = rows[0], rows[-1]
        for key in ("check", "export", "load"):
            ratio = (large[key][0] / large["objects"]) / (small[key][0] / small["objects"])
            lines.append(f"\nper-object time of `{key}`, {large['objects']:,} over {small['objects']:,}: {ratio:.2f}")
        ref = large["json_load"][0]
        lines.append(f"\nat {large['objects']:,}: `check` {large['check'][0] / ref:.2f}x `json.load`, "
                     f"`export` {large['export'][0] / ref:.2f}x `json.load` (all with Python's start-up)")
    lines.append("\nWall times of whole processes (Python start-up and imports included), best of the runs; "
                 "peak memory of each process alone. The editor save column is the time inside the process.")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step; the best is kept")
    parser.add_argument("--folder", help="where the files go (default: a temporary folder)")
    args = parser.parse_args(argv)
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="bench-files-") as tmp:
        folder = args.folder or tmp
        os.makedirs(folder, exist_ok=True)
        rows = [measure(n, folder, args.repeat, log) for n in sorted(args.sizes)]
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
