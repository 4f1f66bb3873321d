"""No exception escapes the checks (issue 14): any level built in code, with any floats, gets problems and hulls.

Numbers the geometry code cannot take (not finite, beyond level_editor.core.level.limits, negative sizes) make a problem of
the object that holds them, in the designer's words; the rest of the level is still checked.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from level_editor.core.checks.check import check_level
from level_editor.core.level.limits import MAX_COORDINATE
from level_editor.core.level.model import Box, Level, OrientedBox, Pillar, Player, Tiles, Wall
from level_editor.core.level.problems import ERROR

ANY_FLOAT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e308, max_value=1e308),
    st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 2.2e-308, 1e-300, 1e7, 1e7 + 1, -1e7 - 1, 1.7e308, -1.7e308,
                     math.inf, -math.inf, math.nan]),
    st.floats(min_value=-1000, max_value=1000),
)
POINT = st.tuples(ANY_FLOAT, ANY_FLOAT)


@st.composite
def objects(draw, k):
    kind = draw(st.sampled_from(["wall", "box", "obox", "pillar", "tiles"]))
    oid = f"{kind}-{k}"
    if kind == "wall":
        return Wall(oid, draw(st.lists(POINT, min_size=1, max_size=6)), draw(ANY_FLOAT), closed=draw(st.booleans()))
    if kind == "box":
        return Box(oid, draw(POINT), draw(POINT))
    if kind == "obox":
        return OrientedBox(oid, draw(POINT), draw(POINT), draw(ANY_FLOAT))
    if kind == "pillar":
        return Pillar(oid, draw(POINT), draw(ANY_FLOAT))
    return Tiles(oid, draw(POINT), draw(ANY_FLOAT), ("#.#", "##."))


@st.composite
def levels(draw):
    count = draw(st.integers(min_value=1, max_value=5))
    objs = [draw(objects(k)) for k in range(count)]
    shape = draw(st.sampled_from(["circle", "box"]))
    player = Player(spawn=draw(POINT), shape=shape, radius=draw(ANY_FLOAT), size=draw(POINT))
    return Level(player=player, objects=objs)


def sound(v: float, size: bool = False) -> bool:
    return math.isfinite(v) and abs(v) <= MAX_COORDINATE and (not size or v >= 0)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels())
def test_any_level_built_in_code_is_checked_without_an_exception(lvl):
    result = check_level(lvl, with_hulls=True)
    assert result.problems, "at least the spawn's information"
    for p in result.problems:
        assert p.message.strip()
        assert "internal" not in p.message.lower()
        assert "Traceback" not in p.message and "cannot be measured" not in p.message
    assert isinstance(result.hulls, Mapping)
    json_ready = all(isinstance(v, (int, float)) and math.isfinite(v)
                     for entry in result.hulls.values() for v in entry["aabb"])
    assert json_ready


@settings(max_examples=200, deadline=None)
@given(x=ANY_FLOAT, y=ANY_FLOAT, w=ANY_FLOAT, h=ANY_FLOAT)
def test_a_box_with_unusable_numbers_is_an_error_of_that_box_and_the_rest_is_still_checked(x, y, w, h):
    bad = Box("crate", (x, y), (w, h))
    good = (Pillar("a", (0, 0), 10), Pillar("b", (30, 0), 10))  # a 10 px gap: a warning
    result = check_level(Level(player=Player(spawn=(-500, -500)), objects=(bad,) + good), with_hulls=True)
    usable = sound(x) and sound(y) and sound(w, size=True) and sound(h, size=True)
    crate_errors = [p for p in result.problems if p.object_id == "crate" and p.severity == ERROR]
    if not usable:
        assert len(crate_errors) == 1 and "crate" not in result.hulls
        assert any(p.object_id == "a" and "gap" in p.message for p in result.problems)
    assert {"a", "b"} <= set(result.hulls)


def test_unusable_numbers_are_named_in_the_designer_s_words():
    lvl = Level(player=Player(spawn=(0, 0)), objects=(
        Wall("w", [(0, 0), (math.nan, 5)], 4),
        Box("far", (1e308, 0), (10, 10)),
        Box("over", (1e7, 1e7), (1.7e308, 1.7e308)),
        Pillar("p", (0, 0), -3),
        Tiles("t", (0, 0), 1e7, ("##",)),
    ))
    result = check_level(lvl, with_hulls=True)
    by_id = {p.object_id: p.message for p in result.problems if p.severity == ERROR}
    assert "node 2 is not a finite number" in by_id["w"]
    assert "beyond the largest coordinate" in by_id["far"]
    assert "larger than the largest size" in by_id["over"]
    assert "negative" in by_id["p"]
    assert "spans" in by_id["t"]
    assert set(result.hulls) == set()


@pytest.mark.parametrize("cell", [1e308, 1.7976931348623157e308, -1e308, math.inf, math.nan])
def test_a_tile_cell_near_the_largest_float_is_told_without_an_overflow(cell):
    lvl = Level(player=Player(spawn=(0, 0), radius=5), objects=(Tiles("t", (100, 100), cell, ("##", "#.")),))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        result = check_level(lvl, with_hulls=True)
    by_id = {p.object_id: p.message for p in result.problems if p.severity == ERROR}
    assert "its cell size" in by_id["t"] and "cannot be measured" not in by_id["t"]


def test_a_player_with_unusable_numbers_is_an_error_of_the_player():
    lvl = Level(player=Player(spawn=(math.inf, 0)), objects=(Box("b", (0, 0), (10, 10)),))
    result = check_level(lvl, with_hulls=True)
    assert [p.object_id for p in result.problems if p.severity == ERROR] == ["player"]
    assert "b" in result.hulls
