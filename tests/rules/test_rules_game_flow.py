"""Whole turns (RULES.md sections 3, 4 and 6): drawing, the 2's extra turn, lost turns,
must-move, winning, turn order, the invariant check and bad input."""

from __future__ import annotations

import itertools
import random

import pytest
from rules_helpers import by_notation, layout, play_notation, staged_game

from sorry_lan.rules import (
    Card,
    CardDrawn,
    Colour,
    DrawAgain,
    Event,
    Game,
    GameOver,
    GameOverError,
    IllegalMoveError,
    InvariantError,
    Move,
    MoveKind,
    MovePlayed,
    Part,
    Phase,
    Reshuffled,
    TurnLost,
    TurnStarted,
    Variant,
)
from sorry_lan.rules.board import START

RED, BLUE, YELLOW, GREEN = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def test_a_played_two_draws_again_for_the_same_player() -> None:
    game = staged_game(layout({"red": [10]}), "red", Card.TWO, upcoming=[Card.THREE])
    turn = game.turn_number
    move = by_notation(game.legal_moves(), "R1 10->12")
    events = game.play(move)
    assert events == [MovePlayed(RED, move), DrawAgain(RED), CardDrawn(RED, Card.THREE, False)]
    assert (game.turn, game.card, game.after_two, game.turn_number) == (RED, Card.THREE, True, turn)
    game.check()


def test_an_unusable_two_draws_again_and_another_two_draws_again_again() -> None:
    pawns = layout({"red": ["home", "home", "home", "S5"], "yellow": [10]})
    game = staged_game(
        pawns, "yellow", Card.THREE, upcoming=[Card.TWO, Card.TWO, Card.ONE]
    )
    events = game.play(by_notation(game.legal_moves(), "Y1 10->13"))
    assert kinds(events) == [
        "MovePlayed", "TurnStarted",
        "CardDrawn", "TurnLost", "DrawAgain",
        "CardDrawn", "TurnLost", "DrawAgain",
        "CardDrawn",
    ]  # fmt: skip
    assert events[3] == TurnLost(RED, Card.TWO)
    assert (game.turn, game.card, game.after_two) == (RED, Card.ONE, True)
    assert game.deck.discards == [Card.THREE, Card.TWO, Card.TWO]
    game.check()


def test_the_card_after_a_two_is_a_full_turn_and_a_second_two_draws_again() -> None:
    pawns = layout({"red": [10, 20]})
    game = staged_game(pawns, "red", Card.TWO, upcoming=[Card.TWO, Card.FIVE, Card.ONE])
    play_notation(game, "R1 10->12")
    assert game.card == Card.TWO
    events = game.play(by_notation(game.legal_moves(), "R2 20->22"))
    assert kinds(events) == ["MovePlayed", "DrawAgain", "CardDrawn"]
    assert (game.turn, game.card) == (RED, Card.FIVE)
    events = game.play(by_notation(game.legal_moves(), "R1 12->17"))
    assert events[1:] == [TurnStarted(YELLOW, game.turn_number), CardDrawn(YELLOW, Card.ONE)]
    assert (game.turn, game.after_two) == (YELLOW, False)


def test_a_card_with_no_legal_move_loses_the_turn_and_is_discarded() -> None:
    game = staged_game(layout({"yellow": [10]}), "yellow", Card.FIVE,
                       upcoming=[Card.THREE, Card.ONE])
    events = game.play(by_notation(game.legal_moves(), "Y1 10->15"))
    assert events[1:] == [
        TurnStarted(RED, game.turn_number - 1),
        CardDrawn(RED, Card.THREE),
        TurnLost(RED, Card.THREE),
        TurnStarted(YELLOW, game.turn_number),
        CardDrawn(YELLOW, Card.ONE),
    ]
    assert game.deck.discards == [Card.FIVE, Card.THREE]
    assert game.turn == YELLOW
    game.check()


def test_must_move_even_when_the_only_move_hurts() -> None:
    game = staged_game(layout({"red": ["S1", "home", "home", "home"]}), "red", Card.FOUR)
    moves = game.legal_moves()
    assert [m.notation() for m in moves] == ["R1 S1->59"]  # back out of safety
    assert all(m.kind not in (MoveKind.DECLINE, MoveKind.DISCARD) for m in moves)


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    game = staged_game(layout({"red": ["S1"]}), "red", Card.FOUR)
    before = (game.pawns, game.state_id, game.card, list(game.deck.pile))
    fake = Move(MoveKind.SIMPLE, Card.FOUR, (Part(0, 60, 61, 61, ()),), ((0, 60, 61),))
    with pytest.raises(IllegalMoveError):
        game.play(fake)
    with pytest.raises(IllegalMoveError):
        game.move_for((0, 4, 0, 61))
    with pytest.raises(IllegalMoveError):
        game.play_compact((9, 9))
    assert (game.pawns, game.state_id, game.card, list(game.deck.pile)) == before


def test_play_compact_plays_the_matching_move() -> None:
    game = staged_game(layout({"red": ["S1"]}), "red", Card.FOUR, upcoming=[Card.ONE])
    events = game.play_compact((0, 4, 0, 59))
    assert isinstance(events[0], MovePlayed)
    assert game.pawns[0] == 59


def test_winning_ends_the_game_at_once() -> None:
    pawns = layout({"red": ["home", "home", "home", "S5"], "yellow": [10]})
    game = staged_game(pawns, "red", Card.ONE, upcoming=[Card.ONE])
    events = game.play(by_notation(game.legal_moves(), "R4 S5->home"))
    assert kinds(events) == ["MovePlayed", "GameOver"]
    over = events[-1]
    assert isinstance(over, GameOver)
    assert (over.winner, over.winners) == (RED, (RED,))
    assert over.scores == {RED: 4, YELLOW: 0}
    assert game.over and game.winner == RED and game.winners == (RED,)
    assert game.legal_moves() == []
    assert game.deck.pile[-1] == Card.ONE  # nothing more was drawn
    with pytest.raises(GameOverError):
        game.play(over_move(game))
    game.check()


def over_move(game: Game) -> Move:
    return Move(MoveKind.SIMPLE, Card.ONE, (Part(8, 10, 11, 11, ()),), ((8, 10, 11),))


def test_winning_with_a_two_does_not_draw_again() -> None:
    pawns = layout({"red": ["home", "home", "home", "S4"]})
    game = staged_game(pawns, "red", Card.TWO, upcoming=[Card.THREE])
    events = game.play(by_notation(game.legal_moves(), "R4 S4->home"))
    assert kinds(events) == ["MovePlayed", "GameOver"]
    assert not any(isinstance(e, DrawAgain) for e in events)


def test_declining_the_eleven_passes_the_turn() -> None:
    game = staged_game(layout({"red": [58], "yellow": [40]}), "red", Card.ELEVEN,
                       upcoming=[Card.THREE])
    events = game.play(by_notation(game.legal_moves(), "decline the 11 (turn lost)"))
    assert isinstance(events[0], MovePlayed)
    assert game.turn == YELLOW
    assert game.pawns == layout({"red": [58], "yellow": [40]})
    assert game.deck.discards == [Card.ELEVEN]


def test_turn_order_is_clockwise_skipping_absent_colours() -> None:
    game = Game(Variant.STANDARD, seated=(GREEN, BLUE, RED), seed=5, first=GREEN)
    events = game.start()
    rng = random.Random(5)
    for _ in range(60):
        events += game.play(rng.choice(game.legal_moves()))
        if game.over:
            break
    order = [e.player for e in events if isinstance(e, TurnStarted)]
    assert order[:4] == [GREEN, RED, BLUE, GREEN]
    seats: list[int] = [RED, BLUE, GREEN]
    for a, b in itertools.pairwise(order):
        assert seats.index(b) == (seats.index(a) + 1) % 3


def test_first_player_is_seeded_random_or_chosen() -> None:
    firsts = {Game(seated=(RED, BLUE, GREEN), seed=s).first for s in range(40)}
    assert firsts == {RED, BLUE, GREEN}
    assert Game(seed=3).first == Game(seed=3).first
    assert Game(seated=(RED, YELLOW), seed=3, first=YELLOW).turn == YELLOW  # a rematch
    with pytest.raises(ValueError):
        Game(seated=(RED, YELLOW), first=BLUE)


@pytest.mark.parametrize(
    ("variant", "seated"),
    [
        (Variant.STANDARD, (RED,)),
        (Variant.STANDARD, (RED, RED)),
        (Variant.STANDARD, (RED, 7)),
        (Variant.TEAM, (RED, YELLOW)),
        (Variant.TEAM, (RED, BLUE, YELLOW)),
    ],
)
def test_bad_seating_is_refused(variant: Variant, seated: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        Game(variant, seated=seated)


def test_start_once_and_play_only_after_start() -> None:
    game = Game(seed=1)
    with pytest.raises(RuntimeError):
        game.play(over_move(game))
    assert game.legal_moves() == []
    game.start()
    with pytest.raises(RuntimeError):
        game.start()


def test_start_draws_the_first_card_for_the_first_player() -> None:
    game = Game(seated=(RED, YELLOW), seed=11, first=YELLOW)
    events = game.start()
    assert events[0] == TurnStarted(YELLOW, 1)
    drawn = [e for e in events if isinstance(e, CardDrawn)]
    assert drawn[0].player == YELLOW
    assert not any(e.private for e in drawn)
    # Turns with no legal move are lost until someone has a move to make.
    assert (drawn[-1].player, drawn[-1].card) == (game.turn, game.card)
    lost = [e for e in events if isinstance(e, TurnLost)]
    assert len(lost) == len(drawn) - 1
    assert game.legal_moves()  # play stops at a decision
    game.check()


def test_the_draw_pile_is_reshuffled_when_it_runs_out() -> None:
    game = staged_game(layout({"red": [10], "yellow": [40]}), "red", Card.THREE)
    game.deck.discards = game.deck.pile
    game.deck.pile = []
    events = game.play(by_notation(game.legal_moves(), "R1 10->13"))
    assert events[1:3] == [TurnStarted(YELLOW, game.turn_number), Reshuffled(45)]
    assert isinstance(events[3], CardDrawn)
    assert game.deck.reshuffles == 1
    assert len(game.deck.pile) == 44 and game.deck.discards == []
    game.check()


def test_check_finds_broken_states() -> None:
    game = staged_game(layout({"red": [10], "yellow": [40]}), "red", Card.THREE)
    game.pawns = layout({"red": [10], "yellow": [10]})
    with pytest.raises(InvariantError):
        game.check()
    game.pawns = layout({"red": ["S1", "S1"]})
    with pytest.raises(InvariantError):
        game.check()
    game.pawns = layout({"blue": [20]})  # blue is not seated
    with pytest.raises(InvariantError):
        game.check()
    game.pawns = layout({"red": [10]})
    game.check()
    game.deck.pile.pop()
    with pytest.raises(InvariantError):
        game.check()


def test_bumped_pawns_return_to_start_in_the_game() -> None:
    game = staged_game(layout({"red": [20], "yellow": [25]}), "red", Card.FIVE)
    play_notation(game, "R1 20->25, bumps Y1")
    assert game.pawns[8] == START
    game.check()


def test_variant_and_phase_words() -> None:
    # The values are the words the wire, the adverts and the journals carry.
    assert [v.value for v in Variant] == ["standard", "team", "points"]
    assert Variant.parse(" Team ") is Variant.TEAM
    with pytest.raises(ValueError, match="choose standard, team or points"):
        Variant.parse("chess")
    assert [p.value for p in Phase] == ["lobby", "playing", "finished"]
