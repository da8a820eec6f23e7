#!/usr/bin/env python3
"""Takeover benchmark on a virtual LAN (issue 19; needs root; never touches real NICs).

Builds four bridged network namespaces (see tests/discovery/netns.py): one machine
runs the real ``sorry-lan host --headless --players 3 --takeover-delay D``, the other
three a ``sorry-lan bot --moves`` each (found by mDNS).  Each run lets the game go a
few moves, kills the host with SIGKILL, and measures the time from the kill to the
next move any bot says it saw (the takeover delay, the election and the new host's
first move), then waits for a few more moves and checks that every move each bot
showed is in the journals (the old host's, then the successor's): a move shown but in
no journal is a move lost.  It prints, over the runs, the time to the next move (p50,
max), the moves lost, and the runs that did not recover at all.

Usage: sudo python3 scripts/bench_takeover.py [--runs 30] [--delay 3]
"""

from __future__ import annotations

import argparse
import importlib
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "discovery"))
netns: Any = importlib.import_module("netns")
laptops: Any = importlib.import_module("lanlaptops")  # the LAN tests' laptops and journals

STEP = 20.0


def lost_moves(bots: list[Any], data: Path) -> int:
    """Moves some bot showed that no journal kept (each shown move must follow a kept
    move's state, a different kept move each): ``lanlaptops.check_game``'s rule, counted
    instead of asserted."""
    settled = [answered for answered, _colour in laptops.chain(data)]
    lost = set()
    for b in bots:
        last = -1
        for sid, _colour in laptops.moves_of(b):
            at = max((i for i, answered in enumerate(settled) if answered < sid), default=-1)
            if at <= last:
                lost.add(sid)
            else:
                last = at
    return len(lost)


def one_run(lan: Any, delay: int, index: int) -> tuple[float | None, int]:
    """One takeover: (seconds from the kill to the next move, moves lost)."""
    m0, *others = lan.machines
    game = f"Bench{index}"
    with tempfile.TemporaryDirectory(prefix=f"bench-takeover-{index}-") as where:
        data = Path(where)
        host = laptops.host(lan, m0, data / "host", game, "--players", "3",
                            "--takeover-delay", str(delay))
        host.expect(lambda msg: msg.get("line", "").startswith("advertised"), STEP)
        bots = [laptops.bot(lan, m, data, game, f"b{i}", "--think", "0.1")
                for i, m in enumerate(others, 1)]
        try:
            def shown() -> list[int]:
                return [len(laptops.moves_of(b)) for b in bots]

            deadline = time.monotonic() + STEP * 2
            while min(shown()) < 8:
                if time.monotonic() > deadline:
                    return None, 0
                time.sleep(0.01)
            host.kill(signal.SIGKILL)
            killed = time.monotonic()
            before = max(shown())
            took = None
            while time.monotonic() < killed + delay + 30:
                if max(shown()) > before:
                    took = time.monotonic() - killed
                    break
                time.sleep(0.005)
            if took is None:
                return None, 0
            time.sleep(2.0)  # a few more moves on the new host
            return took, lost_moves(bots, data)
        finally:
            lan.close_agents()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--delay", type=int, default=3, help="the hosts' --takeover-delay")
    args = parser.parse_args()
    skip = netns.netns_skip_reason()
    if skip is not None:
        print(f"cannot run: {skip}", file=sys.stderr)
        return 2
    times: list[float] = []
    lost = failed = 0
    with netns.VirtualLan(4) as lan:
        for i in range(args.runs):
            took, gone = one_run(lan, args.delay, i)
            if took is None:
                failed += 1
                print(f"run {i + 1}: no move after the host died", flush=True)
                continue
            times.append(took)
            lost += gone
            print(f"run {i + 1}: next move {took:.2f} s after the kill, {gone} lost", flush=True)
    if times:
        p50 = statistics.median(times)
        print(f"takeovers: {len(times)} of {args.runs}; time from host loss to the next move: "
              f"p50 {p50:.2f} s, max {max(times):.2f} s (delay {args.delay} s); "
              f"moves lost: {lost}; runs without a takeover: {failed}")
    return 0 if times and not failed and not lost else 1


if __name__ == "__main__":
    sys.exit(main())
