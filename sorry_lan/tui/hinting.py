"""Hints on the player's own machine: what this seat knows, and the chances of its offer.

A :class:`Hinter` follows the events one client is told (the same
:class:`~sorry_lan.net.botrunner.SeatView` a networked bot keeps: the board, its own
card or hand, the public discard pile) and, when the table allows hints and the seat
has moves on offer, judges them with :func:`sorry_lan.bots.hints.move_chances`.  Nothing
hidden is read: only what this seat was told.  Bots never use this (they search for
themselves).

This module does not draw or word anything (the board and the line mode do).
"""

from __future__ import annotations

from sorry_lan.bots import Position
from sorry_lan.bots.hints import move_chances
from sorry_lan.client.model import ClientEvent, ClientModel
from sorry_lan.errors import SorryLanError
from sorry_lan.net.botrunner import SeatView
from sorry_lan.rules import Move
from sorry_lan.wire import messages as m

#: What a hint judges: the offer's state id, the position, the engine's moves and the
#: offered option ids in the same order.
Job = tuple[int, Position, list[Move], list[int]]


class HintsOff(SorryLanError, ValueError):
    """No hint now: the table does not allow them, or no move is on offer to you."""


class Hinter:
    """One seat's view of the game, fed every event its client is told."""

    def __init__(self) -> None:
        self.view = SeatView()

    def take(self, client: ClientModel, ev: ClientEvent) -> None:
        """Follow one event (call it for each, in order)."""
        match ev:
            case m.Snapshot():
                self.view.snapshot(ev)
            case m.LegalMoves():
                turn = client.turn
                if turn is not None and turn.sid == ev.sid:
                    self.view.turn(turn)
            case m.Events():
                self.view.events(ev)
            case _:
                pass


def allowed(client: ClientModel) -> bool:
    """Whether the table shows hints (``host --hints``: the lobby says so)."""
    return bool(client.lobby is not None and client.lobby.hints)


def hint_job(hinter: Hinter, client: ClientModel) -> Job:
    """What to judge for the offer now (taken on the event loop, judged anywhere):
    the offer's state id, the position, the engine's moves and the option ids in the
    same order; :class:`HintsOff` when the table has no hints or nothing is on offer."""
    offer, colour = client.moves, client.colour
    if not allowed(client) or offer is None or colour is None or client.snapshot is None:
        raise HintsOff
    found = hinter.view.decision(client.pawns, colour, offer)
    if found is None:
        raise HintsOff
    position, moves = found
    return offer.sid, position, moves, [option.id for option in offer.moves]


def judge(job: Job) -> dict[int, float]:
    """Each offered move's chance to win, by option id (the search: run it off the
    event loop)."""
    _sid, position, moves, ids = job
    return dict(zip(ids, move_chances(position, moves), strict=True))


def offer_chances(hinter: Hinter, client: ClientModel) -> dict[int, float]:
    """:func:`judge` of :func:`hint_job`, at once."""
    return judge(hint_job(hinter, client))
