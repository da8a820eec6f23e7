"""Positions for the bots' tests: a layout by pawn labels, and its legal moves.

Helpers only (no tests here).
"""

from __future__ import annotations

from sorry_lan.bots import Position
from sorry_lan.rules import Card, Move, generate, move_context
from sorry_lan.rules.board import START


def layout(**where: int) -> tuple[int, ...]:
    """A 16-pawn layout: ``layout(R1=10, Y2=40)``; every other pawn in START."""
    pawns = [START] * 16
    for label, loc in where.items():
        pawns["RBYG".index(label[0]) * 4 + int(label[1]) - 1] = loc
    return tuple(pawns)


def legal(position: Position) -> list[Move]:
    """The legal moves of ``position``'s card or hand (no discards)."""
    ctx = move_context(position.variant, position.pawns, position.turn, position.after_two)
    moves: list[Move] = []
    for card in sorted(set(position.cards)):
        moves += generate(position.pawns, Card(card), ctx)
    return moves
