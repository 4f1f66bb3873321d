"""The platformer player: named tests for the hard cases, and the bugs every controller ships with first.

Every scenario runs for both player shapes (a 20 x 30 box and a circle of radius 12). Levels are built from
the model: a floor whose top is at y = 100, and what the case needs.
"""
from __future__ import annotations

import math

import pytest

from level_editor.core.collision.planes import SKIN
from level_editor.core.level.model import Box, Level, OrientedBox, Player, Tiles, Wall
from level_editor.core.level.motion import MovePath
from level_editor.core.playtest.platformer import Platformer

SHAPES = ("box", "circle")
FLOOR_Y = 100.0


def half_height(shape: str) -> float:
    return 15.0 if shape == "box" else 12.0


def level(shape: str, *objects, spawn=(-100.0, 50.0), **settings) -> Level:
    player = Player(spawn=spawn, shape=shape, size=(20, 30), radius=12, controller="platformer", **settings)
    floor = Box("floor", (-1000, FLOOR_Y), (3000, 40))
    return Level(player=player, objects=(floor, *objects))


def standing(shape: str, *objects, spawn=(-100.0, 50.0), **settings) -> Platformer:
    """A player dropped from ``spawn`` and left to land."""
    body = Platformer(level(shape, *objects, spawn=spawn, **settings))
    for _ in range(90):
        body.step(0, 0, False)
    assert body.on_floor
    return body


def ramp(angle: float, length: float = 200.0, x: float = 0.0) -> OrientedBox:
    """An oriented box whose top face starts on the floor at ``x`` and rises to the right at ``angle``."""
    a = math.radians(angle)
    h = 10.0
    center = (x + length / 2 * math.cos(a) + h * math.sin(a), FLOOR_Y - length / 2 * math.sin(a) + h * math.cos(a))
    return OrientedBox("ramp", center, (length / 2, h), -angle)


def min_gap(body: Platformer) -> float:
    """The smallest gap between the player and every collider that counts now."""
    world = body.world
    return min((world.obstacle(i).gap(body.x, body.y)[0] for i in world.near_indices(
        body.x - 500, body.y - 500, body.x + 500, body.y + 500)), default=math.inf)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_held_jump_rises_jump_height_and_tops_out_after_jump_time(shape):
    body = standing(shape)
    ground = body.y
    heights = []
    for _ in range(60):
        body.step(0, 0, True)
        heights.append(ground - body.y)
    top = max(heights)
    assert top == pytest.approx(80.0, rel=1e-9)
    assert heights.index(top) + 1 == round(0.4 * 60)  # the top after jump_time
    assert body.on_floor and body.y == pytest.approx(ground, abs=1e-9)  # and back down on the floor


@pytest.mark.parametrize("shape", SHAPES)
def test_releasing_jump_early_cuts_the_rise_and_holding_never_jumps_twice(shape):
    body = standing(shape)
    ground = body.y
    for _ in range(5):
        body.step(0, 0, True)
    rising = body.vy
    body.step(0, 0, False)
    assert body.vy == pytest.approx(0.5 * rising + 2 * 80 / 0.4 ** 2 / 60, rel=1e-9)  # cut, then gravity
    tops = []
    for _ in range(200):
        body.step(0, 0, True)  # held from here on: lands and stays down
        tops.append(ground - body.y)
    assert max(tops) < 80.0 * 0.6 and body.on_floor and body.y == pytest.approx(ground, abs=1e-9)


@pytest.mark.parametrize("shape", SHAPES)
def test_coyote_time_allows_a_jump_just_after_walking_off_a_ledge_and_not_later(shape):
    ledge = Box("ledge", (-300, 60), (300, 20))
    for late, jumps in ((3, True), (9, False)):
        body = standing(shape, ledge, spawn=(-20.0, 0.0))
        while body.on_floor:
            body.step(1, 0, False)  # walk off the right end
        for _ in range(late - 1):
            body.step(1, 0, False)
        body.step(1, 0, True)
        assert (body.vy < 0) == jumps, late


@pytest.mark.parametrize("shape", SHAPES)
def test_a_jump_pressed_just_before_landing_starts_on_landing(shape):
    body = standing(shape)
    for _ in range(30):
        body.step(0, 0, True)
    for _ in range(200):
        body.step(0, 0, False)
        if body.vy > 0 and FLOOR_Y - half_height(shape) - body.y < 6:
            break
    body.step(0, 0, True)  # pressed a few ticks before touching down
    for _ in range(6):
        if body.vy < 0:
            break
        body.step(0, 0, True)
    assert body.vy < 0, "the buffered jump started on landing"


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("angle", [20, 30, 44])
def test_walking_up_and_down_a_floor_slope_never_leaves_it_and_standing_on_it_never_slides(shape, angle):
    body = standing(shape, ramp(angle, 600), spawn=(-60.0, 50.0))
    for _ in range(20):
        body.step(1, 0, False)
    airborne = 0
    for _ in range(60):
        body.step(1, 0, False)
        airborne += not body.on_floor
    assert airborne == 0 and body.y < FLOOR_Y - 60  # up the slope, always on it (godot #50732)
    still = (body.x, body.y)
    for _ in range(120):
        body.step(0, 0, False)
    assert (body.x, body.y) == still and body.on_floor  # no sliding down
    for _ in range(60):
        body.step(-1, 0, False)
        airborne += not body.on_floor
    assert airborne == 0  # down it without bouncing


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("angle", [46, 60, 80])
def test_a_slope_steeper_than_floor_max_angle_is_a_wall_and_is_slid_down(shape, angle):
    body = standing(shape, ramp(angle, 400), spawn=(-60.0, 50.0))
    for _ in range(120):
        body.step(1, 0, False)
    assert body.x < 10 and body.y == pytest.approx(FLOOR_Y - half_height(shape) - SKIN, abs=1e-6)
    # dropped onto it from above: slides down to its foot, never stands on it
    body = Platformer(level(shape, ramp(angle, 400), spawn=(60.0, -120.0)))
    for _ in range(300):
        body.step(0, 0, False)
    assert body.on_floor and body.y == pytest.approx(FLOOR_Y - half_height(shape) - SKIN, abs=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_running_along_a_row_of_boxes_never_catches_on_a_seam(shape):
    boxes = [Box(f"b{i}", (i * 32, 60), (32, 32)) for i in range(40)]  # godot #89458, #47148; box2d #341
    body = standing(shape, *boxes, spawn=(20.0, 0.0))
    xs = []
    for _ in range(250):
        body.step(1, 0, False)
        assert body.on_floor
        xs.append(body.x)
    assert {round(b - a, 9) for a, b in zip(xs, xs[1:])} == {4.0}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_ceiling_stops_the_rise_at_once(shape):
    ceiling = Box("ceiling", (-1000, 40), (3000, 10))
    body = standing(shape, ceiling)
    speeds = []
    for _ in range(20):
        body.step(0, 0, True)
        speeds.append(body.vy)
    first_stop = next(i for i, v in enumerate(speeds) if v >= 0)
    assert speeds[first_stop] == 0.0 and speeds[first_stop + 1] > 0  # falls from the next tick (godot #54298)


@pytest.mark.parametrize("shape", SHAPES)
def test_pressing_into_a_wall_never_slows_a_fall(shape):
    wall = Box("wall", (0, -1000), (40, 1100))
    free = Platformer(level(shape, spawn=(-200.0, -500.0)))
    leaning = Platformer(level(shape, wall, spawn=(-13.0, -500.0)))
    for _ in range(40):
        free.step(0, 0, False)
        leaning.step(1, 0, False)
        assert leaning.y == pytest.approx(free.y, abs=1e-9)  # godot #54298: no friction against walls
    assert leaning.x > -13.0 - 1e-9 and min_gap(leaning) > 0


@pytest.mark.parametrize("shape", SHAPES)
def test_a_one_way_floor_is_jumped_through_from_below_and_landed_on(shape):
    ledge = Box("ledge", (-200, 40), (200, 8), one_way=True)
    body = standing(shape, ledge)
    for _ in range(40):
        body.step(0, 0, True)
    for _ in range(60):
        body.step(0, 0, False)
    assert body.on_floor and body.y == pytest.approx(40 - half_height(shape) - SKIN, abs=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fall_speed", [600.0, 1e5, 1e6])
def test_a_one_way_floor_holds_a_fall_at_any_speed(shape, fall_speed):
    ledge = Box("ledge", (-200, 40), (200, 2), one_way=True)  # godot #28895
    body = Platformer(level(shape, ledge, spawn=(-100.0, -5000.0), max_fall_speed=fall_speed, jump_time=0.01))
    for _ in range(2000):
        body.step(0, 0, False)
        if body.on_floor:
            break
    assert body.on_floor and body.floor == body.world.first_special


@pytest.mark.parametrize("shape", SHAPES)
def test_a_one_way_floor_is_walked_through_from_the_side_and_held_at_its_edge(shape):
    low = Box("low", (0, 80), (100, 8), one_way=True)
    body = standing(shape, low, spawn=(-60.0, 50.0))
    for _ in range(60):
        body.step(1, 0, False)
    assert body.x > 150 and body.y == pytest.approx(FLOOR_Y - half_height(shape) - SKIN, abs=1e-6)
    # landing with the player's edge just over the ledge's end holds (godot #9399)
    # (a box 3 px over the end; a circle a quarter of its radius, where the corner's slope is a floor)
    edge_x = -7.0 if shape == "box" else -3.0
    edge = Platformer(level(shape, Box("ledge", (0, 40), (100, 8), one_way=True), spawn=(edge_x, -40.0)))
    for _ in range(120):
        edge.step(0, 0, False)
    assert edge.on_floor and edge.y < 40


@pytest.mark.parametrize("shape", SHAPES)
def test_down_and_jump_drops_through_a_one_way_floor_but_not_a_solid_one(shape):
    ledge = Box("ledge", (-200, 40), (200, 8), one_way=True)
    body = standing(shape, ledge, spawn=(-100.0, 0.0))
    assert body.y < 40
    body.step(0, 1, True)
    for _ in range(60):
        body.step(0, 1, False)
    assert body.on_floor and body.y == pytest.approx(FLOOR_Y - half_height(shape) - SKIN, abs=1e-6)
    solid = standing(shape, Box("solid", (-200, 40), (200, 8)), spawn=(-100.0, 0.0))
    solid.step(0, 1, True)
    assert solid.vy < 0  # a plain jump


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("points", [((0, 0), (0, -160)), ((0, 0), (200, 0)), ((0, 0), (150, -90)),
                                    ((0, 0), (0, 120))])
def test_a_moving_platform_carries_its_rider_exactly(shape, points):
    lift = Box("lift", (0, -100), (96, 16), path=MovePath(points, 90))  # godot #97703, #66304: no jitter or lag
    body = Platformer(level(shape, lift, spawn=(48.0, -100 - half_height(shape) - SKIN)))
    i = body.world.first_special
    rel = set()
    for tick in range(400):
        body.step(0, 0, False)
        assert body.on_floor and body.floor == i, tick
        ox, oy = body.world.offsets[0]
        rel.add((round(body.x - ox, 6), round(body.y - oy, 6)))
    assert len(rel) == 1


@pytest.mark.parametrize("shape", SHAPES)
def test_a_moving_object_pushes_the_player_and_never_ends_a_tick_overlapping_it(shape):
    pusher = Box("pusher", (-300, 40), (40, 59), path=MovePath(((0, 0), (600, 0)), 400))
    body = standing(shape, pusher, spawn=(0.0, 50.0))
    for _ in range(300):
        body.step(0, 0, False)
        assert min_gap(body) > 0.0


def test_the_same_inputs_give_the_same_positions_bit_for_bit():
    objects = (ramp(30, 300), Box("ledge", (-300, 30), (200, 8), one_way=True),
               Box("lift", (400, 60), (96, 16), path=MovePath(((0, 0), (0, -100), (80, -100)), 70, "loop")))
    inputs = [((tick // 40) % 3 - 1, 1 if tick % 97 < 5 else 0, (tick // 13) % 3 == 0) for tick in range(1500)]

    def run():
        body = Platformer(level("box", *objects))
        return [tuple(body.step(*i)) + (body.on_floor,) for i in inputs]

    assert run() == run()


# --- hypothesis: no tick ends inside a solid, on random platformer levels ---------------------------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_coord = st.floats(-300, 300, allow_nan=False).map(lambda v: round(v, 1))
_size = st.floats(4, 200, allow_nan=False).map(lambda v: round(v, 1))


@st.composite
def _objects(draw):
    objects = []
    for n in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["box", "oriented_box", "wall"]))
        one_way = draw(st.booleans()) and draw(st.booleans())
        path = None
        if draw(st.integers(0, 3)) == 0:
            points = ((0, 0), (draw(_coord) / 3, draw(_coord) / 3))
            path = MovePath(points, draw(st.floats(10, 400)), draw(st.sampled_from(["ping_pong", "loop"])))
        x, y = draw(_coord), draw(_coord) * 0.5 + 100
        if kind == "box":
            objects.append(Box(f"o{n}", (x, y), (draw(_size), draw(_size)), one_way=one_way, path=path))
        elif kind == "oriented_box":
            objects.append(OrientedBox(f"o{n}", (x, y), (draw(_size) / 2, draw(_size) / 4),
                                       draw(st.floats(-90, 90)), one_way=one_way, path=path))
        else:
            objects.append(Wall(f"o{n}", [(x, y), (x + draw(_coord) / 2, y + draw(_coord) / 4)],
                                draw(st.floats(1, 12)), one_way=one_way, path=path))
    return objects


_tick = st.tuples(st.sampled_from([-1, 0, 1, 0.5]), st.sampled_from([0, 0, 1]), st.booleans())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(SHAPES), objects=_objects(), ticks=st.lists(_tick, min_size=50, max_size=300))
def test_no_tick_ends_inside_a_solid_on_random_platformer_levels(shape, objects, ticks):
    body = Platformer(level(shape, *objects, spawn=(0.0, -400.0)))
    world = body.world
    for n, tick in enumerate(ticks):
        body.step(*tick)
        for i in world.near_indices(body.x - 1, body.y - 1, body.x + 1, body.y + 1):
            special = world.special(i)
            if special is not None and special.one_way and i not in world.active:
                continue  # a one-way floor the player is passing through
            assert world.obstacle(i).gap(body.x, body.y)[0] > 0.0, (n, world.object_ids[i])


def test_random_levels_reach_their_moving_and_one_way_objects():
    """The property above is not vacuous: on such levels the player stands on moving and one-way objects."""
    lift = Box("lift", (-50, -100), (100, 10), path=MovePath(((0, 0), (40, 30)), 120, "loop"))
    ledge = Wall("ledge", [(-60, -150), (60, -170)], 4, one_way=True)
    body = Platformer(level("circle", lift, ledge, spawn=(0.0, -400.0)))
    stood = set()
    for tick in range(600):
        body.step(0, 1 if tick == 300 else 0, tick == 300)
        if body.on_floor:
            stood.add(body.world.object_ids[body.floor])
    assert stood == {"ledge", "lift"}


def test_a_picture_s_path_is_its_file_not_a_motion():
    from level_editor.core.level.model import Image
    body = Platformer(level("box", Image("art", "art/a.png", (0, 0))))
    assert not body.moving and body.step(1, 0, False).x > -100


def test_a_top_down_player_is_pushed_by_moving_objects_and_simulate_agrees_with_the_simulation():
    from level_editor.core.playtest.replay import Replay
    from level_editor.core.playtest.simulation import Simulation, run_replay
    pusher = Box("pusher", (-300, -20), (40, 40), path=MovePath(((0, 0), (600, 0)), 300))
    for shape in SHAPES:
        lv = Level(player=Player(spawn=(0, 0), shape=shape, size=(20, 30), radius=12), objects=(pusher,))
        sim = Simulation(lv)
        positions = []
        for _ in range(200):
            positions.append(sim.step((0, 0)))
            assert sim.moving.world.obstacle(sim.moving.world.first_special).gap(*sim.position)[0] > 0
        assert max(p.x for p in positions) > 250  # carried along in front of it
        trace = run_replay(lv, Replay(1 / 60, inputs=[(0, 0, 0)] * 200))
        assert list(trace.positions) == positions


def test_a_top_down_player_at_any_speed_meets_a_moving_object_across_a_big_level():
    """The sweep walks the grid's cells along a very fast motion; the moving objects are met on that walk too."""
    from level_editor.core.level.generate import generate_level
    from level_editor.core.playtest.replay import Replay
    from level_editor.core.playtest.simulation import run_replay
    base = generate_level(2000, seed=3)
    x0, y0, x1, y1 = base.bounds()
    spawn = (x0 - 500, y0 - 500)
    wall = Box("mover", (x0 - 700, y0 - 2000), (40, 4000), path=MovePath(((0, 0), (0, 10)), 1))
    lv = base.with_objects(base.objects + (wall,))
    lv = Level(player=Player(spawn=spawn, radius=8), objects=lv.objects, layers=lv.layers, types=lv.types)
    trace = run_replay(lv, Replay(1 / 60, [(-1e300, 0)] * 3))
    assert all(p.x > x0 - 700 + 40 for p in trace.positions)  # stopped by the moving wall, never through it


@pytest.mark.parametrize("shape", SHAPES)
def test_the_most_extreme_settings_a_file_may_hold_never_overflow(shape):
    """The shortest jump time and the highest jump, the heaviest fall and the fastest run still give finite
    positions, and no tick ends inside the floor."""
    from level_editor.core.level.format.fields import PLAYER_SETTINGS
    settings = {s.name: s.high if s.name not in ("jump_time", "floor_max_angle") else (s.smallest or s.low + 1e-9)
                for s in PLAYER_SETTINGS if s.name not in ("coyote_time", "jump_buffer")}
    settings["jump_time"] = 0.001
    settings["floor_max_angle"] = 89.999
    body = Platformer(level(shape, **settings))
    for tick in range(120):
        p = body.step((-1) ** (tick // 30), 0, tick % 7 < 3)
        assert math.isfinite(p.x) and math.isfinite(p.y)
        assert min_gap(body) > 0.0


@pytest.mark.parametrize("shape", SHAPES)
def test_running_from_a_tile_floor_onto_boxes_and_back_never_catches_on_the_seams(shape):
    """Seams between a tile grid's cells, and between a grid and a box beside it (godot #89458, #47148)."""
    tiles = Tiles("tiles", (0, 60), 16, ("#" * 40, "#" * 40))
    boxes = [Box(f"b{i}", (640 + i * 16, 60), (16, 32)) for i in range(40)]
    body = standing(shape, tiles, *boxes, spawn=(20.0, 0.0))
    xs = []
    for tick in range(520):
        body.step(1 if tick < 260 else -1, 0, False)
        assert body.on_floor
        xs.append(body.x)
    assert {round(abs(b - a), 9) for a, b in zip(xs, xs[1:])} == {4.0}
