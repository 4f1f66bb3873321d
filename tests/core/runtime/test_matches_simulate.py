"""Player.step fed the ticks of a version 2 replay gives the trace `level-editor simulate` writes for it, bit for bit:
on every sample level, with runs into walls, runs through the areas, and generated inputs."""
from __future__ import annotations

import json
import math
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from level_editor.core.runtime import Player, load_level
from tests.core.runtime.helpers import SAMPLE_LEVELS, play, simulate

LEVEL_IDS = [p.stem for p in SAMPLE_LEVELS]
#: The sample levels whose player is top-down: steered towards a point, it goes there (a platformer's does not fly).
TOP_DOWN_LEVELS = [p for p in SAMPLE_LEVELS if load_level(p).model.player.controller == "top_down"]


def held(*runs):
    """Inputs held for a number of ticks each: ``held(((1, 0, 0), 30), ((0, 1, 1), 10))``."""
    return [tick for tick, count in runs for _ in range(count)]


#: Runs that end against walls in every sample level (each is a few hundred pixels across at most 240 px/s).
INTO_WALLS = {
    "straight": held(((1, 0, 0), 240), ((0, 1, 0), 240), ((-1, 0, 1), 240), ((0, -1, 0), 240)),
    "diagonal": held(((1, 1, 0), 200), ((-1, 0.5, 0), 200), ((0.3, -1, 1), 200), ((-0.7, -0.7, 0), 200)),
    "back and forth": held(*[(((-1) ** n, 0.25 * (n % 3), n % 2), 7 + n) for n in range(40)]),
    "slow": held(((0.01, -0.003, 0), 120), ((-1e-9, 1, 0), 300), ((1, -0.5, 0), 300)),
}


def test_every_sample_level_is_covered():
    assert len(SAMPLE_LEVELS) >= 5
    assert "game_content" in LEVEL_IDS  # the one with areas


@pytest.mark.parametrize("run", sorted(INTO_WALLS))
@pytest.mark.parametrize("level_path", SAMPLE_LEVELS, ids=LEVEL_IDS)
def test_runs_into_walls_match_simulate(tmp_path, level_path, run):
    inputs = INTO_WALLS[run]
    ours, player = play(level_path, inputs)
    assert ours == simulate(level_path, inputs, tmp_path)
    assert player.tick == len(inputs)
    if run in ("straight", "diagonal") and level_path in TOP_DOWN_LEVELS:
        # long enough to cross any top-down sample level: they end against walls
        level = load_level(level_path)
        positions = [list(level.spawn)] + json.loads(ours)["positions"]
        wished = [math.hypot(mx, my) * level.model.player.speed / 60 for mx, my, _ in inputs]
        moved = [math.dist(a, b) for a, b in zip(positions, positions[1:])]
        assert sum(m < w - 1 for m, w in zip(moved, wished)) > 100


def steer_through_areas(level_path, ticks_per_area=300):
    """Inputs that walk the player into each area in turn (worked out while playing), and the player."""
    level = load_level(level_path)
    player = Player(level)
    areas = [o for o in level.objects if not o.solid and o.kind not in ("point", "image")]
    inputs = []
    for area in areas:
        if area.kind == "wall":  # a path: the middle of its first segment
            (ax, ay), (bx, by) = area.points[:2]
            target = ((ax + bx) / 2, (ay + by) / 2)
        else:
            x0, y0, x1, y1 = area.bounds
            target = ((x0 + x1) / 2, (y0 + y1) / 2)
        for _ in range(ticks_per_area):
            dx, dy = target[0] - player.position.x, target[1] - player.position.y
            length = math.hypot(dx, dy)
            if area.id in player.inside and length < 4:
                break
            tick = (dx / length, dy / length, 0) if length > 0 else (0, 0, 0)
            player.step(*tick)
            inputs.append(tick)
    return inputs, player, areas


@pytest.mark.parametrize("level_path", TOP_DOWN_LEVELS, ids=[p.stem for p in TOP_DOWN_LEVELS])
def test_walking_through_the_areas_matches_simulate(tmp_path, level_path):
    inputs, steered, areas = steer_through_areas(level_path)
    if not areas:
        assert inputs == [] and steered.events == []
        return
    ours, player = play(level_path, inputs)
    assert ours == simulate(level_path, inputs, tmp_path)
    assert player.events == steered.events
    entered = {object_id for _, what, object_id in player.events if what == "enter"}
    assert entered == {a.id for a in areas}, "the walk should pass through every area of the level"
    assert any(what == "leave" for _, what, _ in player.events)


def test_a_replay_started_elsewhere_matches_simulate(tmp_path):
    level_path = SAMPLE_LEVELS[LEVEL_IDS.index("game_content")]
    inputs = held(((1, 1, 0), 120), ((0, -1, 0), 60))
    start = (180.0, 100.0)  # inside the healing pool: entered at tick 0
    ours, player = play(level_path, inputs, start=start)
    assert ours == simulate(level_path, inputs, tmp_path, start=start)
    assert player.events[0] == (0, "enter", "healing-pool")


move = st.one_of(st.sampled_from([-1, 0, 1, -0.0]), st.floats(-1, 1, allow_nan=False))
tick = st.tuples(move, move, st.sampled_from([0, 1]))
runs = st.lists(st.tuples(tick, st.integers(1, 40)), min_size=1, max_size=20)


@settings(max_examples=int(os.environ.get("RUNTIME_EXAMPLES", 25)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(level_path=st.sampled_from(SAMPLE_LEVELS), runs=runs)
def test_generated_inputs_match_simulate(tmp_path, level_path, runs):
    inputs = held(*runs)
    ours, _ = play(level_path, inputs)
    assert ours == simulate(level_path, inputs, tmp_path)
