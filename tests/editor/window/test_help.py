"""The Help menu (editor/window/help.py): the shortcut sheet is read from the window's actions; About names the versions."""
from __future__ import annotations

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

import level_editor.core
from level_editor.editor.window.help import OTHER, about_text, shortcut_groups
from tests.editor.helpers import key, window  # noqa: F401 - the window fixture


def _menu(window, title: str) -> QMenu:
    return next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == title)


def test_f1_shows_every_key_grouped_by_menu(window):
    key(window, Qt.Key_F1)
    sheet = window.help.sheet
    assert sheet is not None and sheet.isVisible()
    rows = sheet.rows()
    assert list(rows)[:2] == ["File", "Edit"] and list(rows)[-1] == "Mouse on the canvas"
    assert ("Save", "Ctrl+S") in rows["File"]
    assert ("Redo", "Ctrl+Shift+Z, Ctrl+Y") in rows["Edit"]
    assert ("Cut", "Ctrl+X") in rows["Edit"] and ("Rotate Counterclockwise", "Shift+Z") in rows["Edit"]
    assert ("Frame Selection", "F") in rows["View"]
    assert ("Wall", "W") in rows["Tools"] and ("Play from Spawn", "F5") in rows["Play"]
    assert ("Keyboard Shortcuts", "F1") in rows["Help"]
    # every key of section 5 of the contract is on the sheet
    keys = {k for group in rows.values() for _, ks in group for k in ks.split(", ")}
    for k in ("S", "E", "W", "B", "O", "C", "I", "M", "T", "F5", "Shift+F5", "Esc", "Ctrl+Z", "Ctrl+Shift+Z",
              "Ctrl+Y", "Ctrl+N", "Ctrl+O", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+C", "Ctrl+V", "Ctrl+D", "Del", "Ctrl+A",
              "Ctrl+0", "G"):
        assert k in keys, k


def test_no_two_actions_share_a_key(window):
    owners = {}
    for title, rows in shortcut_groups(window):
        for text, keys in rows:
            for k in keys.split(", "):
                assert k not in owners, f"{k}: {owners.get(k)} and {title} > {text}"
                owners[k] = f"{title} > {text}"


def test_a_new_action_with_a_key_appears_without_touching_the_sheet(window):
    added = QAction("Smooth &Wall", window)
    added.setShortcut(QKeySequence("Ctrl+Alt+K"))
    _menu(window, "Edit").addAction(added)
    loose = QAction("Toggle Night", window)
    loose.setShortcut(QKeySequence("Ctrl+Alt+N"))
    window.addAction(loose)
    key(window, Qt.Key_F1)
    rows = window.help.sheet.rows()
    assert ("Smooth Wall", "Ctrl+Alt+K") in rows["Edit"]
    assert ("Toggle Night", "Ctrl+Alt+N") in rows[OTHER]


def test_the_sheet_filters_by_action_or_key(window):
    sheet = window.help.show_shortcuts()
    QTest.keyClicks(sheet.filter, "rotate")
    rows = sheet.rows()
    assert list(rows) == ["Edit"] and [t for t, _ in rows["Edit"]] == ["Rotate Clockwise", "Rotate Counterclockwise"]
    sheet.filter.clear()
    QTest.keyClicks(sheet.filter, "ctrl+s")
    assert {t for g in sheet.rows().values() for t, _ in g} == {"Save"}  # a whole key: not Ctrl+Shift+S


def _click_menu_entry(window, title: str, entry: str) -> None:
    """Open ``title`` on the menu bar with the mouse and click ``entry`` in it."""
    bar = window.menuBar()
    top = next(a for a in bar.actions() if a.text().replace("&", "") == title)
    QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.actionGeometry(top).center())
    QApplication.processEvents()
    menu = top.menu()
    assert menu.isVisible()
    action = next(a for a in menu.actions() if a.text().replace("&", "") == entry)
    QTest.mouseClick(menu, Qt.LeftButton, Qt.NoModifier, menu.actionGeometry(action).center())
    QApplication.processEvents()


def test_help_menu_is_last_and_its_entries_work(window):
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles[-1] == "Help"
    _click_menu_entry(window, "Help", "Keyboard Shortcuts")
    assert window.help.sheet.isVisible()
    window.help.sheet.close()
    _click_menu_entry(window, "Help", "About Level Editor")
    box = window.help.about_box
    assert box.isVisible() and box.windowTitle() == "About Level Editor"
    assert level_editor.core.__version__ in box.text() and qVersion() in box.text() and PySide6.__version__ in box.text()


def test_about_names_the_editor_its_version_and_qt():
    text = about_text()
    assert text.startswith(f"Level Editor {level_editor.core.__version__}\n")
    assert f"Qt {qVersion()}, PySide6 {PySide6.__version__}" in text


def test_f1_works_from_the_object_list_too(window):
    window.object_list.setFocus()
    QTest.keyClick(window.object_list, Qt.Key_F1)
    QApplication.processEvents()
    assert window.help.sheet is not None and window.help.sheet.isVisible()


def test_f1_shows_the_sheet_during_a_play_test_too(window):
    key(window, Qt.Key_F5)
    assert window.play_mode.is_playing
    key(window, Qt.Key_F1)
    assert window.help.sheet is not None and window.help.sheet.isVisible()
    assert ("Stop", "Esc") in window.help.sheet.rows()["Play"]
    window.help.sheet.close()
    key(window, Qt.Key_Escape)
    assert not window.play_mode.is_playing
