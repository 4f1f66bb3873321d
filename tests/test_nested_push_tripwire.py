"""The tripwire of tests/conftest.py: a test that pushes a command inside another change fails, one that does
not passes, and the app itself only logs it (editor/canvas/context.py)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SESSION = '''
import pytest
from dataclasses import replace
from PySide6.QtWidgets import QGraphicsScene

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Level
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.commands.objects import ChangePlayerCommand


def change_speed(context, speed):
    doc = context.document
    return ChangePlayerCommand(doc, doc.player, replace(doc.player, speed=speed), "Change speed of player")


def context(qtbot):
    return EditorContext(LevelDocument(Level()), QGraphicsScene())


def test_pushed_inside(qtbot):
    ctx = context(qtbot)
    with ctx.changing("Undo something"):
        ctx.push(change_speed(ctx, 99.0))
    assert ctx.document.player.speed == 99.0  # the app ordered it: pushed after, nothing lost


def test_pushed_after(qtbot):
    ctx = context(qtbot)
    with ctx.changing("Undo something"):
        pass
    ctx.push(change_speed(ctx, 99.0))


@pytest.mark.nested_push_expected
def test_pushed_inside_on_purpose(qtbot):
    test_pushed_inside(qtbot)
'''


def test_a_push_inside_another_change_fails_its_test(tmp_path):
    (tmp_path / "test_session.py").write_text(SESSION)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.conftest", "-q", "-rA",
         "-o", "markers=nested_push_expected: on purpose", str(tmp_path / "test_session.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=240)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    # the one that pushed inside errs at its teardown; the others pass
    assert re.findall(r"^ERROR .*::(\w+)", out, re.M) == ["test_pushed_inside"], out
    assert "'Change speed of player' inside 'Undo something'" in out
    assert "3 passed, 1 error" in out, out
