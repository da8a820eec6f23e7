"""An independent, slow reference for legal moves, written from RULES.md alone.

It walks pawns one square at a time and applies landings, bumps and slides as the
rules page words them, without using the engine's tables, keys or move code (only
the location numbering of ``board.py`` is shared).  It answers *which positions* a
card can lead to, and whether declining an 11 is offered; it does not build
:class:`Move` values, notation or wire forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from sorry_lan.rules import Card, Variant

TRACK = 60
S1, S5, HOME, START = 60, 64, 65, 66

Canon = tuple[tuple[int, ...], ...]
Board = list[int]  # pawn id -> location, 16 entries


def colour_of(pawn: int) -> int:
    return pawn // 4


def base(colour: int) -> int:
    return 15 * colour


def exit_square(colour: int) -> int:
    return base(colour) + 4


@cache
def slide_of(square: int) -> tuple[int, list[int]] | None:
    """(owner colour, squares from triangle to last) if ``square`` holds a triangle."""
    if not 0 <= square < TRACK:
        return None
    colour, offset = divmod(square, 15)
    if offset == 1:
        return colour, [square + i for i in range(4)]
    if offset == 9:
        return colour, [square + i for i in range(5)]
    return None


def step_forward(colour: int, loc: int) -> int | None:
    if loc in (START, HOME):
        return None
    if S1 <= loc <= S5:
        return HOME if loc == S5 else loc + 1
    if loc == base(colour) + 2:
        return S1
    return (loc + 1) % TRACK


def step_backward(colour: int, loc: int) -> int | None:
    if loc in (START, HOME):
        return None
    if loc == S1:
        return base(colour) + 2
    if S1 < loc <= S5:
        return loc - 1
    return (loc - 1) % TRACK  # never into a safety zone


@cache
def walk(colour: int, loc: int, n: int, forward: bool) -> int | None:
    """Where ``n`` single steps lead (None: a step off the board); each answer is worked
    out once, step by step, and remembered."""
    for _ in range(n):
        nxt = step_forward(colour, loc) if forward else step_backward(colour, loc)
        if nxt is None:
            return None
        loc = nxt
    return loc


def land(board: Board, pawn: int, dest: int) -> Board | None:
    """``pawn`` ends a move on ``dest``: bumps and slides; None if it lands on its own."""
    colour = colour_of(pawn)
    if dest != HOME:
        for other in range(4 * colour, 4 * colour + 4):
            if other != pawn and board[other] == dest:
                return None
    new = list(board)
    new[pawn] = dest
    if dest < TRACK:
        slide = slide_of(dest)
        if slide is not None and slide[0] != colour:
            # (the triangle is the slide's first square: the pawn there is bumped too)
            first, last = slide[1][0], slide[1][-1]
            for other in range(16):
                if other != pawn and first <= new[other] <= last:
                    new[other] = START
            new[pawn] = last
        else:
            for other in range(16):
                if other != pawn and new[other] == dest:
                    new[other] = START
    return new


def slide_in_place(board: Board, pawn: int) -> Board:
    """Slide ``pawn`` if it stands on a triangle of another colour (after a swap)."""
    slide = slide_of(board[pawn])
    if slide is None or slide[0] == colour_of(pawn):
        return board
    new = list(board)
    first, last = slide[1][0], slide[1][-1]
    for other in range(16):
        if other != pawn and first <= new[other] <= last:
            new[other] = START
    new[pawn] = last
    return new


def canon(board: Sequence[int]) -> Canon:
    b = board
    return (tuple(sorted(b[0:4])), tuple(sorted(b[4:8])), tuple(sorted(b[8:12])),
            tuple(sorted(b[12:16])))  # fmt: skip


def pawns_of_colours(colours: Sequence[int]) -> list[int]:
    return [c * 4 + n for c in colours for n in range(4)]


def who_moves(
    variant: Variant, board: Board, player: int, after_two: bool
) -> tuple[list[int], list[int], list[int], list[int]]:
    """(colours whose pawns move, colours a 1/2 may bring out, Sorry! colours, 7 splitters)."""
    if variant is not Variant.TEAM:
        return [player], [player], [player], pawns_of_colours([player])
    partner = (player + 2) % 4
    if after_two:
        moving = [player, partner]
    elif all(board[p] == HOME for p in pawns_of_colours([player])):
        moving = [partner]
    else:
        moving = [player]
    return moving, [player, partner], moving, pawns_of_colours([player, partner])


def reference_moves(
    pawns: Sequence[int], card: Card, variant: Variant, player: int, after_two: bool = False
) -> tuple[frozenset[Canon], bool]:
    """The positions ``card`` can lead to, and whether declining (an 11) is offered.
    The last few answers are remembered: a 2's extra card changes who moves in team
    play only (:func:`who_moves`), so elsewhere asking with and without it is asked once."""
    return _moves(tuple(pawns), card, variant, player, after_two and variant is Variant.TEAM)


@lru_cache(maxsize=64)
def _moves(
    pawns: tuple[int, ...], card: Card, variant: Variant, player: int, after_two: bool
) -> tuple[frozenset[Canon], bool]:
    found, decline = _work_out(pawns, card, variant, player, after_two)
    return frozenset(found), decline


def _work_out(
    pawns: Sequence[int], card: Card, variant: Variant, player: int, after_two: bool
) -> tuple[set[Canon], bool]:
    board = list(pawns)
    moving, starters, sorry_colours, splitters = who_moves(variant, board, player, after_two)
    movers = [p for p in pawns_of_colours(moving) if board[p] not in (START, HOME)]
    out: set[Canon] = set()

    def add(new: Board | None) -> None:
        if new is not None:
            out.add(canon(new))

    def steps(n: int, forward: bool) -> None:
        for p in movers:
            dest = walk(colour_of(p), board[p], n, forward)
            if dest is not None:
                add(land(board, p, dest))

    value = int(card)
    if card in (Card.ONE, Card.TWO):
        for c in starters:
            for p in pawns_of_colours([c]):
                if board[p] == START:
                    add(land(board, p, exit_square(c)))
        steps(value, True)
    elif card == Card.FOUR:
        steps(4, False)
    elif card == Card.TEN:
        steps(10, True)
        steps(1, False)
    elif card == Card.SORRY:
        for c in sorry_colours:
            for p in pawns_of_colours([c]):
                if board[p] != START:
                    continue
                for target in range(16):
                    if colour_of(target) != c and board[target] < TRACK:
                        new = list(board)
                        new[target] = START
                        add(land(new, p, board[target]))
    elif card == Card.ELEVEN:
        steps(11, True)
        forward_any = bool(out)
        swapped: set[Canon] = set()
        for p in movers:
            if board[p] >= TRACK:
                continue
            for q in range(16):
                if colour_of(q) == colour_of(p) or board[q] >= TRACK:
                    continue
                new = list(board)
                new[p], new[q] = board[q], board[p]
                new = slide_in_place(new, p)
                if new[q] == board[p]:
                    new = slide_in_place(new, q)
                swapped.add(canon(new))
        out |= swapped
        decline = not forward_any and bool(swapped) and variant is not Variant.POINTS
        return out, decline
    elif card == Card.SEVEN:
        steps(7, True)
        for a in splitters:
            if board[a] in (START, HOME):
                continue
            for k in range(1, 7):
                dest_a = walk(colour_of(a), board[a], k, True)
                if dest_a is None:
                    continue
                first = land(board, a, dest_a)
                if first is None:
                    continue
                for b in splitters:
                    if a == b or board[b] in (START, HOME) or first[b] == START:
                        continue
                    dest_b = walk(colour_of(b), first[b], 7 - k, True)
                    if dest_b is None:
                        continue
                    add(land(first, b, dest_b))
    else:
        steps(value, True)
    return out, False
