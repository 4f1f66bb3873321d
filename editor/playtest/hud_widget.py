"""HudWidget: the play-test's numbers in a corner of the canvas, in screen pixels."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QPainter
from PySide6.QtWidgets import QWidget

#: A line starting with this is drawn as a warning (level problems, push-outs).
WARNING_PREFIX = "! "

MARGIN = 10
PADDING = 8
MAX_CHARS = 72


class HudWidget(QWidget):
    """A small translucent panel of text lines over the top-left corner of a view's viewport.

    A child of the view (not of its viewport, whose children move when the view
    scrolls), so it keeps its place and size whatever the camera and the zoom do.
    Mouse events pass through it to the canvas.
    """

    BACKGROUND = QColor(18, 20, 24, 200)
    TEXT = QColor(230, 234, 240)
    TITLE = QColor(255, 190, 90)
    WARNING = QColor(255, 120, 100)

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.lines: list[str] = []
        self.setAttribute(Qt.WA_TransparentForMouseEvents, True)
        self.setAttribute(Qt.WA_NoSystemBackground, True)
        self.setFocusPolicy(Qt.NoFocus)
        font = QFontDatabase.systemFont(QFontDatabase.FixedFont)
        font.setPointSizeF(max(8.0, font.pointSizeF() * 0.95))
        font.setStyleHint(QFont.Monospace)
        self.setFont(font)

    def set_lines(self, lines: list[str]) -> None:
        lines = [ln if len(ln) <= MAX_CHARS else ln[:MAX_CHARS - 1] + "…" for ln in lines]
        if lines == self.lines:
            return
        resize = len(lines) != len(self.lines) or max(map(len, lines), default=0) != max(map(len, self.lines),
                                                                                          default=0)
        self.lines = lines
        if resize:
            self.place()
        self.update()

    def text(self) -> str:
        return "\n".join(self.lines)

    def sizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        w = max((fm.horizontalAdvance(ln) for ln in self.lines), default=0)
        return QSize(w + 2 * PADDING, fm.lineSpacing() * len(self.lines) + 2 * PADDING)

    def place(self) -> None:
        """Sit in the viewport's top-left corner (call when the view resizes)."""
        top_left = self.view.viewport().geometry().topLeft() + QPoint(MARGIN, MARGIN)
        self.setGeometry(QRect(top_left, self.sizeHint()))
        self.raise_()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setPen(Qt.NoPen)
        p.setBrush(self.BACKGROUND)
        p.drawRoundedRect(self.rect().adjusted(0, 0, -1, -1), 6, 6)
        fm = QFontMetrics(self.font())
        y = PADDING + fm.ascent()
        for i, line in enumerate(self.lines):
            if line.startswith(WARNING_PREFIX):
                p.setPen(self.WARNING)
            else:
                p.setPen(self.TITLE if i == 0 else self.TEXT)
            p.drawText(PADDING, y, line)
            y += fm.lineSpacing()
        p.end()
