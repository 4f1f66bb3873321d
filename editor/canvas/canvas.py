"""Canvas: the view of the level scene, with a grid that follows the zoom, wheel zoom and panning.

Every mouse, key and wheel event of the canvas and its scene (and so of every tool, which the scene
hands them to) passes through one of the canvas's overrides, each :func:`~level_editor.editor.support.guard.guarded`: an
error inside a tool abandons that tool's gesture and is reported, and the editor goes on.
"""
from __future__ import annotations

import math
import sys
import time

from PySide6.QtCore import QLineF, QObject, QPointF, QRect, QRectF, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainter, QPaintEvent, QPen, QRegion, QTransform
from PySide6.QtWidgets import QGraphicsView

from level_editor.editor.canvas.scene import LevelScene
from level_editor.editor.work import long_task
from level_editor.editor.support.guard import guarded

BACKGROUND = QColor(43, 46, 52)
MINOR_LINE = QColor(58, 62, 70)
MAJOR_LINE = QColor(76, 81, 92)
AXIS_LINE = QColor(110, 118, 134)

#: Grid lines closer than this on screen are thinned out (every 2nd, 4th... line).
MIN_GRID_PIXELS = 8.0
#: Every this many grid steps a major line is drawn.
MAJOR_EVERY = 8

MIN_ZOOM = 1 / 64
MAX_ZOOM = 64.0
ZOOM_STEP = 1.25

#: Qt's scroll bars and view coordinates are 32-bit ints: the level, scaled by the zoom, stays well inside.
MAX_VIEW_PIXELS = float(2 ** 30)
#: The View > Show Grid setting.
SHOW_GRID_KEY = "view/showGrid"

#: Pixels around an item drawn over the overview picture that Qt repaints with it (antialiasing reaches past bounds).
OVERLAY_PAD = 3
#: Past this many separate areas of items over the picture, Qt repaints the area around all of them at once.
MAX_OVERLAY_AREAS = 24
#: Seconds a frame may spend painting the overview's tiles at a new zoom; the rest follow in the next frames.
TILE_BUDGET_S = 0.018
#: Milliseconds without a frame after which the tiles a frame left are painted.
REFINE_DELAY_MS = 40
#: Seconds of painting a new whole-level picture (a level just opened) between two turns of the event loop.
PICTURE_SLICE_S = 0.03
#: Python's thread switch interval while the view moves (wheel zoom, panning, painting). The default, 5 ms,
#: lets a worker running Python (the level's background check, seconds long at 100,000 objects) keep the GUI
#: thread waiting 5 ms for the interpreter each time it comes back from Qt: a wheel-zoom frame of 20 ms of
#: work took 70 ms and more. Lowered as editor/work/long_task.py lowers it while a file task runs.
GUI_SWITCH_SECONDS = 0.0005
#: Milliseconds after the view last moved or painted that the switch interval goes back to what it was.
GUI_SWITCH_HOLD_MS = 500

#: The switch interval the canvases found before lowering it, and the canvases holding it lowered.
_switch_saved: float | None = None
_switch_holders: set[int] = set()


def _hold_gui_switch(canvas: "Canvas") -> None:
    """Lower Python's switch interval for the GUI thread until ``canvas`` has been still for a while."""
    global _switch_saved
    key = id(canvas)
    if key not in _switch_holders:
        current = sys.getswitchinterval()
        if _switch_saved is None and current > GUI_SWITCH_SECONDS:
            _switch_saved = current
            sys.setswitchinterval(GUI_SWITCH_SECONDS)
        _switch_holders.add(key)
    canvas._switch_timer.start()


def _release_key(key: int) -> None:
    global _switch_saved
    _switch_holders.discard(key)
    if not _switch_holders and _switch_saved is not None:
        # unless someone else changed it meanwhile: theirs to put back
        if sys.getswitchinterval() == GUI_SWITCH_SECONDS:
            sys.setswitchinterval(_switch_saved)
        _switch_saved = None


def _release_gui_switch(canvas: "Canvas") -> None:
    """``canvas`` no longer needs the GUI thread first; the last one puts the switch interval back."""
    if long_task.busy:
        canvas._switch_timer.start()  # a file task lowered it too and puts back what it found when it ends
        return
    _release_key(id(canvas))


def _abandon_gesture(canvas: "Canvas", *args) -> None:
    canvas.abandon_gesture()


class Canvas(QGraphicsView):
    """Shows a :class:`LevelScene`.

    Mouse wheel zooms about the cursor; middle-drag or Space+drag pans;
    :meth:`fit_level` frames the whole level (Ctrl+0). Left-button events go to
    the scene, which hands them to the active tool.
    """

    zoom_changed = Signal(float)
    #: The mouse position in level units, for the status bar.
    cursor_moved = Signal(QPointF)

    def __init__(self, scene: LevelScene, parent=None):
        super().__init__(scene, parent)
        self.level_scene = scene
        self.setRenderHint(QPainter.Antialiasing, True)
        # Smart updates let a pan scroll the pixels already drawn and paint only the new strip
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.DontSavePainterState, False)
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setDragMode(QGraphicsView.NoDrag)
        self.setFocusPolicy(Qt.StrongFocus)
        self.setMouseTracking(True)
        self.setAcceptDrops(False)
        self.viewport().setAcceptDrops(False)
        self._panning = False
        self._pan_from = QPointF()
        self._space_held = False
        self._grid_shown = True
        self._background_drawn = False  # set while Qt draws only the items over the overview picture
        scene.sceneRectChanged.connect(self._keep_zoom_in_range)
        # paints the overview's tiles and pieces that a frame left for later (TILE_BUDGET_S, PICTURE_SLICE_S)
        self._refine = QTimer(self)
        self._refine.setSingleShot(True)
        self._refine.setInterval(REFINE_DELAY_MS)
        self._refine.timeout.connect(self._refine_picture)
        self._view_moved = 0.0  # when (time.perf_counter()) the view last zoomed or panned
        # Python's switch interval stays low while the view moves (GUI_SWITCH_SECONDS)
        self._switch_timer = QTimer(self)
        self._switch_timer.setSingleShot(True)
        self._switch_timer.setInterval(GUI_SWITCH_HOLD_MS)
        self._switch_timer.timeout.connect(lambda: _release_gui_switch(self))
        self.destroyed.connect(lambda *_, key=id(self): _release_key(key))

    # -- errors ----------------------------------------------------------------
    def abandon_gesture(self) -> None:
        """Drop whatever the mouse was doing: panning, and the active tool's gesture (after an error).

        The tool's own cancel (Esc) puts back what the gesture moved; the scene forgets held buttons, so
        the next press starts afresh.
        """
        self._panning = False
        scene = self.level_scene
        scene.forget_held_buttons()
        if scene.tool is not None:
            scene.tool.cancel_gesture()  # every tool's one way to drop its gesture (editor/tools/tool.py)

    # -- zoom ------------------------------------------------------------------
    def zoom(self) -> float:
        return self.transform().m11()

    def max_zoom(self) -> float:
        """The largest zoom at which the whole scene still fits in Qt's integer view coordinates."""
        r = self.sceneRect()
        extent = max(abs(r.left()), abs(r.right()), abs(r.top()), abs(r.bottom()), r.width(), r.height(), 1.0)
        if not math.isfinite(extent):
            return MIN_ZOOM
        return max(MIN_ZOOM / 1024, min(MAX_ZOOM, MAX_VIEW_PIXELS / extent))

    def _keep_zoom_in_range(self, *_) -> None:
        if self.zoom() > self.max_zoom():
            self.set_zoom(self.max_zoom())

    def set_zoom(self, zoom: float, about: QPointF | None = None) -> None:
        """Zoom to ``zoom``, keeping the level point under viewport pixel ``about`` (default: the centre) still.

        The zoom stays within :data:`MIN_ZOOM`..:data:`MAX_ZOOM` and below :meth:`max_zoom`.
        """
        if not math.isfinite(zoom):
            return
        zoom = min(MAX_ZOOM, self.max_zoom(), max(MIN_ZOOM, zoom))
        if abs(zoom / self.zoom() - 1.0) < 1e-9:
            return
        pixel = QPointF(about) if about is not None else QPointF(self.viewport().rect().center())
        fixed = self.mapToScene(pixel.toPoint())
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setTransform(QTransform.fromScale(zoom, zoom))
        moved = QPointF(self.mapFromScene(fixed)) - pixel
        self.pan_by(moved.x(), moved.y())
        self.zoom_changed.emit(self.zoom())

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom() * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom() / ZOOM_STEP)

    def fit_level(self) -> None:
        """Frame the whole level with a little room around it."""
        self.frame_rect(self.level_scene.level_rect(), max_zoom=4.0)

    def frame_rect(self, rect: QRectF, max_zoom: float = 4.0) -> None:
        """Show ``rect`` (scene units) whole and centred, zooming in no further than ``max_zoom``."""
        m = max(rect.width(), rect.height()) * 0.05 + 8
        r = rect.adjusted(-m, -m, m, m)
        view = self.viewport().rect()
        if r.width() <= 0 or r.height() <= 0 or view.width() <= 0 or view.height() <= 0:
            self.centerOn(rect.center())
            return
        zoom = min(view.width() / r.width(), view.height() / r.height(), max_zoom)
        self.set_zoom(zoom)
        self.centerOn(rect.center())

    def visible_rect(self) -> QRectF:
        """The part of the level on screen, in scene units."""
        return self.mapToScene(self.viewport().rect()).boundingRect()

    @guarded("zooming", cleanup=_abandon_gesture)
    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps == 0:
            return
        _hold_gui_switch(self)
        self.set_zoom(self.zoom() * ZOOM_STEP ** steps, about=event.position())
        event.accept()

    # -- panning ---------------------------------------------------------------
    def _start_pan(self, pos: QPointF) -> None:
        self._panning = True
        self._pan_from = QPointF(pos)
        self.viewport().setCursor(Qt.ClosedHandCursor)

    def _pan_to(self, pos: QPointF) -> None:
        delta = pos - self._pan_from
        self._pan_from = QPointF(pos)
        self.pan_by(-delta.x(), -delta.y())

    def pan_by(self, dx: float, dy: float) -> None:
        """Scroll the view by ``(dx, dy)`` screen pixels, no further than the scroll bars reach."""
        _hold_gui_switch(self)
        self._view_moved = time.perf_counter()
        for bar, d in ((self.horizontalScrollBar(), dx), (self.verticalScrollBar(), dy)):
            if not math.isfinite(d):
                continue
            # clamped as floats: round() of a far-off point's pixel offset overflows Qt's int
            bar.setValue(round(min(max(bar.value() + d, bar.minimum()), bar.maximum())))

    @guarded("pressing the mouse on the canvas", cleanup=_abandon_gesture)
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MiddleButton or (event.button() == Qt.LeftButton and self._space_held):
            self._start_pan(event.position())
            event.accept()
            return
        self.setFocus(Qt.MouseFocusReason)
        super().mousePressEvent(event)

    @guarded("moving the mouse on the canvas", cleanup=_abandon_gesture)
    def mouseMoveEvent(self, event) -> None:
        self.cursor_moved.emit(self.mapToScene(event.position().toPoint()))
        if self._panning:
            self._pan_to(event.position())
            event.accept()
            return
        super().mouseMoveEvent(event)

    @guarded("releasing the mouse on the canvas", cleanup=_abandon_gesture)
    def mouseReleaseEvent(self, event) -> None:
        if self._panning and event.button() in (Qt.MiddleButton, Qt.LeftButton):
            self._panning = False
            self.viewport().setCursor(Qt.OpenHandCursor if self._space_held else Qt.ArrowCursor)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    @guarded("double-clicking on the canvas", cleanup=_abandon_gesture)
    def mouseDoubleClickEvent(self, event) -> None:
        super().mouseDoubleClickEvent(event)

    @guarded("pressing a key on the canvas", cleanup=_abandon_gesture)
    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Space:
            if not event.isAutoRepeat():
                self._space_held = True
                if not self._panning:
                    self.viewport().setCursor(Qt.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    @guarded("releasing a key on the canvas", cleanup=_abandon_gesture)
    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key_Space:
            if not event.isAutoRepeat():
                self._space_held = False
                if not self._panning:
                    self.viewport().setCursor(Qt.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)

    @guarded("leaving the canvas")
    def focusOutEvent(self, event) -> None:
        self._space_held = False
        super().focusOutEvent(event)

    # -- grid ------------------------------------------------------------------
    def grid_shown(self) -> bool:
        """Whether the grid lines are drawn (View > Show Grid); snapping to the grid is separate."""
        return self._grid_shown

    def set_grid_shown(self, shown: bool) -> None:
        if shown != self._grid_shown:
            self._grid_shown = bool(shown)
            self.resetCachedContent()
            self.viewport().update()

    def grid_steps(self) -> tuple[float, float]:
        """The minor and major grid spacing drawn at this zoom, in scene units."""
        g = self.level_scene.document.level.grid
        if not (g > 0 and math.isfinite(g)):
            g = 16.0
        zoom = self.zoom()
        step = g
        while step * zoom < MIN_GRID_PIXELS:
            step *= 2
        return step, g * MAJOR_EVERY if step < g * MAJOR_EVERY else step * MAJOR_EVERY

    @guarded("drawing the canvas")
    def paintEvent(self, event) -> None:
        """Draw the canvas; far out, the overview picture and then, with Qt, only the items over the objects.

        Qt looks up and sorts every item in the area it repaints, objects without contents included:
        with the whole of a 100,000-object level in view that alone took 60 to 120 ms a frame. With the
        picture standing in for the objects, Qt repaints only the areas of the other items (the spawn,
        handles, previews, problem signs) and the rest is the background and the picture.
        """
        _hold_gui_switch(self)
        scene = self.level_scene
        scene.set_overview_active(scene.overview.wanted_at(self.zoom()))
        if not scene.overview_active:
            super().paintEvent(event)
            return
        region = event.region()
        overview = scene.overview
        painter = QPainter(self.viewport())
        try:
            painter.setRenderHints(self.renderHints())
            painter.setClipRegion(region)
            painter.setWorldTransform(self.viewportTransform())
            # No new tile or piece while a file task runs on the worker (painting Python beside it waits for the
            # interpreter at every call: a frame of 18 ms took over 100; what is painted shows meanwhile), nor
            # right after a slice of the picture with the next one due (this frame shows that slice; painting
            # more here would hold the window for the two back to back)
            busy = long_task.busy or (self._refine.isActive() and overview.pieces_left)
            overview.deadline = time.perf_counter() + (0.0 if busy else TILE_BUDGET_S)
            self.drawBackground(painter, self.mapToScene(region.boundingRect()).boundingRect())
        finally:
            overview.deadline = None
            painter.end()
        complete = overview.complete
        if not complete:
            # a new picture's pieces at once, between frames; tiles once the view has been still a moment
            self._refine.start(0 if overview.pieces_left else REFINE_DELAY_MS)
        # Qt draws the items there over what is drawn already (the real paint event's area still bounds them)
        self._background_drawn = True
        try:
            for area in self._overlay_areas(region):
                super().paintEvent(QPaintEvent(area))
        finally:
            self._background_drawn = False
        # the frame as a whole, not the last small area Qt repainted
        overview.complete = complete

    @guarded("drawing the canvas")
    def _refine_picture(self) -> None:
        """Paint what the last frame left for later: a slice of a new whole-level picture, or the tiles in view.

        A slice of the picture is painted here, between frames, and only the area it covers is drawn
        again; the next slice follows at the next turn of the event loop, so the window answers in between.
        """
        scene = self.level_scene
        overview = scene.overview
        if long_task.busy or time.perf_counter() - self._view_moved < REFINE_DELAY_MS / 1000:
            # once the file task is done (see paintEvent), or the view is still: a slice between the frames
            # of a wheel zoom or a pan would make each of them that much longer
            self._refine.start(REFINE_DELAY_MS)
            return
        if not (scene.overview_active and overview.pieces_left):
            self.viewport().update()
            return
        painted = overview.paint_pieces(time.perf_counter() + PICTURE_SLICE_S, self.visible_rect().center())
        if painted is not None:
            area = self.mapFromScene(painted).boundingRect()
            self.viewport().update(area.adjusted(-OVERLAY_PAD, -OVERLAY_PAD, OVERLAY_PAD, OVERLAY_PAD))
        if overview.pieces_left:
            self._refine.start(0)

    def settled(self) -> bool:
        """Whether the canvas shows every object as it is, with nothing left for later frames to paint.

        (Before the first frame after a change of the whole-level picture, it is not: that is not current.)
        """
        overview, zoom = self.level_scene.overview, self.zoom()
        if self._refine.isActive():
            return False
        if not overview.wanted_at(zoom):
            return True
        # closer in than the picture, tiles stand in for it (it waits to be painted again until it is shown)
        return overview.complete and (zoom > overview.scale() or overview.is_current())

    def _overlay_areas(self, region: QRegion) -> list[QRect]:
        """Rectangles (viewport pixels) holding the items other than objects that meet ``region``, a few of them.

        Each holds its items whole: Qt draws an item whole wherever it meets the area it repaints, and each
        item must be drawn once (translucent ones twice would look darker), over the background and picture.
        """
        transform = self.viewportTransform()
        view = self.viewport().rect()
        rects: list[QRect] = []
        for item in self.level_scene.overlay_items():
            if not item.isVisible():
                continue
            local = item.boundingRect().united(item.childrenBoundingRect())
            r = item.deviceTransform(transform).mapRect(local).toAlignedRect()
            r = r.adjusted(-OVERLAY_PAD, -OVERLAY_PAD, OVERLAY_PAD, OVERLAY_PAD).intersected(view)
            if not r.isEmpty():
                rects.append(r)
        merged = _merge_rects(rects)
        if len(merged) > MAX_OVERLAY_AREAS:
            union = merged[0]
            for r in merged[1:]:
                union = union.united(r)
            merged = [union]
        return [r for r in merged if region.intersects(r)]

    @guarded("drawing the canvas")
    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        if self._background_drawn:
            return  # Qt drawing the items over the overview picture (paintEvent)
        painter.fillRect(rect, BACKGROUND)
        self._draw_level_background(painter, rect)
        if self._grid_shown:
            self._draw_grid(painter, rect)
        # Far out, the level's cached picture stands in for its objects (a blit, whatever their number).
        scene = self.level_scene
        scene.set_overview_active(scene.overview.wanted_at(self.zoom()))
        scene.draw_overview(painter, rect)

    def _draw_level_background(self, painter: QPainter, rect: QRectF) -> None:
        """The level's own background colour (a map imported from Tiled keeps its own) over its size, as render
        and Tiled show it; a level without one shows the canvas's."""
        level = self.level_scene.document.level
        if not level.background:
            return
        if level.size is not None:
            area = QRectF(0, 0, level.size.x, level.size.y)
        else:
            x0, y0, x1, y1 = level.bounds()
            area = QRectF(x0, y0, x1 - x0, y1 - y0)
        painter.fillRect(area.intersected(rect), QColor(level.background))

    def _draw_grid(self, painter: QPainter, rect: QRectF) -> None:
        minor, major = self.grid_steps()
        painter.save()
        try:
            painter.setRenderHint(QPainter.Antialiasing, False)
            for step, color in ((minor, MINOR_LINE), (major, MAJOR_LINE)):
                if step == minor and minor == major:
                    continue
                painter.setPen(QPen(color, 0))
                # counted, not summed: far from the origin x + step can equal x
                lines = [QLineF(x, rect.top(), x, rect.bottom()) for x in _steps(rect.left(), rect.right(), step)]
                lines += [QLineF(rect.left(), y, rect.right(), y) for y in _steps(rect.top(), rect.bottom(), step)]
                painter.drawLines(lines)
            painter.setPen(QPen(AXIS_LINE, 0))
            if rect.left() <= 0 <= rect.right():
                painter.drawLine(QLineF(0, rect.top(), 0, rect.bottom()))
            if rect.top() <= 0 <= rect.bottom():
                painter.drawLine(QLineF(rect.left(), 0, rect.right(), 0))
        finally:
            painter.restore()


def _merge_rects(rects: list[QRect]) -> list[QRect]:
    """Rectangles covering ``rects``, overlapping ones joined into their bounding rectangle."""
    merged: list[QRect] = []
    for r in rects:
        while True:
            for i, m in enumerate(merged):
                if m.intersects(r):
                    r = r.united(merged.pop(i))
                    break
            else:
                break
        merged.append(r)
    return merged


#: More grid lines than this across the exposed area are never drawn (a screen has fewer pixels / 8).
_MAX_LINES = 4096


def _steps(low: float, high: float, step: float) -> list[float]:
    """The multiples of ``step`` from ``low`` to ``high``, at most :data:`_MAX_LINES` of them."""
    if not (math.isfinite(low) and math.isfinite(high) and step > 0 and math.isfinite(step)):
        return []
    first = math.floor(low / step)
    count = min(_MAX_LINES, max(0, math.floor(high / step) - first + 1))
    return [(first + i) * step for i in range(count)]


def show_grid_action(canvas: Canvas, settings: QSettings, parent: QObject) -> QAction:
    """View > Show Grid (Ctrl+G, as in Tiled): draws or hides the grid lines, remembered in ``settings``.

    Only the drawing: snapping to the grid (G) stays as it is either way.
    """
    action = QAction("Show &Grid", parent)
    action.setCheckable(True)
    action.setShortcut(QKeySequence("Ctrl+G"))
    action.setStatusTip("Draw the grid lines (snapping to the grid is separate: G)")
    action.setToolTip("Show Grid (Ctrl+G)")
    value = settings.value(SHOW_GRID_KEY, True)
    shown = value if isinstance(value, bool) else str(value).lower() not in ("false", "0", "no")
    canvas.set_grid_shown(shown)
    action.setChecked(shown)

    @guarded("showing or hiding the grid", explicit=True)
    def toggled(on: bool) -> None:
        canvas.set_grid_shown(on)
        settings.setValue(SHOW_GRID_KEY, on)

    action.toggled.connect(toggled)
    return action
