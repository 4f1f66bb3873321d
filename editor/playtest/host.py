"""PlayHost: what a play-test may use of the editor window that runs it, each part named."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDockWidget, QMenuBar, QToolBar, QWidget

    from level_editor.core.level.document import LevelDocument
    from level_editor.editor.canvas.canvas import Canvas
    from level_editor.editor.canvas.scene import LevelScene
    from level_editor.editor.canvas.context import EditorContext
    from level_editor.editor.canvas.selection import Selection
    from level_editor.editor.work.validation_runner import ValidationRunner


@dataclass(frozen=True)
class PlayHost:
    """The window's side of a play-test, built by the window; play mode reaches no further.

    Nothing is looked up by attribute or object name: an action the window adds
    is locked while playing only when it is listed in ``locked_actions``
    (tests/editor/playtest/test_play_mode.py checks that none is forgotten).

    Attributes
    ----------
    window : QWidget
        The top-level window: the Play actions' shortcuts live on it, the replay dialog
        opens over it, closing it stops a play-test, and it refuses dropped files while playing.
    context : EditorContext
        The document, selection and scene; made read-only while playing, so no command lands.
    canvas : Canvas
        The view the play-test runs on; its zoom and scroll are given back afterwards.
    checks : ValidationRunner
        The background check, whose latest result spares F5 validating the same level again.
    locked_actions : tuple of QAction
        Disabled while playing (everything but the Play actions, zoom and quit).
    docks : tuple of QDockWidget
        Disabled while playing.
    toolbar, menu_bar : QToolBar, QMenuBar
        Where the Play buttons and the Play menu go.
    show_status : callable(text, timeout_ms=0)
        A message in the status bar; 0 keeps it until the next one.
    show_error : callable(title, text)
        A failure the designer must see (a replay that could not be saved).
    level_path : callable() -> str or None
        The open level's file, if it has one: replays are offered beside it.
    """

    window: QWidget
    context: EditorContext
    canvas: Canvas
    checks: ValidationRunner
    locked_actions: tuple[QAction, ...]
    docks: tuple[QDockWidget, ...]
    toolbar: QToolBar
    menu_bar: QMenuBar
    show_status: Callable[..., None]
    show_error: Callable[[str, str], None]
    level_path: Callable[[], Optional[str]]

    @property
    def document(self) -> LevelDocument:
        return self.context.document

    @property
    def scene(self) -> LevelScene:
        return self.context.scene

    @property
    def selection(self) -> Selection:
        return self.context.selection
