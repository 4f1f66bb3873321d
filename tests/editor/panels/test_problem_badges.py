"""Issue 16.7: problems on the canvas. Every object with an error or a warning carries a badge at its corner,
red or amber, with the messages in its tooltip, as soon as the background check finishes; badges follow their
objects, keep their size on screen at any zoom, never take a click, and are hidden while the level is played."""
from __future__ import annotations


from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Level, Player, Wall
from level_editor.core.level.problems import ERROR, WARNING, Problem
from level_editor.editor.support.editor_only import is_editor_only
from level_editor.editor.items.problem_badge_item import BADGE_SIZE, ProblemBadgeItem
from level_editor.editor.panels.problem_badges import MAX_BADGES, ProblemBadges
from tests.editor.helpers import click, drag, key, make_window
from tests.editor.panels.test_problems import WAIT, trouble, wait_checked  # noqa: F401


def badge_ids(window):
    return sorted(window.problems_dock.badges.ids())


def test_the_check_puts_a_badge_on_each_object_with_a_problem_and_only_there(trouble, qtbot):
    assert badge_ids(trouble) == []  # nothing checked yet
    wait_checked(qtbot, trouble)
    badges = trouble.problems_dock.badges
    assert badge_ids(trouble) == ["player", "wall-a"]
    assert badges.badge("player").severity == ERROR
    assert badges.badge("wall-a").severity == WARNING
    assert "overlaps crate" in badges.badge("player").toolTip()
    assert badges.badge("wall-a").toolTip().startswith("Warning: ")
    # at the object's top-right corner, no row clicked in the dock
    wall = trouble.document.get("wall-a")
    assert badges.badge("wall-a").pos() == QPointF(wall.bounds()[2], wall.bounds()[1])
    assert all(b.isVisible() and is_editor_only(b) for b in (badges.badge("player"), badges.badge("wall-a")))


def test_a_badge_keeps_its_size_on_screen_and_never_takes_a_click(trouble, qtbot):
    wait_checked(qtbot, trouble)
    badge = trouble.problems_dock.badges.badge("wall-a")
    sizes = []
    for zoom in (0.25, 1.0, 4.0):
        trouble.canvas.set_zoom(zoom)
        rect = badge.deviceTransform(trouble.canvas.viewportTransform()).mapRect(badge.boundingRect())
        sizes.append(round(rect.width()))
    assert sizes == [round(BADGE_SIZE)] * 3
    trouble.canvas.set_zoom(1.0)
    trouble.canvas.centerOn(QPointF(300, 150))
    # a click right on the badge reaches the canvas: it selects nothing, the badge is not an object
    corner = badge.pos()
    spot = corner + QPointF(BADGE_SIZE / 2 + 1, -BADGE_SIZE / 2 - 1)
    click(trouble, spot.x(), spot.y())
    assert trouble.selection.ids() == []
    assert trouble.scene.object_at(spot, 2.0) is None


def test_the_tooltip_says_the_problem(trouble, qtbot):
    wait_checked(qtbot, trouble)
    badge = trouble.problems_dock.badges.badge("wall-a")
    trouble.canvas.set_zoom(1.0)
    trouble.canvas.centerOn(badge.pos())
    view = trouble.canvas
    spot = view.mapFromScene(badge.pos()) + QPoint(int(BADGE_SIZE / 2) + 1, -int(BADGE_SIZE / 2) - 1)
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.ToolTip, spot, view.viewport().mapToGlobal(spot)))
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=2000)
    assert "Warning" in QToolTip.text() and "cross" in QToolTip.text()


def test_badges_follow_a_dragged_object_and_go_when_the_problem_is_fixed(trouble, qtbot):
    wait_checked(qtbot, trouble)
    badges = trouble.problems_dock.badges
    trouble.canvas.set_zoom(1.0)
    trouble.canvas.centerOn(QPointF(200, 200))
    drag(trouble, (96, 96), (96, 304))  # the spawn out of the crate
    player = trouble.document.player
    assert badges.badge("player").pos() == QPointF(player.bounds()[2], player.bounds()[1])
    qtbot.waitUntil(lambda: "player" not in badge_ids(trouble), timeout=WAIT)
    assert badge_ids(trouble) == ["wall-a"]
    key(trouble, Qt.Key_Z, Qt.ControlModifier)  # undo: the error and its badge come back
    qtbot.waitUntil(lambda: "player" in badge_ids(trouble), timeout=WAIT)


def test_a_deleted_renamed_or_hidden_object_takes_its_badge_along(trouble, qtbot):
    wait_checked(qtbot, trouble)
    badges = trouble.problems_dock.badges
    from level_editor.editor.commands.properties import rename_command
    trouble.context.push(rename_command(trouble.document, "wall-a", "fence"))
    assert badges.badge("fence") is not None and badges.badge("wall-a") is None
    hide = trouble.layers_panel.model
    hide.toggle(0, 1)  # the eye of the only layer
    assert not badges.badge("fence").isVisible()
    hide.toggle(0, 1)
    assert badges.badge("fence").isVisible()
    trouble.selection.set(["fence"])
    key(trouble, Qt.Key_Delete)
    assert badges.badge("fence") is None


def warnings_only_level() -> Level:
    return Level(player=Player(spawn=(40, 300), radius=12), objects=(
        Wall("wall-a", [(200, 40), (360, 200)], 8, False),
        Wall("wall-b", [(200, 200), (360, 40)], 8, False),
    ))


def test_badges_are_hidden_while_playing_and_back_afterwards(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, warnings_only_level())
    wait_checked(qtbot, window)
    badge = window.problems_dock.badges.badge("wall-a")
    assert badge.isVisible()
    key(window, Qt.Key_F5)
    assert window.play_mode.is_playing
    assert not badge.isVisible()
    key(window, Qt.Key_Escape)
    assert not window.play_mode.is_playing
    assert badge.isVisible()


# -- many objects (how long it takes at 100,000: tests/benchmarks/bench_parts.py) -----------------------------
def test_only_objects_with_problems_get_a_badge_and_every_object_wrong_shows_at_most_max_badges(qtbot):
    from PySide6.QtWidgets import QGraphicsScene

    n = 5 * MAX_BADGES
    objects = tuple(Box(f"box-{i}", (i * 20.0, 0.0), (10.0, 10.0)) for i in range(n))
    document = LevelDocument(Level(objects=objects))
    scene = QGraphicsScene()
    badges = ProblemBadges(document, scene)
    problems = [Problem(f"box-{i}", "too close", WARNING) for i in range(0, n, 1000)]
    badges.show_problems(problems)
    assert len(badges) == n // 1000 and len(scene.items()) == n // 1000
    assert sorted(badges.ids()) == sorted(p.object_id for p in problems)
    # every object wrong: the canvas shows the first MAX_BADGES, errors first; the dock lists them all
    everything = [Problem(f"box-{i}", "bad", ERROR if i % 2 else WARNING) for i in range(n)]
    badges.show_problems(everything)
    assert len(badges) == MAX_BADGES
    assert all(badges.badge(i).severity == ERROR for i in badges.ids())
    badges.show_problems(None)
    assert len(badges) == 0 and scene.items() == []


def test_a_badge_item_alone():
    badge = ProblemBadgeItem("x")
    badge.show_problems(ERROR, ["Error: a", "Warning: b"])
    assert badge.toolTip() == "Error: a\nWarning: b" and badge.acceptedMouseButtons() == Qt.NoButton
    assert badge.boundingRect().width() == BADGE_SIZE


def test_a_narrow_passage_sign_sits_in_the_gap_it_means(qtbot, tmp_path):
    # levels/game_content.json: the crate dragged next to the courtyard's left wall leaves a gap too narrow
    # for the player. The sign goes in that gap, on the left, not at the wall's top-right corner outside the level.
    from level_editor.core.level.file_format import load_level
    from tests.editor.test_game_content_sample import SAMPLE

    window = make_window(qtbot, tmp_path, load_level(SAMPLE))
    wait_checked(qtbot, window)
    assert "courtyard" not in badge_ids(window)
    window.canvas.centerOn(QPointF(300, 250))
    drag(window, (128, 216), (48, 216), Qt.ControlModifier)  # the crate's left side from x = 96 to 16, no snapping
    assert window.document.get("crate").origin == (16, 200)
    qtbot.waitUntil(lambda: "courtyard" in badge_ids(window), timeout=WAIT)
    badge = window.problems_dock.badges.badge("courtyard")
    assert "gap of 12 px to crate" in badge.toolTip()
    middle = badge.sceneBoundingRect().center()
    assert (middle.x(), middle.y()) == (10, 216)  # between x = 4 (the wall's inside) and 16, beside the crate
