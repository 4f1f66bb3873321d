"""The editor application: ``level-editor [LEVEL.json]`` ends up in :func:`run`."""
from __future__ import annotations

import os
import sys
from typing import Optional

from PySide6.QtWidgets import QApplication

from level_editor.core.level.atomic import remove_stale_temporaries
from level_editor.editor.documents.files import APP_NAME
from level_editor.editor.support.guard import report_error
from level_editor.editor.window.main_window import MainWindow
from level_editor.editor.support.resources import icon

_windows: list[MainWindow] = []


def _uncaught(kind, error, trace) -> None:
    """``sys.excepthook``: an error no guard caught is still told in words, and the editor goes on."""
    if issubclass(kind, (KeyboardInterrupt, SystemExit)):
        sys.__excepthook__(kind, error, trace)
        return
    if error is None:
        error = kind()
    if error.__traceback__ is None:
        error.__traceback__ = trace
    report_error("running the editor", error)


def install_excepthook() -> None:
    """Send every uncaught exception (PySide6 hands an override's error to ``sys.excepthook``) to the guard."""
    sys.excepthook = _uncaught


def application() -> QApplication:
    """The running QApplication (made on first use), named so QSettings finds the recent files."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setStyle("Fusion")
    app.setOrganizationName("level-editor")
    app.setApplicationName(APP_NAME)
    app.setWindowIcon(icon("app"))
    install_excepthook()
    return app


def open_window(path: Optional[str] = None) -> MainWindow:
    """A shown editor window on ``path``; a path that does not exist yet becomes a new level saved there."""
    application()
    window = MainWindow()
    _windows.append(window)
    window.destroyed.connect(lambda *_: _windows.remove(window) if window in _windows else None)
    window.show()
    if path:
        # what a save killed mid-way left beside the level (the open below does it too; a new level's folder
        # would otherwise keep them)
        remove_stale_temporaries(os.path.dirname(os.path.abspath(path)))
        if os.path.exists(path):
            window.open_file(path, ask=False)
        else:
            window.new_level_at(path)
    else:
        window.canvas.fit_level()
    return window


def run(path: Optional[str] = None) -> int:
    """Open the editor on ``path`` (or an empty level), offer to restore unsaved work a crash left behind, and run
    until its window closes; returns the exit code."""
    app = application()
    window = open_window(path)
    from level_editor.editor.panels.recovery_dialog import offer_recovery

    offer_recovery(window, open_window)  # what a crashed editor left behind
    return app.exec()
