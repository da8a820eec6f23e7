"""What a bot sees (:class:`Position`) and the bot interface.

A bot picks one move from the legal moves the engine offers, for the player whose turn
it is.  It reads only a :class:`Position`: the board, the card drawn (or its own hand
in play for points) and the discard pile (public: every seat is told it, also one that
joins late) -- never the draw order or another player's hand.  Its choice is a pure
function of its seed and the position (ties and sampling draw from a generator seeded
by both), so the host's seats, ``sorry-lan bot`` over the network and ``sorry-lan
simulate`` play the same move in the same position.

This module does not build bots by name (``registry`` does), run games
(``sorry-lan simulate``, the host and the network bot client do) or rank moves (each
strength's module does).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple, Protocol

from ..rules.cards import DECK_COUNTS, NO_CARDS, Card, card_counts
from ..rules.game import Game, hand_moves
from ..rules.movegen import generate
from ..rules.moves import Move
from ..rules.variants import Variant, move_context
from .strengths import DEFAULT_STRENGTH as DEFAULT_STRENGTH
from .strengths import STRENGTHS as STRENGTHS


class Position(NamedTuple):
    """Everything a seat may know when it is to move.

    ``cards`` is the card drawn (standard and team play) or the seat's own hand (play
    for points); ``discards`` the discard pile counted by card value (index = card
    int; it empties when the pile is reshuffled into a new draw pile).
    """

    variant: Variant
    seated: tuple[int, ...]
    pawns: tuple[int, ...]
    turn: int
    cards: tuple[Card, ...]
    after_two: bool = False
    discards: tuple[int, ...] = NO_CARDS


def legal_moves(position: Position) -> list[Move]:
    """The legal moves of ``position``, in the order ``Game.legal_moves`` lists them."""
    ctx = move_context(position.variant, position.pawns, position.turn, position.after_two)
    if position.variant.rules.deals_hands:
        return hand_moves(position.pawns, position.cards, ctx)
    if not position.cards:
        return []
    return generate(position.pawns, position.cards[0], ctx)


def unseen_counts(position: Position) -> list[int]:
    """How many of each card (index 0..13) the seat to move does not hold: the deck
    less its own card or hand, whatever pile or hand the rest are in."""
    counts = [0] * 14
    for kind, n in DECK_COUNTS.items():
        counts[kind] = n
    for card in position.cards:
        counts[card] -= 1
    if any(n < 0 for n in counts):
        raise ValueError("the cards held are more than the deck has")
    return counts


def draw_weights(position: Position) -> list[tuple[Card, float]]:
    """Each card kind the next draw may be, with its chance: the deck less the discard
    pile and the seat's own card or hand (the cards elsewhere -- the pile, other hands
    -- are alike to it), or the deck less its own cards if that leaves nothing."""
    counts = unseen_counts(position)
    pile = [max(counts[i] - position.discards[i], 0) for i in range(14)] \
        if len(position.discards) == 14 else counts
    if sum(pile) == 0:
        pile = [max(n, 0) for n in counts]
    total = sum(pile)
    return [(card, pile[card] / total) for card in Card if pile[card]]


def position_of(game: Game) -> Position:
    """What the player to move in ``game`` may know (no draw order, no other hand)."""
    if game.rules.deals_hands:
        cards: tuple[Card, ...] = tuple(game.hands[game.turn])
    else:
        cards = (game.card,) if game.card is not None else ()
    return Position(game.variant, game.seated, game.pawns, game.turn, cards, game.after_two,
                    card_counts(game.deck.discards))


# The odd multiplier of ``seed_for``'s multiply-xorshift (2**64 over the golden ratio).
SPREAD = 0x9E3779B97F4A7C15


def seed_for(seed: int, position: Position, salt: int = 0) -> int:
    """A 64-bit number that depends only on ``seed``, ``salt`` and ``position``.

    Python hashes ints (cards are ints) and tuples of ints the same way in every
    64-bit process; string hashing is randomised, so the variant is left out (a layout
    with its cards tells the variants apart well enough for a tie-break).
    """
    h = hash((seed, salt, position.pawns, position.turn, position.cards,
              position.after_two))
    # One multiply-xorshift spreads the bits of nearby hashes apart.
    h = ((h & 0xFFFFFFFFFFFFFFFF) * SPREAD) & 0xFFFFFFFFFFFFFFFF
    return h ^ (h >> 29)


def pick(seed: int, position: Position, n: int) -> int:
    """An index in ``range(n)`` fixed by ``seed`` and ``position`` (evenly spread)."""
    return (seed_for(seed, position) * n) >> 64


class Bot(Protocol):
    """Something that chooses a move for the player whose turn it is.  A bot whose
    choice may take long (a search) says so with a class attribute ``blocks = True``
    (see :func:`blocks`): the host then runs it off its event loop."""

    kind: str

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        """One of ``legal_moves`` (which is never empty) for ``position.turn``."""
        ...


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for one search: a search makes thousands of
    short-lived tuples that reference counting frees, and the collector would keep
    scanning them and now and then run a full collection (10-25 ms) mid-decision."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def searched_choice(position: Position, legal_moves: Sequence[Move],
                    search: Callable[[Position, Sequence[Move]], Move]) -> Move:
    """What a searching bot's ``choose`` does around its search: no legal move is a
    ``ValueError``, a single one is played without searching, and otherwise ``search``
    decides with the cyclic collector paused (:func:`collector_paused`)."""
    if not legal_moves:
        raise ValueError("no legal move to choose from")
    if len(legal_moves) == 1:
        return legal_moves[0]
    with collector_paused():
        return search(position, legal_moves)


def blocks(bot: Bot) -> bool:
    """Whether ``bot`` may take long to choose (its ``blocks`` attribute; False when
    it has none: a quick bot need not say so)."""
    return bool(getattr(bot, "blocks", False))


def bot_name(level: str, n: int) -> str:
    """A bot's name at the table, e.g. ``expert bot 2``: it shows the strength."""
    return f"{level} bot {n}"


def level_of(name: str) -> str | None:
    """The strength a bot's name shows (``expert bot 2`` -> ``expert``), or None."""
    first = name.split(" ", 1)[0]
    return first if first in STRENGTHS and name.startswith(f"{first} bot ") else None


def made_name(name: str) -> tuple[str, int] | None:
    """The strength and number of a name :func:`bot_name` made (``expert bot 2`` ->
    ``("expert", 2)``), or None for any other name (one a person chose)."""
    level = level_of(name)
    number = name.rsplit(" ", 1)[-1]
    if level is None or not number.isdecimal() or name != bot_name(level, int(number)):
        return None
    return level, int(number)
