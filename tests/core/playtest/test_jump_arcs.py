"""Jump arcs: the controller's own jumps from the floor under a spot."""
from __future__ import annotations

import pytest

from level_editor.core.level.file_format import load_level
from level_editor.core.level.model import Box, Level, Player
from level_editor.core.playtest.jump_arcs import HIT, LANDED, floor_below, jump_arcs
from level_editor.core.playtest.platformer import Platformer
from tests.core.runtime.helpers import ROOT


def level(*objects, shape="box"):
    player = Player(spawn=(0, 0), shape=shape, size=(20, 30), radius=12, controller="platformer")
    return Level(player=player, objects=(Box("floor", (-500, 100), (1000, 20)), *objects))


@pytest.mark.parametrize("shape", ["box", "circle"])
def test_the_arcs_are_the_jumps_the_play_test_makes(shape):
    lv = level(shape=shape)
    standing, left, right = jump_arcs(lv, (0, -200))
    assert standing.start == floor_below(lv, (0, -200))
    assert all(a.ending == LANDED for a in (standing, left, right))
    assert standing.start.y - min(p.y for p in standing.points) == pytest.approx(80.0)
    assert {p.x for p in standing.points} == {0.0}
    assert right.points[-1].x == pytest.approx(-left.points[-1].x) == pytest.approx(240 * 0.8)
    # the very positions the play-test flies: a Platformer on the floor at full run speed, jump held
    body = Platformer(lv, start=right.start)
    body.vx = body.speed
    assert [tuple(body.step(1, 0, True)) for _ in right.points] == [tuple(p) for p in right.points]


def test_an_arc_that_meets_a_wall_stops_there():
    wall = Box("wall", (100, -300), (20, 380))
    standing, left, right = jump_arcs(level(wall), (0, 0))
    assert right.ending == HIT and right.points[-1].x == pytest.approx(100 - 10 - 1e-3, abs=1e-6)
    assert left.ending == LANDED


def test_a_ceiling_stops_the_arc_at_once():
    ceiling = Box("ceiling", (-500, 20), (1000, 10))
    standing = jump_arcs(level(ceiling), (0, 60))[0]
    assert standing.ending == HIT and standing.points[-1].y == pytest.approx(30 + 15 + 1e-3, abs=1e-6)


def test_no_floor_below_or_a_spot_inside_geometry_gives_no_arcs():
    assert jump_arcs(level(), (600, 0)) == []  # past the floor's end: nothing below
    assert jump_arcs(level(), (0, 110)) == []  # inside the floor


def test_the_sample_platformer_s_ledges_are_within_reach():
    lv = load_level(ROOT / "levels" / "platformer.json")
    standing, left, right = jump_arcs(lv, (600, 300))  # on ledge-1
    assert left.ending == right.ending == LANDED
    assert left.points[-1].y < standing.start.y  # up onto ledge-2
