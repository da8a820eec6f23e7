"""Cards and the deck (RULES.md sections 1 and 3): 45 cards, seeded shuffle, reshuffle."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sorry_lan.rules import Card, Deck
from sorry_lan.rules.cards import DECK_SIZE, full_deck, is_complete


def test_the_deck_is_the_standard_45_cards() -> None:
    counts = Counter(full_deck())
    assert DECK_SIZE == len(full_deck()) == 45
    assert counts[Card.ONE] == 5
    assert all(counts[c] == 4 for c in Card if c is not Card.ONE)
    assert sorted(int(c) for c in counts) == [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13]  # no 6, 9
    assert is_complete(Deck(seed=1).pile)


def test_card_labels_and_parsing() -> None:
    assert [c.label for c in Card][-2:] == ["12", "sorry"]
    assert Card.SORRY.title == "Sorry!"
    for c in Card:
        assert Card.parse(c.label) is c
        assert Card.parse(int(c)) is c
    assert Card.parse("Sorry!") is Card.SORRY
    assert Card.parse(" 7 ") is Card.SEVEN


@pytest.mark.parametrize("bad", ["6", "9", 6, 0, 14, "seven", "", True, None, 7.0])
def test_bad_cards_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_same_seed_same_order_and_draws_come_from_the_top() -> None:
    a, b = Deck(seed=42), Deck(seed=42)
    assert a.pile == b.pile
    assert Deck(seed=43).pile != a.pile
    top = a.pile[-1]
    assert a.draw() == top and len(a) == 44


def test_reshuffle_turns_the_discards_into_a_new_pile() -> None:
    deck = Deck(rng=random.Random(7))
    drawn = [deck.draw() for _ in range(45)]
    assert len(deck) == 0 and is_complete(drawn)
    for card in drawn[:10]:
        deck.discard(card)
    card = deck.draw()
    assert deck.reshuffles == 1
    assert deck.discards == [] and len(deck) == 9
    assert Counter([*deck.pile, card]) == Counter(drawn[:10])


def test_drawing_with_every_card_held_is_an_error() -> None:
    deck = Deck(seed=1)
    for _ in range(45):
        deck.draw()
    with pytest.raises(RuntimeError):
        deck.draw()


def test_copy_is_independent_and_continues_identically() -> None:
    deck = Deck(seed=5)
    for _ in range(44):
        deck.discard(deck.draw())
    twin = deck.copy()
    assert [deck.draw() for _ in range(20)] == [twin.draw() for _ in range(20)]
    twin.discard(Card.ONE)
    assert deck.discards != twin.discards


def test_the_decks_shuffle_is_the_one_random_shuffle_performs() -> None:
    """``cards.shuffle`` (written out for speed) orders a list as ``Random.shuffle``
    does and leaves the generator in the same state, for every length a pile has: a
    deck's order for a seed is what it always was."""
    from sorry_lan.rules.cards import shuffle

    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (0, 1, 2, 3, 17, 44, 45, seed % 46):
            cards = full_deck()[:size]
            expected = list(cards)
            shuffle(cards, ours)
            theirs.shuffle(expected)
            assert cards == expected, (seed, size)
        longer = full_deck() * 2  # longer than a deck: the steps are worked out
        expected = list(longer)
        shuffle(longer, ours)
        theirs.shuffle(expected)
        assert longer == expected
        assert ours.getstate() == theirs.getstate()
