"""Document listeners that end with the Qt object they belong to."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject

from level_editor.core.level.document import Change, LevelDocument


def subscribe_while_alive(document: LevelDocument, owner: QObject, callback: Callable[[Change], None]) -> None:
    """Send ``document``'s changes to ``callback`` until ``owner`` is destroyed.

    The document is plain Python and can outlive the window that showed it; a
    listener left behind would call into deleted C++ objects at the next change.
    """
    document.subscribe(callback)

    def unsubscribe(*_):
        try:
            document.unsubscribe(callback)
        except ValueError:  # already unsubscribed by its owner (ValidationRunner.close)
            pass

    owner.destroyed.connect(unsubscribe)
