"""Every tool's handlers are total (issue 14): wild positions raise nothing, and an error inside a handler is
reported and cancels the gesture, leaving the level as the last finished step left it."""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF, Qt

from level_editor.core.level.limits import MAX_COORDINATE
from level_editor.core.level.model import Box, Level, OrientedBox, Player, Wall
from level_editor.core.level.document import LevelDocument
from level_editor.editor.canvas.scene import LevelScene
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.canvas.context import EditorContext
from level_editor.editor.support.guard import set_error_handler
from level_editor.editor.tools.registry import TOOL_CLASSES
from tests.editor.helpers import undo_texts
from tests.editor.tools.conftest import Mouse

WILD = [(float("nan"), 5.0), (float("inf"), float("-inf")), (1e300, -1e300), (-1e-320, 1e308), (MAX_COORDINATE, 0)]


@pytest.fixture
def editor(qtbot):
    """A context around the editor's own scene (the select tool picks through it), no window."""
    doc = LevelDocument(Level(grid=16, player=Player(spawn=(48, 48), radius=12)))
    scene = LevelScene(doc)
    ctx = EditorContext(doc, scene)
    scene.set_selection(ctx.selection)
    ctx._test_scene = scene
    yield ctx
    ctx.undo_stack.clear()


@pytest.fixture
def errors():
    seen = []
    set_error_handler(lambda where, error, *rest: seen.append((where, repr(error))))
    yield seen
    set_error_handler(None)


def start_gesture(editor, cls):
    """The tool ``cls`` active and in the middle of its usual gesture on a small level."""
    editor.push(AddObjectsCommand(editor.document, [
        Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8),
        Box("box-1", (240, 80), (64, 32)),
        OrientedBox("obox-1", (400, 240), (40, 10), 0),
    ]))
    tool = cls(editor)
    tool.activate()
    mouse = Mouse(tool)
    tool.level_before = editor.document.level
    name = cls.__name__
    if name == "NodeTool":
        editor.selection.set(["wall-1"])
        mouse.press(160, 200)
    elif name == "SelectTool":
        mouse.press(270, 95)
    elif name == "WallTool":
        mouse.click(32, 400)
        mouse.click(96, 400)
    elif name == "SpawnTool":
        mouse.press(48, 48)
    elif name == "SpriteTool":
        from dataclasses import replace
        from level_editor.core.level.art import Tileset
        from level_editor.editor.canvas.tile_pick import TilePick
        editor.document.reset(replace(editor.document.level, tilesets=(
            Tileset("ground", "Ground", (32, 32), image="tiles.png", image_size=(64, 32), columns=2, count=2),)))
        tool.level_before = editor.document.level
        editor.set_tile_pick(TilePick("ground", ((0,),)))
        mouse.press(500, 500)
    else:
        mouse.press(500, 500)
    mouse.move(520, 530)
    return tool, mouse


def finite_level(editor) -> bool:
    level = editor.document.level
    boxes = [o.bounds() for o in level.objects]
    spawn = level.player.spawn
    return all(math.isfinite(v) and abs(v) <= 2 * MAX_COORDINATE for box in boxes for v in box) and \
        math.isfinite(spawn.x) and math.isfinite(spawn.y)


@pytest.mark.parametrize("cls", TOOL_CLASSES, ids=lambda c: c.__name__)
def test_wild_positions_mid_gesture_raise_nothing_and_leave_a_finite_level(editor, errors, cls):
    tool, mouse = start_gesture(editor, cls)
    for x, y in WILD:
        mouse.move(x, y)
        mouse.hover(x, y)
    mouse.release(*WILD[0])
    tool.mouse_double_clicked(QPointF(*WILD[1]), Qt.LeftButton, Qt.NoModifier)
    tool.key_pressed(Qt.Key_Return, Qt.NoModifier)
    tool.deactivate()
    assert errors == []
    assert finite_level(editor)


@pytest.mark.parametrize("cls", TOOL_CLASSES, ids=lambda c: c.__name__)
def test_an_error_inside_a_handler_is_reported_and_the_gesture_cancelled(editor, errors, cls, monkeypatch):
    tool, mouse = start_gesture(editor, cls)

    def broken(*args, **kwargs):
        raise RuntimeError("the snapper broke")

    for name in ("snap", "snap_detail", "grid", "nearest_point"):
        monkeypatch.setattr(editor.snapper, name, broken)
    monkeypatch.setattr(editor, "snap", broken)
    mouse.move(600, 620)  # raises inside the tool, never out of it
    monkeypatch.undo()
    assert errors and all("the snapper broke" in e[1] for e in errors)
    assert f"({tool.name} tool)" in errors[0][0]
    assert not tool.in_gesture(), "the broken gesture is cancelled"
    assert tool.current_hint() == tool.hint or cls.__name__ in ("NodeTool", "OrientedBoxTool")
    # what the gesture had changed is put back: the level is as the last finished step left it
    assert editor.document.level == tool.level_before
    assert undo_texts(editor) == ["Add 3 objects"], "the cancelled gesture left no step in the history"
    assert finite_level(editor)
    level = editor.document.level
    mouse.release(600, 620)
    assert editor.document.level is level, "a release after the cancelled gesture changes nothing"


def test_a_tile_stroke_across_the_level_is_refused_with_a_word_not_run_into_millions_of_rows(editor):
    from level_editor.editor.tools.tile_brush_tool import MAX_GRID_CELLS, TileBrushTool

    messages = []
    editor.message.connect(messages.append)
    tool = TileBrushTool(editor)
    tool.activate()
    mouse = Mouse(tool)
    mouse.press(8, 8)
    mouse.move(MAX_COORDINATE, MAX_COORDINATE)
    mouse.release(MAX_COORDINATE, MAX_COORDINATE)
    assert editor.document.objects == ()
    assert any(m.startswith("Nothing painted: the tile grid would span") for m in messages)
    mouse.press(8, 8)
    mouse.move(200, 40)
    mouse.release(200, 40)
    [tiles] = editor.document.objects
    assert tiles.columns * tiles.rows <= MAX_GRID_CELLS and tiles.columns == 13
