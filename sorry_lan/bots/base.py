"""The bot interface: what a bot is shown and what it answers.

A bot picks one move from the legal moves the engine offers; it never invents a move,
never looks at the deck and never changes the position it is shown.  This module does not
build bots by name (``registry`` does) or run games (``sorry-lan simulate`` and the
network bot client do).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..rules.moves import Move
from ..rules.variants import Variant


class Position(Protocol):
    """What a bot may read: a :class:`~sorry_lan.rules.game.Game` or a seat's ``View``."""

    @property
    def variant(self) -> Variant: ...

    @property
    def seated(self) -> tuple[int, ...]: ...

    @property
    def pawns(self) -> tuple[int, ...]: ...

    @property
    def turn(self) -> int: ...


class Bot(Protocol):
    """Something that chooses a move for the player whose turn it is."""

    kind: str

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        """One of ``legal_moves`` (which is never empty) for ``position.turn``."""
        ...
