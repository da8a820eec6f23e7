"""``sorry-lan bot``: a bot player that joins a table over the network and plays.

With ``--address`` it joins that table.  Without, it looks for games on the LAN
(mDNS) for up to ``--timeout`` seconds and joins the first joinable one (only games
called ``--game NAME``, if given); if that host turns it away (the last seat went a
moment earlier) it tries the next one.  It plays ``--games`` games (rematches after
the first) and prints the result of the last one.

Its seat's token is kept in the data dir (``--data-dir``, see
``sorry_lan.net.seats``) until the game ends: a bot started again after its process
died finds the table (even a game under way) and takes its own seat back.  Without
``--name`` it takes the only seat it holds at that table, else joins as "bot".

The choice of moves is ``sorry_lan.bots`` (through ``sorry_lan.net.botrunner``) and
finding games is ``sorry_lan.discovery``; this module only parses options and connects.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys

from sorry_lan.commands.argtypes import BOT_NAME as DEFAULT_NAME
from sorry_lan.commands.join import join_error_words, warn_seat_not_kept
from sorry_lan.commands.list_games import (
    played_store,
    seats_dir,
)
from sorry_lan.commands.lookout import MdnsFinder
from sorry_lan.commands.successor import make_heir
from sorry_lan.i18n import _
from sorry_lan.i18n.coded import say
from sorry_lan.i18n.words import colour_name, join_names
from sorry_lan.net.botrunner import BotNews, BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient, JoinError
from sorry_lan.net.seats import SeatStore
from sorry_lan.tui.lines import format_result
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError


def _progress(news: BotNews, number: int, total: int) -> None:
    """The bot's games as they go, on its own terminal (stderr: stdout ends with the
    result, for scripts)."""
    if isinstance(news, m.Snapshot):
        you = news.you
        if you is None:
            text = _("game {n} of {total} begins (watching)")
        else:
            text = _("game {n} of {total} begins (playing {colour})")
        text = text.format(n=number, total=total, colour=colour_name(int(you or 0)))
    elif isinstance(news, m.GameOver):
        won = join_names([colour_name(int(x)) for x in news.winners]) or _("nobody")
        text = _("game {n} of {total} over: {won} won").format(n=number, total=total, won=won)
    elif isinstance(news, m.Events):
        who = "-" if news.colour is None else colour_name(int(news.colour))
        text = _("move {sid}: {colour} {notation}").format(
            sid=news.sid, colour=who, notation=news.notation
        )
    else:
        text = say(news.news)
    print(f"sorry-lan bot: {text}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_main(args))


async def _connect_found(args: argparse.Namespace) -> GameClient | None:
    """Find a joinable game on the LAN and join it; None (after saying why) if none would do."""
    from sorry_lan.discovery import (
        DiscoveryError,
        FoundGame,
        GameBrowser,
        async_wait_for_game,
        make_zeroconf,
        nothing_found_message,
    )

    try:
        zc = make_zeroconf(args.interface, args.ipv6)
    except DiscoveryError as exc:
        print("sorry-lan bot: " + _("cannot search the network: {why}; give --address").format(
            why=exc), file=sys.stderr)  # fmt: skip
        return None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.timeout
    if args.game:
        looking = _("looking on the LAN for a game called {name} (up to {secs} s)...")
    else:
        looking = _("looking on the LAN for a game to join (up to {secs} s)...")
    text = looking.format(name=repr(args.game), secs=f"{args.timeout:g}")
    print(f"sorry-lan bot: {text}", file=sys.stderr, flush=True)
    tried: set[str] = set()
    seats = SeatStore(seats_dir(args))

    def mine(game: FoundGame) -> bool:
        return seats.at_game(game, args.name) is not None

    try:
        async with GameBrowser(zc) as browser:
            while True:
                left = max(0.0, deadline - loop.time())
                game = await async_wait_for_game(
                    browser, left, wanted=args.game, skip=tried, mine=mine
                )
                if game is None:
                    break
                tried.add(game.service_name)
                assert game.address is not None  # listed games have answered
                seat = seats.at_game(game, args.name)
                name = seat.name if seat is not None else args.name or DEFAULT_NAME
                options = ClientOptions(
                    pin=args.pin, seats=seats, played=played_store(args), game=game.instance,
                    table_id=game.table_id,
                    program=True, finder=MdnsFinder.of(args),
                )
                client = GameClient(game.address, game.port, name, options, make_heir(args))
                try:
                    await client.connect()
                except JoinError as exc:
                    why = join_error_words(exc)
                    print(f"sorry-lan bot: {game.name}: {why}", file=sys.stderr)
                    continue
                where = f"{game.address}:{game.port}"
                print(_("joined {name} at {address}").format(name=repr(game.name), address=where),
                      flush=True)  # fmt: skip
                return client
    finally:
        await zc.async_close()
    if tried:
        text = (
            _("no joinable game called {name} would take this bot")
            if args.game
            else _("no joinable game would take this bot")
        )
    else:
        text = (
            _("no joinable game called {name} found.")
            if args.game
            else _("no joinable game found.")
        )
    print("sorry-lan bot: " + text.format(name=repr(args.game)), file=sys.stderr)
    if not tried:
        print(nothing_found_message(args.timeout, args.interface, "bot"), file=sys.stderr)
    return None


async def _main(args: argparse.Namespace) -> int:
    if args.address is None:
        found = await _connect_found(args)
        if found is None:
            return 1
        client = found
    else:
        host, port = args.address
        seats = SeatStore(seats_dir(args))
        seat = seats.choose([host], port, args.name)
        name = seat.name if seat is not None else args.name or DEFAULT_NAME
        options = ClientOptions(
            pin=args.pin, seats=seats, played=played_store(args), program=True,
            finder=MdnsFinder.of(args),
        )
        client = GameClient(host, port, name, options, make_heir(args))
        try:
            await client.connect()
        except JoinError as exc:
            print(f"sorry-lan bot: {join_error_words(exc)}", file=sys.stderr)
            return 1
    warn_seat_not_kept(client, "bot")
    with contextlib.suppress(LocalProtocolError):
        client.ready()  # a bot is always ready
    stats = BotStats()
    try:
        over = await run_bot(
            client, args.strength, think=args.think, games=args.games, progress=_progress,
            moves=args.moves, stats=stats,
        )
    finally:
        await client.close()
    if over is None:
        print("sorry-lan bot: " + _("lost the connection to the host"), file=sys.stderr)
        return 1
    lobby = stats.roster  # as at the result: a player may have left since
    names = {} if lobby is None else {
        int(p.colour): p.name for p in lobby.players if p.colour is not None
    }
    print(format_result(over, names))
    return 0
