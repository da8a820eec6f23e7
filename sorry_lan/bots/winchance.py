"""The win-chance evaluation the master and the hints search with, behind one small
interface (:class:`Evaluator`).

``evaluator(variant, seated)`` gives an object whose ``chances(pawns, to_move)`` is
each colour's chance to win (index = colour; 0 for an unseated colour; partners share
their team's chance) when ``to_move`` is about to draw.  Until the learned evaluation
(``evaluation.py``) is in the package, the chances come from the expert's hand-made
judge (:func:`~sorry_lan.bots.judge.evaluate`), turned into probabilities by a softmax
over the sides (:data:`SCALE` squares of progress make a factor e).

This module does not search or choose moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Protocol

from ..rules.variants import Variant
from .judge import evaluate

# Squares of the judge's score per factor e in the odds: measured on greedy-vs-greedy
# games, a lead of about one pawn's trip (65 squares) wins some 85% of the time.
SCALE: Final = 36.0


class Evaluator(Protocol):
    """A win-chance evaluation for one variant and seating."""

    def chances(self, pawns: Sequence[int], to_move: int) -> tuple[float, ...]:
        """Each colour's chance to win (4 values) with ``to_move`` about to draw."""
        ...


class JudgeChances:
    """The judge's score per side, as a softmax over the sides."""

    def __init__(self, variant: Variant, seated: tuple[int, ...]) -> None:
        rules = variant.rules
        sides: list[tuple[int, ...]] = []
        for c in seated:
            side = tuple(sorted(rules.side(c)))
            if side not in sides:
                sides.append(side)
        self.sides = sides
        self.others = [tuple(c for c in seated if c not in side) for side in sides]
        self.share = 1.0 if rules.partners else 1.0 / max(len(sides) - 1, 1)
        self.points = rules.deals_hands

    def chances(self, pawns: Sequence[int], to_move: int) -> tuple[float, ...]:
        scores = []
        for side, others in zip(self.sides, self.others, strict=True):
            if self.points:
                s = evaluate(pawns, side, others, self.share, 0.0, 0.0)
            else:
                s = evaluate(pawns, side, others, self.share)
            scores.append(s / SCALE)
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        out = [0.0] * 4
        for side, w in zip(self.sides, weights, strict=True):
            for c in side:
                out[c] = w / total
        return tuple(out)


@lru_cache(maxsize=32)
def evaluator(variant: Variant, seated: tuple[int, ...]) -> Evaluator:
    """The evaluation for ``variant`` with the colours ``seated`` (one per table kind)."""
    return JudgeChances(variant, seated)
