"""Dense walls (issue 14, item 4): the pair search stays bounded per node, and no real passage is lost.

The rules that keep it bounded (see :func:`level_editor.core.checks.pieces.find_gaps`): two parts of one wall too close along
it for the player to fit in the loop they make are no passage; a segment lying on an earlier one of its wall is
dropped; a crowded piece keeps its nearest neighbours only; a spawn inside a closed wall is enclosed at once;
a wall's passages with itself beyond ten are counted in one warning. The 300,000-node walls themselves are in
tests/core/test_hostile_files.py.
"""
from __future__ import annotations

import math

import numpy as np

from level_editor.core.checks.outlines import level_outlines
from level_editor.core.checks.pieces import cut_into_pieces, find_gaps
from level_editor.core.checks.validation import PASSAGES_SHOWN, validate_level
from level_editor.core.level.model import Level, Pillar, Player, Wall
from level_editor.core.level.problems import WARNING
from tests.core.checks.test_passages import spawn_info


def level(*objects, spawn=(-500.0, -500.0)):
    return Level(player=Player(spawn=spawn, shape="circle", radius=12.0), objects=objects)


def narrow(lvl):
    return [p for p in validate_level(lvl) if p.severity == WARNING and ("too narrow" in p.message
                                                                        or "more narrow passages" in p.message)]


def zig_zag(x0: float, nodes: int, step: float = 0.5, height: float = 40.0, y0: float = 0.0) -> list:
    return [(x0 + k * step, y0 + height * (k % 2)) for k in range(nodes)]


def test_a_notch_too_small_for_the_player_is_no_passage_and_a_deep_slot_still_is():
    # A notch 10 px wide (14 between the chains, walls 4 px thick) and 12 px deep: the chain round it is 26 px
    # between the gap's ends, less than pi x (12 + 2): the player cannot be anywhere inside.
    notch = Wall("notch", [(0, 0), (50, 0), (50, -12), (64, -12), (64, 0), (200, 0)], 4)
    assert narrow(level(notch)) == []
    # The same slot 60 px deep: the chain round it is long enough, so its mouth is a passage as before.
    slot = Wall("slot", [(0, 0), (50, 0), (50, -60), (64, -60), (64, 0), (200, 0)], 4)
    (found,) = narrow(level(slot))
    assert found.object_id == "slot" and "within 10 px of itself" in found.message


def test_a_passage_between_a_dense_wall_and_a_pillar_is_found():
    # 4,000 nodes half a pixel apart, all overlapping (crowded), and a pillar 10 px above the zig-zag's top.
    dense = Wall("dense", zig_zag(0.0, 4000), 2)
    pillar = Pillar("pillar", (1000.0, 40.0 + 1.0 + 10.0 + 5.0), 5.0)
    found = narrow(level(dense, pillar))
    assert len(found) == 1 and "gap of 10 px to pillar" in found[0].message, [str(p) for p in found]
    assert narrow(level(dense)) == []  # on its own the dense wall leaves no room anywhere


def test_a_dense_wall_under_a_straight_wall_leaves_their_corridor():
    # A zig-zag of 3,000 nodes and a straight wall above it, 20 px apart between their surfaces: one corridor.
    # (Two crowded walls facing each other are the one case the nearest-neighbours bound may miss: see find_gaps.)
    low = Wall("low", zig_zag(0.0, 3000), 2)
    high = Wall("high", [(0.0, 40.0 + 2.0 + 20.0), (1500.0, 40.0 + 2.0 + 20.0)], 2)
    found = narrow(level(low, high))
    assert len(found) == 1 and "gap of 20 px to high" in found[0].message, [str(p) for p in found]


def test_a_chain_running_back_and_forth_on_one_line_is_cut_into_its_segments_once():
    points = [(5.0 * (k % 20 if k % 20 < 10 else 20 - k % 20), 0.0) for k in range(2001)]
    pieces = cut_into_pieces(level_outlines(level(Wall("line", points, 4))))
    # 2,000 segments: each run of 10 is one straight segment, and every run back lies on the first.
    assert len(pieces) == 1 and pieces.seq.tolist() == [0]
    # ... and a wall beside it still leaves its passage.
    found = narrow(level(Wall("line", points, 4), Wall("beside", [(0, 20), (45, 20)], 4)))
    assert len(found) == 1 and "gap of 16 px to beside" in found[0].message, [str(p) for p in found]


def test_the_gaps_of_a_dense_wall_stay_a_few_per_segment():
    # Every node within a pixel of dozens of others: pairing them all would be about 100 pairs per node.
    nodes = 20_000
    pieces = cut_into_pieces(level_outlines(level(Wall("dense", zig_zag(0.0, nodes), 2))))
    gaps = find_gaps(pieces, 24.0, room=12.0 + pieces.radius)
    assert len(gaps.i) <= 8 * nodes
    assert np.all(gaps.i < gaps.j)
    assert np.allclose(np.hypot(*(gaps.ends[:, 1] - gaps.ends[:, 0]).T) - 2.0, gaps.gap)


def test_a_spawn_inside_a_closed_wall_of_many_nodes_is_enclosed_and_outside_it_open():
    ring = [(1000 * math.cos(2 * math.pi * k / 5000), 1000 * math.sin(2 * math.pi * k / 5000)) for k in range(5000)]
    assert "enclosed" in spawn_info(level(Wall("ring", ring, 4, closed=True), spawn=(10.0, 20.0)))
    assert "open space" in spawn_info(level(Wall("ring", ring, 4, closed=True), spawn=(1500.0, 0.0)))
    # The same chain left open, with a door of 100 px between its ends: open.
    door = ring[25:-25]
    assert "open space" in spawn_info(level(Wall("ring", door, 4), spawn=(10.0, 20.0)))


def test_a_wall_with_many_narrow_passages_with_itself_reports_ten_and_counts_the_rest():
    # 15 slots 10 px wide (14 between the chains, 4 px thick) and 60 px deep, 100 px apart along one wall.
    points = [(0.0, 0.0)]
    for k in range(15):
        x = 100.0 + 114.0 * k
        points += [(x, 0.0), (x, -60.0), (x + 14.0, -60.0), (x + 14.0, 0.0)]
    points.append((points[-1][0] + 100.0, 0.0))
    found = narrow(level(Wall("slots", points, 4)))
    assert len(found) == PASSAGES_SHOWN + 1, [str(p) for p in found]
    assert all("within 10 px of itself" in p.message for p in found[:PASSAGES_SHOWN])
    assert found[-1].message.startswith("5 more narrow passages within this wall, the next near (")
