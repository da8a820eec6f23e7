#!/usr/bin/env python3
"""Discovery latency benchmark, run in network namespaces (needs root; never touches real NICs).

Builds a virtual LAN (bridged namespaces, see tests/discovery/netns.py) and,
over N runs each, measures the time from a player starting to browse to the
game appearing in its list (resolved and liveness-checked):

* host already up: the host has finished registering before the player starts
  (goal: median <= 150 ms);
* started together: host (with normal name probing) and player start at the
  same moment (goal: median <= 1.5 s).

Usage: sudo python3 scripts/bench_discovery.py [--runs 10]
Host and player are separate processes (tests/discovery/lan_agent.py).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "discovery"))
netns: Any = importlib.import_module("netns")

AGENT = "tests/discovery/lan_agent.py"
STEP = 15.0


def _agent(lan: Any, machine: Any, *args: str) -> Any:
    return lan.spawn(machine, [sys.executable, AGENT, *args, "--bind", machine.address])


def run_once(lan: Any, game: str, together: bool) -> float:
    """One measurement in seconds, from the start of browsing to the game listed."""
    host_m, player_m = lan.machines[0], lan.machines[1]
    try:
        if together:
            host = _agent(lan, host_m, "advertise", "--game", game, "--probe")
            player = _agent(lan, player_m, "browse")
        else:
            host = _agent(lan, host_m, "advertise", "--game", game, "--probe")
            host.expect(lambda m: m["event"] == "ready", STEP)
            player = _agent(lan, player_m, "browse")
        found = player.expect(lambda m: m["event"] == "added" and m["game"]["name"] == game, STEP)
        if not found["game"]["joinable"]:
            raise RuntimeError(f"game listed but not joinable: {found}")
        return float(found["t"])
    finally:
        lan.close_agents()


def report(label: str, samples: list[float], goal: float) -> bool:
    ms = sorted(s * 1000 for s in samples)
    median = statistics.median(ms)
    ok = median <= goal * 1000
    print(
        f"{label:<18} median {median:7.1f} ms   min {ms[0]:7.1f}   max {ms[-1]:7.1f}   "
        f"goal <= {goal * 1000:.0f} ms: {'met' if ok else 'MISSED'}"
    )
    print(f"{'':<18} runs: {', '.join(f'{x:.0f}' for x in ms)}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    reason = netns.netns_skip_reason()
    if reason is not None:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    with netns.VirtualLan(2) as lan:
        up = [run_once(lan, f"Bench up {i}", together=False) for i in range(args.runs)]
        together = [run_once(lan, f"Bench together {i}", together=True) for i in range(args.runs)]
    print(f"discovery latency over {args.runs} runs (browse start -> game listed and verified)")
    ok = report("host already up", up, 0.150)
    ok = report("started together", together, 1.5) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
