"""Board geometry (RULES.md section 2): the engine's tables against step-by-step walks."""

from __future__ import annotations

import pytest
import rules_reference as ref

from sorry_lan.rules import HOME, START, Colour, location_name, parse_location, pawn_label
from sorry_lan.rules.board import (
    S1,
    SLIDE_AT,
    SLIDE_OWNER,
    backward,
    colour_pawns,
    forward,
    pawn_colour,
    safety_entry,
    slot,
    start_exit,
)

LOCATIONS = [*range(60), *range(S1, S1 + 5), HOME, START]


@pytest.mark.parametrize("colour", list(Colour))
def test_forward_and_backward_tables_match_a_step_by_step_walk(colour: Colour) -> None:
    for loc in LOCATIONS:
        for n in range(1, 13):
            want_f = ref.walk(colour, loc, n, True)
            want_b = ref.walk(colour, loc, n, False)
            assert forward(colour, loc, n) == (-1 if want_f is None else want_f), (loc, n)
            assert backward(colour, loc, n) == (-1 if want_b is None else want_b), (loc, n)


def test_sides_exits_and_safety_entries() -> None:
    assert [c.base for c in Colour] == [0, 15, 30, 45]
    assert [start_exit(c) for c in Colour] == [4, 19, 34, 49]
    assert [safety_entry(c) for c in Colour] == [2, 17, 32, 47]
    assert [c.partner for c in Colour] == [Colour.YELLOW, Colour.GREEN, Colour.RED, Colour.BLUE]


def test_safety_zone_then_home() -> None:
    for c in Colour:
        entry = safety_entry(c)
        assert [forward(c, entry, n) for n in range(1, 8)] == [60, 61, 62, 63, 64, HOME, -1]


def test_slides_two_per_side() -> None:
    assert len(SLIDE_AT) == 8
    for c in Colour:
        b = c.base
        assert SLIDE_AT[b + 1] == (c, b + 4, (b + 1, b + 2, b + 3, b + 4))
        assert SLIDE_AT[b + 9] == (c, b + 13, tuple(range(b + 9, b + 14)))
        assert SLIDE_OWNER[b + 1] == SLIDE_OWNER[b + 9] == c
    assert sum(o >= 0 for o in SLIDE_OWNER) == 8


def test_a_pawn_walks_64_squares_from_its_exit_to_home() -> None:
    for c in Colour:
        loc, steps = start_exit(c), 0
        while loc != HOME:
            loc = forward(c, loc, 1)
            steps += 1
            if steps == 58:
                assert loc == safety_entry(c)
        assert steps == 64


def test_backward_from_safety_leaves_it_and_never_reenters() -> None:
    assert backward(Colour.RED, S1 + 1, 4) == 0  # S2 -> S1 -> 2 -> 1 -> 0
    assert backward(Colour.BLUE, S1, 1) == 17
    for c in Colour:
        for loc in range(60):
            for n in range(1, 13):
                assert backward(c, loc, n) < 60


def test_start_and_home_do_not_move() -> None:
    for c in Colour:
        for n in range(1, 13):
            assert forward(c, START, n) == backward(c, START, n) == -1
            assert forward(c, HOME, n) == backward(c, HOME, n) == -1


def test_occupancy_slots_share_the_track_and_split_safety_by_colour() -> None:
    assert slot(Colour.RED, 10) == slot(Colour.BLUE, 10) == 10
    assert slot(Colour.RED, S1) != slot(Colour.BLUE, S1)
    assert slot(Colour.RED, HOME) == slot(Colour.RED, START) == -1


def test_location_names_round_trip() -> None:
    for loc in LOCATIONS:
        assert parse_location(location_name(loc)) == loc
    assert [location_name(x) for x in (0, 59, S1, S1 + 4, HOME, START)] == [
        "0", "59", "S1", "S5", "home", "start"
    ]  # fmt: skip
    assert parse_location(12) == 12
    assert parse_location(" Start ") == START


@pytest.mark.parametrize("bad", [60, -1, "S6", "s0", "60", "track", True, None, 1.5, ""])
def test_bad_locations_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        parse_location(bad)


def test_pawn_labels_and_colour_names() -> None:
    assert [pawn_label(p) for p in (0, 3, 4, 9, 15)] == ["R1", "R4", "B1", "Y2", "G4"]
    assert Colour.parse(" Yellow") == Colour.YELLOW
    assert [c.label for c in Colour] == ["red", "blue", "yellow", "green"]
    with pytest.raises(ValueError):
        Colour.parse("purple")


def test_pawn_ids_belong_to_their_colour() -> None:
    for colour in Colour:
        assert [pawn_colour(p) for p in colour_pawns(colour)] == [colour] * 4
        assert [pawn_label(p)[0] for p in colour_pawns(colour)] == [colour.letter] * 4
    assert sorted(p for c in Colour for p in colour_pawns(c)) == list(range(16))
