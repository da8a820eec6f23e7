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

from sorry_lan.bots import DEFAULT_STRENGTH, STRENGTHS
from sorry_lan.commands.argtypes import examples, seconds, whole
from sorry_lan.commands.join import address_arg, join_error_words, warn_seat_not_kept
from sorry_lan.commands.list_games import (
    add_data_dir_argument,
    add_discovery_arguments,
    played_store,
    seats_dir,
)
from sorry_lan.commands.lookout import MdnsFinder
from sorry_lan.commands.successor import add_standby_arguments, make_heir
from sorry_lan.i18n import _
from sorry_lan.i18n.coded import say
from sorry_lan.i18n.words import colour_name, join_names
from sorry_lan.net.botrunner import BotNews, BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient, JoinError
from sorry_lan.net.seats import SeatStore
from sorry_lan.tui.lines import format_result
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError

DEFAULT_FIND_TIMEOUT = 10.0
DEFAULT_NAME = "bot"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--address",
        type=address_arg,
        help=_("HOST:PORT of the table (default: find one on the LAN)"),
    )
    p.add_argument("--game", metavar="NAME", help=_("without --address: join only this game"))
    p.add_argument(
        "--timeout",
        type=seconds(),
        default=DEFAULT_FIND_TIMEOUT,
        help=_("without --address: how long to look for a game (default {seconds} s)").format(
            seconds=f"{DEFAULT_FIND_TIMEOUT:g}"
        ),
    )
    add_discovery_arguments(p)
    p.add_argument(
        "--strength", choices=STRENGTHS, default=DEFAULT_STRENGTH,
        help=_(
            "how the bot plays (default {strength}); the host's own bots of a "
            "strength play the same moves"
        ).format(strength=DEFAULT_STRENGTH),
    )
    p.add_argument(
        "--name", help=_("the bot's name at the table (default: its seat's, or {name})").format(
            name=repr(DEFAULT_NAME)
        )
    )
    p.add_argument("--pin", help=_("the table's PIN, if it has one"))
    p.add_argument(
        "--think",
        type=seconds(60),
        default=0.0,
        metavar="SECONDS",
        help=_("seconds to wait before each move (default 0)"),
    )
    p.add_argument(
        "--games",
        type=whole(1, 100000, _("games")),
        default=1,
        help=_("games to play before leaving (default 1)"),
    )
    p.add_argument(
        "--moves",
        action="store_true",
        help=_("also say each move as it is played (its state id, colour and notation)"),
    )
    add_standby_arguments(p)
    add_data_dir_argument(p)
    examples(
        p,
        ("sorry-lan bot", _("join the game found on the LAN")),
        ("sorry-lan bot --address 192.168.1.20:47474 --strength random --games 3", ""),
    )


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
