"""How good a layout is for one side: the expert's evaluation, built from lookup tables.

:func:`evaluate` adds each own pawn's worth (progress toward HOME, with bonuses for
the safety zone and HOME and a cost for START) and subtracts the opponents', then
weighs danger both ways: the chance that an opponent's next card bumps each own pawn
(landing on it, sliding over it, or leaving START onto it; a Sorry! takes the best
pawn) times what the pawn would lose, and the same for the opponents' pawns.  The
chances come from the deck's card counts (:data:`HIT`), not from any hidden card.

This module only scores layouts: it does not list moves or look ahead (``expert.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules.board import (
    BACKWARD,
    FORWARD,
    HOME,
    NUM_LOCATIONS,
    S1,
    S5,
    SLIDE_AT,
    SLIDE_OWNER,
    START,
    TRACK_LEN,
    safety_entry,
    start_exit,
)
from ..rules.cards import DECK_COUNTS, DECK_SIZE, Card

# The expert's weights, in squares of progress, chosen by measurement: expert against
# greedy, 2 players, standard, 600-800 games a setting.  EXPOSED 0.8 with ATTACK 0.5
# won 44-48%; EXPOSED 0 with ATTACK 0, 1 or 2: 51%, 52%, 50%; START_COST 0, 1.5, 3
# (ATTACK 1): 49%, 51%, 54%; EXPOSED 0.2: 53%; with the next-card term (expert.NEXT)
# 0.5 or 1: 53.5%, 53.6% (each +-3.5%): the weights matter little.
SAFETY_BONUS: Final = 6.0  # a pawn in its safety zone can no longer be bumped
HOME_BONUS: Final = 8.0  # a pawn HOME is done for good
START_COST: Final = 3.0  # a pawn in START also needs a 1, 2 or Sorry! to come out
EXPOSED: Final = 0.2  # share of an own pawn's expected loss to the opponents' next cards
ATTACK: Final = 1.0  # share of an opponent pawn's expected loss to our next cards


def _worth(colour: int, loc: int) -> float:
    if loc == START:
        return -START_COST
    if loc == HOME:
        return 65 + HOME_BONUS
    if S1 <= loc <= S5:
        return 59 + (loc - S1 + 1) + SAFETY_BONUS
    remaining = (safety_entry(colour) - loc) % TRACK_LEN + 6
    return float(max(65 - remaining, 0))


# WORTH[colour * NUM_LOCATIONS + loc]: one pawn's worth; LOSS: what being bumped costs.
WORTH: Final = tuple(_worth(c, loc) for c in range(4) for loc in range(NUM_LOCATIONS))
LOSS: Final = tuple(
    WORTH[c * NUM_LOCATIONS + loc] - WORTH[c * NUM_LOCATIONS + START]
    for c in range(4)
    for loc in range(NUM_LOCATIONS)
)


def _landings(colour: int, loc: int, card: Card) -> set[int]:
    """The track squares whose pawn a pawn of ``colour`` at ``loc`` can bump with
    ``card`` (ignoring who stands where): its landing squares and the slides it takes."""
    if loc == START:
        return {start_exit(colour)} if card in (Card.ONE, Card.TWO) else set()
    if card == Card.SORRY:
        return set()
    fwd: tuple[int, ...] = (int(card),)
    back: tuple[int, ...] = ()
    if card == Card.FOUR:
        fwd, back = (), (4,)
    elif card == Card.TEN:
        back = (1,)
    elif card == Card.SEVEN:
        fwd = (1, 2, 3, 4, 5, 6, 7)  # one pawn's share of a split, or the whole 7
    out: set[int] = set()
    targets = [FORWARD[(colour * NUM_LOCATIONS + loc) * 13 + n] for n in fwd]
    targets += [BACKWARD[(colour * NUM_LOCATIONS + loc) * 13 + n] for n in back]
    for to in targets:
        if not 0 <= to < TRACK_LEN:
            continue
        owner = SLIDE_OWNER[to]
        if owner >= 0 and owner != colour:
            out.update(SLIDE_AT[to][2])
        else:
            out.add(to)
    return out


def _hit_table() -> tuple[float, ...]:
    rows: list[float] = []
    for c in range(4):
        for loc in range(NUM_LOCATIONS):
            row = [0.0] * TRACK_LEN
            if loc < TRACK_LEN or loc == START:
                for card, n in DECK_COUNTS.items():
                    for sq in _landings(c, loc, card):
                        row[sq] += n / DECK_SIZE
            rows += row
    return tuple(rows)


# HIT[(colour * NUM_LOCATIONS + loc) * TRACK_LEN + square]: the chance that a pawn of
# ``colour`` at ``loc`` can bump a pawn on ``square`` with the next card drawn.
HIT: Final = _hit_table()
SORRY_CHANCE: Final = DECK_COUNTS[Card.SORRY] / DECK_SIZE


def evaluate(
    pawns: Sequence[int], own: Sequence[int], opponents: Sequence[int], share: float,
    exposed: float = EXPOSED, attack: float = ATTACK,
) -> float:
    """How good ``pawns`` is for the colours ``own`` against ``opponents`` (higher is
    better); ``share`` weighs the opponents' worth and losses against our own."""
    worth = WORTH
    loss = LOSS
    hit = HIT
    total = 0.0
    mine: list[tuple[int, float]] = []  # (square, loss if bumped) of own track pawns
    my_rows: list[int] = []  # HIT rows of our pawns that can attack
    my_start = False
    best_mine = 0.0
    for c in own:
        base = c * NUM_LOCATIONS
        for p in range(c * 4, c * 4 + 4):
            loc = pawns[p]
            total += worth[base + loc]
            if loc < TRACK_LEN:
                lost = loss[base + loc]
                mine.append((loc, lost))
                if lost > best_mine:
                    best_mine = lost
                my_rows.append((base + loc) * TRACK_LEN)
            elif loc == START:
                my_start = True
    if my_start:
        for c in own:
            if START in pawns[c * 4:c * 4 + 4]:
                my_rows.append((c * NUM_LOCATIONS + START) * TRACK_LEN)
    theirs: list[tuple[int, float]] = []
    their_rows: list[int] = []
    their_start = False
    best_theirs = 0.0
    for c in opponents:
        base = c * NUM_LOCATIONS
        starting = False
        for p in range(c * 4, c * 4 + 4):
            loc = pawns[p]
            total -= share * worth[base + loc]
            if loc < TRACK_LEN:
                lost = loss[base + loc]
                theirs.append((loc, lost))
                if lost > best_theirs:
                    best_theirs = lost
                their_rows.append((base + loc) * TRACK_LEN)
            elif loc == START:
                starting = True
        if starting:
            their_start = True
            their_rows.append((base + START) * TRACK_LEN)
    danger = 0.0
    for loc, lost in (mine if exposed else ()):
        chance = 0.0
        for row in their_rows:
            chance += hit[row + loc]
        danger += (chance if chance < 1.0 else 1.0) * lost
    if their_start:
        danger += SORRY_CHANCE * best_mine
    chances = 0.0
    for loc, lost in theirs:
        chance = 0.0
        for row in my_rows:
            chance += hit[row + loc]
        chances += (chance if chance < 1.0 else 1.0) * lost
    if my_start:
        chances += SORRY_CHANCE * best_theirs
    return total - exposed * danger + attack * share * chances
