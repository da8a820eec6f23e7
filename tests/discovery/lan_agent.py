"""A stand-in "machine" for the LAN discovery tests and the benchmark.

Run inside a network namespace: `python3 tests/discovery/lan_agent.py MODE --bind ADDR ...`.
It prints one JSON object per line on stdout and reads commands on stdin.

* `advertise`: listens on a TCP port (standing in for the real host) and
  advertises a game there.  Prints `{"event": "ready", "name", "port", "t"}`.
  Commands: `seats N`, `state S`, `quit` (or EOF / SIGTERM): unregister
  (goodbyes) and print `{"event": "closed"}`.
* `browse`: runs a `GameBrowser`; prints `{"event": "added"|"updated"|"removed",
  "game": {...}, "t": seconds since browsing started}`.  Commands:
  `find TIMEOUT` (prints `{"event": "found", "games": [...]}` from
  `async_find_games(..., include_unreachable=True)` on the same zeroconf
  instance, whose cache may hold dead records), `reverify`, `quit`.

It is a test tool, not part of the product.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
import threading
import time
from typing import Any

from sorry_lan.discovery import (
    GameAd,
    GameAdvertiser,
    GameBrowser,
    GameEvent,
    async_find_games,
    make_zeroconf,
)

T0 = time.monotonic()


def emit(**msg: Any) -> None:
    msg.setdefault("t", round(time.monotonic() - T0, 4))
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


async def stdin_lines() -> asyncio.Queue[str | None]:
    """Lines of stdin delivered to a queue (None at EOF)."""
    loop = asyncio.get_running_loop()
    q: asyncio.Queue[str | None] = asyncio.Queue()

    def reader() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(q.put_nowait, line.strip())
        loop.call_soon_threadsafe(q.put_nowait, None)

    # A daemon thread, so a blocked read never holds up the exit.
    threading.Thread(target=reader, daemon=True).start()
    return q


def stop_on_sigterm(q: asyncio.Queue[str | None]) -> None:
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, q.put_nowait, "quit")


async def advertise(args: argparse.Namespace) -> None:
    server = await asyncio.start_server(lambda r, w: w.close(), args.bind, 0)
    port = server.sockets[0].getsockname()[1]
    zc = make_zeroconf(None if args.ipv6 else [args.bind], ipv6=args.ipv6)
    commands = await stdin_lines()
    stop_on_sigterm(commands)
    ad = GameAd(args.game, args.host_player, seats_total=4, seats_taken=1)
    try:
        async with GameAdvertiser(
            zc, ad, port, [args.bind], cooperating_responders=not args.probe
        ) as adv:
            emit(event="ready", name=adv.name, instance=adv.instance, port=port)
            while (cmd := await commands.get()) not in (None, "quit"):
                assert cmd is not None
                word, _, arg = cmd.partition(" ")
                if word == "seats":
                    await adv.async_update(seats_taken=int(arg))
                elif word == "state":
                    await adv.async_update(state=arg)
                emit(event="done", cmd=cmd)
        emit(event="closed")
    finally:
        server.close()
        await zc.async_close()


async def browse(args: argparse.Namespace) -> None:
    zc = make_zeroconf(None if args.ipv6 else [args.bind], ipv6=args.ipv6)
    commands = await stdin_lines()
    stop_on_sigterm(commands)
    start = time.monotonic()

    def on_change(event: GameEvent) -> None:
        emit(event=event.kind.value, game=event.game.to_json(), t=time.monotonic() - start)

    try:
        reverify = args.reverify or None  # 0: never re-probe (only goodbyes remove games)
        async with GameBrowser(zc, on_change=on_change, reverify_interval=reverify) as b:
            emit(event="browsing")
            while (cmd := await commands.get()) not in (None, "quit"):
                assert cmd is not None
                word, _, arg = cmd.partition(" ")
                if word == "find":
                    games = await async_find_games(zc, float(arg or 0.5), include_unreachable=True)
                    emit(event="found", games=[g.to_json() for g in games])
                elif word == "reverify":
                    await b.async_reverify()
                    emit(event="reverified", names=sorted(b.games))
    finally:
        await zc.async_close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["advertise", "browse"])
    parser.add_argument("--bind", required=True)
    parser.add_argument("--game", default="Test game")
    parser.add_argument("--host-player", default="Host")
    parser.add_argument("--probe", action="store_true", help="probe for the name (renames)")
    parser.add_argument("--reverify", type=float, default=5.0, help="seconds; 0: never")
    parser.add_argument(
        "--ipv6", action="store_true", help="mDNS on every interface of the namespace, IPv4+IPv6"
    )
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(advertise(args) if args.mode == "advertise" else browse(args))


if __name__ == "__main__":
    main()
