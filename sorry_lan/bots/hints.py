"""Hints: each legal move's estimated chance to win, for the player to move.

:func:`move_chances` judges every move with the master's search (the win-chance
evaluation, one reply ahead, then two own turns ahead while the work limit allows,
every move searched to the same depth so that the chances compare), from a
:class:`~sorry_lan.bots.base.Position` alone: the board, the player's own card or hand
and the public discard pile, never another hand or the pile's order.  :func:`ranked`
orders them best first; :func:`cost` says how much a move played gave away against the
best one.

This module does not decide whether a table allows hints (the table option does), talk
to anyone, or play moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules.moves import Move
from .base import Position, collector_paused
from .master import OutOfTime, OutOfWork, Search
from .winchance import evaluator

#: The hints' work limit (the master's units): about 0.1-0.3 s here.
HINT_WORK: Final = 8_000
#: A move this much below the best (in win chance) is worth a mark in the replay.
COSTLY: Final = 0.05


def move_chances(position: Position, legal_moves: Sequence[Move], work: int = HINT_WORK
                 ) -> list[float]:
    """Each move's chance to win for ``position.turn``'s side, in the order given: the
    deepest search that finished for every move within ``work``."""
    if not legal_moves:
        return []
    with collector_paused():
        search = Search(position, evaluator(position.variant, position.seated),
                        float("inf"), work)
        chances = [search.root_value(move, 0) for move in legal_moves]
        for depth in (1, 2):
            try:
                chances = [search.root_value(move, depth) for move in legal_moves]
            except (OutOfWork, OutOfTime):
                break
    return [min(1.0, max(0.0, c)) for c in chances]


def ranked(chances: Sequence[float]) -> list[int]:
    """The indexes of ``chances``, best first (ties: the order given)."""
    return sorted(range(len(chances)), key=lambda i: (-chances[i], i))


def cost(chances: Sequence[float], played: int) -> float:
    """How much win chance move ``played`` gave away against the best move (0 for the
    best one)."""
    return max(chances) - chances[played] if chances else 0.0
