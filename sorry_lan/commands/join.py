"""``sorry-lan join``: find a game on the LAN (or take ``--address``) and play it.

In a terminal it opens the text board: without ``--address`` the find screen lists the
games discovery sees, live, and takes an address, a name and a PIN; with
``--address`` it joins at once (a refusal leaves the player on the find screen to try
again).  ``--text`` (or standard input/output that is not a terminal) keeps the plain
line interface for scripts and screen readers; without ``--address`` it then searches
the LAN for a moment and joins the only joinable game, or lists what it found.

This module parses options and picks the interface; the connection lives in
``sorry_lan.net.client``, the screens in ``sorry_lan.tui``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from sorry_lan.net.client import GameClient, JoinError
from sorry_lan.tui.lines import parse_colour, play_lines
from sorry_lan.wire.limits import DEFAULT_PORT

SEARCH_SECONDS = 2.0


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``, or ``[v6]:PORT``) -> (host, port)."""
    text = text.strip()
    host, port = text, DEFAULT_PORT
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest.startswith(":"):
            port = _port(rest[1:])
    elif text.count(":") == 1:
        host, _, p = text.partition(":")
        port = _port(p)
    if not host:
        raise argparse.ArgumentTypeError(f"no host in {text!r}")
    return host, port


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}")
    return int(text)


def _colour(text: str) -> int:
    try:
        return parse_colour(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--address", type=parse_address, help="HOST:PORT of the table (skips the search)"
    )
    p.add_argument("--name", default="player", help="your name at the table")
    p.add_argument("--colour", "--color", type=_colour, help="the colour you would like")
    p.add_argument("--pin", help="the table's PIN, if it has one")
    p.add_argument("--spectate", action="store_true", help="watch without a seat")
    p.add_argument(
        "--text",
        "--no-tui",
        dest="text",
        action="store_true",
        help="plain line interface instead of the board (automatic when not on a terminal)",
    )
    p.add_argument("--ascii", action="store_true", help="draw without box-drawing characters")
    p.add_argument("--no-mouse", action="store_true", help="do not take mouse clicks")
    p.add_argument(
        "--interface",
        action="append",
        metavar="ADDR",
        help="search for games on this interface address only (repeatable)",
    )
    p.add_argument("--ipv6", action="store_true", help="search over IPv6 as well")


def wants_text(args: argparse.Namespace) -> bool:
    """The line interface: asked for, or no terminal to draw the board on."""
    return bool(args.text) or not (sys.stdin.isatty() and sys.stdout.isatty())


def _format_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def run(args: argparse.Namespace) -> int:
    if wants_text(args):
        return asyncio.run(_text_main(args))
    return asyncio.run(_tui_main(args))


# -- the text board ----------------------------------------------------------------------


async def _tui_main(args: argparse.Namespace) -> int:
    from sorry_lan.discovery import make_zeroconf
    from sorry_lan.tui.controller import ClientController
    from sorry_lan.tui.finder import GameFinder
    from sorry_lan.tui.play import JoinRequest, TuiOptions, run_tui
    from sorry_lan.tui.state import UiState

    spectate = bool(args.spectate)
    state = UiState(default_name=args.name)

    def make_client(host: str, port: int, name: str, pin: str | None) -> GameClient:
        return GameClient(host, port, name, pin=pin, spectate=spectate)

    controller = ClientController(state, make_client=make_client, colour=args.colour)
    options = TuiOptions(ascii=args.ascii, mouse=not args.no_mouse)
    finder = None
    join = None
    if args.address is not None:
        join = JoinRequest(_format_address(*args.address), args.name, args.pin or "")
        state.searching = False
        state.find_message = (
            "Not searching the network: joining the address given with --address.\n"
            "To try again, correct the fields below (Tab moves) and press Enter."
        )
    else:
        interfaces, ipv6 = args.interface, args.ipv6
        finder = GameFinder(state, make_zc=lambda: make_zeroconf(interfaces, ipv6))
    return await run_tui(state, controller, options, finder=finder, join=join)


# -- the line interface ------------------------------------------------------------------


async def _search(args: argparse.Namespace) -> tuple[str, int] | None:
    """Look for games for a moment; the only joinable one, or None (after saying why)."""
    from sorry_lan.discovery import DiscoveryError, async_find_games, make_zeroconf
    from sorry_lan.discovery import nothing_found_message as nothing

    try:
        zc = make_zeroconf(args.interface, args.ipv6)
    except DiscoveryError as exc:
        print(f"sorry-lan join: cannot search the network: {exc}; give --address", file=sys.stderr)
        return None
    try:
        games = await async_find_games(zc, SEARCH_SECONDS)
    finally:
        await zc.async_close()
    if not games:
        print(nothing(SEARCH_SECONDS, args.interface), file=sys.stderr)
        return None
    joinable = [g for g in games if g.joinable and g.address is not None]
    for game in games:
        print(f"found: {game.describe()}  ({_format_address(game.address or '?', game.port)})")
    if len(joinable) == 1 and joinable[0].address is not None:
        return joinable[0].address, joinable[0].port
    print(
        "sorry-lan join: "
        + ("no game can be joined" if not joinable else "several games: choose one")
        + " with --address HOST:PORT",
        file=sys.stderr,
    )
    return None


async def _text_main(args: argparse.Namespace) -> int:
    address = args.address if args.address is not None else await _search(args)
    if address is None:
        return 1
    host, port = address
    client = GameClient(host, port, args.name, pin=args.pin, spectate=args.spectate)
    try:
        await client.connect()
    except JoinError as exc:
        print(f"sorry-lan join: {exc.text}", file=sys.stderr)
        return 1
    print(f"joined {_format_address(host, port)} as {args.name}")
    if args.colour is not None and not args.spectate:
        await client.choose_colour(args.colour)
    try:
        return await play_lines(client)
    finally:
        await client.close()
