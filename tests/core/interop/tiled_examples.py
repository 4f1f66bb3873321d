"""Tiled's own example maps (Debian's tiled package), copied into a folder with the gzip-packed ones unpacked."""
from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

EXAMPLES = Path("/usr/share/doc/tiled/examples")

#: The maps the art issue names, by a short name: their path inside the examples folder (unpacked).
MAPS = {
    "desert": "desert.tmx",
    "sewers": "sewers.tmx",
    "perspective_walls": "perspective_walls.tmx",
    "sewer_automap": "sewer_automap/sewers.tmx",
    "sandbox": "sticker-knight/map/sandbox.tmx",
    "sandbox2": "sticker-knight/map/sandbox2.tmx",
    "island": "rpg/island.tmx",
    "orthogonal_outside": "orthogonal-outside.tmx",
}


def examples_copy(folder: Path) -> Path:
    """A copy of Tiled's examples in ``folder`` with every ``.gz`` file unpacked beside it; skips without them."""
    if not EXAMPLES.is_dir():
        pytest.skip(f"Tiled's example maps are not installed here ({EXAMPLES}: apt-get install tiled)")
    target = folder / "examples"
    if not target.exists():
        shutil.copytree(EXAMPLES, target)
        for packed in target.rglob("*.gz"):
            packed.with_suffix("").write_bytes(gzip.decompress(packed.read_bytes()))
    return target
