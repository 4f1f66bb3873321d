"""The Help menu: the keyboard shortcut sheet (F1) and About.

The sheet is read from the window's actions each time it is shown: every
action with a key, grouped under the menu it sits in (in menu-bar order), with
its text and its keys; actions with a key that are in no menu come last under
"Other". An action added anywhere with a shortcut appears without this file
changing. What the mouse does on the canvas is no action, so the sheet ends
with that, from :data:`MOUSE`.
"""
from __future__ import annotations

import platform

import PySide6
from PySide6.QtCore import QObject, Qt, qVersion
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

import level_editor.core
from level_editor.editor.support.guard import guarded
from level_editor.editor.support.resources import icon

APP_NAME = "Level Editor"

#: The group of actions that have a key but sit in no menu.
OTHER = "Other"

#: What the mouse does on the canvas (contract section 5): no action carries these, so they are listed here.
MOUSE = (
    ("Zoom about the cursor", "Mouse wheel"),
    ("Pan", "Middle-drag, or Space+drag"),
    ("Add to the selection", "Shift+click"),
    ("Snap off for this drag", "Hold Ctrl while dragging"),
    ("Object and canvas menus", "Right-click"),
)


def action_text(action: QAction) -> str:
    """An action's text as a menu shows it: without the ``&`` of its mnemonic."""
    return action.text().replace("&&", "\x00").replace("&", "").replace("\x00", "&")


def action_keys(action: QAction) -> str:
    """An action's keys as this platform writes them, ``", "``-separated (``""`` for none)."""
    return ", ".join(k.toString(QKeySequence.NativeText) for k in action.shortcuts() if not k.isEmpty())


def _menu_actions(menu: QMenu):
    """Every action of ``menu`` and of its submenus, in order, without separators and submenu entries."""
    for a in menu.actions():
        if a.menu() is not None:
            yield from _menu_actions(a.menu())
        elif not a.isSeparator():
            yield a


def shortcut_groups(window: QMainWindow) -> list[tuple[str, list[tuple[str, str]]]]:
    """``[(menu title, [(action text, keys), ...]), ...]`` for every action of ``window`` with a key.

    Groups follow the menu bar; an action in two menus is listed under the first.
    """
    seen: set[QAction] = set()
    groups: list[tuple[str, list[tuple[str, str]]]] = []
    for top in window.menuBar().actions():
        menu = top.menu()
        if menu is None:
            continue
        rows = []
        for a in _menu_actions(menu):
            if a in seen:
                continue
            seen.add(a)
            keys = action_keys(a)
            if keys:
                rows.append((action_text(a), keys))
        if rows:
            groups.append((action_text(top), rows))
    other = []
    for a in window.findChildren(QAction):
        if a in seen or a.menu() is not None:
            continue
        seen.add(a)
        keys = action_keys(a)
        if keys:
            other.append((action_text(a) or a.toolTip(), keys))
    if other:
        groups.append((OTHER, other))
    return groups


class ShortcutSheet(QDialog):
    """The keyboard shortcut sheet: a filterable list of every key of the window, by menu."""

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.setObjectName("shortcutSheet")
        self.setWindowTitle("Keyboard Shortcuts")
        self._window = window
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Filter: a word of an action, or a whole key (ctrl+s)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Action", "Keys"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
        self.resize(520, 640)

    def refresh(self) -> None:
        """Read the window's actions again."""
        self.tree.clear()
        for title, rows in [*shortcut_groups(self._window), ("Mouse on the canvas", list(MOUSE))]:
            group = QTreeWidgetItem(self.tree, [title])
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            group.setFirstColumnSpanned(True)
            group.setFlags(Qt.ItemIsEnabled)
            for text, keys in rows:
                QTreeWidgetItem(group, [text, keys])
            group.setExpanded(True)
        self._apply_filter(self.filter.text())

    def rows(self) -> dict[str, list[tuple[str, str]]]:
        """What the sheet shows now (rows hidden by the filter left out): ``{group: [(action, keys), ...]}``."""
        shown = {}
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group.isHidden():
                continue
            shown[group.text(0)] = [(group.child(j).text(0), group.child(j).text(1))
                                    for j in range(group.childCount()) if not group.child(j).isHidden()]
        return shown

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().casefold()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            title_matches = needle in group.text(0).casefold()
            any_shown = False
            for j in range(group.childCount()):
                child = group.child(j)
                # words match inside an action's text; a key matches whole ("ctrl+s" is not Ctrl+Shift+Z)
                show = not needle or title_matches or needle in child.text(0).casefold() \
                    or needle in child.text(1).casefold().split(", ")
                child.setHidden(not show)
                any_shown |= show
            group.setHidden(not any_shown)


def about_text() -> str:
    """What About says: the name, this version, and the Qt, PySide and Python it runs on."""
    return (f"{APP_NAME} {level_editor.core.__version__}\n"
            "A 2D level editor: walls, boxes, pillars, markers, tile grids and triggers, "
            "with a play-test (F5) on the same collision code the game uses.\n"
            f"Qt {qVersion()}, PySide6 {PySide6.__version__}, Python {platform.python_version()}")


class HelpMenu(QObject):
    """The Help menu of ``window``: Keyboard Shortcuts (F1) and About. Add it after every other menu."""

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.window = window
        self.sheet: ShortcutSheet | None = None
        self.about_box: QMessageBox | None = None
        self.shortcuts_action = QAction(icon("help"), "&Keyboard Shortcuts", window)
        self.shortcuts_action.setShortcut(QKeySequence("F1"))
        self.shortcuts_action.setStatusTip("Every key of the editor, by menu")
        self.shortcuts_action.triggered.connect(guarded("showing the shortcuts")(lambda checked=False:
                                                                                 self.show_shortcuts()))
        # only in the Help menu (its key works from there): the sheet stays at hand during a play-test too, which
        # locks the window's own actions
        self.about_action = QAction(f"&About {APP_NAME}", window)
        self.about_action.setMenuRole(QAction.AboutRole)
        self.about_action.setStatusTip("Version and the Qt it runs on")
        self.about_action.triggered.connect(guarded("showing About")(lambda checked=False: self.show_about()))
        self.menu = window.menuBar().addMenu("&Help")
        self.menu.setObjectName("helpMenu")
        self.menu.addAction(self.shortcuts_action)
        self.menu.addSeparator()
        self.menu.addAction(self.about_action)

    def show_shortcuts(self) -> ShortcutSheet:
        """Show the shortcut sheet, read afresh from the window's actions, and return it."""
        if self.sheet is None:
            self.sheet = ShortcutSheet(self.window)
        self.sheet.refresh()
        self.sheet.show()
        self.sheet.raise_()
        self.sheet.activateWindow()
        self.sheet.filter.setFocus()
        return self.sheet

    def show_about(self) -> QMessageBox:
        """Show About (without blocking: the window stays usable behind it) and return the box."""
        if self.about_box is None:
            name, description, versions = about_text().split("\n")
            box = QMessageBox(QMessageBox.NoIcon, f"About {APP_NAME}", "", QMessageBox.Ok, self.window)
            box.setObjectName("aboutBox")
            box.setIconPixmap(icon("app").pixmap(64, 64))
            box.setTextFormat(Qt.RichText)
            box.setText(f"<h3>{name}</h3><p>{description}</p><p>{versions}</p>")
            self.about_box = box
        self.about_box.open()
        return self.about_box
