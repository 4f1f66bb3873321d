"""The editor application: ``level-editor [LEVEL.json]`` ends up in :func:`run`."""
from __future__ import annotations

import os
import sys
from typing import Optional

from PySide6.QtWidgets import QApplication

from editor.files import APP_NAME
from editor.main_window import MainWindow
from editor.resources import icon

_windows: list[MainWindow] = []


def application() -> QApplication:
    """The running QApplication (made on first use), named so QSettings finds the recent files."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setStyle("Fusion")
    app.setOrganizationName("level-editor")
    app.setApplicationName(APP_NAME)
    app.setWindowIcon(icon("app"))
    return app


def open_window(path: Optional[str] = None) -> MainWindow:
    """A shown editor window on ``path``; a path that does not exist yet becomes a new level saved there."""
    application()
    window = MainWindow()
    _windows.append(window)
    window.destroyed.connect(lambda *_: _windows.remove(window) if window in _windows else None)
    window.show()
    if path:
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
    from editor.panels.recovery_dialog import offer_recovery

    offer_recovery(window, open_window)  # what a crashed editor left behind
    return app.exec()
