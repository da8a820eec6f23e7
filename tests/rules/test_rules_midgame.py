"""A game rebuilt mid-way from its public position (rules.midgame): the same decision,
a draw pile of exactly the unseen cards, and a game that goes on legally to its end."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.board import HOME, START
from sorry_lan.rules.cards import card_counts
from sorry_lan.rules.midgame import Midgame, MidgameError, rebuild, reveal_hand
from sorry_lan.rules.variants import VARIANTS

SEATINGS: dict[str, list[tuple[int, ...]]] = {
    "standard": [(0, 2), (0, 1, 3), (0, 1, 2, 3)],
    "team": [(0, 1, 2, 3)],
    "points": [(1, 3), (0, 1, 2), (0, 1, 2, 3)],
}


def test_every_variant_is_covered() -> None:
    assert set(SEATINGS) == set(VARIANTS)


def played(variant: Variant, seated: tuple[int, ...], moves: int, seed: int) -> Game:
    """A game after ``moves`` random legal moves (or its end, if sooner)."""
    game = Game(variant, seated, seed=seed)
    game.start()
    pick = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        game.play(pick.choice(game.legal_moves()))
    return game


def position_of(game: Game, known: Iterable[int] = ()) -> Midgame:
    """What the table saw of ``game`` in public, and the hands of ``known``."""
    return Midgame(
        game.variant, game.seated, game.pawns, game.turn, game.state_id,
        card=game.card, after_two=game.after_two, discarded=card_counts(game.deck.discards),
        hands={c: tuple(game.hands[c]) for c in known}, moves_played=game.moves_played,
        first=game.first, first_sid=game.first_sid,
    )  # fmt: skip


def finish(game: Game, seed: int) -> int:
    """Play ``game`` to its end with random legal moves, checking it at each step."""
    pick = random.Random(seed)
    sid = game.state_id
    for _ in range(5000):
        if game.over:
            return sid
        game.play(pick.choice(game.legal_moves()))
        game.check()
        assert game.state_id > sid
        sid = game.state_id
    raise AssertionError("the game did not end")


CASES = [
    (Variant(v), seated, moves)
    for v, seatings in SEATINGS.items()
    for seated in seatings
    for moves in (0, 1, 7, 40, 150)
]


@pytest.mark.parametrize(("variant", "seated", "moves"), CASES)
def test_rebuilt_from_public_position_and_hands_goes_on_to_the_end(
    variant: Variant, seated: tuple[int, ...], moves: int
) -> None:
    game = played(variant, seated, moves, seed=moves * 31 + len(seated))
    hidden = Counter(game.deck.pile)
    again = rebuild(position_of(game, known=game.hands), seed=12345)
    again.check()
    assert again.state_id == game.state_id
    assert again.legal_moves() == game.legal_moves()
    assert (again.turn, again.card, again.after_two, again.pawns) == (
        game.turn, game.card, game.after_two, game.pawns)  # fmt: skip
    assert again.hands == game.hands
    assert Counter(again.deck.pile) == hidden
    assert Counter(again.deck.discards) == Counter(game.deck.discards)
    assert again.winner == game.winner
    assert again.scores() == game.scores()
    finish(again, seed=moves)
    assert again.over


@pytest.mark.parametrize("seated", SEATINGS["points"])
def test_hands_not_known_are_dealt_fresh_from_the_unseen_cards(seated: tuple[int, ...]) -> None:
    game = played(Variant.POINTS, seated, 25, seed=7)
    known = [seated[0]]
    unseen = Counter(game.deck.pile)
    for colour in seated[1:]:
        unseen.update(game.hands[colour])
    again = rebuild(position_of(game, known), seed=99)
    again.check()
    assert again.hands[seated[0]] == game.hands[seated[0]]
    dealt = Counter(again.deck.pile)
    for colour in seated[1:]:
        assert len(again.hands[colour]) == 5
        dealt.update(again.hands[colour])
    assert dealt == unseen
    if again.turn == seated[0]:
        assert again.legal_moves() == game.legal_moves()
    finish(again, seed=3)


def test_the_seed_makes_the_pile_and_another_seed_another() -> None:
    game = played(Variant.STANDARD, (0, 1, 2, 3), 10, seed=5)
    position = position_of(game)
    one, same, other = rebuild(position, 1), rebuild(position, 1), rebuild(position, 2)
    assert one.deck.pile == same.deck.pile
    assert one.deck.pile != other.deck.pile
    assert Counter(one.deck.pile) == Counter(other.deck.pile)


def test_a_draw_again_after_a_2_is_kept_and_the_team_context_with_it() -> None:
    for seed in range(200):
        game = played(Variant.TEAM, (0, 1, 2, 3), 30 + seed % 20, seed=seed)
        if game.after_two and not game.over:
            break
    else:
        raise AssertionError("no game stopped after a 2")
    again = rebuild(position_of(game), seed=8)
    assert again.after_two
    assert again.legal_moves() == game.legal_moves()


def test_a_won_game_is_rebuilt_over_with_its_result() -> None:
    game = played(Variant.POINTS, (0, 2), 10_000, seed=11)
    assert game.over
    again = rebuild(position_of(game, known=game.hands), seed=4)
    assert again.over
    assert again.winners == game.winners
    assert again.final_scores == game.final_scores
    assert again.legal_moves() == []


def test_the_unseen_cards_are_the_deck_less_what_was_seen() -> None:
    discarded = [0] * 14
    discarded[Card.ONE] = 5
    discarded[Card.SORRY] = 3
    position = Midgame(Variant.STANDARD, (0, 2), (HOME,) * 4 + (START,) * 12, 0, 9)
    assert len(position.unseen()) == 45
    seen = Midgame(Variant.STANDARD, (0, 2), position.pawns, 0, 9, card=Card.SORRY,
                   discarded=tuple(discarded))  # fmt: skip
    cards = Counter(seen.unseen())
    assert cards[Card.ONE] == 0
    assert cards[Card.SORRY] == 0
    assert sum(cards.values()) == 45 - 9


BASE = played(Variant.STANDARD, (0, 2), 12, seed=2)
POINTS = played(Variant.POINTS, (0, 2), 12, seed=2)


def _with(game: Game, **changes: Any) -> Midgame:
    return dataclasses.replace(position_of(game, game.hands), **changes)


@pytest.mark.parametrize(
    ("position", "problem"),
    [
        (_with(BASE, turn=1), "colour 1 is to move but not seated"),
        (_with(BASE, seated=(0,)), "a game needs 2 to 4 players"),
        (_with(BASE, seated=(2, 0)), "distinct, in order"),
        (_with(BASE, pawns=(5,) * 16), "share track square"),
        (_with(BASE, pawns=(START,) * 15), "expected 16 pawns"),
        (_with(BASE, card=None), "a card is in play exactly while the game goes on"),
        (_with(BASE, discarded=(0, 6) + (0,) * 12), "more 1 cards are seen"),
        (_with(BASE, discarded=(0,) * 13), "13 entries"),
        (_with(BASE, discarded=(0,) * 6 + (1,) + (0,) * 7), "counts a card 6"),
        (_with(BASE, hands={0: (Card.ONE,) * 5}), "standard play has no hands"),
        (_with(POINTS, card=Card.TWO), "play for points has no card in play"),
        (_with(POINTS, hands={0: (Card.TWO,) * 6}), "colour 0's hand has 6 cards, more than 5"),
        (_with(POINTS, hands={1: (Card.TWO,) * 5}), "a hand for colour 1, not seated"),
        (_with(POINTS, hands={0: (Card.TWO,) * 5, 2: (Card.TWO,) * 5}),
         "more 2 cards are seen"),
        (_with(BASE, first=3), "colour 3 began but is not seated"),
        (_with(BASE, first_sid=BASE.state_id + 1), "cannot follow"),
    ],
)
def test_a_position_that_cannot_be_a_game_is_refused_by_name(
    position: Midgame, problem: str
) -> None:
    with pytest.raises(MidgameError, match=problem):
        rebuild(position, seed=1)


def test_a_card_with_no_legal_move_is_not_a_decision() -> None:
    # Every pawn in START and a 4 in play: no move, so no table ever offered it.
    position = Midgame(Variant.STANDARD, (0, 2), (START,) * 16, 0, 3, card=Card.FOUR)
    with pytest.raises(MidgameError, match="no legal move"):
        rebuild(position, seed=1)


def test_a_revealed_hand_replaces_the_fresh_one_and_the_pile_stays_the_unseen_rest() -> None:
    game = played(Variant.POINTS, (0, 1, 2), 20, seed=13)
    unseen = Counter(game.deck.pile) + Counter(game.hands[1]) + Counter(game.hands[2])
    again = rebuild(position_of(game, known=[0]), seed=5)
    reveal_hand(again, 2, game.hands[2], {0: 5})
    assert again.hands[2] == game.hands[2]
    assert Counter(again.deck.pile) + Counter(again.hands[1]) + Counter(again.hands[2]) == unseen
    again.check()
    reveal_hand(again, 1, game.hands[1], {0: 5, 2: 5})
    assert again.hands == game.hands
    assert again.legal_moves() == game.legal_moves()
    same = rebuild(position_of(game, known=[0]), seed=5)
    reveal_hand(same, 2, game.hands[2], {0: 5})
    reveal_hand(same, 1, game.hands[1], {0: 5, 2: 5})
    assert same.deck.pile == again.deck.pile  # the same reveals in order: the same game
    finish(again, seed=1)


def test_a_hand_of_cards_nobody_could_hold_is_refused() -> None:
    game = played(Variant.POINTS, (0, 2), 20, seed=13)
    again = rebuild(position_of(game, known=[0]), seed=5)
    pile = list(again.deck.pile)
    mine = tuple(game.hands[0])
    with pytest.raises(MidgameError, match="not among the cards nobody has seen"):
        reveal_hand(again, 2, (Card.SEVEN,) * 5, {0: 5})  # the deck has four
    with pytest.raises(MidgameError, match="holds no hand"):
        reveal_hand(again, 0, mine, {0: 5})  # known, not dealt fresh
    with pytest.raises(MidgameError, match="holds no hand"):
        reveal_hand(again, 1, mine, {0: 5})
    with pytest.raises(MidgameError, match="1 to 5 cards, not 0"):
        reveal_hand(again, 2, (), {0: 5})
    with pytest.raises(MidgameError, match="1 to 5 cards, not 6"):
        reveal_hand(again, 2, (*mine, mine[0]), {0: 5})
    assert again.deck.pile == pile  # a refused reveal changes nothing
    standard = rebuild(position_of(played(Variant.STANDARD, (0, 2), 5, seed=1)), seed=2)
    with pytest.raises(MidgameError, match="holds no hand"):
        reveal_hand(standard, 0, mine, {})


def test_the_known_part_of_a_hand_is_kept_and_the_rest_dealt_fresh() -> None:
    game = played(Variant.POINTS, (0, 1, 2), 20, seed=21)
    four = {c: tuple(h[:4]) for c, h in game.hands.items()}  # what each player knew
    position = dataclasses.replace(position_of(game), hands={0: four[0]})
    assert position.known() == {0: 4}
    again = rebuild(position, seed=6)
    assert tuple(again.hands[0][:4]) == four[0] and len(again.hands[0]) == 5
    unseen = Counter(game.deck.pile)
    for c, hand in game.hands.items():
        unseen.update(hand[4:] if c == 0 else hand)
    dealt = Counter(again.deck.pile)
    dealt.update(again.hands[0][4:])
    for c in (1, 2):
        dealt.update(again.hands[c])
    assert dealt == unseen
    reveal_hand(again, 2, four[2], position.known())
    assert tuple(again.hands[2][:4]) == four[2] and len(again.hands[2]) == 5
    assert tuple(again.hands[0][:4]) == four[0]  # a known part is never dealt again
    again.check()
    finish(again, seed=2)


def test_a_position_s_json_form_reads_back_the_same() -> None:
    game = played(Variant.POINTS, (0, 2), 9, seed=3)
    position = position_of(game, known=[0])
    assert Midgame.from_json(position.as_json()) == position
    assert Midgame.from_json(json.loads(json.dumps(position.as_json()))) == position
    with pytest.raises(KeyError):
        Midgame.from_json({k: v for k, v in position.as_json().items() if k != "pawns"})


@pytest.mark.parametrize("variant", list(Variant))
def test_a_game_rebuilt_at_every_decision_offers_the_same_moves(variant: Variant) -> None:
    seated = (0, 1, 2, 3)
    game = Game(variant, seated, seed=17)
    game.start()
    pick = random.Random(17)
    rebuilt = 0
    while not game.over:
        again = rebuild(position_of(game, known=game.hands), seed=game.state_id)
        assert again.legal_moves() == game.legal_moves(), game.state_id
        assert Counter(again.deck.pile) == Counter(game.deck.pile)
        if rebuilt % 25 == 0:
            finish(again, seed=rebuilt)
        rebuilt += 1
        game.play(pick.choice(game.legal_moves()))
    assert rebuilt > 50
