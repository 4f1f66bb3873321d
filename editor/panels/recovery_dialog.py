"""The restore offer at start: recovery copies left by a crashed editor, each to Restore, Discard or keep for Later.

:func:`offer_recovery` is what ``level_editor.editor.app.run`` calls. A restored level
opens as unsaved changes to its own file: the file on disk is written only
when the designer saves. Discard deletes the copy; Later keeps it for the
next start.
"""
from __future__ import annotations

import os
import time
from typing import Callable, Optional, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup, QDialog, QDialogButtonBox, QFrame, QGridLayout, QLabel, QRadioButton, QScrollArea,
    QVBoxLayout, QWidget,
)

from level_editor.core.level.file_format import LevelFileError
from level_editor.core.level.recovery import RecoveryCopy, dead_copies, load_recovery, remove_copy, remove_stray_temp_files
from level_editor.editor.documents.file_checks import not_a_level_file

__all__ = ["RESTORE", "DISCARD", "LATER", "RecoveryDialog", "offer_recovery", "restore_copy"]

RESTORE, DISCARD, LATER = "restore", "discard", "later"
_CHOICES = ((RESTORE, "Restore"), (DISCARD, "Discard"), (LATER, "Later"))


def _when(seconds: float) -> str:
    t = time.localtime(seconds)
    today = time.localtime()
    if (t.tm_year, t.tm_yday) == (today.tm_year, today.tm_yday):
        return time.strftime("today at %H:%M:%S", t)
    return time.strftime("%Y-%m-%d at %H:%M:%S", t)


class RecoveryDialog(QDialog):
    """Lists the copies (file, folder, when, size) with a Restore / Discard / Later choice each.

    Restore is chosen for every copy to begin with; closing the dialog without
    Continue keeps every copy for later.
    """

    def __init__(self, copies: Sequence[RecoveryCopy], parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.copies = list(copies)
        self.setWindowTitle("Recover unsaved work")
        self.setObjectName("recoveryDialog")
        self.groups: dict[str, QButtonGroup] = {}

        n = len(self.copies)
        intro = QLabel(
            f"<b>The editor did not close normally last time.</b><br>"
            f"{'A recovery copy of unsaved work was' if n == 1 else f'{n} recovery copies of unsaved work were'} "
            f"found. A restored level opens with its unsaved changes; your file is only written when you save.")
        intro.setWordWrap(True)

        rows = QWidget()
        grid = QGridLayout(rows)
        grid.setColumnStretch(0, 1)
        for r, copy in enumerate(self.copies):
            grid.addWidget(self._describe(copy), r * 2, 0)
            group = QButtonGroup(self)
            for c, (key, text) in enumerate(_CHOICES):
                button = QRadioButton(text)
                button.setObjectName(f"{key}-{r}")
                button.setChecked(key == RESTORE)
                group.addButton(button, c)
                grid.addWidget(button, r * 2, 1 + c, Qt.AlignVCenter)
            self.groups[copy.path] = group
            if r + 1 < n:
                line = QFrame()
                line.setFrameShape(QFrame.HLine)
                line.setFrameShadow(QFrame.Sunken)
                grid.addWidget(line, r * 2 + 1, 0, 1, 4)
        scroll = QScrollArea()
        scroll.setWidget(rows)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)

        buttons = QDialogButtonBox()
        self.continue_button = buttons.addButton("Continue", QDialogButtonBox.AcceptRole)
        self.later_button = buttons.addButton("Decide Later", QDialogButtonBox.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        self.resize(640, min(160 + 64 * n, 560))

    @staticmethod
    def _describe(copy: RecoveryCopy) -> QLabel:
        where = os.path.dirname(copy.original) if copy.original else "never saved"
        objects = f"{copy.objects:,} object{'s' if copy.objects != 1 else ''}"
        label = QLabel(f"<b>{_escape(copy.display_name)}</b> <span style='color:gray'>{_escape(where)}</span><br>"
                       f"unsaved changes kept {_when(copy.saved_at)} · {objects}")
        label.setToolTip(copy.original or f"recovery copy {copy.path}")
        label.setTextFormat(Qt.RichText)
        return label

    def choice(self, copy: RecoveryCopy) -> str:
        return _CHOICES[self.groups[copy.path].checkedId()][0]

    def set_choice(self, copy: RecoveryCopy, key: str) -> None:
        index = [k for k, _ in _CHOICES].index(key)
        self.groups[copy.path].button(index).setChecked(True)

    def choices(self) -> dict[str, str]:
        """Copy path -> ``"restore"``, ``"discard"`` or ``"later"`` as the dialog stands."""
        return {copy.path: self.choice(copy) for copy in self.copies}

    @classmethod
    def ask(cls, copies: Sequence[RecoveryCopy], parent: Optional[QWidget] = None) -> dict[str, str]:
        """Show the dialog and return the choices (every copy ``"later"`` when it is closed without Continue)."""
        dialog = cls(copies, parent)
        try:
            if dialog.exec() == QDialog.Accepted:
                return dialog.choices()
            return {copy.path: LATER for copy in copies}
        finally:
            dialog.deleteLater()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def restore_copy(window, copy: RecoveryCopy) -> bool:
    """Open ``copy`` in ``window`` as unsaved changes to its own file; the copy is then replaced by the window's own.

    On an unreadable copy the error is shown, the copy is kept, and False returned.
    """
    problem = not_a_level_file(copy.path)  # a pipe there would make reading it wait for ever
    if problem is not None:
        window.show_error("Could not restore level",
                          f"The recovery copy of {copy.display_name} could not be read: {problem}.",
                          f"It is kept in {copy.path}.")
        return False
    try:
        level = load_recovery(copy)
    except LevelFileError as e:
        window.show_error("Could not restore level",
                          f"The recovery copy of {copy.display_name} could not be read; it is kept in {copy.path}.",
                          "\n".join(str(p) for p in e.problems))
        return False
    window.restore_level(level, copy.original)
    window.statusBar().showMessage(
        f"Restored {copy.display_name} as it was {_when(copy.saved_at)}: save to keep it", 10000)
    # The window's own copy goes down before the old one is deleted, so a second crash loses nothing.
    window.autosave.write_now()
    remove_copy(copy)
    return True


def offer_recovery(window, new_window: Callable[[], object], folder: Optional[str] = None,
                   ask: Optional[Callable] = None) -> list:
    """Offer the copies crashed editors left in ``folder``; returns the windows showing restored levels.

    The first restored level goes into ``window`` when it shows nothing yet (an
    empty new level) or shows that level's own file unchanged; every other one
    gets a window from ``new_window()``.
    """
    folder = folder if folder is not None else window.autosave.folder
    remove_stray_temp_files(folder)
    copies = dead_copies(folder)
    if not copies:
        return []
    choices = (ask or RecoveryDialog.ask)(copies, window)
    restored = []
    for copy in copies:
        choice = choices.get(copy.path, LATER)
        if choice == DISCARD:
            remove_copy(copy)
        elif choice == RESTORE:
            reuse = (not restored and not window.is_modified()
                     and ((window.path is not None and window.path == copy.original)
                          or (window.path is None and len(window.document) == 0)))
            target = window if reuse else new_window()
            if restore_copy(target, copy):
                restored.append(target)
    return restored
