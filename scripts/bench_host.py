"""Benchmark one host process serving many 4-player tables of networked bots.

    python scripts/bench_host.py --games 100 --think 0.2 --seconds 20
    python scripts/bench_host.py --games 100 --think 0 --seconds 10
    python scripts/bench_host.py --games 100 --think 0.2 --no-journal    # compare

One host process runs ``--games`` tables (each a ``HostServer`` on its own loopback
port, journalling to a temporary directory: every move is on stable storage before
its result is sent, synced on the event loop); ``--workers``
client processes run 4 bot clients per table, each answering its turn after
``--think`` seconds and rematching when a game ends.  After ``--seconds`` it prints
the move round trip (a client sends its move -> it receives the events of that move)
p50/p99, the moves per second over all tables, the host's resident memory, its CPU
time while the clients measured (and per move) and over its whole life, how many
journal syncs it made, and the load average before and after (other work on the
machine moves these figures a lot: compare runs made back to back).  ``--profile``
runs the host under cProfile (slower) and writes its statistics to a file.

Loopback only; it never touches another interface.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.journal import Journal

LOCAL = "127.0.0.1"


async def serve(games: int, directory: str, journal_on: bool) -> None:
    servers = []
    journals = []
    for i in range(games):
        journal = Journal(Path(directory) / f"table-{i}.journal") if journal_on else None
        if journal is not None:
            journals.append(journal)
        table = Table(TableConfig(seats=4, auto_start=True, seed=i + 1), journal)
        options = HostOptions(stay=True)
        server = HostServer(table, options)
        await server.start(LOCAL, 0)
        servers.append(server)
    print(json.dumps({"ports": [s.address[1] for s in servers]}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    moves = sum(s.table.game.moves_played for s in servers if s.table.game is not None)
    usage = resource.getrusage(resource.RUSAGE_SELF) if resource is not None else None
    cpu = None if usage is None else usage.ru_utime + usage.ru_stime
    for s in servers:
        await s.close()
    syncs = sum(j.syncs for j in journals)
    print(json.dumps({"moves_in_current_games": moves, "cpu": cpu, "syncs": syncs}), flush=True)


async def clients(ports: list[int], think: float, seconds: float) -> None:
    stats: list[BotStats] = []
    tasks = []
    conns = []
    for port in ports:
        for i in range(4):
            options = ClientOptions(heartbeat=5.0, dead_after=60.0)
            client = GameClient(LOCAL, port, f"bot{i}", options)
            await client.connect()
            conns.append(client)
            st = BotStats()
            stats.append(st)
            tasks.append(asyncio.create_task(run_bot(client, think=think, games=10**6, stats=st)))
    print(json.dumps({"started": True}), flush=True)
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    print(json.dumps({"stopping": True}), flush=True)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    trips = [rt for s in stats for rt in s.round_trips]
    games = sum(s.games for s in stats) // 4
    print(json.dumps({"trips": trips, "elapsed": elapsed, "games": games}), flush=True)
    for c in conns:
        await c.close()


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def cpu_seconds(pid: int) -> tuple[float, float] | None:
    """User and system CPU time of process ``pid`` so far (Linux), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, ValueError, IndexError):
        return None


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--think", type=float, default=0.2)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--no-journal", action="store_true", help="compare: no journal, no fsync")
    p.add_argument(
        "--profile", metavar="FILE", help="run the host under cProfile; write the stats to FILE"
    )
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--ports", help=argparse.SUPPRESS)
    p.add_argument("--dir", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        run = serve(args.games, args.dir, not args.no_journal)
        if args.profile:
            import cProfile

            with cProfile.Profile() as prof:
                asyncio.run(run)
            prof.dump_stats(args.profile)
        else:
            asyncio.run(run)
        return 0
    if args.ports:
        asyncio.run(clients(json.loads(args.ports), args.think, args.seconds))
        return 0
    me = [sys.executable, os.path.abspath(__file__)]
    load_before = _load()
    with tempfile.TemporaryDirectory() as tmp:
        host = subprocess.Popen(
            [*me, "--serve", "--games", str(args.games), "--dir", tmp]
            + (["--no-journal"] if args.no_journal else [])
            + (["--profile", args.profile] if args.profile else []),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert host.stdout is not None
        ports = json.loads(host.stdout.readline())["ports"]
        rss_idle = rss_mb(host.pid)
        shares = [ports[i :: args.workers] for i in range(args.workers)]
        workers = [
            subprocess.Popen(
                [
                    *me,
                    "--ports",
                    json.dumps(share),
                    "--think",
                    str(args.think),
                    "--seconds",
                    str(args.seconds),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            for share in shares
            if share
        ]
        for w in workers:
            assert w.stdout is not None
            w.stdout.readline()  # started
        cpu_start = cpu_seconds(host.pid)
        time.sleep(args.seconds * 0.8)
        rss_busy = rss_mb(host.pid)
        for w in workers:
            assert w.stdout is not None
            w.stdout.readline()  # stopping
        cpu_end = cpu_seconds(host.pid)
        results = [json.loads(w.communicate()[0].splitlines()[-1]) for w in workers]
        host.send_signal(signal.SIGTERM)
        host_out = host.communicate(timeout=30)[0].splitlines()
    host_end = json.loads(host_out[-1]) if host_out else {}
    trips = [t for r in results for t in r["trips"]]
    elapsed = max(r["elapsed"] for r in results)
    games = sum(r["games"] for r in results)
    journal = "no journal" if args.no_journal else "journal synced per move (event loop)"
    print(
        f"tables: {args.games} x 4 bot clients, think {args.think * 1000:.0f} ms, {journal}, "
        f"{elapsed:.1f} s, {args.workers} client processes"
    )
    print(f"moves: {len(trips)}  ({len(trips) / elapsed:.0f} moves/s), games finished: {games}")
    print(
        f"move round trip: p50 {pct(trips, 0.5) * 1000:.2f} ms, "
        f"p99 {pct(trips, 0.99) * 1000:.2f} ms, max {max(trips, default=0) * 1000:.2f} ms"
    )
    idle = "n/a" if rss_idle is None else f"{rss_idle:.1f} MB"
    busy = "n/a" if rss_busy is None else f"{rss_busy:.1f} MB"
    print(f"host RSS: {idle} after start, {busy} under load")
    cpu = host_end.get("cpu")
    syncs = host_end.get("syncs")
    if cpu_start is None or cpu_end is None or not trips:
        window = "n/a"
    else:
        user, system = (end - start for start, end in zip(cpu_start, cpu_end, strict=True))
        used = user + system
        window = (
            f"{used:.1f} s while measuring ({user:.1f} user, {system:.1f} system) = "
            f"{used / len(trips) * 1000:.2f} ms per move"
        )
    print(
        f"host CPU: {window}; {'n/a' if cpu is None else f'{cpu:.1f} s'} in all; "
        f"journal syncs: {syncs}, load average: {load_before} before, {_load()} after"
    )
    return 0


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (OSError, AttributeError):
        return "n/a"


if __name__ == "__main__":
    sys.exit(main())
