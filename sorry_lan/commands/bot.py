"""``sorry-lan bot``: a bot player that joins a table over the network and plays.

It plays ``--games`` games (rematches after the first) and prints the result of the
last one.  The choice of moves is ``sorry_lan.net.botplay``; this module only parses
options and connects.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from sorry_lan.commands.join import parse_address
from sorry_lan.net.botplay import STRENGTHS
from sorry_lan.net.botrunner import run_bot
from sorry_lan.net.client import GameClient, JoinError
from sorry_lan.net.textui import format_result


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--address", type=parse_address, required=True, help="HOST:PORT of the table")
    p.add_argument("--strength", choices=STRENGTHS, default="greedy", help="how the bot plays")
    p.add_argument("--name", default="bot", help="the bot's name at the table")
    p.add_argument("--pin", help="the table's PIN, if it has one")
    p.add_argument("--think", type=float, default=0.0, help="seconds to wait before each move")
    p.add_argument("--games", type=int, default=1, help="games to play before leaving")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_main(args))


async def _main(args: argparse.Namespace) -> int:
    host, port = args.address
    client = GameClient(host, port, args.name, pin=args.pin)
    try:
        await client.connect()
    except JoinError as exc:
        print(f"sorry-lan bot: {exc.text}", file=sys.stderr)
        return 1
    try:
        over = await run_bot(client, args.strength, think=args.think, games=args.games)
    finally:
        await client.close()
    if over is None:
        print("sorry-lan bot: lost the connection to the host", file=sys.stderr)
        return 1
    print(format_result(over))
    return 0
