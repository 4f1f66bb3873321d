"""Undo commands for layers: add, rename, show, hide, lock, reorder, delete, and moving objects between them.

Like every command (editor/commands/objects.py) they change only the document, and
undo exactly: a layer's state is an immutable :class:`~level_editor.core.level.model.Layer`,
so each command keeps the whole list of layers before and after. Showing,
hiding and locking are undo steps too, as in Tiled.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence

from PySide6.QtGui import QUndoCommand

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.kinds import plural
from level_editor.core.level.model import Layer


def layer_index(layers: Sequence[Layer], layer_id: str) -> int:
    """Where the layer ``layer_id`` is in ``layers`` (bottom first)."""
    return next(i for i, layer in enumerate(layers) if layer.id == layer_id)


def new_layer(layers: Sequence[Layer]) -> Layer:
    """A fresh layer named as Tiled would: ``Layer 2`` (id ``layer-2``) when there is one layer.

    >>> new_layer([Layer("main", "Main")])
    Layer(id='layer-2', name='Layer 2', visible=True, locked=False, extra={}, opacity=1.0)
    >>> new_layer([Layer("main", "Main"), Layer("layer-2", "Art")]).id
    'layer-3'
    """
    ids = {layer.id for layer in layers}
    names = {layer.name for layer in layers}
    n = len(layers) + 1
    while f"layer-{n}" in ids or f"Layer {n}" in names:
        n += 1
    return Layer(f"layer-{n}", f"Layer {n}")


class SetLayersCommand(QUndoCommand):
    """Replace the level's layers with ``layers`` (bottom first); undo puts back the ones before.

    Adding, renaming, showing, hiding, locking and reordering are all this one
    command with a label that says which.
    """

    def __init__(self, document: LevelDocument, layers: Sequence[Layer], text: str):
        super().__init__(text)
        self._doc = document
        self._old = document.level.layers
        self._new = tuple(layers)
        self.setObsolete(self._new == self._old)

    def redo(self):
        self._doc.set_layers(self._new)

    def undo(self):
        self._doc.set_layers(self._old)


def add_layer_command(document: LevelDocument, above: Optional[str] = None) -> tuple[SetLayersCommand, Layer]:
    """A command adding a new layer just above the layer ``above`` (on top without one), and that layer."""
    layers = list(document.level.layers)
    layer = new_layer(layers)
    at = layer_index(layers, above) + 1 if above is not None else len(layers)
    layers.insert(at, layer)
    return SetLayersCommand(document, layers, "Add layer"), layer


def rename_layer_command(document: LevelDocument, layer_id: str, name: str) -> SetLayersCommand:
    layers = list(document.level.layers)
    i = layer_index(layers, layer_id)
    old = layers[i].name
    layers[i] = replace(layers[i], name=name)
    return SetLayersCommand(document, layers, f"Rename layer '{old}' to '{name}'")


def show_layer_command(document: LevelDocument, layer_id: str, visible: bool) -> SetLayersCommand:
    layers = list(document.level.layers)
    i = layer_index(layers, layer_id)
    layers[i] = replace(layers[i], visible=visible)
    return SetLayersCommand(document, layers, f"{'Show' if visible else 'Hide'} layer '{layers[i].name}'")


def lock_layer_command(document: LevelDocument, layer_id: str, locked: bool) -> SetLayersCommand:
    layers = list(document.level.layers)
    i = layer_index(layers, layer_id)
    layers[i] = replace(layers[i], locked=locked)
    return SetLayersCommand(document, layers, f"{'Lock' if locked else 'Unlock'} layer '{layers[i].name}'")


def move_layer_command(document: LevelDocument, layer_id: str, to: int) -> SetLayersCommand:
    """Put the layer at place ``to`` (bottom first, counted without it): ``Raise``, ``Lower`` or ``Move``."""
    layers = list(document.level.layers)
    i = layer_index(layers, layer_id)
    layer = layers.pop(i)
    to = max(0, min(len(layers), to))
    layers.insert(to, layer)
    verb = "Raise" if to == i + 1 else "Lower" if to == i - 1 else "Move"
    return SetLayersCommand(document, layers, f"{verb} layer '{layer.name}'")


class DeleteLayerCommand(QUndoCommand):
    """Delete a layer and every object on it, as one step; undo brings back both, each where it was."""

    def __init__(self, document: LevelDocument, layer_id: str):
        layers = document.level.layers
        self._layer = layers[layer_index(layers, layer_id)]
        self._ids = [o.id for o in document.objects if o.layer == layer_id]
        text = f"Delete layer '{self._layer.name}'"
        if self._ids:
            text += f" and {plural(len(self._ids), 'object')}"
        super().__init__(text)
        self._doc = document
        self._old_layers = layers
        self._new_layers = tuple(layer for layer in layers if layer.id != layer_id)
        self._removed: list = []

    def redo(self):
        # the objects first: a layer that still holds objects cannot go
        self._removed = self._doc.remove_objects(self._ids) if self._ids else []
        self._doc.set_layers(self._new_layers)

    def undo(self):
        self._doc.set_layers(self._old_layers)
        if self._removed:
            self._doc.insert_objects(self._removed)


class MoveObjectsToLayerCommand(QUndoCommand):
    """Put objects on another layer; each keeps its place in the file (so its place among its new layer's)."""

    def __init__(self, document: LevelDocument, ids: Sequence[str], layer_id: str):
        layer = document.level.layer(layer_id)
        self._old = [o for o in (document.get(i) for i in ids) if o is not None and o.layer != layer_id]
        super().__init__(f"Move {plural(len(self._old), 'object')} to layer '{layer.name}'")
        self._doc = document
        self._new = [replace(o, layer=layer_id) for o in self._old]
        self.setObsolete(not self._old)

    def redo(self):
        self._doc.replace_objects([o.id for o in self._old], self._new)

    def undo(self):
        self._doc.replace_objects([o.id for o in self._new], self._old)
