"""Play for points (RULES.md section 8): the opening, hands of five, discards, scoring."""

from __future__ import annotations

import pytest
from rules_helpers import Spec, by_notation, layout, notations, staged_game

from sorry_lan.rules import (
    Card,
    CardDrawn,
    Colour,
    DrawAgain,
    Game,
    GameOver,
    MoveKind,
    MovePlayed,
    TurnStarted,
    Variant,
)
from sorry_lan.rules.board import START
from sorry_lan.rules.variants import scores

POINTS = Variant.POINTS
RED, BLUE, YELLOW, GREEN = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
FILLER = [Card.THREE, Card.FIVE, Card.EIGHT, Card.TWELVE]


def points_game(spec: Spec, red_hand: list[Card], upcoming: list[Card] | None = None) -> Game:
    yellow_hand = [Card.ONE, Card.ONE, Card.ONE, Card.FOUR, Card.TEN]
    hands: dict[int, list[Card]] = {RED: red_hand, YELLOW: yellow_hand}
    return staged_game(layout(spec), "red", variant=POINTS, hands=hands,
                       upcoming=upcoming or [Card.SEVEN])


def test_opening_layout_three_in_start_one_on_the_exit() -> None:
    game = Game(POINTS, seated=(RED, BLUE, GREEN), seed=2)
    assert game.pawns == layout(
        {"red": ["start", "start", "start", 4], "blue": ["start", "start", "start", 19],
         "green": ["start", "start", "start", 49]}
    )  # fmt: skip


def test_start_deals_five_cards_to_each_player_privately() -> None:
    game = Game(POINTS, seated=(RED, YELLOW, GREEN), seed=3, first=YELLOW)
    events = game.start()
    drawn = [e for e in events if isinstance(e, CardDrawn)]
    assert len(drawn) == 15 and all(e.private for e in drawn)
    assert [e.player for e in drawn[:3]] == [YELLOW, GREEN, RED]  # dealt round from first
    assert {c: len(h) for c, h in game.hands.items()} == {RED: 5, YELLOW: 5, GREEN: 5}
    for c, hand in game.hands.items():
        assert sorted(hand) == sorted(e.card for e in drawn if e.player == c)
    assert len(game.deck.pile) == 30
    assert events[-1] == TurnStarted(YELLOW, 1)
    assert game.card is None
    game.check()


def test_legal_moves_come_from_every_card_in_the_hand() -> None:
    game = points_game({"red": [10, "home", "home", "home"]},
                       [Card.THREE, Card.FIVE, Card.THREE, Card.FOUR, Card.SORRY])
    assert notations(game.legal_moves()) == {"R1 10->13", "R1 10->15", "R1 10->6"}
    assert {m.card for m in game.legal_moves()} == {Card.THREE, Card.FIVE, Card.FOUR}


def test_playing_a_card_discards_it_and_draws_a_replacement() -> None:
    game = points_game({"red": [10, "home", "home", "home"]},
                       [Card.THREE, Card.FIVE, Card.THREE, Card.FOUR, Card.SORRY],
                       upcoming=[Card.TEN])
    events = game.play(by_notation(game.legal_moves(), "R1 10->15"))
    assert events[1] == CardDrawn(RED, Card.TEN, True)
    assert sorted(game.hands[RED]) == sorted([Card.THREE, Card.THREE, Card.FOUR, Card.SORRY,
                                              Card.TEN])
    assert game.deck.discards == [Card.FIVE]
    assert game.turn == YELLOW
    game.check()


def test_no_legal_move_discard_any_card_and_end_the_turn() -> None:
    hand = [Card.TWO, Card.THREE, Card.FIVE, Card.EIGHT, Card.TWELVE]
    game = points_game({"red": ["home", "home", "home", "S5"]}, hand, upcoming=[Card.ONE])
    moves = game.legal_moves()
    assert all(m.kind == MoveKind.DISCARD for m in moves)
    assert sorted(m.card for m in moves) == sorted(hand)
    discard_two = next(m for m in moves if m.card == Card.TWO)
    assert discard_two.compact() == (5, 2)
    assert discard_two.notation() == "discard 2"
    events = game.play(discard_two)
    assert not any(isinstance(e, DrawAgain) for e in events)  # a discarded 2 is no 2
    assert game.deck.discards == [Card.TWO]
    assert sorted(game.hands[RED]) == sorted([*hand[1:], Card.ONE])
    assert game.turn == YELLOW
    game.check()


def test_when_only_swaps_are_legal_discarding_is_offered_too() -> None:
    hand = [Card.ELEVEN, Card.TWELVE, Card.SORRY, Card.TWELVE, Card.ELEVEN]
    game = points_game({"red": [58, "home", "home", "home"], "yellow": [40]}, hand)
    moves = game.legal_moves()
    assert notations(moves) == {"R1 58 <-> Y1 40", "discard 11", "discard 12", "discard Sorry!"}
    assert not any(m.kind == MoveKind.DECLINE for m in moves)


def test_no_discard_when_a_move_other_than_a_swap_exists() -> None:
    hand = [Card.ELEVEN, Card.TWELVE, Card.SORRY, Card.TWELVE, Card.THREE]
    game = points_game({"red": [58, "home", "home", "home"], "yellow": [40]}, hand)
    assert notations(game.legal_moves()) == {"R1 58 <-> Y1 40", "R1 58->1"}


def test_a_two_from_the_hand_lets_the_player_choose_again() -> None:
    hand = [Card.TWO, Card.THREE, Card.FIVE, Card.EIGHT, Card.TWELVE]
    game = points_game({"red": [10, "home", "home", "home"]}, hand, upcoming=[Card.FOUR])
    events = game.play(by_notation(game.legal_moves(), "R1 10->12"))
    assert [type(e) for e in events] == [MovePlayed, CardDrawn, DrawAgain]
    assert game.turn == RED and game.after_two
    assert sorted(game.hands[RED]) == sorted([*hand[1:], Card.FOUR])
    assert "R1 12->8" in notations(game.legal_moves())  # the refilled card is playable
    game.play(by_notation(game.legal_moves(), "R1 12->15"))
    assert game.turn == YELLOW
    game.check()


def test_winning_in_points_scores_the_game() -> None:
    hand = [Card.ONE, *FILLER]
    spec: Spec = {"red": ["home", "home", "home", "S5"], "yellow": ["home", 20]}
    game = points_game(spec, hand)
    events = game.play(by_notation(game.legal_moves(), "R4 S5->home"))
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.scores == {RED: 20 + 5 * 3 + 50, YELLOW: 5}
    assert game.final_scores == over.scores


@pytest.mark.parametrize(
    ("yellow", "blue", "red_score"),
    [
        ([], [], 20 + 5 * 8 + 100),  # no opponent pawn home: 100 (and not 100+50+25)
        (["home"], [], 20 + 5 * 7 + 50),  # none has more than one: 50
        (["home"], ["home"], 20 + 5 * 6 + 50),
        (["home", "home"], ["home"], 20 + 5 * 5 + 25),  # none has more than two: 25
        (["home", "home", "home"], [], 20 + 5 * 5),  # someone has three: no bonus
    ],
)
def test_points_bonus_tiers_do_not_add_up(
    yellow: list[object], blue: list[object], red_score: int
) -> None:
    pawns = layout({"red": ["home"] * 4, "yellow": yellow, "blue": blue})
    got = scores(POINTS, pawns, (RED, BLUE, YELLOW), RED)
    assert got == {RED: red_score, YELLOW: 5 * len(yellow), BLUE: 5 * len(blue)}


def test_points_without_a_winner_count_pawns_home() -> None:
    pawns = layout({"red": ["home", "home"], "yellow": ["home"]})
    assert scores(POINTS, pawns, (RED, YELLOW), None) == {RED: 10, YELLOW: 5}


def test_points_opening_pawn_on_exit_is_a_real_pawn() -> None:
    game = Game(POINTS, seated=(RED, YELLOW), seed=9)
    game.start()
    assert game.pawns.count(START) == 16 - 2
    game.check()
