#!/usr/bin/env python3
"""Hold many idle TCP connections to a host from one source address (a lock-out attempt).

``python scripts/flood_sockets.py PORT --host 127.0.0.1 --source 127.0.0.2 --sockets 200``
opens ``--sockets`` connections from ``--source`` and never greets; each one the host
closes is reopened after ``--pause`` seconds.  On SIGTERM (or after ``--seconds``) it
prints one JSON line: how many connections it opened and how many the host closed.

A test and benchmark tool (``tests/net/test_admission.py``,
``scripts/bench_admission.py``); only ever aim it at a host of your own on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal


async def flood(host: str, port: int, source: str, sockets: int, pause: float,
                seconds: float) -> dict[str, int]:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    if seconds > 0:
        loop.call_later(seconds, stop.set)
    counts = {"opened": 0, "closed_by_host": 0, "failed": 0}

    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            except OSError:
                counts["failed"] += 1
                await asyncio.sleep(max(pause, 0.05))
                continue
            counts["opened"] += 1
            read = asyncio.ensure_future(reader.read())
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait({read, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if read.done():
                counts["closed_by_host"] += 1
            read.cancel()
            stopped.cancel()
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
            if not stop.is_set():
                await asyncio.sleep(pause)

    print(json.dumps({"event": "ready"}), flush=True)
    await asyncio.gather(*(one() for _ in range(sockets)))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("port", type=int)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--source", default="127.0.0.2")
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.05)
    parser.add_argument("--seconds", type=float, default=0.0, help="0: until SIGTERM")
    args = parser.parse_args()
    counts = asyncio.run(
        flood(args.host, args.port, args.source, args.sockets, args.pause, args.seconds)
    )
    print(json.dumps({"event": "done", **counts}), flush=True)


if __name__ == "__main__":
    main()
