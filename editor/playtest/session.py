"""PlaySession: one play-test on the canvas: fixed ticks, input, drawing, recording."""
from __future__ import annotations

import math
import time
from collections import deque
from typing import Callable, Optional, Sequence

from PySide6.QtCore import QEvent, QObject, QPointF, Qt, QTimer, Signal
from PySide6.QtWidgets import QGraphicsView

from level_editor.core.collision.planes import CONTACT
from level_editor.core.level.model import moving_path
from level_editor.core.playtest.fixed_step import FixedStep
from level_editor.core.playtest.replay import Replay
from level_editor.core.collision.shapes import Vec2, as_vec2
from level_editor.core.playtest.simulation import DEFAULT_DT, Simulation, wished_velocity as velocity_of
from level_editor.core.playtest.steering import key_input, seek_input
from level_editor.editor.items.object_item import show_offset
from level_editor.editor.playtest.debug_overlay_item import DebugOverlayItem
from level_editor.editor.playtest.hud_widget import WARNING_PREFIX, HudWidget
from level_editor.editor.playtest.play_camera import PlayCamera
from level_editor.editor.playtest.play_input import PlayInput
from level_editor.editor.playtest.play_player_item import PlayPlayerItem

#: The most ticks one frame may run; a longer stall drops the rest (no spiral of death).
MAX_TICKS_PER_FRAME = 8
#: Frames that ``advance`` cuts a stretch of time into, like a 60 Hz display.
TEST_FRAME = 1.0 / 60.0
#: The HUD's numbers change this often (s): faster is unreadable.
HUD_PERIOD = 0.1
#: The latest area events (entered, left) the HUD lists.
EVENTS_SHOWN = 3
_MOVE_MODIFIERS = Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier


class PlaySession(QObject):
    """A running play-test of one level on a canvas.

    Owns a :class:`level_editor.core.playtest.simulation.Simulation` built from a snapshot of the
    level (levels are immutable values, so the document is never touched). On
    every display frame (:meth:`frame`, run by a display-rate timer) the
    ``clock`` says how much time passed, and :attr:`fixed_step` turns that into
    whole ticks of ``dt``. The player is drawn between its last two tick
    positions, so motion is smooth at any frame rate.

    Every tick's wished velocity is recorded (:meth:`replay`) together with
    the position the editor showed after it (:attr:`shown_positions`);
    ``level-editor simulate`` on that replay gives exactly those positions.

    Tests drive time without the timer (``use_timer=False``): with
    :meth:`advance` and :meth:`tick`, or by moving a stand-in ``clock`` and
    calling :meth:`frame`, while the input still comes from real key and mouse
    events on the canvas.

    Parameters
    ----------
    view : QGraphicsView
        The canvas; items go into its scene, the HUD over its viewport.
    level : level_editor.core.level.model.Level
        What to play.
    start : Vec2, optional
        Where the player starts; the spawn by default.
    problems : sequence of level_editor.core.level.problems.Problem
        The level's validation errors, listed in the HUD.
    clock : callable() -> float
        The time in seconds, only ever compared with itself (:func:`time.perf_counter`
        by default); frames and the HUD's tick time are measured with it.

    Examples
    --------
    A frame of 2.5 ticks runs two of them and draws the player halfway into the third::

        now = [0.0]
        session = PlaySession(canvas, level, use_timer=False, clock=lambda: now[0])
        session.start()
        now[0] += 2.5 * session.dt
        session.frame()   # session.tick_count == 2, session.fixed_step.alpha == 0.5
    """

    #: After every tick, with the number of ticks run so far.
    ticked = Signal(int)
    #: Esc reached the canvas itself (normally the Stop action's shortcut takes it first).
    stop_requested = Signal()
    paused_changed = Signal(bool)

    def __init__(self, view: QGraphicsView, level, start=None, problems: Sequence = (),
                 use_timer: bool = True, debug: bool = False, clock: Callable[[], float] = time.perf_counter,
                 parent: Optional[QObject] = None):
        super().__init__(parent)
        self.view = view
        self.level = level
        self.sim = Simulation(level, start=start, dt=DEFAULT_DT)
        self.dt = self.sim.dt
        self.speed = float(level.player.speed)
        #: Real time in, whole ticks out (and how far into the next tick the display is).
        self.fixed_step = FixedStep(self.dt, MAX_TICKS_PER_FRAME)
        self.clock = clock
        self.input = PlayInput(self)
        self.problems = [p for p in problems if p.is_error]
        self.use_timer = use_timer
        self.running = False
        self.paused = False

        #: What was pressed in every tick, ``(move_x, move_y, jump)``, as a version 2 replay records it.
        self.inputs: list[tuple[float, float, int]] = []
        #: The wished velocity of every tick, in order (a platformer's: its velocity after the tick).
        self.velocities: list[Vec2] = []
        #: Whether the level is played as a platformer (gravity, jumps) or top-down.
        self.platformer = self.sim.platformer is not None
        #: The player's centre the editor showed after every tick.
        self.shown_positions: list[Vec2] = []
        self.previous = self.sim.position
        self.push_out: Optional[tuple[Vec2, tuple]] = None
        self._show_latest = True

        #: The canvas items of the objects that move (a platformer's lifts), with their paths: drawn where the
        #: simulation has them, and put back when the play-test stops.
        self.moving_items = []
        if self.platformer or self.sim.moving is not None:
            scene = view.scene()
            for obj in level.objects:
                path = moving_path(obj)
                item = scene.item(obj.id) if path is not None and hasattr(scene, "item") else None
                if item is not None:
                    self.moving_items.append((item, path))
        self.player_item = PlayPlayerItem(level.player)
        self.overlay = DebugOverlayItem(self.sim.world)
        self.overlay.setVisible(debug)
        self.hud = HudWidget(view)
        self.hud.hide()
        self.camera: Optional[PlayCamera] = None

        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.PreciseTimer)
        self._timer.timeout.connect(self.frame)
        self._last_frame = 0.0
        self._frame_seconds: deque[float] = deque(maxlen=30)
        self._tick_seconds: deque[float] = deque(maxlen=60)
        self._hud_wait = 0.0
        self._filtered: list[QObject] = []

    # -- session ----------------------------------------------------------------------
    @property
    def start_position(self) -> Vec2:
        return self.sim.start

    @property
    def position(self) -> Vec2:
        """The player's centre after the last tick."""
        return self.sim.position

    @property
    def tick_count(self) -> int:
        return self.sim.tick

    def start(self) -> None:
        """Put the player on the canvas and start taking input (and time, with the timer)."""
        if self.running:
            return
        self.running = True
        scene = self.view.scene()
        scene.addItem(self.overlay)
        scene.addItem(self.player_item)
        self.camera = PlayCamera(self.view)
        self.hud.place()
        self.hud.show()
        for obj in (self.view, self.view.viewport(), self.view.window()):
            obj.installEventFilter(self)
            self._filtered.append(obj)
        self._render(0.0)
        self._update_hud()
        self._last_frame = self.clock()
        if self.use_timer:
            screen = self.view.screen()
            rate = screen.refreshRate() if screen is not None else 60.0
            self._timer.start(max(1, int(1000.0 / (rate if rate > 1 else 60.0))))

    def stop(self) -> None:
        """Take everything off the canvas; the recording stays (:meth:`replay`)."""
        if not self.running:
            return
        self.running = False
        self._timer.stop()
        for obj in self._filtered:
            obj.removeEventFilter(self)
        self._filtered = []
        self.input.clear()
        for item, _path in self.moving_items:
            show_offset([item], 0.0, 0.0)  # back where the document has them
        scene = self.player_item.scene()
        if scene is not None:
            scene.removeItem(self.player_item)
            scene.removeItem(self.overlay)
        self.hud.hide()
        self.hud.deleteLater()

    def replay(self) -> Replay:
        """What was played so far, as a version 2 replay's contents (contract section 3): what was pressed."""
        start = None if self.sim.start == as_vec2(self.level.player.spawn) else self.sim.start
        return Replay(self.dt, start=start, inputs=tuple(self.inputs))

    # -- time -------------------------------------------------------------------------
    def advance(self, seconds: float) -> int:
        """Let ``seconds`` of play pass in 60 Hz frames, as the timer would; returns the ticks run."""
        before = self.sim.tick
        left = float(seconds)
        while left > 1e-12:
            frame = min(TEST_FRAME, left)
            self._frame(frame)
            left -= frame
        self._update_hud()
        return self.sim.tick - before

    def tick(self) -> Vec2:
        """Run exactly one tick now with the current input and show its result."""
        self._tick()
        self._show_latest = True
        self._render(0.0)
        self._update_hud()
        return self.sim.position

    def step(self) -> None:
        """One tick while paused (the period key)."""
        if self.paused:
            self.tick()

    def set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        self.fixed_step.reset()
        self._show_latest = True
        self._render(0.0)
        self._update_hud()
        self.paused_changed.emit(paused)

    def set_debug_visible(self, visible: bool) -> None:
        self.overlay.setVisible(visible)
        if visible:
            self.overlay.show_tick(self.sim.last)

    def frame(self) -> None:
        """One display frame: run the ticks the time since the last frame (by the clock) is worth, and draw."""
        now = self.clock()
        seconds = now - self._last_frame
        self._last_frame = now
        self._frame(seconds)

    def _frame(self, seconds: float) -> None:
        self._frame_seconds.append(seconds)
        if not self.paused:
            n = self.fixed_step.advance(seconds)
            for _ in range(n):
                self._tick()
            if n:
                self._show_latest = False
        self._render(seconds)
        self._hud_wait += seconds
        if self._hud_wait >= HUD_PERIOD:
            self._update_hud()

    def _tick(self) -> None:
        pressed = self.current_input()
        self.input.tick_read()
        self.previous = self.sim.position
        t0 = self.clock()
        pos = self.sim.step_inputs(*pressed)
        self._tick_seconds.append(self.clock() - t0)
        self.inputs.append(pressed)
        self.velocities.append(self.sim.last.wished)
        self.shown_positions.append(pos)
        last = self.sim.last
        if self.push_out is None and (last.pushed_out.x or last.pushed_out.y):
            inside = tuple(c.object_id for c in last.contacts) or last.candidate_ids
            self.push_out = (last.pushed_out, tuple(dict.fromkeys(inside)))
        self.ticked.emit(self.sim.tick)

    # -- input ------------------------------------------------------------------------
    def cursor_target(self) -> Optional[QPointF]:
        """The level point under the mouse, where the player steers while the button is held."""
        if self.input.cursor is None:
            return None
        inverse, ok = self.view.viewportTransform().inverted()
        return inverse.map(self.input.cursor) if ok else None

    def current_input(self) -> tuple[float, float, int]:
        """What is pressed now, as a version 2 replay's tick ``(move_x, move_y, jump)``.

        Top-down: the movement keys (a diagonal is as fast as one key), else the mouse while its button is
        held. Platformer: left and right run, Down (or S) holds down, Space, Up or W jump.
        """
        right, down = self.input.direction()
        if self.platformer:
            return float(right), 1.0 if down > 0 else 0.0, int(self.input.jump_held(up_jumps=True))
        jump = int(self.input.jump_held())
        if right or down:
            return (*key_input(right, down), jump)
        if self.input.steering:
            target = self.cursor_target()
            if target is not None:
                return (*seek_input(self.sim.position, (target.x(), target.y()), self.speed, self.dt), jump)
        return 0.0, 0.0, jump

    def wished_velocity(self) -> Vec2:
        """This tick's wished velocity of a top-down player: ``speed * (move_x, move_y)`` of :meth:`current_input`."""
        move_x, move_y, _ = self.current_input()
        return velocity_of(self.speed, move_x, move_y)

    def eventFilter(self, obj, event) -> bool:
        t = event.type()
        if t in (QEvent.KeyPress, QEvent.KeyRelease, QEvent.ShortcutOverride):
            return self._key_event(obj, event)
        if obj is self.view.viewport():
            return self._viewport_event(event)
        if t == QEvent.FocusOut and obj is self.view:
            self.input.clear()
        elif t == QEvent.WindowDeactivate and obj is self.view.window():
            self.input.clear()
        return False

    def _key_event(self, obj, event) -> bool:
        t = event.type()
        key = event.key()
        moves = self.input.is_direction_key(key) and not (event.modifiers() & _MOVE_MODIFIERS)
        if t == QEvent.ShortcutOverride:
            # movement letters (W, S are tool keys) must reach us as key presses, not trigger actions
            if moves:
                event.accept()
                return True
            return False
        if moves:
            if not event.isAutoRepeat():
                if t == QEvent.KeyPress:
                    self.input.key_pressed(key)
                else:
                    self.input.key_released(key)
            return True
        if t == QEvent.KeyPress and key == Qt.Key_Escape:
            self.stop_requested.emit()
            return True
        # the canvas passes keys to the active tool: nothing of that while playing
        return obj is not self.view.window()

    def _viewport_event(self, event) -> bool:
        t = event.type()
        if t in (QEvent.MouseButtonPress, QEvent.MouseButtonDblClick):
            if event.button() == Qt.LeftButton:
                self.input.mouse_pressed(event.position())
            return True
        if t == QEvent.MouseMove:
            self.input.mouse_moved(event.position())
            return True
        if t == QEvent.MouseButtonRelease:
            if event.button() == Qt.LeftButton:
                self.input.mouse_released()
            return True
        if t == QEvent.ContextMenu:
            return True
        if t == QEvent.Leave and not self.input.steering:
            self.input.cursor = None
        if t == QEvent.Resize:
            self.hud.place()
        return False

    # -- drawing ----------------------------------------------------------------------
    def shown_position(self) -> Vec2:
        """Where the player is drawn now: between the last two ticks, by the fixed step's fraction."""
        cur = self.sim.position
        if self._show_latest or self.paused:
            return cur
        a = self.fixed_step.alpha
        prev = self.previous
        return Vec2(prev.x + (cur.x - prev.x) * a, prev.y + (cur.y - prev.y) * a)

    def _render(self, seconds: float) -> None:
        p = self.shown_position()
        self.player_item.setPos(p.x, p.y)
        cur, prev = self.sim.position, self.previous
        self.player_item.set_facing(cur.x - prev.x, cur.y - prev.y)
        if self.moving_items:
            # where the objects are at the moment shown: between the last two ticks, as the player is
            ticks = self.sim.tick if self._show_latest or self.paused else self.sim.tick - 1 + self.fixed_step.alpha
            for item, path in self.moving_items:
                o = path.offset_at(path.speed * ticks * self.dt)
                show_offset([item], o.x, o.y)
        if self.overlay.isVisible():
            self.overlay.show_tick(self.sim.last)
        if self.camera is not None:
            self.camera.follow(QPointF(p.x, p.y), seconds)

    # -- numbers ----------------------------------------------------------------------
    def fps(self) -> float:
        total = sum(self._frame_seconds)
        return len(self._frame_seconds) / total if total > 0 else 0.0

    def tick_ms(self) -> float:
        s = self._tick_seconds
        return 1000.0 * sum(s) / len(s) if s else 0.0

    def speed_now(self) -> float:
        """How fast the player actually moved during the last tick (px/s)."""
        cur, prev = self.sim.position, self.previous
        return math.hypot(cur.x - prev.x, cur.y - prev.y) / self.dt

    def notes(self) -> list[str]:
        """What is wrong with the level or the start, in a designer's words."""
        out = []
        if self.problems:
            n = len(self.problems)
            out.append(f"{n} error{'s' if n != 1 else ''} in the level; first: {self.problems[0]}")
        if self.push_out is not None:
            (d, ids) = self.push_out
            names = ", ".join(ids[:3]) if ids else "geometry"
            distance = math.hypot(d.x, d.y)
            if distance < 0.05:
                # Touching counts as overlapping: a spawn exactly against a wall is moved a hair clear of it.
                out.append(f"started touching {names}: moved {distance:.3f} px clear")
            else:
                out.append(f"started inside {names}: pushed out by {distance:.1f} px")
        return out

    def contact_colliders(self) -> tuple[int, ...]:
        """The colliders the player touched during the last tick, each once, in collider order.

        Those that stopped or turned it on the way (the tick's contacts) and those
        its body rests against at the end of the tick (within the contact distance),
        so a player standing against a wall with no key held still touches it.
        Always among the tick's broad-phase candidates: the HUD's two counts are
        of the same things (colliders), and contacts never outnumber candidates.
        """
        last = self.sim.last
        if last is None:
            return ()
        touched = {c.collider for c in last.contacts}
        p = self.sim.position
        obstacles = self.sim.world.obstacles
        touched.update(i for i in last.candidates if obstacles[i].gap(p.x, p.y)[0] < CONTACT)
        return tuple(i for i in last.candidates if i in touched)

    def _named(self, colliders) -> str:
        """``": wall-1, box-2"``: the objects of ``colliders``, each once, at most four."""
        colliders_of = self.sim.world.colliders
        ids = tuple(dict.fromkeys(colliders_of[i].object_id for i in colliders))
        return f": {', '.join(ids[:4])}{' …' if len(ids) > 4 else ''}" if ids else ""

    def hud_lines(self) -> list[str]:
        p = self.sim.position
        last = self.sim.last
        state = "PAUSED  (. steps one tick)" if self.paused else "PLAY-TEST"
        lines = [
            f"{state}   Esc edit · P pause · F3 debug",
            f"fps {self.fps():5.1f}   tick {self.tick_ms():.3f} ms   #{self.sim.tick}",
            f"pos {p.x:8.1f} {p.y:8.1f}   speed {self.speed_now():6.1f} px/s",
        ]
        if self.platformer:
            lines += self._platformer_lines()
        else:
            touching = self.contact_colliders()
            lines.append(f"contacts {len(touching)}{self._named(touching)}")
        if self.overlay.isVisible() and last is not None and not self.platformer:
            lines.append(f"candidates {len(last.candidates)}{self._named(last.candidates)}")
        if self.sim.inside:
            lines.append(f"inside {', '.join(self.sim.inside[:4])}{' …' if len(self.sim.inside) > 4 else ''}")
        for tick, kind, object_id in self.sim.events[-EVENTS_SHOWN:]:
            lines.append(f"#{tick} {'entered' if kind == 'enter' else 'left'} {object_id}")
        lines += [WARNING_PREFIX + n for n in self.notes()]
        return lines

    def _platformer_lines(self) -> list[str]:
        """The platformer's state: floor, velocity, and the jump (coyote time and buffer left)."""
        body = self.sim.platformer
        d = body.debug()
        if d.on_floor:
            floor = f"on floor {d.floor_id}" + (f" ({self._slope(d.floor_normal):.0f}°)" if d.floor_normal else "")
        else:
            floor = "in the air"
        jump = "rising" if d.jumping else ("falling" if d.velocity.y > 0 and not d.on_floor else "—")
        return [
            f"{floor}   velocity {d.velocity.x:7.1f} {d.velocity.y:7.1f} px/s",
            f"jump {jump}   coyote {d.coyote_left * 1000:3.0f} ms   buffer {d.buffer_left * 1000:3.0f} ms",
        ]

    @staticmethod
    def _slope(normal: Vec2) -> float:
        """The slope of a floor with this normal, in degrees (0: flat)."""
        return math.degrees(math.acos(max(-1.0, min(1.0, -normal.y))))

    def _update_hud(self) -> None:
        self._hud_wait = 0.0
        if self.running:
            self.hud.set_lines(self.hud_lines())
