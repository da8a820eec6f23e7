"""The 7 split between two pawns, from an empty-board table of each pawn's shares.

:func:`splits` appends every split of a 7 between two usable pawns (part one, then
part two judged on the board part one left), skipping any that leaves a layout
already offered.  This module does not list the single-pawn 7s, decide which pawns
may split, or order the final list: ``movegen.py`` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import HOME, NUM_LOCATIONS, START, TRACK_LEN, colour_pawns
from .cards import Card
from .moves import Change, Move, MoveKind, Part
from .precomputed import FWD, WEIGHT, land

_new = tuple.__new__  # builds the engine's NamedTuples fast, as in ``movegen.py``
_SPLIT = MoveKind.SPLIT


# The records the loops below read are classes with slots, not NamedTuples: on CPython
# 3.11 a NamedTuple field (by name or by index) reads about half as fast as an item of
# a plain tuple, and made the 7 about 10% slower (counted in instructions), while a
# slot reads as fast as a tuple item.


class Share:
    """One pawn's share of a 7 split, judged on the board before the move."""

    __slots__ = ("bumps", "changes", "end", "key", "part", "touched")

    def __init__(
        self, end: int, bumps: tuple[int, ...], part: Part, key: int,
        touched: tuple[int, ...], changes: tuple[Change, ...],
    ) -> None:
        self.end = end  # where the pawn stops
        self.bumps = bumps  # the pawns it sends back to START
        self.part = part
        self.key = key  # the change it makes to the layout key
        self.touched = touched  # the squares it leaves, stops on or empties
        self.changes = changes


class Entry:
    """A pawn's landing some steps ahead.  HOME depends on nothing: it takes any
    number of pawns."""

    __slots__ = ("depends", "share", "to")

    def __init__(self, to: int, depends: tuple[int, ...], share: Share | None) -> None:
        self.to = to  # the square landed on
        self.depends = depends  # the squares whose occupants the landing depends on
        self.share = share  # None where the landing is illegal


class Row:
    """One pawn's 7-split entries from one location."""

    __slots__ = ("depends", "entries", "repeats", "steps_on", "touches", "track_depends")

    def __init__(
        self, entries: tuple[Entry | None, ...], touches: frozenset[int],
        depends: frozenset[int], repeats: bool, steps_on: dict[int, tuple[int, ...]],
        track_depends: frozenset[int],
    ) -> None:
        self.entries = entries  # for 1..6 steps; [0] unused, None: no square that far
        self.touches = touches  # every square those shares may touch
        self.depends = depends  # every square they depend on
        self.repeats = repeats  # two landings stop on one square (only a slide does that)
        self.steps_on = steps_on  # square depended on -> the step counts depending on it
        self.track_depends = track_depends  # the track squares among ``depends``


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
            deps: dict[int, tuple[int, ...]] = {}
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
                for sq in sens:
                    deps[sq] = (*deps.get(sq, ()), n)
            touch_f, depend_f = frozenset(touch), frozenset(depend)
            track_f = frozenset(sq for sq in depend if sq < TRACK_LEN)
            ends = [one[2] for one in shared[1:] if one is not None]
            repeats = len(set(ends)) < len(ends)
            for p in colour_pawns(c):
                entries: list[Entry | None] = [None]
                for one in shared[1:]:
                    if one is None:
                        entries.append(None)
                        continue
                    n, to, end, sens, key, touched = one
                    part = Part(p, frm, to, end, ())
                    share = Share(end, (), part, key, touched, ((p, frm, end),))
                    entries.append(Entry(to, sens, share))
                rows[p * NUM_LOCATIONS + frm] = Row(
                    tuple(entries), touch_f, depend_f, repeats, deps, track_f
                )
    return tuple(rows)


_seven_table: list[tuple[Row | None, ...]] = []


def seven_rows_table() -> tuple[Row | None, ...]:
    if not _seven_table:
        _seven_table.append(_seven_rows())
    return _seven_table[0]


def _entry(p: int, static: Entry, pawns: Sequence[int]) -> Entry:
    """Pawn ``p``'s entry ``static`` (from its empty-board row) judged on ``pawns``."""
    to = static.to
    depends = static.depends
    share = static.share
    assert share is not None  # on an empty board every landing in the row is legal
    end = share.end
    part = share.part
    if to == end:  # no slide: only the square landed on matters
        if to >= TRACK_LEN:  # a safety square: only the pawn's own colour counts there
            base = p & 12
            if (
                pawns[base] == to
                or pawns[base + 1] == to
                or pawns[base + 2] == to
                or pawns[base + 3] == to
            ):
                return Entry(to, depends, None)
            return static
        if to not in pawns:
            return static
        # ``land`` inlined for a square that does not slide.
        q = pawns.index(to)
        if q >> 2 == p >> 2:
            return Entry(to, depends, None)
        frm = part.frm
        wq = (q >> 2) * NUM_LOCATIONS
        bumped = (q,)
        return Entry(to, depends, Share(
            to, bumped, _new(Part, (p, frm, to, to, bumped)),
            share.key + WEIGHT[wq + START] - WEIGHT[wq + to], (frm, to, to),
            ((p, frm, to), (q, to, START)),
        ))
    landed = land(p, to, pawns)
    if landed is None:
        return Entry(to, depends, None)
    bumps = landed[1]
    if not bumps:
        return static
    w = WEIGHT
    frm = part.frm
    wc = (p >> 2) * NUM_LOCATIONS
    key = w[wc + end] - w[wc + frm]
    squares = [frm, end]
    moved: list[Change] = [(p, frm, end)]
    for r in bumps:
        wr = (r >> 2) * NUM_LOCATIONS
        key += w[wr + START] - w[wr + pawns[r]]
        squares.append(pawns[r])
        moved.append((r, pawns[r], START))
    bumped_share = Share(
        end, bumps, _new(Part, (p, frm, to, end, bumps)), key, tuple(squares), tuple(moved)
    )
    return Entry(to, depends, bumped_share)


def _on_board(
    p: int, row: Row, pawns: Sequence[int], depend: frozenset[int]
) -> list[Entry | None]:
    """Pawn ``p``'s row of entries with each landing that depends on an occupied square
    of ``depend`` (the row's squares depended on, or some of them) judged again on
    ``pawns``."""
    static = row.entries
    judged = list(static)
    steps_on = row.steps_on
    for sq in depend.intersection(pawns):
        for n in steps_on[sq]:
            entry = judged[n]
            if entry is static[n]:  # not judged yet (a slide may look at two pawns)
                assert entry is not None
                judged[n] = _entry(p, entry, pawns)
    return judged


def _keys(moves: list[Move]) -> set[int]:
    """The layout keys (relative to the board before them) of ``moves``."""
    w = WEIGHT
    keys = set()
    for m in moves:
        key = 0
        for pawn, before, after in m[3]:
            base = (pawn >> 2) * NUM_LOCATIONS
            key += w[base + after] - w[base + before]
        keys.add(key)
    return keys


def _free_pair(
    card: Card, pawns: Sequence[int], a: int, row_a: Row, b: int, row_b: Row,
    seen: set[int] | None, out: list[Move],
) -> None:
    """The splits between ``a`` (first) and ``b`` when neither pawn's landings touch a
    square the other's landings depend on, and not both pawns have two landings that
    stop on one square.

    Then each split is judged on the opening board, ``b`` first gives the same
    layouts, and no two of these splits leave the same layout (neither pawn can bump
    the other, and the layouts differ where ``a`` or ``b`` stops).  A split may still
    leave the layout of a single-pawn 7 that slid: ``seen`` holds those (None when
    none slid).  ``seen`` is only read, not extended.
    """
    # Only track squares need a look: a safety square can only be blocked by a pawn of
    # its own colour, and the only ones on the board are ``a`` and ``b`` (``usable``
    # holds whole colours), whose landings never meet.
    entries_a: Sequence[Entry | None] = row_a.entries
    if not row_a.track_depends.isdisjoint(pawns):
        entries_a = _on_board(a, row_a, pawns, row_a.track_depends)
    entries_b: Sequence[Entry | None] = row_b.entries
    if not row_b.track_depends.isdisjoint(pawns):
        entries_b = _on_board(b, row_b, pawns, row_b.track_depends)
    for k in range(1, 7):
        entry_a = entries_a[k]
        entry_b = entries_b[7 - k]
        if entry_a is None or entry_b is None:
            continue
        share_a = entry_a.share
        share_b = entry_b.share
        if share_a is None or share_b is None:
            continue
        if seen is not None and share_a.key + share_b.key in seen:
            continue
        if share_a.bumps or share_b.bumps:
            out.append(_split(card, share_a, share_b))
        else:  # ``_split`` inlined for the common case (measured: the 7's hottest loop)
            changes = (share_a.changes[0], share_b.changes[0])
            out.append(_new(Move, (_SPLIT, card, (share_a.part, share_b.part), changes)))


def _split(card: Card, share_a: Share, share_b: Share) -> Move:
    """The split of ``share_a`` then ``share_b`` (each judged on the board it moves on)."""
    if share_a.bumps or share_b.bumps:
        changes = tuple(sorted(share_a.changes + share_b.changes))
    else:
        changes = (share_a.changes[0], share_b.changes[0])
    return _new(Move, (_SPLIT, card, (share_a.part, share_b.part), changes))


def _all_free(rows: list[Row]) -> bool:
    """Whether no two of these pawns' rows meet (see ``_free_pair``) and no two of them
    both have two landings that stop on one square."""
    for i, one in enumerate(rows):
        for two in rows[i + 1:]:
            if (
                (one.repeats and two.repeats)
                or not one.touches.isdisjoint(two.depends)
                or not two.touches.isdisjoint(one.depends)
            ):
                return False
    return True


def _free_all(
    card: Card, pawns: Sequence[int], usable: list[int], rows: list[Row],
    seen: set[int] | None, out: list[Move],
) -> None:
    """The splits between three or more pawns when every two of them are as
    ``_free_pair`` asks (``_all_free``).

    As there, no split bumps a pawn that may split, the partner going first gives the
    same layouts, and no two of these splits leave the same layout: two splits of
    different pairs differ where a pawn that only one of them moves stands.  ``seen``
    (None when no single-pawn 7 slid) is only read.
    """
    judged: list[Sequence[Entry | None]] = []
    for p, row in zip(usable, rows, strict=True):
        # Only track squares need a look, as in ``_free_pair``.
        track = row.track_depends
        judged.append(row.entries if track.isdisjoint(pawns) else _on_board(p, row, pawns, track))
    last = len(usable) - 1
    for i in range(last):
        entries_a = judged[i]
        partners = judged[i + 1:]
        for k in range(1, 7):
            entry_a = entries_a[k]
            if entry_a is None:
                continue
            share_a = entry_a.share
            if share_a is None:
                continue
            for entries_b in partners:
                entry_b = entries_b[7 - k]
                if entry_b is None:
                    continue
                share_b = entry_b.share
                if share_b is None:
                    continue
                if seen is not None and share_a.key + share_b.key in seen:
                    continue
                if share_a.bumps or share_b.bumps:
                    out.append(_split(card, share_a, share_b))
                else:  # ``_split`` inlined for the common case (measured: the 7's hottest loop)
                    changes = (share_a.changes[0], share_b.changes[0])
                    out.append(_new(Move, (_SPLIT, card, (share_a.part, share_b.part), changes)))


def splits(
    card: Card, pawns: Sequence[int], usable: list[int], seen: set[int] | None,
    out: list[Move], singles_slid: bool = True,
) -> None:
    """Append the 7 split between two pawns, part one then part two, each judged in turn.

    ``seen`` holds the layout keys (relative to ``pawns``) already offered; a split
    that leaves one of them is skipped before any move value is built.  Each pawn's
    share for 1..6 steps (its part, its key, its changes) comes from the empty-board
    table unless a pawn stands where that landing looks, and is reused for part two
    unless part one touched a square that landing depends on; only then is part two
    judged again on the board part one left.

    ``seen=None`` stands for the layouts of the moves already in ``out`` (keyed only
    if needed).  ``singles_slid=False`` says that none of those single-pawn 7s slid
    (so none can equal a split of two pawns whose landings never meet).  ``seen`` is
    not kept up to date when no split can repeat a layout (two pawns whose landings
    never meet).
    """
    w = WEIGHT
    rows = _seven_table[0] if _seven_table else seven_rows_table()
    if len(usable) == 2:
        one, two = usable
        first = rows[one * NUM_LOCATIONS + pawns[one]]
        second = rows[two * NUM_LOCATIONS + pawns[two]]
        assert first is not None and second is not None
        if (
            not (first.repeats and second.repeats)
            and first.touches.isdisjoint(second.depends)
            and second.touches.isdisjoint(first.depends)
        ):
            if singles_slid and seen is None:
                seen = _keys(out)
            _free_pair(card, pawns, one, first, two, second, seen if singles_slid else None, out)
            return
    else:
        own = [rows[p * NUM_LOCATIONS + pawns[p]] for p in usable]
        if _all_free(own):  # type: ignore[arg-type]  # every usable pawn has a row
            if singles_slid and seen is None:
                seen = _keys(out)
            _free_all(card, pawns, usable, own, seen if singles_slid else None, out)  # type: ignore[arg-type]
            return
    if seen is None:
        seen = _keys(out)
    # pre[p][n]: pawn p's entry for n steps on the opening board.
    pre: dict[int, tuple[Entry | None, ...] | list[Entry | None]] = {}
    touch_all: dict[int, frozenset[int]] = {}
    sens_all: dict[int, frozenset[int]] = {}
    for p in usable:
        row = rows[p * NUM_LOCATIONS + pawns[p]]
        assert row is not None
        entries: tuple[Entry | None, ...] | list[Entry | None]
        entries, touch_all[p], depend = row.entries, row.touches, row.depends
        sens_all[p] = depend
        if not depend.isdisjoint(pawns):
            # Some landing looks at an occupied square: judge those on this board.
            entries = _on_board(p, row, pawns, depend)
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
            share_a = entry.share
            if share_a is None:
                continue
            bumps_a = share_a.bumps
            key_a = share_a.key
            touched = share_a.touched
            board: tuple[int, ...] | None = None
            for b, free, row_b in partners:
                if b in bumps_a:
                    continue
                entry_b = row_b[7 - k]
                if entry_b is None:
                    continue
                share_b = entry_b.share
                if not free:
                    depends = entry_b.depends
                    for sq in touched:
                        if sq in depends:
                            break
                    else:
                        free = True
                if free:
                    # Part one leaves part two's landing as it was on the opening board.
                    if share_b is None:
                        continue
                    key = key_a + share_b.key
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(_split(card, share_a, share_b))
                    continue
                # Part one touched a square part two's landing depends on: judge it again.
                end_a = share_a.end
                if board is None:
                    after = list(pawns)  # the board after part one
                    after[a] = end_a
                    for r in bumps_a:
                        after[r] = START
                    board = tuple(after)
                to_b = entry_b.to
                landed_b = land(b, to_b, board)
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
                out.append(_new(Move, (_SPLIT, card, (share_a.part, part_b), changes_t)))
