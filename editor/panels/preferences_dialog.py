"""Edit ▸ Preferences…: the autosave interval (0 turns autosave off), kept in QSettings."""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QLabel, QSpinBox, QVBoxLayout, QWidget,
)

from level_editor.editor.documents.autosave import (INTERVAL_ENV, INTERVAL_KEY, MAX_INTERVAL, default_recovery_folder,
                             stored_interval)
from level_editor.editor.support.guard import guarded

__all__ = ["PreferencesDialog"]


class PreferencesDialog(QDialog):
    """The editor's preferences; OK stores them in ``settings``, Cancel leaves them as they were."""

    def __init__(self, settings: QSettings, parent: Optional[QWidget] = None, recovery_folder: Optional[str] = None):
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle("Preferences")
        self.setObjectName("preferencesDialog")

        self.interval = QSpinBox()
        self.interval.setObjectName("autosaveInterval")
        self.interval.setRange(0, MAX_INTERVAL)
        self.interval.setSingleStep(5)
        self.interval.setSuffix(" s")
        self.interval.setSpecialValueText("Off")
        self.interval.setValue(self._stored_interval())
        self.interval.setToolTip("0 turns autosave off")

        explain = QLabel(
            "While a level has unsaved changes, a recovery copy of it is written this often. "
            "Your level file is only written when you save. If the editor stops unexpectedly, "
            "the next start offers to restore the copy.")
        explain.setWordWrap(True)
        explain.setMinimumWidth(440)
        folder = QLabel(recovery_folder or default_recovery_folder())
        folder.setObjectName("recoveryFolder")
        folder.setWordWrap(True)
        folder.setTextInteractionFlags(Qt.TextSelectableByMouse)

        box = QGroupBox("Autosave")
        form = QFormLayout(box)
        form.addRow(explain)
        form.addRow("Write a recovery copy every", self.interval)
        form.addRow("Recovery copies are kept in", folder)
        if os.environ.get(INTERVAL_ENV):
            note = QLabel(f"{INTERVAL_ENV}={os.environ[INTERVAL_ENV]} is set and overrides this value.")
            note.setObjectName("intervalOverride")
            note.setWordWrap(True)
            form.addRow(note)

        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(box)
        layout.addWidget(buttons)
        layout.setSizeConstraint(QVBoxLayout.SetFixedSize)  # as tall as the wrapped text, no taller

    def _stored_interval(self) -> int:
        return stored_interval(self.settings)

    @guarded("saving the preferences")
    def accept(self) -> None:
        self.settings.setValue(INTERVAL_KEY, self.interval.value())
        self.settings.sync()
        super().accept()
