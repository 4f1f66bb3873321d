"""The layers are checked, not hoped for: core/ never imports Qt or the editor, its rooms only use the rooms below
them, a game (the runtime, the example games) loads no shapely, and the collision library is pure Python (the
import-linter contracts in pyproject.toml)."""
import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_no_core_module_imports_qt_or_editor():
    offenders = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in ("PySide6", "PyQt5", "PyQt6", "shiboken6") or name.startswith("level_editor.editor"):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_import_linter_contract_holds():
    # Run by this interpreter, so that it analyses the level_editor these tests import (a lint-imports found on
    # PATH may belong to another environment, with another checkout installed).
    assert importlib.util.find_spec("importlinter"), "import-linter is part of the test extras"
    r = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                        "sys.exit(lint_imports_command())", str(ROOT / "pyproject.toml")],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "5 kept, 0 broken" in r.stdout


def test_importing_the_whole_core_loads_no_qt(tmp_path):
    code = ("import importlib, pkgutil, sys, level_editor.core\n"
            "names = [m.name for m in pkgutil.walk_packages(level_editor.core.__path__, 'level_editor.core.')]\n"
            "assert len(names) > 30, names\n"
            "for name in names:\n"
            "    importlib.import_module(name)\n"
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'level_editor.editor'))]\n"
            "print(bad); sys.exit(1 if bad else 0)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_collision_library_loads_neither_shapely_nor_numpy(tmp_path):
    code = ("import importlib, pkgutil, sys, level_editor.core.collision\n"
            "for m in pkgutil.walk_packages(level_editor.core.collision.__path__, 'level_editor.core.collision.'):\n"
            "    importlib.import_module(m.name)\n"
            "bad = [m for m in sys.modules if m.startswith(('shapely', 'numpy', 'PySide6'))]\n"
            "print(bad); sys.exit(1 if bad else 0)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def _import_circles(package: str) -> list[list[str]]:
    """Groups of modules of ``package`` that import each other, directly or not (function-level imports too)."""
    import grimp

    graph = grimp.build_graph(package, include_external_packages=False)
    order, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(module):  # Tarjan's strongly connected components
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in order:
            visit(module)
    return circles


def test_no_module_imports_itself_through_others():
    # The layers contracts forbid circles between rooms; this one forbids them inside a room too
    # (files.py <-> tiled_actions.py was the last, cut by documents/file_checks.py).
    assert _import_circles("level_editor.editor") == []
    assert _import_circles("level_editor.core") == []


def test_the_editor_keeps_few_loose_modules():
    loose = sorted(p.name for p in (ROOT / "editor").glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= 12, f"editor/ has {len(loose)} modules at its top; give them a room: {loose}"
