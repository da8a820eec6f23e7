"""``sorry-lan join``: join a table by address and play it with the line interface.

Without ``--address`` it needs LAN discovery, which is not wired in yet: it says so.
This module parses options and reports join failures in words; the connection, the
reconnection and the game state live in ``sorry_lan.net.client``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from sorry_lan.net.client import GameClient, JoinError
from sorry_lan.net.host import DEFAULT_PORT
from sorry_lan.net.textui import parse_colour, play_lines


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
    p.add_argument("--address", type=parse_address, help="HOST:PORT of the table")
    p.add_argument("--name", default="player", help="your name at the table")
    p.add_argument("--colour", "--color", type=_colour, help="the colour you would like")
    p.add_argument("--pin", help="the table's PIN, if it has one")
    p.add_argument("--spectate", action="store_true", help="watch without a seat")


def run(args: argparse.Namespace) -> int:
    if args.address is None:
        print(
            "sorry-lan join: give --address HOST:PORT (finding games on the LAN is not "
            "available in this build yet)",
            file=sys.stderr,
        )
        return 2
    return asyncio.run(_main(args))


async def _main(args: argparse.Namespace) -> int:
    host, port = args.address
    client = GameClient(host, port, args.name, pin=args.pin, spectate=args.spectate)
    try:
        await client.connect()
    except JoinError as exc:
        print(f"sorry-lan join: {exc.text}", file=sys.stderr)
        return 1
    print(f"joined {host}:{port} as {args.name}")
    if args.colour is not None and not args.spectate:
        await client.choose_colour(args.colour)
    try:
        return await play_lines(client)
    finally:
        await client.close()
