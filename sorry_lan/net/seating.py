"""How many seats a new table has and how many bots it may seat: what the command line
checks before it loads the host (:mod:`sorry_lan.net.hosted` uses the same rules).

Numbers only: nothing here seats anyone.
"""

from __future__ import annotations

from sorry_lan.rules.board import Colour


def table_seats(headless: bool, players: int) -> int:
    """How many seats a table has: a headless table the ``players`` asked for, a table
    the host plays at every colour (the host sits at one, the others may join)."""
    return players if headless else len(Colour)


def bot_room(headless: bool, players: int) -> int:
    """How many bots a new table may seat at once: its seats, less the host's own
    player's when the host plays at it."""
    seats = table_seats(headless, players)
    return seats if headless else seats - 1
