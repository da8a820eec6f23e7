"""What a client does with the events it is told: the pawns' locations afterwards.

The client side of ``authority.seat_messages``: the host builds ``events`` messages
there, a client (the network client, the text board) applies their event tuples here
to keep its copy of the board current.  Pure: it checks nothing (the decoder already
did) and knows nothing of cards, turns or who is told what.
"""

from __future__ import annotations

from collections.abc import Sequence

from sorry_lan.rules import START
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
