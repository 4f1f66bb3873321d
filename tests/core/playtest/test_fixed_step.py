"""FixedStep: whole ticks from uneven frames, interpolation fraction, the clamp on long frames."""
from __future__ import annotations

import pytest

from level_editor.core.playtest.fixed_step import FixedStep

DT = 1 / 60


def test_sixty_frames_of_a_sixtieth_give_sixty_ticks_despite_float_sums():
    clock = FixedStep(DT)
    assert sum(clock.advance(DT) for _ in range(60)) == 60
    assert clock.alpha == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("fps", [30, 59.94, 75, 144, 240])
def test_any_frame_rate_runs_sixty_ticks_a_second(fps):
    clock = FixedStep(DT)
    frames = round(fps * 10)
    ticks = sum(clock.advance(1 / fps) for _ in range(frames))
    assert abs(ticks - 600) <= 1


def test_alpha_is_the_fraction_of_a_tick_left_over():
    clock = FixedStep(0.1)
    assert clock.advance(0.25) == 2
    assert clock.alpha == pytest.approx(0.5)
    assert clock.advance(0.03) == 0
    assert clock.alpha == pytest.approx(0.8)
    assert clock.advance(0.02) == 1
    assert clock.alpha == pytest.approx(0.0, abs=1e-9)


def test_a_long_stall_is_clamped_and_the_rest_dropped():
    clock = FixedStep(DT, max_ticks=5)
    assert clock.advance(2.0) == 5
    assert clock.dropped == pytest.approx(115 * DT)
    assert clock.accumulator < DT
    assert clock.advance(DT) == 1


def test_reset_forgets_the_leftover():
    clock = FixedStep(0.1)
    clock.advance(0.05)
    clock.reset()
    assert clock.accumulator == 0.0 and clock.alpha == 0.0


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf")])
def test_bad_tick_is_refused(bad):
    with pytest.raises(ValueError):
        FixedStep(bad)


@pytest.mark.parametrize("bad", [-0.1, float("nan"), float("inf")])
def test_bad_frame_time_is_refused(bad):
    with pytest.raises(ValueError):
        FixedStep(DT).advance(bad)
