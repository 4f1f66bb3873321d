"""The character controller: one named test per promise, for a circle and a box player."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from level_editor.core.collision.mover import SKIN, clip_motion, move
from level_editor.core.collision.overlap import overlaps
from level_editor.core.collision.shapes import Capsule, Circle, OrientedRect, Rect, Vec2
from level_editor.core.collision.sweep import cast
from level_editor.core.collision.geometry import segments_intersect
from level_editor.core.collision.world import World

DT = 1.0 / 60.0
SHAPES = ("circle", "box")


def body(kind, half=6.0):
    if kind == "circle":
        return Circle(Vec2(0, 0), half)
    return Rect(Vec2(-half, -half), Vec2(2 * half, 2 * half))


def body_at(world, p):
    b = world.body
    if isinstance(b, Circle):
        return Circle(p, b.radius)
    return Rect(Vec2(p.x + b.origin.x, p.y + b.origin.y), b.size)


def clear_of_everything(world, p):
    shape = body_at(world, p)
    return not any(overlaps(shape, c.shape) for c in world.colliders)


def run(world, start, velocity, ticks, dt=DT):
    p = Vec2(*start)
    out = []
    for _ in range(ticks):
        p = move(world, p, Vec2(velocity[0] * dt, velocity[1] * dt)).position
        out.append(p)
    return out


def floor_of_boxes(count=20, width=16.0, top=100.0, jitter=0.0):
    """Adjacent boxes whose tops form one flat floor (optionally misaligned by a hair)."""
    return [Rect(Vec2(i * width, top + (jitter if i % 2 else -jitter)), Vec2(width, 16.0))
            for i in range(count)]


# ---------------------------------------------------------------------------
# Never ends a tick overlapping geometry; never crosses a wall at any speed.


@pytest.mark.parametrize("kind", SHAPES)
def test_never_ends_a_tick_overlapping_geometry(kind):
    shapes = floor_of_boxes() + [
        Capsule(Vec2(50, 0), Vec2(50, 90), 2),
        OrientedRect(Vec2(150, 60), Vec2(20, 5), 30),
        Circle(Vec2(220, 70), 10),
    ]
    world = World(shapes, body(kind))
    p = Vec2(20, 60)
    velocities = [(3000, 2000), (-5000, 7000), (0, 9000), (8000, -100), (-100000, 3), (100000, 50000)]
    for v in velocities * 5:
        p = move(world, p, Vec2(v[0] * DT, v[1] * DT)).position
        assert clear_of_everything(world, p)


@pytest.mark.parametrize("kind", SHAPES)
def test_never_crosses_a_wall_whatever_the_speed(kind):
    thin_wall = Capsule(Vec2(500, -1e6), Vec2(500, 1e6), 0.5)  # 1 px thick
    thin_box = Rect(Vec2(-500.5, -1e6), Vec2(1, 2e6))  # 1 px wide
    world = World([thin_wall, thin_box], body(kind))
    for vx, vy in ((100000, 0), (100000, 37), (-100000, 0), (-100000, -12345), (1e7, 1)):
        start = Vec2(0, 0)
        for p in run(world, start, (vx, vy), 10):
            assert -500.5 + 6 < p.x < 500 - 0.5 - 6
            # The straight path of the tick never crosses the wall's core.
            assert not segments_intersect(start, p, thin_wall.a, thin_wall.b)
            start = p


@pytest.mark.parametrize("kind", SHAPES)
@pytest.mark.parametrize("speed", [1e12, 1e160, 1e300, 1.7e308])
def test_stays_inside_a_closed_room_at_any_finite_speed(kind, speed):
    # Squares of a motion above ~1e154 px overflow to infinity: the ray casts
    # must not lose their round corners (or everything) to that.
    room = [Capsule(Vec2(-100, -100), Vec2(100, -100), 4), Capsule(Vec2(100, -100), Vec2(100, 100), 4),
            Capsule(Vec2(100, 100), Vec2(-100, 100), 4), Capsule(Vec2(-100, 100), Vec2(-100, -100), 4)]
    world = World(room, body(kind))
    p = Vec2(0, 0)
    for k in range(12):
        a = k * 2.399963
        p = move(world, p, Vec2(math.cos(a) * speed * DT, math.sin(a) * speed * DT)).position
        assert -90 < p.x < 90 and -90 < p.y < 90
        assert clear_of_everything(world, p)


@pytest.mark.parametrize("kind", SHAPES)
def test_never_moves_further_in_a_tick_than_asked(kind):
    shapes = floor_of_boxes() + [OrientedRect(Vec2(100, 80), Vec2(30, 4), -20), Circle(Vec2(200, 80), 8)]
    world = World(shapes, body(kind))
    p = Vec2(30, 80)
    for i in range(200):
        a = i * 2.399963  # golden angle: every direction, deterministically
        speed = 50.0 * (1 + i % 7) ** 3
        d = Vec2(math.cos(a) * speed * DT, math.sin(a) * speed * DT)
        m = move(world, p, d)
        assert math.dist(m.position, p) <= d.length() * (1 + 1e-12)
        path_length = sum(math.dist(a, b) for a, b in zip(m.path, m.path[1:]))
        assert path_length <= d.length() * (1 + 1e-12)
        p = m.position


# ---------------------------------------------------------------------------
# Sliding without catching on seams or nodes.


@pytest.mark.parametrize("kind", SHAPES)
def test_slides_along_a_run_of_adjacent_boxes_without_catching_on_seams(kind):
    world = World(floor_of_boxes(), body(kind))
    start = Vec2(8, 100 - 6 - SKIN)
    positions = run(world, start, (240, 240), 60)  # pressing down into the floor
    # Every tick gains the full horizontal speed: no seam costs anything.
    xs = [start.x] + [p.x for p in positions]
    for a, b in zip(xs, xs[1:]):
        assert b - a == pytest.approx(4.0, abs=1e-9)
    assert all(p.y == pytest.approx(start.y, abs=1e-9) for p in positions)


@pytest.mark.parametrize("kind", SHAPES)
def test_slides_along_a_wall_of_stacked_boxes_without_catching(kind):
    column = [Rect(Vec2(100, i * 16.0), Vec2(16, 16)) for i in range(20)]
    world = World(column, body(kind))
    positions = run(world, (100 - 6 - SKIN, 4), (240, 240), 60)
    ys = [p.y for p in positions]
    assert all(b - a == pytest.approx(4.0, abs=1e-9) for a, b in zip(ys, ys[1:]))


@pytest.mark.parametrize("kind", SHAPES)
@pytest.mark.parametrize("jitter", [1e-7, 1e-9])
def test_slides_along_boxes_misaligned_by_a_hair(kind, jitter):
    world = World(floor_of_boxes(jitter=jitter), body(kind))
    start = Vec2(8, 100 - 6 - SKIN - jitter)
    positions = run(world, start, (240, 240), 60)
    assert positions[-1].x - start.x >= 240.0 * 0.999
    for a, b in zip([start] + positions, positions):
        assert b.x - a.x > 4.0 * 0.99
    assert all(clear_of_everything(world, p) for p in positions)


@pytest.mark.parametrize("kind", SHAPES)
def test_slides_along_a_wall_chain_without_catching_on_nodes(kind):
    nodes = [Vec2(x, 100) for x in range(0, 401, 20)]
    chain = [Capsule(a, b, 4) for a, b in zip(nodes, nodes[1:])]
    world = World(chain, body(kind))
    start = Vec2(10, 100 - 4 - 6 - SKIN)
    positions = run(world, start, (240, 100), 60)
    xs = [start.x] + [p.x for p in positions]
    assert all(b - a == pytest.approx(4.0, abs=1e-9) for a, b in zip(xs, xs[1:]))
    assert all(abs(p.y - start.y) < 1e-6 for p in positions)


@pytest.mark.parametrize("kind", SHAPES)
def test_slides_around_a_closed_wall_outline_and_along_a_bent_chain(kind):
    # A slanted chain: the player slides down it, node after node, without stopping.
    nodes = [Vec2(i * 30.0, i * 10.0 + (3.0 if i % 2 else 0.0)) for i in range(12)]
    chain = [Capsule(a, b, 3) for a, b in zip(nodes, nodes[1:])]
    world = World(chain, body(kind))
    p = Vec2(15, -20)
    positions = run(world, p, (300, 300), 90)
    assert positions[-1].x > 250
    assert all(clear_of_everything(world, q) for q in positions)
    steps = [math.dist(a, b) for a, b in zip(positions[40:], positions[41:])]
    assert min(steps) > 1.0  # keeps sliding, never caught on a node


# ---------------------------------------------------------------------------
# Resting still in corners and wedges.


@pytest.mark.parametrize("kind", SHAPES)
def test_rests_still_in_a_corner(kind):
    floor = Rect(Vec2(0, 100), Vec2(200, 20))
    wall = Rect(Vec2(100, 0), Vec2(20, 100))
    world = World([floor, wall], body(kind))
    positions = run(world, (50, 50), (600, 600), 60)
    rest = positions[-1]
    assert positions[-30:] == [rest] * 30  # bit for bit, no jitter
    assert clear_of_everything(world, rest)
    # No velocity build-up: the first tick away moves exactly the speed asked.
    away = move(world, rest, Vec2(-4, 0)).position
    assert away == Vec2(rest.x - 4, rest.y)


@pytest.mark.parametrize("kind", SHAPES)
@pytest.mark.parametrize("walls", ["capsules", "oriented_boxes"])
def test_rests_still_in_a_1_degree_wedge_entered_at_high_speed(kind, walls):
    a = math.radians(1.0)
    tip = Vec2(0, 0)
    far = Vec2(2000 * math.cos(a), 2000 * math.sin(a))
    if walls == "capsules":
        shapes = [Capsule(tip, Vec2(2000, 0), 1), Capsule(tip, far, 1)]
    else:
        shapes = [OrientedRect(Vec2(1000, -1), Vec2(1000, 1), 0),
                  OrientedRect(Vec2(far.x / 2 - math.sin(a), far.y / 2 + math.cos(a)), Vec2(1000, 1), 1.0)]
    world = World(shapes, body(kind))
    positions = run(world, (1900, 16), (-100000, 10), 30)
    rest = positions[-1]
    assert positions[-20:] == [rest] * 20
    assert clear_of_everything(world, rest)
    assert rest.x > 100  # stuck where the wedge gets too narrow, not at the tip
    away = move(world, rest, Vec2(4, 0)).position
    assert away.x - rest.x == pytest.approx(4.0, abs=1e-9)


# ---------------------------------------------------------------------------
# Gaps.


def _gap_world(kind, gap):
    left = Rect(Vec2(-2000, 100), Vec2(2000, 20))
    right = Rect(Vec2(gap, 100), Vec2(2000, 20))
    return World([left, right], body(kind))


@pytest.mark.parametrize("kind", SHAPES)
def test_passes_through_a_gap_2px_wider_than_the_player(kind):
    world = _gap_world(kind, 12 + 2)
    positions = run(world, (7, 50), (0, 600), 20)
    assert positions[-1].y > 130
    # Also when arriving sideways, sliding along the top into the gap.
    positions = run(world, (-100, 100 - 6 - SKIN), (300, 300), 60)
    assert positions[-1].y > 130


@pytest.mark.parametrize("kind", SHAPES)
@pytest.mark.parametrize("gap", [12.0, 12.0 - 1e-6, 11.0])
def test_never_passes_a_gap_narrower_than_the_player(kind, gap):
    world = _gap_world(kind, gap)
    for start, v in (((gap / 2, 50), (0, 600)), ((gap / 2, 50), (0, 100000)), ((-100, 60), (3000, 3000))):
        positions = run(world, start, v, 30)
        # A circle may sink between the corners, but its centre never gets
        # past them, and a box never gets below the top.
        assert all(p.y < (100 if kind == "circle" else 100 - 6) for p in positions)
        assert all(clear_of_everything(world, p) for p in positions)


# ---------------------------------------------------------------------------
# Grazing a convex corner.


@pytest.mark.parametrize("kind", SHAPES)
def test_grazes_past_a_convex_corner_without_snagging(kind):
    box = Rect(Vec2(100, 100), Vec2(50, 50))
    world = World([box], body(kind))
    # Passing 0.01 px above the corner: not deflected at all.
    start = Vec2(50, 100 - 6 - 0.01)
    positions = run(world, start, (600, 0), 20)
    assert positions[-1] == Vec2(start.x + 200, start.y)


def test_circle_clipping_a_corner_is_deflected_around_it_without_hugging():
    world = World([Rect(Vec2(100, 100), Vec2(50, 50))], body("circle"))
    start = Vec2(50, 100 - 6 + 1.0)  # its path cuts 1 px into the corner
    positions = run(world, start, (600, 0), 20)
    ys = [p.y for p in positions]
    xs = [start.x] + [p.x for p in positions]
    assert all(clear_of_everything(world, p) for p in positions)
    assert xs[-1] > 240  # lost only a little speed while rounding the corner
    # Once past the corner it runs straight on, not pulled down around it.
    assert ys[-1] == ys[-2] == ys[-3]
    assert ys[-1] < 100 - 6


@pytest.mark.parametrize("kind", SHAPES)
def test_leaves_a_ledge_in_the_wished_direction(kind):
    box = Rect(Vec2(0, 100), Vec2(100, 50))
    world = World([box], body(kind))
    start = Vec2(80, 100 - 6 - SKIN)
    positions = run(world, start, (240, 120), 30)
    # Sliding on top until the edge, then straight down-right as asked: it
    # does not cling to the box's side.
    last, before = positions[-1], positions[-2]
    assert (last.x - before.x, last.y - before.y) == pytest.approx((4.0, 2.0))
    assert last.x - 6 > 100


# ---------------------------------------------------------------------------
# Far from the origin, determinism, push-out.


def _scene(offset):
    o = Vec2(offset, offset)
    shapes = [r for r in floor_of_boxes(jitter=1e-7)] + [Capsule(Vec2(150, 20), Vec2(200, 95), 3)]
    moved = []
    for s in shapes:
        if isinstance(s, Rect):
            moved.append(Rect(s.origin + o, s.size))
        else:
            moved.append(Capsule(s.a + o, s.b + o, s.radius))
    return moved, o


@pytest.mark.parametrize("kind", SHAPES)
def test_behaves_the_same_a_million_px_from_the_origin(kind):
    runs = []
    for offset in (0.0, 1_000_000.0):
        shapes, o = _scene(offset)
        world = World(shapes, body(kind))
        p = Vec2(20, 40) + o
        track = []
        for i in range(120):
            a = i * 0.37
            p = move(world, p, Vec2(8 * math.cos(a) + 3, 8 * math.sin(a) + 2)).position
            track.append(p - o)
        runs.append(track)
    for near, far in zip(*runs):
        assert far == pytest.approx(near, abs=1e-6)


@pytest.mark.parametrize("kind", SHAPES)
def test_deterministic_bit_for_bit(kind):
    def once():
        shapes, _ = _scene(0.0)
        world = World(shapes, body(kind))
        p = Vec2(20, 40)
        out = []
        for i in range(200):
            a = i * 1.1
            p = move(world, p, Vec2(30 * math.cos(a), 30 * math.sin(a) + 5)).position
            out.append((p.x.hex(), p.y.hex()))
        return out

    assert once() == once()


@pytest.mark.parametrize("kind", SHAPES)
def test_pushes_out_when_starting_inside(kind):
    box = Rect(Vec2(0, 0), Vec2(100, 100))
    world = World([box], body(kind))
    m = move(world, Vec2(3, 50), Vec2(0, 0))  # 9 px deep from the left side
    assert m.position.x == pytest.approx(-6 - SKIN)
    assert m.pushed_out == pytest.approx((-9 - SKIN, 0))
    assert clear_of_everything(world, m.position)
    # Pushing back in is refused on the same tick, moving away is allowed.
    assert move(world, Vec2(3, 50), Vec2(5, 0)).position == m.position
    assert move(world, Vec2(3, 50), Vec2(-5, 0)).position.x == pytest.approx(-11 - SKIN)


@pytest.mark.parametrize("kind", SHAPES)
def test_pushes_out_of_a_slot_narrower_than_the_player(kind):
    walls = [Rect(Vec2(-100, 0), Vec2(105, 100)), Rect(Vec2(-5 + 10, 0), Vec2(100, 100))]
    world = World(walls, body(kind))
    m = move(world, Vec2(5, 50), Vec2(0, 0))
    assert clear_of_everything(world, m.position)


@pytest.mark.parametrize("kind", SHAPES)
def test_touching_at_the_start_counts_as_overlapping(kind):
    world = World([Rect(Vec2(6, -50), Vec2(10, 100))], body(kind))
    m = move(world, Vec2(0, 0), Vec2(0, 0))
    assert m.position.x < 0 and clear_of_everything(world, m.position)


@pytest.mark.parametrize("position, motion, message", [
    (Vec2(math.nan, 0.0), Vec2(1.0, 0.0), "position must be finite"),
    (Vec2(0.0, math.inf), Vec2(1.0, 0.0), "position must be finite"),
    (Vec2(0.0, 0.0), Vec2(math.inf, 0.0), "motion must be finite"),
    (Vec2(0.0, 0.0), Vec2(0.0, -math.nan), "motion must be finite"),
])
def test_rejects_a_non_finite_position_or_motion_at_the_entry(position, motion, message):
    world = World(floor_of_boxes(), body("circle"))
    with pytest.raises(ValueError, match=message):
        move(world, position, motion)


def test_plain_tuples_work_as_position_and_motion():
    world = World(floor_of_boxes(), body("box"))
    assert move(world, (8, 50), (3, 4)) == move(world, Vec2(8.0, 50.0), Vec2(3.0, 4.0))


def test_clip_motion_crease_and_opposing_planes():
    # Two floors meeting in a V: sliding down one into the other stops.
    n1 = (-math.sqrt(0.5), -math.sqrt(0.5), 0.0)
    n2 = (math.sqrt(0.5), -math.sqrt(0.5), 0.0)
    assert clip_motion(0.0, 5.0, [n1, n2]) == (0.0, 0.0)
    # Both violated, but the projection onto the floor satisfies the slope.
    vx, vy = clip_motion(-1.0, 5.0, [(0.0, -1.0, 0.0), (-0.8, -0.6, 0.0)])
    assert (vx, vy) == pytest.approx((-1.0, 0.0))
    # A floor and a wall: the corner stops the motion.
    assert clip_motion(5.0, 1.0, [(0.0, -1.0, 0.0), (-1.0, 0.0, 0.0)]) == (0.0, 0.0)
    assert clip_motion(-3.0, -4.0, [(0.0, -1.0, 0.0)]) == (-3.0, -4.0)


def test_debug_info_reports_candidates_contacts_and_slide():
    world = World(floor_of_boxes(), body("circle"))
    m = move(world, Vec2(8, 100 - 6 - SKIN), Vec2(4, 4))
    assert m.candidates == (0, 1)
    assert m.contacts and m.contacts[0].normal == Vec2(0.0, -1.0)
    assert m.contacts[0].point.y == pytest.approx(100)
    assert m.slide == Vec2(1.0, 0.0)
    assert m.path[0] == Vec2(8, 100 - 6 - SKIN) and m.path[-1] == m.position


# ---------------------------------------------------------------------------
# Random levels, random (also very fast) inputs, checked every tick.

coord = st.floats(0, 400).map(lambda v: round(v, 3))
size = st.floats(2, 80).map(lambda v: round(v, 3))
walls = st.builds(
    lambda pts, t: [Capsule(a, b, t / 2) for a, b in zip(pts, pts[1:]) if a != b],
    st.lists(st.builds(Vec2, coord, coord), min_size=2, max_size=4),
    st.floats(1, 12),
)
boxes = st.builds(lambda o, s: [Rect(o, s)], st.builds(Vec2, coord, coord), st.builds(Vec2, size, size))
oboxes = st.builds(lambda c, h, r: [OrientedRect(c, h, r)], st.builds(Vec2, coord, coord),
                   st.builds(Vec2, size, st.floats(1, 20)), st.floats(-180, 180))
pillars = st.builds(lambda c, r: [Circle(c, r)], st.builds(Vec2, coord, coord), st.floats(2, 40))
levels = st.lists(st.one_of(walls, boxes, oboxes, pillars), min_size=1, max_size=12).map(
    lambda groups: [s for g in groups for s in g])
speeds = st.one_of(st.floats(-400, 400), st.floats(-100000, 100000))
velocities = st.lists(st.builds(Vec2, speeds, speeds), min_size=1, max_size=15)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels, st.sampled_from(SHAPES), st.floats(3, 14), st.builds(Vec2, coord, coord), velocities)
def test_random_levels_never_penetrate_or_tunnel(shapes, kind, half, spawn, vels):
    world = World(shapes, body(kind, half))
    p = spawn
    for v in vels:
        d = Vec2(v.x * DT, v.y * DT)
        m = move(world, p, d)
        q = m.position
        if m.pushed_out == Vec2(0.0, 0.0):
            assert math.dist(p, q) <= d.length() * (1 + 1e-12) + 1e-12
        if clear_of_everything(world, m.path[0]):
            # Penetration: the end of every tick is clear of every collider.
            assert clear_of_everything(world, q)
            # Tunnelling: each straight piece of the path touches nothing at all.
            for a, b in zip(m.path, m.path[1:]):
                for c in world.colliders:
                    assert cast(body_at(world, a), b - a, c.shape) is None
        p = q
