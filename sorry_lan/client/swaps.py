"""Asks to trade colours as one seat reads them from the lobby (protocol version 6).

Pure functions of a ``lobby`` message and this seat's pid: who asks this seat, whom
this seat asks, and the player holding a colour.  They send nothing and judge
nothing: the host decides whether an ask or an answer stands.
"""

from __future__ import annotations

from sorry_lan.wire import messages as m
from sorry_lan.wire.records import PlayerInfo


def asked_by(lobby: m.Lobby | None, pid: int | None) -> PlayerInfo | None:
    """The player asking seat ``pid`` to trade colours (None: nobody, or a host that
    does not speak of asks)."""
    if lobby is None or pid is None:
        return None
    asker = next((a for a, b in lobby.swaps or () if b == pid), None)
    return None if asker is None else player(lobby, asker)


def asking(lobby: m.Lobby | None, pid: int | None) -> PlayerInfo | None:
    """The player seat ``pid`` asks to trade colours (None: nobody)."""
    if lobby is None or pid is None:
        return None
    asked = next((b for a, b in lobby.swaps or () if a == pid), None)
    return None if asked is None else player(lobby, asked)


def player(lobby: m.Lobby, pid: int) -> PlayerInfo | None:
    return next((p for p in lobby.players if p.pid == pid), None)


def holder(lobby: m.Lobby | None, colour: int) -> PlayerInfo | None:
    """The player seated at ``colour`` (None: the colour is free)."""
    if lobby is None:
        return None
    return next((p for p in lobby.players if p.colour is not None and int(p.colour) == colour),
                None)
