"""Build the wheel, install it into a fresh virtual environment and use it from an empty folder.

``python tests/packaging_check.py`` (run by ``.ci/run``; ``tests/test_packaging.py`` runs the same check).
It catches what an editable install hides: a subpackage, an icon or the schema missing from the wheel,
tests shipped by mistake, two version numbers that disagree, a module landing at the top of site-packages.

1. Copy the source tree to a temporary folder (so building leaves no ``build/`` in the checkout) and
   ``pip wheel --no-deps`` it.
2. Read the wheel: every module of core/ and editor/ is in it as ``level_editor/core/...`` and
   ``level_editor/editor/...``, with every icon and the schema; nothing else is (no tests/, no benchmarks,
   nothing at the top but ``level_editor/`` and its dist-info).
3. ``python -m venv`` a new environment with nothing in it, and a ``.pth`` file in its site-packages naming the
   running environment's site-packages folders: PySide6, shapely and numpy are seen without being downloaded
   again, whether this check runs with a system Python or inside a virtual environment (a venv made with
   ``--system-site-packages`` inside another venv sees the base interpreter, not the venv). Only plain folders
   are added that way, so an editable install of the checkout there (a ``.pth`` of its own) is not seen.
   Then ``pip install --no-index`` the wheel into it; the site-packages then holds ``level_editor`` and its
   dist-info, and nothing else of ours.
4. From an empty folder, with ``PYTHONPATH`` unset and settings in temporary folders: ``import core`` and
   ``import editor`` fail; ``level-editor --version``, ``check``, ``export`` and ``render`` on a sample level;
   the collision library loads without Qt, and the game runtime loads the sample level and steps its player without Qt or
   shapely; then the editor itself, offscreen, through
   ``level-editor``'s own ``main`` on that level: ``level_editor`` must come from the environment's
   site-packages, every toolbar button must have its icon and the schema must load (and accept the export).

Only the standard library is used here: this file runs before (and apart from) the package it checks.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LEVEL = "levels/showcase.json"
#: Top-level folders of the checkout that are never part of the package (and slow or pointless to copy).
NOT_SOURCE = (".git", "build", "dist", "*.egg-info", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis",
              ".ruff_cache", ".import_linter_cache", ".benchmarks", ".venv", "venv", "bench-out", ".mypy_cache")
#: Environment variables that would let the checkout (or anything but the installed wheel) be imported.
#: The file in the fresh environment's site-packages that names the running environment's dependency folders.
DEPENDENCIES_PTH = "level-editor-check-dependencies.pth"
LEAKY_ENV = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__")


class PackagingError(AssertionError):
    """The wheel is incomplete, or the installed program does not work; the message says what and shows output."""


# Runs inside the fresh environment, from the empty folder: argv = level, exported level.
INSTALLED_EDITOR_CHECK = r'''
import json, os, sys, sysconfig, traceback

import level_editor.core, level_editor.editor
site = os.path.realpath(sysconfig.get_paths()["purelib"])
for module in (level_editor.core, level_editor.editor):
    where = os.path.realpath(module.__file__)
    assert where.startswith(site + os.sep), f"{module.__name__} was imported from {where}, not from {site}"

from level_editor.core.level.schema import level_schema
schema = level_schema()
try:
    import jsonschema
except ImportError:  # the check needs only the package's own dependencies; validate when the tool is there
    jsonschema = None
if jsonschema is not None:
    with open(sys.argv[2], encoding="utf-8") as f:
        jsonschema.validate(json.load(f), schema)

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QToolBar, QWidgetAction

from level_editor.editor import app
from level_editor.editor.launcher import main
from level_editor.editor.window.main_window import MainWindow
from level_editor.editor.support.resources import icon, icon_names

level = os.path.abspath(sys.argv[1])
seen = {}


def inspect():
    try:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        assert len(windows) == 1, f"expected one editor window, found {len(windows)}"
        window = windows[0]
        assert window.path == level, f"the window shows {window.path!r}, not {level!r}"
        assert len(window.document.level.objects) > 0, "the level opened empty"
        assert not QApplication.windowIcon().isNull(), "the application has no icon"
        assert not window.windowIcon().isNull(), "the window has no icon"
        buttons = [a for bar in window.findChildren(QToolBar) for a in bar.actions()
                   if not a.isSeparator() and not isinstance(a, QWidgetAction)]
        assert buttons, "the editor has no toolbar buttons"
        blank = [a.text() for a in buttons if a.icon().isNull()]
        assert not blank, f"toolbar buttons without an icon: {blank}"
        names = icon_names()
        assert names, "the package ships no icons"
        for name in names:
            icon(name)
        seen["buttons"], seen["icons"], seen["objects"] = len(buttons), len(names), len(window.document.level.objects)
        window.close()
        QApplication.exit(0)
    except BaseException:
        traceback.print_exc()
        QApplication.exit(1)


app.application()
QTimer.singleShot(0, inspect)
code = main([level])
if code == 0:
    print(f"installed editor: {seen['objects']} objects shown, {seen['buttons']} toolbar buttons with icons, "
          f"{seen['icons']} icons load, schema {schema.get('$id')} found")
sys.exit(code)
'''


# Runs inside the fresh environment, from the empty folder: argv = a sample level. The generic names are not ours,
# the library is, and the parts a game uses load without Qt (the collision library without shapely or numpy, the
# runtime that loads a level and steps its player without shapely).
INSTALLED_IMPORTS_CHECK = r'''
import importlib, sys
for generic in ("core", "editor"):
    try:
        importlib.import_module(generic)
    except ImportError:
        continue
    raise SystemExit(f"import {generic} worked: the wheel put a generic name at the top of site-packages")
import level_editor.core.collision
from level_editor.core.collision import Circle, Rect, Vec2, cast, overlaps
assert overlaps(Circle(Vec2(0, 0), 1), Rect(Vec2(0.5, 0), Vec2(2, 2)))
assert cast(Circle(Vec2(0, 0), 1), Vec2(10, 0), Rect(Vec2(5, -1), Vec2(2, 2))) == 0.4
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shapely", "numpy"))
assert not loaded, f"the collision library loaded {loaded}"

from level_editor.core.runtime import Player, load_level
level = load_level(sys.argv[1])
player = Player(level)
start = player.position
for tick in range(60):
    player.step(1, 0.5, tick % 2)
assert player.tick == 60 and player.position != start, (start, player.position)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shapely"))
assert not loaded, f"the game runtime loaded {loaded}"
print(f"imports: core and editor are not importable; level_editor.core.collision is, without Qt, shapely or numpy; "
      f"level_editor.core.runtime loads {len(level.objects)} objects and steps the player 60 ticks without Qt or "
      f"shapely")
'''


def source_version(root: Path) -> str:
    """``__version__`` as written in ``core/__init__.py`` (read, not imported)."""
    text = (root / "core" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', text, re.MULTILINE)
    if not match:
        raise PackagingError("core/__init__.py has no __version__ = \"...\" line")
    return match.group(1)


def run(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float = 300,
        expect: int = 0) -> subprocess.CompletedProcess:
    """Run ``cmd``; a different exit code raises :class:`PackagingError` with the command's output."""
    r = subprocess.run([str(c) for c in cmd], cwd=str(cwd), env=dict(env), capture_output=True, text=True,
                       timeout=timeout)
    if r.returncode != expect:
        shown = " ".join(str(c) if len(str(c)) < 200 else "<script>" for c in cmd)
        raise PackagingError(f"{shown}\n(in {cwd}) exited {r.returncode}, expected {expect}\n"
                             f"--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}")
    return r


def copy_source(root: Path, dest: Path) -> Path:
    """The checkout copied to ``dest`` without caches and build output (a stale ``build/`` could leak files)."""
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    return dest


def build_wheel(source: Path, out: Path, env: Mapping[str, str]) -> Path:
    """``pip wheel --no-deps`` of ``source`` into ``out``; returns the wheel."""
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w", out, source],
        cwd=source, env=env)
    wheels = sorted(out.glob("level_editor-*.whl"))
    if len(wheels) != 1:
        raise PackagingError(f"expected one level_editor wheel in {out}, found {[w.name for w in wheels]}")
    return wheels[0]


def check_wheel_contents(wheel: Path, source: Path) -> list[str]:
    """Every module, icon and schema of ``source``'s core/ and editor/ is in ``wheel``, and nothing else is.

    Returns the wheel's file names.
    """
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        dist_info = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = z.read(dist_info[0]).decode("utf-8") if dist_info else ""
        entry_points = "".join(z.read(n).decode("utf-8") for n in names if n.endswith(".dist-info/entry_points.txt"))
    problems = []
    shipped = set(names)
    wanted = sorted("level_editor/" + p.relative_to(source).as_posix() for top in ("core", "editor")
                    for p in (source / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts
                    and not p.name.endswith(".pyc"))
    missing = [n for n in wanted if n not in shipped]
    if missing:
        problems.append(f"missing from the wheel: {missing}")
    for required in ("level_editor/editor/icons/app.svg", "level_editor/core/level/schemas/"):
        if not any(n.startswith(required) for n in names):
            problems.append(f"no {required} in the wheel")
    tops = sorted({n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")})
    if tops != ["level_editor"]:
        problems.append(f"the wheel installs {tops} at the top of site-packages, not just ['level_editor']")
    strays = [n for n in names if n.split("/")[:2] not in (["level_editor", "core"], ["level_editor", "editor"])
              and ".dist-info/" not in n]
    if strays:
        problems.append(f"files outside level_editor/core/ and level_editor/editor/ in the wheel: {strays}")
    tests = [n for n in names if "tests/" in n or "benchmarks" in n or "/test_" in n]
    if tests:
        problems.append(f"tests in the wheel: {tests}")
    version = source_version(source)
    if f"\nVersion: {version}\n" not in metadata:
        problems.append(f"the wheel's METADATA does not say Version: {version}")
    if not re.search(r"^level-editor\s*=\s*level_editor\.editor\.launcher:main$", entry_points, re.MULTILINE):
        problems.append("the wheel declares no level-editor = level_editor.editor.launcher:main script")
    if problems:
        raise PackagingError(f"{wheel.name}:\n" + "\n".join(problems))
    return names


def dependency_folders() -> list[str]:
    """The running environment's site-packages folders, where the package's dependencies are installed."""
    found = []
    for entry in sys.path:
        if entry and Path(entry).name in ("site-packages", "dist-packages") and Path(entry).is_dir():
            real = os.path.realpath(entry)
            if real not in found:
                found.append(real)
    return found


def make_venv(folder: Path, env: Mapping[str, str]) -> Path:
    """A new, empty virtual environment that sees this Python's packages (PySide6 and co.) but not the checkout.

    A ``.pth`` file in its site-packages names the folders of :func:`dependency_folders`; the interpreter adds
    each to ``sys.path`` without reading the ``.pth`` files inside them (an editable install of the checkout).
    ``python -m pip`` inside it is this Python's pip, seen through those folders; it installs into the
    environment (skipping ensurepip saves several seconds).
    """
    run([sys.executable, "-m", "venv", "--without-pip", folder], cwd=folder.parent, env=env)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        raise PackagingError(f"no Python in the new environment {folder}")
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=folder,
                    env=env).stdout.strip())
    site.mkdir(parents=True, exist_ok=True)
    (site / DEPENDENCIES_PTH).write_text("".join(f"{d}\n" for d in dependency_folders()), encoding="utf-8")
    return python


def installed_tops(python: Path, env: Mapping[str, str], cwd: Path) -> list[str]:
    """What sits at the top of the environment's own site-packages (the ``.pth`` this check wrote left out)."""
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=cwd,
                    env=env).stdout.strip())
    return sorted(p.name for p in site.iterdir() if p.name not in (DEPENDENCIES_PTH, "__pycache__"))


def isolated_env(base: Mapping[str, str], venv: Path, home: Path) -> dict[str, str]:
    """``base`` with nothing pointing at the checkout, the environment first on PATH, Qt offscreen, and every
    settings, data and recovery folder inside ``home`` (the check must not touch the user's own)."""
    env = {k: v for k, v in base.items() if k not in LEAKY_ENV}
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    env.update(PATH=f"{scripts}{os.pathsep}{base.get('PATH', '')}", VIRTUAL_ENV=str(venv), PYTHONNOUSERSITE="1",
               QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"),
               LEVEL_EDITOR_DATA_DIR=str(home / "level-editor-data"))
    return env


def check(root: Path = ROOT, work: Optional[Path] = None, base_env: Optional[Mapping[str, str]] = None,
          log: Callable[[str], None] = print) -> dict:
    """The whole check; raises :class:`PackagingError` on the first failure. Returns what it found.

    ``work`` is an empty folder to build in (a temporary one is made and removed when ``None``);
    ``base_env`` is the environment for pip and the installed program (``os.environ`` when ``None``).
    """
    if work is None:
        with tempfile.TemporaryDirectory(prefix="level-editor-wheel-") as tmp:
            return check(root, Path(tmp), base_env, log)
    base = {k: v for k, v in (os.environ if base_env is None else base_env).items() if k not in LEAKY_ENV}
    started = time.monotonic()
    source = copy_source(root, work / "source")
    wheel = build_wheel(source, work / "dist", base)
    names = check_wheel_contents(wheel, source)
    icons = [n for n in names if n.startswith("level_editor/editor/icons/")]
    schemas = [n for n in names if n.startswith("level_editor/core/level/schemas/")]
    log(f"wheel: {wheel.name}, {len(names)} files ({len(icons)} icons, {len(schemas)} schema), "
        f"every core/ and editor/ module under level_editor/, no tests")

    venv = work / "venv"
    python = make_venv(venv, base)
    run([python, "-m", "pip", "install", "--no-index", "--disable-pip-version-check", "--no-warn-script-location",
         wheel], cwd=work, env=base)
    tops = [name for name in installed_tops(python, base, work) if not name.startswith("level_editor-")]
    if tops != ["level_editor"]:
        raise PackagingError(f"installing the wheel put {tops} at the top of site-packages, not just level_editor")
    empty = work / "empty"
    empty.mkdir()
    env = isolated_env(base, venv, work / "home")
    exe = shutil.which("level-editor", path=env["PATH"].split(os.pathsep)[0])
    if exe is None:
        raise PackagingError(f"installing the wheel made no level-editor command in {env['PATH'].split(os.pathsep)[0]}")

    version = source_version(source)
    out = run([exe, "--version"], cwd=empty, env=env).stdout.strip()
    if out != f"level-editor {version}":
        raise PackagingError(f"level-editor --version printed {out!r}, expected 'level-editor {version}'")
    level = source / SAMPLE_LEVEL
    imports = run([python, "-c", INSTALLED_IMPORTS_CHECK, level], cwd=empty, env=env).stdout.strip()
    run([exe, "check", level], cwd=empty, env=env)
    exported = work / "exported.json"
    run([exe, "export", level, "-o", exported], cwd=empty, env=env)
    hulls = json.loads(exported.read_text(encoding="utf-8")).get("hulls")
    if not hulls:
        raise PackagingError(f"level-editor export wrote no hulls to {exported}")
    rendered = work / "rendered.png"
    run([exe, "render", level, "-o", rendered], cwd=empty, env=env)
    if not rendered.is_file() or not rendered.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"):
        raise PackagingError(f"level-editor render wrote no PNG picture to {rendered}")
    editor = run([python, "-c", INSTALLED_EDITOR_CHECK, level, exported], cwd=empty, env=env, timeout=120)
    if list(empty.iterdir()):
        raise PackagingError(f"the installed program left files in the folder it ran from: {list(empty.iterdir())}")
    log(f"installed: {out}; check, export and render of {SAMPLE_LEVEL} pass; {editor.stdout.strip()}")
    log(imports)
    log(f"packaging check passed in {time.monotonic() - started:.1f} s")
    return {"wheel": wheel.name, "files": names, "version": out, "editor": editor.stdout.strip(), "imports": imports}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", metavar="DIR", type=Path,
                        help="build in DIR (must not exist yet) and keep it: the wheel, the environment, the output")
    args = parser.parse_args(argv)
    work = None
    if args.keep:
        args.keep.mkdir(parents=True)
        work = args.keep.resolve()
    try:
        check(ROOT, work)
    except PackagingError as e:
        print(f"packaging check FAILED: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
