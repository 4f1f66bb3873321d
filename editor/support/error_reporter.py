"""How the designer hears of an error the boundary guard caught (:mod:`level_editor.editor.support.guard`).

Every caught error is said in the status bar of the window it happened in, in words
("Moving the mouse on the canvas failed: … – the gesture was cancelled"). An action the designer
chose (a menu entry, a toolbar button: ``explicit``) also gets a dialog, but never more than one at a
time nor one every :data:`DIALOG_INTERVAL` seconds: a broken tool that fails on every mouse move
fills the status bar, never the screen with boxes. The document is never touched here: only undo
commands change it, and a failed one changed nothing.
"""
from __future__ import annotations

import time
import weakref

from PySide6.QtWidgets import QApplication, QMainWindow

from level_editor.editor.support.guard import describe, set_error_handler

#: Seconds between two error dialogs, at least.
DIALOG_INTERVAL = 3.0
#: How long the status bar keeps an error message, in milliseconds.
STATUS_MS = 15000

_windows: "weakref.WeakSet[QMainWindow]" = weakref.WeakSet()
_order: list = []  # weak references, newest last: the window an error belongs to when none is active
_last_dialog = -float("inf")
_showing = False


def install(window: QMainWindow) -> None:
    """Route caught errors to ``window`` (when it is the active one, or the newest window)."""
    _windows.add(window)
    _order.append(weakref.ref(window))
    set_error_handler(report)


def _window_for_error() -> QMainWindow | None:
    active = QApplication.activeWindow()
    while active is not None and active not in _windows:
        active = active.parentWidget()
    if active is not None:
        return active
    for ref in reversed(_order):
        window = ref()
        if window is not None and window in _windows:
            try:
                window.isVisible()  # raises once Qt deleted the C++ window
            except RuntimeError:
                continue
            return window
    return None


def sentence(where: str, error: BaseException) -> str:
    """``"Saving failed: disk full (OSError)"``: what failed, then why."""
    return f"{where[:1].upper()}{where[1:]} failed: {describe(error)}"


def report(where: str, error: BaseException, explicit: bool) -> None:
    """The handler :func:`install` sets: a status-bar message, and a throttled dialog for an explicit action."""
    global _last_dialog, _showing
    window = _window_for_error()
    text = sentence(where, error)
    if window is None:
        import sys
        print(f"level-editor: {text}", file=sys.stderr)
        return
    window.statusBar().showMessage(text if explicit else f"{text} – it was cancelled", STATUS_MS)
    now = time.monotonic()
    if not explicit or _showing or now - _last_dialog < DIALOG_INTERVAL:
        return
    _showing = True
    try:
        window.show_error(
            "Something went wrong", text,
            "The action was stopped. The level is as it was before it: nothing was changed, and unsaved "
            "edits are still open.")
    finally:
        _showing = False
        _last_dialog = time.monotonic()
