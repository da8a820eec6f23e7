"""Move values and legal-move generation.

A :class:`Move` is an immutable value that carries its whole effect: the parts the
player chose (which pawn, from where, where it landed, where a slide took it, whom it
bumped) and the net change of every pawn it touched, so applying and undoing a move
needs no rules knowledge.  :func:`generate` lists the legal moves for one card; it
never lists two moves that leave the same position (pawns of one colour being
interchangeable), and a move is legal exactly when it is in that list.

This module does not draw cards, keep turns or decide who wins: see ``game.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple

from .board import (
    BACKWARD,
    FORWARD,
    HOME,
    NUM_LOCATIONS,
    NUM_SLOTS,
    S1,
    S5,
    SLIDE_AT,
    SLIDE_OWNER,
    START,
    TRACK_LEN,
    location_name,
    pawn_label,
    start_exit,
)
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


# ---------------------------------------------------------------------------
# Position keys: an additive hash that is equal exactly when two layouts are equal
# up to swapping pawns of one colour.  Per colour, 72 bits: one per track/safety
# location (at most one pawn of a colour there), then a 3-bit count for START and
# one for HOME.

_WEIGHT = tuple(
    (1 << (c * 72 + loc))
    if loc < HOME
    else (1 << (c * 72 + 65))
    if loc == START
    else (1 << (c * 72 + 68))
    for c in range(4)
    for loc in range(NUM_LOCATIONS)
)


def layout_key(pawns: Sequence[int]) -> int:
    """A key equal for two layouts exactly when each colour's pawns occupy the same places."""
    return sum(_WEIGHT[((p >> 2) * NUM_LOCATIONS) + loc] for p, loc in enumerate(pawns))


def occupancy(pawns: Sequence[int]) -> list[int]:
    """Slot -> pawn id (or -1): track squares 0..59, then 5 safety squares per colour."""
    occ = [-1] * NUM_SLOTS
    for p, loc in enumerate(pawns):
        if loc < TRACK_LEN:
            occ[loc] = p
        elif loc <= S5:
            occ[TRACK_LEN + (p >> 2) * 5 + loc - S1] = p
    return occ


def _land(
    p: int, c: int, to: int, pawns: Sequence[int]
) -> tuple[int, tuple[int, ...]] | None:
    """Where pawn ``p`` (colour ``c``) stops after landing on ``to``, and whom it bumps.

    ``None`` when the landing square holds another pawn of colour ``c``.  Track
    squares hold one pawn at most, so ``pawns.index`` finds the one there.
    """
    if to < TRACK_LEN:
        q = pawns.index(to) if to in pawns else -1
        if q >= 0 and q >> 2 == c:
            return None
        owner = SLIDE_OWNER[to]
        if owner >= 0 and owner != c:
            _, end, squares = SLIDE_AT[to]
            bumps = tuple(pawns.index(sq) for sq in squares if sq in pawns)
            if p in bumps:  # the pawn itself stood on its own slide path
                bumps = tuple(r for r in bumps if r != p)
            return end, bumps
        if q >= 0:
            return to, (q,)
        return to, ()
    if to <= S5:
        base = c * 4
        if (
            pawns[base] == to
            or pawns[base + 1] == to
            or pawns[base + 2] == to
            or pawns[base + 3] == to
        ):
            return None
    return to, ()


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


# Building the NamedTuples through tuple.__new__ skips their Python-level __new__: this
# is the hot path of every bot and playout.
_new = tuple.__new__
_SIMPLE = MoveKind.SIMPLE
_SWAP = MoveKind.SWAP
_SORRY = MoveKind.SORRY


def _simple(card: Card, pawns: Sequence[int], p: int, to: int) -> Move | None:
    landed = _land(p, p >> 2, to, pawns)
    if landed is None:
        return None
    end, bumps = landed
    frm = pawns[p]
    part = _new(Part, (p, frm, to, end, bumps))
    if not bumps:
        return _new(Move, (_SIMPLE, card, (part,), ((p, frm, end),)))
    changes = ((p, frm, end), *((q, pawns[q], START) for q in bumps))
    return _new(Move, (_SIMPLE, card, (part,), changes))


def _first_in_start(pawns: Sequence[int], colour: int) -> int:
    for p in range(colour * 4, colour * 4 + 4):
        if pawns[p] == START:
            return p
    return -1


def _leave_start(card: Card, pawns: Sequence[int], colours: Iterable[int]) -> list[Move]:
    out = []
    for c in colours:
        p = _first_in_start(pawns, c)
        if p >= 0:
            m = _simple(card, pawns, p, start_exit(c))
            if m is not None:
                out.append(m)
    return out


def _steps(
    card: Card, pawns: Sequence[int], movers: Iterable[int], table: tuple[int, ...], n: int
) -> list[Move]:
    """One pawn ``n`` steps along ``table`` (FORWARD or BACKWARD); START/HOME give -1."""
    out = []
    for p in movers:
        c = p >> 2
        frm = pawns[p]
        to = table[(c * NUM_LOCATIONS + frm) * 13 + n]
        if to < 0:
            continue
        landed = _land(p, c, to, pawns)
        if landed is None:
            continue
        end, bumps = landed
        part = _new(Part, (p, frm, to, end, bumps))
        if bumps:
            changes = ((p, frm, end), *((q, pawns[q], START) for q in bumps))
            out.append(_new(Move, (_SIMPLE, card, (part,), changes)))
        else:
            out.append(_new(Move, (_SIMPLE, card, (part,), ((p, frm, end),))))
    return out


def _slide_in_place(loc: list[int], p: int) -> tuple[int, ...]:
    """Slide pawn ``p`` if it stands on another colour's triangle; return whom it bumps."""
    sq = loc[p]
    if sq >= TRACK_LEN:
        return ()
    owner = SLIDE_OWNER[sq]
    if owner < 0 or owner == p >> 2:
        return ()
    _, end, squares = SLIDE_AT[sq]
    bumps = tuple(r for r in range(16) if r != p and loc[r] in squares)
    for r in bumps:
        loc[r] = START
    loc[p] = end
    return bumps


def _swaps(card: Card, pawns: Sequence[int], movers: Iterable[int]) -> list[Move]:
    out: list[Move] = []
    owners = SLIDE_OWNER
    for p in movers:
        a = pawns[p]
        if a >= TRACK_LEN:
            continue
        c = p >> 2
        a_slides = owners[a] >= 0
        for q in range(16):
            b = pawns[q]
            if b >= TRACK_LEN or q >> 2 == c:
                continue
            owner_b = owners[b]
            if not a_slides and (owner_b < 0 or owner_b == c):
                # Neither pawn lands on a triangle that slides it: a plain exchange.
                parts = (_new(Part, (p, a, b, b, ())), _new(Part, (q, b, a, a, ())))
                out.append(_new(Move, (_SWAP, card, parts, ((p, a, b), (q, b, a)))))
                continue
            # Both pawns move at once; then each is judged on its own square.
            loc = list(pawns)
            loc[p], loc[q] = b, a
            bumps_p = _slide_in_place(loc, p)
            part_p = Part(p, a, b, loc[p], bumps_p)
            bumps_q = _slide_in_place(loc, q) if loc[q] == a else ()
            part_q = Part(q, b, a, a if q in bumps_p else loc[q], bumps_q)
            changes = tuple((r, pawns[r], loc[r]) for r in range(16) if loc[r] != pawns[r])
            out.append(Move(_SWAP, card, (part_p, part_q), changes))
    return out


def _sorries(card: Card, pawns: Sequence[int], colours: Iterable[int]) -> list[Move]:
    out = []
    for c in colours:
        p = _first_in_start(pawns, c)
        if p < 0:
            continue
        for q in range(16):
            b = pawns[q]
            if b >= TRACK_LEN or q >> 2 == c:
                continue
            owner = SLIDE_OWNER[b]
            if owner < 0 or owner == c:
                parts = (_new(Part, (p, START, b, b, ())), _new(Part, (q, b, START, START, ())))
                out.append(_new(Move, (_SORRY, card, parts, ((p, START, b), (q, b, START)))))
                continue
            _, end, squares = SLIDE_AT[b]
            bumps = (q, *(pawns.index(sq) for sq in squares if sq != b and sq in pawns))
            changes = ((p, START, end), *((r, pawns[r], START) for r in bumps))
            parts = (Part(p, START, b, end, bumps[1:]), Part(q, b, START, START, ()))
            out.append(Move(_SORRY, card, parts, changes))
    return out


def _splits(
    card: Card, pawns: Sequence[int], splitters: Sequence[int], seen: set[int]
) -> list[Move]:
    """The 7 split between two pawns, part one then part two, each judged in turn.

    ``seen`` holds the layout keys (relative to ``pawns``) already offered; a split
    that leaves one of them is skipped before any move value is built.  Each pawn's
    landing for 1..6 steps is worked out once on the opening board and reused for
    part two unless part one changed a square that landing depends on.
    """
    out: list[Move] = []
    usable = [p for p in splitters if pawns[p] < HOME]
    if len(usable) < 2:
        return out
    w = _WEIGHT
    # pre[p][n] = (to, landing or None, squares the landing depends on), n in 1..6
    pre: dict[int, list[tuple[int, tuple[int, tuple[int, ...]] | None, tuple[int, ...]]]] = {}
    for p in usable:
        c = p >> 2
        row = (c * NUM_LOCATIONS + pawns[p]) * 13
        entries: list[tuple[int, tuple[int, tuple[int, ...]] | None, tuple[int, ...]]]
        entries = [(-1, None, ())]
        for n in range(1, 7):
            to = FORWARD[row + n]
            if to < 0:
                entries.append((-1, None, ()))
                continue
            sens = SLIDE_AT[to][2] if to in SLIDE_AT and SLIDE_OWNER[to] != c else (to,)
            entries.append((to, _land(p, c, to, pawns), sens))
        pre[p] = entries
    for a in usable:
        ca = a >> 2
        la = pawns[a]
        wa = ca * NUM_LOCATIONS
        for k in range(1, 7):
            to_a, landed, _ = pre[a][k]
            if landed is None:
                continue
            end_a, bumps_a = landed
            key_a = w[wa + end_a] - w[wa + la]
            touched = [la, end_a]
            for r in bumps_a:
                wr = (r >> 2) * NUM_LOCATIONS
                key_a += w[wr + START] - w[wr + pawns[r]]
                touched.append(pawns[r])
            board: tuple[int, ...] | None = None
            part_a = Part(a, la, to_a, end_a, bumps_a)
            for b in usable:
                if b == a or b in bumps_a:
                    continue
                to_b, landed_b, sens = pre[b][7 - k]
                if to_b < 0:
                    continue
                for sq in touched:
                    if sq in sens:
                        if board is None:
                            after = list(pawns)  # the board after part one
                            after[a] = end_a
                            for r in bumps_a:
                                after[r] = START
                            board = tuple(after)
                        landed_b = _land(b, b >> 2, to_b, board)
                        break
                if landed_b is None:
                    continue
                end_b, bumps_b = landed_b
                lb = pawns[b]
                wb = (b >> 2) * NUM_LOCATIONS
                key = key_a + w[wb + end_b] - w[wb + lb]
                for r in bumps_b:
                    wr = (r >> 2) * NUM_LOCATIONS
                    key += w[wr + START] - w[wr + (end_a if r == a else pawns[r])]
                if key in seen:
                    continue
                seen.add(key)
                if not bumps_a and not bumps_b:
                    changes: tuple[Change, ...] = ((a, la, end_a), (b, lb, end_b))
                else:
                    final = list(pawns)
                    final[a] = end_a
                    for r in bumps_a:
                        final[r] = START
                    final[b] = end_b
                    for r in bumps_b:
                        final[r] = START
                    changes = tuple(
                        (r, pawns[r], final[r]) for r in range(16) if final[r] != pawns[r]
                    )
                part_b = Part(b, lb, to_b, end_b, bumps_b)
                out.append(Move(MoveKind.SPLIT, card, (part_a, part_b), changes))
    return out


def _key(move: Move) -> int:
    w = _WEIGHT
    key = 0
    for pawn, before, after in move.changes:
        base = (pawn >> 2) * NUM_LOCATIONS
        key += w[base + after] - w[base + before]
    return key


def _dedupe(moves: list[Move], seen: set[int] | None = None) -> list[Move]:
    if seen is None:
        seen = set()
    out = []
    for m in moves:
        key = _key(m)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def generate(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    """All legal moves for ``card`` in the layout ``pawns``, given who may move what.

    ``pawns`` should be a tuple (lists work, more slowly).  Moves come in a stable
    order: single-pawn moves first, then splits, swaps or declining.
    """
    movers = ctx.movers  # pawns in START or HOME find no square in the step tables
    if card == Card.SORRY:
        return _sorries(card, pawns, ctx.sorry_starters)
    if card == Card.FOUR:
        # Two pawns may each back onto a triangle that slides them to where they began.
        return _dedupe(_steps(card, pawns, movers, BACKWARD, 4))
    if card == Card.ONE or card == Card.TWO:
        moves = _leave_start(card, pawns, ctx.starters)
        moves += _steps(card, pawns, movers, FORWARD, card)
        return moves
    if card == Card.TEN:
        moves = _steps(card, pawns, movers, FORWARD, 10)
        moves += _steps(card, pawns, movers, BACKWARD, 1)
        return moves
    if card == Card.ELEVEN:
        forward = _steps(card, pawns, movers, FORWARD, 11)
        if not forward:
            swaps = _dedupe(_swaps(card, pawns, movers))
            if swaps and ctx.may_decline:
                swaps.append(Move(MoveKind.DECLINE, card, (), ()))
            return swaps
        return _dedupe(forward + _swaps(card, pawns, movers))
    if card == Card.SEVEN:
        seen: set[int] = set()
        moves = _dedupe(_steps(card, pawns, movers, FORWARD, 7), seen)
        moves += _splits(card, pawns, ctx.splitters, seen)
        return moves
    return _steps(card, pawns, movers, FORWARD, int(card))
