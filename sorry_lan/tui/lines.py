"""A plain line-based interface to a :class:`GameClient` (until the text board drives it).

It prints the lobby, the pawns of each colour with their squares, what happened and
the legal moves numbered from 1, and reads commands from a line source: a number
plays that move; ``start``, ``bot [colour]``, ``variant NAME``, ``colour NAME``,
``ready``, ``rematch``, ``say TEXT`` and ``quit`` do what they say.  It does not
draw the board graphically and does not choose moves.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Coroutine
from typing import Any, assert_never

from sorry_lan.net.client import (
    ChatLine,
    ClientEvent,
    Connection,
    GameClient,
    GameEnded,
    GameStarted,
    Happened,
    LobbyChanged,
    Refused,
    RematchStarted,
    TurnChanged,
    YourTurn,
)
from sorry_lan.rules import location_name, pawn_label
from sorry_lan.rules.board import Colour
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError

Say = Callable[[str], None]


def colour_name(c: int) -> str:
    return Colour(c).name.lower()


def parse_colour(text: str) -> int:
    try:
        return int(Colour[text.strip().upper()])
    except KeyError:
        raise ValueError(f"unknown colour {text!r} (red, blue, yellow or green)") from None


def board_lines(client: GameClient) -> list[str]:
    snap = client.snapshot
    if snap is None or not client.pawns:
        return []
    lines = []
    for c in snap.colours:
        spots = ", ".join(
            f"{pawn_label(p)} {location_name(client.pawns[p])}" for p in range(c * 4, c * 4 + 4)
        )
        me = " (you)" if client.colour == int(c) else ""
        lines.append(f"  {colour_name(c):>6}{me}: {spots}")
    return lines


def describe(client: GameClient, ev: ClientEvent) -> list[str]:
    """The lines to print for one client event."""
    match ev:
        case LobbyChanged():
            lob = ev.lobby
            seats = ", ".join(
                f"{p.name} ({'?' if p.colour is None else colour_name(p.colour)}"
                f"{', bot' if p.bot else ''}{'' if p.connected else ', away'})"
                for p in lob.players
            )
            return [f"table [{lob.variant.value}]: {seats or 'nobody yet'}"]
        case GameStarted():
            return ["game on:", *board_lines(client)]
        case TurnChanged():
            t = ev.turn
            card = "" if t.card is None else f" drew {t.card.title}"
            hand = "" if t.hand is None else " holding " + " ".join(c.title for c in t.hand)
            return [f"{colour_name(t.colour)}{card}{hand}"]
        case YourTurn():
            return [
                "your move:",
                *(f"  {i + 1:>2}. {o.notation}" for i, o in enumerate(ev.moves.moves)),
                "type a number",
            ]
        case Happened():
            who = "" if ev.events.colour is None else colour_name(ev.events.colour) + ": "
            return [f"{who}{ev.events.notation or 'no move'}", *board_lines(client)]
        case GameEnded():
            won = " and ".join(colour_name(c) for c in ev.over.winners) or "nobody"
            return [
                f"game over: {won} won; scores {list(ev.over.scores or ())}",
                "rematch? type rematch",
            ]
        case RematchStarted():
            return ["rematch!"]
        case ChatLine():
            return [f"[chat {ev.chat.pid}] {ev.chat.text}"]
        case Refused():
            return [f"refused: {ev.error.text}"]
        case Connection():
            return [ev.text]
        case _:
            assert_never(ev)


async def command(client: GameClient, line: str) -> bool:
    """Act on one typed line; False when the user wants to leave."""
    word, _, rest = line.strip().partition(" ")
    word = word.lower()
    if not word:
        return True
    if word.isdigit():
        offer = client.moves
        n = int(word) - 1
        if offer is None or not 0 <= n < len(offer.moves):
            raise ValueError("no such move on offer")
        await client.play(offer.moves[n].id)
    elif word in ("quit", "exit", "bye"):
        return False
    elif word == "start":
        await client.start()
    elif word == "bot":
        await client.add_bot(parse_colour(rest) if rest else None)
    elif word == "variant":
        await client.set_variant(rest.strip().lower())
    elif word == "colour":
        await client.choose_colour(parse_colour(rest))
    elif word == "ready":
        await client.ready(True)
    elif word == "rematch":
        await client.rematch()
    elif word in ("say", "chat"):
        await client.chat(rest.strip())
    else:
        raise ValueError(f"unknown command {word!r}")
    return True


async def stdin_lines(queue: asyncio.Queue[str | None]) -> None:
    """Feed standard input's lines to ``queue`` (None at end of input).

    A daemon thread reads, so a pending read never keeps the program from exiting."""
    loop = asyncio.get_running_loop()

    def pump() -> None:
        while True:
            line = sys.stdin.readline()
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line if line else None)
            except RuntimeError:  # the loop has closed: nobody is listening
                return
            if not line:
                return

    threading.Thread(target=pump, name="stdin", daemon=True).start()


async def play_lines(
    client: GameClient,
    say: Say = print,
    read: Callable[[asyncio.Queue[str | None]], Coroutine[Any, Any, None]] = stdin_lines,
) -> int:
    """Run the line interface until the user quits or the connection is lost for good."""
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    reader = asyncio.create_task(read(lines))
    try:
        while True:
            get_ev = asyncio.create_task(client.events.get())
            get_line = asyncio.create_task(lines.get())
            done, _ = await asyncio.wait({get_ev, get_line}, return_when=asyncio.FIRST_COMPLETED)
            for task in (get_ev, get_line):
                if task not in done:
                    task.cancel()
            if get_ev in done:
                ev = get_ev.result()
                for text in describe(client, ev):
                    say(text)
                if isinstance(ev, Connection) and ev.state == "lost":
                    return 1
            if get_line in done:
                line = get_line.result()
                if line is None:
                    return 0
                try:
                    if not await command(client, line):
                        return 0
                except (ValueError, LocalProtocolError) as exc:
                    say(f"? {exc}")
    finally:
        reader.cancel()


def format_result(over: m.GameOver) -> str:
    won = " and ".join(colour_name(c) for c in over.winners) or "nobody"
    return f"winner: {won}; scores: {list(over.scores or ())}"
