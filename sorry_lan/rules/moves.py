"""Move values: what a move is, its notation and its compact wire form.

A :class:`Move` is an immutable value that carries its whole effect: the parts the
player chose (which pawn, from where, where it landed, where a slide took it, whom it
bumped) and the net change of every pawn it touched, so applying and undoing a move
needs no rules knowledge.  :class:`MoveContext` says which pawns a player may use.

The legal moves themselves come from ``movegen.generate``.  This module does not
generate moves, judge legality, draw cards, keep turns or decide who wins: see
``movegen.py`` and ``game.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

from .board import location_name, pawn_label
from .cards import Card


class MoveKind(IntEnum):
    """What sort of move; also the first element of the compact wire form."""

    SIMPLE = 0  # one pawn forward, backward, or out of START
    SPLIT = 1  # a 7 split between two pawns
    SWAP = 2  # an 11 swap with another colour's pawn
    SORRY = 3  # a Sorry! card
    DECLINE = 4  # decline the optional 11 swap; the turn is lost
    DISCARD = 5  # play for points: discard a card, the turn ends


class Part(NamedTuple):
    """One pawn's displacement within a move, judged on the board the previous part left."""

    pawn: int
    frm: int
    to: int  # the square it lands on
    end: int  # where it stops (after a slide; == to otherwise)
    bumps: tuple[int, ...]  # pawns this part sends back to START

    @property
    def slid(self) -> bool:
        return self.end != self.to


Change = tuple[int, int, int]  # (pawn, before, after)


class Move(NamedTuple):
    """A legal move: its kind, the card played, its parts in order and its net effect."""

    kind: MoveKind
    card: Card
    parts: tuple[Part, ...]
    changes: tuple[Change, ...]

    def compact(self) -> tuple[int, ...]:
        """The compact wire form: ``(kind, card, *operands)``; see ``protocol/SPEC.md``."""
        kind = self.kind
        if kind == MoveKind.SIMPLE:
            p = self.parts[0]
            return (kind, self.card, p.pawn, p.to)
        if kind == MoveKind.SPLIT:
            a, b = self.parts
            return (kind, self.card, a.pawn, a.to, b.pawn, b.to)
        if kind == MoveKind.SWAP or kind == MoveKind.SORRY:
            a, b = self.parts
            return (kind, self.card, a.pawn, b.pawn)
        return (kind, self.card)

    def notation(self) -> str:
        """A short human notation, e.g. ``R1 12->19`` or ``7: R1 4->8, R2 10->13``."""
        kind = self.kind
        if kind == MoveKind.DECLINE:
            return "decline the 11 (turn lost)"
        if kind == MoveKind.DISCARD:
            return f"discard {self.card.title}"
        if kind == MoveKind.SWAP:
            a, b = self.parts
            text = f"{pawn_label(a.pawn)} {location_name(a.frm)} <-> {pawn_label(b.pawn)} "
            text += location_name(b.frm)
            return text + "".join(_effects(p, True) for p in self.parts)
        if kind == MoveKind.SORRY:
            a, b = self.parts
            text = f"Sorry! {pawn_label(a.pawn)} start->{location_name(a.to)}"
            return text + f" bumps {pawn_label(b.pawn)}" + _effects(a, False)
        if kind == MoveKind.SPLIT:
            return "7: " + ", ".join(_part_text(p) for p in self.parts)
        return _part_text(self.parts[0])

    def result(self, pawns: Sequence[int]) -> tuple[int, ...]:
        """The 16 pawn locations after this move is applied to ``pawns``."""
        out = list(pawns)
        for pawn, _before, after in self.changes:
            out[pawn] = after
        return tuple(out)

    def undo(self, pawns: Sequence[int]) -> tuple[int, ...]:
        """The 16 pawn locations before this move, given those after it."""
        out = list(pawns)
        for pawn, before, _after in self.changes:
            out[pawn] = before
        return tuple(out)

    def bumped(self) -> tuple[int, ...]:
        """Every pawn this move sends back to START."""
        return tuple(q for p in self.parts for q in p.bumps)


def _effects(part: Part, name_pawn: bool) -> str:
    text = ""
    if part.slid:
        who = f"{pawn_label(part.pawn)} " if name_pawn else ""
        text += f", {who}slides to {location_name(part.end)}"
    if part.bumps:
        text += ", bumps " + ",".join(pawn_label(q) for q in part.bumps)
    return text


def _part_text(part: Part) -> str:
    text = f"{pawn_label(part.pawn)} {location_name(part.frm)}->{location_name(part.to)}"
    return text + _effects(part, False)


class MoveContext(NamedTuple):
    """Which pawns a player may use for a card (variants decide; see ``variants.py``).

    ``movers``: pawns that may move along the board (forward, backward, swap, one 7).
    ``splitters``: pawns a 7 may be split between.
    ``starters``: colours whose START a 1, 2 or Sorry! may take a pawn from.
    ``may_decline``: whether declining the 11 is offered when no pawn can move 11.
    """

    movers: tuple[int, ...]
    splitters: tuple[int, ...]
    starters: tuple[int, ...]
    sorry_starters: tuple[int, ...]
    may_decline: bool = True
