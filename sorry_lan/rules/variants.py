"""The three ways to play: standard, team play and play for points.

A variant decides the opening layout, which pawns a player may use for a card, who
has won, and the score.  It does not run turns (``game.py``) or generate moves
(``moves.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from .board import HOME, START, colour_pawns, start_exit
from .moves import MoveContext


class Variant(StrEnum):
    """A way to play; the value is its name on the wire, in adverts and in journals."""

    STANDARD = "standard"
    TEAM = "team"
    POINTS = "points"

    @classmethod
    def parse(cls, text: str) -> Variant:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(
                f"unknown variant {text!r} (choose standard, team or points)"
            ) from None

    @property
    def uses_hands(self) -> bool:
        return self is Variant.POINTS


HAND_SIZE = 5


def check_seating(variant: Variant, seated: Sequence[int]) -> None:
    """Raise ``ValueError`` unless ``seated`` is a valid set of colours for ``variant``."""
    if len(set(seated)) != len(seated):
        raise ValueError("a colour is seated twice")
    if any(c not in range(4) for c in seated):
        raise ValueError("unknown colour")
    if not 2 <= len(seated) <= 4:
        raise ValueError("a game needs 2 to 4 players")
    if variant is Variant.TEAM and len(seated) != 4:
        raise ValueError("team play needs all four colours")


def initial_pawns(variant: Variant, seated: Sequence[int]) -> tuple[int, ...]:
    """Opening layout: all in START; in play for points, each fourth pawn on its exit."""
    pawns = [START] * 16
    if variant is Variant.POINTS:
        for c in seated:
            pawns[colour_pawns(c)[3]] = start_exit(c)
    return tuple(pawns)


def all_home(pawns: Sequence[int], colour: int) -> bool:
    return all(pawns[p] == HOME for p in colour_pawns(colour))


def homes(pawns: Sequence[int], colour: int) -> int:
    return sum(1 for p in colour_pawns(colour) if pawns[p] == HOME)


def _colour_pawns(*colours: int) -> tuple[int, ...]:
    return tuple(p for c in colours for p in colour_pawns(c))


def move_context(
    variant: Variant, pawns: Sequence[int], player: int, after_two: bool = False
) -> MoveContext:
    """Which pawns ``player`` may use this turn.

    Team play (RULES.md section 7): a player moves their own pawns until all four are
    HOME, then the partner's; a 1 or 2 may bring out either partner's pawn; a 7 may be
    split between any two of the team's eight pawns; the card drawn after a 2 may move
    either partner's pawns.
    """
    if variant is not Variant.TEAM:
        own = _colour_pawns(player)
        return MoveContext(own, own, (player,), (player,), variant is not Variant.POINTS)
    partner = (player + 2) % 4
    team = _colour_pawns(player, partner)
    if after_two:
        colours: tuple[int, ...] = (player, partner)
    elif all_home(pawns, player):
        colours = (partner,)
    else:
        colours = (player,)
    return MoveContext(_colour_pawns(*colours), team, (player, partner), colours, True)


def winner(variant: Variant, pawns: Sequence[int], seated: Sequence[int]) -> int | None:
    """The winning colour (in team play, the colour of the team's lower seat), or None."""
    for c in seated:
        if all_home(pawns, c) and (variant is not Variant.TEAM or all_home(pawns, (c + 2) % 4)):
            return c if variant is not Variant.TEAM else min(c, (c + 2) % 4)
    return None


def team_of(colour: int) -> tuple[int, int]:
    """The two colours of ``colour``'s team, lower first: (red, yellow) or (blue, green)."""
    return (colour % 2, colour % 2 + 2)


def scores(
    variant: Variant, pawns: Sequence[int], seated: Sequence[int], won: int | None
) -> dict[int, int]:
    """Scores per seated colour.

    Play for points (RULES.md section 8): 5 per own pawn HOME; the winner adds 5 per
    opponent pawn not HOME and the single highest bonus that applies (100 if no
    opponent has a pawn HOME, else 50 if none has more than one, else 25 if none has
    more than two).  Other variants score the number of pawns HOME.
    """
    if variant is not Variant.POINTS:
        return {c: homes(pawns, c) for c in seated}
    out = {c: 5 * homes(pawns, c) for c in seated}
    if won is not None:
        others = [homes(pawns, c) for c in seated if c != won]
        out[won] += 5 * sum(4 - h for h in others)
        best = max(others, default=0)
        if best == 0:
            out[won] += 100
        elif best <= 1:
            out[won] += 50
        elif best <= 2:
            out[won] += 25
    return out
