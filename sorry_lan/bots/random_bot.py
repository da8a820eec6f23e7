"""A bot that plays a uniformly random legal move.

The pick is a pure function of the bot's seed and the position (see ``base.pick``), so
two random bots with one seed agree wherever they meet the same position.  It does not
look at the board at all; it is the baseline the other bots must beat.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.moves import Move
from .base import Position, pick


class RandomBot:
    """Chooses evenly among the legal moves; same seed and position, same choice."""

    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        if not legal_moves:
            raise ValueError("no legal move to choose from")
        if len(legal_moves) == 1:
            return legal_moves[0]
        return legal_moves[pick(self.seed, position, len(legal_moves))]
