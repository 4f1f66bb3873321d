"""PlayMode: the main window's Play menu, toolbar buttons and the switch between editing and playing."""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QEvent, QObject, QPointF, Signal
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QFileDialog, QToolBar

from core.playtest.replay import Replay, ReplayFileError, save_replay
from core.level.document import ChangeKind
from core.collision.shapes import Vec2
from core.checks.check import check_level
from editor.playtest.editor_snapshot import EditorSnapshot
from editor.playtest.session import PlayTest
from editor.resources import icon_path
from editor.subscriptions import subscribe_while_alive

REPLAY_FILTER = "Replays (*.json);;All files (*)"


def _icon(name: str) -> QIcon:
    path = icon_path(name)
    return QIcon(path) if os.path.exists(path) else QIcon()


class PlayMode(QObject):
    """F5 plays the level being drawn; Esc returns to editing exactly where it was.

    Built by the main window once; adds its actions to the window, a Play menu
    and buttons on the main toolbar. While playing, the window is locked by an
    :class:`EditorSnapshot` and a :class:`PlayTest` runs on the canvas; the
    document, the undo stack and the unsaved mark are never touched.

    ``use_timer`` is for tests: when False, time passes only through
    ``play_test.advance()`` and ``play_test.tick()``.
    """

    started = Signal()
    stopped = Signal()

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.use_timer = True
        self.play_test: Optional[PlayTest] = None
        self.snapshot: Optional[EditorSnapshot] = None
        self._last_pixel: Optional[QPointF] = None
        self._push_reported = False
        self._checked = None

        self._build_actions()
        self._build_menu()
        self._build_toolbar()
        self._update_actions()
        window.canvas.viewport().installEventFilter(self)
        window.installEventFilter(self)
        subscribe_while_alive(window.document, self, self._on_document_changed)

    # -- construction -----------------------------------------------------------------
    def _action(self, text: str, slot, shortcut: str, icon: str, tip: str, checkable: bool = False) -> QAction:
        w = self.window
        a = QAction(_icon(icon), text, w)
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
        menu = self.window.menuBar().addMenu("&Play")
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
        bar = self.window.findChild(QToolBar, "mainToolBar")
        if bar is None:
            bar = QToolBar("Play", self.window)
            bar.setObjectName("playToolBar")
            self.window.addToolBar(bar)
        bar.addSeparator()
        bar.addActions([self.play_action, self.stop_action])
        self.toolbar = bar

    def _kept_actions(self) -> list[QAction]:
        """Actions that stay usable while playing: the Play menu, zoom, quit."""
        w = self.window
        names = ("zoom_in_action", "zoom_out_action", "actual_size_action", "quit_action")
        return self.actions + [getattr(w, n) for n in names if getattr(w, n, None) is not None]

    def _update_actions(self) -> None:
        playing = self.is_playing
        paused = playing and self.play_test.paused
        self.stop_action.setEnabled(playing)
        self.pause_action.setEnabled(playing)
        self.step_action.setEnabled(paused)
        self.save_replay_action.setEnabled(self.play_test is not None)
        self.pause_action.blockSignals(True)
        self.pause_action.setChecked(paused)
        self.pause_action.blockSignals(False)

    # -- state ------------------------------------------------------------------------
    @property
    def is_playing(self) -> bool:
        return self.play_test is not None and self.play_test.running

    def cursor_scene_position(self) -> Optional[QPointF]:
        """The level point under the mouse when it is over the canvas, else None."""
        if self.is_playing:
            return self.play_test.cursor_target()
        if self._last_pixel is None:
            return None
        vp = self.window.canvas.viewport()
        if not vp.rect().contains(self._last_pixel.toPoint()):
            return None
        inverse, ok = self.window.canvas.viewportTransform().inverted()
        return inverse.map(self._last_pixel) if ok else None

    def eventFilter(self, obj, event) -> bool:
        t = event.type()
        if obj is self.window:
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
        w = self.window
        level = w.document.level
        start, where = None, "the spawn"
        if from_cursor:
            p = self.cursor_scene_position()
            if p is not None:
                start, where = Vec2(p.x(), p.y()), f"the cursor ({p.x():.0f}, {p.y():.0f})"
            else:
                where = "the spawn (the mouse is not over the canvas)"
        problems = self._errors_of(level)
        if self.is_playing:
            self.play_test.stop()
        try:
            play_test = PlayTest(w.canvas, level, start=start, problems=problems, use_timer=self.use_timer,
                                 debug=self.debug_action.isChecked(), parent=self)
        except (ValueError, TypeError, ArithmeticError) as e:
            if self.snapshot is not None:
                self._unlock()
            w.statusBar().showMessage(f"Cannot play this level: {e}", 8000)
            return False
        if self.snapshot is None:
            self.snapshot = EditorSnapshot(w, keep=self._kept_actions())
            self.snapshot.lock()
        if self.play_test is not None:
            self.play_test.deleteLater()  # its level's collision world too; only the latest replay is offered
        self.play_test = play_test
        self._push_reported = False
        play_test.stop_requested.connect(self.stop)
        play_test.paused_changed.connect(self._paused_changed)
        play_test.ticked.connect(self._ticked)
        play_test.start()
        self._update_actions()
        self._where = where
        self._show_status()
        self.started.emit()
        return True

    def _errors_of(self, level) -> list:
        """The level's validation errors; a level is an immutable value, so an unchanged one is checked once."""
        if self._checked is not None and self._checked[0] is level:
            return self._checked[1]
        # The Problems dock's background check usually has this very level already.
        result = self.window.checks.result_for(level) or check_level(level)
        self._checked = (level, list(result.errors))
        return self._checked[1]

    def stop(self) -> None:
        """Back to editing: view, selection and tool as they were; the level untouched."""
        if not self.is_playing:
            return
        pt = self.play_test
        pt.stop()
        self._unlock()
        self.window.statusBar().showMessage(
            f"Back to editing after {pt.tick_count} ticks; the level is as it was. "
            f"Ctrl+R saves the replay.", 5000)
        self._update_actions()
        self.stopped.emit()

    def _unlock(self) -> None:
        self.snapshot.restore()
        self.snapshot = None

    def step(self) -> None:
        if self.is_playing and self.play_test.paused:
            self.play_test.step()

    def _set_paused(self, paused: bool) -> None:
        if self.is_playing:
            self.play_test.set_paused(paused)

    def _paused_changed(self, paused: bool) -> None:
        self._update_actions()
        self._show_status()

    def _set_debug(self, on: bool) -> None:
        if self.is_playing:
            self.play_test.set_debug_visible(on)
            self.play_test.hud.set_lines(self.play_test.hud_lines())

    def _ticked(self, _n: int) -> None:
        if not self._push_reported and self.play_test.push_out is not None:
            self._push_reported = True
            self._show_status()

    def _show_status(self) -> None:
        pt = self.play_test
        state = "Paused" if pt.paused else "Playing"
        text = (f"{state} from {self._where}. Esc returns to editing · P pause · . step · F3 debug overlay. "
                f"Arrows/WASD or hold the left mouse button to move.")
        notes = pt.notes()
        if notes:
            text += "  ⚠ " + " · ".join(notes)
        self.window.statusBar().showMessage(text)

    def _on_document_changed(self, change) -> None:
        # another level was opened (a file dropped on the window): the play-test's level is gone
        if change.kind is ChangeKind.RESET and self.is_playing:
            self.stop()

    # -- replay -----------------------------------------------------------------------
    def replay(self) -> Optional[Replay]:
        """The recording of the current or last play-test."""
        return self.play_test.replay() if self.play_test is not None else None

    def ask_replay_path(self) -> str:
        w = self.window
        base = os.path.splitext(w.path)[0] if w.path else os.path.join(os.getcwd(), "level")
        path, _ = QFileDialog.getSaveFileName(w, "Save play-test replay", base + ".replay.json", REPLAY_FILTER)
        return path

    def save_replay_dialog(self) -> bool:
        pt = self.play_test
        if pt is None:
            return False
        resume = self.is_playing and not pt.paused
        if resume:
            pt.set_paused(True)
        path = self.ask_replay_path()
        if resume and self.is_playing:
            pt.set_paused(False)
        return bool(path) and self.save_replay_to(path)

    def save_replay_to(self, path: str) -> bool:
        """Write the recording to ``path`` as a replay file (contract section 3)."""
        replay = self.replay()
        if replay is None:
            return False
        try:
            save_replay(path, replay)
        except ReplayFileError as e:
            self.window.show_error("Could not save the replay", str(e))
            return False
        self.window.statusBar().showMessage(
            f"Saved a replay of {len(replay.velocities)} ticks to {path}", 5000)
        return True
