"""Where each place of the board is drawn on a phone: a 16 by 16 grid of cells.

The 60 track squares run clockwise round the grid's edge, red's side along the top;
each colour's five safety squares and HOME go inward from its safety entry, its
START sits inside beside its start exit; a START or HOME box takes two cells by two
(``Cell.area``), for four pawns.  :func:`cells` lists the cells with the
pawns on them (their tokens, ``R1``..``G4``, so the board reads without colour), for
the page to place; the page draws nothing it was not told.  Pure: no rules beyond
the board's geometry (``rules.board``), which decides nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sorry_lan.rules.board import (
    BASE,
    HOME,
    LONG_SLIDE,
    S1,
    SAFETY_LEN,
    SHORT_SLIDE,
    START,
    START_EXIT_OFFSET,
    TRACK_LEN,
    pawn_colour,
    pawn_label,
    safety_entry,
)

#: The grid's side, in cells.
SIDE = 16


#: The side, in grid cells, of a START or HOME box: room for four pawns' tokens.
BOX = 2


@dataclass(frozen=True)
class Cell:
    """One drawn place: its column and row, its kind (``track``, ``slide``,
    ``safety``, ``start``, ``home``), the colour it belongs to (None: a plain track
    square) and the pawns on it, by token."""

    x: int
    y: int
    kind: str
    colour: int | None
    pawns: tuple[str, ...] = ()

    @property
    def area(self) -> tuple[int, int, int, int]:
        """Where it is drawn: (column, row, width, height) on the grid.  A START or
        HOME box holds up to four pawns, so it takes :data:`BOX` by :data:`BOX`
        cells, from its own towards the board's centre (where nothing else lies)."""
        if self.kind not in ("start", "home"):
            return (self.x, self.y, 1, 1)
        left = self.x if self.x < SIDE // 2 else self.x - BOX + 1
        top = self.y if self.y < SIDE // 2 else self.y - BOX + 1
        return (left, top, BOX, BOX)


def _turn(x: int, y: int, quarters: int) -> tuple[int, int]:
    """(x, y) turned clockwise round the grid's centre ``quarters`` times."""
    for _ in range(quarters):
        x, y = SIDE - 1 - y, x
    return x, y


def track_cell(square: int) -> tuple[int, int]:
    """The cell of track square ``square``: red's side (0..14) along the top."""
    side, along = divmod(square, SIDE - 1)
    return _turn(along, 0, side)


def _own(colour: int, x: int, y: int) -> tuple[int, int]:
    """A place laid out for red at (x, y), for ``colour``."""
    return _turn(x, y, colour)


def place_cell(colour: int, loc: int) -> tuple[int, int]:
    """The cell of location ``loc`` for a pawn of ``colour``."""
    if loc < TRACK_LEN:
        return track_cell(loc)
    entry = safety_entry(0) - BASE[0]
    if loc == HOME:
        return _own(colour, entry, SAFETY_LEN + 1)
    if loc == START:
        return _own(colour, START_EXIT_OFFSET, 2)
    return _own(colour, entry, loc - S1 + 1)


def _slides() -> dict[int, int]:
    """Each slide's square -> the colour of its side."""
    out = {}
    for colour, base in enumerate(BASE):
        for first, last in (SHORT_SLIDE, LONG_SLIDE):
            for offset in range(first, last + 1):
                out[(base + offset) % TRACK_LEN] = colour
    return out


_SLIDES = _slides()


def cells(pawns: Sequence[int]) -> list[Cell]:
    """Every place of the board, with the pawns of ``pawns`` (16 locations, or ()
    before a game) on it."""
    on: dict[tuple[int, int], list[str]] = {}
    for pawn, loc in enumerate(pawns):
        on.setdefault(place_cell(pawn_colour(pawn), loc), []).append(pawn_label(pawn))
    out = []
    for square in range(TRACK_LEN):
        colour = _SLIDES.get(square)
        at = track_cell(square)
        kind = "track" if colour is None else "slide"
        out.append(Cell(*at, kind, colour, tuple(on.get(at, ()))))
    for colour in range(len(BASE)):
        for loc in (*range(S1, S1 + SAFETY_LEN), HOME, START):
            at = place_cell(colour, loc)
            kind = "home" if loc == HOME else "start" if loc == START else "safety"
            out.append(Cell(*at, kind, colour, tuple(on.get(at, ()))))
    return out
