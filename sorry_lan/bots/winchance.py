"""The win-chance evaluation the master and the hints search with, behind one small
interface (:class:`Evaluator`).

``evaluator(variant, seated)`` gives an object whose ``chances(pawns, to_move)`` is
each colour's chance to win (index = colour; 0 for an unseated colour; partners share
their team's chance) when ``to_move`` is about to draw, and ``side_chances`` the same
by side (``side_of[colour]`` indexes it): the learned evaluation
(:mod:`.evaluation`, fitted by ``scripts/train_eval.py``).

This module does not search or choose moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..rules.variants import Variant
from .evaluation import evaluator as learned


class Evaluator(Protocol):
    """A win-chance evaluation for one variant and seating."""

    #: Each seated colour's side: its index in :meth:`side_chances` (partners share one).
    side_of: dict[int, int]

    def chances(self, pawns: Sequence[int], to_move: int) -> tuple[float, ...]:
        """Each colour's chance to win (4 values) with ``to_move`` about to draw."""
        ...

    def side_chances(self, pawns: Sequence[int], to_move: int) -> list[float]:
        """The same chances by side (index: :attr:`side_of`'s), without the copy per
        colour: the form a search's hot loop reads."""
        ...


def evaluator(variant: Variant, seated: tuple[int, ...]) -> Evaluator:
    """The evaluation for ``variant`` with the colours ``seated``."""
    return learned(variant, seated)
