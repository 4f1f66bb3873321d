"""Keys and mouse turned into the wished velocity the play-test records."""
from __future__ import annotations

import math

import pytest

from level_editor.core.collision.shapes import Vec2
from level_editor.core.playtest.steering import key_velocity, seek_velocity


@pytest.mark.parametrize("right,down,expected", [
    (1, 0, (240, 0)), (-1, 0, (-240, 0)), (0, 1, (0, 240)), (0, -1, (0, -240)), (0, 0, (0, 0)),
])
def test_straight_keys_move_at_the_player_speed(right, down, expected):
    assert key_velocity(right, down, 240) == Vec2(*map(float, expected))


@pytest.mark.parametrize("right,down", [(1, 1), (1, -1), (-1, 1), (-1, -1)])
def test_diagonals_are_normalised(right, down):
    v = key_velocity(right, down, 240)
    assert v.length() == pytest.approx(240)
    assert v.x == pytest.approx(right * 240 / math.sqrt(2)) and v.y == pytest.approx(down * 240 / math.sqrt(2))


def test_seek_runs_at_full_speed_towards_a_far_target():
    v = seek_velocity((10, 10), (10 + 300, 10 + 400), 240, 1 / 60)
    assert v.x == pytest.approx(240 * 0.6) and v.y == pytest.approx(240 * 0.8)


def test_seek_lands_on_a_near_target_in_one_tick():
    dt = 1 / 60
    v = seek_velocity((0, 0), (3, -2), 240, dt)
    assert (v.x * dt, v.y * dt) == pytest.approx((3, -2))
    assert v.length() < 240


def test_seek_at_the_target_or_without_speed_stands_still():
    assert seek_velocity((5, 5), (5, 5), 240, 1 / 60) == Vec2(0, 0)
    assert seek_velocity((0, 0), (50, 0), 0, 1 / 60) == Vec2(0, 0)
