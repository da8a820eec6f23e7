"""Cards and the deck: 45 cards, a seeded shuffle, draw and discard piles, reshuffle.

The deck owns its random generator, so a game replays exactly from its seed.  It does
not know whose turn it is or what a card does.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from typing import Final


class Card(IntEnum):
    """A card kind; the value is the number of steps for the numbered cards."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SEVEN = 7
    EIGHT = 8
    TEN = 10
    ELEVEN = 11
    TWELVE = 12
    SORRY = 13

    @property
    def label(self) -> str:
        """``'1'``..``'12'`` or ``'sorry'``: the name used in notation and on the wire."""
        return "sorry" if self is Card.SORRY else str(int(self))

    @property
    def title(self) -> str:
        return "Sorry!" if self is Card.SORRY else str(int(self))

    @classmethod
    def parse(cls, text: object) -> Card:
        if isinstance(text, int) and not isinstance(text, bool):
            try:
                return cls(text)
            except ValueError:
                raise ValueError(f"unknown card {text!r}") from None
        if isinstance(text, str):
            t = text.strip().lower().rstrip("!")
            if t == "sorry":
                return cls.SORRY
            if t.isdigit():
                try:
                    return cls(int(t))
                except ValueError:
                    pass
        raise ValueError(f"unknown card {text!r}")


DECK_COUNTS: Final[dict[Card, int]] = {card: 4 for card in Card} | {Card.ONE: 5}
DECK_SIZE: Final = sum(DECK_COUNTS.values())
assert DECK_SIZE == 45


#: Counts of cards by card value (index = the card's int, 0..13; 0, 6 and 9 stay 0).
CARD_VALUES: Final = 14
NO_CARDS: Final[tuple[int, ...]] = (0,) * CARD_VALUES


def card_counts(cards: Iterable[Card]) -> tuple[int, ...]:
    """How many of each card ``cards`` holds, by card value (see :data:`CARD_VALUES`)."""
    counts = [0] * CARD_VALUES
    for card in cards:
        counts[card] += 1
    return tuple(counts)


# ``n.bit_length()`` for every list length the deck shuffles (at most 45 cards).
_BITS: Final = tuple(n.bit_length() for n in range(DECK_SIZE + 1))
# The steps of the shuffle of each list length: ``(i, i + 1, bits of i + 1)`` for ``i``
# from the last index down to 1, so the loop reads them instead of working them out.
_STEPS: Final = tuple(
    tuple((i, i + 1, _BITS[i + 1]) for i in range(length - 1, 0, -1))
    for length in range(DECK_SIZE + 1)
)


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """Shuffle ``cards`` in place from ``rng``: the Fisher-Yates shuffle that
    ``random.Random.shuffle`` performs (CPython 3.11-3.13), drawing the same bits
    from ``getrandbits``, so the order is the one it gives -- written out because a
    deck is shuffled on every reshuffle of every playout, and because the deck's order
    for a seed then depends on ``getrandbits`` alone, not on how a later Python
    implements ``shuffle`` (a test compares the two)."""
    getrandbits = rng.getrandbits
    length = len(cards)
    steps = _STEPS[length] if length <= DECK_SIZE else tuple(
        (i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1)
    )
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def full_deck() -> list[Card]:
    """All 45 cards in a fixed order (unshuffled)."""
    return [card for card, n in DECK_COUNTS.items() for _ in range(n)]


class Deck:
    """Draw pile and discard pile; the draw pile's end is its top.

    ``draw()`` reshuffles the discard pile into a new draw pile when the draw pile is
    empty.  Cards held in hands or being played are outside both piles.
    """

    __slots__ = ("discards", "pile", "reshuffles", "rng")

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)
        self.pile: list[Card] = full_deck()
        shuffle(self.pile, self.rng)
        self.discards: list[Card] = []
        self.reshuffles = 0

    def draw(self) -> Card:
        if not self.pile:
            if not self.discards:
                raise RuntimeError("no cards left to draw: every card is held")
            self.pile = self.discards
            self.discards = []
            shuffle(self.pile, self.rng)
            self.reshuffles += 1
        return self.pile.pop()

    def discard(self, card: Card) -> None:
        self.discards.append(card)

    def __len__(self) -> int:
        return len(self.pile)

    def copy(self) -> Deck:
        new = Deck.__new__(Deck)
        # __new__ skips seeding from the OS, which setstate would overwrite anyway.
        new.rng = random.Random.__new__(random.Random)
        new.rng.setstate(self.rng.getstate())
        new.pile = list(self.pile)
        new.discards = list(self.discards)
        new.reshuffles = self.reshuffles
        return new


def is_complete(cards: Iterable[Card]) -> bool:
    """True when ``cards`` is exactly the 45-card deck (as a multiset)."""
    return Counter(cards) == Counter(DECK_COUNTS)
