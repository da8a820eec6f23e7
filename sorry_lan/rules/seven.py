"""The 7 split between two pawns, from an empty-board table of each pawn's shares.

:func:`splits` appends every split of a 7 between two usable pawns (part one, then
part two judged on the board part one left), skipping any that leaves a layout
already offered.  This module does not list the single-pawn 7s, decide which pawns
may split, or order the final list: ``movegen.py`` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import HOME, NUM_LOCATIONS, START
from .cards import Card
from .moves import Change, Move, MoveKind, Part
from .tables import FWD, WEIGHT, land

_new = tuple.__new__
_SPLIT = MoveKind.SPLIT


# One pawn's share of a 7 split, judged on the board before the move:
# (end, bumps, part, key, touched squares, its changes).
Share = tuple[int, tuple[int, ...], Part, int, tuple[int, ...], tuple[Change, ...]]
# A pawn's landing n steps ahead: (to, squares the landing depends on, its share, or
# None where it is illegal).  HOME depends on nothing: it takes any number of pawns.
Entry = tuple[int, tuple[int, ...], "Share | None"]
# Per pawn and location: its entries for 1..6 steps (index 0 unused; None where no
# square is that far), every square those shares may touch, and every square they
# depend on.
Row = tuple[tuple["Entry | None", ...], frozenset[int], frozenset[int]]


def _seven_rows() -> tuple[Row | None, ...]:
    """Each pawn's 7-split entries on an empty board, for every location.

    On an empty board no landing bumps anyone, so each entry's part, key and changes
    are fixed; ``splits`` uses these as they are for every landing the pawns on the
    board leave alone.  Built on the first 7 (a few megabytes, a few milliseconds).
    """
    w = WEIGHT
    rows: list[Row | None] = [None] * (16 * NUM_LOCATIONS)
    for c in range(4):
        wc = c * NUM_LOCATIONS
        for frm in range(HOME):
            shared: list[tuple[int, int, int, tuple[int, ...], int, tuple[int, int]] | None]
            shared = [None]
            touch = {frm}
            depend: set[int] = set()
            for n in range(1, 7):
                info = FWD[n][c * 4 * NUM_LOCATIONS + frm]
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
                entries: list[Entry | None] = [None]
                for one in shared[1:]:
                    if one is None:
                        entries.append(None)
                        continue
                    n, to, end, sens, key, touched = one
                    part = _new(Part, (p, frm, to, end, ()))
                    entries.append((to, sens, (end, (), part, key, touched, ((p, frm, end),))))
                rows[p * NUM_LOCATIONS + frm] = (tuple(entries), touch_f, depend_f)
    return tuple(rows)


_seven_table: list[tuple[Row | None, ...]] = []


def _seven_rows_table() -> tuple[Row | None, ...]:
    if not _seven_table:
        _seven_table.append(_seven_rows())
    return _seven_table[0]


def _entry(p: int, n: int, pawns: Sequence[int]) -> Entry | None:
    """Pawn ``p``'s entry for ``n`` steps ahead on the board ``pawns``."""
    frm = pawns[p]
    info = FWD[n][p * NUM_LOCATIONS + frm]
    if info is None:
        return None
    to, end, _path = info
    row = _seven_rows_table()[p * NUM_LOCATIONS + frm]
    assert row is not None
    static = row[0][n]
    assert static is not None
    c = p >> 2
    landed = land(p, c, to, pawns)
    if landed is None:
        return (to, static[1], None)
    bumps = landed[1]
    if not bumps:
        return static
    w = WEIGHT
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


def splits(
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
    w = WEIGHT
    rows = _seven_table[0] if _seven_table else _seven_rows_table()
    # pre[p][n]: pawn p's entry for n steps on the opening board.
    pre: dict[int, tuple[Entry | None, ...] | list[Entry | None]] = {}
    touch_all: dict[int, frozenset[int]] = {}
    sens_all: dict[int, frozenset[int]] = {}
    for p in usable:
        row = rows[p * NUM_LOCATIONS + pawns[p]]
        assert row is not None
        entries: tuple[Entry | None, ...] | list[Entry | None]
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
                landed_b = land(b, b >> 2, to_b, board)
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
