"""Benchmark a host under a slow reader: one spectator that never reads and keeps asking
for ``resync``, beside honest players.

    python scripts/bench_backpressure.py --seconds 20
    python scripts/bench_backpressure.py --seconds 20 --no-hog      # compare: no slow reader
    python scripts/bench_backpressure.py --seconds 20 --dir /dev/shm  # compare: no disk sync

One host process serves one 4-seat table (journalled to a temporary directory, as
``sorry-lan host`` does); a client process runs 4 honest bot clients that answer
their turns after ``--think`` seconds and rematch when a game ends; a third process
is the hog: it joins as a spectator, never reads a byte, and sends ``--resync-rate``
``resync`` messages a second (reconnecting whenever the host drops it).  After
``--seconds`` it prints the honest players' move round trip (a client sends its move
-> it receives that move's events) p50/p95/p99/max, the host's resident memory (after
start, and the highest seen while measuring, sampled every 0.2 s), and how many
times the host dropped the hog.

Goal (issue 11): honest p99 <= 10 ms and host RSS <= 60 MB under this load.

Loopback only; it never touches another interface.  The RSS figures need Linux's
``/proc`` (elsewhere they print n/a).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.journal import Journal
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS

LOCAL = "127.0.0.1"


async def serve(directory: str) -> None:
    journal = Journal(Path(directory) / "table.journal")
    table = Table(TableConfig(seats=4, auto_start=True, seed=1), journal)
    server = HostServer(table, HostOptions(stay=True))
    await server.start(LOCAL, 0)
    print(json.dumps({"port": server.address[1]}), flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.close()
    journal.close()


async def honest(port: int, think: float, seconds: float) -> None:
    clients = [GameClient(LOCAL, port, f"p{i}", ClientOptions(dead_after=60.0)) for i in range(4)]
    for c in clients:
        await c.connect()
    stats = [BotStats() for _ in clients]
    tasks = [
        asyncio.create_task(run_bot(c, think=think, games=10**6, stats=s))
        for c, s in zip(clients, stats, strict=True)
    ]
    print(json.dumps({"started": True}), flush=True)
    await asyncio.sleep(seconds)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    trips = [rt for s in stats for rt in s.round_trips]
    print(json.dumps({"trips": trips, "games": sum(s.games for s in stats) // 4}), flush=True)
    for c in clients:
        await c.close()


def hog(port: int, rate: float, seconds: float) -> None:
    """A spectator that never reads and asks for resync ``rate`` times a second."""
    greeting = encode(
        m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="hog")
    )
    resync = encode(m.Resync())
    batch = max(1, int(rate / 100))  # send in 10 ms slices
    end = time.monotonic() + seconds
    drops = 0
    sent = 0
    while time.monotonic() < end:
        sock = socket.create_connection((LOCAL, port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and never read it
        try:
            sock.sendall(greeting)
            while time.monotonic() < end:
                sock.sendall(resync * batch)
                sent += batch
                time.sleep(batch / rate)
        except OSError:
            drops += 1
        finally:
            sock.close()
    print(json.dumps({"drops": drops, "resyncs": sent}), flush=True)


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--think", type=float, default=0.05, help="honest players' thinking time")
    p.add_argument("--resync-rate", type=float, default=2000.0, help="the hog's resyncs a second")
    p.add_argument("--no-hog", action="store_true", help="compare: no slow reader")
    p.add_argument(
        "--dir",
        help="where the host journals (default: a new temporary directory); on a tmpfs "
        "such as /dev/shm the sync costs nothing, which shows what the disk adds",
    )
    p.add_argument("--serve", metavar="DIR", help=argparse.SUPPRESS)
    p.add_argument("--honest", type=int, metavar="PORT", help=argparse.SUPPRESS)
    p.add_argument("--hog", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve))
        return 0
    if args.honest:
        asyncio.run(honest(args.honest, args.think, args.seconds))
        return 0
    if args.hog:
        hog(args.hog, args.resync_rate, args.seconds)
        return 0
    me = [sys.executable, os.path.abspath(__file__)]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        host = subprocess.Popen([*me, "--serve", tmp], stdout=subprocess.PIPE, text=True)
        assert host.stdout is not None
        port = json.loads(host.stdout.readline())["port"]
        rss_idle = rss_mb(host.pid)
        common = ["--seconds", str(args.seconds), "--think", str(args.think)]
        players = subprocess.Popen(
            [*me, "--honest", str(port), *common], stdout=subprocess.PIPE, text=True
        )
        assert players.stdout is not None
        players.stdout.readline()  # started
        hogs = (
            []
            if args.no_hog
            else [
                subprocess.Popen(
                    [*me, "--hog", str(port), "--resync-rate", str(args.resync_rate), *common],
                    stdout=subprocess.PIPE,
                    text=True,
                )
            ]
        )
        peak: float | None = None
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            rss = rss_mb(host.pid)
            if rss is not None:
                peak = rss if peak is None else max(peak, rss)
            time.sleep(0.2)
        result = json.loads(players.communicate()[0].splitlines()[-1])
        hogged = [json.loads(h.communicate()[0].splitlines()[-1]) for h in hogs]
        host.send_signal(signal.SIGTERM)
        host.communicate(timeout=30)
    trips = result["trips"]
    load = "n/a"
    if hasattr(os, "getloadavg"):
        load = f"{os.getloadavg()[0]:.2f}"
    what = "no slow reader" if args.no_hog else (
        f"1 spectator that never reads, {args.resync_rate:.0f} resync/s"
    )
    where = "" if args.dir is None else f", journal in {args.dir}"
    print(
        f"1 table, 4 honest bot clients (think {args.think * 1000:.0f} ms), {what}, "
        f"{args.seconds:.0f} s, load average {load}{where}"
    )
    print(
        f"honest move round trip: {len(trips)} moves, p50 {pct(trips, 0.5) * 1000:.2f} ms, "
        f"p95 {pct(trips, 0.95) * 1000:.2f} ms, p99 {pct(trips, 0.99) * 1000:.2f} ms, "
        f"max {max(trips, default=0) * 1000:.2f} ms"
    )
    idle = "n/a" if rss_idle is None else f"{rss_idle:.1f} MB"
    high = "n/a" if peak is None else f"{peak:.1f} MB"
    print(f"host RSS: {idle} after start, {high} at most while measuring")
    for h in hogged:
        print(f"hog: {h['resyncs']} resyncs sent, dropped by the host {h['drops']} times")
    return 0


if __name__ == "__main__":
    sys.exit(main())
