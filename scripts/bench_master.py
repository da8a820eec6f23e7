#!/usr/bin/env python3
"""The master against another strength (default greedy, 2 players, standard), in
work-limit mode by default: the deterministic work limit ends every search and the
clock never does, so a loaded machine changes the time a game takes but not one
move (the figure is the master's on a machine where its work fits its budget; the
shipped work limit is sized to about half of the 1 s budget on one core here).
``--clock`` plays with the real budget instead (what a host does).

It prints the games, the master's win rate with its 95% Wilson interval, and its
decision time (wall clock and the deciding thread's CPU: mean, p95, max), so far
every ``--every`` games (a run stopped early still tells its figure).  Seats and the
first move rotate game by game, with the games and seeds ``sorry-lan simulate``
would play.  This script
only measures; it asserts nothing and writes no files.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sorry_lan.bots import master
from sorry_lan.bots.base import Bot
from sorry_lan.bots.registry import FACTORIES
from sorry_lan.commands.simulate import SEATING, Stats, play_games, time_summary, wilson
from sorry_lan.rules.variants import Variant

#: A budget the clock never reaches in work-limit mode (seconds).
UNBOUNDED = 1e9


def _game(args: tuple[Variant, tuple[str, ...], tuple[int, int, int]]) -> Stats:
    variant, kinds, seeds = args
    return play_games(variant, kinds, [seeds])


def report(stats: Stats, work: int, mode: str, against: str, variant: str) -> str:
    """The figure so far: win rate, its interval, decision times."""
    wins = stats.kind_wins.get("master", 0)
    lo, hi = wilson(wins, stats.games)
    lines = [f"master (work {work}, {mode}) vs {against}, {variant}, 2 players: "
             f"{wins}/{stats.games} = {100 * wins / max(stats.games, 1):.1f}% "
             f"[{100 * lo:.1f}, {100 * hi:.1f}] (95% Wilson)"]
    for name, values in (("wall clock", stats.times.get("master", [])),
                         ("thread CPU", stats.cpu_times.get("master", []))):
        ms = time_summary(values)
        if ms["count"]:
            lines.append(f"  decision {name:<10}: {ms['count']} decisions, mean "
                         f"{ms['mean']:.0f} ms, p95 {ms['p95']:.0f} ms, max {ms['max']:.0f} ms")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--variant", default="standard",
                        choices=[v.value for v in Variant])
    parser.add_argument("--work", type=int, default=master.WORK,
                        help=f"the master's work limit (default {master.WORK})")
    parser.add_argument("--clock", action="store_true",
                        help="stop searches at the real budget too (not deterministic)")
    parser.add_argument("--budget", type=float, default=master.DEFAULT_BUDGET)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--every", type=int, default=20,
                        help="print the figure so far every this many games")
    args = parser.parse_args(argv)
    budget = args.budget if args.clock else UNBOUNDED

    def build(seed: int = 0, **_: object) -> Bot:
        return master.MasterBot(seed, budget=budget, work=args.work)

    FACTORIES["master"] = build  # the worker processes fork with it
    variant = Variant(args.variant)
    kinds = ("master", args.against)
    # The seeds and seat rotation of ``simulate(games, variant, kinds, seed)``, played
    # one game per task so that the figure so far can be printed as games end.
    rng = random.Random(args.seed)
    seeds = [(i, rng.getrandbits(63), rng.getrandbits(32) * 4) for i in range(args.games)]
    mode = f"clock {args.budget:g} s" if args.clock else "work-limit mode"
    started = time.perf_counter()
    stats = Stats(variant, SEATING[2], kinds)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for part in pool.map(_game, [(variant, kinds, s) for s in seeds]):
            stats.merge(part)
            if stats.games % args.every == 0 and stats.games < args.games:
                print(report(stats, args.work, mode, args.against, args.variant), flush=True)
    print(report(stats, args.work, mode, args.against, args.variant))
    print(f"  cut short by the clock: {stats.cut_short}; "
          f"{time.perf_counter() - started:.0f} s on {args.jobs} processes, load "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
