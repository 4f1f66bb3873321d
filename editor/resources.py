"""Where the editor finds what it loads at run time (icons, the level schema)."""
from __future__ import annotations

from pathlib import Path

#: The repository's resources/ folder (the project is installed in place with ``pip install -e``).
RESOURCES = Path(__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    """The path of a file under resources/, e.g. ``resource_path("icons", "wall.svg")``."""
    return RESOURCES.joinpath(*parts)


def icon_path(name: str) -> str:
    """The path of an icon file under resources/icons (``name`` with or without ``.svg``)."""
    if not name.endswith(".svg"):
        name += ".svg"
    return str(resource_path("icons", name))
