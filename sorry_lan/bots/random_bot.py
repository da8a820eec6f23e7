"""A bot that plays a uniformly random legal move, from its own seeded generator.

It does not look at the board at all; it is the baseline the other bots must beat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules.moves import Move
from .base import Position


class RandomBot:
    """Chooses uniformly among the legal moves; same seed, same choices."""

    kind = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        if not legal_moves:
            raise ValueError("no legal move to choose from")
        return legal_moves[self.rng.randrange(len(legal_moves))]

