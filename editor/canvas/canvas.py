"""Canvas: the view of the level scene, with a grid that follows the zoom, wheel zoom and panning."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsView

from editor.canvas.scene import LevelScene

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

    # -- zoom ------------------------------------------------------------------
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, zoom: float, about: QPointF | None = None) -> None:
        """Zoom to ``zoom``, keeping the level point under viewport pixel ``about`` (default: the centre) still."""
        zoom = min(MAX_ZOOM, max(MIN_ZOOM, zoom))
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

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps == 0:
            return
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
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() - round(delta.x()))
        v.setValue(v.value() - round(delta.y()))

    def pan_by(self, dx: float, dy: float) -> None:
        """Scroll the view by ``(dx, dy)`` screen pixels."""
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + round(dx))
        v.setValue(v.value() + round(dy))

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MiddleButton or (event.button() == Qt.LeftButton and self._space_held):
            self._start_pan(event.position())
            event.accept()
            return
        self.setFocus(Qt.MouseFocusReason)
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        self.cursor_moved.emit(self.mapToScene(event.position().toPoint()))
        if self._panning:
            self._pan_to(event.position())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._panning and event.button() in (Qt.MiddleButton, Qt.LeftButton):
            self._panning = False
            self.viewport().setCursor(Qt.OpenHandCursor if self._space_held else Qt.ArrowCursor)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Space:
            if not event.isAutoRepeat():
                self._space_held = True
                if not self._panning:
                    self.viewport().setCursor(Qt.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key_Space:
            if not event.isAutoRepeat():
                self._space_held = False
                if not self._panning:
                    self.viewport().setCursor(Qt.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)

    def focusOutEvent(self, event) -> None:
        self._space_held = False
        super().focusOutEvent(event)

    # -- grid ------------------------------------------------------------------
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

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        painter.fillRect(rect, BACKGROUND)
        minor, major = self.grid_steps()
        painter.save()
        painter.setRenderHint(QPainter.Antialiasing, False)
        for step, color in ((minor, MINOR_LINE), (major, MAJOR_LINE)):
            if step == minor and minor == major:
                continue
            pen = QPen(color, 0)
            painter.setPen(pen)
            x0 = math.floor(rect.left() / step) * step
            y0 = math.floor(rect.top() / step) * step
            lines = []
            x = x0
            while x <= rect.right():
                lines.append(QLineF(x, rect.top(), x, rect.bottom()))
                x += step
            y = y0
            while y <= rect.bottom():
                lines.append(QLineF(rect.left(), y, rect.right(), y))
                y += step
            painter.drawLines(lines)
        axis = QPen(AXIS_LINE, 0)
        painter.setPen(axis)
        if rect.left() <= 0 <= rect.right():
            painter.drawLine(QLineF(0, rect.top(), 0, rect.bottom()))
        if rect.top() <= 0 <= rect.bottom():
            painter.drawLine(QLineF(rect.left(), 0, rect.right(), 0))
        painter.restore()
        # Far out, the level's cached picture stands in for its objects (a blit, whatever their number).
        scene = self.level_scene
        scene.set_overview_active(scene.overview.wanted_at(self.zoom()))
        scene.draw_overview(painter, rect)
