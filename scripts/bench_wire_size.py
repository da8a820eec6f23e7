#!/usr/bin/env python3
"""Bytes the host sends to each client per turn, measured on the wire.

    python scripts/bench_wire_size.py --games 10

For each variant, runs whole 4-player games on 127.0.0.1: a real ``HostServer`` and
four networked bot clients, each connected through a counting TCP relay, so every
byte the host writes to a client is counted (handshake, lobby, snapshots, turns,
legal moves, events, game over, heartbeats).  Prints the average bytes per client
per turn (a turn: one player's go, a draw-again included) against the goal of
<= 300.  Loopback only; it measures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import run_bot
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules import Variant

LOCAL = "127.0.0.1"
GOAL = 300


class Relay:
    """A TCP relay to the host that counts the bytes flowing host -> client."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.down = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, LOCAL, 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        h_reader, h_writer = await asyncio.open_connection(LOCAL, self.port)

        async def pump(r: asyncio.StreamReader, w: asyncio.StreamWriter, count: bool) -> None:
            try:
                while data := await r.read(65536):
                    if count:
                        self.down += len(data)
                    w.write(data)
                    await w.drain()
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                w.close()

        await asyncio.gather(pump(c_reader, h_writer, False), pump(h_reader, c_writer, True))

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def one_game(variant: Variant, seed: int) -> tuple[int, list[int]]:
    table = Table(TableConfig(variant=variant, seats=4, auto_start=True, seed=seed), None)
    server = HostServer(table, HostOptions())
    await server.start(LOCAL, 0)
    relays = [Relay(server.address[1]) for _ in range(4)]
    ports = [await r.start() for r in relays]
    clients = [GameClient(LOCAL, p, f"bot{i}") for i, p in enumerate(ports)]
    for c in clients:
        await c.connect()
    await asyncio.wait_for(asyncio.gather(*(run_bot(c) for c in clients)), 120)
    game = table.game
    assert game is not None and game.over
    turns = game.turn_number
    for c in clients:
        await c.close()
    await server.close()
    for r in relays:
        await r.close()
    return turns, [r.down for r in relays]


async def main_async(games: int) -> None:
    print(f"bytes sent by the host to each client per turn, {games} 4-player games each")
    for variant in Variant:
        per_turn = []
        total_turns = 0
        for seed in range(1, games + 1):
            turns, down = await one_game(variant, seed)
            total_turns += turns
            per_turn += [d / turns for d in down]
        avg = statistics.mean(per_turn)
        verdict = "met" if avg <= GOAL else "MISSED"
        print(
            f"  {variant.value:9} {avg:7.1f} bytes/client/turn (max client {max(per_turn):.1f}; "
            f"{total_turns} turns)  goal <= {GOAL}: {verdict}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=5, help="games per variant (default 5)")
    args = parser.parse_args()
    asyncio.run(main_async(args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
