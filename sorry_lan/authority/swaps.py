"""Trading colours in the lobby (protocol version 6): the asks and their answers.

A seated player asks another to trade colours (:func:`ask`); the asked player accepts
or declines (:func:`answer`); on accept both colours change in one step.  The asks
waiting for an answer live in :attr:`~sorry_lan.authority.table.Table.swaps` (asker's
pid -> asked pid), which the lobby lists; each player takes part in at most one.
The table drops an ask itself when either player leaves, goes away or changes colour
and when a game starts.

A refused request raises :class:`~sorry_lan.authority.table.RequestRefused`.  Nothing
here sends a message or knows a connection's protocol version: the caller says
whether the asked player can answer (``can_answer``).
"""

from __future__ import annotations

from collections.abc import Callable

from sorry_lan.authority.table import Player, RequestRefused, Table
from sorry_lan.wire.errors import ErrorReason


def _refused(text: str) -> RequestRefused:
    return RequestRefused(ErrorReason.UNEXPECTED, text)


def ask(table: Table, conn: int, pid: int | None, can_answer: Callable[[Player], bool]) -> None:
    """The player on ``conn`` asks player ``pid`` to trade colours (None: takes back
    its own ask).  A bot the host runs accepts at once: it prefers no colour."""
    asker = table.lobby_player(conn)
    if pid is None:
        if table.swaps.pop(asker.pid, None) is not None:
            table.touch()
        return
    asked = table.players.get(pid)
    if asked is None or asked is asker:
        raise _refused("no other player sits there")
    # (the asker's own earlier ask is replaced: it keeps nobody busy)
    busy = {p for pair in table.swaps.items() if pair[0] != asker.pid for p in pair}
    if asker.pid in busy:
        raise _refused("someone asks you to trade colours: answer first")
    if asked.pid in busy:
        raise _refused("that player is already trading colours")
    if asked.bot:
        table.swaps.pop(asker.pid, None)
        _trade(table, asker, asked)
        return
    if asked.conn is None or not can_answer(asked):
        raise _refused("that player cannot answer now")
    table.swaps[asker.pid] = asked.pid
    table.touch()


def answer(table: Table, conn: int, pid: int, accept: bool) -> None:
    """The player on ``conn`` answers the ask of player ``pid``: on accept the two
    trade colours.  The ask is gone either way."""
    asked = table.lobby_player(conn)
    if table.swaps.get(pid) != asked.pid:
        raise _refused("nobody is asking you to trade colours")
    del table.swaps[pid]
    if accept:
        _trade(table, table.players[pid], asked)
    else:
        table.touch()


def _trade(table: Table, one: Player, other: Player) -> None:
    one.colour, other.colour = other.colour, one.colour
    table.touch()
