"""Opening a big level: the scene makes its items ahead, a slice at a time, the window answering in between;
the reset then only adds them, and they are the items a reset would have made."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Image, Layer, Level, Pillar, Player, Wall
from level_editor.editor.canvas import slices as slices_module
from level_editor.editor.canvas.scene import LevelScene
from tests.editor.helpers import make_window


def big_level(n: int = 60) -> Level:
    layers = (Layer("floor", "Floor"), Layer("walls", "Walls"), Layer("secret", "Secret", visible=False))
    objects = []
    for i in range(n):
        layer = layers[i % 3].id
        kind = i % 4
        if kind == 0:
            objects.append(Box(f"box-{i}", (i * 40, 0), (20, 10), layer=layer))
        elif kind == 1:
            objects.append(Pillar(f"pillar-{i}", (i * 40, 100), 8, layer=layer))
        elif kind == 2:
            objects.append(Wall(f"wall-{i}", [(i * 40, 200), (i * 40 + 30, 260), (i * 40, 300)], 4, False, layer=layer))
        else:
            objects.append(Image(f"sketch-{i}", "missing.png", (i * 40, -200), layer=layer))
    return Level(name="big", layers=layers, player=Player(spawn=(-500, 40), radius=12), objects=tuple(objects))


@pytest.fixture
def small_slices(monkeypatch):
    monkeypatch.setattr(slices_module, "PREPARE_AT", 10)
    monkeypatch.setattr(slices_module, "ANSWER_EVERY", 0.0)  # answer after every item


def shown(scene: LevelScene) -> dict:
    """What the canvas shows of each object: position, stacking, visibility, outline."""
    return {it.object_id: (it.pos(), it.zValue(), it.isVisible(), it.boundingRect(), it.value)
            for it in scene.object_items()}


def test_items_made_ahead_are_the_items_a_reset_makes_and_the_reset_only_adds_them(qtbot, small_slices):
    old = Level(objects=(Box("old-box", (0, 0), (10, 10)),))
    doc = LevelDocument(old)
    scene = LevelScene(doc)
    level = big_level()
    answered, progress = [], []
    on_old_box = scene.item("old-box").mapToScene(scene.item("old-box").boundingRect().center())

    def between():
        # the window answers while the items are made: the open level is still the one shown, untouched
        answered.append((len(doc), len(scene), scene.object_at(on_old_box)))

    scene.prepare(level, lambda done, total: progress.append((done, total)), between)
    assert len(answered) >= len(level.objects) - 1
    assert set(answered) == {(1, 1, "old-box")}
    assert [d for d, _ in progress] == sorted(d for d, _ in progress) and {t for _, t in progress} == {60}
    made = scene._prepared.items
    doc.reset(level)
    assert [scene.item(o.id) for o in level.objects] == made
    assert all(it.scene() is scene for it in made) and not set(scene.overlay_items()) & set(made)
    fresh = LevelScene(LevelDocument(level))
    assert shown(scene) == shown(fresh)
    assert scene.level_rect() == fresh.level_rect()
    assert not any(scene.item(o.id).isVisible() for o in level.objects if o.layer == "secret")


def test_items_made_for_another_level_are_dropped(qtbot, small_slices):
    doc = LevelDocument(Level())
    scene = LevelScene(doc)
    scene.prepare(big_level(), between=lambda: None)
    made = scene._prepared.items
    other = big_level(30)
    doc.reset(other)
    assert len(scene) == 30 and not set(map(id, scene.object_items())) & set(map(id, made))
    assert shown(scene) == shown(LevelScene(LevelDocument(other)))
    doc.reset(big_level())  # a level equal to the one prepared, but not it: made afresh
    assert len(scene) == 60 and not set(map(id, scene.object_items())) & set(map(id, made))


def test_a_small_level_is_made_at_once_on_the_reset(qtbot):
    doc = LevelDocument(Level())
    scene = LevelScene(doc)
    calls = []
    scene.prepare(big_level(), between=lambda: calls.append(1))
    assert calls == [] and scene._prepared is None and len(scene) == 0


def test_a_big_level_s_items_are_set_aside_from_the_cycle_collector(qtbot, small_slices):
    import gc

    gc.unfreeze()
    doc = LevelDocument(Level())
    scene = LevelScene(doc)
    scene.prepare(big_level(), between=lambda: None)
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    # every item made ahead, and what it holds, is out of the collector's passes until unfrozen
    assert frozen >= len(big_level().objects)
    doc.reset(big_level(30))  # under PREPARE_AT=10 too: made on the reset, then set aside
    assert gc.get_freeze_count() >= 30
    gc.unfreeze()


def test_the_window_answers_its_timers_while_a_big_level_opens(qtbot, tmp_path, small_slices):
    window = make_window(qtbot, tmp_path, Level(objects=(Box("old-box", (0, 0), (10, 10)),)))
    seen = []
    QTimer.singleShot(0, lambda: seen.append(sorted(o.id for o in window.document.objects)))
    window.set_level(big_level())
    # the timer ran while the items were being made, before the level was opened
    assert seen == [["old-box"]]
    assert len(window.scene) == 60 and len(window.document) == 60


def test_the_opening_progress_leaves_the_status_bar_once_the_level_is_open(qtbot, tmp_path, small_slices):
    window = make_window(qtbot, tmp_path, Level(objects=(Box("old-box", (0, 0), (10, 10)),)))
    told = []
    QTimer.singleShot(0, lambda: told.append(window.statusBar().currentMessage()))
    window.set_level(big_level())
    assert told and told[0].startswith("Opening: ") and told[0].endswith(" of 60 objects shown…")
    assert not window.statusBar().currentMessage().startswith("Opening:")
