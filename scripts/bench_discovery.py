#!/usr/bin/env python3
"""Discovery latency benchmark on a virtual LAN (needs root; never touches real NICs).

Builds two bridged network namespaces (see tests/discovery/netns.py): one
machine runs the real ``sorry-lan host --headless``, the other the real
``sorry-lan list --first --json`` (stop at the first joinable game).  Over N
runs each it measures, from the start of the ``list`` command to its
JSON line arriving, i.e. mDNS sockets opened, browse, resolve, TCP liveness
probe and printing (the clock starts when the command's ``run`` is called,
so interpreter start-up and argument parsing are left out):

* host already up: the host has announced before the player starts
  (goal: median <= 150 ms);
* started together: host and player processes start at the same moment, the
  host with normal name probing (goal: median <= 1.5 s).

The wall time from spawning the ``list`` process (Python start-up and the
CLI's imports included) is printed too, for information.

Usage: sudo python3 scripts/bench_discovery.py [--runs 10]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "discovery"))
netns: Any = importlib.import_module("netns")

STEP = 15.0
# The real CLI, printing the monotonic clock (shared by every namespace) when the
# `list` command starts, after the interpreter started and the arguments were parsed.
PLAYER = """
import sys, time
from sorry_lan.commands import list_games
real_run = list_games.run
def run(args):
    print("T0", time.monotonic(), flush=True)
    return real_run(args)
list_games.run = run
from sorry_lan.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _spawn(machine: Any, argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["ip", "netns", "exec", machine.namespace, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def _read_until(proc: subprocess.Popen[str], prefix: str) -> tuple[str, float]:
    """The first stdout line starting with `prefix`, and when it arrived (monotonic)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + STEP
    for line in proc.stdout:
        if line.startswith(prefix):
            return line.rstrip("\n"), time.monotonic()
        if time.monotonic() > deadline:
            break
    raise RuntimeError(f"no line starting with {prefix!r} from {proc.args!r}")


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    if proc.stdout is not None:
        proc.stdout.close()


def run_once(lan: Any, data: str, game: str, together: bool) -> tuple[float, float]:
    """(seconds from the list command's start, seconds from its spawn) to the game listed."""
    host_m, player_m = lan.machines[0], lan.machines[1]
    host_argv = [sys.executable, "-m", "sorry_lan", "host", "--headless", "--port", "0"]
    host_argv += ["--data-dir", data, "--game-name", game]
    player_argv = [sys.executable, "-c", PLAYER, "list", "--first", "--json", "--timeout", "10"]
    procs: list[subprocess.Popen[str]] = []
    try:
        host = _spawn(host_m, host_argv)
        procs.append(host)
        if not together:
            _read_until(host, "advertised")
        spawned = time.monotonic()
        player = _spawn(player_m, player_argv)
        procs.append(player)
        t0 = float(_read_until(player, "T0 ")[0].split()[1])
        text, arrived = _read_until(player, "[")
        games = json.loads(text)
        if not any(g["name"] == game and g["joinable"] for g in games):
            raise RuntimeError(f"{game!r} not listed as joinable: {games}")
        return arrived - t0, arrived - spawned
    finally:
        for proc in reversed(procs):
            _stop(proc)


def report(label: str, samples: list[tuple[float, float]], goal: float) -> bool:
    ms = sorted(s[0] * 1000 for s in samples)
    wall = sorted(s[1] * 1000 for s in samples)
    median = statistics.median(ms)
    ok = median <= goal * 1000
    print(
        f"{label:<18} median {median:7.1f} ms   min {ms[0]:7.1f}   max {ms[-1]:7.1f}   "
        f"goal <= {goal * 1000:.0f} ms: {'met' if ok else 'MISSED'}"
    )
    print(f"{'':<18} runs: {', '.join(f'{x:.0f}' for x in ms)}")
    print(f"{'':<18} with Python start-up: median {statistics.median(wall):.0f} ms")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    reason = netns.netns_skip_reason()
    if reason is not None:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    with netns.VirtualLan(2) as lan, tempfile.TemporaryDirectory() as data:
        up = [run_once(lan, data, f"Bench up {i}", together=False) for i in range(args.runs)]
        together = [
            run_once(lan, data, f"Bench together {i}", together=True) for i in range(args.runs)
        ]
    print(
        f"discovery latency over {args.runs} runs: real `sorry-lan host` and "
        "`sorry-lan list --first`, from the list command's start to the game listed"
    )
    ok = report("host already up", up, 0.150)
    ok = report("started together", together, 1.5) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
