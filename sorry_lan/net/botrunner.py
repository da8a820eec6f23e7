"""A bot at a networked table: reads a :class:`GameClient`'s events and answers its turns.

The bot judges only what the client was told (the board and the moves on offer), with
``compact.choose``, so it plays exactly as the host's own bots would.  It can measure
how long each move takes to come back as events (the move round trip).  It does not
connect by itself; hand it a connected client.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import assert_never

from sorry_lan.bots import compact
from sorry_lan.rules import Variant
from sorry_lan.rules.variants import team_of
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError

from . import client as c
from .client import GameClient


@dataclass
class BotStats:
    round_trips: list[float] = field(default_factory=list)  # seconds, move -> its events
    refused: list[str] = field(default_factory=list)
    games: int = 0


async def run_bot(
    client: GameClient,
    strength: str = "greedy",
    think: float = 0.0,
    games: int = 1,
    stats: BotStats | None = None,
) -> m.GameOver | None:
    """Play until ``games`` games have ended (then return the last result), or the
    connection is lost for good (then return None)."""
    stats = stats if stats is not None else BotStats()
    sent_at: float | None = None
    while True:
        ev = await client.events.get()
        match ev:
            case c.YourTurn():
                moves = ev.moves
                if client.snapshot is None or client.colour is None:
                    continue
                if think > 0:
                    await asyncio.sleep(think)
                if client.moves is not moves:
                    continue  # the offer went stale while thinking
                colour = client.colour
                team = (
                    team_of(colour) if client.snapshot.variant.value == Variant.TEAM.value else None
                )
                options = [o.move for o in moves.moves]
                index = compact.choose(options, client.pawns, colour, strength, team)
                sent_at = time.perf_counter()
                try:
                    await client.play(moves.moves[index].id)
                except LocalProtocolError:
                    sent_at = None  # not connected just now: the offer comes again on rejoin
            case c.Happened():
                if sent_at is not None and ev.events.colour == client.colour:
                    stats.round_trips.append(ev.at - sent_at)
                sent_at = None
            case c.Refused():
                stats.refused.append(f"{ev.error.reason}: {ev.error.text}")
                sent_at = None
            case c.GameEnded():
                stats.games += 1
                if stats.games >= games:
                    return ev.over
                await client.rematch()
            case c.Connection():
                if ev.state == "lost":
                    return None
            case (
                c.LobbyChanged() | c.GameStarted() | c.TurnChanged() | c.RematchStarted()
                | c.ChatLine()
            ):
                pass  # the client keeps what the bot reads (board, colour, offer)
            case _:
                assert_never(ev)
