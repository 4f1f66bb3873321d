"""LayerItem: one layer of the level on the canvas, the parent item of its objects' items."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem


class LayerItem(QGraphicsItem):
    """The parent of one layer's object items (Tiled's ``ObjectGroupItem``); it draws nothing itself.

    Hiding it hides the layer's objects, and layers stack as these items do:
    the scene sets their z values in the layers' order and a layer's objects
    stack inside it in file order. It stays at the scene's origin, untransformed,
    so its children's positions are scene positions.

    ``pictures``: whether it holds the layer's reference pictures, which draw
    under the layer's other objects (and over the layers below), rather than those objects.
    """

    def __init__(self, layer_id: str, pictures: bool = False):
        super().__init__()
        self.layer_id = layer_id
        self.pictures = pictures
        self.setFlag(QGraphicsItem.ItemHasNoContents)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter, option, widget=None) -> None:
        pass
