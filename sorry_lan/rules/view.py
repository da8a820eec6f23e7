"""What one seat (or a spectator) may see of a game.

A view never contains the draw order, and never a hand other than the seat's own.
It is a plain value; turning it into wire messages is the protocol layer's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import NO_CARDS, Card, card_counts
from .events import CardDrawn, Event
from .game import Game
from .variants import Variant


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None  # the viewer's colour; None for a spectator
    variant: Variant
    seated: tuple[int, ...]
    pawns: tuple[int, ...]
    turn: int
    turn_number: int
    state_id: int
    card: Card | None  # the card being played (public once drawn)
    after_two: bool
    hand: tuple[Card, ...] | None  # the seat's own hand (play for points), else None
    hand_sizes: dict[int, int] = field(default_factory=dict)
    draw_pile: int = 0
    discard_pile: int = 0
    discard_top: Card | None = None
    # The discard pile counted by card value (index = card int): public in Sorry!.
    discard_counts: tuple[int, ...] = NO_CARDS
    winner: int | None = None
    scores: dict[int, int] = field(default_factory=dict)


def view_for(game: Game, seat: int | None) -> View:
    """The game as ``seat`` sees it (``None``: a spectator, who sees no hand)."""
    hand = None
    if game.rules.deals_hands and seat is not None and seat in game.hands:
        hand = tuple(game.hands[seat])
    return View(
        seat=seat,
        variant=game.variant,
        seated=game.seated,
        pawns=game.pawns,
        turn=game.turn,
        turn_number=game.turn_number,
        state_id=game.state_id,
        card=game.card,
        after_two=game.after_two,
        hand=hand,
        hand_sizes={c: len(h) for c, h in game.hands.items()},
        draw_pile=len(game.deck.pile),
        discard_pile=len(game.deck.discards),
        discard_top=game.deck.discards[-1] if game.deck.discards else None,
        discard_counts=card_counts(game.deck.discards),
        winner=game.winner,
        scores=game.scores(),
    )


def visible_events(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may learn: a card drawn into someone else's hand is hidden."""
    return [
        e
        for e in events
        if not (isinstance(e, CardDrawn) and e.private and e.player != seat)
    ]
