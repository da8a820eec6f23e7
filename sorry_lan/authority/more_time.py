"""More time for a turn (protocol version 6): the seat on turn asks, once a turn.

:func:`ask` checks that the asker is the player on turn, that the table runs a turn
timer and that this decision was not extended yet; then it marks the decision
extended (:attr:`~sorry_lan.authority.table.Table.extended`), which moves its turn
deadline on by the table's turn timeout.  A refused request raises
:class:`~sorry_lan.authority.table.RequestRefused` and changes nothing.  Nothing here
sends a message: the caller tells everyone the :class:`Extension`.  A bot the host
runs never asks.
"""

from __future__ import annotations

from dataclasses import dataclass

from sorry_lan.authority.table import RequestRefused, Table
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import TIMEOUT_MAX

NO_TIMER_TEXT = "this table has no turn timer"
ONCE_TEXT = "this turn already got more time"


@dataclass(frozen=True)
class Extension:
    """Seat ``colour``'s decision at state ``sid`` got ``more`` seconds; ``left`` are
    left of it now (whole seconds, at least 1)."""

    sid: int
    colour: int
    more: int
    left: int


def ask(table: Table, conn: int, now: float) -> Extension:
    """The player on ``conn`` asks for more time for the decision on turn."""
    # (a game that is over is no longer PLAYING: on_turn refuses it too)
    player, game = table.on_turn(conn, "ask for time")
    limit = table.config.turn_timeout
    if limit is None:
        raise RequestRefused(ErrorReason.UNEXPECTED, NO_TIMER_TEXT)
    if table.extended == game.state_id:
        raise RequestRefused(ErrorReason.UNEXPECTED, ONCE_TEXT)
    table.extended = game.state_id
    deadline = table.turn_deadline()
    assert deadline is not None
    more = max(1, min(TIMEOUT_MAX, round(limit)))
    left = max(1, min(2 * TIMEOUT_MAX, round(deadline - now)))
    return Extension(game.state_id, player.colour, more, left)
