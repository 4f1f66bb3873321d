"""The book's overlap examples ("2D Game Collision Detection", seed 002) as tests,
plus touching, degenerate and parallel cases and the symmetry of ``overlaps``.

The book draws y up and turns positive angles counterclockwise; this project
has y down and turns +x towards +y. The rotation formula is the same, so
every number in the book's asserts carries over unchanged.
"""
from __future__ import annotations

import itertools

import pytest

from level_editor.core.collision.overlap import SHAPE_KINDS, overlaps
from level_editor.core.collision.shapes import Capsule, Circle, Line, OrientedRect, Rect, Segment, Vec2

V = Vec2

# (section, a, b, expected) in the book's own argument order.
BOOK_EXAMPLES = [
    # Rectangle-Rectangle Collision
    ("rect-rect a b", Rect(V(1, 1), V(4, 4)), Rect(V(2, 2), V(5, 5)), True),
    ("rect-rect b c", Rect(V(2, 2), V(5, 5)), Rect(V(6, 4), V(4, 2)), True),
    ("rect-rect a c", Rect(V(1, 1), V(4, 4)), Rect(V(6, 4), V(4, 2)), False),
    # Circle-Circle Collision
    ("circle-circle a b", Circle(V(4, 4), 2), Circle(V(7, 4), 2), True),
    ("circle-circle b c", Circle(V(7, 4), 2), Circle(V(10, 4), 2), True),
    ("circle-circle a c", Circle(V(4, 4), 2), Circle(V(10, 4), 2), False),
    # Point-Point Collision
    ("point-point a b", V(2, 3), V(2, 3), True),
    ("point-point a c", V(2, 3), V(3, 4), False),
    ("point-point b c", V(2, 3), V(3, 4), False),
    # Line-Line Collision
    ("line-line l1 l2", Line(V(3, 5), V(5, -1)), Line(V(3, 5), V(5, 2)), True),
    ("line-line l1 l3", Line(V(3, 5), V(5, -1)), Line(V(3, 2), V(5, 2)), True),
    ("line-line l2 l3", Line(V(3, 5), V(5, 2)), Line(V(3, 2), V(5, 2)), False),
    ("line-line l1 l4", Line(V(3, 5), V(5, -1)), Line(V(8, 4), V(5, -1)), True),
    # Shapes / Line: two lines through the same base point cross there
    ("line-line shared base", Line(V(3, 3), V(7, -2)), Line(V(3, 3), V(3, 5)), True),
    # Line-Segment-Line-Segment Collision (also the Line Segment section's figure)
    ("segment-segment", Segment(V(3, 4), V(11, 1)), Segment(V(8, 4), V(11, 7)), False),
    # Oriented-Rectangle-Oriented-Rectangle Collision
    ("oriented_rect-oriented_rect", OrientedRect(V(3, 5), V(1, 3), 15),
     OrientedRect(V(10, 5), V(2, 2), -15), False),
    # Circle-Point Collision
    ("circle-point p1", Circle(V(6, 4), 3), V(8, 3), True),
    ("circle-point p2", Circle(V(6, 4), 3), V(11, 7), False),
    # Circle-Line Collision
    ("circle-line", Circle(V(6, 3), 2), Line(V(4, 7), V(5, -1)), False),
    # Circle-Line-Segment Collision
    ("circle-segment", Circle(V(4, 4), 3), Segment(V(8, 6), V(13, 6)), False),
    # Circle-Rectangle Collision (the book passes the rectangle first)
    ("rect-circle c1", Rect(V(3, 2), V(6, 4)), Circle(V(5, 4), 1), True),
    ("rect-circle c2", Rect(V(3, 2), V(6, 4)), Circle(V(7, 8), 1), False),
    # Circle-Oriented-Rectangle Collision
    ("circle-oriented_rect", Circle(V(5, 7), 2), OrientedRect(V(5, 4), V(3, 2), 30), True),
    # Rectangle-Point Collision
    ("point-rect p1", V(4, 5), Rect(V(3, 2), V(6, 4)), True),
    ("point-rect p2", V(11, 4), Rect(V(3, 2), V(6, 4)), False),
    # Rectangle-Line Collision
    ("line-rect", Line(V(6, 8), V(2, -3)), Rect(V(3, 2), V(6, 4)), True),
    # Rectangle-Line-Segment Collision
    ("rect-segment", Rect(V(3, 2), V(6, 4)), Segment(V(6, 8), V(10, 2)), True),
    # Rectangle-Oriented-Rectangle Collision
    ("oriented_rect-rect", OrientedRect(V(10, 4), V(4, 2), 25), Rect(V(1, 5), V(3, 3)), False),
    # Point-Line Collision
    ("line-point", Line(V(3, 7), V(7, -2)), V(5, 3), False),
    # Point-Line-Segment Collision
    ("point-segment", V(1, 4), Segment(V(6, 6), V(13, 4)), False),
    # Point-Oriented-Rectangle Collision
    ("oriented_rect-point a", OrientedRect(V(5, 4), V(3, 2), 30), V(6, 5), True),
    ("oriented_rect-point b", OrientedRect(V(5, 4), V(3, 2), 30), V(10, 6), False),
    # Line-Line-Segment Collision
    ("line-segment", Line(V(3, 4), V(4, -2)), Segment(V(8, 4), V(11, 7)), False),
    # Line-Oriented-Rectangle Collision
    ("line-oriented_rect", Line(V(7, 3), V(2, -1)), OrientedRect(V(5, 4), V(3, 2), 30), True),
    # Line-Segment-Oriented-Rectangle Collision
    ("oriented_rect-segment", OrientedRect(V(5, 4), V(3, 2), 30), Segment(V(1, 8), V(7, 5)), True),
]


@pytest.mark.parametrize("name,a,b,expected", BOOK_EXAMPLES, ids=[e[0] for e in BOOK_EXAMPLES])
def test_book_example(name, a, b, expected):
    assert overlaps(a, b) is expected


@pytest.mark.parametrize("name,a,b,expected", BOOK_EXAMPLES, ids=[e[0] for e in BOOK_EXAMPLES])
def test_book_example_in_the_other_order(name, a, b, expected):
    assert overlaps(b, a) is expected


def test_book_examples_cover_all_21_pairs_of_the_six_shapes():
    covered = {frozenset((type(a), type(b))) for _, a, b, _ in BOOK_EXAMPLES}
    six = [Vec2, Line, Segment, Circle, Rect, OrientedRect]
    assert covered == {frozenset(p) for p in itertools.combinations_with_replacement(six, 2)}


def test_a_point_behaves_as_a_circle_of_radius_zero():
    # Circle-Point Collision: "replacing the points with circles having radius
    # zero ... would yield the same results".
    c = Circle(V(6, 4), 3)
    for p in (V(8, 3), V(11, 7), V(9, 4), V(6, 1)):
        assert overlaps(c, p) is overlaps(c, Circle(p, 0))


# ---------------------------------------------------------------------------
# Touching counts (the book's <=)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("a,b", [
    (Rect(V(0, 0), V(2, 2)), Rect(V(2, 0), V(2, 2))),           # shared edge
    (Rect(V(0, 0), V(2, 2)), Rect(V(2, 2), V(2, 2))),           # shared corner
    (Circle(V(0, 0), 2), Circle(V(4, 0), 2)),                   # one point
    (Circle(V(0, 0), 1), Rect(V(1, -5), V(3, 10))),
    (Circle(V(0, 0), 5), Rect(V(3, 4), V(1, 1))),               # at a corner
    (V(3, 2), Rect(V(3, 2), V(6, 4))),                          # the origin corner
    (V(9, 6), Rect(V(3, 2), V(6, 4))),                          # the far corner
    (V(3, 0), Circle(V(0, 0), 3)),
    (Capsule(V(0, 0), V(10, 0), 2), Capsule(V(0, 4), V(10, 4), 2)),
    (Capsule(V(0, 0), V(10, 0), 2), Circle(V(13, 4), 3)),       # on the round cap
    (Capsule(V(0, 0), V(10, 0), 1), Rect(V(-5, 1), V(20, 3))),  # along the side
    (OrientedRect(V(0, 0), V(1, 1), 0), OrientedRect(V(2, 0), V(1, 1), 180)),
    (Segment(V(0, 0), V(2, 0)), Segment(V(2, 0), V(2, 5))),     # end on end
    (Line(V(0, 3), V(1, 0)), Circle(V(0, 0), 3)),               # tangent
])
def test_touching_counts_as_overlapping(a, b):
    assert overlaps(a, b) is True
    assert overlaps(b, a) is True


def test_the_smallest_gap_does_not_overlap():
    gap = 2.0 ** -30
    assert overlaps(Rect(V(0, 0), V(2, 2)), Rect(V(2 + gap, 0), V(2, 2))) is False
    assert overlaps(Circle(V(0, 0), 2), Circle(V(4 + gap, 0), 2)) is False
    assert overlaps(Capsule(V(0, 0), V(10, 0), 2), Capsule(V(0, 4 + gap), V(10, 4 + gap), 2)) is False


def test_oriented_rect_turned_by_right_angles_is_exact():
    # cos(90 degrees) is not 0 in floating point; the core special-cases
    # quarter turns so these touches stay exact.
    box = Rect(V(0, 0), V(2, 2))
    for rotation in (90, 180, 270, -90, 450):
        turned = OrientedRect(V(4, 1), V(1, 2) if rotation % 180 else V(2, 1), rotation)
        assert overlaps(box, turned) is True
        assert overlaps(turned, Circle(V(0, 1), 2)) is True
        moved = OrientedRect(V(4 + 2.0 ** -40, 1), turned.half_extents, rotation)
        assert overlaps(box, moved) is False


def test_oriented_rect_agrees_with_rect_when_not_turned():
    r = Rect(V(1, 2), V(4, 6))
    o = OrientedRect(V(3, 5), V(2, 3), 0)
    probes = [V(1, 2), V(5, 8), V(0.9, 5), Circle(V(7, 5), 2), Segment(V(-1, 0), V(0.5, 2.5)),
              Line(V(0, 0), V(1, 1)), Capsule(V(6, 9), V(9, 12), 1.5), Rect(V(5, 8), V(1, 1))]
    for probe in probes:
        assert overlaps(r, probe) is overlaps(o, probe)


def test_oriented_rect_turns_positive_x_towards_positive_y():
    # A long thin box along x, turned by +30 degrees, points down-right on
    # screen (y down): its far end reaches below the x axis, not above.
    o = OrientedRect(V(0, 0), V(10, 0.5), 30)
    assert overlaps(o, V(8, 4.5)) is True
    assert overlaps(o, V(8, -4.5)) is False


# ---------------------------------------------------------------------------
# Degenerate shapes
# ---------------------------------------------------------------------------

def test_zero_length_segment_is_a_point():
    dot = Segment(V(2, 1), V(2, 1))
    assert overlaps(dot, V(2, 1)) is True
    assert overlaps(dot, V(2, 1.5)) is False
    assert overlaps(dot, Segment(V(0, 0), V(4, 2))) is True        # on it
    assert overlaps(dot, Segment(V(0, 0), V(8, 8))) is False        # its bounding box, not on it
    assert overlaps(dot, Segment(V(2, 1), V(2, 1))) is True
    assert overlaps(dot, Segment(V(3, 1), V(3, 1))) is False
    assert overlaps(dot, Rect(V(0, 0), V(2, 1))) is True
    assert overlaps(dot, Rect(V(3, 0), V(2, 1))) is False
    assert overlaps(dot, Line(V(0, 0), V(2, 1))) is True
    assert overlaps(dot, Line(V(0, 0), V(1, 1))) is False
    assert overlaps(dot, OrientedRect(V(0, 0), V(3, 1), 90)) is False
    assert overlaps(dot, OrientedRect(V(0, 0), V(3, 1), 30)) is True


def test_zero_length_capsule_is_a_circle():
    blob = Capsule(V(5, 5), V(5, 5), 2)
    for other in (V(5, 7), V(5, 7.01), Rect(V(7, 0), V(3, 10)), Rect(V(7.1, 0), V(3, 10)),
                  Segment(V(0, 3), V(10, 3)), Capsule(V(0, 0), V(10, 0), 3),
                  OrientedRect(V(9, 5), V(2, 1), 0), Line(V(0, 8), V(1, 0))):
        assert overlaps(blob, other) is overlaps(Circle(V(5, 5), 2), other)


def test_zero_direction_line_is_its_base_point():
    still = Line(V(2, 1), V(0, 0))
    assert overlaps(still, V(2, 1)) is True
    assert overlaps(still, V(3, 1)) is False
    assert overlaps(still, Line(V(0, 0), V(2, 1))) is True
    assert overlaps(still, Line(V(0, 0), V(1, 1))) is False
    assert overlaps(still, Line(V(2, 1), V(0, 0))) is True
    assert overlaps(still, Segment(V(0, 0), V(4, 2))) is True
    assert overlaps(still, Circle(V(0, 0), 2)) is False
    assert overlaps(still, Rect(V(2, 1), V(0, 0))) is True
    assert overlaps(still, OrientedRect(V(2, 0), V(1, 1), 45)) is True
    assert overlaps(still, Capsule(V(0, 0), V(0, 5), 2)) is True


def test_zero_size_rect_is_a_point_or_a_segment():
    dot = Rect(V(1, 1), V(0, 0))
    bar = Rect(V(1, 1), V(4, 0))
    assert overlaps(dot, V(1, 1)) is True
    assert overlaps(dot, dot) is True
    assert overlaps(dot, Rect(V(1, 1.5), V(0, 0))) is False
    assert overlaps(bar, V(3, 1)) is True
    assert overlaps(bar, V(3, 1.25)) is False
    assert overlaps(bar, Segment(V(3, 0), V(3, 5))) is True
    assert overlaps(bar, Segment(V(6, 0), V(6, 5))) is False
    assert overlaps(bar, Line(V(0, 0), V(1, 1))) is True
    assert overlaps(bar, Circle(V(3, 2), 1)) is True
    assert overlaps(bar, OrientedRect(V(3, 3), V(2, 1), 90)) is True
    assert overlaps(bar, Capsule(V(0, 3), V(9, 3), 1.5)) is False


def test_zero_radius_circle_and_capsule():
    assert overlaps(Circle(V(1, 1), 0), V(1, 1)) is True
    assert overlaps(Circle(V(1, 1), 0), Circle(V(1, 1), 0)) is True
    assert overlaps(Circle(V(1, 1), 0), Circle(V(2, 1), 0)) is False
    wire = Capsule(V(0, 0), V(4, 2), 0)
    assert overlaps(wire, V(2, 1)) is True
    assert overlaps(wire, Segment(V(0, 4), V(4, 0))) is True
    assert overlaps(wire, Segment(V(0, 4), V(1, 3))) is False


def test_zero_size_oriented_rect_is_its_centre():
    dot = OrientedRect(V(3, 3), V(0, 0), 37)
    assert overlaps(dot, V(3, 3)) is True
    assert overlaps(dot, Circle(V(3, 5), 2)) is True
    assert overlaps(dot, Circle(V(3, 5.5), 2)) is False


# ---------------------------------------------------------------------------
# Parallel and collinear
# ---------------------------------------------------------------------------

def test_parallel_lines_meet_only_when_equivalent():
    base = Line(V(0, 0), V(2, 1))
    assert overlaps(base, Line(V(4, 2), V(-4, -2))) is True     # same line, other base and sense
    assert overlaps(base, Line(V(0, 1), V(2, 1))) is False
    assert overlaps(base, Line(V(0, 1), V(6, 3))) is False


def test_nearly_parallel_lines_still_cross():
    # Far away, but they do cross: only exactly parallel lines can miss.
    assert overlaps(Line(V(0, 0), V(1, 0)), Line(V(0, 1), V(1, 1e-9))) is True


def test_lines_with_tiny_or_huge_directions():
    tiny = Line(V(0, 0), V(1e-300, 1e-300))
    huge = Line(V(0, 1), V(1e300, 1e300))
    assert overlaps(tiny, huge) is False                          # parallel, distinct
    assert overlaps(tiny, V(5, 5)) is True
    assert overlaps(tiny, Circle(V(0, 2), 1.5)) is True
    assert overlaps(tiny, Circle(V(0, 2), 1.4)) is False
    assert overlaps(huge, Rect(V(0, 0), V(1, 0.5))) is False
    assert overlaps(huge, Rect(V(0, 0), V(1, 1))) is True


def test_collinear_segments():
    s = Segment(V(0, 0), V(4, 2))
    assert overlaps(s, Segment(V(2, 1), V(8, 4))) is True         # overlapping
    assert overlaps(s, Segment(V(8, 4), V(6, 3))) is False        # same line, apart
    assert overlaps(s, Segment(V(1, 0.5), V(3, 1.5))) is True     # inside
    assert overlaps(s, Segment(V(-2, -1), V(10, 5))) is True      # covering
    assert overlaps(Segment(V(0, 0), V(0, 3)), Segment(V(0, 4), V(0, 9))) is False


def test_parallel_segments_apart_and_segment_along_a_line():
    assert overlaps(Segment(V(0, 0), V(4, 0)), Segment(V(0, 1), V(4, 1))) is False
    assert overlaps(Line(V(-3, 0), V(1, 0)), Segment(V(0, 0), V(4, 0))) is True
    assert overlaps(Line(V(-3, 1), V(1, 0)), Segment(V(0, 0), V(4, 0))) is False


def test_line_along_a_rect_edge_and_a_capsule():
    assert overlaps(Line(V(0, 2), V(1, 0)), Rect(V(3, 2), V(6, 4))) is True
    assert overlaps(Line(V(0, 1.9), V(1, 0)), Rect(V(3, 2), V(6, 4))) is False
    assert overlaps(Line(V(0, 3), V(1, 0)), Capsule(V(0, 0), V(5, 0), 3)) is True
    assert overlaps(Line(V(0, 3.5), V(1, 0)), Capsule(V(0, 0), V(5, 0), 3)) is False


def test_capsules_side_by_side_and_end_to_end():
    wall = Capsule(V(0, 0), V(10, 0), 1)
    assert overlaps(wall, Capsule(V(0, 2), V(10, 2), 1)) is True
    assert overlaps(wall, Capsule(V(0, 2.5), V(10, 2.5), 1)) is False
    assert overlaps(wall, Capsule(V(12, 0), V(20, 0), 1)) is True
    assert overlaps(wall, Capsule(V(12.5, 0), V(20, 0), 1)) is False


def test_capsule_against_rect_near_a_corner():
    box = Rect(V(0, 0), V(4, 4))
    # The capsule's round end reaches the corner diagonally: 3-4-5.
    assert overlaps(box, Capsule(V(7, 8), V(7, 20), 5)) is True
    assert overlaps(box, Capsule(V(7, 8), V(7, 20), 4.99)) is False
    # A wall passing the corner diagonally.
    assert overlaps(box, Capsule(V(0, 10), V(10, 0), 2 ** 0.5)) is True
    assert overlaps(box, Capsule(V(0, 10), V(10, 0), 1.41)) is False


# ---------------------------------------------------------------------------
# Either order, and bad input
# ---------------------------------------------------------------------------

SAMPLES = [
    V(3, 3), Line(V(0, 6), V(1, -1)), Segment(V(0, 0), V(6, 6)), Circle(V(4, 2), 2),
    Rect(V(2, 2), V(3, 3)), OrientedRect(V(3, 4), V(2, 1), 30), Capsule(V(5, 0), V(5, 9), 1),
    V(40, 40), Circle(V(-20, 0), 1), Rect(V(30, -5), V(2, 2)), OrientedRect(V(0, 30), V(1, 1), 10),
    Capsule(V(50, 50), V(60, 50), 2), Segment(V(-10, -10), V(-9, -12)), Line(V(100, 0), V(0, 1)),
]


def test_overlaps_is_symmetric_for_every_pair_of_samples():
    for a, b in itertools.product(SAMPLES, repeat=2):
        assert overlaps(a, b) is overlaps(b, a), (a, b)


def test_samples_give_both_answers_for_every_pair_of_kinds():
    # Guards the symmetry test above against samples that never overlap.
    seen = {}
    for a, b in itertools.product(SAMPLES, repeat=2):
        seen.setdefault(frozenset((type(a), type(b))), set()).add(overlaps(a, b))
    assert len(seen) == 28
    assert sum(answers == {True, False} for answers in seen.values()) >= 20


def test_every_ordered_pair_of_kinds_has_a_test():
    one_of_each = {type(s): s for s in SAMPLES}
    assert set(one_of_each) == set(SHAPE_KINDS)
    for (ka, a), (kb, b) in itertools.product(one_of_each.items(), repeat=2):
        assert overlaps(a, b) in (True, False), (ka, kb)  # answered: no pair is missing from the dispatch


def test_a_subclass_of_a_shape_is_accepted():
    class Pillar(Circle):
        __slots__ = ()

    assert overlaps(Pillar(V(0, 0), 1), Rect(V(1, 0), V(1, 1))) is True
    assert overlaps(Rect(V(2, 0), V(1, 1)), Pillar(V(0, 0), 1)) is False


@pytest.mark.parametrize("bad", [(1, 2), [1, 2], None, 3.0, "circle", object()])
def test_unsupported_input_raises_a_type_error_naming_the_types(bad):
    with pytest.raises(TypeError) as info:
        overlaps(Circle(V(0, 0), 1), bad)
    assert type(bad).__name__ in str(info.value)
    assert "Circle" in str(info.value)
    with pytest.raises(TypeError) as info:
        overlaps(bad, Rect(V(0, 0), V(1, 1)))
    assert type(bad).__name__ in str(info.value)
    assert "Rect" in str(info.value)


def test_answers_are_plain_bools():
    for a, b in itertools.product(SAMPLES[:7], repeat=2):
        assert type(overlaps(a, b)) is bool
