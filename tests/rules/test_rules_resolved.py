"""One test per point RULES.md marks "resolved" (our answer where the rules page is silent).

The card-by-card, team and points modules test these points in more depth; this module
is the index that pins each resolution once, in the order RULES.md gives them.
"""

from __future__ import annotations

from collections import Counter

from rules_helpers import Spec, by_notation, canon, layout, moves_for, notations, staged_game

from sorry_lan.rules import Card, Colour, Game, MoveKind, Variant
from sorry_lan.rules.board import SLIDE_AT, forward, safety_entry, start_exit
from sorry_lan.rules.cards import full_deck
from sorry_lan.rules.variants import scores

RED, BLUE, YELLOW, GREEN = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
TEAM, POINTS = Variant.TEAM, Variant.POINTS
ALL = (RED, BLUE, YELLOW, GREEN)


def test_s1_the_deck_is_the_commercial_45_with_no_6_or_9() -> None:
    counts = Counter(int(c) for c in full_deck())
    assert sum(counts.values()) == 45
    assert 6 not in counts and 9 not in counts
    assert counts == {1: 5, 2: 4, 3: 4, 4: 4, 5: 4, 7: 4, 8: 4, 10: 4, 11: 4, 12: 4, 13: 4}


def test_s2_board_geometry() -> None:
    for c in Colour:
        b = 15 * c
        assert (start_exit(c), safety_entry(c)) == (b + 4, b + 2)
        assert SLIDE_AT[b + 1][1] == b + 4 and SLIDE_AT[b + 9][1] == b + 13
        assert forward(c, b + 2, 1) == 60 and forward(c, b + 2, 6) == 65
        loc, steps = b + 4, 0
        while loc != 65:  # 58 squares to the safety entry, then 6 to HOME
            loc, steps = forward(c, loc, 1), steps + 1
        assert steps == 64


def test_s3_first_player_random_by_default_and_a_rematch_starts_with_the_winner() -> None:
    assert {Game(seated=ALL, seed=s).first for s in range(60)} == set(ALL)
    previous_winner = BLUE
    rematch = Game(seated=ALL, seed=8, first=previous_winner)
    rematch.start()
    assert rematch.first == BLUE


def test_s4_a_slide_bumps_pawns_of_every_colour_including_the_sliders_own() -> None:
    spec: Spec = {"red": [12, 26], "blue": [25]}
    move = by_notation(moves_for(spec, Card.TWELVE), "R1 12->24, slides to 28, bumps B1,R2")
    assert move.result(layout(spec)) == layout({"red": [28]})


def test_s5_eleven_must_be_played_when_some_pawn_can_move_eleven() -> None:
    spec: Spec = {"red": [58, 20], "yellow": [40]}
    kinds = {m.kind for m in moves_for(spec, Card.ELEVEN)}
    assert kinds == {MoveKind.SIMPLE, MoveKind.SWAP}  # no decline
    spec = {"red": [58], "yellow": [40]}
    assert MoveKind.DECLINE in {m.kind for m in moves_for(spec, Card.ELEVEN)}


def test_s7_own_pawn_is_the_moving_pawns_colour() -> None:
    spec: Spec = {"red": [10, 13], "yellow": [13 - 5]}
    got = notations(moves_for(spec, Card.FIVE, "red", TEAM, after_two=True))
    assert "Y1 8->13, bumps R2" in got  # yellow lands on red (its partner)
    assert "R1 10->15" in got


def test_s7_opponent_pawn_includes_the_partners() -> None:
    spec: Spec = {"red": [58, "start"], "yellow": [40]}
    assert "R1 58 <-> Y1 40" in notations(moves_for(spec, Card.ELEVEN, "red", TEAM))
    assert notations(moves_for(spec, Card.SORRY, "red", TEAM)) == {
        "Sorry! R2 start->40 bumps Y1"
    }


def test_s7_own_colour_triangle_slides_the_partners_pawn() -> None:
    spec: Spec = {"red": ["home"] * 4, "yellow": [10]}
    assert notations(moves_for(spec, Card.TEN, "red", TEAM)) == {
        "Y1 10->20",
        "Y1 10->9, slides to 13",
    }


def test_s7_own_pawns_until_all_four_are_home_then_the_partners() -> None:
    before: Spec = {"red": ["home", "home", "home", 30], "yellow": [10]}
    assert notations(moves_for(before, Card.THREE, "red", TEAM)) == {"R4 30->33"}
    after: Spec = {"red": ["home"] * 4, "yellow": [10]}
    assert notations(moves_for(after, Card.THREE, "red", TEAM)) == {"Y1 10->13"}


def test_s8_only_swaps_legal_the_player_may_discard_instead() -> None:
    hands: dict[int, list[Card]] = {
        RED: [Card.ELEVEN, Card.TWELVE, Card.TWELVE, Card.SORRY, Card.SORRY],
        YELLOW: [Card.ONE] * 5,
    }
    spec: Spec = {"red": [58, "home", "home", "home"], "yellow": [40]}
    game = staged_game(layout(spec), "red", variant=POINTS, hands=hands)
    kinds = Counter(m.kind for m in game.legal_moves())
    assert kinds == {MoveKind.SWAP: 1, MoveKind.DISCARD: 3}


def test_s8_a_two_from_the_hand_lets_the_player_choose_again() -> None:
    hands: dict[int, list[Card]] = {
        RED: [Card.TWO, Card.THREE, Card.THREE, Card.FIVE, Card.FIVE],
        YELLOW: [Card.ONE] * 5,
    }
    spec: Spec = {"red": [10, "home", "home", "home"]}
    game = staged_game(layout(spec), "red", variant=POINTS, hands=hands, upcoming=[Card.TEN])
    game.play(by_notation(game.legal_moves(), "R1 10->12"))
    assert game.turn == RED
    assert {m.card for m in game.legal_moves()} == {Card.THREE, Card.FIVE, Card.TEN}
    pawns = game.pawns
    assert {canon(m.result(pawns)) for m in game.legal_moves()} == {
        canon(layout({"red": [n, "home", "home", "home"]})) for n in (15, 17, 22, 11)
    }


def test_s8_bonuses_do_not_add_up() -> None:
    pawns = layout({"red": ["home"] * 4})
    assert scores(POINTS, pawns, (RED, YELLOW), RED)[RED] == 20 + 5 * 4 + 100
