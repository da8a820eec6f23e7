"""The standings at the end of a game: who came first, second, third.

RULES.md names only the winner; the others are placed here as a family would place
them at the table: by the variant's score (pawns HOME, or points in play for
points), then by how far their pawns got (the squares from START each pawn has
travelled, HOME counting as the whole way).  A side (a colour, or a team of two in
team play) is placed as one.  The winning side is first; sides equal on both counts
share a place, and the next place skips as many as shared it ("1, 2, 2, 4").

It keeps no state and says nothing in words: a reader names the places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import HOME, S1, START, TRACK_LEN, start_exit
from .variants import VariantRules

#: A pawn's steps from START to HOME: leaving START (1), the track from its exit to
#: the last square before its safety zone (58), the five safety squares and HOME.
WHOLE_WAY = 1 + 58 + 5 + 1


@dataclass(frozen=True, slots=True)
class Place:
    """One side's place: ``place`` 1 for the winner; ``colours`` the side's seated
    colours (its first one first); ``score`` the side's score (its colours' summed)."""

    place: int
    colours: tuple[int, ...]
    score: int


def progress(pawns: Sequence[int], colour: int) -> int:
    """The squares ``colour``'s four pawns have travelled from START, summed."""
    total = 0
    for loc in pawns[colour * 4 : colour * 4 + 4]:
        if loc == START:
            continue
        if loc == HOME:
            total += WHOLE_WAY
        elif loc >= S1:
            total += 1 + 58 + (loc - S1 + 1)
        else:
            total += 1 + (loc - start_exit(colour)) % TRACK_LEN
    return total


def standings(
    rules: VariantRules, pawns: Sequence[int], seated: Sequence[int], won: int | None
) -> list[Place]:
    """Every seated side in its place, the first first (see the module docstring)."""
    scores = rules.scores(pawns, seated, won)
    winners = set(rules.winners(won)) if won is not None else set()
    sides: list[tuple[int, ...]] = []
    for colour in seated:
        side = tuple(c for c in rules.side(colour) if c in seated)
        if not any(colour in s for s in sides):
            sides.append(side)

    keys = {
        side: (
            bool(winners & set(side)),
            sum(scores.get(c, 0) for c in side),
            sum(progress(pawns, c) for c in side),
        )
        for side in sides
    }
    ranked = sorted(sides, key=keys.__getitem__, reverse=True)
    out: list[Place] = []
    for i, side in enumerate(ranked):
        shared = i > 0 and keys[ranked[i - 1]] == keys[side]
        place = out[-1].place if shared else i + 1
        out.append(Place(place, side, keys[side][1]))
    return out
