#!/usr/bin/env python3
"""A person's move round trip at a table where three host bots play (issue 14).

    python scripts/bench_bot_table.py --strength expert --games 5
    python scripts/bench_bot_table.py --strength greedy --games 5     # compare

One host (``HostServer`` on 127.0.0.1, no journal) seats three bots of
``--strength`` and one networked player, who answers each turn at once with the
greedy bot's move and measures its move round trip: from sending the move to
receiving that move's events.  The host runs the expert's search on its bot thread,
so the player's events go out before the next bot starts thinking and no connection
waits on a search.  Prints the round trip's p50, p95 and max over ``--games`` games.
Host and player share this process (and its GIL), a worst case for the round trip.
Loopback only; it never touches another interface.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules import Variant


async def measure(strength: str, games: int, variant: Variant) -> tuple[BotStats, float]:
    table = Table(TableConfig(variant=variant, seats=4, auto_start=True, bot_delay=0.0,
                              bot_level=strength))
    for _ in range(3):
        table.add_bot(None)
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=10.0, stay=True))
    await server.start("127.0.0.1", 0)
    client = GameClient("127.0.0.1", server.address[1], "person")
    await client.connect()
    stats = BotStats()
    started = time.perf_counter()
    try:
        await run_bot(client, "greedy", games=games, stats=stats)
    finally:
        await client.close()
        await server.close()
    return stats, time.perf_counter() - started


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--strength", default="expert", choices=("random", "greedy", "expert"))
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--variant", default="standard")
    args = p.parse_args()
    stats, seconds = asyncio.run(measure(args.strength, args.games, Variant.parse(args.variant)))
    rt = sorted(1000 * t for t in stats.round_trips)
    if not rt:
        print("no moves were measured")
        return 1
    p95 = rt[min(len(rt) - 1, int(0.95 * len(rt)))]
    print(f"{args.games} games, {args.variant}, 3 {args.strength} host bots + 1 networked player "
          f"({seconds:.1f} s)")
    print(f"player's move round trip over {len(rt)} moves: p50 {statistics.median(rt):.2f} ms, "
          f"p95 {p95:.2f} ms, max {rt[-1]:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
