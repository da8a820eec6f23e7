"""Board-geometry tables for move generation, computed once from ``board.py``.

Position keys (:func:`layout_key`), square occupancy, where each pawn lands from
each location for each step count (:data:`FWD`, :data:`BACK1`, :data:`BACK4`), the
prebuilt plain single-step moves of every card (:func:`plain_table`) and its slides
that bump no one (:func:`slide_table`), moves out of
START (:func:`exit_table`) and the parts of a plain Sorry! (:func:`placed_table`).
Every entry depends on geometry alone, never on a game: a move is an immutable value, so a
prebuilt one serves every board where it is legal.

Also the one statement of the landing rule (:func:`land`, :func:`land_in_place`,
:func:`slide_squares`): where a pawn that lands on a square stops and whom it bumps,
used by the generators and by the client's move preview.  This module does not list
moves or decide whose pawns may move: see ``movegen.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    pawn_colour,
    start_exit,
)
from .cards import Card
from .moves import Change, Move, MoveKind, Part

_new = tuple.__new__
_SIMPLE = MoveKind.SIMPLE


# ---------------------------------------------------------------------------
# Position keys: an additive hash that is equal exactly when two layouts are equal
# up to swapping pawns of one colour.  Per colour, 72 bits: one per track/safety
# location (at most one pawn of a colour there), then a 3-bit count for START and
# one for HOME.

WEIGHT = tuple(
    (1 << (c * 72 + loc))
    if loc < HOME
    else (1 << (c * 72 + 65))
    if loc == START
    else (1 << (c * 72 + 68))
    for c in range(4)
    for loc in range(NUM_LOCATIONS)
)


#: Where each pawn's colour's weights begin in :data:`WEIGHT`.
_WEIGHT_AT = tuple(pawn_colour(p) * NUM_LOCATIONS for p in range(16))


def layout_key(pawns: Sequence[int]) -> int:
    """A key equal for two layouts exactly when each colour's pawns occupy the same places."""
    if len(pawns) == len(_WEIGHT_AT):
        return sum([WEIGHT[at + loc] for at, loc in zip(_WEIGHT_AT, pawns, strict=True)])
    return sum(WEIGHT[pawn_colour(p) * NUM_LOCATIONS + loc] for p, loc in enumerate(pawns))


def occupancy(pawns: Sequence[int]) -> list[int]:
    """Slot -> pawn id (or -1): track squares 0..59, then 5 safety squares per colour."""
    occ = [-1] * NUM_SLOTS
    for p, loc in enumerate(pawns):
        if loc < TRACK_LEN:
            occ[loc] = p
        elif loc <= S5:
            occ[TRACK_LEN + pawn_colour(p) * 5 + loc - S1] = p
    return occ


def land(p: int, to: int, pawns: Sequence[int]) -> tuple[int, tuple[int, ...]] | None:
    """Where pawn ``p`` stops after landing on ``to`` in the layout ``pawns``, and whom
    it bumps: on another colour's triangle it slides, bumping every pawn on the slide
    (in square order); elsewhere it bumps the pawn of another colour on ``to``.

    The one statement of the landing rule: the generators call it (or, in their hot
    loops, inline its plain-square case) and the client's move preview uses it through
    :func:`land_in_place`.  ``None`` when ``to`` holds a pawn of ``p``'s own colour.
    ``p``'s own entry is never bumped, but must not be ``to`` itself.  Track squares
    hold one pawn at most, so ``pawns.index`` finds the one there.  It does not check
    that ``to`` is reachable from where ``p`` stands.
    """
    c = p >> 2
    if to < TRACK_LEN:
        q = pawns.index(to) if to in pawns else -1
        if q >= 0 and q >> 2 == c:
            return None
        owner = SLIDE_OWNER[to]
        if owner >= 0 and owner != c:
            _, end, squares = SLIDE_AT[to]
            bumps = tuple([pawns.index(sq) for sq in squares if sq in pawns])
            if p in bumps:  # the pawn itself stood on its own slide path
                bumps = tuple([r for r in bumps if r != p])
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


def land_in_place(loc: list[int], p: int, to: int) -> tuple[int, tuple[int, ...]] | None:
    """:func:`land` pawn ``p`` on ``to`` and apply the result to ``loc``: ``p`` to where
    it stops, each pawn it bumps to START.  ``p``'s entry may hold anything before (it
    is lifted off the board first, so it is never mistaken for a pawn on ``to``);
    ``loc`` is left as it was when the landing is refused (``None``)."""
    frm = loc[p]
    loc[p] = START
    landed = land(p, to, loc)
    if landed is None:
        loc[p] = frm
        return None
    end, bumps = landed
    for r in bumps:
        loc[r] = START
    loc[p] = end
    return landed


def slide_squares(p: int, to: int) -> tuple[int, ...]:
    """The squares after the triangle that pawn ``p`` slides over when it lands on
    ``to`` (``()`` where it does not slide); the last is where it stops."""
    if to < TRACK_LEN and SLIDE_OWNER[to] not in (-1, pawn_colour(p)):
        return SLIDE_AT[to][2][1:]
    return ()


# A landing table for one step count and direction, indexed by ``pawn * 67 + loc``:
# None where no square is that far, else ``(to, end, path)``: the square landed on,
# where the pawn stops, and the squares of the slide it takes there (None when ``to``
# does not slide a pawn of that colour, and then ``end == to``).
Landing = tuple[int, int, "tuple[int, ...] | None"]


def landing_table(table: tuple[int, ...], n: int) -> tuple[Landing | None, ...]:
    rows: list[Landing | None] = []
    for p in range(16):
        c = pawn_colour(p)
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


FWD: tuple[tuple[Landing | None, ...], ...] = (
    (), *(landing_table(FORWARD, n) for n in range(1, 13))
)
BACK1 = landing_table(BACKWARD, 1)
BACK4 = landing_table(BACKWARD, 4)
EXIT = tuple(start_exit(c) for c in range(4))
# The pawns of the other three colours, in pawn order.
OTHERS = tuple(tuple(q for q in range(16) if pawn_colour(q) != c) for c in range(4))
# Per colour and location: True where a pawn of that colour landing there stays put
# (a track square that is not another colour's triangle).
STAYS = tuple(
    tuple(loc < TRACK_LEN and SLIDE_OWNER[loc] in (-1, c) for loc in range(NUM_LOCATIONS))
    for c in range(4)
)
assert all(SLIDE_OWNER[x] < 0 for x in EXIT)  # leaving START never slides


def plain_moves(card: Card, table: tuple[Landing | None, ...]) -> tuple[Move | None, ...]:
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


def slide_moves(card: Card, table: tuple[Landing | None, ...]) -> tuple[Move | None, ...]:
    """Each pawn's move along ``table`` when it slides and the slide bumps no one.

    Indexed like ``table``; None where the landing does not slide.  Pure geometry, like
    :func:`plain_moves`.
    """
    rows: list[Move | None] = []
    for i, info in enumerate(table):
        if info is None or info[2] is None:
            rows.append(None)
            continue
        p, frm, (to, end, _path) = i // NUM_LOCATIONS, i % NUM_LOCATIONS, info
        part = _new(Part, (p, frm, to, end, ()))
        rows.append(_new(Move, (_SIMPLE, card, (part,), ((p, frm, end),))))
    return tuple(rows)


# The squares each triangle's slide covers (None on the other squares), as sets.
SLIDE_SQUARES = tuple(
    frozenset(SLIDE_AT[sq][2]) if sq in SLIDE_AT else None for sq in range(TRACK_LEN)
)


# The plain moves (``plain_moves``) of each card's forward steps at the card's number,
# of the 4's backward steps at 13 and of the 10's at 14; each built on first use.
PLAIN: list[tuple[Move | None, ...] | None] = [None] * 15
BACK4_SLOT = 13
BACK1_SLOT = 14


# The landing table of each slot of ``PLAIN``, and the card whose steps it holds.
LANDINGS: tuple[tuple[Landing | None, ...], ...] = (*FWD, BACK4, BACK1)
assert LANDINGS[BACK4_SLOT] is BACK4 and LANDINGS[BACK1_SLOT] is BACK1
SLOT_CARD = {
    **{int(card): card for card in Card if card < BACK4_SLOT},
    BACK4_SLOT: Card.FOUR,
    BACK1_SLOT: Card.TEN,
}


def plain_table(slot: int) -> tuple[Move | None, ...]:
    table = PLAIN[slot]
    if table is None:
        table = PLAIN[slot] = plain_moves(SLOT_CARD[slot], LANDINGS[slot])
    return table

# The bump-free slides (``slide_moves``), by the same slots as ``PLAIN``.
SLIDES: list[tuple[Move | None, ...] | None] = [None] * 15


def slide_table(slot: int) -> tuple[Move | None, ...]:
    table = SLIDES[slot]
    if table is None:
        table = SLIDES[slot] = slide_moves(SLOT_CARD[slot], LANDINGS[slot])
    return table


def exit_moves(card: Card) -> tuple[Move, ...]:
    """Each pawn's move out of START onto its colour's exit square with ``card`` (a 1
    or a 2), bumping no one: indexed by pawn."""
    rows = []
    for p in range(16):
        to = EXIT[pawn_colour(p)]
        part = _new(Part, (p, START, to, to, ()))
        rows.append(_new(Move, (_SIMPLE, card, (part,), ((p, START, to),))))
    return tuple(rows)


# ``exit_moves`` of the 1 and the 2, indexed by card; each built on first use.
EXITS: list[tuple[Move, ...] | None] = [None] * 3


def exit_table(card: Card) -> tuple[Move, ...]:
    table = EXITS[card]
    if table is None:
        table = EXITS[card] = exit_moves(card)
    return table


# A pawn's part and change for moving between START and a track square, as a Sorry!
# moves them when the square landed on does not slide: indexed by
# ``pawn * TRACK_LEN + square``, ``(part, change)`` out of START onto the square and
# ``(part, change)`` from the square back to START.  Built on the first Sorry!.
Placing = tuple[Part, Change, Part, Change]
PLACED: list[tuple[Placing, ...]] = []


def placed_table() -> tuple[Placing, ...]:
    if not PLACED:
        rows = []
        for p in range(16):
            for sq in range(TRACK_LEN):
                rows.append((
                    _new(Part, (p, START, sq, sq, ())), (p, START, sq),
                    _new(Part, (p, sq, START, START, ())), (p, sq, START),
                ))
        PLACED.append(tuple(rows))
    return PLACED[0]
