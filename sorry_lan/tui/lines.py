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

from sorry_lan.client.model import ClientEvent, ClientModel, Connection, ReplayMismatch
from sorry_lan.i18n import _, language_name, use_language, words
from sorry_lan.i18n.coded import error_text, say
from sorry_lan.net.client import GameClient
from sorry_lan.rules.board import colour_pawns, pawn_label
from sorry_lan.rules.variants import VARIANTS, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.records import MoveOption, PlayerInfo

from . import cells
from .options import BadMove, option_from_compact, played_text

Say = Callable[[str], None]


def colour_name(c: int) -> str:
    return words.colour_name(c).lower()


parse_colour = words.parse_colour


def parse_variant(text: str) -> str:
    """A variant's wire name from its wire name or its title in English or the
    player's language (``team``, ``team play``, ``chwarae mewn timau``)."""
    wanted = text.strip().casefold()
    for wire in VARIANTS:
        titles = {wire, words.variant_title(wire).casefold()}
        with use_language("en"):
            titles.add(words.variant_title(wire))
        if wanted in titles:
            return wire
    return wanted  # the host says what it does not know


def move_text(client: ClientModel, option: MoveOption) -> str:
    """A legal move in this player's words, built from its compact form (the host's
    English notation only if the compact form does not fit the position)."""
    try:
        return option_from_compact(client.pawns, option.move, option.id).notation
    except BadMove:
        return option.notation


def events_text(events: m.Events) -> str:
    """What a played card did, in this player's words, from the event codes."""
    return played_text(events.events, events.notation or _("no move"))


def board_lines(client: ClientModel) -> list[str]:
    snap = client.snapshot
    if snap is None or not client.pawns:
        return []
    lines = []
    for c in snap.colours:
        spots = ", ".join(
            f"{pawn_label(p)} {words.short_location(client.pawns[p])}" for p in colour_pawns(c)
        )
        me = " " + _("(you)") if client.colour == int(c) else ""
        name = colour_name(c)  # right-aligned by display width (Thai, Lao: marks take none)
        lines.append(f"  {' ' * max(0, 6 - cells.width(name))}{name}{me}: {spots}")
    return lines


def describe(client: ClientModel, ev: ClientEvent) -> list[str]:
    """The lines to print for one client event."""
    match ev:
        case m.Lobby():
            lob = ev
            seats = ", ".join(_seat_text(p) for p in lob.players)
            return [
                _("table [{variant}]: {seats}").format(
                    variant=words.variant_title(lob.variant.value), seats=seats or _("nobody yet")
                )
            ]
        case m.Snapshot():
            return [_("game on:"), *board_lines(client)]
        case m.Turn():
            t = ev
            text = colour_name(t.colour)
            if t.card is not None:
                text = _("{who} drew {card}").format(who=text, card=words.card_name(t.card))
            if t.hand is not None:
                text = _("{who} holding {cards}").format(
                    who=text, cards=" ".join(words.card_name(c) for c in t.hand)
                )
            return [text]
        case m.LegalMoves():
            return [
                _("your move:"),
                *(f"  {i + 1:>2}. {move_text(client, o)}" for i, o in enumerate(ev.moves)),
                _("type a number"),
            ]
        case m.Events():
            text = events_text(ev)
            if ev.colour is not None:
                text = f"{colour_name(ev.colour)}: {text}"
            return [text, *board_lines(client)]
        case m.GameOver():
            return [
                _("game over: {winners}; scores {scores}").format(
                    winners=_winners(ev), scores=list(ev.scores or ())
                ),
                _("rematch? type rematch"),
            ]
        case m.Rematch():
            return [_("rematch!")]
        case m.Chat():
            return [_("[chat {pid}] {text}").format(pid=ev.pid, text=ev.text)]
        case m.Error():
            text = error_text(ev.reason.value, ev.text)
            return [_("refused: {why}").format(why=text)]
        case Connection():
            return [say(ev.news)]
        case ReplayMismatch():
            return []  # a resync was asked: its snapshot shows the board again
        case _:
            assert_never(ev)


def command(client: GameClient, line: str) -> bool:
    """Act on one typed line; False when the user wants to leave."""
    word, _sep, rest = line.strip().partition(" ")
    word = word.lower()
    if not word:
        return True
    if word.isdigit():
        offer = client.model.moves
        n = int(word) - 1
        if offer is None or not 0 <= n < len(offer.moves):
            raise ValueError(_("no such move on offer"))
        client.play(offer.moves[n].id)
    elif word in ("quit", "exit", "bye"):
        return False
    elif word == "start":
        client.start()
    elif word == "bot":
        client.add_bot(parse_colour(rest) if rest else None)
    elif word == "variant":
        client.set_variant(Variant.parse(parse_variant(rest)))
    elif word == "colour":
        client.choose_colour(parse_colour(rest))
    elif word == "ready":
        client.ready(True)
    elif word == "rematch":
        client.rematch()
    elif word in ("say", "chat"):
        client.chat(rest.strip())
    else:
        raise ValueError(_("unknown command {word}").format(word=repr(word)))
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
            get_ev = asyncio.create_task(client.next_event())
            get_line = asyncio.create_task(lines.get())
            done, _ = await asyncio.wait({get_ev, get_line}, return_when=asyncio.FIRST_COMPLETED)
            for task in (get_ev, get_line):
                if task not in done:
                    task.cancel()
            if get_ev in done:
                ev = get_ev.result()
                for text in describe(client.model, ev):
                    say(text)
                if isinstance(ev, Connection) and ev.state == "lost":
                    return 1
            if get_line in done:
                line = get_line.result()
                if line is None:
                    return 0
                try:
                    if not command(client, line):
                        return 0
                except (ValueError, LocalProtocolError) as exc:
                    say(f"? {exc}")
    finally:
        reader.cancel()


def _seat_text(p: PlayerInfo) -> str:
    notes = ["?" if p.colour is None else colour_name(p.colour)]
    if p.bot or p.program:
        notes.append(_("bot"))
    if p.lang:
        notes.append(language_name(p.lang))
    if not p.connected:
        notes.append(_("away"))
    return f"{p.name} ({', '.join(notes)})"


def _winners(over: m.GameOver) -> str:
    names = [colour_name(c) for c in over.winners]
    if not names:
        return _("nobody won")
    return words.won_line(names)


def format_result(over: m.GameOver) -> str:
    names = words.join_names([colour_name(c) for c in over.winners]) or _("nobody")
    return _("winner: {names}; scores: {scores}").format(
        names=names, scores=list(over.scores or ())
    )
