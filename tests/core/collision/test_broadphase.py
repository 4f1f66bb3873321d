"""The broad phase: exact candidate sets, deterministic order, big colliders, cost independent of level size."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from level_editor.core.collision.broadphase import BroadPhase


def brute(bounds, q):
    x0, y0, x1, y1 = q
    return [i for i, b in enumerate(bounds) if b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3]]


box = st.builds(
    lambda x, y, w, h: (x, y, x + w, y + h),
    st.floats(-1e4, 1e4), st.floats(-1e4, 1e4),
    st.one_of(st.floats(0, 50), st.floats(0, 5e4)), st.one_of(st.floats(0, 50), st.floats(0, 5e4)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(box, max_size=60), st.lists(box, min_size=1, max_size=5))
def test_query_returns_exactly_the_overlapping_bounds_in_index_order(bounds, queries):
    grid = BroadPhase(bounds)
    for q in queries:
        assert grid.query(*q) == brute(bounds, q)


def test_touching_bounds_count():
    grid = BroadPhase([(0, 0, 10, 10)])
    assert grid.query(10, 10, 20, 20) == [0]
    assert grid.query(10.000001, 0, 20, 20) == []


def test_huge_colliders_do_not_blow_up_memory():
    bounds = [(i * 10.0, 0.0, i * 10.0 + 8, 8.0) for i in range(1000)]
    bounds.append((-1e7, -1.0, 1e7, 1.0))  # a wall 20 million px long
    grid = BroadPhase(bounds)
    assert grid.cell_count() < 3 * len(bounds)
    assert grid.query(5005, 0, 5006, 5) == [500, 1000]
    assert grid.query(-9e6, -5, -9e6, 5) == [1000]


def test_empty_world_and_bad_bounds():
    assert BroadPhase([]).query(0, 0, 1, 1) == []
    with pytest.raises(ValueError, match="non-finite"):
        BroadPhase([(0, 0, float("inf"), 1)])
    with pytest.raises(ValueError, match="inverted"):
        BroadPhase([(5, 0, 1, 1)])


def test_query_cost_does_not_grow_with_the_level():
    # The number of colliders a query looks at depends on the neighbourhood only.
    def looked_at(n):
        rng = random.Random(1)
        side = (n ** 0.5) * 40.0
        bounds = []
        for _ in range(n):
            x, y = rng.uniform(0, side), rng.uniform(0, side)
            bounds.append((x, y, x + rng.uniform(4, 30), y + rng.uniform(4, 30)))
        grid = BroadPhase(bounds)
        counts = []
        for _ in range(200):
            x, y = rng.uniform(0, side), rng.uniform(0, side)
            counts.append(len(grid.query(x, y, x + 40, y + 40)))
        return sum(counts) / len(counts), grid.level_count()

    small, levels_small = looked_at(100)
    big, levels_big = looked_at(20000)
    assert big < small * 2 + 2
    assert levels_big <= levels_small + 1
