"""A bot that plays a uniformly random legal move.

The pick is a pure function of the bot's seed and the position (see ``base.pick``), so
two random bots with one seed agree wherever they meet the same position.  It does not
look at the board at all; it is the baseline the other bots must beat.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.moves import Move
from .base import SPREAD as _SPREAD
from .base import Position

_MASK = 0xFFFFFFFFFFFFFFFF


class RandomBot:
    """Chooses evenly among the legal moves; same seed and position, same choice."""

    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        n = len(legal_moves)
        if n == 1:
            return legal_moves[0]
        if not n:
            raise ValueError("no legal move to choose from")
        # ``pick(self.seed, position, n)`` inlined (simulate's random games make
        # hundreds of thousands of these choices): the same hash, spread and scale.
        _variant, _seated, pawns, turn, cards, after_two, _discards = position
        h = hash((self.seed, 0, pawns, turn, cards, after_two)) & _MASK
        h = (h * _SPREAD) & _MASK
        return legal_moves[((h ^ (h >> 29)) * n) >> 64]
