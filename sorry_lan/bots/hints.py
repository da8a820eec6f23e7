"""Hints: each legal move's estimated chance to win, for the player to move.

:func:`move_chances` judges every move with the expert's search (the learned
evaluation, one reply ahead: :func:`sorry_lan.bots.expert.move_chances`) with no work
limit and a time budget; a move the budget left unsearched gets the evaluation of the
layout it leaves (no lookahead).  It reads a :class:`~sorry_lan.bots.base.Position`
alone: the board, the player's own card or hand and the public discard pile, never
another hand or the pile's order.  :func:`ranked` orders them best first; :func:`cost`
says how much a move played gave away against the best one.

This module does not decide whether a table allows hints (the table option does), talk
to anyone, or play moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final

from ..rules.moves import Move
from . import expert
from .base import Position, collector_paused

#: Seconds the hints may take (all the moves are searched well within it here).
HINT_BUDGET: Final = 1.0
#: A move this much below the best (in win chance) is worth a mark in the replay.
COSTLY: Final = 0.05
_NO_LIMIT: Final = 10**9


def move_chances(position: Position, legal_moves: Sequence[Move],
                 budget: float = HINT_BUDGET,
                 clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Each move's chance to win for ``position.turn``'s side, in the order given."""
    if not legal_moves:
        return []
    with collector_paused():
        searched = expert.move_chances(position, legal_moves, budget, _NO_LIMIT, clock)
        statics: expert.Search | None = None
        out: list[float] = []
        for got, move in zip(searched, legal_moves, strict=True):
            if got is None:  # the budget ran out first: the layout it leaves, judged
                statics = statics or expert.Search(position, float("inf"), _NO_LIMIT)
                got = statics.static(move)
            out.append(min(1.0, max(0.0, got)))
    return out


def ranked(chances: Sequence[float]) -> list[int]:
    """The indexes of ``chances``, best first (ties: the order given)."""
    return sorted(range(len(chances)), key=lambda i: (-chances[i], i))


def cost(chances: Sequence[float], played: int) -> float:
    """How much win chance move ``played`` gave away against the best move (0 for the
    best one)."""
    return max(chances) - chances[played] if chances else 0.0
