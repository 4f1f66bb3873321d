"""The tests hold on a busy machine (issue 22): no test asserts how long something took, and none sleeps a fixed
time and then asserts what should have happened meanwhile.

A shared machine under load runs anything several times slower, and a wait of 100 ms may end before the
work it waits for. A test waits for the condition itself (``qtbot.waitUntil``, ``qtbot.waitSignal``, a
test double that waits for an event), with a generous timeout that only bounds the wait; how long things
take is the benchmarks' business (tests/benchmarks/bench_*.py print tables anyone can rerun).

:func:`problems_in` reads a test file with :mod:`ast` and finds

- an ``assert`` comparing a measured duration (the difference of two readings of a clock of :mod:`time`, or a
  value made from one) with a bound: a constant, a parameter, another duration (or an ``if`` comparing one with
  a constant: a verdict the test asserts later), and
- a fixed wait (``qtbot.wait``, ``QTest.qWait``, ``time.sleep``) followed in the same block by an ``assert``
  before anything else is done (only values read in between).

The benchmarks' scripts (``bench_*.py``) time things: they are not read. A sleep inside a test double (a
function nested in a test, or a method of a class in a test file) simulates slow work and is allowed.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

#: Functions of :mod:`time` whose result is a reading of a clock.
CLOCKS = frozenset({"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time", "time_ns",
                    "thread_time", "thread_time_ns", "process_time", "process_time_ns"})

#: Calls that wait a fixed time: ``qtbot.wait(ms)``, ``QTest.qWait(ms)``, ``time.sleep(s)``.
WAITS = frozenset({"wait", "qWait", "sleep"})


def _is_clock_call(node: ast.AST, clock_names: set[str]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "time":
        return f.attr in CLOCKS
    return isinstance(f, ast.Name) and f.id in clock_names


def _is_constant(node: ast.AST) -> bool:
    """A number, a NAME_IN_CAPITALS (or ``module.NAME``), or arithmetic of those."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return node.id.isupper()
    if isinstance(node, ast.Attribute):
        return node.attr.isupper()
    if isinstance(node, ast.UnaryOp):
        return _is_constant(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_constant(node.left) and _is_constant(node.right)
    return False


class _Scope:
    """What the names of one function (or the module) hold: clock readings, or durations."""

    def __init__(self, clock_names: set[str], timing_functions: dict[str, object]):
        self.clock_names = clock_names
        self.functions = timing_functions  # name -> "duration", "reading" or a tuple of those (per position)
        self.readings: set[str] = set()
        self.durations: set[str] = set()

    # -- what an expression is ---------------------------------------------------------------------------
    def kind(self, node: ast.AST | None) -> object:
        """``"reading"``, ``"duration"``, a tuple of kinds (a tuple of values), or None."""
        if node is None:
            return None
        if _is_clock_call(node, self.clock_names):
            return "reading"
        if isinstance(node, ast.Name):
            if node.id in self.durations:
                return "duration"
            if node.id in self.readings:
                return "reading"
            return None
        if isinstance(node, ast.Subscript):
            return self.kind(node.value) if self.kind(node.value) in ("reading", "duration") else None
        if isinstance(node, ast.Tuple):
            kinds = tuple(self.kind(e) for e in node.elts)
            return kinds if any(kinds) else None
        if isinstance(node, ast.List):
            kinds = {self.kind(e) for e in node.elts} - {None}
            return "duration" if "duration" in kinds else ("reading" if kinds else None)
        if isinstance(node, ast.BinOp):
            left, right = self.kind(node.left), self.kind(node.right)
            if isinstance(node.op, ast.Sub) and left == "reading" and right == "reading":
                return "duration"
            if "duration" in (left, right):
                return "duration"
            if isinstance(node.op, (ast.Add, ast.Sub)) and "reading" in (left, right):
                return "reading"  # a deadline: a reading moved by a constant
            return None
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in ("min", "max", "sum", "abs", "float", "round", "sorted"):
                kinds = {self.kind(a) for a in node.args}
                return "duration" if "duration" in kinds else None
            if isinstance(f, ast.Name) and f.id in self.functions:
                return self.functions[f.id]
            return None
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            for generator in node.generators:
                if self.kind(generator.iter) or self._mentions_timing(generator.iter):
                    for target in ast.walk(generator.target):
                        if isinstance(target, ast.Name):
                            self.readings.add(target.id)
            return self.kind(node.elt)
        return None

    def _mentions_timing(self, node: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and (n.id in self.readings or n.id in self.durations)
                   for n in ast.walk(node))

    # -- what a statement makes of its targets ------------------------------------------------------------
    def _mark(self, target: ast.AST, kind: object) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            kinds = kind if isinstance(kind, tuple) and len(kind) == len(target.elts) else (kind,) * len(target.elts)
            for t, k in zip(target.elts, kinds):
                self._mark(t, k)
            return
        if isinstance(target, ast.Subscript):
            target = target.value
        if not isinstance(target, ast.Name):
            return
        if kind == "duration":
            self.durations.add(target.id)
        elif kind == "reading":
            self.readings.add(target.id)

    def take(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # a helper nested in a test: what it returns (its statements are taken too, by _statements)
            inner = _Scope(self.clock_names, self.functions)
            inner.readings, inner.durations = set(self.readings), set(self.durations)
            for s in _statements(stmt.body):
                inner.take(s)
            for s in _statements(stmt.body, nested=False):
                if isinstance(s, ast.Return) and inner.kind(s.value):
                    self.functions = {**self.functions, stmt.name: inner.kind(s.value)}
            return
        if isinstance(stmt, ast.Assign):
            kind = self.kind(stmt.value)
            for target in stmt.targets:
                self._mark(target, kind)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
            self._mark(stmt.target, self.kind(stmt.value))
        if isinstance(stmt, (ast.Expr, ast.Assign)):
            # ticks.append(time.perf_counter()), in a lambda too: a list of readings
            for call in ast.walk(stmt):
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr in ("append", "extend") and call.args):
                    self._mark(call.func.value, self.kind(call.args[0]))

    def timed_comparison(self, test: ast.AST, constant_only: bool = False) -> ast.Compare | None:
        """A comparison in ``test`` of a duration with a bound (a constant, a parameter, another duration; only a
        constant when ``constant_only``)."""
        for node in ast.walk(test):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            for a, b in zip(sides, sides[1:]):
                ka, kb = self.kind(a), self.kind(b)
                if "duration" in (ka, kb) and (not constant_only or _is_constant(b if ka == "duration" else a)):
                    return node
        return None


def _timing_functions(tree: ast.Module, clock_names: set[str]) -> dict[str, object]:
    """The module's functions that return a duration or a reading (or a tuple holding one), by name."""
    found: dict[str, object] = {}
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for _ in range(3):  # a function returning what another returns
        for function in functions:
            scope = _Scope(clock_names, found)
            for stmt in _statements(function.body):
                scope.take(stmt)
            for stmt in _statements(function.body, nested=False):
                if isinstance(stmt, ast.Return) and scope.kind(stmt.value):
                    found[function.name] = scope.kind(stmt.value)
    return found


def _statements(body: list[ast.stmt], nested: bool = True):
    """Every statement of ``body`` and of the blocks inside it, in order: those of nested functions too (a
    closure shares the test's names, ``longest[0] = ...`` in a timer's slot) unless not ``nested``, never
    those of classes."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.ClassDef) or (not nested and isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(stmt, field, []) or [], nested)
        for handler in getattr(stmt, "handlers", []) or []:
            yield from _statements(handler.body, nested)


def _blocks(body: list[ast.stmt]):
    """``body`` and every block of statements inside it (not inside nested functions or classes)."""
    yield body
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if inner:
                yield from _blocks(inner)
        for handler in getattr(stmt, "handlers", []) or []:
            yield from _blocks(handler.body)


def _is_fixed_wait(stmt: ast.stmt) -> bool:
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    f = stmt.value.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if name not in WAITS:
        return False
    if name == "wait":  # qtbot.wait(ms), not event.wait() or process.wait()
        return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "qtbot"
    return True


def _wait_then_assert(body: list[ast.stmt]) -> list[ast.stmt]:
    """Fixed waits in ``body`` followed by an assert with nothing done in between (values may be read)."""
    found = []
    for i, stmt in enumerate(body):
        if not _is_fixed_wait(stmt):
            continue
        for after in body[i + 1:]:
            if isinstance(after, ast.Assert):
                found.append(stmt)
                break
            if not isinstance(after, (ast.Assign, ast.AnnAssign)):
                break
    return found


def _test_functions(tree: ast.Module):
    """The module's own functions (tests, fixtures, helpers) and the methods of its ``Test*`` classes; not the
    functions nested in them, nor the methods of other classes (test doubles)."""
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name.startswith("Test"):
            functions += [n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return functions


def problems_in(source: str, name: str = "<test>") -> list[str]:
    """What in the test module ``source`` would fail on a busy machine, one line each (``name:line: what``)."""
    tree = ast.parse(source)
    clock_names = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   and node.module == "time" for alias in node.names if alias.name in CLOCKS}
    functions = _timing_functions(tree, clock_names)
    problems = []
    for function in _test_functions(tree):
        scope = _Scope(clock_names, functions)
        for stmt in _statements(function.body):
            scope.take(stmt)
            if isinstance(stmt, (ast.Assert, ast.If)):
                # an ``if`` against a constant is a test's own verdict (``if took > SECONDS: problems.append``);
                # against another duration it is bookkeeping (the longest gap so far)
                compare = scope.timed_comparison(stmt.test, constant_only=isinstance(stmt, ast.If))
                if compare is not None:
                    problems.append(f"{name}:{compare.lineno}: asserts a measured duration: "
                                    f"{ast.unparse(compare)}")
        for block in _blocks(function.body):
            for wait in _wait_then_assert(block):
                problems.append(f"{name}:{wait.lineno}: a fixed wait, then an assert: {ast.unparse(wait)}")
    return problems


def files_read() -> list[Path]:
    """The test files read: every .py under tests/ but the benchmarks' scripts."""
    return sorted(p for p in TESTS.rglob("*.py")
                  if not (p.parent.name == "benchmarks" and p.name.startswith("bench_")))


def test_no_test_asserts_a_duration_or_asserts_after_a_fixed_wait():
    problems = []
    for path in files_read():
        problems += problems_in(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS.parent)))
    assert problems == []


def test_the_benchmarks_scripts_are_left_out_and_their_tests_read():
    names = {p.name for p in files_read()}
    assert "test_bench_editor.py" in names and "bench_editor.py" not in names and "test_test_hygiene.py" in names


# -- the checker itself, on the shapes the old tests had -------------------------------------------------------
CAUGHT = {
    "a difference of readings against a number": """
def test_layers(doc):
    t = time.perf_counter()
    doc.set_layers([])
    assert time.perf_counter() - t < 0.05
""",
    "a named duration": """
def test_badges(badges):
    started = time.perf_counter()
    badges.show_problems([])
    elapsed = time.perf_counter() - started
    assert len(badges) == 0
    assert elapsed < 0.5, elapsed
""",
    "a duration against a module constant": """
ONE_FRAME = 2.5
def test_frame(window):
    t = time.perf_counter()
    window.repaint()
    took = time.perf_counter() - t
    assert took < 3 * ONE_FRAME, f"{took:.2f} s"
""",
    "a monotonic duration in a compound assert": """
def test_filter(model):
    started = time.monotonic()
    model.set_filter("x")
    filtered = time.monotonic() - started
    assert filtered < 2.0 and model.rowCount() == 1
""",
    "CPU time of the thread": """
def test_cpu(viewport):
    slowest = 0.0
    for zoom in (1, 2):
        t = time.thread_time()
        viewport.repaint()
        slowest = max(slowest, time.thread_time() - t)
    assert slowest < 0.3
""",
    "a per-query average": """
def test_snap(editor, queries):
    t0 = time.perf_counter()
    for q in queries:
        editor.snap(q)
    per_query = (time.perf_counter() - t0) / len(queries)
    assert per_query < 0.001
""",
    "a ratio of two measurements": """
def build_seconds(level):
    best = math.inf
    for _ in range(2):
        t0 = time.perf_counter()
        World.from_level(level)
        best = min(best, time.perf_counter() - t0)
    return best

def test_linear(small, big):
    t_small, t_big = build_seconds(small), build_seconds(big)
    assert t_big < 25 * t_small + 0.5
""",
    "a duration from a helper returning a tuple": """
def _open(window, path):
    start = time.perf_counter()
    opened = window.open_file(path)
    return opened, time.perf_counter() - start

def test_open(window, path):
    opened, seconds = _open(window, path)
    problems = []
    if seconds > SECONDS:
        problems.append("slow")
    assert not problems
""",
    "gaps between timer ticks": """
def test_ticks(window):
    ticks = []
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    ticks.append(time.perf_counter())
    window.export_as()
    assert len(ticks) > 20 and max(b - a for a, b in zip(ticks, ticks[1:])) < 0.2
""",
    "a duration kept in a list cell": """
def test_save(window):
    ticks, longest, last = [], [0.0], [time.monotonic()]
    def tick():
        now = time.monotonic()
        longest[0] = max(longest[0], now - last[0])
    window.save()
    now = time.monotonic()
    longest[0] = max(longest[0], now - last[0])
    assert sum(ticks) >= 10 and longest[0] < 0.25, longest
""",
    "a clock imported by name": """
from time import perf_counter as clock
def test_quick(f):
    t = clock()
    f()
    assert clock() - t < 1
""",
    "qtbot.wait then assert": """
def test_stopped(qtbot, pt):
    n = pt.tick_count
    qtbot.wait(100)
    assert pt.tick_count == n
""",
    "a wait, a value read, then assert": """
def test_hulls(qtbot, trouble, before):
    qtbot.wait(50)
    with_hulls = trouble.canvas.viewport().grab().toImage()
    assert with_hulls != before
""",
    "QTest.qWait in a loop, then assert": """
def test_widths(ins, ctx):
    for selected in (["a"], ["b"]):
        ctx.selection.set(selected)
        QTest.qWait(10)
        inner = ins.scroll_area.widget()
        assert inner.width() <= 100
""",
    "a wait in a test class's method": """
class TestStopping:
    def test_stopped(self, qtbot, pt):
        qtbot.wait(100)
        assert pt.tick_count == 0
""",
    "time.sleep in a fixture, then assert": """
@pytest.fixture
def started(tmp_path):
    time.sleep(0.2)
    assert (tmp_path / "x").exists()
""",
}

ALLOWED = {
    "a deadline bounding a poll": """
def test_poll(proc):
    deadline = time.monotonic() + 60
    while not proc.done():
        assert time.monotonic() < deadline, "not done within a minute"
        time.sleep(0.01)
    assert proc.result() == 1
""",
    "waiting for the condition": """
def test_checked(qtbot, window):
    qtbot.waitUntil(lambda: window.checks.current is not None, timeout=10_000)
    assert window.checks.current.problems == ()
""",
    "a sleep in a test double": """
def test_slow_save(window, monkeypatch):
    def slow(path, text):
        time.sleep(0.6)
        assert text
        real(path, text)
    monkeypatch.setattr(files, "write", slow)
    assert window.save()
""",
    "a sleep in a double's method": """
class Recorder:
    def __call__(self, level):
        time.sleep(self.delay)
        assert level is not None
        return level
""",
    "a wait before an action": """
def test_popup(qtbot, combo):
    qtbot.wait(500)  # a release this soon after opening is the opening click's
    rect = combo.view().visualRect(index)
    qtbot.mouseClick(combo.view().viewport(), Qt.LeftButton, pos=rect.center())
    assert combo.currentIndex() == 2
""",
    "a time stamp that is no duration": """
def test_stale(tmp_path):
    old = time.time() - 3600
    os.utime(tmp_path, (old, old))
    assert old < time.time()
""",
    "a fake clock": """
def test_fake(clock, pt):
    clock.seconds += 2.5
    assert clock.seconds > 1000
""",
    "the longest gap so far, kept by a timer's slot": """
def test_gaps(window):
    longest, last = [0.0], [time.monotonic()]
    def tick():
        now = time.monotonic()
        if now - last[0] > longest[0]:
            longest[0] = now - last[0]
        last[0] = now
    window.save()
    print(longest[0])
""",
    "an event's wait with a timeout": """
def test_event(release):
    release.wait(5)
    assert release.is_set()
""",
}


@pytest.mark.parametrize("source", list(CAUGHT.values()), ids=list(CAUGHT))
def test_the_checker_catches_what_fails_on_a_busy_machine(source):
    assert len(problems_in(source)) == 1, problems_in(source)


@pytest.mark.parametrize("source", list(ALLOWED.values()), ids=list(ALLOWED))
def test_the_checker_leaves_what_holds_alone(source):
    assert problems_in(source) == []


def test_a_problem_names_the_file_and_line():
    (problem,) = problems_in(CAUGHT["qtbot.wait then assert"], "tests/x.py")
    assert problem == "tests/x.py:4: a fixed wait, then an assert: qtbot.wait(100)"
