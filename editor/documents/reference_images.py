"""Pictures dropped on the window, and reference images to trace over (Edit > Add Reference Image…).

A PNG or JPEG dropped on the canvas becomes a sprite showing it (art of the level, drawn as the game draws
it, at the picture's size); dropped with Shift held it becomes a reference image instead, as the Edit menu's
action makes one.

The picture is not copied: the level stores where it is, relative to the level
file's folder with forward slashes (``art/courtyard.png``), as the file format
asks. A level that has no file yet stores the picture's absolute path (with
forward slashes); it stays absolute when the level is first saved (nothing
rewrites it then: delete the image and add it again to store it relative). Save As into another folder
names the same pictures from there (:mod:`level_editor.core.level.pictures`).

:class:`ReferenceImageActions` is one part of :class:`~level_editor.editor.window.main_window.MainWindow`
(as :class:`~level_editor.editor.documents.files.FileActions` is); the question it asks, which
picture?, goes through :meth:`ReferenceImageActions.ask_image_path`, so tests
can answer it.
"""
from __future__ import annotations

import math
import os
from typing import Optional, Sequence

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImageReader, QUndoCommand
from PySide6.QtWidgets import QFileDialog

from level_editor.core.level.document import LevelDocument
from level_editor.core.level.kinds import objects_label
from level_editor.core.level.model import Image, Sprite
from level_editor.editor.commands.objects import AddObjectsCommand
from level_editor.editor.support.guard import guarded

__all__ = [
    "IMAGE_FILTER",
    "PICTURE_SUFFIXES",
    "START_OPACITY",
    "AddReferenceImageCommand",
    "DROP_HINT",
    "ReferenceImageActions",
    "dropped_pictures",
    "stored_picture_path",
]

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")
IMAGE_FILTER = "Pictures (*.png *.jpg *.jpeg);;All files (*)"

#: What a drop of pictures does, said while they are dragged over the window.
DROP_HINT = "Drop to add the pictures as sprites; hold Shift while dropping to add reference images to trace over."

#: The size a sprite of a picture that cannot be read starts at (its placeholder), in level units.
MISSING_PICTURE_SIZE = 64.0

#: A new reference image is half faded. Tiled starts image layers opaque, but this picture is there to be
#: traced: at 0.5 the walls and boxes drawn over it stay readable and the picture still shows clearly.
START_OPACITY = 0.5


def stored_picture_path(picture: str, level_path: Optional[str]) -> str:
    """How a level saved at ``level_path`` names the picture at ``picture``.

    Relative to the level file's folder, with forward slashes; absolute (with
    forward slashes) when the level has no file yet, or when no relative path
    leads there (another drive on Windows).

    >>> stored_picture_path("/game/levels/art/courtyard.png", "/game/levels/castle.json")
    'art/courtyard.png'
    >>> stored_picture_path("/game/art/sketch.jpg", "/game/levels/castle.json")
    '../art/sketch.jpg'
    >>> stored_picture_path("/game/art/sketch.jpg", None)
    '/game/art/sketch.jpg'
    """
    full = os.path.abspath(picture)
    if level_path:
        try:
            full = os.path.relpath(full, os.path.dirname(os.path.abspath(level_path)))
        except ValueError:  # another drive: there is no relative path
            pass
    return full.replace(os.sep, "/")


def dropped_pictures(mime) -> list[str]:
    """The local PNG and JPEG files among the URLs of a drag's ``QMimeData``, in order."""
    if mime is None or not mime.hasUrls():
        return []
    files = (url.toLocalFile() for url in mime.urls() if url.isLocalFile())
    return [f for f in files if f.lower().endswith(PICTURE_SUFFIXES)]


class AddReferenceImageCommand(QUndoCommand):
    """Put reference images first in the level's objects, so they draw under everything else on their layer."""

    def __init__(self, document: LevelDocument, images: Sequence[Image]):
        n = len(images)
        super().__init__("Add reference image" if n == 1 else f"Add {n} reference images")
        self._doc = document
        self._images = tuple(images)

    def redo(self):
        self._doc.insert_objects(list(enumerate(self._images)))

    def undo(self):
        self._doc.remove_objects([image.id for image in self._images])


class ReferenceImageActions:
    """Add Reference Image… and dropped pictures, for the main window (a part of it, not a window of its own).

    Uses the window's ``context``, ``document``, ``canvas`` and ``path`` (the
    level file, ``None`` while unsaved).
    """

    def ask_image_path(self) -> str:
        """Which picture to add (``""``: none)."""
        folder = os.path.dirname(os.path.abspath(self.path)) if self.path else os.getcwd()
        path, _ = QFileDialog.getOpenFileName(self, "Add reference image", folder, IMAGE_FILTER)
        return path

    def add_reference_image_dialog(self) -> Optional[str]:
        """Ask for a picture and add it centred in the view; returns the new image's id (None: nothing added)."""
        picture = self.ask_image_path()
        if not picture:
            return None
        centre = self.canvas.visible_rect().center()
        # the header only, of a regular file only (a named pipe would wait for a writer for ever)
        size = QImageReader(picture).size() if os.path.isfile(picture) else None
        if size is not None and size.isValid():
            centre -= QPointF(size.width() / 2, size.height() / 2)
        return self.add_reference_image(picture, centre)

    def add_reference_image(self, picture: str, at: QPointF) -> Optional[str]:
        """Add the picture at ``picture`` with its top-left corner at ``at`` (snapped to the grid when snapping is on).

        It goes on the current layer (a locked one refuses it), first in the
        drawing order, at its own size and half faded (:data:`START_OPACITY`).
        A picture that is not there is added all the same: the canvas shows a
        placeholder and the Problems list says so. Returns the new image's id.
        """
        ids = self.add_reference_images([picture], at)
        return ids[0] if ids else None

    def add_reference_images(self, pictures: Sequence[str], at: QPointF) -> list[str]:
        """Add several pictures in one undo step, the first at ``at``, each next one a grid cell lower and further
        right (so none hides another whole); returns the new images' ids."""
        context, document = self.context, self.document
        if not pictures or context.current_layer_locked():
            return []
        images = []
        for picture, corner in zip(pictures, self._cascade(at, [(0.0, 0.0)] * len(pictures))):
            images.append(context.on_current_layer(Image(
                document.new_id("image", [i.id for i in images]), stored_picture_path(picture, self.path),
                (corner.x(), corner.y()), scale=1.0, opacity=START_OPACITY, folder=document.folder)))
        context.push(AddReferenceImageCommand(document, images))
        return self._select_added(images, pictures, "Added a reference image: drag it with the select tool to "
                                  "line it up.", f"Added {len(images)} reference images.")

    def _cascade(self, at: QPointF, offsets: Sequence[tuple[float, float]]) -> list[QPointF]:
        """The top-left corners of several pictures dropped at ``at``, snapped as tools snap: the first at ``at`` plus
        its offset, each next one a grid cell lower and further right (so none hides another whole)."""
        grid = self.document.level.grid
        step = grid if grid > 0 and math.isfinite(grid) else 16.0
        snap = self.context.snapper.snap_detail
        return [snap(at + QPointF(k * step + dx, k * step + dy), Qt.NoModifier, objects=False).point
                for k, (dx, dy) in enumerate(offsets)]

    def _select_added(self, added, pictures: Sequence[str], one: str, many: str) -> list[str]:
        """Select what a drop added (nothing during a play-test) and say so, or which pictures are not there."""
        context, document = self.context, self.document
        ids = [obj.id for obj in added if obj.id in document]
        if not ids:  # a play-test runs: nothing changes
            return []
        context.selection.set(ids)
        missing = [os.path.basename(p) for p in pictures if not os.path.isfile(p)]
        if missing:
            context.message.emit(f"{', '.join(missing)}: the file is not there; the canvas shows a placeholder.")
        else:
            context.message.emit(one if len(ids) == 1 else many)
        return ids

    def add_picture_sprites(self, pictures: Sequence[str], at: QPointF) -> list[str]:
        """Add a sprite of each picture in one undo step, the first centred at ``at`` (its top-left corner
        snapped as tools snap), each next one a grid cell lower and further right; returns the new ids.

        The sprite is the picture's size (a picture that cannot be read: a placeholder of
        :data:`MISSING_PICTURE_SIZE`), on the current layer, on top of the others, not solid.
        """
        context, document = self.context, self.document
        if not pictures or context.current_layer_locked():
            return []
        sizes = []
        for picture in pictures:
            size = QImageReader(picture).size() if os.path.isfile(picture) else None
            sizes.append((size.width(), size.height()) if size is not None and size.isValid()
                         else (MISSING_PICTURE_SIZE, MISSING_PICTURE_SIZE))
        sprites = []
        for picture, (w, h), corner in zip(pictures, sizes, self._cascade(at, [(-w / 2, -h / 2) for w, h in sizes])):
            sprites.append(context.on_current_layer(Sprite(
                document.new_id("sprite", [s.id for s in sprites]), (corner.x() + w / 2, corner.y() + h / 2),
                (w, h), picture=stored_picture_path(picture, self.path), folder=document.folder)))
        context.push(AddObjectsCommand(document, sprites, objects_label("Add", sprites)))
        return self._select_added(sprites, pictures, "Added a sprite (Shift+drop adds a reference image instead).",
                                  f"Added {len(sprites)} sprites (Shift+drop adds a reference image instead).")

    # -- drag and drop (pictures here; anything else goes on to the next part, e.g. level files) ----------
    def _drop_point(self, event) -> QPointF:
        """The level point under a drop on the window; the middle of the view when it is not over the canvas."""
        viewport = self.canvas.viewport()
        pixel = viewport.mapFrom(self, event.position().toPoint())
        if viewport.rect().contains(pixel):
            return self.canvas.mapToScene(pixel)
        return self.canvas.visible_rect().center()

    @guarded("dragging files over the window")
    def dragEnterEvent(self, event) -> None:
        if dropped_pictures(event.mimeData()):
            event.acceptProposedAction()
            self.context.message.emit(DROP_HINT)
        else:
            super().dragEnterEvent(event)

    @guarded("dragging files over the window")
    def dragMoveEvent(self, event) -> None:
        if dropped_pictures(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    @guarded("dropping files on the window", explicit=True)
    def dropEvent(self, event) -> None:
        pictures = dropped_pictures(event.mimeData())
        if not pictures:
            super().dropEvent(event)
            return
        event.acceptProposedAction()
        if event.modifiers() & Qt.ShiftModifier:
            self.add_reference_images(pictures, self._drop_point(event))
        else:
            self.add_picture_sprites(pictures, self._drop_point(event))
