"""The checks of RULES.md section 9 over a layout, the piles and the held cards.

This module only checks; it does not build or change states.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sorry_lan.errors import SorryLanError

from .board import HOME, NUM_PAWNS, S1, S5, START, TRACK_LEN, pawn_colour
from .cards import Card, Deck, is_complete


class InvariantError(SorryLanError, AssertionError):
    """A state broke one of the rules' invariants (a bug, never a player's fault)."""


def check_layout(pawns: Sequence[int], seated: Iterable[int]) -> None:
    """Four pawns per seated colour, each in one valid place; no shared squares."""
    if len(pawns) != NUM_PAWNS:
        raise InvariantError(f"expected {NUM_PAWNS} pawn slots, got {len(pawns)}")
    seated = set(seated)
    if _plainly_valid(pawns, seated):
        return
    track: dict[int, int] = {}
    safety: set[tuple[int, int]] = set()
    for p, loc in enumerate(pawns):
        colour = pawn_colour(p)
        if colour not in seated:
            if loc != START:
                raise InvariantError(f"pawn {p} of an absent colour is on the board")
            continue
        if not (0 <= loc < TRACK_LEN or S1 <= loc <= S5 or loc in (HOME, START)):
            raise InvariantError(f"pawn {p} has no valid location ({loc})")
        if loc < TRACK_LEN:
            if loc in track:
                raise InvariantError(f"pawns {track[loc]} and {p} share track square {loc}")
            track[loc] = p
        elif loc <= S5:
            if (colour, loc) in safety:
                raise InvariantError(f"two pawns of colour {colour} share safety square {loc}")
            safety.add((colour, loc))


def _plainly_valid(pawns: Sequence[int], seated: set[int]) -> bool:
    """True only for a layout :func:`check_layout` accepts, told quickly (it runs
    after every move); False sends the layout through the full check, which says why."""
    track: list[int] = []
    for colour in range(4):
        four = pawns[colour * 4 : colour * 4 + 4]
        if colour not in seated:
            if any(loc != START for loc in four):
                return False
            continue
        safety: list[int] = []
        for loc in four:
            if 0 <= loc < TRACK_LEN:
                track.append(loc)
            elif S1 <= loc <= S5:
                safety.append(loc)
            elif loc != HOME and loc != START:
                return False
        if len(set(safety)) != len(safety):
            return False
    return len(set(track)) == len(track)


def check_invariants(
    pawns: Sequence[int], seated: Iterable[int], deck: Deck, held: Iterable[Card]
) -> None:
    """Raise :class:`InvariantError` unless the layout and all 45 cards are accounted for."""
    check_layout(pawns, seated)
    if not is_complete([*deck.pile, *deck.discards, *held]):
        raise InvariantError("draw pile + discards + held cards is not the 45-card deck")
