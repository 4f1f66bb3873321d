"""An object item's bounding rectangle: held by Qt (no Python call when Qt asks), and it follows the object."""
from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF, QRectF

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.model import Box, Image, Level, OrientedBox, Pillar, Point, Tiles, Wall
from level_editor.editor.canvas.scene import ITEM_CLASSES, LevelScene
from level_editor.editor.items.object_item import ObjectItem
from level_editor.editor.items.player_item import PlayerItem

EVERY_KIND = (
    Wall("wall-1", [(0, 200), (160, 200), (160, 320)], 8, False, type="fence"),
    Box("box-1", (240, 80), (64, 32)),
    OrientedBox("obox-1", (400, 240), (40, 10), 30),
    Pillar("pillar-1", (240, 320), 16),
    Point("lever", (208, 208), type="switch"),
    Tiles("floor", (192, 192), 16, ("##.", ".##")),
    Image("sketch", "missing.png", (-50, -60)),
)


def test_no_item_answers_qt_for_its_bounding_rectangle_in_python():
    # Qt asks twice for every item moved; a Python answer cost a fifth of a second per 100,000 objects moved
    for cls in (ObjectItem, PlayerItem, *ITEM_CLASSES.values()):
        assert "boundingRect" not in vars(cls), cls.__name__


@pytest.mark.parametrize("obj", EVERY_KIND, ids=lambda o: o.id)
def test_the_bounding_rectangle_holds_the_outline_and_is_the_items_scene_box(qtbot, obj):
    scene = LevelScene(LevelDocument(Level(objects=(obj,))))
    item = scene.item(obj.id)
    bounds = item.boundingRect()
    assert not bounds.isEmpty() and bounds.contains(item.shape().boundingRect())
    x0, y0, x1, y1 = item.scene_box()
    assert item.sceneBoundingRect() == QRectF(x0, y0, x1 - x0, y1 - y0)


def test_a_reshaped_object_is_found_over_its_new_extent_and_no_longer_over_the_old(qtbot):
    box = EVERY_KIND[1]
    doc = LevelDocument(Level(objects=(box,)))
    scene = LevelScene(doc)
    item = scene.item(box.id)
    far = QPointF(box.origin.x + 500, box.origin.y + 300)
    assert item not in scene.items(far)
    doc.replace_objects([box.id], [replace(box, size=box.size + (510, 310))])
    assert item in scene.items(far) and item.boundingRect().contains(QPointF(500, 300))
    doc.replace_objects([box.id], [replace(box, size=(4, 4))])
    assert item not in scene.items(far) and item.boundingRect().width() < 10
    assert item in scene.items(QPointF(box.origin.x + 2, box.origin.y + 2))
