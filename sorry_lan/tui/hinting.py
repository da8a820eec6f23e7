"""Hints on the player's own machine: what this seat knows, and the chances of its offer.

When the table allows hints and the seat has moves on offer, :func:`hint_job` reads
the position from the client model's table view (the same
:class:`~sorry_lan.net.botrunner.SeatView` a networked bot reads: the board, its own
card or hand, the public discard pile) and :func:`judge` judges them with
:func:`sorry_lan.bots.hints.move_chances`.  Nothing hidden is read: only what this
seat was told; nothing is kept here (the model folds the game once).  Bots never use
this (they search for themselves).

This module does not draw or word anything (the board and the line mode do).
"""

from __future__ import annotations

from sorry_lan.bots import Position
from sorry_lan.bots.hints import move_chances
from sorry_lan.client.model import ClientModel
from sorry_lan.errors import SorryLanError
from sorry_lan.net.botrunner import SeatView
from sorry_lan.rules import Move

#: What a hint judges: the offer's state id, the position, the engine's moves and the
#: offered option ids in the same order.
Job = tuple[int, Position, list[Move], list[int]]


class HintsOff(SorryLanError, ValueError):
    """No hint now: the table does not allow them, or no move is on offer to you."""


def allowed(client: ClientModel) -> bool:
    """Whether the table shows hints (``host --hints``: the lobby says so)."""
    return bool(client.lobby is not None and client.lobby.hints)


def hint_job(client: ClientModel) -> Job:
    """What to judge for the offer now (taken on the event loop, judged anywhere):
    the offer's state id, the position, the engine's moves and the option ids in the
    same order; :class:`HintsOff` when the table has no hints or nothing is on offer."""
    offer, colour = client.moves, client.colour
    if not allowed(client) or offer is None or colour is None or client.snapshot is None:
        raise HintsOff
    view = client.view  # (the offer is the model's now: so is the table)
    found = SeatView.of(view).decision(view.pawns, colour, offer)
    if found is None:
        raise HintsOff
    position, moves = found
    return offer.sid, position, moves, [option.id for option in offer.moves]


def judge(job: Job) -> dict[int, float]:
    """Each offered move's chance to win, by option id (the search: run it off the
    event loop)."""
    _sid, position, moves, ids = job
    return dict(zip(ids, move_chances(position, moves), strict=True))


def offer_chances(client: ClientModel) -> dict[int, float]:
    """:func:`judge` of :func:`hint_job`, at once."""
    return judge(hint_job(client))
