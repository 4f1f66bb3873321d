"""HudWidget: the play-test's numbers in a corner of the canvas, in screen pixels."""
from __future__ import annotations

import html

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QPainter
from PySide6.QtWidgets import QLabel, QWidget
from level_editor.editor.support.guard import guarded

#: A line starting with this is drawn as a warning (level problems, push-outs).
WARNING_PREFIX = "! "

MARGIN = 10
PADDING = 8
#: Lines are wrapped to at most this many characters (and to the viewport's width), never cut.
MAX_CHARS = 96
#: A wrapped line goes on indented by this.
CONTINUATION = "   "


class HudWidget(QWidget):
    """A small translucent panel of text lines over the top-left corner of a view's viewport.

    A child of the view (not of its viewport, whose children move when the view
    scrolls), so it keeps its place and size whatever the camera and the zoom do.
    Its text can be selected with the mouse and copied (right-click, Copy): an
    error or a push-out naming objects can be pasted into a bug report. Pause the
    play-test first (P): the numbers change every frame, and new text clears the
    selection. It never takes the keyboard from the canvas.

    A line too long for the panel (a level's error, a push-out naming objects) is
    wrapped at spaces onto indented rows, never cut: :attr:`lines` and :meth:`text`
    keep the lines whole, :meth:`rows` is what is drawn.
    """

    BACKGROUND = QColor(18, 20, 24, 200)
    TEXT = QColor(230, 234, 240)
    TITLE = QColor(255, 190, 90)
    WARNING = QColor(255, 120, 100)

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.lines: list[str] = []
        self.setAttribute(Qt.WA_NoSystemBackground, True)
        self.setFocusPolicy(Qt.NoFocus)
        font = QFontDatabase.systemFont(QFontDatabase.FixedFont)
        font.setPointSizeF(max(8.0, font.pointSizeF() * 0.95))
        font.setStyleHint(QFont.Monospace)
        self.setFont(font)
        #: The rows as selectable text (the panel behind them is painted here).
        self.label = QLabel(self)
        self.label.setObjectName("hudText")
        self.label.setFont(font)
        self.label.setTextFormat(Qt.RichText)
        self.label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.label.setFocusPolicy(Qt.NoFocus)  # the arrow keys stay the player's
        self.label.setCursor(Qt.IBeamCursor)
        self.label.setContextMenuPolicy(Qt.DefaultContextMenu)  # Copy, Select All
        self.label.setAlignment(Qt.AlignLeft | Qt.AlignTop)

    def set_lines(self, lines: list[str]) -> None:
        lines = list(lines)
        if lines == self.lines:
            return
        old_rows = self.rows()
        self.lines = lines
        rows = self.rows()
        self.label.setText(self._html(rows))
        if len(rows) != len(old_rows) or max(map(len, (r for r, _ in rows)), default=0) != \
                max(map(len, (r for r, _ in old_rows)), default=0):
            self.place()
        self.update()

    def text(self) -> str:
        return "\n".join(self.lines)

    def _max_width(self) -> int:
        """The widest a row may be, in pixels: :data:`MAX_CHARS` characters, less on a narrow canvas."""
        fm = QFontMetrics(self.font())
        room = self.view.viewport().width() - 2 * MARGIN - 2 * PADDING
        return max(fm.horizontalAdvance("M") * 20, min(fm.horizontalAdvance("M") * MAX_CHARS, room))

    def rows(self) -> list[tuple[str, int]]:
        """What is drawn: ``(text, index of its line)`` per row, long lines wrapped at spaces."""
        fm = QFontMetrics(self.font())
        width = self._max_width()
        out: list[tuple[str, int]] = []
        for index, line in enumerate(self.lines):
            row = ""
            for word in line.split(" "):
                candidate = f"{row} {word}" if row else word
                if row and row.strip() and fm.horizontalAdvance(candidate) > width:
                    out.append((row, index))
                    row = CONTINUATION + word
                else:
                    row = candidate
                while fm.horizontalAdvance(row) > width and len(row) > len(CONTINUATION) + 1:
                    # one word wider than the panel (a long id): split it where the panel ends
                    cut = len(row) - 1
                    while cut > len(CONTINUATION) + 1 and fm.horizontalAdvance(row[:cut]) > width:
                        cut -= 1
                    out.append((row[:cut], index))
                    row = CONTINUATION + row[cut:]
            out.append((row, index))
        return out

    def _color(self, index: int) -> QColor:
        if self.lines[index].startswith(WARNING_PREFIX):
            return self.WARNING
        return self.TITLE if index == 0 else self.TEXT

    def _html(self, rows: list[tuple[str, int]]) -> str:
        """The rows as the label shows them: each in its line's colour, spaces kept, nothing wrapped again."""
        shown = "<br>".join(f'<span style="color:{self._color(i).name()}">{html.escape(row)}</span>'
                            for row, i in rows)
        return f'<div style="white-space:pre">{shown}</div>'

    def selected_text(self) -> str:
        """What the designer has selected with the mouse (``""`` when nothing is)."""
        return self.label.selectedText()

    def sizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        rows = self.rows()
        w = max((fm.horizontalAdvance(r) for r, _ in rows), default=0)
        text = self.label.sizeHint()
        return QSize(max(w, text.width()) + 2 * PADDING,
                     max(fm.lineSpacing() * len(rows), text.height()) + 2 * PADDING)

    def place(self) -> None:
        """Sit in the viewport's top-left corner (call when the view resizes)."""
        top_left = self.view.viewport().geometry().topLeft() + QPoint(MARGIN, MARGIN)
        self.setGeometry(QRect(top_left, self.sizeHint()))
        self.label.setGeometry(self.rect().adjusted(PADDING, PADDING, -PADDING, -PADDING))
        self.raise_()

    @guarded("drawing the play-test's notes")
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setPen(Qt.NoPen)
        p.setBrush(self.BACKGROUND)
        p.drawRoundedRect(self.rect().adjusted(0, 0, -1, -1), 6, 6)
        p.end()  # the rows are the label's, selectable
