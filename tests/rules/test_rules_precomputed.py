"""The precomputed tables agree with the board geometry they are built from."""

from __future__ import annotations

import random

from rules_helpers import layout

from sorry_lan.rules.board import (
    BACKWARD,
    FORWARD,
    HOME,
    NUM_LOCATIONS,
    S1,
    SLIDE_AT,
    START,
    backward,
    forward,
    start_exit,
)
from sorry_lan.rules.cards import Card
from sorry_lan.rules.moves import MoveKind
from sorry_lan.rules.precomputed import (
    BACK1,
    BACK4,
    FWD,
    STAYS,
    land,
    land_in_place,
    landing_table,
    layout_key,
    occupancy,
    plain_table,
    slide_squares,
)


def _canon(pawns: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(pawns[c * 4 : c * 4 + 4])) for c in range(4))


def test_layout_key_is_equal_exactly_when_each_colours_places_are() -> None:
    rng = random.Random(3)
    places = [*range(60), START, HOME]
    seen: dict[int, tuple[tuple[int, ...], ...]] = {}
    for _ in range(3000):
        pawns = tuple(rng.choice(places) for _ in range(16))
        key = layout_key(pawns)
        if key in seen:
            assert seen[key] == _canon(pawns)
        seen[key] = _canon(pawns)
        shuffled = list(pawns)
        for c in range(4):
            block = shuffled[c * 4 : c * 4 + 4]
            rng.shuffle(block)
            shuffled[c * 4 : c * 4 + 4] = block
        assert layout_key(tuple(shuffled)) == key


def test_occupancy_puts_track_pawns_on_shared_slots_and_safety_per_colour() -> None:
    pawns = layout({"red": [5, "S2", "home", "start"], "blue": [40, "S2"]})
    occ = occupancy(pawns)
    assert occ[5] == 0 and occ[40] == 4
    assert occ[60 + 0 * 5 + 1] == 1  # red's S2
    assert occ[60 + 1 * 5 + 1] == 5  # blue's S2
    assert sum(1 for x in occ if x >= 0) == 4  # START and HOME hold no slot


def test_landing_tables_follow_the_step_tables_and_the_slides() -> None:
    for n in range(1, 13):
        assert FWD[n] == landing_table(FORWARD, n)
        for p in range(16):
            c = p >> 2
            for loc in range(NUM_LOCATIONS):
                info = FWD[n][p * NUM_LOCATIONS + loc]
                to = forward(c, loc, n)
                if to < 0:
                    assert info is None
                    continue
                assert info is not None and info[0] == to
                slide = SLIDE_AT.get(to)
                if slide is not None and slide[0] != c and to < 60:
                    assert info[1:] == (slide[1], slide[2])
                else:
                    assert info[1:] == (to, None)
    for table, n in ((BACK1, 1), (BACK4, 4)):
        assert table == landing_table(BACKWARD, n)
        for p in range(16):
            for loc in range(NUM_LOCATIONS):
                info = table[p * NUM_LOCATIONS + loc]
                assert (info is None) == (backward(p >> 2, loc, n) < 0)


def test_stays_marks_squares_where_a_pawn_does_not_slide() -> None:
    for c in range(4):
        for loc in range(NUM_LOCATIONS):
            slide = SLIDE_AT.get(loc)
            expected = loc < 60 and (slide is None or slide[0] == c)
            assert STAYS[c][loc] == expected
        assert STAYS[c][start_exit(c)]


def test_land_judges_own_pawns_bumps_and_slides() -> None:
    pawns = layout({"red": [10, 20, "S3"], "blue": [12, 17, 18]})
    assert land(0, 20, pawns) is None  # own pawn there
    assert land(0, 12, pawns) == (12, (4,))  # bumps blue
    assert land(1, 16, pawns) == (19, (5, 6))  # blue's triangle: slides, bumps both
    assert land(4, 16, pawns) == (16, ())  # own triangle: no slide
    assert land(0, S1 + 2, pawns) is None  # own pawn on S3
    assert land(4, S1 + 2, pawns) == (S1 + 2, ())  # blue's S3 is another square
    assert land(0, HOME, pawns) == (HOME, ())


def test_land_in_place_applies_the_landing_to_the_layout() -> None:
    pawns = layout({"red": [10, 20, "S3"], "blue": [12, 17, 18]})
    loc = list(pawns)
    assert land_in_place(loc, 1, 16) == (19, (5, 6))  # blue's triangle
    assert (loc[1], loc[5], loc[6], loc[4]) == (19, START, START, 12)
    # The pawn's own entry may already be anything, the landing square included (the
    # two pawns of a swap move at once): it is lifted first and never bumps itself.
    loc = list(pawns)
    loc[0] = 16
    assert land_in_place(loc, 0, 16) == (19, (5, 6)) and loc[0] == 19
    refused = list(pawns)
    assert land_in_place(refused, 0, 20) is None  # own pawn there
    assert refused == list(pawns)  # nothing changed


def test_slide_squares_follow_another_colours_triangle() -> None:
    assert slide_squares(0, 16) == (17, 18, 19)  # red on blue's short slide
    assert slide_squares(0, 24) == (25, 26, 27, 28)  # and on its long one
    assert slide_squares(4, 16) == ()  # blue's own triangle: no slide
    assert slide_squares(0, 12) == slide_squares(0, S1) == slide_squares(0, HOME) == ()


def test_plain_moves_are_the_simple_moves_that_neither_slide_nor_bump() -> None:
    for card in (Card.THREE, Card.EIGHT, Card.TWELVE):
        table = plain_table(int(card))
        for i, move in enumerate(table):
            info = FWD[card][i]
            if info is None or info[2] is not None:
                assert move is None
                continue
            assert move is not None
            p, frm = divmod(i, NUM_LOCATIONS)
            assert move.kind == MoveKind.SIMPLE and move.card == card
            assert move.changes == ((p, frm, info[0]),)
            assert move.parts[0].bumps == () and not move.parts[0].slid
    assert plain_table(int(Card.THREE)) is plain_table(int(Card.THREE))  # built once


def test_build_tables_builds_every_lazy_table_with_the_same_moves() -> None:
    """``movegen.build_tables`` builds at once what the generators build on first use
    (a fresh interpreter: this one has built them already), and the moves are the same
    values a lazy build makes."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    code = textwrap.dedent(
        """
        from sorry_lan.rules import precomputed as pc, seven
        from sorry_lan.rules.cards import Card
        from sorry_lan.rules.movegen import build_tables
        assert all(t is None for t in pc.PLAIN) and not pc.PLACED and not seven._seven_table
        build_tables()
        for slot, card in pc.SLOT_CARD.items():
            assert pc.PLAIN[slot] == pc.plain_moves(card, pc.LANDINGS[slot])
            assert pc.SLIDES[slot] == pc.slide_moves(card, pc.LANDINGS[slot])
        assert pc.EXITS[Card.ONE] == pc.exit_moves(Card.ONE)
        assert pc.EXITS[Card.TWO] == pc.exit_moves(Card.TWO)
        assert len(pc.PLACED) == 1 and len(seven._seven_table) == 1
        built = (list(pc.PLAIN), list(pc.SLIDES), list(pc.EXITS), pc.PLACED[0])
        build_tables()  # again: nothing is rebuilt
        assert (list(pc.PLAIN), list(pc.SLIDES), list(pc.EXITS), pc.PLACED[0]) == built
        assert all(a is b for a, b in zip(pc.PLAIN, built[0]))
        """
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True, timeout=120)
