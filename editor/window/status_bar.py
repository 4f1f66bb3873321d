"""The main window's status bar: what just happened, what the tool does next, where the cursor is, the zoom.

Qt's own status bar draws a message over its left part at full length, under
and across whatever else sits there: a long message (a play-test listing the
level's errors, an error naming a file) ran into the cursor position at 1024
pixels. Here every text has its own label, in one row, left to right:

* the message (:meth:`StatusBar.showMessage`), elided to the room it has;
* the active tool's hint, elided too;
* the cursor position and the zoom, permanent, never covered or squeezed.

An elided text is whole in the label's tooltip, and its right-click menu copies
it whole. Menu entries' status tips go to the message label as well, for as long
as the menu entry is hovered.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QFontMetrics, QGuiApplication, QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar, QStyle, QWidget

from level_editor.editor.support.guard import guarded

#: The widest cursor position shown, for the permanent label's width (coordinates are within MAX_COORDINATE).
WIDEST_POSITION = "x -10000000, y -10000000"
#: The widest zoom shown.
WIDEST_ZOOM = "25600%"
#: The most of the status bar's free width a message takes (the tool hint keeps the rest).
MESSAGE_SHARE = 0.6


class ElidedLabel(QLabel):
    """A one-line label that shows as much of its text as fits, ending in "…"; the whole text is its tooltip.

    :meth:`text` is always the whole text (what was set), :meth:`shown_text` what
    fits now. The label asks for its whole text's width but can shrink to almost
    nothing, so the layout gives the room to labels that cannot shrink.
    """

    def __init__(self, text: str = "", parent: Optional[QWidget] = None):
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.setTextFormat(Qt.PlainText)
        self.setContextMenuPolicy(Qt.ActionsContextMenu)
        self.copy_action = QAction("&Copy", self)
        self.copy_action.triggered.connect(self.copy)
        self.addAction(self.copy_action)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        text = "" if text is None else str(text)
        if text == self._full:
            return
        self._full = text
        self._elide()
        self.updateGeometry()

    def text(self) -> str:
        return self._full

    def shown_text(self) -> str:
        """What the label shows now (the text, or its beginning and "…")."""
        return super().text()

    def is_elided(self) -> bool:
        return self.shown_text() != self._full

    @guarded("copying the status bar's text", default=None, explicit=True)
    def copy(self, checked: bool = False) -> None:
        """Put the whole text on the clipboard."""
        QGuiApplication.clipboard().setText(self._full)

    def sizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        m = self.contentsMargins()
        return QSize(fm.horizontalAdvance(self._full) + m.left() + m.right() + 4, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    @guarded("laying out the status bar")
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        # one line: a message with line breaks shows its first line, the tooltip has all of it
        line = self._full.replace("\r", " ").replace("\n", "  ")
        m = self.contentsMargins()
        room = max(0, self.width() - m.left() - m.right() - 2)
        shown = QFontMetrics(self.font()).elidedText(line, Qt.ElideRight, room) if line else ""
        if shown != super().text():
            super().setText(shown)
        self.setToolTip(self._full if shown != self._full else "")


class FixedLabel(QLabel):
    """A one-line plain-text label of a set width (its widest text's): a new text repaints it, nothing more.

    Qt's ``QLabel.setText`` asks the status bar to lay itself out again at every change, and the
    cursor position and the zoom change at every mouse move and wheel turn (at 100,000 objects that
    layout and its repaint were some 2 ms of each zoom frame). Drawn as ``QLabel`` draws plain text.
    """

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self._text = ""
        self.setTextFormat(Qt.PlainText)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        text = "" if text is None else str(text)
        if text != self._text:
            self._text = text
            self.update()

    def text(self) -> str:
        return self._text

    @guarded("drawing the status bar")
    def paintEvent(self, event) -> None:
        if not self._text:
            return
        painter = QPainter(self)
        try:
            # numbers and Latin letters: left to right, as QLabel lays out such a text
            align = QStyle.visualAlignment(Qt.LeftToRight, self.alignment())
            self.style().drawItemText(painter, self.contentsRect(), int(align) | int(Qt.TextForceLeftToRight),
                                      self.palette(), self.isEnabled(), self._text, self.foregroundRole())
        finally:
            painter.end()


class StatusBar(QStatusBar):
    """The window's status bar; the same calls as Qt's (``showMessage``, ``clearMessage``, ``currentMessage``).

    Attributes
    ----------
    message_label, hint_label : ElidedLabel
        The latest message and the active tool's hint (set it with ``hint_label.setText``).
    position_label, zoom_label : FixedLabel
        Permanent: wide enough for any position and zoom, never covered; a new text lays nothing out again.
    """

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("statusBar")
        self.message_label = ElidedLabel()
        self.message_label.setObjectName("statusMessage")
        self.message_label.setVisible(False)
        self.hint_label = ElidedLabel()
        self.hint_label.setObjectName("toolHint")
        self.position_label = FixedLabel()
        self.position_label.setObjectName("cursorPosition")
        self.zoom_label = FixedLabel()
        self.zoom_label.setObjectName("zoomLevel")
        fm = QFontMetrics(self.font())
        self.position_label.setMinimumWidth(fm.horizontalAdvance(WIDEST_POSITION) + 12)
        self.zoom_label.setMinimumWidth(fm.horizontalAdvance(WIDEST_ZOOM) + 12)
        self.zoom_label.setAlignment(Qt.AlignRight | Qt.AlignVCenter)
        # the message takes the room its text needs, up to MESSAGE_SHARE of the row; the hint the rest
        self.message_label.setSizePolicy(QSizePolicy.Maximum, QSizePolicy.Preferred)
        self.addWidget(self.message_label, 0)
        self.addWidget(self.hint_label, 1)
        self.addPermanentWidget(self.position_label)
        self.addPermanentWidget(self.zoom_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clearMessage)
        self._tip_shown = False
        self._before_tip = ""
        self.hint_label.installEventFilter(self)  # hidden (a play-test): the message may take its room
        # Menu entries' status tips come as events to the window; Qt would draw them over everything.
        window.installEventFilter(self)

    # -- Qt's calls, on our labels ---------------------------------------------------
    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt's name
        """Show ``text`` (elided to fit, whole in the tooltip) for ``timeout`` ms, or until the next message."""
        text = "" if text is None else str(text)
        self._tip_shown = False
        self._timer.stop()
        self._set_message(text)
        if text and timeout and timeout > 0:
            self._timer.start(int(timeout))

    def clearMessage(self) -> None:  # noqa: N802 - Qt's name
        self._timer.stop()
        self._tip_shown = False
        self._set_message("")

    def currentMessage(self) -> str:  # noqa: N802 - Qt's name
        return self.message_label.text()

    @guarded("laying out the status bar")
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._share_room()

    def _share_room(self) -> None:
        permanent = self.position_label.minimumWidth() + self.zoom_label.minimumWidth() + 40
        share = MESSAGE_SHARE if not self.hint_label.isHidden() else 1.0
        self.message_label.setMaximumWidth(max(80, int((self.width() - permanent) * share)))

    def _set_message(self, text: str) -> None:
        changed = text != self.message_label.text()
        self.message_label.setText(text)
        self.message_label.setVisible(bool(text))
        if changed:
            self.messageChanged.emit(text)

    @guarded("showing a status tip", default=False)
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.hint_label:
            if event.type() in (QEvent.Show, QEvent.Hide):
                self._share_room()
            return False
        if event.type() == QEvent.StatusTip:
            tip = event.tip()
            if tip:
                previous = self.currentMessage() if not self._tip_shown else self._before_tip
                self.showMessage(tip)
                self._tip_shown = True
                self._before_tip = previous
            elif self._tip_shown:
                # the pointer left the menu entry: back to the message it covered
                self._tip_shown = False
                self._set_message(self._before_tip)
            return True
        return False
