"""What a client does with the events it is told: the pawns' locations and the discard
pile afterwards.

The client side of ``authority.seat_messages``: the host builds ``events`` messages
there, a client (the network client, the text board) applies their event tuples here
to keep its copy of the board current (:func:`apply_events`) and of the discard pile
(:func:`apply_discards`, counts by card value as ``snapshot.discarded`` gives them),
and can check that they
add up on the board it holds (:func:`check_events`: every MOVE, SLIDE and BUMP starts
where the pawn stands at that moment, and the pawn events after each PLAY leave a
layout that some legal play of that card by that colour leaves, up to which pawn of a
colour stands where; judged with the engine under the widest move context the
variant allows, since a client does not track every fact a context depends on).
Pure: it knows nothing of turns or who is told what, and it does not check hidden
things (hands, the draw pile) or card counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from sorry_lan.rules import START, Card, Variant, generate, move_context, pawn_label
from sorry_lan.rules.board import location_name
from sorry_lan.rules.precomputed import layout_key
from sorry_lan.wire import records as r


def apply_events(pawns: Sequence[int], events: Sequence[r.EventTuple]) -> tuple[int, ...]:
    """The layout after ``events`` (what a client does to keep its board current)."""
    out = list(pawns)
    for ev in events:
        kind = ev[0]
        if kind in (r.EventKind.MOVE, r.EventKind.SLIDE):
            out[ev[1]] = ev[3]
        elif kind == r.EventKind.BUMP:
            out[ev[1]] = START
    return tuple(out)


_CARD_EVENTS = (r.EventKind.PLAY, r.EventKind.DISCARD, r.EventKind.TURN_LOST)


def apply_discards(
    discarded: Sequence[int], events: Sequence[r.EventTuple]
) -> tuple[int, ...]:
    """The discard pile (counts by card value) after ``events``: every card played,
    discarded or lost goes on it; a reshuffle takes the whole pile into the draw pile.
    (In play for points the card played is on the pile before the refill's draw, so a
    reshuffle there takes it too: the events come in that order.)"""
    out = list(discarded)
    for ev in events:
        kind = ev[0]
        if kind in _CARD_EVENTS:
            out[ev[2]] += 1
        elif kind == r.EventKind.RESHUFFLE:
            out = [0] * len(out)
    return tuple(out)


_PAWN_EVENTS = (r.EventKind.MOVE, r.EventKind.SLIDE, r.EventKind.BUMP)


def check_events(
    pawns: Sequence[int], events: Sequence[r.EventTuple], variant: Variant
) -> str | None:
    """None when ``events`` replay cleanly over ``pawns``; else what went wrong, in a
    sentence."""
    board = list(pawns)
    played: tuple[int, int, tuple[int, ...]] | None = None  # colour, card, board before

    def judge() -> str | None:
        if played is None:
            return None
        colour, card, before = played
        ctx = move_context(variant, before, colour, after_two=True)
        after = layout_key(board)  # pawns of one colour are alike (the engine dedupes so)
        if any(layout_key(mv.result(before)) == after for mv in generate(before, Card(card), ctx)):
            return None
        return f"no legal play of card {card} by colour {colour} leaves the board reported"

    for ev in events:
        kind = ev[0]
        if kind in _PAWN_EVENTS:
            pawn, frm = ev[1], ev[2]
            if board[pawn] != frm:
                return (
                    f"{r.EventKind(kind).name} of {pawn_label(pawn)} from {location_name(frm)}"
                    f" but it stands on {location_name(board[pawn])}"
                )
            board[pawn] = START if kind == r.EventKind.BUMP else ev[3]
            continue
        problem = judge()
        if problem is not None:
            return problem
        played = (ev[1], ev[2], tuple(board)) if kind == r.EventKind.PLAY else None
    return judge()
