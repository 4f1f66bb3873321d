"""Play mode needs nothing of a window but its PlayHost: a bare window built around one plays and gives back."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QAction, QUndoStack
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenuBar, QToolBar

from level_editor.core.level.document import LevelDocument
from level_editor.editor.canvas.canvas import Canvas
from level_editor.editor.canvas.scene import LevelScene
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.playtest.host import PlayHost
from level_editor.editor.playtest.play_mode import PlayMode
from level_editor.editor.work.validation_runner import ValidationRunner
from tests.editor.playtest.conftest import field_level


class BareHost:
    """A plain QMainWindow that is no MainWindow: a canvas, one action, one dock, and lists for what it is told."""

    def __init__(self, qtbot):
        self.window = window = QMainWindow()
        qtbot.addWidget(window)
        self.document = LevelDocument(field_level())
        self.undo_stack = QUndoStack(window)
        scene = LevelScene(self.document, window)
        self.context = EditorContext(self.document, scene, self.undo_stack, window)
        scene.set_selection(self.context.selection)
        self.canvas = Canvas(scene, window)
        window.setCentralWidget(self.canvas)
        self.edit_action = QAction("Edit", window)
        window.addAction(self.edit_action)
        self.dock = QDockWidget("Panel", window)
        self.dock.setWidget(QLabel("panel"))
        self.toolbar = QToolBar("Main", window)
        window.addToolBar(self.toolbar)
        self.menu_bar = QMenuBar(window)
        window.setMenuBar(self.menu_bar)
        self.checks = ValidationRunner(self.document, window)
        self.messages: list[str] = []
        self.errors: list[tuple[str, str]] = []
        self.host = PlayHost(
            window=window, context=self.context, canvas=self.canvas, checks=self.checks,
            locked_actions=(self.edit_action,), docks=(self.dock,), toolbar=self.toolbar, menu_bar=self.menu_bar,
            show_status=lambda text, timeout=0: self.messages.append(text),
            show_error=lambda title, text: self.errors.append((title, text)),
            level_path=lambda: None,
        )
        window.resize(800, 600)
        window.show()
        qtbot.waitExposed(window)


@pytest.fixture
def bare(qtbot):
    bare = BareHost(qtbot)
    yield bare
    bare.checks.close()


def test_play_mode_runs_on_any_host_and_gives_everything_back(bare):
    mode = PlayMode(bare.host)
    mode.use_timer = False
    assert [a.text() for a in bare.menu_bar.actions()] == ["&Play"]
    assert mode.play_action in bare.toolbar.actions()
    level = bare.document.level

    assert mode.play()
    assert not bare.edit_action.isEnabled() and not bare.dock.isEnabled()
    assert bare.context.read_only and bare.host.scene.tool is None
    assert "Esc returns to editing" in bare.messages[-1]
    mode.session.advance(0.25)

    mode.stop()
    assert bare.edit_action.isEnabled() and bare.dock.isEnabled() and not bare.context.read_only
    assert bare.document.level is level and bare.undo_stack.count() == 0
    assert bare.messages[-1].startswith("Back to editing after 15 ticks")


def test_a_failure_goes_to_the_host_s_show_error(bare, tmp_path):
    mode = PlayMode(bare.host)
    mode.use_timer = False
    mode.play()
    mode.stop()
    assert not mode.save_replay_to(str(tmp_path / "no" / "such" / "folder" / "r.json"))
    assert [title for title, _ in bare.errors] == ["Could not save the replay"]


def test_a_host_is_a_fixed_value(bare):
    with pytest.raises(AttributeError):
        bare.host.docks = ()
    assert bare.host.document is bare.document and bare.host.selection is bare.context.selection
