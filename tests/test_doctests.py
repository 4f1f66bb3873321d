"""The examples in the docstrings run: every module of core/ and editor/ that has one is a test here.

Run through the doctest module from inside the test session (rather than
``--doctest-modules``) so they get this folder's conftest: Qt offscreen and the
user's settings and recovery folders out of reach.
"""
from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _modules_with_examples() -> list[str]:
    found = []
    for package in ("core", "editor"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>>" in path.read_text(encoding="utf-8"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append("level_editor." + ".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = _modules_with_examples()


def test_the_examples_are_found():
    assert len(MODULES) >= 25
    assert "level_editor.core.collision" in MODULES and "level_editor.core.collision.sweep" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted > 0, f"{name} has '>>>' but doctest found no example"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (printed above)"
