#!/usr/bin/env python3
"""Benchmark ``sorry-lan simulate --jobs 1`` against the ``apologies`` engine, one
process each, by the marginal CPU time of a game.

Each engine runs in a process of its own twice, playing ``--games`` games and then
``--games`` more (random bots, ``--players`` players): the difference of the two
processes' CPU times, per extra game, is what a game costs once the process is up
(start-up, imports and first-use tables cancel out).  Ours is the real command
(``python -m sorry_lan simulate --jobs 1 --bots random``); apologies plays through
its rules API, the fastest way it allows (``bench_engine.Apologies``; its own
``Engine.play_next`` loop with random input sources took 13 s a game here, so it is
not the yardstick).  The pairs of
runs take turns (``--rounds``), so a machine whose load drifts slows both alike; the
ratio is of the summed marginal times.

Recorded (issue 24, 2026-12-01, load average 5-10, defaults): ours 4.31 ms a game,
apologies 106.5 ms, 24.7x (goal 50x: not met; with ``--players 2`` in a shorter run
18.7x).

``apologies`` is not a project dependency: ``pip install apologies`` to run this.
This script only measures; it asserts nothing and writes no files.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

APOLOGIES = """
import sys
sys.path.insert(0, {scripts!r})
from bench_engine import Apologies
engine = Apologies()
for seed in range({games}):
    engine.play(seed + 1, players={players})
"""


def child_cpu(command: Sequence[str]) -> float:
    """CPU seconds (user + system) that running ``command`` to its end took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def ours(games: int, players: int) -> list[str]:
    return [sys.executable, "-m", "sorry_lan", "simulate", "--jobs", "1", "--bots", "random",
            "--players", str(players), "--games", str(games), "--seed", "1"]


def theirs(games: int, players: int) -> list[str]:
    code = APOLOGIES.format(scripts=str(ROOT / "scripts"), games=games, players=players)
    return [sys.executable, "-c", code]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--games", type=int, default=2000,
                        help="our extra games per pair of runs (default 2000)")
    parser.add_argument("--apologies-games", type=int, default=40,
                        help="apologies' extra games per pair of runs (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs each (default 3)")
    args = parser.parse_args(argv)
    try:
        import apologies  # noqa: F401
    except ImportError:
        print("bench_simulate: the 'apologies' package is needed: pip install apologies",
              file=sys.stderr)
        return 1
    n_ours, n_theirs = args.games, args.apologies_games
    marginal = {"ours": 0.0, "apologies": 0.0}
    games = {"ours": 0, "apologies": 0}
    for r in range(args.rounds):
        for name, n in (("ours", n_ours), ("apologies", n_theirs)):
            if name == "ours":
                small, large = (child_cpu(ours(k, args.players)) for k in (1, 1 + n))
            else:
                small, large = (child_cpu(theirs(k, args.players)) for k in (1, 1 + n))
            marginal[name] += large - small
            games[name] += n
            print(f"round {r + 1}, {name}: {1000 * (large - small) / n:.3f} ms a game "
                  f"({n} games: {large:.2f} s against {small:.2f} s for one)", flush=True)
    per_ours = marginal["ours"] / games["ours"]
    per_theirs = marginal["apologies"] / games["apologies"]
    print(f"\n{args.players}-player random games, marginal CPU time a game:")
    print(f"  ours (simulate --jobs 1): {1000 * per_ours:8.3f} ms  ({1 / per_ours:8.1f} games/s)")
    print(f"  apologies (rules API):    {1000 * per_theirs:8.3f} ms  "
          f"({1 / per_theirs:8.2f} games/s)")
    print(f"  ratio: {per_theirs / per_ours:.1f}x (goal >= 50x: "
          f"{'met' if per_theirs / per_ours >= 50 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
