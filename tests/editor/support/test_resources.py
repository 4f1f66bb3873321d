"""Every icon the editor asks for ships in editor/icons and loads; a missing one is an error that names it."""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from PySide6.QtWidgets import QToolBar, QWidgetAction

from level_editor.editor.support import resources
from level_editor.editor.support.resources import icon, icon_names, icon_path
from level_editor.editor.tools.registry import TOOL_CLASSES
from tests.editor.helpers import make_window

EDITOR = Path(resources.__file__).resolve().parents[1]
ICON_FUNCTIONS = {"_icon", "icon", "icon_path"}


def _called_name(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")


def _string(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


@cache
def icon_names_in_source() -> dict[str, str]:
    """Every icon name written in editor/'s code, with where: ``icon_name = "..."`` on tools, the name given to
    ``_icon``/``icon``/``icon_path``, and the ``icon`` argument of every ``_action(...)`` helper call."""
    found: dict[str, str] = {}
    for path in sorted(EDITOR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        # Where each module's own _action helper takes its icon (positional index, self excluded).
        icon_index = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "_action":
                params = [a.arg for a in node.args.args if a.arg != "self"]
                if "icon" in params:
                    icon_index[node.name] = params.index("icon")
        for node in ast.walk(tree):
            where = f"{path.relative_to(EDITOR.parent)}:{getattr(node, 'lineno', 0)}"
            names = []
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "icon_name"
                                                    for t in node.targets):
                names.append(_string(node.value))
            elif isinstance(node, ast.Call):
                called = _called_name(node)
                if called in ICON_FUNCTIONS and node.args:
                    names.append(_string(node.args[0]))
                elif called in icon_index:
                    if len(node.args) > icon_index[called]:
                        names.append(_string(node.args[icon_index[called]]))
                    names += [_string(k.value) for k in node.keywords if k.arg == "icon"]
            for name in names:
                if name:  # "" is an action without an icon
                    found.setdefault(name, where)
    return found


def test_the_source_scan_finds_the_icons_the_editor_uses():
    used = icon_names_in_source()
    for name in ("app", "undo", "save-as", "play", "debug-overlay", "tool-wall", "select"):
        assert name in used, name


@pytest.mark.parametrize("name, where", sorted(icon_names_in_source().items()))
def test_every_icon_the_editor_uses_ships_and_loads(qapp, name, where):
    loaded = icon(name)
    assert not loaded.isNull(), where
    assert not loaded.pixmap(24, 24).isNull(), f"{name} ({where}) does not draw"


def test_every_shipped_icon_is_used():
    assert sorted(icon_names_in_source()) == icon_names()


def test_every_tool_has_its_icon(qapp):
    for tool in TOOL_CLASSES:
        assert tool.icon_name, tool.__name__
        assert not icon(tool.icon_name).isNull(), tool.__name__


def test_every_toolbar_button_of_a_window_shows_an_icon(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    buttons = [a for bar in window.findChildren(QToolBar) for a in bar.actions()
               if not a.isSeparator() and not isinstance(a, QWidgetAction)]
    assert len(buttons) >= len(TOOL_CLASSES) + 5
    assert [a.text() for a in buttons if a.icon().isNull()] == []
    assert not window.windowIcon().isNull()


def test_icons_are_read_from_the_package_not_the_checkout_s_resources_folder():
    assert Path(icon_path("app")).resolve().parent == EDITOR / "icons"
    assert icon_path("app.svg") == icon_path("app")


def test_a_missing_icon_raises_naming_it(qapp):
    with pytest.raises(FileNotFoundError, match="'no-such-icon'"):
        icon_path("no-such-icon")
    with pytest.raises(FileNotFoundError, match="'no-such-icon'"):
        icon("no-such-icon")


def test_an_unreadable_icon_raises_naming_it(qapp, tmp_path, monkeypatch):
    (tmp_path / "broken.svg").write_text("this is not SVG")
    monkeypatch.setattr(resources, "ICONS", tmp_path)
    with pytest.raises(ValueError, match="'broken'"):
        icon("broken")


def test_the_empty_name_is_no_icon(qapp):
    assert icon("").isNull()
    assert icon_path("") == ""
