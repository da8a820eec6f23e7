"""Legal-move generation: one handler per card.

:func:`generate` lists the legal moves for one card; it never lists two moves that
leave the same position (pawns of one colour being interchangeable), and a move is
legal exactly when it is in that list.  This module does not define what a move is
(``moves.py``), precompute geometry (``precomputed.py``), split the 7 (``seven.py``),
draw cards, keep turns or decide who wins (``game.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .board import HOME, NUM_LOCATIONS, S5, SLIDE_OWNER, START, TRACK_LEN
from .cards import Card
from .moves import Move, MoveContext, MoveKind, Part
from .precomputed import (
    BACK1_SLOT,
    BACK4_SLOT,
    EXIT,
    EXITS,
    LANDINGS,
    OTHERS,
    PLACED,
    PLAIN,
    SLIDE_SQUARES,
    SLIDES,
    SLOT_CARD,
    STAYS,
    WEIGHT,
    exit_table,
    land,
    land_in_place,
    placed_table,
    plain_table,
    slide_table,
)
from .seven import seven_rows_table, splits

# Generation.  This is the hot path of every bot and playout, so it is written for
# speed: the NamedTuples are built through tuple.__new__ (skipping their Python-level
# __new__), enum members are bound to module globals once (looking one up on its class
# costs as much as building a tuple), and each card has its own handler.

_new = tuple.__new__
_SIMPLE = MoveKind.SIMPLE
_SPLIT = MoveKind.SPLIT
_SWAP = MoveKind.SWAP
_SORRY = MoveKind.SORRY
_DECLINE = MoveKind.DECLINE


def _steps(
    card: Card, pawns: Sequence[int], movers: Iterable[int], slot: int, out: list[Move]
) -> bool:
    """Append each mover's move along the landing table of ``slot`` to ``out``; True if
    any of them slid.

    ``slot`` numbers the steps as ``PLAIN`` does (the card's number forward, 13 for 4
    back, 14 for 1 back); the prebuilt moves of that slot are offered where a landing
    bumps no one.
    """
    table = LANDINGS[slot]
    plain = PLAIN[slot] or plain_table(slot)
    slid = False
    for p in movers:
        frm = pawns[p]
        i = p * NUM_LOCATIONS + frm
        info = table[i]
        if info is None:
            continue
        to, end, path = info
        if path is None:
            # ``land`` inlined for a square that does not slide (the common case).
            if to < TRACK_LEN:
                if to in pawns:
                    q = pawns.index(to)
                    if q >> 2 == p >> 2:
                        continue  # the square holds one of the mover's own colour
                    part = _new(Part, (p, frm, to, to, (q,)))
                    out.append(_new(Move, (
                        _SIMPLE, card, (part,), ((p, frm, to), (q, to, START))
                    )))
                    continue
            elif to <= S5:
                b = p & 12
                if pawns[b] == to or pawns[b + 1] == to or pawns[b + 2] == to or pawns[b + 3] == to:
                    continue
            out.append(plain[i])  # type: ignore[arg-type]  # never None without a path
            continue
        # ``to`` is another colour's triangle: slide, bumping everyone on the way.
        if SLIDE_SQUARES[to].isdisjoint(pawns):  # type: ignore[union-attr]  # a triangle
            # No one on the way (the pawn itself neither): the prebuilt slide.
            slid = True
            out.append((SLIDES[slot] or slide_table(slot))[i])  # type: ignore[arg-type]
            continue
        landed = land(p, to, pawns)
        if landed is None:
            continue  # the triangle holds one of the mover's own colour
        slid = True
        bumps = landed[1]
        part = _new(Part, (p, frm, to, end, bumps))
        if bumps:
            changes = ((p, frm, end), *[(q, pawns[q], START) for q in bumps])
            out.append(_new(Move, (_SIMPLE, card, (part,), changes)))
        else:
            out.append(_new(Move, (_SIMPLE, card, (part,), ((p, frm, end),))))
    return slid


def _leave_start(card: Card, pawns: Sequence[int], colours: Iterable[int], out: list[Move]) -> None:
    exits = EXITS[card] or exit_table(card)
    for c in colours:
        base = c * 4
        if pawns[base] == START:
            p = base
        elif pawns[base + 1] == START:
            p = base + 1
        elif pawns[base + 2] == START:
            p = base + 2
        elif pawns[base + 3] == START:
            p = base + 3
        else:
            continue
        to = EXIT[c]
        if to in pawns:
            q = pawns.index(to)
            if q >> 2 == c:
                continue
            part = _new(Part, (p, START, to, to, (q,)))
            out.append(_new(Move, (_SIMPLE, card, (part,), ((p, START, to), (q, to, START)))))
        else:
            out.append(exits[p])


def _swaps(
    card: Card, pawns: Sequence[int], movers: Iterable[int], out: list[Move]
) -> list[int] | None:
    """Append the 11's swaps to ``out``; the indices in ``out`` of those that involved a
    slide (None when there are none).

    A plain swap (no slide) never leaves the same layout as another move of the same
    player's colour: it is the only move that puts that other pawn on that square.
    """
    special: list[int] | None = None
    owners = SLIDE_OWNER
    targets: list[tuple[int, int]] = []
    tc = -1
    for p in movers:
        a = pawns[p]
        if a >= TRACK_LEN:
            continue
        c = p >> 2
        if c != tc:
            tc = c
            targets = [(q, pawns[q]) for q in OTHERS[c] if pawns[q] < TRACK_LEN]
            still = STAYS[c]
        if owners[a] < 0:
            for q, b in targets:
                if still[b]:
                    # Neither pawn lands on a triangle that slides it: a plain exchange.
                    out.append(_new(Move, (_SWAP, card, (
                        _new(Part, (p, a, b, b, ())), _new(Part, (q, b, a, a, ()))
                    ), ((p, a, b), (q, b, a)))))
                    continue
                if special is None:
                    special = []
                special.append(len(out))
                out.append(_special_swap(card, pawns, p, a, q, b))
        else:
            # ``a`` is a triangle: every swap from here is judged in full.
            for q, b in targets:
                if special is None:
                    special = []
                special.append(len(out))
                out.append(_special_swap(card, pawns, p, a, q, b))
    return special


def _special_swap(card: Card, pawns: Sequence[int], p: int, a: int, q: int, b: int) -> Move:
    """Swap ``p`` (on ``a``) with ``q`` (on ``b``) when either lands on a triangle.

    Both pawns move at once; then each is judged on its own square (``land``: the
    other pawn of the swap is another colour's, so no landing is refused).  Bumps are
    listed in pawn order.
    """
    loc = list(pawns)
    loc[q] = a
    bumps_p = _swap_landing(loc, p, b)
    part_p = _new(Part, (p, a, b, loc[p], bumps_p))
    bumps_q = _swap_landing(loc, q, a) if loc[q] == a else ()
    part_q = _new(Part, (q, b, a, a if q in bumps_p else loc[q], bumps_q))
    moved = sorted({p, q, *bumps_p, *bumps_q})
    changes = tuple([(r, pawns[r], loc[r]) for r in moved if loc[r] != pawns[r]])
    return _new(Move, (_SWAP, card, (part_p, part_q), changes))


def _swap_landing(loc: list[int], p: int, to: int) -> tuple[int, ...]:
    """``land_in_place`` for one pawn of a swap: whom it bumps, in pawn order."""
    landed = land_in_place(loc, p, to)
    assert landed is not None  # the square was the other swapped pawn's
    bumps = landed[1]
    return tuple(sorted(bumps)) if len(bumps) > 1 else bumps


def _sorries(card: Card, pawns: Sequence[int], colours: Iterable[int]) -> list[Move]:
    out: list[Move] = []
    placed = PLACED[0] if PLACED else placed_table()
    for c in colours:
        base = c * 4
        if pawns[base] == START:
            p = base
        elif pawns[base + 1] == START:
            p = base + 1
        elif pawns[base + 2] == START:
            p = base + 2
        elif pawns[base + 3] == START:
            p = base + 3
        else:
            continue
        still = STAYS[c]
        row = p * TRACK_LEN
        for q in OTHERS[c]:
            b = pawns[q]
            if b >= TRACK_LEN:
                continue
            if still[b]:
                enter = placed[row + b]
                leave = placed[q * TRACK_LEN + b]
                out.append(_new(Move, (
                    _SORRY, card, (enter[0], leave[2]), (enter[1], leave[3])
                )))
                continue
            # ``b`` is another colour's triangle: the slide bumps ``q`` (on its first
            # square) and everyone else on the way.
            landed = land(p, b, pawns)
            assert landed is not None and landed[1][0] == q  # ``q`` is another colour's
            end, bumps = landed
            changes = ((p, START, end), *((r, pawns[r], START) for r in bumps))
            parts = (
                _new(Part, (p, START, b, end, bumps[1:])),
                _new(Part, (q, b, START, START, ())),
            )
            out.append(_new(Move, (_SORRY, card, parts, changes)))
    return out


def _dedupe(moves: list[Move], seen: set[int] | None = None) -> list[Move]:
    """``moves`` without any that leaves a layout an earlier one (or ``seen``) left.

    The keys are relative to the board before the moves (``_key``, inlined).
    """
    if seen is None:
        seen = set()
    w = WEIGHT
    out = []
    for m in moves:
        key = 0
        for pawn, before, after in m[3]:
            base = (pawn >> 2) * NUM_LOCATIONS
            key += w[base + after] - w[base + before]
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def _dedupe_some(moves: list[Move], which: list[int]) -> list[Move]:
    """``moves`` without any of those at the indices ``which`` (ascending) that leaves
    the layout an earlier one of them left; the others are kept as they are."""
    seen: set[int] = set()
    drop: list[int] = []
    w = WEIGHT
    for i in which:
        key = 0
        for pawn, before, after in moves[i][3]:
            base = (pawn >> 2) * NUM_LOCATIONS
            key += w[base + after] - w[base + before]
        if key in seen:
            drop.append(i)
        else:
            seen.add(key)
    if not drop:
        return moves
    for i in reversed(drop):
        del moves[i]
    return moves


# -- one handler per card ----------------------------------------------------------
#
# Single-pawn moves never leave the same layout twice unless one of them slid (only
# a slide can bump the mover's own pawns), so only then are they deduplicated.


def _gen_forward(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    _steps(card, pawns, ctx.movers, card, out)
    return out


def _gen_one_two(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    _leave_start(card, pawns, ctx.starters, out)
    _steps(card, pawns, ctx.movers, card, out)
    return out


def _gen_four(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    # Two pawns may each back onto a triangle that slides them to where they began.
    out: list[Move] = []
    if _steps(card, pawns, ctx.movers, BACK4_SLOT, out):
        return _dedupe(out)
    return out


def _gen_ten(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    movers = ctx.movers
    _steps(card, pawns, movers, 10, out)
    _steps(card, pawns, movers, BACK1_SLOT, out)
    return out


def _gen_seven(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    slid = _steps(card, pawns, ctx.movers, 7, out)
    usable = [p for p in ctx.splitters if pawns[p] < HOME]
    if len(usable) < 2:
        return _dedupe(out) if slid else out
    if not slid:  # single-pawn moves that do not slide never repeat a layout
        splits(card, pawns, usable, None, out, False)
        return out
    seen: set[int] = set()
    moves = _dedupe(out, seen)
    splits(card, pawns, usable, seen, moves, slid)
    return moves


def _gen_eleven(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    movers = ctx.movers
    slid = _steps(card, pawns, movers, 11, out)
    forward = len(out)
    special = _swaps(card, pawns, movers, out)
    if movers[0] >> 2 != movers[-1] >> 2:
        # Two colours moving (team play after a 2): a swap between them is offered
        # from both sides.
        out = _dedupe(out)
    elif special is not None or slid:
        # Plain swaps of one colour's pawns leave layouts no other move leaves: only
        # the single-pawn moves and the swaps that slid may repeat one another.
        out = _dedupe_some(out, [*range(forward), *(special or ())])
    if not forward and out and ctx.may_decline:
        out.append(_new(Move, (_DECLINE, card, (), ())))
    return out


def _gen_sorry(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    return _sorries(card, pawns, ctx.sorry_starters)




# The handler for each card (``generate`` dispatches here; tight loops may call it).
HANDLERS: dict[Card, Callable[[Sequence[int], Card, MoveContext], list[Move]]] = {
    Card.ONE: _gen_one_two,
    Card.TWO: _gen_one_two,
    Card.THREE: _gen_forward,
    Card.FOUR: _gen_four,
    Card.FIVE: _gen_forward,
    Card.SEVEN: _gen_seven,
    Card.EIGHT: _gen_forward,
    Card.TEN: _gen_ten,
    Card.ELEVEN: _gen_eleven,
    Card.TWELVE: _gen_forward,
    Card.SORRY: _gen_sorry,
}


def build_tables() -> None:
    """Build now every table the generators otherwise build on first use: the plain
    and bump-free sliding moves of every card, the moves out of START, the Sorry!
    placings and the 7's split rows (some 55,000 objects in all).  A long-running
    process calls it at start-up so that they exist before it settles its memory
    (``sorry_lan.net.gcsettle``); calling it again does nothing, and no generated
    move changes."""
    for slot in SLOT_CARD:
        plain_table(slot)
        slide_table(slot)
    exit_table(Card.ONE)
    exit_table(Card.TWO)
    placed_table()
    seven_rows_table()


def generate(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    """All legal moves for ``card`` in the layout ``pawns``, given who may move what.

    ``pawns`` should be a tuple (lists work, more slowly).  Moves come in a stable
    order: single-pawn moves first, then splits, swaps or declining.
    """
    return HANDLERS[card](pawns, card, ctx)

