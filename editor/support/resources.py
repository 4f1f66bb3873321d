"""Where the editor finds what it loads at run time: the icons in ``editor/icons``.

They ship inside the package and are read with :mod:`importlib.resources`, so a
wheel install finds them as well as a checkout does. A missing or unreadable
icon raises: a toolbar of blank buttons is a packaging bug, not a look.
(The level's JSON Schema belongs to the file format: :func:`level_editor.core.level.schema.level_schema`.)
"""
from __future__ import annotations

from importlib.resources import files

from PySide6.QtGui import QIcon

__all__ = ["ICONS", "icon", "icon_path", "icon_names"]

#: The package folder holding the icons, one ``NAME.svg`` per icon.
ICONS = files("level_editor.editor") / "icons"


def icon_names() -> list[str]:
    """The names of every icon the package ships (file names without ``.svg``), sorted."""
    return sorted(f.name[:-4] for f in ICONS.iterdir() if f.name.endswith(".svg"))


def icon_path(name: str) -> str:
    """The file of icon ``name`` (with or without ``.svg``), e.g. ``icon_path("tool-wall")``; ``""`` for the empty
    name, which means "no icon" (actions like Quit have none).

    Raises
    ------
    FileNotFoundError
        When the package has no such icon; the message names it.
    """
    if not name:
        return ""
    file_name = name if name.endswith(".svg") else name + ".svg"
    resource = ICONS / file_name
    if not resource.is_file():
        raise FileNotFoundError(f"icon {name!r} not found: there is no {file_name} in {ICONS}")
    # Installed packages are plain folders (setuptools wheels are not zip-imported), so this is a real path Qt can read.
    return str(resource)


def icon(name: str) -> QIcon:
    """Icon ``name`` loaded, e.g. ``icon("undo")``; the empty name gives the null icon ("no icon").

    Raises
    ------
    FileNotFoundError
        When the package has no such icon.
    ValueError
        When the file is there but Qt cannot read it (not SVG, or no SVG support).
    """
    if not name:
        return QIcon()
    path = icon_path(name)
    loaded = QIcon(path)
    if loaded.isNull():
        raise ValueError(f"icon {name!r} could not be loaded from {path}")
    return loaded
