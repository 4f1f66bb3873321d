"""Areas (objects that are not solid): the player passes through them, and the play-test reports, per tick, the
ones its body starts and stops overlapping, in the simulation (for the editor) and in the trace (for simulate)."""
from __future__ import annotations

import json
import math
import random

import pytest

from level_editor.core.level.model import Box, Image, Layer, Level, OrientedBox, Pillar, Player, Point, Tiles, Wall
from level_editor.core.playtest.replay import (
    Replay,
    ReplayFileError,
    Trace,
    dumps_trace,
    load_trace,
    loads_trace,
    save_trace,
)
from level_editor.core.collision import Vec2, overlaps
from level_editor.core.playtest.simulation import Simulation, area_changes, run_replay

SHAPES = ("circle", "box")
DT = 1.0 / 60.0


def player(shape="circle", spawn=(0, 0)):
    # The same half width (5 px) for both shapes, so the ticks below hold for either.
    return Player(spawn=spawn, shape=shape, radius=5, size=(10, 10), speed=60)


def walk(level, velocity, ticks, start=None):
    sim = Simulation(level, start=start, dt=DT)
    debug = []
    for _ in range(ticks):
        sim.step(velocity)
        debug.append(sim.last)
    return sim, debug


@pytest.mark.parametrize("shape", SHAPES)
def test_walking_through_a_trigger_box_enters_then_leaves(shape):
    # 1 px a tick from x = 0: after tick i the centre is at x = i + 1 (exact in floats).
    # The body (half width 5) first touches x = 20 at x = 15, tick 14, and last touches x = 30 at x = 35, tick 34.
    level = Level(player=player(shape), objects=(Box("trigger", (20, -10), (10, 20), solid=False),))
    sim, debug = walk(level, (60, 0), 50)
    assert sim.events == [(14, "enter", "trigger"), (35, "leave", "trigger")]
    assert [d.tick for d in debug if d.entered] == [14] and debug[14].entered == ("trigger",)
    assert [d.tick for d in debug if d.left] == [35] and debug[35].left == ("trigger",)
    assert [d.inside for d in debug[13:16]] == [(), ("trigger",), ("trigger",)]
    assert debug[34].inside == ("trigger",) and debug[35].inside == ()
    assert sim.inside == ()
    # An area never blocks: the player moved as if it were not there.
    assert sim.position == Vec2(50, 0)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("area", [
    Wall("area", ((20, -30), (20, 30)), 4, solid=False),
    Box("area", (18, -5), (4, 10), solid=False),
    OrientedBox("area", (20, 0), (2, 10), 45, solid=False),
    Pillar("area", (20, 0), 2, solid=False),
    Tiles("area", (16, -16), 8, ("....", ".#..", ".#.#", "...."), solid=False),
], ids=lambda a: a.kind)
def test_every_kind_of_object_that_is_not_solid_is_an_area(shape, area):
    level = Level(player=player(shape), objects=(area,))
    sim, _ = walk(level, (60, 0), 60)
    kinds = [(kind, object_id) for _, kind, object_id in sim.events]
    assert kinds == [("enter", "area"), ("leave", "area")]
    assert sim.position == Vec2(60, 0)


@pytest.mark.parametrize("shape", SHAPES)
def test_markers_and_images_are_not_areas(shape):
    level = Level(player=player(shape), objects=(Point("lever", (10, 0)), Image("art", "a.png", (0, 0), scale=100)))
    sim, debug = walk(level, (60, 0), 30)
    assert sim.events == [] and all(d.inside == () for d in debug)


@pytest.mark.parametrize("shape", SHAPES)
def test_an_area_the_player_starts_in_is_entered_at_tick_0(shape):
    level = Level(player=player(shape), objects=(Box("room", (-50, -50), (100, 100), solid=False),))
    sim, debug = walk(level, (0, 0), 3)
    assert sim.events == [(0, "enter", "room")]
    assert debug[0].entered == ("room",) and debug[1].entered == () and debug[2].inside == ("room",)


def test_an_area_left_during_the_first_tick_was_never_entered():
    # Events describe the end of each tick; before tick 0 the player is in no area.
    level = Level(player=player(), objects=(Box("room", (-10, -10), (20, 20), solid=False),))
    sim, debug = walk(level, (6000, 0), 2)
    assert sim.events == [] and debug[0].left == () and debug[0].entered == ()


def test_a_tick_straight_through_a_small_area_reports_nothing():
    level = Level(player=player(), objects=(Box("thin", (50, -10), (1, 20), solid=False),))
    sim, _ = walk(level, (6000, 0), 1)
    assert sim.position.x == 100 and sim.events == []


def test_leaves_come_before_enters_within_a_tick_each_in_object_order():
    level = Level(player=player(), objects=(
        Box("d", (195, -10), (10, 20), solid=False),
        Box("a", (-5, -10), (10, 20), solid=False),
        Box("c", (198, -5), (4, 10), solid=False),
        Box("b", (-2, -2), (4, 4), solid=False),
    ))
    sim = Simulation(level, dt=DT)
    sim.step((0, 0))
    sim.step((200 / DT, 0))
    assert sim.events == [(0, "enter", "a"), (0, "enter", "b"),
                          (1, "leave", "a"), (1, "leave", "b"), (1, "enter", "d"), (1, "enter", "c")]
    assert sim.last.left == ("a", "b") and sim.last.entered == ("d", "c") and sim.last.inside == ("d", "c")


def test_a_tile_area_of_several_rectangles_is_one_area():
    # A staircase of two rectangles: the player walks from the first alone, through both, to the second alone,
    # and it is one area all the way.
    zone = Tiles("zone", (0, -8), 16, ("###...", "..####"), solid=False)
    level = Level(player=player(), objects=(zone,))
    assert len(zone.collision_shapes()) == 2
    sim, debug = walk(level, (60, 0), 130, start=(-20, 8))
    assert sim.events == [(14, "enter", "zone"), (121, "leave", "zone")]
    assert all(d.inside == ("zone",) for d in debug[14:121])


def test_overlapping_areas_are_separate_areas():
    level = Level(player=player(), objects=(
        Box("outer", (10, -20), (80, 40), solid=False),
        Box("inner", (40, -5), (10, 10), solid=False),
    ))
    sim, _ = walk(level, (60, 0), 100)
    assert sim.events == [(4, "enter", "outer"), (34, "enter", "inner"), (55, "leave", "inner"),
                          (95, "leave", "outer")]


def test_areas_on_hidden_and_locked_layers_still_report():
    layers = (Layer("main", "Main"), Layer("zones", "Zones", visible=False, locked=True))
    level = Level(player=player(), layers=layers, objects=(Box("z", (20, -10), (10, 20), layer="zones", solid=False),))
    sim, _ = walk(level, (60, 0), 50)
    assert [kind for _, kind, _ in sim.events] == ["enter", "leave"]


def test_a_solid_object_stops_the_player_and_the_same_object_not_solid_does_not():
    wall = Box("door", (20, -50), (10, 100))
    blocked, _ = walk(Level(player=player(), objects=(wall,)), (600, 0), 10)
    open_, _ = walk(Level(player=player(), objects=(Box("door", (20, -50), (10, 100), solid=False),)), (600, 0), 10)
    assert blocked.position.x < 15 and blocked.events == []
    assert open_.position.x == 100 and [e[1] for e in open_.events] == ["enter", "leave"]


def test_reset_forgets_the_events_and_the_areas():
    level = Level(player=player(), objects=(Box("room", (-50, -50), (100, 100), solid=False),))
    sim, _ = walk(level, (0, 0), 2)
    sim.reset()
    assert sim.events == [] and sim.inside == ()
    sim.step((0, 0))
    assert sim.events == [(0, "enter", "room")]


def test_area_changes():
    assert area_changes((), ()) == ((), ())
    assert area_changes(("a",), ("a",)) == ((), ())
    assert area_changes(("a", "b", "c"), ("b", "d")) == (("a", "c"), ("d",))


# ---------------------------------------------------------------------------
# The trace: run_replay, files, determinism.


def busy_level(shape):
    return Level(player=player(shape, spawn=(100, 100)), objects=(
        Wall("border", ((0, 0), (400, 0), (400, 300), (0, 300)), 8, True),
        Box("crate", (200, 40), (30, 30)),
        Box("zone", (60, 60), (80, 80), solid=False),
        Pillar("pond", (300, 200), 30, solid=False),
        Tiles("grass", (16, 176), 16, ("####..", "##.###", "######"), solid=False),
        Wall("route", ((50, 250), (350, 250), (350, 60)), 2, solid=False),
        OrientedBox("beam", (250, 150), (60, 6), 35, solid=False),
    ))


def busy_replay(n=1500):
    """Wandering at 300 px/s, a new direction every half second, with a few very fast ticks."""
    rng = random.Random(3)
    velocities = []
    for i in range(n):
        if i % 30 == 0:
            a = rng.uniform(0, math.tau)
        speed = 300.0 if i % 97 else 30000.0
        velocities.append((speed * math.cos(a), speed * math.sin(a)))
    return Replay(DT, velocities)


@pytest.mark.parametrize("shape", SHAPES)
def test_run_replay_gives_the_simulations_events_bit_for_bit(shape):
    level = busy_level(shape)
    trace = run_replay(level, busy_replay())
    sim = Simulation(level)
    positions = [sim.step(v) for v in busy_replay().velocities]
    assert list(trace.positions) == positions
    assert list(trace.events) == sim.events
    assert len(trace.events) > 10 and {e[2] for e in trace.events} == {"zone", "pond", "grass", "route", "beam"}
    assert dumps_trace(run_replay(level, busy_replay())) == dumps_trace(trace)


@pytest.mark.parametrize("shape", SHAPES)
def test_events_follow_the_rule_at_every_tick(shape):
    # The rule, checked the slow way: every area, every tick, with the level's own shapes.
    level = busy_level(shape)
    trace = run_replay(level, busy_replay())
    areas = {o.id: o.collision_shapes() for o in level.objects if not o.solid}
    order = [o.id for o in level.objects]
    inside = set()
    expected = []
    for tick, p in enumerate(trace.positions):
        body = level.player.body_at(p)
        now = {i for i, shapes in areas.items() if any(overlaps(body, s) for s in shapes)}
        expected += [(tick, "leave", i) for i in order if i in inside - now]
        expected += [(tick, "enter", i) for i in order if i in now - inside]
        inside = now
    assert list(trace.events) == expected


def test_a_trace_with_events_round_trips_through_a_file(tmp_path):
    trace = run_replay(busy_level("circle"), busy_replay())
    save_trace(tmp_path / "t.json", trace)
    assert load_trace(tmp_path / "t.json") == trace
    data = json.loads((tmp_path / "t.json").read_text())
    assert data["events"] == [list(e) for e in trace.events]
    assert list(data) == ["format", "version", "start", "positions", "events"]


def test_a_trace_without_events_has_no_events_key():
    text = dumps_trace(run_replay(Level(player=player()), Replay(0.5, [(2, 0)])))
    assert text == '{"format": "level-editor.trace", "version": 1, "start": [0.0, 0.0], "positions": [[1.0, 0.0]]}'
    assert loads_trace(text).events == ()
    assert loads_trace(text[:-1] + ', "events": []}').events == ()


def test_events_are_read_back():
    text = ('{"format": "level-editor.trace", "version": 1, "start": [0, 0], "positions": [[1, 0], [2, 0], [3, 0]], '
            '"events": [[0, "enter", "a"], [2.0, "leave", "a"], [2, "enter", "b"]]}')
    assert loads_trace(text) == Trace(Vec2(0, 0), (Vec2(1, 0), Vec2(2, 0), Vec2(3, 0)),
                                      ((0, "enter", "a"), (2, "leave", "a"), (2, "enter", "b")))


@pytest.mark.parametrize("events, message", [
    ('{"a": 1}', '"events" must be a list'),
    ('[[0, "enter"]]', r"events\[0\] must be \[tick"),
    ('["enter"]', r"events\[0\] must be \[tick"),
    ('[[0.5, "enter", "a"]]', "the tick must be a whole number"),
    ('[[true, "enter", "a"]]', "the tick must be a whole number"),
    ('[["0", "enter", "a"]]', "the tick must be a whole number"),
    ('[[-1, "enter", "a"]]', "tick -1 is not one of the trace's 2 ticks"),
    ('[[2, "enter", "a"]]', "tick 2 is not one of the trace's 2 ticks"),
    ('[[1, "enter", "a"], [0, "leave", "a"]]', r"events\[1\]: tick 0 comes after tick 1"),
    ('[[0, "exit", "a"]]', 'the event must be "enter" or "leave"'),
    ('[[0, "enter", 7]]', "the object id must be a string"),
])
def test_bad_events_are_refused_with_a_one_line_message(events, message):
    text = ('{"format": "level-editor.trace", "version": 1, "start": [0, 0], "positions": [[1, 0], [2, 0]], '
            f'"events": {events}}}')
    with pytest.raises(ReplayFileError, match=message) as e:
        loads_trace(text, "t.json")
    assert str(e.value).startswith("t.json: ") and "\n" not in str(e.value)
