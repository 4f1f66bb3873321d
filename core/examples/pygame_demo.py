"""A small game on a level: walk the player around with pygame, through :mod:`level_editor.core.runtime`.

::

    pip install "level-editor[game]"
    python -m level_editor.core.examples.pygame_demo levels/game_content.json

Arrow keys or WASD move the player, Esc or closing the window quits. The
level is drawn as ``level-editor render`` draws it: its painted tiles,
sprites and images from their pictures (cut from tilesets, flipped, turned,
at their layer's opacity, hidden layers left out), and the objects without
art plainly: walls as thick chains, boxes, oriented boxes, pillars, tile
grids and markers, areas the player passes through see-through, each in its
type's colour where the level gives one. Moving objects are drawn where their
path has taken them in the tick shown.
Every area the player enters or leaves is printed (``tick 52: enter exit``)
and the last few are shown on screen.

The player moves in fixed ticks of 1/60 s whatever the frame rate: each
frame adds the time that passed to an accumulator, and one
:meth:`~level_editor.core.runtime.Player.step` runs per whole tick in it. So
the player moves exactly as in the editor's play-test and in ``level-editor
simulate``.

For tests and recordings, ``--script KEYS.json`` plays key presses instead of
the keyboard: a JSON list of ``[tick, "down" | "up", KEY]`` (KEY a pygame key
name: ``"right"``, ``"a"``, ``"space"``, ``"escape"``...). Each is posted as a
real ``KEYDOWN`` or ``KEYUP`` event into pygame's queue just before that tick
runs, so it goes through the same keyboard handling as a person's. A scripted
game runs one tick per frame, at 60 frames a second in a window and as fast as
it can without one (``SDL_VIDEODRIVER=dummy``). ``--ticks N`` stops after N
ticks, ``--trace OUT.json`` writes what was played as ``level-editor simulate``
writes a trace (the start, the position after each tick, the events), and
``--screenshot OUT.png`` saves the last frame.

This file uses only the runtime (and pygame): copy it as the start of a game.
"""
from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import sys
from typing import Optional, Sequence

from level_editor.core.runtime import TICK, LevelError, Player, load_level

#: What to say when pygame is not there (one line, exit code 2).
NO_PYGAME = 'the example game needs pygame-ce, which is not installed: pip install "level-editor[game]"'

#: Exit codes: as the level-editor command's.
EXIT_OK, EXIT_BAD_INPUT = 0, 2

#: Pygame key names for each direction (either of them moves) and for jump.
LEFT_KEYS, RIGHT_KEYS, UP_KEYS, DOWN_KEYS = ("left", "a"), ("right", "d"), ("up", "w"), ("down", "s")
JUMP_KEYS = ("space",)
QUIT_KEYS = ("escape",)

#: A frame longer than this (a stall, a window dragged) is counted as this long: the game then slows down
#: instead of running a burst of catch-up ticks.
LONGEST_FRAME = 0.25
#: Events shown on screen.
SHOWN_EVENTS = 6

BACKGROUND = (24, 26, 32)
#: Colours of objects whose type has none, by kind.
KIND_COLORS = {
    "wall": (150, 156, 170),
    "box": (120, 128, 150),
    "oriented_box": (128, 120, 156),
    "circle": (110, 140, 150),
    "tiles": (132, 124, 110),
    "point": (230, 230, 120),
}
#: The kinds of object that may move along a path (their ``path``; None: it stays put).
MOVING_KINDS = ("wall", "box", "oriented_box", "circle", "tiles")
AREA_ALPHA = 80
PLAYER_COLOR = (240, 240, 240)
TEXT_COLOR = (220, 220, 220)


# ---------------------------------------------------------------------------
# Input


class Keyboard:
    """The keys held down, followed through ``KEYDOWN`` and ``KEYUP`` events (a person's or a script's).

    Events rather than ``pygame.key.get_pressed()``: events are what a script
    can post, and a press and release within one frame still count.
    """

    def __init__(self, pygame):
        code = pygame.key.key_code
        self._pygame = pygame
        self._left = {code(k) for k in LEFT_KEYS}
        self._right = {code(k) for k in RIGHT_KEYS}
        self._up = {code(k) for k in UP_KEYS}
        self._down = {code(k) for k in DOWN_KEYS}
        self._jump = {code(k) for k in JUMP_KEYS}
        self.quit_keys = {code(k) for k in QUIT_KEYS}
        self.held: set[int] = set()

    def handle(self, event) -> None:
        pg = self._pygame
        if event.type == pg.KEYDOWN:
            self.held.add(event.key)
        elif event.type == pg.KEYUP:
            self.held.discard(event.key)
        elif event.type == getattr(pg, "WINDOWFOCUSLOST", None):
            self.held.clear()  # the key-up goes to another window: do not keep walking

    def _any(self, keys: set) -> bool:
        return not self.held.isdisjoint(keys)

    def move(self) -> tuple[int, int]:
        """``(move_x, move_y)``, each -1, 0 or 1 (opposite keys cancel out)."""
        return (self._any(self._right) - self._any(self._left), self._any(self._down) - self._any(self._up))

    @property
    def jump(self) -> bool:
        return self._any(self._jump)


def read_script(path: str, pygame) -> list[tuple[int, str, int]]:
    """The entries of a key script, ``(tick, "down" | "up", key code)``, in tick order.

    Raises
    ------
    ValueError
        With one line naming the file and the entry that is wrong.
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise ValueError(f"{path}: cannot be read: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: is not valid JSON: {e}") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: a key script is a list of [tick, \"down\" or \"up\", key]")
    entries = []
    for n, entry in enumerate(data):
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], int)
                and not isinstance(entry[0], bool) and entry[0] >= 0 and entry[1] in ("down", "up")
                and isinstance(entry[2], str)):
            raise ValueError(f"{path}: entry {n} must be [tick, \"down\" or \"up\", key] with a tick of 0 or "
                             f"more, not {json.dumps(entry)[:60]}")
        try:
            key = pygame.key.key_code(entry[2])
        except ValueError:
            raise ValueError(f"{path}: entry {n}: {entry[2]!r} is not a key name pygame knows") from None
        entries.append((entry[0], entry[1], key))
    return sorted(entries, key=lambda e: e[0])  # stable: entries of one tick keep their order


# ---------------------------------------------------------------------------
# Drawing


def parse_color(text: Optional[str]) -> Optional[tuple[int, int, int]]:
    """``"#rrggbb"`` as ``(r, g, b)``, or None.

    >>> parse_color("#40c070"), parse_color(None)
    ((64, 192, 112), None)
    """
    if not text:
        return None
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


class Camera:
    """Which part of the level the window shows: the player kept in the middle, the view kept inside the level.

    A level smaller than the window (on an axis) stays centred on that axis.

    >>> camera = Camera((0, 0, 1000, 400), (200, 200))
    >>> camera.follow((50, 200)), camera.follow((500, 200)), camera.follow((990, 200))
    ((0.0, 100.0), (400.0, 100.0), (800.0, 100.0))
    """

    def __init__(self, bounds, window):
        self.bounds = bounds
        self.window = window
        self.offset = (0.0, 0.0)

    def follow(self, position) -> tuple[float, float]:
        offset = []
        for axis in (0, 1):
            low, high = self.bounds[axis], self.bounds[axis + 2]
            view = self.window[axis]
            if high - low <= view:
                offset.append(float(low - (view - (high - low)) / 2))
            else:
                offset.append(float(min(max(position[axis] - view / 2, low), high - view)))
        self.offset = (offset[0], offset[1])
        return self.offset

    def moved_with(self, offset) -> "Camera":
        """This view as an object displaced by ``offset`` sees it: draw it there with its own coordinates."""
        view = Camera(self.bounds, self.window)
        view.offset = (self.offset[0] - offset[0], self.offset[1] - offset[1])
        return view

    def to_screen(self, point) -> tuple[int, int]:
        return (round(point[0] - self.offset[0]), round(point[1] - self.offset[1]))

    def sees(self, bounds) -> bool:
        x, y = self.offset
        return not (bounds[2] < x or bounds[0] > x + self.window[0] or bounds[3] < y or bounds[1] > y + self.window[1])


def _capsule_outline(a, b, radius: float) -> list[tuple[float, float]]:
    """The four corners of the band between two wall nodes (the round ends are drawn as circles)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * radius, dx / length * radius
    return [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)]


class PaintedGrid:
    """A painted grid's tiles ready to blit, kept by row and column, so a frame looks only at those in view (a
    500 x 500 grid: about 600 of its 250,000 tiles in a 960 x 640 window)."""

    def __init__(self, origin, cell: float):
        self.origin, self.cell = origin, cell
        self.reach = 0.0  # how far a tile's picture reaches beyond its cell (tiles larger than the cell, offsets)
        self.rows: dict[int, tuple[list[int], list]] = {}  # row -> (its columns in order, their blits)

    def add(self, placed, picture) -> None:
        cell_x, cell_y = self.origin.x + placed.column * self.cell, self.origin.y + placed.row * self.cell
        w, h = picture.get_size()
        self.reach = max(self.reach, abs(placed.x - cell_x), abs(placed.y - cell_y), w - self.cell, h - self.cell)
        columns, blits = self.rows.setdefault(placed.row, ([], []))
        columns.append(placed.column)  # painted_tiles() goes along each row: the columns come in order
        blits.append((picture, (placed.x, placed.y)))

    def in_view(self, camera: Camera):
        """The ``(picture, level point)`` of every tile that may show in the camera's view."""
        x, y = camera.offset
        w, h = camera.window
        cell, reach = self.cell, self.reach
        c0 = math.floor((x - self.origin.x - reach) / cell) - 1
        c1 = math.floor((x + w - self.origin.x + reach) / cell) + 1
        r0 = math.floor((y - self.origin.y - reach) / cell) - 1
        r1 = math.floor((y + h - self.origin.y + reach) / cell) + 1
        if r1 - r0 > len(self.rows):
            rows = (r for r in self.rows if r0 <= r <= r1)
        else:
            rows = (r for r in range(r0, r1 + 1) if r in self.rows)
        for row in rows:
            columns, blits = self.rows[row]
            yield from blits[bisect.bisect_left(columns, c0):bisect.bisect_right(columns, c1)]


class LevelPainter:
    """Draws a level as the editor's ``level-editor render`` draws it: layer by layer, bottom to top, hidden layers
    left out; painted tiles and sprites from their pictures, images, and the objects without art in their type's
    colour (areas see-through, over everything solid); each layer's pictures at its opacity.

    Every picture is cut, scaled, flipped and turned once, here; drawing a frame only blits what the camera sees.
    A picture that cannot be read is one warning line and is left out.
    """

    def __init__(self, pygame, level):
        self.pygame = pygame
        self.level = level
        shown = {layer_id for layer_id in level.layers if level.layer(layer_id).visible}
        self.opacity = {layer_id: level.layer(layer_id).opacity for layer_id in level.layers}
        self.objects = [thing for thing in level.drawing_order() if thing.layer in shown]
        self._files: dict = {}  # a picture file's path -> its Surface (None: it could not be read)
        self._tiles: dict = {}  # (tileset, tile, flips, opacity) -> the tile's Surface, ready to blit
        self.art: dict = {}  # an object's id -> its [(Surface, (x, y) in the level)], or a painted grid's PaintedGrid
        for thing in self.objects:
            if thing.kind == "image":
                self.art[thing.id] = self._image(thing)
            elif thing.kind == "sprite":
                self.art[thing.id] = self._sprite(thing)
            elif thing.kind == "tiles" and thing.tileset:
                self.art[thing.id] = self._painted(thing)

    # -- pictures, made once -------------------------------------------------------------------------------------
    def _file(self, path: str, owner: str, transparent: str = ""):
        if path not in self._files:
            pg = self.pygame
            try:
                picture = pg.image.load(self.level.picture_path(path)).convert_alpha()
            except (pg.error, OSError, ValueError) as e:
                print(f"pygame_demo: warning: picture {path!r} of {owner!r} not drawn: {e}", file=sys.stderr)
                picture = None
            if picture is not None and transparent:
                picture.set_colorkey(parse_color(transparent))
                picture = picture.convert_alpha()
            self._files[path] = picture
        return self._files[path]

    def _tile(self, tileset, tile: int, owner: str):
        """Tile ``tile`` of ``tileset`` at the size it is drawn, unflipped (None: its picture is missing)."""
        picture = self._file(tileset.picture_of(tile), owner, tileset.transparent)
        if picture is None:
            return None
        x, y, w, h = tileset.source_rect(tile)
        piece = picture.subsurface(self.pygame.Rect(x, y, w, h).clip(picture.get_rect()))
        size = tileset.tile_picture_size(tile)
        return self._scaled(piece, size.x, size.y)

    def _scaled(self, surface, width: float, height: float):
        size = (max(1, round(width)), max(1, round(height)))
        return surface if surface.get_size() == size else self.pygame.transform.smoothscale(surface, size)

    def _faded(self, surface, opacity: float):
        if opacity >= 1:
            return surface
        surface = surface.copy()
        surface.set_alpha(round(255 * max(0.0, opacity)))
        return surface

    def _image(self, image) -> list:
        picture = self._file(image.path, image.id)
        if picture is None:
            return []
        if image.scale != 1:
            picture = self.pygame.transform.smoothscale_by(picture, image.scale)
        return [(self._faded(picture, image.opacity * self.opacity[image.layer]), image.origin)]

    def _sprite(self, sprite) -> list:
        pg = self.pygame
        if sprite.tileset:
            tileset = self.level.tilesets.get(sprite.tileset)
            picture = self._tile(tileset, sprite.tile, sprite.id) if tileset is not None else None
        else:
            picture = self._file(sprite.picture, sprite.id)
        if picture is None:
            return []
        picture = self._scaled(picture, sprite.size.x, sprite.size.y)
        if sprite.flip_x or sprite.flip_y:
            picture = pg.transform.flip(picture, sprite.flip_x, sprite.flip_y)
        if sprite.rotation:
            picture = pg.transform.rotate(picture, -sprite.rotation)  # pygame turns anticlockwise
        w, h = picture.get_size()
        at = (sprite.center.x - w / 2, sprite.center.y - h / 2)
        return [(self._faded(picture, sprite.opacity * self.opacity[sprite.layer]), at)]

    def _painted(self, grid) -> "PaintedGrid":
        pg = self.pygame
        tileset = self.level.tilesets.get(grid.tileset)
        painted = PaintedGrid(grid.origin, grid.cell)
        if tileset is None:
            return painted
        opacity = self.opacity[grid.layer]
        for placed in grid.painted_tiles():
            key = (grid.tileset, placed.tile, placed.flip_x, placed.flip_y, placed.flip_diagonal, opacity)
            if key not in self._tiles:
                picture = self._tile(tileset, placed.tile, grid.id)
                if picture is not None:
                    if placed.flip_diagonal:  # x and y swapped: a quarter turn anticlockwise, then upside down
                        picture = pg.transform.flip(pg.transform.rotate(picture, 90), False, True)
                    if placed.flip_x or placed.flip_y:
                        picture = pg.transform.flip(picture, placed.flip_x, placed.flip_y)
                    picture = self._faded(picture, opacity)
                self._tiles[key] = picture
            if self._tiles[key] is not None:
                painted.add(placed, self._tiles[key])
        return painted

    # -- a frame ----------------------------------------------------------------------------------------------
    def draw(self, screen, view: Camera, tick: int = 0) -> None:
        """Draw what ``view`` sees of the level after ``tick`` ticks: a moving object where its path has taken it."""
        if self.level.background:
            x0, y0, x1, y1 = view.bounds
            left, top = view.to_screen((x0, y0))
            screen.fill(parse_color(self.level.background), (left, top, round(x1 - x0), round(y1 - y0)))
        # Areas go onto a see-through layer of their own, drawn over everything solid.
        areas = self.pygame.Surface(screen.get_size(), self.pygame.SRCALPHA)
        for thing in self.objects:
            path = thing.path if thing.kind in MOVING_KINDS else None  # (an image's path is its file's)
            camera = view.moved_with(path.offset_after(tick - 1, TICK)) if path is not None and tick > 0 else view
            art = self.art.get(thing.id)
            if isinstance(art, PaintedGrid):
                screen.blits([(picture, camera.to_screen(at)) for picture, at in art.in_view(camera)], False)
                continue
            if art is not None:
                for picture, at in art:
                    w, h = picture.get_size()
                    if camera.sees((at[0], at[1], at[0] + w, at[1] + h)):
                        screen.blit(picture, camera.to_screen(at))
                continue
            if thing.kind == "sprite" or not camera.sees(thing.bounds):
                continue
            color = parse_color(thing.color) or KIND_COLORS.get(thing.kind, (160, 160, 160))
            if thing.kind == "point":
                self._marker(screen, camera, thing, color)
            elif thing.solid:
                self._shape(screen, camera, thing, color)
            else:
                self._shape(areas, camera, thing, (*color, AREA_ALPHA))
                self._shape(areas, camera, thing, (*color, 200), outline=True)
        screen.blit(areas, (0, 0))

    def _shape(self, surface, camera: Camera, thing, color, outline: bool = False) -> None:
        draw = self.pygame.draw
        width = 1 if outline else 0
        at = camera.to_screen
        if thing.kind == "wall":
            r = thing.thickness / 2
            points = list(thing.points) + ([thing.points[0]] if thing.closed else [])
            for a, b in zip(points, points[1:]):
                draw.polygon(surface, color, [at(p) for p in _capsule_outline(a, b, r)], width)
            if not outline:
                for p in thing.points:
                    draw.circle(surface, color, at(p), max(1, round(r)))
        elif thing.kind == "box":
            x, y = at(thing.origin)
            draw.rect(surface, color, (x, y, round(thing.size.x), round(thing.size.y)), width)
        elif thing.kind == "oriented_box":
            draw.polygon(surface, color, [at(p) for p in thing.corners()], width)
        elif thing.kind == "circle":
            draw.circle(surface, color, at(thing.center), max(1, round(thing.radius)), width)
        elif thing.kind == "tiles":
            side = thing.cell
            for row, cells in enumerate(thing.cells):
                for col, cell in enumerate(cells):
                    if cell == "#":
                        x, y = at((thing.origin.x + col * side, thing.origin.y + row * side))
                        draw.rect(surface, color, (x, y, math.ceil(side), math.ceil(side)), width)

    def _marker(self, surface, camera: Camera, thing, color) -> None:
        x, y = camera.to_screen(thing.position)
        self.pygame.draw.polygon(surface, color, [(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)])


def level_area(level) -> tuple[float, float, float, float]:
    """What the camera shows: the level's size when it has one (from its top-left corner at 0, 0, as ``render``
    and Tiled show it), else the bounds of everything in it."""
    if level.size is not None:
        return (0.0, 0.0, float(level.size.x), float(level.size.y))
    return level.bounds


def draw_player(pygame, surface, camera: Camera, player: Player) -> None:
    x, y = camera.to_screen(player.position)
    if player.shape == "box":
        w, h = player.size
        pygame.draw.rect(surface, PLAYER_COLOR, (round(x - w / 2), round(y - h / 2), round(w), round(h)))
    else:
        pygame.draw.circle(surface, PLAYER_COLOR, (x, y), max(1, round(player.radius)))


def event_line(level, event) -> str:
    """How an area event is printed and shown: ``tick 52: enter exit (exit_zone)``."""
    tick, what, object_id = event
    kind = level.object(object_id).type
    return f"tick {tick}: {what} {object_id}" + (f" ({kind})" if kind else "")


# ---------------------------------------------------------------------------
# The game


def play(level_path: str, window=(960, 640), script: Optional[str] = None, ticks: Optional[int] = None,
         trace: Optional[str] = None, screenshot: Optional[str] = None) -> int:
    """Open the window and play the level until Esc, the window closing, or ``ticks``; returns the exit code.

    ``screenshot``: a PNG file the last frame is saved to.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no greeting on stdout: it carries the events
    try:
        import pygame
    except ImportError:
        print(f"pygame_demo: {NO_PYGAME}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        level = load_level(level_path)
    except LevelError as e:
        print(f"pygame_demo: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT

    # Only the display and fonts: the mixer would open a sound device the game never uses.
    pygame.display.init()
    pygame.font.init()
    try:
        try:
            entries = read_script(script, pygame) if script is not None else None
        except ValueError as e:
            print(f"pygame_demo: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        screen = pygame.display.set_mode(window)
        pygame.display.set_caption(f"{level.name} - level-editor example game")
        headless = pygame.display.get_driver() in ("dummy", "offscreen")
        painter = LevelPainter(pygame, level)
        font = pygame.font.Font(None, 20)
        keyboard = Keyboard(pygame)
        player = Player(level)
        camera = Camera(level_area(level), window)
        start = player.position
        positions = []
        shown: list[str] = []
        clock = pygame.time.Clock()
        unplayed = 0.0  # seconds of game time not yet run as ticks
        running = True
        while running and (ticks is None or player.tick < ticks):
            if entries is not None:
                # A script's presses for the coming tick go into the queue as real key events.
                while entries and entries[0][0] <= player.tick:
                    _, what, key = entries.pop(0)
                    kind = pygame.KEYDOWN if what == "down" else pygame.KEYUP
                    pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key in keyboard.quit_keys):
                    running = False
                keyboard.handle(event)
            if not running:
                break
            if entries is not None:
                # One tick per frame: the same ticks on any machine. Watched at 60 Hz; headless, at full speed.
                if not headless:
                    clock.tick(60)
                unplayed += TICK
            else:
                unplayed += min(clock.tick(120) / 1000.0, LONGEST_FRAME)
            while unplayed >= TICK and (ticks is None or player.tick < ticks):
                unplayed -= TICK
                move_x, move_y = keyboard.move()
                for event in player.step(move_x, move_y, keyboard.jump):
                    line = event_line(level, event)
                    print(line, flush=True)
                    shown = (shown + [line])[-SHOWN_EVENTS:]
                positions.append(player.position)

            camera.follow(player.position)
            screen.fill(BACKGROUND)
            painter.draw(screen, camera, player.tick)
            draw_player(pygame, screen, camera, player)
            x, y = player.position
            lines = [f"{level.name}   tick {player.tick}   ({x:.1f}, {y:.1f})   arrows/WASD move, Esc quits", *shown]
            for n, line in enumerate(lines):
                screen.blit(font.render(line, True, TEXT_COLOR), (8, 8 + 18 * n))
            pygame.display.flip()
        if screenshot is not None:
            try:
                pygame.image.save(screen, screenshot)
            except (pygame.error, OSError) as e:
                print(f"pygame_demo: {screenshot}: cannot be written: {e}", file=sys.stderr)
                return EXIT_BAD_INPUT
    finally:
        pygame.quit()

    if trace is not None:
        data = {"format": "level-editor.trace", "version": 1, "start": [start.x, start.y],
                "positions": [[p.x, p.y] for p in positions]}
        if player.events:
            data["events"] = [list(e) for e in player.events]
        try:
            with open(trace, "w", encoding="utf-8") as f:
                f.write(json.dumps(data) + "\n")
        except OSError as e:
            print(f"pygame_demo: {trace}: cannot be written: {e.strerror or e}", file=sys.stderr)
            return EXIT_BAD_INPUT
    return EXIT_OK


def _window_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not WIDTHxHEIGHT: {text!r}") from None
    if not (100 <= w <= 10000 and 100 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"each side from 100 to 10000 pixels, not {text!r}")
    return w, h


def _tick_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m level_editor.core.examples.pygame_demo",
        description="Play a level: arrow keys or WASD move the player, Esc quits. Needs pygame-ce "
                    "(pip install \"level-editor[game]\").")
    parser.add_argument("level", metavar="LEVEL.json")
    parser.add_argument("--window", type=_window_size, default=(960, 640), metavar="WxH",
                        help="window size in pixels (default 960x640); a larger level scrolls with the player")
    parser.add_argument("--script", metavar="KEYS.json",
                        help="for tests and recordings: play the key presses in KEYS.json, a list of "
                             "[tick, \"down\" or \"up\", key name], instead of the keyboard")
    parser.add_argument("--ticks", type=_tick_count, metavar="N", help="stop after N ticks")
    parser.add_argument("--trace", metavar="OUT.json",
                        help="write what was played as a trace (as level-editor simulate writes it)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="save the last frame drawn as a PNG picture")
    args = parser.parse_args(argv)
    return play(args.level, args.window, args.script, args.ticks, args.trace, args.screenshot)


if __name__ == "__main__":
    sys.exit(main())
