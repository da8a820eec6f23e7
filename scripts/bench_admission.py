#!/usr/bin/env python3
"""Measure how hard it is to get into a host by force: PIN guessing and idle sockets.

Starts a host on 127.0.0.1 with a PIN and, for ``--seconds``:

* **PIN guessing**: one attacker (one source address) tries wrong PINs on fresh
  connections as fast as the host answers, and counts how many the host judged
  (``bad_pin``) against how many it turned away unjudged (``rate_limited``);
* **lock-out**: a flood of idle sockets from 127.0.0.2 (``flood_sockets.py``, its
  own process) against a host without a PIN, during which an honest player joins
  again and again from 127.0.0.1, and after which the time until a newcomer gets in
  is measured (the recovery).

Prints one JSON object.  It asks a real host; speed targets live here, never in tests.

    python scripts/bench_admission.py --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sorry_lan.authority.table import Table, TableConfig  # noqa: E402
from sorry_lan.net.client import ClientOptions, GameClient, JoinError  # noqa: E402
from sorry_lan.net.host import HostOptions, HostServer  # noqa: E402

LOCAL = "127.0.0.1"
PIN = "4821"


async def guess(port: int, seconds: float) -> dict[str, float]:
    judged = throttled = 0
    first_wait: float | None = None
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        attempt = f"{n:04d}" if f"{n:04d}" != PIN else "0000"
        n += 1
        try:
            client = GameClient(LOCAL, port, "guesser", ClientOptions(pin=attempt, reconnect_for=0))
            await client.connect()
            await client.close()
        except JoinError as exc:
            if exc.reason == "bad_pin":
                judged += 1
            elif exc.reason == "rate_limited":
                throttled += 1
                if first_wait is None:
                    first_wait = time.perf_counter() - start
                await asyncio.sleep(0.05)  # a patient attacker retries at once
    elapsed = time.perf_counter() - start
    return {
        "seconds": round(elapsed, 1),
        "pins_judged": judged,
        "pins_judged_per_s": round(judged / elapsed, 3),
        "turned_away_unjudged": throttled,
        "first_throttled_after_s": round(first_wait or 0.0, 2),
    }


async def lockout(port: int, seconds: float, server: HostServer) -> dict[str, float]:
    flood_script = ROOT / "scripts" / "flood_sockets.py"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(flood_script), str(port), "--source", "127.0.0.2",
        "--sockets", "200", "--pause", "0.5", stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    await proc.stdout.readline()
    await asyncio.sleep(min(2.0, seconds / 2))
    joins: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        client = GameClient(LOCAL, port, "honest", ClientOptions(reconnect_for=0))
        try:
            await client.connect()
            joins.append(time.perf_counter() - t0)
        except JoinError:
            joins.append(float("inf"))
        await client.close()
        await asyncio.sleep(0.5)
    waiting = sum(1 for p in server.core.peers.values() if p.session.join_request is None)
    proc.send_signal(signal.SIGTERM)
    out, _ = await proc.communicate()
    flood = json.loads(out.decode().strip().splitlines()[-1])
    t0 = time.perf_counter()
    client = GameClient(LOCAL, port, "after", ClientOptions(reconnect_for=0))
    await client.connect()
    recovery = time.perf_counter() - t0
    await client.close()
    ok = [j for j in joins if j != float("inf")]
    return {
        "flood_sockets_opened": flood["opened"],
        "flood_closed_by_host": flood["closed_by_host"],
        "waiting_sockets_at_end": waiting,
        "honest_joins": len(ok),
        "honest_join_failures": len(joins) - len(ok),
        "honest_join_ms_max": round(1000 * max(ok, default=0.0), 1),
        "recovery_ms_after_flood": round(1000 * recovery, 1),
    }


async def main(seconds: float) -> None:
    report: dict[str, dict[str, float]] = {}
    for part in ("pin", "lockout"):
        # A fresh host for each part: the guessing spends the PIN allowance.
        table = Table(TableConfig(seats=4))
        server = HostServer(table, HostOptions(pin=PIN if part == "pin" else None, stay=True))
        await server.start(LOCAL, 0)
        port = server.address[1]
        try:
            if part == "pin":
                report[part] = await guess(port, seconds)
            else:
                report[part] = await lockout(port, seconds, server)
        finally:
            await server.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    asyncio.run(main(args.seconds))
