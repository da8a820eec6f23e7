"""A game rebuilt mid-way from what the players saw: a new host carries a game on.

A :class:`Midgame` is a game's position at one decision as the table knows it in
public (the variant, who is seated, the pawns, whose turn, the card in play, whether
the decision follows a 2, the discard pile by card kind, the state id) plus the hands
the new host knows (play for points: the hands players revealed to it).
:func:`rebuild` turns it into a :class:`~sorry_lan.rules.game.Game` that goes on from
there: the cards nobody has seen (the deck less the discard pile, the card in play and
the known cards of hands) are shuffled from ``seed`` into a fresh draw pile, and
every card of a hand not known is dealt from its top.  The old draw order was never
seen by anyone but the old host, so every order of the unseen cards is as likely as
the one it had: a fresh shuffle is as fair.  The discard pile's order does not matter
until it is reshuffled (and then it is shuffled), so its counts are enough.

Everything is checked (RULES.md section 9, the seating, whose turn, the hands' sizes,
the cards' counts); a position that cannot be a game raises :class:`MidgameError`
naming what is wrong.  This module does not know who sits where, what the wire says,
or which hands to trust (the host checks a revealed hand against its commitment).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sorry_lan.errors import SorryLanError

from .board import NUM_PAWNS
from .cards import CARD_VALUES, DECK_COUNTS, NO_CARDS, Card, Deck, shuffle
from .game import Game
from .state import InvariantError, check_invariants, check_layout
from .variants import Variant


class MidgameError(SorryLanError, ValueError):
    """A position that cannot be a game's (``str`` says what is wrong)."""


@dataclass(frozen=True)
class Midgame:
    """A game's position at a decision, as the table saw it, and the hands known.

    ``discarded`` counts the discard pile by card value (index = the card's int, as
    ``card_counts`` gives them); ``card`` is the card in play (None in play for points,
    or once the game is won); ``hands`` the cards of each hand the new host knows, by
    colour (play for points: a whole hand, or the part its player knew; the rest, and
    the hands not known, are dealt fresh).  ``first`` is who began the game (None:
    the player to move); ``first_sid`` the state id the game began at (None: ``sid``).
    """

    variant: Variant
    seated: tuple[int, ...]
    pawns: tuple[int, ...]
    turn: int
    sid: int
    card: Card | None = None
    after_two: bool = False
    discarded: tuple[int, ...] = NO_CARDS
    hands: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    moves_played: int = 0
    first: int | None = None
    first_sid: int | None = None

    def as_json(self) -> dict[str, Any]:
        """The position as plain JSON values (what a successor's journal keeps)."""
        return {
            "variant": self.variant.value,
            "seated": list(self.seated),
            "pawns": list(self.pawns),
            "turn": self.turn,
            "sid": self.sid,
            "card": None if self.card is None else int(self.card),
            "after_two": self.after_two,
            "discarded": list(self.discarded),
            "hands": {str(c): [int(x) for x in h] for c, h in sorted(self.hands.items())},
            "moves": self.moves_played,
            "first": self.first,
            "sid0": self.first_sid,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Midgame:
        """The position :meth:`as_json` wrote; ``KeyError``, ``TypeError`` or
        ``ValueError`` for what is not one (whether it can be a game, :func:`rebuild`
        checks)."""
        card, first, sid0 = data["card"], data.get("first"), data.get("sid0")
        return cls(
            Variant.parse(str(data["variant"])),
            tuple(int(c) for c in data["seated"]),
            tuple(int(p) for p in data["pawns"]),
            int(data["turn"]),
            int(data["sid"]),
            card=None if card is None else Card(int(card)),
            after_two=bool(data["after_two"]),
            discarded=tuple(int(n) for n in data["discarded"]),
            hands={int(c): tuple(Card(int(x)) for x in h) for c, h in dict(data["hands"]).items()},
            moves_played=int(data.get("moves", 0)),
            first=None if first is None else int(first),
            first_sid=None if sid0 is None else int(sid0),
        )

    def known(self) -> dict[int, int]:
        """How many cards of each hand are known, by colour (for :func:`reveal_hand`)."""
        return {c: len(h) for c, h in self.hands.items()}

    def unseen(self) -> list[Card]:
        """The cards nobody at the table has seen where they are, in card order: the
        deck less the discard pile, the card in play and the known hands."""
        counts = dict(DECK_COUNTS)
        if len(self.discarded) != CARD_VALUES:
            raise MidgameError(f"the discard counts have {len(self.discarded)} entries, "
                               f"not {CARD_VALUES}")  # fmt: skip
        for value, n in enumerate(self.discarded):
            if n == 0:
                continue
            try:
                card = Card(value)
            except ValueError:
                raise MidgameError(f"the discard pile counts a card {value}") from None
            counts[card] -= n
        held = [c for hand in self.hands.values() for c in hand]
        if self.card is not None:
            held.append(self.card)
        for card in held:
            counts[card] -= 1
        short = [card.label for card, n in counts.items() if n < 0]
        if short:
            raise MidgameError(f"more {', '.join(short)} cards are seen than the deck has")
        return [card for card, n in counts.items() for _ in range(n)]


def rebuild(position: Midgame, seed: int) -> Game:
    """The game at ``position``, its unseen cards shuffled from ``seed`` into the draw
    pile (and, in play for points, the hands not known dealt from it, in seat order
    from the player to move); the same ``seed`` always gives the same game."""
    _check(position)
    rules = position.variant.rules
    rng = random.Random(seed)
    deck = Deck.__new__(Deck)
    deck.rng = rng
    deck.pile = position.unseen()
    shuffle(deck.pile, rng)
    deck.discards = [Card(v) for v, n in enumerate(position.discarded) for _ in range(n)]
    deck.reshuffles = 0
    hands = {c: list(h) for c, h in position.hands.items()}
    if rules.deals_hands and rules.winner(position.pawns, position.seated) is None:
        _fill(hands, _order(position.seated, position.turn), deck.pile, rules.hand_size)
    first = position.turn if position.first is None else position.first
    first_sid = position.sid if position.first_sid is None else position.first_sid
    game = Game(position.variant, position.seated, seed=seed, first=first, first_sid=first_sid)
    game.resume(
        deck=deck, pawns=position.pawns, turn=position.turn, card=position.card,
        after_two=position.after_two, hands=hands, state_id=position.sid,
        moves_played=position.moves_played,
    )  # fmt: skip
    try:
        check_invariants(game.pawns, game.seated, game.deck, game.held_cards())
    except InvariantError as exc:  # (the checks above should make this unreachable)
        raise MidgameError(str(exc)) from None
    if not game.over and not game.legal_moves():
        raise MidgameError("the player to move has no legal move with that card")
    return game


def _check(position: Midgame) -> None:
    """Raise :class:`MidgameError` unless ``position`` can be a game's decision."""
    rules = position.variant.rules
    seated = position.seated
    problem = rules.seating_problem(seated)
    if problem is not None or tuple(sorted(set(seated))) != seated:
        raise MidgameError(problem or "the seated colours must be distinct, in order")
    if position.turn not in seated:
        raise MidgameError(f"colour {position.turn} is to move but not seated")
    if position.first is not None and position.first not in seated:
        raise MidgameError(f"colour {position.first} began but is not seated")
    if len(position.pawns) != NUM_PAWNS:
        raise MidgameError(f"expected {NUM_PAWNS} pawns, got {len(position.pawns)}")
    try:
        check_layout(position.pawns, seated)
    except InvariantError as exc:
        raise MidgameError(str(exc)) from None
    if position.sid < 0 or (position.first_sid is not None and position.first_sid > position.sid):
        raise MidgameError(f"state id {position.sid} cannot follow {position.first_sid}")
    if any(n < 0 for n in position.discarded):
        raise MidgameError("a discard count is negative")
    over = rules.winner(position.pawns, seated) is not None
    _check_cards(position, over)


def _check_cards(position: Midgame, over: bool) -> None:
    rules = position.variant.rules
    if not rules.deals_hands:
        if position.hands:
            raise MidgameError(f"{position.variant.value} play has no hands")
        if over != (position.card is None):
            raise MidgameError("a card is in play exactly while the game goes on")
        return
    if position.card is not None:
        raise MidgameError("play for points has no card in play (the hands hold them)")
    for colour, hand in position.hands.items():
        if colour not in position.seated:
            raise MidgameError(f"a hand for colour {colour}, not seated")
        if not over and len(hand) > rules.hand_size:
            raise MidgameError(f"colour {colour}'s hand has {len(hand)} cards, "
                               f"more than {rules.hand_size}")  # fmt: skip


def _order(seated: Sequence[int], turn: int) -> list[int]:
    """The seated colours in turn order from ``turn``."""
    i = seated.index(turn)
    return [*seated[i:], *seated[:i]]


def _fill(hands: dict[int, list[Card]], order: Sequence[int], pile: list[Card], size: int) -> None:
    """Deal from the top of ``pile`` the cards each hand lacks, in ``order``."""
    for colour in order:
        hand = hands.setdefault(colour, [])
        need = size - len(hand)
        if need > len(pile):
            raise MidgameError("too few unseen cards to deal the hands not known")
        hand += [pile.pop() for _ in range(need)]


def reveal_hand(game: Game, colour: int, hand: Sequence[Card], known: Mapping[int, int]) -> None:
    """Give ``colour`` the cards of its hand it revealed (all of it, or the part its
    player knew), in a game :func:`rebuild` made, before anyone drew from its pile.
    ``known`` says how many cards of each hand are known (the hand's first ones: the
    rest were dealt afresh); ``colour``'s must be none.  The cards dealt afresh go back
    into the draw pile, the revealed ones come out of it, the pile is shuffled again
    from the game's generator and every hand is made up again from it (in seat order
    from the player to move), so the same reveals in the same order always give the
    same game.  Raises :class:`MidgameError` when the revealed cards are not among the
    unseen ones, or ``colour`` has nothing to reveal."""
    rules = game.rules
    if not rules.deals_hands or colour not in game.hands or known.get(colour, 0):
        raise MidgameError(f"colour {colour} holds no hand to reveal")
    if not 0 < len(hand) <= rules.hand_size:
        raise MidgameError(f"a hand has 1 to {rules.hand_size} cards, not {len(hand)}")
    if game.over:
        raise MidgameError("the game is over")
    pool = Counter(game.deck.pile)
    for c, cards in game.hands.items():
        pool.update(cards[known.get(c, 0) :])
    if Counter(hand) - pool:
        raise MidgameError("the cards revealed are not among the cards nobody has seen")
    pile = sorted((pool - Counter(hand)).elements())
    shuffle(pile, game.deck.rng)
    hands = {c: cards[: known.get(c, 0)] for c, cards in game.hands.items()}
    hands[colour] = list(hand)
    _fill(hands, _order(game.seated, game.turn), pile, rules.hand_size)
    game.hands.update(hands)
    game.deck.pile = pile
    game.forget_moves()
