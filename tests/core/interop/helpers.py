"""What the Tiled tests share: comparing two levels with a tolerance for geometry, running the real Tiled, and
writing a map to refuse."""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from level_editor.core.interop.tiled_common import TiledImportError
from level_editor.core.interop.tiled_import import read_tiled
from level_editor.core.level.model import Box, Image, OrientedBox, Pillar, Point, Sprite, Tiles, Wall

ROOT = Path(__file__).resolve().parents[3]
LEVELS = sorted((ROOT / "levels").glob("*.json"))
EXAMPLES = Path("/usr/share/doc/tiled/examples")

TILED = shutil.which("tiled")
needs_tiled = pytest.mark.skipif(TILED is None, reason="Tiled is not installed here (`apt-get install tiled`; "
                                                       ".ci/run installs it)")


def run_tiled(source: Path, target: Path) -> None:
    """Let Tiled itself read ``source`` and write ``target`` (the format from the ending), headless.

    Tiled picks the writer from the target's last ending only when the name has no other dot
    ("theirs.map.tmj" finds no exporter), so targets here are named plainly.
    """
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([TILED, "--export-map", str(source), str(target)], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0 and target.exists(), f"Tiled could not convert {source.name}: {r.stdout}{r.stderr}"


def _close(a: float, b: float, tol: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=tol)


def _points_close(pa, pb, tol: float) -> bool:
    return len(pa) == len(pb) and all(_close(p.x, q.x, tol) and _close(p.y, q.y, tol) for p, q in zip(pa, pb))


def _geometry(obj) -> list:
    """An object's geometry as points and lengths (an oriented box by its corners: Tiled may turn -30° to 330°)."""
    if isinstance(obj, Wall):
        return list(obj.points) + [obj.thickness]
    if isinstance(obj, Box):
        return [obj.origin, obj.size]
    if isinstance(obj, OrientedBox):
        return list(obj.corners())
    if isinstance(obj, Pillar):
        return [obj.center, obj.radius]
    if isinstance(obj, Tiles):
        return [obj.origin, obj.cell]
    if isinstance(obj, Point):
        return [obj.position]
    if isinstance(obj, Image):
        return [obj.origin, obj.scale, obj.opacity]
    if isinstance(obj, Sprite):
        return list(obj.corners()) + [obj.opacity]
    raise TypeError(type(obj).__name__)


def _same_geometry(a, b, tol: float) -> bool:
    ga, gb = _geometry(a), _geometry(b)
    if len(ga) != len(gb):
        return False
    for x, y in zip(ga, gb):
        if isinstance(x, float) or isinstance(y, float):
            if not (isinstance(x, float) and isinstance(y, float) and _close(x, y, tol)):
                return False
        elif not _points_close([x], [y], tol):
            return False
    return True


def level_differences(a, b, tol: float = 1e-6, ordered: bool = True) -> list[str]:
    """What differs between two levels: geometry within ``tol`` px, everything else exactly (properties in
    their order too, unless ``ordered`` is false: Tiled itself writes every property list sorted by name)."""
    diffs = []
    for key in ("name", "grid", "layers", "types", "properties", "extra"):
        if getattr(a, key) != getattr(b, key):
            diffs.append(f"{key}: {getattr(a, key)!r} != {getattr(b, key)!r}")
    # dicts compare equal in any order; a designer's properties keep theirs
    for where, pa, pb in [("level", a.properties, b.properties)] + [
            (f"type {x.name}", x.properties, y.properties) for x, y in zip(a.types, b.types)] + [
            (x.id, x.properties, y.properties) for x, y in zip(a.objects, b.objects)]:
        if ordered and list(pa) != list(pb):
            diffs.append(f"{where}: properties in another order: {list(pa)} != {list(pb)}")
    pa, pb = a.player, b.player
    if (pa.shape, pa.extra) != (pb.shape, pb.extra) or not _points_close([pa.spawn, pa.size], [pb.spawn, pb.size], tol) \
            or not (_close(pa.radius, pb.radius, tol) and _close(pa.speed, pb.speed, tol)):
        diffs.append(f"player: {pa!r} != {pb!r}")
    if [o.id for o in a.objects] != [o.id for o in b.objects]:
        diffs.append(f"object ids: {[o.id for o in a.objects]} != {[o.id for o in b.objects]}")
    for x, y in zip(a.objects, b.objects):
        same_kind = type(x) is type(y)
        rest = ("layer", "type", "properties", "extra", "solid") + (("closed",) if isinstance(x, Wall) else ()) \
            + (("cells", "tileset", "tiles") if isinstance(x, Tiles) else ()) \
            + (("path",) if isinstance(x, Image) else ()) \
            + (("flip_x", "flip_y", "tileset", "tile", "picture") if isinstance(x, Sprite) else ())
        if not same_kind or any(getattr(x, k) != getattr(y, k) for k in rest) or not _same_geometry(x, y, tol):
            diffs.append(f"{x!r}\n  != {y!r}")
    return diffs


def assert_same_level(a, b, tol: float = 1e-6, ordered: bool = True) -> None:
    diffs = level_differences(a, b, tol, ordered)
    assert not diffs, "\n".join(diffs)


def write(tmp_path, name: str, content) -> str:
    """Write ``content`` (bytes, text, or JSON data) as ``name`` in ``tmp_path``; its path."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def refusal(path) -> str:
    """The one-line refusal of the map at ``path``, after "PATH: "."""
    with pytest.raises(TiledImportError) as e:
        read_tiled(path)
    message = str(e.value)
    assert "\n" not in message and message.startswith(str(path))
    return message[len(str(path)) + 2:]


def hostile_map(tmp_path, name: str = "hostile.tmj", layers: int = 20, side: int = 4096, gid: int = 1,
                collides: bool = False) -> str:
    """Write a map of ``layers`` zlib/base64 tile layers of ``side`` x ``side`` tiles, every tile ``gid`` (0:
    empty), its tileset's tile colliding or not; its path. 20 layers of 4096 x 4096 is a 1.7 MB file holding
    335 million tiles."""
    import array
    import base64
    import zlib

    packed = base64.b64encode(zlib.compress((array.array("I", [gid]) * (side * side)).tobytes(), 9)).decode()
    tile = [{"id": 0, "properties": [{"name": "solid", "type": "bool", "value": True}]}] if collides else []
    data = {"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "width": side,
            "height": side, "tilesets": [{"firstgid": 1, "name": "floor", "tilewidth": 16, "tileheight": 16,
                                          "tilecount": 1, "tiles": tile}],
            "layers": [{"type": "tilelayer", "name": f"floor {i + 1}", "width": side, "height": side,
                        "encoding": "base64", "compression": "zlib", "data": packed} for i in range(layers)]}
    return write(tmp_path, name, data)
