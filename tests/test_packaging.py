"""The wheel holds the whole program and works once installed, away from the checkout (tests/packaging_check.py).

The full check builds the wheel and installs it into a new virtual environment (about 10 s); the rest read
wheels made up here, so the check's own verdicts are tested on bad input too.
"""
from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

import pytest

import level_editor.core
from tests import packaging_check
from tests.packaging_check import PackagingError, check_wheel_contents

ROOT = Path(__file__).resolve().parents[1]


def test_the_installed_wheel_checks_exports_and_opens_a_level_from_an_empty_folder(tmp_path, user_environment):
    # pip gets the user's own environment (its index and configuration); the installed program gets temporary
    # settings folders from the check itself.
    found = packaging_check.check(ROOT, tmp_path, base_env=user_environment, log=lambda line: None)

    assert found["version"] == f"level-editor {level_editor.core.__version__}"
    files = found["files"]
    assert {f"level_editor/editor/icons/{p.name}" for p in (ROOT / "editor" / "icons").glob("*.svg")} <= set(files)
    assert "level_editor/core/level/schemas/level-v1.schema.json" in files
    # subpackages ship
    assert "level_editor/editor/tools/wall_tool.py" in files and "level_editor/core/collision/__init__.py" in files
    assert {f.split("/")[0] for f in files if ".dist-info/" not in f} == {"level_editor"}
    assert "core and editor are not importable" in found["imports"]
    assert re.search(r"level_editor\.core\.runtime loads [1-9]\d* objects and steps the player 60 ticks without Qt or "
                     r"shapely", found["imports"]), found["imports"]
    assert "level_editor/core/runtime.py" in files and "level_editor/core/examples/pygame_demo.py" in files
    assert re.search(r"\d+ toolbar buttons with icons", found["editor"]), found["editor"]


def test_the_version_is_written_once(tmp_path):
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = pyproject.split("[project]", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", project, re.MULTILINE), "pyproject.toml repeats the version"
    assert 'dynamic = ["version"]' in project
    assert 'version = {attr = "level_editor.core.__version__"}' in pyproject
    assert packaging_check.source_version(ROOT) == level_editor.core.__version__


def fake_source(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    for name in ("core/__init__.py", "core/level/__init__.py", "core/level/schemas/level-v1.schema.json",
                 "editor/__init__.py", "editor/icons/app.svg", "editor/tools/__init__.py"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text('__version__ = "9.9"\n' if name == "core/__init__.py" else "x")
    return source


def fake_wheel(tmp_path: Path, source: Path, leave_out=(), add=(), version="9.9") -> Path:
    wheel = tmp_path / "level_editor-9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            name = "level_editor/" + path.relative_to(source).as_posix()
            if name not in leave_out:
                z.writestr(name, path.read_bytes())
        for name in add:
            z.writestr(name, "x")
        z.writestr("level_editor-9.9.dist-info/METADATA", f"Metadata-Version: 2.1\nName: level-editor\n"
                                                          f"Version: {version}\n")
        z.writestr("level_editor-9.9.dist-info/entry_points.txt",
                   "[console_scripts]\nlevel-editor = level_editor.editor.launcher:main\n")
    return wheel


def test_a_complete_wheel_passes(tmp_path):
    source = fake_source(tmp_path)
    assert "level_editor/editor/icons/app.svg" in check_wheel_contents(fake_wheel(tmp_path, source), source)


@pytest.mark.parametrize("leave_out, add, version, said", [
    (["level_editor/editor/tools/__init__.py"], [], "9.9",
     "missing from the wheel: ['level_editor/editor/tools/__init__.py']"),
    (["level_editor/editor/icons/app.svg"], [], "9.9", "no level_editor/editor/icons/app.svg"),
    (["level_editor/core/level/schemas/level-v1.schema.json"], [], "9.9", "no level_editor/core/level/schemas/"),
    ([], ["level_editor/tests/test_x.py"], "9.9", "tests in the wheel"),
    ([], ["level_editor/benchmarks/bench.py"], "9.9", "files outside level_editor/core/ and level_editor/editor/"),
    ([], ["core/__init__.py"], "9.9", "installs ['core', 'level_editor'] at the top of site-packages"),
    ([], ["editor.py"], "9.9", "installs ['editor.py', 'level_editor'] at the top"),
    ([], [], "1.0", "does not say Version: 9.9"),
])
def test_an_incomplete_or_overfull_wheel_is_refused(tmp_path, leave_out, add, version, said):
    source = fake_source(tmp_path)
    with pytest.raises(PackagingError, match=re.escape(said)):
        check_wheel_contents(fake_wheel(tmp_path, source, leave_out, add, version), source)


def test_the_check_refuses_a_source_tree_without_a_version(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "__init__.py").write_text("")
    with pytest.raises(PackagingError, match="no __version__"):
        packaging_check.source_version(tmp_path)


def test_the_installed_program_never_sees_the_checkout():
    env = packaging_check.isolated_env(dict(os.environ, PYTHONPATH=str(ROOT)), Path("/venv"), Path("/home-x"))
    assert "PYTHONPATH" not in env
    assert env["XDG_CONFIG_HOME"].startswith(str(Path("/home-x")))
    assert env["LEVEL_EDITOR_DATA_DIR"].startswith(str(Path("/home-x")))


def test_every_package_of_the_checkout_is_listed_in_pyproject():
    # pyproject.toml lists the packages by their installed names (level_editor.core...), mapped onto core/ and
    # editor/ by package-dir: a new subpackage that is not listed would be left out of the wheel.
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'^\s*"(level_editor\.[a-z_.]+)",$', pyproject, re.MULTILINE))
    folders = {"level_editor." + ".".join(p.parent.relative_to(ROOT).parts)
               for top in ("core", "editor") for p in (ROOT / top).rglob("__init__.py")}
    assert folders - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert listed - folders == set(), "pyproject.toml lists packages that do not exist"


def test_the_dependencies_are_seen_through_plain_folders(tmp_path):
    folders = packaging_check.dependency_folders()
    assert folders and all(Path(f).is_dir() for f in folders)
    # PySide6 is a dependency: the fresh environment finds it through one of these folders.
    assert any((Path(f) / "PySide6").is_dir() for f in folders)
