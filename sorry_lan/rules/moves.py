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

from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from operator import itemgetter
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


# ---------------------------------------------------------------------------
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

# A landing table for one step count and direction, indexed by ``pawn * 67 + loc``:
# None where no square is that far, else ``(to, end, path)``: the square landed on,
# where the pawn stops, and the squares of the slide it takes there (None when ``to``
# does not slide a pawn of that colour, and then ``end == to``).
Landing = tuple[int, int, "tuple[int, ...] | None"]


def _landing_table(table: tuple[int, ...], n: int) -> tuple[Landing | None, ...]:
    rows: list[Landing | None] = []
    for p in range(16):
        c = p >> 2
        for loc in range(NUM_LOCATIONS):
            to = table[(c * NUM_LOCATIONS + loc) * 13 + n]
            if to < 0:
                rows.append(None)
            elif to < TRACK_LEN and SLIDE_OWNER[to] >= 0 and SLIDE_OWNER[to] != c:
                _, end, squares = SLIDE_AT[to]
                rows.append((to, end, squares))
            else:
                rows.append((to, to, None))
    return tuple(rows)


_FWD: tuple[tuple[Landing | None, ...], ...] = (
    (), *(_landing_table(FORWARD, n) for n in range(1, 13))
)
_BACK1 = _landing_table(BACKWARD, 1)
_BACK4 = _landing_table(BACKWARD, 4)
_EXIT = tuple(start_exit(c) for c in range(4))
# The pawns of the other three colours, in pawn order.
_OTHERS = tuple(tuple(q for q in range(16) if q >> 2 != c) for c in range(4))
# Their locations, read off a layout in one call.
_OTHER_LOCS = tuple(itemgetter(*others) for others in _OTHERS)
# Per colour and location: True where a pawn of that colour landing there stays put
# (a track square that is not another colour's triangle).
_STAYS = tuple(
    tuple(loc < TRACK_LEN and SLIDE_OWNER[loc] in (-1, c) for loc in range(NUM_LOCATIONS))
    for c in range(4)
)
assert all(SLIDE_OWNER[x] < 0 for x in _EXIT)  # leaving START never slides


def _plain_moves(card: Card, table: tuple[Landing | None, ...]) -> tuple[Move | None, ...]:
    """Each pawn's move along ``table`` when it slides nowhere and bumps no one.

    Indexed like ``table``; None where the landing slides.  Pure geometry: a move is
    an immutable value, so one built here serves every board where it is legal.
    """
    rows: list[Move | None] = []
    for i, info in enumerate(table):
        if info is None or info[2] is not None:
            rows.append(None)
            continue
        p, frm, to = i // NUM_LOCATIONS, i % NUM_LOCATIONS, info[0]
        part = _new(Part, (p, frm, to, to, ()))
        rows.append(_new(Move, (_SIMPLE, card, (part,), ((p, frm, to),))))
    return tuple(rows)


def _steps(
    card: Card, pawns: Sequence[int], movers: Iterable[int],
    table: tuple[Landing | None, ...], plain: tuple[Move | None, ...], out: list[Move],
) -> bool:
    """Append each mover's move along ``table`` to ``out``; True if any of them slid.

    ``plain`` is ``_plain_moves(card, table)``: the move to offer where the landing
    neither slides nor bumps.
    """
    slid = False
    for p in movers:
        frm = pawns[p]
        i = p * NUM_LOCATIONS + frm
        info = table[i]
        if info is None:
            continue
        to, end, path = info
        if to in pawns and to < TRACK_LEN:
            q = pawns.index(to)
            if q >> 2 == p >> 2:
                continue  # the square holds one of the mover's own colour
            if path is None:
                part = _new(Part, (p, frm, to, to, (q,)))
                out.append(_new(Move, (_SIMPLE, card, (part,), ((p, frm, to), (q, to, START)))))
                continue
        elif path is None:
            if S1 <= to <= S5:
                b = p & 12
                if pawns[b] == to or pawns[b + 1] == to or pawns[b + 2] == to or pawns[b + 3] == to:
                    continue
            out.append(plain[i])  # type: ignore[arg-type]  # never None without a path
            continue
        # ``to`` is another colour's triangle: slide, bumping everyone on the way.
        assert path is not None
        slid = True
        bumps = tuple([pawns.index(sq) for sq in path if sq in pawns])
        if p in bumps:  # the pawn itself stood on its own slide path
            bumps = tuple([r for r in bumps if r != p])
        part = _new(Part, (p, frm, to, end, bumps))
        if bumps:
            changes = ((p, frm, end), *[(q, pawns[q], START) for q in bumps])
            out.append(_new(Move, (_SIMPLE, card, (part,), changes)))
        else:
            out.append(_new(Move, (_SIMPLE, card, (part,), ((p, frm, end),))))
    return slid


def _leave_start(card: Card, pawns: Sequence[int], colours: Iterable[int], out: list[Move]) -> None:
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
        to = _EXIT[c]
        if to in pawns:
            q = pawns.index(to)
            if q >> 2 == c:
                continue
            part = _new(Part, (p, START, to, to, (q,)))
            out.append(_new(Move, (_SIMPLE, card, (part,), ((p, START, to), (q, to, START)))))
        else:
            part = _new(Part, (p, START, to, to, ()))
            out.append(_new(Move, (_SIMPLE, card, (part,), ((p, START, to),))))


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


def _targets(pawns: Sequence[int], c: int) -> list[tuple[int, int]]:
    """The other colours' pawns on the track, with their squares, in pawn order."""
    return [(q, b) for q, b in zip(_OTHERS[c], _OTHER_LOCS[c](pawns), strict=True) if b < TRACK_LEN]


def _swaps(card: Card, pawns: Sequence[int], movers: Iterable[int], out: list[Move]) -> bool:
    """Append the 11's swaps to ``out``; True if any of them involved a slide.

    A plain swap (no slide) never leaves the same layout as another move of the same
    player's colour: it is the only move that puts that other pawn on that square.
    """
    special = False
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
            targets = _targets(pawns, c)
            still = _STAYS[c]
        if owners[a] < 0:
            for q, b in targets:
                if still[b]:
                    # Neither pawn lands on a triangle that slides it: a plain exchange.
                    out.append(_new(Move, (_SWAP, card, (
                        _new(Part, (p, a, b, b, ())), _new(Part, (q, b, a, a, ()))
                    ), ((p, a, b), (q, b, a)))))
                    continue
                special = True
                out.append(_special_swap(card, pawns, p, a, q, b))
        else:
            # ``a`` is a triangle: every swap from here is judged in full.
            for q, b in targets:
                special = True
                out.append(_special_swap(card, pawns, p, a, q, b))
    return special


def _special_swap(card: Card, pawns: Sequence[int], p: int, a: int, q: int, b: int) -> Move:
    """Swap ``p`` (on ``a``) with ``q`` (on ``b``) when either lands on a triangle.

    Both pawns move at once; then each is judged on its own square.
    """
    loc = list(pawns)
    loc[p], loc[q] = b, a
    bumps_p = _slide_in_place(loc, p)
    part_p = _new(Part, (p, a, b, loc[p], bumps_p))
    bumps_q = _slide_in_place(loc, q) if loc[q] == a else ()
    part_q = _new(Part, (q, b, a, a if q in bumps_p else loc[q], bumps_q))
    changes = tuple([(r, pawns[r], loc[r]) for r in range(16) if loc[r] != pawns[r]])
    return _new(Move, (_SWAP, card, (part_p, part_q), changes))


def _sorries(card: Card, pawns: Sequence[int], colours: Iterable[int]) -> list[Move]:
    out = []
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
        still = _STAYS[c]
        for q, b in _targets(pawns, c):
            if still[b]:
                out.append(_new(Move, (_SORRY, card, (
                    _new(Part, (p, START, b, b, ())), _new(Part, (q, b, START, START, ()))
                ), ((p, START, b), (q, b, START)))))
                continue
            _, end, squares = SLIDE_AT[b]
            bumps = (q, *(pawns.index(sq) for sq in squares if sq != b and sq in pawns))
            changes = ((p, START, end), *((r, pawns[r], START) for r in bumps))
            parts = (
                _new(Part, (p, START, b, end, bumps[1:])),
                _new(Part, (q, b, START, START, ())),
            )
            out.append(_new(Move, (_SORRY, card, parts, changes)))
    return out


# One pawn's share of a 7 split, judged on the board before the move:
# (end, bumps, part, key, touched squares, its changes).
_Share = tuple[int, tuple[int, ...], Part, int, tuple[int, ...], tuple[Change, ...]]
# A pawn's landing n steps ahead: (to, squares the landing depends on, its share, or
# None where it is illegal).  HOME depends on nothing: it takes any number of pawns.
_Entry = tuple[int, tuple[int, ...], "_Share | None"]
# Per pawn and location: its entries for 1..6 steps (index 0 unused; None where no
# square is that far), every square those shares may touch, and every square they
# depend on.
_Row = tuple[tuple["_Entry | None", ...], frozenset[int], frozenset[int]]


def _seven_rows() -> tuple[_Row | None, ...]:
    """Each pawn's 7-split entries on an empty board, for every location.

    On an empty board no landing bumps anyone, so each entry's part, key and changes
    are fixed; ``_splits`` uses these as they are for every landing the pawns on the
    board leave alone.  Built on the first 7 (a few megabytes, a few milliseconds).
    """
    w = _WEIGHT
    rows: list[_Row | None] = [None] * (16 * NUM_LOCATIONS)
    for c in range(4):
        wc = c * NUM_LOCATIONS
        for frm in range(HOME):
            shared: list[tuple[int, int, int, tuple[int, ...], int, tuple[int, int]] | None]
            shared = [None]
            touch = {frm}
            depend: set[int] = set()
            for n in range(1, 7):
                info = _FWD[n][c * 4 * NUM_LOCATIONS + frm]
                if info is None:
                    shared.append(None)
                    continue
                to, end, path = info
                sens = () if to == HOME else (to,) if path is None else path
                shared.append((n, to, end, sens, w[wc + end] - w[wc + frm], (frm, end)))
                touch.update(sens)
                touch.add(end)
                depend.update(sens)
            touch_f, depend_f = frozenset(touch), frozenset(depend)
            for p in range(c * 4, c * 4 + 4):
                entries: list[_Entry | None] = [None]
                for one in shared[1:]:
                    if one is None:
                        entries.append(None)
                        continue
                    n, to, end, sens, key, touched = one
                    part = _new(Part, (p, frm, to, end, ()))
                    entries.append((to, sens, (end, (), part, key, touched, ((p, frm, end),))))
                rows[p * NUM_LOCATIONS + frm] = (tuple(entries), touch_f, depend_f)
    return tuple(rows)


_seven_table: list[tuple[_Row | None, ...]] = []


def _seven_rows_table() -> tuple[_Row | None, ...]:
    if not _seven_table:
        _seven_table.append(_seven_rows())
    return _seven_table[0]


def _entry(p: int, n: int, pawns: Sequence[int]) -> _Entry | None:
    """Pawn ``p``'s entry for ``n`` steps ahead on the board ``pawns``."""
    frm = pawns[p]
    info = _FWD[n][p * NUM_LOCATIONS + frm]
    if info is None:
        return None
    to, end, _path = info
    row = _seven_rows_table()[p * NUM_LOCATIONS + frm]
    assert row is not None
    static = row[0][n]
    assert static is not None
    c = p >> 2
    landed = _land(p, c, to, pawns)
    if landed is None:
        return (to, static[1], None)
    bumps = landed[1]
    if not bumps:
        return static
    w = _WEIGHT
    wc = c * NUM_LOCATIONS
    key = w[wc + end] - w[wc + frm]
    squares = [frm, end]
    moved: list[Change] = [(p, frm, end)]
    for r in bumps:
        wr = (r >> 2) * NUM_LOCATIONS
        key += w[wr + START] - w[wr + pawns[r]]
        squares.append(pawns[r])
        moved.append((r, pawns[r], START))
    share = (end, bumps, _new(Part, (p, frm, to, end, bumps)), key, tuple(squares), tuple(moved))
    return (to, static[1], share)


def _splits(
    card: Card, pawns: Sequence[int], usable: list[int], seen: set[int], out: list[Move]
) -> None:
    """Append the 7 split between two pawns, part one then part two, each judged in turn.

    ``seen`` holds the layout keys (relative to ``pawns``) already offered; a split
    that leaves one of them is skipped before any move value is built.  Each pawn's
    share for 1..6 steps (its part, its key, its changes) comes from the empty-board
    table unless a pawn stands where that landing looks, and is reused for part two
    unless part one touched a square that landing depends on; only then is part two
    judged again on the board part one left.
    """
    w = _WEIGHT
    rows = _seven_table[0] if _seven_table else _seven_rows_table()
    # pre[p][n]: pawn p's entry for n steps on the opening board.
    pre: dict[int, tuple[_Entry | None, ...] | list[_Entry | None]] = {}
    touch_all: dict[int, frozenset[int]] = {}
    sens_all: dict[int, frozenset[int]] = {}
    for p in usable:
        row = rows[p * NUM_LOCATIONS + pawns[p]]
        assert row is not None
        entries: tuple[_Entry | None, ...] | list[_Entry | None]
        entries, touch_all[p], depend = row
        sens_all[p] = depend
        if not depend.isdisjoint(pawns):
            # Some landing looks at an occupied square: judge those on this board.
            entries = list(entries)
            for n in range(1, 7):
                entry = entries[n]
                if entry is not None:
                    for sq in entry[1]:
                        if sq in pawns:
                            entries[n] = _entry(p, n, pawns)
                            break
        pre[p] = entries
    for i, a in enumerate(usable):
        row_a = pre[a]
        la = pawns[a]
        # A partner whose shares never touch what this pawn's landings depend on (and
        # the other way round) splits the same either way round: each layout was
        # offered already when that partner went first, and no square needs checking.
        partners = []
        for j, b in enumerate(usable):
            if j == i:
                continue
            free = touch_all[a].isdisjoint(sens_all[b]) and touch_all[b].isdisjoint(sens_all[a])
            if free and j < i:
                continue
            partners.append((b, free, pre[b]))
        if not partners:
            continue
        for k in range(1, 7):
            entry = row_a[k]
            if entry is None:
                continue
            share_a = entry[2]
            if share_a is None:
                continue
            end_a, bumps_a, part_a, key_a, touched, changes_a = share_a
            board: tuple[int, ...] | None = None
            for b, free, row_b in partners:
                if b in bumps_a:
                    continue
                entry_b = row_b[7 - k]
                if entry_b is None:
                    continue
                to_b, sens, share_b = entry_b
                if not free:
                    for sq in touched:
                        if sq in sens:
                            break
                    else:
                        free = True
                if free:
                    # Part one leaves part two's landing as it was on the opening board.
                    if share_b is None:
                        continue
                    key = key_a + share_b[3]
                    if key in seen:
                        continue
                    seen.add(key)
                    if bumps_a or share_b[1]:
                        merged = tuple(sorted(changes_a + share_b[5]))
                        out.append(_new(Move, (_SPLIT, card, (part_a, share_b[2]), merged)))
                    else:
                        out.append(_new(Move, (
                            _SPLIT, card, (part_a, share_b[2]), (changes_a[0], share_b[5][0])
                        )))
                    continue
                # Part one touched a square part two's landing depends on: judge it again.
                if board is None:
                    after = list(pawns)  # the board after part one
                    after[a] = end_a
                    for r in bumps_a:
                        after[r] = START
                    board = tuple(after)
                landed_b = _land(b, b >> 2, to_b, board)
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
                    changes_t: tuple[Change, ...] = ((a, la, end_a), (b, lb, end_b))
                else:
                    final = list(pawns)
                    final[a] = end_a
                    for r in bumps_a:
                        final[r] = START
                    final[b] = end_b
                    for r in bumps_b:
                        final[r] = START
                    changes_t = tuple(
                        [(r, pawns[r], final[r]) for r in range(16) if final[r] != pawns[r]]
                    )
                part_b = _new(Part, (b, lb, to_b, end_b, bumps_b))
                out.append(_new(Move, (_SPLIT, card, (part_a, part_b), changes_t)))


def _key(move: Move) -> int:
    w = _WEIGHT
    key = 0
    for pawn, before, after in move.changes:
        base = (pawn >> 2) * NUM_LOCATIONS
        key += w[base + after] - w[base + before]
    return key


def _dedupe(moves: list[Move], seen: set[int] | None = None) -> list[Move]:
    """``moves`` without any that leaves a layout an earlier one (or ``seen``) left.

    The keys are relative to the board before the moves (``_key``, inlined).
    """
    if seen is None:
        seen = set()
    w = _WEIGHT
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


# -- one handler per card ----------------------------------------------------------
#
# Single-pawn moves never leave the same layout twice unless one of them slid (only
# a slide can bump the mover's own pawns), so only then are they deduplicated.


def _gen_forward(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    _steps(card, pawns, ctx.movers, _FWD[card], _PLAIN[card] or _plain(card), out)
    return out


def _gen_one_two(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    _leave_start(card, pawns, ctx.starters, out)
    _steps(card, pawns, ctx.movers, _FWD[card], _PLAIN[card] or _plain(card), out)
    return out


def _gen_four(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    # Two pawns may each back onto a triangle that slides them to where they began.
    out: list[Move] = []
    if _steps(card, pawns, ctx.movers, _BACK4, _PLAIN[13] or _plain(13), out):
        return _dedupe(out)
    return out


def _gen_ten(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    movers = ctx.movers
    _steps(card, pawns, movers, _FWD10, _PLAIN[10] or _plain(10), out)
    _steps(card, pawns, movers, _BACK1, _PLAIN[14] or _plain(14), out)
    return out


def _gen_seven(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    slid = _steps(card, pawns, ctx.movers, _FWD7, _PLAIN[7] or _plain(7), out)
    usable = [p for p in ctx.splitters if pawns[p] < HOME]
    if len(usable) < 2:
        return _dedupe(out) if slid else out
    seen: set[int] = set()
    moves = _dedupe(out, seen)
    _splits(card, pawns, usable, seen, moves)
    return moves


def _gen_eleven(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    out: list[Move] = []
    movers = ctx.movers
    slid = _steps(card, pawns, movers, _FWD11, _PLAIN[11] or _plain(11), out)
    forward = len(out)
    special = _swaps(card, pawns, movers, out)
    # Plain swaps of one colour's pawns are all distinct; with two colours moving
    # (team play after a 2) a swap between them is offered from both sides.
    if special or slid or movers[0] >> 2 != movers[-1] >> 2:
        out = _dedupe(out)
    if not forward and out and ctx.may_decline:
        out.append(_new(Move, (_DECLINE, card, (), ())))
    return out


def _gen_sorry(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    return _sorries(card, pawns, ctx.sorry_starters)


_FWD7 = _FWD[7]
# The plain moves (``_plain_moves``) of each card's forward steps at the card's number,
# of the 4's backward steps at 13 and of the 10's at 14; each built on first use.
_PLAIN: list[tuple[Move | None, ...] | None] = [None] * 15
_BACK4_SLOT = 13
_BACK1_SLOT = 14


def _plain(slot: int) -> tuple[Move | None, ...]:
    table = _PLAIN[slot]
    if table is None:
        if slot == _BACK4_SLOT:
            table = _plain_moves(Card.FOUR, _BACK4)
        elif slot == _BACK1_SLOT:
            table = _plain_moves(Card.TEN, _BACK1)
        else:
            table = _plain_moves(Card(slot), _FWD[slot])
        _PLAIN[slot] = table
    return table
_FWD10 = _FWD[10]
_FWD11 = _FWD[11]
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


def generate(pawns: Sequence[int], card: Card, ctx: MoveContext) -> list[Move]:
    """All legal moves for ``card`` in the layout ``pawns``, given who may move what.

    ``pawns`` should be a tuple (lists work, more slowly).  Moves come in a stable
    order: single-pawn moves first, then splits, swaps or declining.
    """
    return HANDLERS[card](pawns, card, ctx)
