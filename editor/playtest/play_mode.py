"""PlayMode: the main window's Play menu, toolbar buttons and the switch between editing and playing."""
from __future__ import annotations

import os
import time
from typing import Callable, Optional

from PySide6.QtCore import QEvent, QObject, QPointF, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog

from level_editor.core.playtest.replay import Replay, ReplayFileError, save_replay
from level_editor.core.level.document import ChangeKind
from level_editor.core.collision.shapes import Vec2
from level_editor.core.checks.check import check_level
from level_editor.editor.playtest.editor_snapshot import EditorSnapshot
from level_editor.editor.playtest.host import PlayHost
from level_editor.editor.playtest.session import PlaySession
from level_editor.editor.work import long_task
from level_editor.editor.support import resources
from level_editor.editor.support.subscriptions import subscribe_while_alive

REPLAY_FILTER = "Replays (*.json);;All files (*)"

class PlayMode(QObject):
    """F5 plays the level being drawn; Esc returns to editing exactly where it was.

    Built by the main window once, with a :class:`PlayHost` naming what it may
    use; adds its actions to the window, a Play menu and buttons on the host's
    toolbar. While playing, the window is locked by an :class:`EditorSnapshot`
    and a :class:`PlaySession` runs on the canvas; the document, the undo stack
    and the unsaved mark are never touched.

    ``use_timer`` and ``clock`` are for tests: with ``use_timer`` False, time
    passes only through the session's ``advance()``, ``tick()`` and ``frame()``,
    and every new session reads the time from ``clock``.
    """

    started = Signal()
    stopped = Signal()

    def __init__(self, host: PlayHost):
        super().__init__(host.window)
        self.host = host
        self.use_timer = True
        self.clock: Callable[[], float] = time.perf_counter
        #: The current or last play-test (its replay can still be saved after it stopped).
        self.session: Optional[PlaySession] = None
        self.snapshot: Optional[EditorSnapshot] = None
        self._last_pixel: Optional[QPointF] = None
        self._push_reported = False
        self._checked = None

        self._build_actions()
        self._build_menu()
        self._build_toolbar()
        self._update_actions()
        host.canvas.viewport().installEventFilter(self)
        host.window.installEventFilter(self)
        subscribe_while_alive(host.document, self, self._on_document_changed)

    # -- construction -----------------------------------------------------------------
    def _action(self, text: str, slot, shortcut: str, icon: str, tip: str, checkable: bool = False) -> QAction:
        w = self.host.window
        a = QAction(resources.icon(icon), text, w)  # a missing icon raises
        a.setShortcut(QKeySequence(shortcut))
        a.setStatusTip(tip)
        a.setToolTip(f"{text.replace('&', '').rstrip('…')} ({QKeySequence(shortcut).toString()})")
        a.setCheckable(checkable)
        if checkable:
            a.toggled.connect(slot)
        else:
            a.triggered.connect(lambda checked=False: slot())
        w.addAction(a)
        return a

    def _build_actions(self) -> None:
        self.play_action = self._action("&Play from Spawn", self.play_from_spawn, "F5", "play",
                                        "Play the level from the player's spawn (F5 again restarts)")
        self.play_cursor_action = self._action("Play from &Cursor", self.play_from_cursor, "Shift+F5", "play-cursor",
                                               "Play the level from the point under the mouse")
        self.stop_action = self._action("&Stop", self.stop, "Esc", "stop",
                                        "Stop the play-test and return to editing, the level exactly as it was")
        self.pause_action = self._action("P&ause", self._set_paused, "P", "pause",
                                         "Pause the play-test; the period key then steps one tick", checkable=True)
        self.step_action = self._action("S&tep One Tick", self.step, ".", "step",
                                        "While paused, run exactly one tick")
        self.debug_action = self._action("&Debug Overlay", self._set_debug, "F3", "debug-overlay",
                                         "Show broad-phase candidates, contacts and normals, the slide and the "
                                         "swept shape", checkable=True)
        self.save_replay_action = self._action("Save Play-test &Replay…", self.save_replay_dialog, "Ctrl+R", "",
                                               "Save the wished velocity of every tick; `level-editor simulate` "
                                               "plays it back")
        self.actions = [self.play_action, self.play_cursor_action, self.stop_action, self.pause_action,
                        self.step_action, self.debug_action, self.save_replay_action]

    def _build_menu(self) -> None:
        menu = self.host.menu_bar.addMenu("&Play")
        menu.setObjectName("playMenu")
        menu.addActions([self.play_action, self.play_cursor_action, self.stop_action])
        menu.addSeparator()
        menu.addActions([self.pause_action, self.step_action])
        menu.addSeparator()
        menu.addAction(self.debug_action)
        menu.addSeparator()
        menu.addAction(self.save_replay_action)
        self.menu = menu

    def _build_toolbar(self) -> None:
        bar = self.host.toolbar
        bar.addSeparator()
        bar.addActions([self.play_action, self.stop_action])
        self.toolbar = bar

    def _update_actions(self) -> None:
        playing = self.is_playing
        paused = playing and self.session.paused
        self.stop_action.setEnabled(playing)
        self.pause_action.setEnabled(playing)
        self.step_action.setEnabled(paused)
        self.save_replay_action.setEnabled(self.session is not None)
        self.pause_action.blockSignals(True)
        self.pause_action.setChecked(paused)
        self.pause_action.blockSignals(False)

    # -- state ------------------------------------------------------------------------
    @property
    def is_playing(self) -> bool:
        return self.session is not None and self.session.running

    def cursor_scene_position(self) -> Optional[QPointF]:
        """The level point under the mouse when it is over the canvas, else None."""
        if self.is_playing:
            return self.session.cursor_target()
        if self._last_pixel is None:
            return None
        vp = self.host.canvas.viewport()
        if not vp.rect().contains(self._last_pixel.toPoint()):
            return None
        inverse, ok = self.host.canvas.viewportTransform().inverted()
        return inverse.map(self._last_pixel) if ok else None

    def eventFilter(self, obj, event) -> bool:
        t = event.type()
        if obj is self.host.window:
            if t == QEvent.Close and self.is_playing:
                self.stop()
            return False
        if t in (QEvent.MouseMove, QEvent.MouseButtonPress, QEvent.MouseButtonRelease):
            self._last_pixel = QPointF(event.position())
        elif t == QEvent.Leave:
            self._last_pixel = None
        return False

    # -- playing ----------------------------------------------------------------------
    def play_from_spawn(self) -> bool:
        return self.play(from_cursor=False)

    def play_from_cursor(self) -> bool:
        return self.play(from_cursor=True)

    def play(self, from_cursor: bool = False) -> bool:
        """Start (or restart) the play-test from the spawn, or from the mouse cursor."""
        host = self.host
        level = host.document.level
        start, where = None, "the spawn"
        if from_cursor:
            p = self.cursor_scene_position()
            if p is not None:
                start, where = Vec2(p.x(), p.y()), f"the cursor ({p.x():.0f}, {p.y():.0f})"
            else:
                where = "the spawn (the mouse is not over the canvas)"
        problems = self._errors_of(level)
        if self.is_playing:
            self.session.stop()
        try:
            session = PlaySession(host.canvas, level, start=start, problems=problems, use_timer=self.use_timer,
                                  debug=self.debug_action.isChecked(), clock=self.clock, parent=self)
        except (ValueError, TypeError, ArithmeticError) as e:
            if self.snapshot is not None:
                self._unlock()
            host.show_status(f"Cannot play this level: {e}", 8000)
            return False
        if self.snapshot is None:
            self.snapshot = EditorSnapshot(host)
            self.snapshot.lock()
        if self.session is not None:
            self.session.deleteLater()  # its level's collision world too; only the latest replay is offered
        self.session = session
        self._push_reported = False
        session.stop_requested.connect(self.stop)
        session.paused_changed.connect(self._paused_changed)
        session.ticked.connect(self._ticked)
        session.start()
        self._update_actions()
        self._where = where
        self._show_status()
        self.started.emit()
        return True

    def _errors_of(self, level) -> list:
        """The level's validation errors; a level is an immutable value, so an unchanged one is checked once."""
        if self._checked is not None and self._checked[0] is level:
            return self._checked[1]
        # The Problems dock's background check usually has this very level already; when it has not, a big
        # level's check takes seconds: run beside the window, its progress shown
        result = self.host.checks.result_for(level) or long_task.run_with_progress(
            self.host.window, "Checking the level before playing…", lambda: check_level(level))
        self._checked = (level, list(result.errors))
        return self._checked[1]

    def stop(self) -> None:
        """Back to editing: view, selection and tool as they were; the level untouched."""
        if not self.is_playing:
            return
        session = self.session
        session.stop()
        self._unlock()
        self.host.show_status(
            f"Back to editing after {session.tick_count} ticks; the level is as it was. "
            f"Ctrl+R saves the replay.", 5000)
        self._update_actions()
        self.stopped.emit()

    def _unlock(self) -> None:
        self.snapshot.restore()
        self.snapshot = None

    def step(self) -> None:
        if self.is_playing and self.session.paused:
            self.session.step()

    def _set_paused(self, paused: bool) -> None:
        if self.is_playing:
            self.session.set_paused(paused)

    def _paused_changed(self, paused: bool) -> None:
        self._update_actions()
        self._show_status()

    def _set_debug(self, on: bool) -> None:
        if self.is_playing:
            self.session.set_debug_visible(on)
            self.session.hud.set_lines(self.session.hud_lines())

    def _ticked(self, _n: int) -> None:
        if not self._push_reported and self.session.push_out is not None:
            self._push_reported = True
            self._show_status()

    def _show_status(self) -> None:
        session = self.session
        state = "Paused" if session.paused else "Playing"
        keys = ("Left/Right (A/D) run, Space/Up/W jump (hold for height), Down + Space drops through a one-way "
                "floor." if session.platformer else "Arrows/WASD or hold the left mouse button to move.")
        text = f"{state} from {self._where}. Esc returns to editing · P pause · . step · F3 debug overlay. {keys}"
        notes = session.notes()
        if notes:
            text += "  ⚠ " + " · ".join(notes)
        self.host.show_status(text)

    def _on_document_changed(self, change) -> None:
        # another level was opened (a file dropped on the window): the play-test's level is gone
        if change.kind is ChangeKind.RESET and self.is_playing:
            self.stop()

    # -- replay -----------------------------------------------------------------------
    def replay(self) -> Optional[Replay]:
        """The recording of the current or last play-test."""
        return self.session.replay() if self.session is not None else None

    def ask_replay_path(self) -> str:
        level_path = self.host.level_path()
        base = os.path.splitext(level_path)[0] if level_path else os.path.join(os.getcwd(), "level")
        path, _ = QFileDialog.getSaveFileName(self.host.window, "Save play-test replay", base + ".replay.json",
                                              REPLAY_FILTER)
        return path

    def save_replay_dialog(self) -> bool:
        session = self.session
        if session is None:
            return False
        resume = self.is_playing and not session.paused
        if resume:
            session.set_paused(True)
        path = self.ask_replay_path()
        if resume and self.is_playing:
            session.set_paused(False)
        return bool(path) and self.save_replay_to(path)

    def save_replay_to(self, path: str) -> bool:
        """Write the recording to ``path`` as a replay file (contract section 3)."""
        replay = self.replay()
        if replay is None:
            return False
        try:
            save_replay(path, replay)
        except ReplayFileError as e:
            self.host.show_error("Could not save the replay", str(e))
            return False
        self.host.show_status(
            f"Saved a replay of {replay.ticks} ticks to {path}", 5000)
        return True
