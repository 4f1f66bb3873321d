"""Draw levels/art/meadow.png and write levels/tiles_and_sprites.json (the sample level of tilesets and sprites).

Run once from the repository's root (``python -m tests.make_tiles_and_sprites``); both files are committed. The
picture is drawn pixel by pixel and written as a PNG with zlib alone, so it needs neither Qt nor PIL.

The tileset has eight 32 px tiles, four per row: 0 grass-topped ground and 1 earth (both solid), 2 a plank ledge
whose collision is the bottom half of the cell, 3 a grassy slope rising half a cell (a polygon), 4 a grass tuft
and 5 a flower (decoration, no collision), 6 a crate (solid) and 7 a cloud (no collision).
"""
from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path

from level_editor.core.level.art import FLIP_X, FLIP_Y, TileInfo, TileShape, Tileset, turned
from level_editor.core.level.file_format import save_level
from level_editor.core.level.model import Layer, Level, Player, Sprite, Tiles

ROOT = Path(__file__).resolve().parents[1]
T = 32
COLUMNS, ROWS = 4, 2
GROUND, EARTH, LEDGE, SLOPE, TUFT, FLOWER, CRATE, CLOUD = range(8)

SKY = (0, 0, 0, 0)
GRASS, GRASS_DARK = (88, 170, 64, 255), (56, 128, 44, 255)
EARTH_C, EARTH_DARK, STONE = (134, 92, 56, 255), (108, 72, 42, 255), (150, 140, 128, 255)
WOOD, WOOD_DARK = (176, 128, 72, 255), (120, 82, 44, 255)
WHITE, CLOUD_SHADE = (250, 250, 255, 235), (214, 224, 240, 235)
PETAL, HEART = (230, 80, 120, 255), (250, 220, 80, 255)


def draw() -> list[list[tuple]]:
    rnd = random.Random(25)
    px = [[SKY] * (COLUMNS * T) for _ in range(ROWS * T)]

    def put(tile, x, y, colour):
        if 0 <= x < T and 0 <= y < T:
            px[(tile // COLUMNS) * T + y][(tile % COLUMNS) * T + x] = colour

    def earth(tile, top):
        for y in range(top, T):
            for x in range(T):
                put(tile, x, y, EARTH_DARK if rnd.random() < 0.18 else EARTH_C)
        for _ in range(5):
            sx, sy = rnd.randrange(2, T - 4), rnd.randrange(max(top, 8), T - 3)
            for dx in range(3):
                for dy in range(2):
                    put(tile, sx + dx, sy + dy, STONE)

    earth(GROUND, 0)
    for x in range(T):  # a grass top with a ragged edge
        depth = 6 + rnd.randrange(3)
        for y in range(depth):
            put(GROUND, x, y, GRASS if y < depth - 2 else GRASS_DARK)
    earth(EARTH, 0)
    for y in range(T // 2, T // 2 + 8):  # a plank across the bottom half, on two posts
        for x in range(T):
            put(LEDGE, x, y, WOOD_DARK if y in (T // 2, T // 2 + 7) or x % 11 == 0 else WOOD)
    for y in range(T // 2 + 8, T):
        for x in (3, 4, T - 5, T - 4):
            put(LEDGE, x, y, WOOD_DARK)
    for x in range(T):  # a grassy slope from the bottom-left corner to half height on the right
        surface = T - (x + 1) * (T // 2) / T
        for y in range(T):
            if y >= surface:
                put(SLOPE, x, y, GRASS if y < surface + 4 else (EARTH_DARK if rnd.random() < 0.18 else EARTH_C))
    for blade in range(9):  # a tuft of grass standing on the cell's bottom
        x0 = 8 + blade * 2
        for y in range(T - 1, T - 8 - rnd.randrange(8), -1):
            put(TUFT, x0 + (T - y) // 6 * (1 if blade % 2 else -1), y, GRASS if blade % 3 else GRASS_DARK)
    for y in range(T - 14, T):  # a flower: a stem and petals
        put(FLOWER, 16, y, GRASS_DARK)
    for dx, dy in [(-3, 0), (3, 0), (0, -3), (0, 3), (-2, -2), (2, 2), (-2, 2), (2, -2)]:
        for ex in range(2):
            for ey in range(2):
                put(FLOWER, 16 + dx + ex, T - 18 + dy + ey, PETAL)
    put(FLOWER, 16, T - 18, HEART)
    put(FLOWER, 17, T - 17, HEART)
    for y in range(T):  # a crate: planks with a frame and a cross brace
        for x in range(T):
            edge = x < 3 or x >= T - 3 or y < 3 or y >= T - 3
            brace = abs(x - y) < 2 or abs(x - (T - 1 - y)) < 2
            put(CRATE, x, y, WOOD_DARK if edge or brace else (WOOD if y % 8 else WOOD_DARK))
    for cx, cy, r in [(10, 20, 8), (18, 16, 10), (25, 21, 6)]:  # a cloud of three puffs
        for y in range(T):
            for x in range(T):
                if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                    put(CLOUD, x, y, CLOUD_SHADE if y > cy + r // 2 else WHITE)
    return px


def png(rows: list[list[tuple]]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\0" + bytes(c for p in row for c in p) for row in rows)
    header = struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def tileset() -> Tileset:
    full = TileInfo(collision=(TileShape("rect", ((0, 0), (T, T))),))
    return Tileset("meadow", "Meadow", (T, T), image="art/meadow.png", image_size=(COLUMNS * T, ROWS * T),
                   columns=COLUMNS, count=COLUMNS * ROWS, tiles={
                       GROUND: full, EARTH: full, CRATE: full,
                       LEDGE: TileInfo(collision=(TileShape("rect", ((0, T // 2), (T, T // 2))),)),
                       SLOPE: TileInfo(collision=(TileShape("polygon", ((0, T), (T, T // 2), (T, T))),)),
                   })


def level() -> Level:
    width = 48
    ground_row = [GROUND] * width
    earth_row = [EARTH if c % 5 else turned(EARTH) for c in range(width)]  # turned earth breaks the pattern
    ground = Tiles("ground", (0, 320), T, (), layer="ground", tileset="meadow",
                   tiles=(tuple(ground_row), tuple(earth_row)))
    # a slope up to a row of plank ledges (their tops half a cell up), and the way down at the far end
    rise = Tiles("rise", (10 * T, 288), T, (), layer="ground", tileset="meadow",
                 tiles=((SLOPE, LEDGE, LEDGE, LEDGE, LEDGE, SLOPE | FLIP_X),))
    # a plank hung upside down under a high ledge: it collides in its cell's top half
    high = Tiles("high-ledge", (30 * T, 192), T, (), layer="ground", tileset="meadow",
                 tiles=((LEDGE | FLIP_Y,) * 4,))
    decor = Tiles("decoration", (0, 288), T, (), layer="decor", tileset="meadow", tiles=(tuple(
        FLOWER if c % 7 == 3 else (TUFT | FLIP_X if c % 4 == 1 else (TUFT if c % 4 == 2 else -1))
        for c in range(width) if True),))
    decor = Tiles("decoration", decor.origin, T, (), layer="decor", tileset="meadow",
                  tiles=(tuple(-1 if 10 <= c <= 15 else v for c, v in enumerate(decor.tiles[0])),))
    crate = Sprite("crate", (24 * T + 16, 304), (T, T), layer="things", tileset="meadow", tile=CRATE, solid=True)
    clouds = [Sprite(f"cloud-{i}", (x, y), (s * T, s * T), layer="sky", tileset="meadow", tile=CLOUD,
                     flip_x=bool(i % 2), opacity=0.9) for i, (x, y, s) in enumerate(
                         [(160, 80, 3), (600, 120, 2), (980, 60, 4), (1380, 110, 2)])]
    player = Player(spawn=(64, 290), shape="box", size=(20, 30), speed=200, controller="platformer")
    layers = (Layer("sky", "Sky"), Layer("ground", "Ground"), Layer("decor", "Decoration"), Layer("things", "Things"))
    return Level(name="Tiles and sprites", grid=T, player=player, layers=layers, tilesets=(tileset(),),
                 objects=(*clouds, ground, rise, high, decor, crate), size=(width * T, 12 * T),
                 background="#9fd4f0")


def main() -> None:
    (ROOT / "levels" / "art").mkdir(exist_ok=True)
    (ROOT / "levels" / "art" / "meadow.png").write_bytes(png(draw()))
    save_level(level(), str(ROOT / "levels" / "tiles_and_sprites.json"))


if __name__ == "__main__":
    main()
