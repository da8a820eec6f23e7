"""What happened in a game, as plain immutable values for logs, journals and the wire.

Events say nothing about who may see them except ``CardDrawn.private``: a card drawn
into a hand (play for points) is known to its holder only.  ``view.py`` filters.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .moves import Move


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int
    turn: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    player: int
    card: Card
    private: bool = False


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile became the new draw pile (``cards`` cards before this draw)."""

    cards: int


@dataclass(frozen=True, slots=True)
class MovePlayed:
    player: int
    move: Move


@dataclass(frozen=True, slots=True)
class TurnLost:
    """The card drawn allowed no move; the turn is over (after a 2: draw again).

    Declining the 11 is a choice, reported as ``MovePlayed`` with a DECLINE move.
    """

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class DrawAgain:
    """A 2 was played (or lost): the same player takes another card."""

    player: int


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: int
    winners: tuple[int, ...]
    scores: dict[int, int]


Event = TurnStarted | CardDrawn | Reshuffled | MovePlayed | TurnLost | DrawAgain | GameOver
