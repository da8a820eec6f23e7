"""``sorry-lan list``: print the games found on the LAN, for people or (``--json``) scripts.

It browses mDNS for ``--timeout`` seconds (``--first``: until a joinable game shows
up), lists only games whose host answered a TCP connect (``--all`` adds the ones
that did not, marked unreachable) and exits 0 if it listed any, 1 if it found
none (after the likeliest reason, from the network doctor's quick checks, and the
``--address`` fallback) and 2 if mDNS could not be used.
With ``--json`` stdout holds exactly one JSON array (``[]`` when nothing was found;
the explanation then goes to stderr).  A game under way or full says ``watch``; a
table where the user holds a seat (kept by ``sorry-lan join``/``bot``, see
``sorry_lan.net.seats``) says ``your seat``.

It joins nothing and keeps nothing open; all the discovery logic is
``sorry_lan.discovery``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sorry_lan.net.played import PlayedStore
from sorry_lan.net.seats import SeatStore

if TYPE_CHECKING:
    from sorry_lan.discovery import FoundGame



def seats_dir(args: argparse.Namespace) -> Path | None:
    """The seat store's directory for ``--data-dir`` (None: the default)."""
    return args.data_dir / "seats" if args.data_dir is not None else None


def played_store(args: argparse.Namespace) -> PlayedStore:
    """Where the games this machine plays or watches are kept, for ``--data-dir``."""
    return PlayedStore(args.data_dir / "played" if args.data_dir is not None else None)


def format_game(game: FoundGame, your_seat: bool = False) -> str:
    """One line: the game's description and where it answers."""
    where = game.address or (game.addresses[0] if game.addresses else "?")
    if ":" in where:
        where = f"[{where}]"
    return f"{game.describe(your_seat)}  ({where}:{game.port})"


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_main(args))


async def _main(args: argparse.Namespace) -> int:
    from sorry_lan.discovery import (
        DiscoveryError,
        async_find_games,
        make_zeroconf,
        nothing_found_message,
    )
    from sorry_lan.discovery.advice import likely_reason
    from sorry_lan.discovery.doctor import async_quick_checkup

    try:
        zc = make_zeroconf(args.interface, args.ipv6)
    except DiscoveryError as exc:
        print(f"sorry-lan list: {exc}", file=sys.stderr)
        return 2
    try:
        games = await async_find_games(
            zc, args.timeout, include_unreachable=args.all, until_joinable=args.first
        )
    finally:
        await zc.async_close()
    seats = SeatStore(seats_dir(args))
    mine = [seats.at_game(g) is not None for g in games]
    if args.json:
        rows = [g.to_json(m) for g, m in zip(games, mine, strict=True)]
        print(json.dumps(rows, ensure_ascii=False))
    else:
        for game, m in zip(games, mine, strict=True):
            print(format_game(game, m))
    if not games:  # the likeliest reason, from the doctor's quick checks
        reason = likely_reason(await async_quick_checkup(args.ipv6))
        message = nothing_found_message(args.timeout, args.interface, reason=reason)
        print(message, file=sys.stderr if args.json else sys.stdout)
        return 1
    return 0
