"""Errors the guard catches reach the designer in words: the status bar always, a dialog only for an action
they chose, and never a flood of dialogs."""
from __future__ import annotations

import sys

import pytest

from level_editor.editor import app

from level_editor.editor.support import error_reporter, guard
from tests.editor.helpers import make_window, sample_level


@pytest.fixture
def reporting(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path, sample_level())
    monkeypatch.setattr(error_reporter, "DIALOG_INTERVAL", 0.0)  # a dialog may come however soon after another
    error_reporter.install(window)
    yield window
    guard.set_error_handler(None)


def test_a_menu_action_that_fails_shows_one_dialog_and_leaves_the_level(reporting, monkeypatch):
    window = reporting
    level = window.document.level

    def broken():
        raise KeyError()  # an error without words of its own

    monkeypatch.setattr(window.canvas, "fit_level", broken)
    # the action calls the slot it was given at construction: rebuild the call through the menu entry
    window.fit_action.triggered.disconnect()
    window.fit_action.triggered.connect(guard.guarded("Fit Level", explicit=True)(lambda *_: window.canvas.fit_level()))
    window.fit_action.trigger()
    assert window.errors == [("Something went wrong", "Fit Level failed: KeyError",
                              "The action was stopped. The level is as it was before it: nothing was changed, "
                              "and unsaved edits are still open.")]
    assert window.statusBar().currentMessage() == "Fit Level failed: KeyError"
    assert window.document.level is level
    monkeypatch.setattr(error_reporter, "DIALOG_INTERVAL", 1e9)  # "at once", however slow the machine
    window.fit_action.trigger()  # again at once: the status bar says it, no second box
    assert len(window.errors) == 1


def test_the_real_menu_actions_are_guarded(reporting, monkeypatch):
    window = reporting

    def broken():
        raise OverflowError("int too large to convert")

    monkeypatch.setattr(window.canvas, "set_zoom", lambda *a, **k: broken())
    window.actual_size_action.trigger()
    assert window.errors and window.errors[0][1] == "Actual Size failed: int too large to convert (OverflowError)"


def test_errors_in_events_never_open_a_dialog(reporting):
    window = reporting
    for i in range(50):
        guard.report_error("moving the mouse on the canvas", ValueError(f"bad {i}"))
    assert window.errors == []
    assert window.statusBar().currentMessage() == ("Moving the mouse on the canvas failed: bad 49 (ValueError) "
                                                   "– it was cancelled")


def test_uncaught_errors_go_to_the_designer_not_to_qt(reporting, monkeypatch):
    window = reporting
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    app.install_excepthook()
    assert sys.excepthook is not sys.__excepthook__
    try:
        raise RuntimeError("lost in a slot")
    except RuntimeError:
        sys.excepthook(*sys.exc_info())
    assert window.statusBar().currentMessage().startswith("Running the editor failed: lost in a slot (RuntimeError)")


def test_describe_is_never_empty_and_drops_pysides_wrapping():
    assert guard.describe(ValueError()) == "ValueError"
    assert guard.describe(ValueError("   ")) == "ValueError"
    wrapped = OverflowError("Error calling Python override of QGraphicsView::wheelEvent(): "
                            "Error calling Python override of QGraphicsScene::wheelEvent(): too far")
    assert guard.describe(wrapped) == "too far (OverflowError)"


def test_an_error_while_closing_keeps_the_window_and_its_edits(reporting, monkeypatch):
    window = reporting

    def broken():
        raise RuntimeError("autosave folder vanished")

    monkeypatch.setattr(window, "maybe_save", broken)
    assert not window.close()
    assert window.isVisible()
    assert window.statusBar().currentMessage().startswith("Closing the window failed: autosave folder vanished")
