"""A greedy bot: it plays the legal move whose resulting layout scores best for its side.

One move of lookahead only: it scores each ``Move.result`` and does not guess the next
cards or the opponents' replies.  In team play the partner's pawns count as its own.
Ties are broken by its seed and the position (``base.pick``), so its choice is a pure
function of both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules.board import (
    HOME,
    NUM_LOCATIONS,
    S1,
    S5,
    START,
    TRACK_LEN,
    forward,
    safety_entry,
)
from ..rules.moves import Move
from .base import Position, pick

# Scoring weights (in "squares of progress"), measured against the host's greedy bot
# before issue 14 (``table-greedy`` in scripts/bench_bots.py), 2 players, standard,
# 1,500 games each, seed 3: these weights win 59.9% (1,000 games); THREAT_SHARE
# 0.35: 60.7%, 0.1: 61.0%; START_PENALTY 2: 60.7%, 8: 60.3%; SAFETY_BONUS 10 with
# HOME_BONUS 14: 60.0%.  Every variant is within the others' 95% interval (+-2.5%):
# the one-move judge is flat in these weights, so they stay as they were.
SAFETY_BONUS: Final = 6  # a pawn in its safety zone can no longer be bumped
HOME_BONUS: Final = 10  # a pawn HOME is done for good
START_PENALTY: Final = 4  # a pawn in START also needs a 1, 2 or Sorry! to come out
THREAT_SHARE: Final = 0.2  # share of a pawn's progress at risk when an enemy is 1..12 behind
LOOKBACK: Final = 12


def _value(colour: int, loc: int) -> float:
    """What one pawn of ``colour`` at ``loc`` is worth: its progress plus bonuses."""
    if loc == START:
        return -START_PENALTY
    if loc == HOME:
        return 65 + HOME_BONUS
    if S1 <= loc <= S5:
        return 59 + (loc - S1 + 1) + SAFETY_BONUS
    remaining = (safety_entry(colour) - loc) % TRACK_LEN + 6
    return max(65 - remaining, 0)


# VALUE[colour * NUM_LOCATIONS + loc]
VALUE: Final = tuple(_value(c, loc) for c in range(4) for loc in range(NUM_LOCATIONS))


def _reach(colour: int, m: int) -> int:
    """The track squares a pawn of ``colour`` at ``m`` lands on with one forward card of
    1..12 steps, as a bit mask (bit ``loc``)."""
    mask = 0
    for steps in range(1, LOOKBACK + 1):
        loc = forward(colour, m, steps)
        if 0 <= loc < TRACK_LEN and (loc - m) % TRACK_LEN == steps:
            mask |= 1 << loc
    return mask


# REACH[colour * TRACK_LEN + loc]: the squares an enemy there threatens.
REACH: Final = tuple(_reach(c, m) for c in range(4) for m in range(TRACK_LEN))


def score(pawns: Sequence[int], seated: Sequence[int], side: Sequence[int]) -> float:
    """How good ``pawns`` is for the colours in ``side`` (higher is better).

    Own progress toward HOME (with safety and HOME bonuses) minus the opponents'; a
    share of each own track pawn's progress is discounted when an enemy sits 1..12
    squares behind it (an enemy on the track that a forward card brings onto it).
    """
    threatened = 0
    for c in seated:
        if c not in side:
            row = c * TRACK_LEN
            for m in pawns[c * 4 : c * 4 + 4]:
                if m < TRACK_LEN:
                    threatened |= REACH[row + m]
    total = 0.0
    for c in seated:
        base = c * NUM_LOCATIONS
        if c in side:
            for loc in pawns[c * 4 : c * 4 + 4]:
                v = VALUE[base + loc]
                if loc < TRACK_LEN and threatened >> loc & 1:
                    v -= THREAT_SHARE * v + 1
                total += v
        else:
            for loc in pawns[c * 4 : c * 4 + 4]:
                total -= VALUE[base + loc]
    return total


def side_of(position: Position) -> tuple[int, ...]:
    """The colours whose pawns count as the player's own."""
    return position.variant.rules.side(position.turn)


class GreedyBot:
    """Plays the move whose result :func:`score` rates highest (seeded tie-breaks)."""

    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        if not legal_moves:
            raise ValueError("no legal move to choose from")
        if len(legal_moves) == 1:
            return legal_moves[0]
        pawns = position.pawns
        seated = position.seated
        side = side_of(position)
        best: list[Move] = []
        best_score = float("-inf")
        for move in legal_moves:
            s = score(move.result(pawns), seated, side)
            if s > best_score:
                best_score = s
                best = [move]
            elif s == best_score:
                best.append(move)
        if len(best) == 1:
            return best[0]
        return best[pick(self.seed, position, len(best))]
