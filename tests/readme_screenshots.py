"""Takes the README's screenshots of the editor again, at the default window size (1280 x 800).

    Xvfb :131 -screen 0 1400x900x24 &
    DISPLAY=:131 python -m tests.readme_screenshots            # writes resources/screenshot-*.png
    DISPLAY=:131 python -m tests.readme_screenshots -o /tmp/x  # somewhere else, to look first

Each picture is the sample level the README names, opened, selected and played as a designer would (the
play-test advances on its own clock, so the pictures are the same at every run). A real display is needed
for the context menu, which is a window of its own; the rest are grabbed from the window. Tiled's own
pictures (screenshot-in-tiled.png, screenshot-tiled.png) are made with Tiled, not here.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QPointF, QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from level_editor.core.collision.shapes import Vec2
from level_editor.editor.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ROOT / "levels"
SIZE = (1280, 800)


def settle(rounds: int = 30) -> None:
    for _ in range(rounds):
        QApplication.processEvents()


def new_window(level_name: str) -> MainWindow:
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "settings.ini"), QSettings.IniFormat)
    window = MainWindow(settings=settings)
    window.resize(*SIZE)
    window.move(0, 0)
    window.show()
    window.play_mode.use_timer = False  # the play-test advances only when told: the same picture every run
    settle()
    if not window.open_file(str(LEVELS / level_name), ask=False):
        raise SystemExit(f"could not open {level_name}")
    wait_checked(window)
    return window


def wait_checked(window: MainWindow) -> None:
    """Until the Problems dock shows the check of the level that is open now."""
    for _ in range(2000):
        settle(1)
        if window.checks.result_for(window.document.level) is not None and not window.checks.busy:
            break
        QTest.qWait(10)
    settle()


def close(window: MainWindow) -> None:
    window.undo_stack.setClean()
    window.close()
    settle()


def save(widget, path: Path) -> None:
    settle()
    widget.grab().save(str(path))
    print(path)


def editor(out: Path) -> None:
    w = new_window("showcase.json")
    w.selection.set(["slab-minus-30"])
    save(w, out / "screenshot-editor.png")
    close(w)


def context_menu(out: Path) -> None:
    w = new_window("showcase.json")
    box = w.document.get("crate-1")
    x0, y0, x1, y1 = box.bounds()
    pixel = w.canvas.mapFromScene(QPointF((x0 + x1) / 2, (y0 + y1) / 2))
    menu = w.canvas_menu.popup(pixel)
    settle()
    frame = w.frameGeometry()
    screen = QGuiApplication.primaryScreen()
    shot = screen.grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height())
    shot.save(str(out / "screenshot-context-menu.png"))
    print(out / "screenshot-context-menu.png")
    menu.close()
    close(w)


def shortcuts(out: Path) -> None:
    w = new_window("showcase.json")
    sheet = w.help.show_shortcuts()
    save(sheet, out / "screenshot-shortcuts.png")
    sheet.close()
    close(w)


def start_playing(w: MainWindow) -> None:
    w.activateWindow()
    w.canvas.setFocus()
    settle()
    if not w.play_mode.play():
        raise SystemExit("the play-test did not start")
    settle()


def walk(w: MainWindow, key, seconds: float) -> None:
    QTest.keyPress(w.canvas, key)
    w.play_mode.session.advance(seconds)
    QTest.keyRelease(w.canvas, key)


def playtest(out: Path) -> None:
    w = new_window("showcase.json")
    w.play_mode.debug_action.setChecked(True)
    start_playing(w)
    walk(w, Qt.Key_Right, 1.2)
    walk(w, Qt.Key_Down, 0.9)
    save(w, out / "screenshot-playtest.png")
    w.play_mode.stop()
    close(w)


def game_content(out: Path) -> None:
    w = new_window("game_content.json")
    marker = next(t for t in w.tools if t.name == "Marker")
    w.set_tool(marker)
    marker.set_marker_type("enemy")
    w.selection.set(["gate"])
    save(w, out / "screenshot-game-content.png")
    close(w)


def types(out: Path) -> None:
    w = new_window("game_content.json")
    dialog = w.show_types_editor()
    settle()
    save(dialog, out / "screenshot-types.png")
    dialog.close()
    close(w)


def properties(out: Path) -> None:
    w = new_window("game_content.json")
    w.selection.set(["goblin-1"])
    save(w, out / "screenshot-properties.png")
    w.selection.set(["goblin-1", "goblin-2"])
    save(w, out / "screenshot-inspector.png")
    close(w)


def playtest_trigger(out: Path) -> None:
    w = new_window("game_content.json")
    w.play_mode.debug_action.setChecked(True)
    start_playing(w)
    walk(w, Qt.Key_Right, 0.45)  # from the spawn (96, 96) into the healing pool at (200, 120)
    walk(w, Qt.Key_Down, 0.1)
    save(w, out / "screenshot-playtest-trigger.png")
    w.play_mode.stop()
    close(w)


def problems(out: Path) -> None:
    """game_content.json with the crate 12 px from the courtyard's wall and the fountain over the spawn."""
    w = new_window("game_content.json")
    level = w.document.level
    moved = {"crate": lambda o: replace(o, origin=Vec2(16, 200)), "fountain": lambda o: replace(o, center=Vec2(112, 112))}
    w.set_level(replace(level, objects=tuple(moved.get(o.id, lambda o: o)(o) for o in level.objects)), w.path)
    wait_checked(w)
    save(w, out / "screenshot-problems.png")
    close(w)


def platformer_playtest(out: Path) -> None:
    """levels/platformer.json played with F3: a run up the hill and a jump off its top, mid-air."""
    w = new_window("platformer.json")
    w.play_mode.debug_action.setChecked(True)
    start_playing(w)
    session = w.play_mode.session
    QTest.keyPress(w.canvas, Qt.Key_Right)
    session.advance(1.1)
    QTest.keyPress(w.canvas, Qt.Key_Space)
    session.advance(0.3)
    save(w, out / "screenshot-platformer.png")
    QTest.keyRelease(w.canvas, Qt.Key_Space)
    QTest.keyRelease(w.canvas, Qt.Key_Right)
    w.play_mode.stop()
    close(w)


def jump_arcs(out: Path) -> None:
    """levels/platformer.json with View > Jump Arcs from ledge-1, the lift selected to show its path's handles."""
    w = new_window("platformer.json")
    w.selection.set(["coin-2"])  # the marker above ledge-2: the arcs start from the floor under it
    w.jump_arcs.action.setChecked(True)
    w.jump_arcs.update_arcs()
    save(w, out / "screenshot-jump-arcs.png")
    close(w)


SHOTS = (editor, context_menu, shortcuts, playtest, game_content, types, properties, playtest_trigger, problems,
         platformer_playtest, jump_arcs)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--out", default=str(ROOT / "resources"), help="folder for the PNG files")
    parser.add_argument("only", nargs="*", help="take only these (editor, playtest, problems...)")
    args = parser.parse_args(argv)
    if QGuiApplication.platformName() == "offscreen" or os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        print("needs a display (Xvfb): the context menu is a window of its own", file=sys.stderr)
        return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for shot in SHOTS:
        if not args.only or shot.__name__ in args.only:
            shot(out)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
